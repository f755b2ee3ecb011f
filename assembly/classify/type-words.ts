/**
 * Type words (`ул`, `г`, `пр-кт`, `р-н`): the lookups mark them on the token (`addTypeHit`: F_TYPE_A, F_TYPE_B, the
 * types the word can be), and a type word beside an object's name adds to the candidate or takes away (`scoreType`:
 * 30 for its type, 15 for another of its level, −15 against both, −300 for a street's type beside a place's name or
 * a district's beside a street's). The bounds on what an object not read yet can get from them (`typeBonusBound`,
 * `leafTypeBound`, `besideTypeBonus`) follow the same rules. `scoreType` writes the object slot's type fields
 * (candidates.ts OBJ_SLOTS @20, @24).
 */
import { NORM, u16At } from '../memory';
import { obj, word, typeLevelMask, O_TYPE, O_LEVEL } from '../blob';
import { tok, setTok, tokenCount, F_START, F_LEN, F_KIND, F_SEGMENT, F_TYPE_A, F_TYPE_B } from '../tokenize';
import { prefixTok } from './hit-log';
import { hitLeafLevels } from './leaf-hits';

/** Records a type word hit on token t. */
export function addTypeHit(t: i32, w: i32): void {
  const a = word(w, 2);
  const b = word(w, 3);
  if (a < 0) return;
  if (tok(t, F_TYPE_A) < 0) {
    setTok(t, F_TYPE_A, a);
    setTok(t, F_TYPE_B, b);
  }
}

/**
 * The type bonus `scoreType` gives an object of this type and level (0xffff: any) whose name is token t alone: the
 * best of the type words beside t in its segment that agree, else −15 when one contradicts it, else 0.
 */
export function besideTypeBonus(t: i32, type: i32, level: i32): i32 {
  let best = 0;
  let against = false;
  for (let side = 0; side < 2; side++) {
    const n = side == 0 ? t - 1 : t + 1;
    if (n < 0 || n >= tokenCount || tok(n, F_SEGMENT) != tok(t, F_SEGMENT)) continue;
    const a = tok(n, F_TYPE_A);
    if (a < 0) continue;
    const bonus = typeWordBonus(a, tok(n, F_TYPE_B), type, level);
    if (bonus > best) best = bonus;
    else if (bonus < 0 && n != prefixTok) against = true; // (the word being typed contradicts nothing: scoreType)
  }
  return best > 0 ? best : against ? -15 : 0;
}

/**
 * The most a type word of the query can add to a leaf the hits reach: none when no type word's type occurs at
 * a level of those leaves (types.levelMask holds every level a type occurs at).
 */
export function leafTypeBound(): i32 {
  for (let t = 0; t < tokenCount; t++) {
    const a = tok(t, F_TYPE_A);
    if (a < 0) continue;
    if (((typeLevelMask(a) | typeLevelMask(tok(t, F_TYPE_B))) & hitLeafLevels) != 0) return 30;
  }
  return 0;
}

/** The most `typeBonusBound` gives any object: 30 when a token is a type word. */
export function typeBonusMost(): i32 {
  for (let t = 0; t < tokenCount; t++) if (tok(t, F_TYPE_A) >= 0) return 30;
  return 0;
}

/** The most a type word of the query can add to object o (scoreType's bonus, whatever the name's place). */
export function typeBonusBound(o: i32): i32 {
  return typeBonusOf(obj(o, O_TYPE), obj(o, O_LEVEL));
}

/** `typeBonusBound` of an object of this type and level (type 0xffff: any type). */
export function typeBonusOf(type: i32, level: i32): i32 {
  let best = 0;
  for (let t = 0; t < tokenCount; t++) {
    const a = tok(t, F_TYPE_A);
    if (a < 0) continue;
    const b = tok(t, F_TYPE_B);
    if (a == type || b == type || type == 0xffff) return 30;
    if (((typeLevelMask(a) | typeLevelMask(b)) & (1 << level)) != 0) best = 15;
  }
  return best;
}

/**
 * What a type word read as types a, b gives an object of this type and level (0xffff: any type) beside its name: 30
 * for its type, 15 for another of its level, −15 when it contradicts both; −300 for a district's type beside a
 * street's name or a street's beside a place's when the word can type no other name (`typeWordAlone`).
 */
