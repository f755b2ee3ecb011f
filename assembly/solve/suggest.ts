/**
 * Hints: the same classifiers and chain scores as standardization, ranked for a partial query.
 * The last word is read as a prefix; once a number follows a street, the houses of the best streets
 * whose key starts with it become the hints.
 *
 * Rank = chain score + LevelBonus (regions and cities first, as people type them first)
 *        + WeightBonus (bits of population / house count) − a penalty when the chain leaves the word being
 *        typed unexplained. TOP holds at most MAX_TOP (object, house, rank) triples, kept sorted.
 */
import { reserve, RESULT, setI32, u16At } from '../memory';
import { obj, house, houseKeyChar, O_LEVEL, O_WEIGHT, O_HOUSE_START, O_HOUSE_COUNT, H_KEY, H_KEY_LEN } from '../blob';
import { resetCandidates, classifyNames, collectObjects, objAt, objUsed } from '../classify/names';
import { chainScore, lastChainMask, lastChainWeight, scoreHouses } from './chain';
import { parseHouseParts, HOUSE_KEY, houseKeyLen } from '../house';
import { tok, tokenCount, F_KIND, F_ROLE, KIND_ALPHA, ROLE_FREE } from '../tokenize';

const MAX_TOP: i32 = 100;
let TOP: usize = 0;
let topCount: i32 = 0;

function setupTop(): void {
  if (TOP == 0) TOP = reserve(<usize>MAX_TOP * 12);
}

function levelBonus(level: i32): i32 {
  if (level == 1 || level == 3) return 30;
  if (level == 5) return 20;
  if (level == 2) return 10;
  return 0;
}

function bits(v: i32): i32 {
  return v <= 0 ? 0 : 32 - clz<i32>(v);
}

function offer(o: i32, h: i32, rank: i32, cap: i32): void {
  // a rank that cannot enter the full list costs nothing more
  if (topCount >= cap && rank <= load<i32>(TOP + <usize>(topCount - 1) * 12, 8)) return;
  // skip a duplicate
  for (let i = 0; i < topCount; i++) {
    const p = TOP + <usize>i * 12;
    if (load<i32>(p) == o && load<i32>(p, 4) == h) {
      if (rank <= load<i32>(p, 8)) return;
      // remove it, re-insert below
      for (let j = i; j < topCount - 1; j++) memory.copy(TOP + <usize>j * 12, TOP + <usize>(j + 1) * 12, 12);
      topCount--;
      break;
    }
  }
  if (topCount >= cap && rank <= load<i32>(TOP + <usize>(topCount - 1) * 12, 8)) return;
  let i = topCount < cap ? topCount : cap - 1;
  while (i > 0 && load<i32>(TOP + <usize>(i - 1) * 12, 8) < rank) {
    memory.copy(TOP + <usize>i * 12, TOP + <usize>(i - 1) * 12, 12);
    i--;
  }
  const p = TOP + <usize>i * 12;
  store<i32>(p, o);
  store<i32>(p, h, 4);
  store<i32>(p, rank, 8);
  if (topCount < cap) topCount++;
}

function keyStartsWith(off: i32, len: i32): bool {
  if (len < houseKeyLen) return false;
  for (let k = 0; k < houseKeyLen; k++) if (houseKeyChar(off + k) != u16At(HOUSE_KEY, k)) return false;
  return true;
}

/**
 * Ranks hints for the tokenized query into RESULT when its best rank beats `writeAbove`.
 * Returns the best rank (−1000000 when there is none).
 */
export function suggestInto(prefix: bool, max: i32, writeAbove: i32): i32 {
  setupTop();
  topCount = 0;
  const cap = max < 1 ? 1 : max > MAX_TOP ? MAX_TOP : max;
  parseHouseParts();
  // the word being typed: the last one, or the last word before the house number being typed
  // (`екатеринбург вокз 1`: вокз is still a prefix)
  let prefixToken = -1;
  if (prefix && tokenCount > 0) {
    let t = tokenCount - 1;
    while (t >= 0 && tok(t, F_ROLE) != ROLE_FREE) t--;
    if (t >= 0 && tok(t, F_KIND) == KIND_ALPHA) prefixToken = t;
  }
  resetCandidates();
  classifyNames(prefixToken);
  collectObjects(true);
  const houseMode = houseKeyLen > 0;
  scoreHouses(false);
  for (let k = 0; k < objUsed; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0) continue;
    const o = load<i32>(p);
    let rank = chainScore(p);
    const level = obj(o, O_LEVEL);
    rank += levelBonus(level) + bits(lastChainWeight()) / 2 + bits(obj(o, O_WEIGHT)) / 4;
    if (prefixToken >= 0 && (lastChainMask() & ((<u64>1) << <u64>prefixToken)) == 0) rank -= 60;
    if (houseMode && obj(o, O_HOUSE_COUNT) > 0) {
      const start = obj(o, O_HOUSE_START);
      const count = obj(o, O_HOUSE_COUNT);
      for (let h = start; h < start + count; h++) {
        const off = house(h, H_KEY);
        const len = house(h, H_KEY_LEN);
        if (!keyStartsWith(off, len)) continue;
        offer(o, h, rank + 60 + (len == houseKeyLen ? 20 : 0) - (len - houseKeyLen) * 2, cap);
      }
    }
    offer(o, -1, rank, cap);
  }
  scoreHouses(true);
  const best = topCount > 0 ? load<i32>(TOP, 8) : -1000000;
  if (best > writeAbove) {
    setI32(RESULT, 0, topCount);
    for (let i = 0; i < topCount; i++) {
      const p = TOP + <usize>i * 12;
      setI32(RESULT, 1 + i * 3, load<i32>(p));
      setI32(RESULT, 2 + i * 3, load<i32>(p, 4));
      setI32(RESULT, 3 + i * 3, load<i32>(p, 8));
    }
  }
  return best;
}
