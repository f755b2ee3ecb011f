/**
 * The core's test hooks: exports of the debug build only (its entry is debug.ts; the release build, index.ts, has
 * none). Tests and the property checks reach the core's internals through them: its counters, one word looked up
 * alone, the token table, the subtree index (ranges, postcodes, house leads), and the references the fast paths are
 * checked against (every reading read, every raising solve done again).
 * Each hook sets state through its owner's setter; none keeps state of its own.
 */
import { RESULT, INPUT_CAPACITY, SRC, setI32, i32At } from './memory';
import { normalize, VARIANT_COUNT } from './text';
import { tokenize, tok, setSplitGlued, setJoinCompounds, F_START, F_LEN, F_KIND, F_SEP, F_SEGMENT, F_VALUE } from './tokenize';
import { scoped, subtreeEnd, postcodeSlice, postcodeObject, leadsHaveFirst, leadsHavePair, hasShortKey } from './subtree';
import { objectCount } from './blob';
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

/** The i32 each token takes in RESULT after the count (`tokenizeText`). */
const TOKEN_FIELDS: i32 = 8;

/**
 * Tokenizes INPUT[0…len) folded as `variant` (tokenize.ts), with two words glued split when `glued` is 1 (2: the last
 * as the word being typed) and runs a hyphen parts joined when `compounds` is 1, as the readings that ask set them;
 * both off again after. RESULT: [0] count, then per token: start and length in the folded text, the input's indices of
 * its first character and past its last, kind, separators, segment, value. Returns the count, −1 for bad arguments.
 */
export function tokenizeText(len: i32, variant: i32, glued: i32, compounds: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY || variant < 0 || variant >= VARIANT_COUNT) return -1;
  setSplitGlued(glued != 0, glued == 2);
  setJoinCompounds(compounds != 0);
  const count = tokenize(normalize(len, variant));
  setSplitGlued(false);
  setJoinCompounds(false);
  setI32(RESULT, 0, count);
  for (let t = 0; t < count; t++) {
    const at = 1 + t * TOKEN_FIELDS;
    const start = tok(t, F_START);
    const length = tok(t, F_LEN);
    setI32(RESULT, at, start);
    setI32(RESULT, at + 1, length);
    setI32(RESULT, at + 2, i32At(SRC, start));
    setI32(RESULT, at + 3, i32At(SRC, start + length - 1) + 1);
    setI32(RESULT, at + 4, tok(t, F_KIND));
    setI32(RESULT, at + 5, tok(t, F_SEP));
    setI32(RESULT, at + 6, tok(t, F_SEGMENT));
    setI32(RESULT, at + 7, tok(t, F_VALUE));
  }
  return count;
}

/** The end of object o's subtree (subtree.ts END: its descendants are o + 1 … end − 1); −1 without the index or out of range. */
export function subtreeEndOf(o: i32): i32 {
  return !scoped || o < 0 || o >= objectCount ? -1 : subtreeEnd(o);
}

/**
 * The objects the subtree index lists under `postcode` (subtree.ts POSTCODES: those whose postcode is not their
 * parent's), in id order. RESULT: [0] count, then the ids. Returns the count, −1 without the index.
 */
export function postcodeObjects(postcode: i32): i32 {
  if (!scoped) return -1;
  let count = 0;
  for (let i = postcodeSlice(postcode); postcodeObject(i, postcode) >= 0; i++) setI32(RESULT, 1 + count++, postcodeObject(i, postcode));
  setI32(RESULT, 0, count);
  return count;
}

/**
 * What the house leads of object o tell (subtree.ts, by class: a digit is itself, any other character one class): bit 0
 * some house key starts with character c1, bit 1 with c1 then c2 (c2 ≥ 0), bit 2 some key is the two digits c1 c2, or
 * them and one character more. −1 out of range.
 */
export function houseLeadsOf(o: i32, c1: i32, c2: i32): i32 {
  if (o < 0 || o >= objectCount) return -1;
  const pair = c2 >= 0 && leadsHavePair(o, c1, c2);
  const short = c2 >= 0 && c1 >= 48 && c1 <= 57 && c2 >= 48 && c2 <= 57 && hasShortKey(o, c1, c2);
  return (leadsHaveFirst(o, c1) ? 1 : 0) | (pair ? 2 : 0) | (short ? 4 : 0);
}