// @ts-ignore: decorator
@inline function typeWordBonus(a: i32, b: i32, type: i32, level: i32, alone: bool = false): i32 {
  if (a == type || b == type || type == 0xffff) return 30;
  const levels = typeLevelMask(a) | typeLevelMask(b);
  if ((levels & (1 << level)) != 0) return 15;
  // a type word that can type no other name (`alone`: `typeWordAlone`) says what the name beside it is not: a
  // district's or region's beside a street's name (`Верх-Исетский р-н, ул Шаумяна`: the city's district the data
  // lacks, not б-р Верх-Исетский), a street's beside a place's (`г. Алматы, ул. Абая`: no village Абай)
  if (alone && (level >= STREET_LEVEL_FROM ? (levels & PLACE_TYPE_LEVELS) == levels : (levels & STREET_TYPE_LEVELS) == levels)) {
    return -DISTRICT_TYPE_PENALTY;
  }
  return -15;
}

/**
 * Type word t stands beside the name at token `near` with nothing on its other side in its part of the string
 * (`Верх-Исетский р-н,`; `, ул. Абая`), so it types that name or none; in `Свердловская обл Малышева` the обл is
 * Свердловская's, and in `Байконур мкр 5` the мкр the number's: neither says anything against the other name.
 */
function typeWordAlone(t: i32, near: i32): bool {
  const other = t + (t - near);
  return other < 0 || other >= tokenCount || tok(other, F_SEGMENT) != tok(t, F_SEGMENT);
}
/**
 * The word of token t is typed again elsewhere in the string (`Верх-Исетский район, б-р Верх-Исетский`: the district
 * and the street of one name): a type word beside one of the two says nothing against the name (the solver keeps one
 * of a word's tokens, and it may be the other's).
 */
function typedTwice(t: i32): bool {
  const start = tok(t, F_START);
  const len = tok(t, F_LEN);
  for (let k = 0; k < tokenCount; k++) {
    if (k == t || tok(k, F_LEN) != len || tok(k, F_KIND) != tok(t, F_KIND)) continue;
    let same = true;
    for (let c = 0; c < len && same; c++) same = u16At(NORM, tok(k, F_START) + c) == u16At(NORM, start + c);
    if (same) return true;
  }
  return false;
}
/** the levels of a street's type word (plan structure, street) */
const STREET_TYPE_LEVELS: i32 = (1 << 6) | (1 << 7);
/** the levels of a region's or district's type word (region, area, city district) */
const PLACE_TYPE_LEVELS: i32 = (1 << 1) | (1 << 2) | (1 << 4);
/** the object levels a place's type word says a name is not: plan structures and streets */
const STREET_LEVEL_FROM: i32 = 6;
const DISTRICT_TYPE_PENALTY: i32 = 300;

/** Type word next to the name: agreeing with the object's type or level adds, contradicting takes away. */
export function scoreType(o: usize): void {
  const objectId = load<i32>(o);
  const type = obj(objectId, O_TYPE);
  const level = obj(objectId, O_LEVEL);
  const first = load<i32>(o, 8);
  const last = load<i32>(o, 12);
  const mask = load<u64>(o, 32);
  let bestBonus = 0;
  let bestToken = -1;
  for (let side = 0; side < 2; side++) {
    const t = side == 0 ? first - 1 : last + 1;
    if (t < 0 || t >= tokenCount) continue;
    const near = side == 0 ? first : last;
    if (tok(t, F_SEGMENT) != tok(near, F_SEGMENT)) continue;
    if ((mask & ((<u64>1) << <u64>t)) != 0) continue;
    const a = tok(t, F_TYPE_A);
    if (a < 0) continue;
    const bonus = typeWordBonus(a, tok(t, F_TYPE_B), type, level, typeWordAlone(t, near) && !typedTwice(near));
    // the word being typed may still be the start of a name (`екатеринбург ул` on the way to Ульяновская): it types
    // what it agrees with, and contradicts nothing
    if (bonus < 0 && t == prefixTok) continue;
    if (bonus > bestBonus || (bestToken < 0 && bonus < 0 && bestBonus == 0)) {
      if (bonus > 0 || bestBonus == 0) { bestBonus = bonus; bestToken = bonus > 0 ? t : -1; }
    }
  }
  store<i32>(o, bestBonus, 24);
  store<i32>(o, bestToken, 20);
}
