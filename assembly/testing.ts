/**
 * The core's test hooks: exports of the debug build only (its entry is debug.ts; the release build, index.ts, has
 * none). Tests and the property checks reach the core's internals through them: its counters, one word looked up
 * alone, and the references the fast paths are checked against (every reading read, every raising solve done again).
 * Each hook sets state through its owner's setter; none keeps state of its own.
 */
import { RESULT, INPUT_CAPACITY, setI32, i32At } from './memory';
import { normalize, VARIANT_COUNT } from './text';
import { fuzzyCount, visitCount, memoAnswers, resetVisitBudget, lookup, setCellWalk, hitCount, HITS, costOf } from './trie';
import { objUsed } from './classify/candidates';
import { restLooks } from './classify/ordered';
import { readsSoFar } from './reads';
import { setRaising } from './solve/chain';
import { readEveryVariant } from './solve/readings';

/**
 * Diagnostics: 0 fuzzy trie walks made, 1 trie nodes they visited (since start), 2 candidates
 * the last call collected, 3 fuzzy lookups answered from the call's memo of walks (since start), 4 names of the
 * ordered rest whose records the last call read to bound them one by one (classify/ordered.ts restLooks), 5 posting
 * entries read (since start, wrapping at 2^32: reads.ts).
 */
export function stats(kind: i32): i32 {
  return kind == 0 ? fuzzyCount : kind == 1 ? visitCount : kind == 2 ? objUsed : kind == 3 ? memoAnswers : kind == 4 ? restLooks : kind == 5 ? readsSoFar() : 0;
}

/**
 * Looks INPUT[0…len), folded as `variant`, up as one word with `budget` edits (`prefix` 1: as
 * a prefix), by the cell walk when `cells` is 1 (trie.ts, the bit walk's reference). RESULT: [0] hit count,
 * then (word id, cost) per hit. Returns the count.
 */
export function lookupWord(len: i32, variant: i32, budget: i32, prefix: i32, cells: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY || variant < 0 || variant >= VARIANT_COUNT) return -1;
  resetVisitBudget();
  const folded = normalize(len, variant);
  setCellWalk(cells != 0);
  lookup(0, folded, budget, prefix != 0);
  setCellWalk(false);
  const count = hitCount;
  setI32(RESULT, 0, count);
  for (let h = 0; h < count; h++) {
    setI32(RESULT, 1 + h * 2, i32At(HITS, h * 2));
    setI32(RESULT, 2 + h * 2, costOf(i32At(HITS, h * 2 + 1)));
  }
  return count;
}

/**
 * How standardize passes the rest by once a runner-up is within the margin (solve/chain.ts `raising`): 0 below
 * the winner less the margin only, 1 below the winner (the default), 2 as 1 with every solve that raised done again
 * without (the guard `solvedExactly` rarely needs, run every time).
 */
export function setStandardizeRaising(mode: i32): void {
  setRaising(mode < 0 || mode > 2 ? 1 : mode);
}

/** Every variant read, in variant order, none settling the call (the reference for `standardize` and `suggest`). */
export function setEveryReading(on: i32): void {
  readEveryVariant(on != 0);
}
