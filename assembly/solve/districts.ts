/**
 * District heuristics of the leftovers (solve/answer.ts): whether a word the chain did not read names a district the
 * answer agrees with rather than contradicts. The data places some answers in no district (OSM's villages sit in
 * their region, a city's districts are in no extract): a district typed there is no leftover that says the address is
 * wrong. They read the candidates the last solve collected (classify/candidates.ts: slot layout there) and the token table.
 */
import { tok, tokenCount, F_KIND, F_ROLE, F_SEGMENT, F_TYPE_A, F_TYPE_B, KIND_ALPHA, ROLE_FREE } from '../tokenize';
import { obj, typeLevelMask, O_LEVEL, O_PARENT } from '../blob';
import { objUsed, objAt } from '../classify/candidates';

/**
 * Token t names a district (level 2) of the region above object o, o lies in a settlement (level 5) and no district
 * or city stands above it: the data places the village in its region directly (OSM's villages), so the district typed
 * agrees with the answer rather than contradicting it. Under another district it would, and a city (Екатеринбург)
 * is in no district: the word stays a leftover there.
 */
export function namesDistrictAbove(t: i32, o: i32): bool {
  if (t >= 64) return false;
  let region = -1;
  let settlement = false;
  for (let a = o; a >= 0; a = obj(a, O_PARENT)) {
    const level = obj(a, O_LEVEL);
    if (level == 2 || level == 3) return false;
    if (level == 5) settlement = true;
    region = a;
  }
  return settlement && districtReads(t, region);
}

/** A candidate district (level 2) of `region` reads token t (< 64). */
function districtReads(t: i32, region: i32): bool {
  const bit: u64 = (<u64>1) << <u64>t;
  for (let k = 0; k < objUsed; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0 || (load<u64>(p, 32) & bit) == 0) continue;
    const d = load<i32>(p);
    if (obj(d, O_LEVEL) == 2 && obj(d, O_PARENT) == region) return true;
  }
  return false;
}

/**
 * Token t is a word of a name typed with a district's type word beside it (`Верх-Исетский р-н`, `район Октябрьский`)
 * and object o lies in a city: the city's district, which the data does not place the answer in (OSM's extracts
 * carry none), a leftover of no weight for the address; not a district the dictionary has.
 */
export function namesCityDistrict(t: i32, o: i32): bool {
  if (t >= 64 || (!districtTypeAt(nextNameEnd(t, 1)) && !districtTypeAt(nextNameEnd(t, -1)))) return false;
  // a district the dictionary has in the answer's region (`Сысертский р-н`) is one the answer is not in: that says
  // something (a Ленинский р-н of another region does not)
  if (districtReads(t, rootOf(o))) return false;
  for (let a = o; a >= 0; a = obj(a, O_PARENT)) if (obj(a, O_LEVEL) == 3) return true;
  return false;
}

/** The object at the top of o's chain (its region). */
function rootOf(o: i32): i32 {
  while (obj(o, O_PARENT) >= 0) o = obj(o, O_PARENT);
  return o;
}

/** The first token from t on in direction `step` (±1), within t's part of the string, that is no plain word of a name (at most two words on). */
function nextNameEnd(t: i32, step: i32): i32 {
  let k = t + step;
  for (let n = 0; n < 2 && k >= 0 && k < tokenCount && tok(k, F_SEGMENT) == tok(t, F_SEGMENT); n++, k += step) {
    if (tok(k, F_KIND) != KIND_ALPHA || tok(k, F_TYPE_A) >= 0) return k;
  }
  return k >= 0 && k < tokenCount && tok(k, F_SEGMENT) == tok(t, F_SEGMENT) ? k : -1;
}

/** Token k is a type word of districts only (`р-н`, `район`: an area or a city's district). */
function districtTypeAt(k: i32): bool {
  if (k < 0 || k >= tokenCount || tok(k, F_ROLE) != ROLE_FREE) return false;
  const a = tok(k, F_TYPE_A);
  if (a < 0) return false;
  const levels = typeLevelMask(a) | typeLevelMask(tok(k, F_TYPE_B));
  return (levels & ~DISTRICT_LEVELS) == 0;
}
const DISTRICT_LEVELS: i32 = (1 << 2) | (1 << 4);
