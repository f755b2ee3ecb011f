/**
 * Postings read in parts: the names of areas of every hit at once (`readHit`, from classifyNames; every name when the
 * dictionary has no subtree index); the leaves as the solver asks (solve/scope.ts): `expandLeaves(lo, hi)` the leaves
 * whose object lies in [lo, hi), by hit or, when the range has fewer names than the slices cost to find, by the range's
 * names (`readRangeByNames`); `readLeaf` one posting of a sweep; `readObject` every name of one object with every hit
 * on its words (ordered.ts); `readNameWhole` one name with every hit (places.ts). Every part applies the hits in log
 * order, so each name sees its hits as in one full pass (candidates.ts `readPosting`). Names are stored by object:
 * `firstNameAt` finds an object's first.
 */
import { reserve } from '../memory';
import { word, posting, name, nameWord, nameCount } from '../blob';
import { scoped, isArea, areaStart, areaCount, areaName, firstPostingAt } from '../subtree';
import { sortAscending } from '../heap';
import { hitTotal, hitWord } from './hit-log';
import { readPosting, nameRead } from './candidates';
import { LEAF_HITS, leafHitCount, leafProbes, indexHitWords, wordSlot, HIT_NEXT } from './leaf-hits';

/** (hit, name) pairs one object is read with at once (`readObject`) */
const TOUCH_CAP: i32 = 512;
/** (hit, name) pairs one range read by its names can hold (`readRangeByNames`; a bigger one is read by hit) */
const RANGE_CAP: i32 = 32768;
/**
 * what reading one name of a range by its words costs, in binary-search steps: a few probes of the small word index,
 * the names and their words read in a row, where a step reads a posting and its name at random
 */
const NAME_SCAN_COST: i32 = 1;

let TOUCH: usize = 0;
let RANGE_PAIRS: usize = 0;

export function setupPostings(): void {
  if (TOUCH != 0) return;
  TOUCH = reserve(<usize>TOUCH_CAP << 3);
  RANGE_PAIRS = reserve(<usize>RANGE_CAP << 3);
}

/** Hit h on every name of its word (`areas`: only the names of areas, subtree.ts). */
export function readHit(h: i32, areas: bool): void {
  const w = hitWord(h);
  if (areas) {
    const start = areaStart(w);
    const end = start + areaCount(w);
    for (let k = start; k < end; k++) if (!readPosting(h, areaName(k))) return;
  } else {
    const start = word(w, 0);
    const end = start + word(w, 1);
    for (let k = start; k < end; k++) if (!readPosting(h, posting(k))) return;
  }
}

/** The first name of an object ≥ o (names are stored by object), nameCount when none. */
export function firstNameAt(o: i32): i32 {
  let lo = 0;
  let hi = nameCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (name(mid, 0) < o) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Some name of object o has a word whose id is in [low, high] (a run of words one prefix begins: trie.ts). */
export function nameHasWordIn(o: i32, low: i32, high: i32): bool {
  for (let n = firstNameAt(o); n < nameCount && name(n, 0) == o; n++) {
    const ws = name(n, 1);
    for (let j = 0; j < name(n, 2); j++) {
      const w = nameWord(ws + j, 0);
      if (w >= low && w <= high) return true;
    }
  }
  return false;
}

/** Binary-search steps of reading `names` consecutive names by their words: the two searches for the range's ends, then each name. */
// @ts-ignore: decorator
@inline function byNamesCost(names: i32): i32 {
  return 2 * (32 - clz<i32>(nameCount)) + names * NAME_SCAN_COST;
}

/** Binary-search steps of reading [lo, hi) the cheaper way (`expandLeaves`): by hit, or by the range's names. */
export function rangeCost(lo: i32, hi: i32): i32 {
  if (!indexHitWords()) return leafProbes;
  const byNames = byNamesCost(firstNameAt(hi) - firstNameAt(lo));
  return byNames < leafProbes ? byNames : leafProbes;
}

/**
 * Reads the leaf names [first, end) by their words (WORD_SLOTS): every (hit, name) pair, sorted, so the names
 * see their hits as a reading by hit gives them. False, having read nothing, when the pairs do not fit.
 */
function readRangeByNames(first: i32, end: i32): bool {
  let count = 0;
  for (let n = first; n < end; n++) {
    if (isArea(name(n, 0))) continue;
    const start = name(n, 1);
    for (let j = start; j < start + name(n, 2); j++) {
      const p = wordSlot(nameWord(j, 0), false);
      if (p == 0) continue;
      for (let h = load<i32>(p, 8); h >= 0; h = load<i32>(HIT_NEXT + (<usize>h << 2))) {
        if (count >= RANGE_CAP) return false;
        store<i64>(RANGE_PAIRS + (<usize>count << 3), (<i64>h << 32) | <i64>n);
        count++;
      }
    }
  }
  sortAscending(RANGE_PAIRS, count);
  let last: i64 = -1;
  for (let k = 0; k < count; k++) {
    const pair = load<i64>(RANGE_PAIRS + (<usize>k << 3));
    if (pair == last) continue; // a word twice in the name
    last = pair;
    if (!readPosting(<i32>(pair >> 32), <i32>(pair & 0xffffffff))) return true;
  }
  return true;
}

/**
 * Reads the leaf names of objects in [lo, hi) for every hit, in hit order: one slice of each posting list
 * (subtree.ts), or, when the range has fewer names than the slices cost to find, the range's names by their words
 * (a town's streets against the thousands of words a short prefix hits). New names wait for `collectObjects`.
 */
export function expandLeaves(lo: i32, hi: i32): void {
  if (!scoped || lo >= hi) return;
  if (indexHitWords()) {
    const first = firstNameAt(lo);
    const end = firstNameAt(hi);
    if (byNamesCost(end - first) < leafProbes && readRangeByNames(first, end)) return;
  }
  for (let i = 0; i < leafHitCount; i++) {
    const h = load<i32>(LEAF_HITS + (<usize>i << 2));
    const w = hitWord(h);
    const start = word(w, 0);
    const end = start + word(w, 1);
    if (name(posting(start), 0) >= hi || name(posting(end - 1), 0) < lo) continue;
    for (let k = firstPostingAt(start, end, lo); k < end; k++) {
      const nameId = posting(k);
      const o = name(nameId, 0);
      if (o >= hi) break;
      if (isArea(o)) continue;
      if (!readPosting(h, nameId)) return;
    }
  }
}

/** Reads one leaf name for hit h (a caller walking the posting lists itself); false when reading must stop. */
export function readLeaf(h: i32, nameId: i32): bool {
  return readPosting(h, nameId);
}

/**
 * Reads leaf name `nameId` for every hit on its words, in hit order, as one pass would (a name is read by one
 * part: later parts pass it by). Reading it again changes nothing (a token hits a name once).
 */
export function readNameWhole(nameId: i32): bool {
  const ws = name(nameId, 1);
  const wc = name(nameId, 2);
  for (let h = 0; h < hitTotal; h++) {
    const w = hitWord(h);
    for (let j = 0; j < wc; j++) {
      if (nameWord(ws + j, 0) != w) continue;
      if (!readPosting(h, nameId)) return false;
      break;
    }
  }
  return true;
}

/** Adds (hit, name) for every hit on a word of name n to TOUCH, kept in (hit, name) order; returns the new count. */
function touchName(n: i32, count: i32): i32 {
  const start = name(n, 1);
  for (let j = start; j < start + name(n, 2); j++) {
    const p = wordSlot(nameWord(j, 0), false);
    if (p == 0) continue;
    for (let h = load<i32>(p, 8); h >= 0 && count < TOUCH_CAP; h = load<i32>(HIT_NEXT + (<usize>h << 2))) {
      const entry = (<i64>h << 32) | <i64>n;
      let at = count;
      while (at > 0 && load<i64>(TOUCH + (<usize>(at - 1) << 3)) > entry) at--;
      if (at > 0 && load<i64>(TOUCH + (<usize>(at - 1) << 3)) == entry) continue; // a word twice in the name
      memory.copy(TOUCH + (<usize>(at + 1) << 3), TOUCH + (<usize>at << 3), <usize>(count - at) << 3);
      store<i64>(TOUCH + (<usize>at << 3), entry);
      count++;
    }
  }
  return count;
}

/**
 * Reads every name of the object of leaf name n (names are stored by object) with every hit on its words,
 * by hit, then by name: as one pass reaches them, so the object is whole when it is collected.
 */
export function readObject(n: i32): void {
  const o = name(n, 0);
  let first = n;
  while (first > 0 && name(first - 1, 0) == o) first--;
  let count = 0;
  for (let m = first; m < nameCount && name(m, 0) == o; m++) if (!nameRead(m)) count = touchName(m, count);
  for (let k = 0; k < count; k++) {
    const entry = load<i64>(TOUCH + (<usize>k << 3));
    if (!readPosting(<i32>(entry >> 32), <i32>(entry & 0xffffffff))) return;
  }
}
