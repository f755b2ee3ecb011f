/**
 * Fuzzy lookup of one token in the vocabulary trie.
 *
 * The trie (blob section `trie`) is a first-child/next-sibling tree over the folded words of every name
 * and type word; a node that ends a word carries its word id. Lookup is a depth-first walk that keeps one
 * row of the optimal-string-alignment (Damerau) distance matrix per depth, pruning a subtree as soon as
 * the row minimum exceeds the edit budget: one edit for words of 5+ letters, two for 9+ (and for a word of 7 or 8
 * letters that hit nothing, two to the words of 9+ only: `lookupLong`). In prefix mode
 * (the last word of a hint query) a word matches when some prefix of it is within budget of the query;
 * its cost is the best such prefix.
 *
 * A row is kept as bit vectors (`walkBits`): the vertical deltas of the row as two words, +1 and −1 per
 * query letter (Myers 1999, in Hyyrö's form for the edit distance, with his transposition term for the
 * Damerau distance; a query has at most MAX_QUERY = 40 letters, so a row fits one u64). A node costs a
 * few dozen bit operations, where a row of cells cost one pass over the Ukkonen band (≈3× the time);
 * the hits, their costs and their order are those of the cell walk, which a test checks word by word.
 *
 * A transliterated query (VARIANT_TRANSLIT) is read with what Latin spelling cannot tell apart, at no cost:
 * a soft or hard sign the Latin text drops (`engels` → энгельс, `ust-kut` → усть-кут), э written as е, and
 * the clusters the reading took for one letter (`ts` → ц for тс: `sovetskaya` → советская; `sch` → щ for сч:
 * `peschanaya` → песчаная). Those costs are not edits, so that reading walks with a row of cells
 * (`walkCells`: ROWS, MAX_DEPTH × (MAX_QUERY+1) i32, one pass over the band per node).
 *
 * Hits go to HITS as (wordId, cost) pairs; the caller owns them until the next lookup. A cost of one edit that is a
 * slip a typist rarely makes (a letter typed for one far from it on the keyboard and unlike in sound, or a stray letter
 * typed in more: `farSlip`) carries FAR_KEY (`costOf` drops it).
 */
import { reserve, i32At, setI32, u16At, NORM } from './memory';
import { TRIE, trieCount, trieNode, word } from './blob';
import {
  normVariant, VARIANT_TRANSLIT, nearKeys, keyNeighbours, CH_SOFT, CH_HARD, CH_E, CH_E_ROUND, CH_TE, CH_ES, CH_CHE, CH_TSE, CH_SHCHA,
} from './text';
import { soundWords, soundWordsNear, foundWord, soundPrefixNodes, nodeFound } from './sound';

/** a soft or hard sign a transliteration dropped costs nothing: how many a word may hold beyond the budget */
const TRANSLIT_SLACK: i32 = 2;

export const MAX_QUERY: i32 = 40;
export const MAX_DEPTH: i32 = 48;
export const MAX_HITS: i32 = 2048;
const STACK_CAPACITY: i32 = 8192;

let ROWS: usize = 0;
let PATH: usize = 0;
let STACK: usize = 0;
/**
 * The bit walk's row per depth, each u64 × (MAX_DEPTH + 1): vertical deltas +1 (BIT_VP) and −1 (BIT_VN),
 * bit j − 1 for D[depth][j] − D[depth][j − 1]; the diagonal-zero vector (BIT_D0) and the node letter's
 * match vector (BIT_PM), which the transposition term of the next depth reads; BIT_LAST (i32) the cell
 * D[depth][m], the cost of the whole query against the path.
 */
let BIT_VP: usize = 0;
let BIT_VN: usize = 0;
let BIT_D0: usize = 0;
let BIT_PM: usize = 0;
let BIT_LAST: usize = 0;

/**
 * Match vectors of the query's letters (u64, bit j for query letter j), by slot: ASCII 0…127, then the
 * Cyrillic block U+0400…U+04FF; a letter outside both (`№`) is matched by a scan of the query. Set for one
 * walk and cleared after it.
 */
let PEQ: usize = 0;
const PEQ_SLOTS: i32 = 0x80 + 0x100;
/** tests: every lookup walks the cells, as the reference for the bit walk (`setCellWalk`) */
let cellWalkOnly = false;

/**
 * The fuzzy walks of the current call (standardize, suggest), kept for the call's other readings: the two
 * layout readings spell most words alike, and a second reading of the same variant (the first bare number
 * as a name) looks every word up again. MEMO: MEMO_ENTRIES × (call, flags, length, hit start, hit count)
 * i32, the word's letters in MEMO_TEXT (MAX_QUERY u16 per entry), the hits in MEMO_HITS (MEMO_HIT_CAPACITY
 * (word, cost) pairs, filled in call order; a walk whose hits no longer fit is not kept). A walk that ran
 * out of the call's visit budget is not kept either: its hits are partial.
 */
const MEMO_ENTRIES: i32 = 64;
const MEMO_FIELDS: i32 = 5;
const MEMO_HIT_CAPACITY: i32 = 8192;
let MEMO: usize = 0;
let MEMO_TEXT: usize = 0;
let MEMO_HITS: usize = 0;
let memoCall: i32 = -1;
let memoCount: i32 = 0;
let memoHitsUsed: i32 = 0;
/** fuzzy walks answered from the memo, since start (bench diagnostics) */
export let memoAnswers: i32 = 0;
export let HITS: usize = 0;
/** Set in a hit's cost: its one edit is a slip a typist rarely makes (`farSlip`). */
export const FAR_KEY: i32 = 1 << 8;

/** A hit's cost in edits, FAR_KEY dropped. */
// @ts-ignore: decorator
@inline export function costOf(cost: i32): i32 {
  return cost & (FAR_KEY - 1);
}
export let hitCount: i32 = 0;
/** trie nodes visited by fuzzy walks and fuzzy walks made, since start (bench diagnostics) */
export let visitCount: i32 = 0;
/** fuzzy nodes one call may still visit: bounds the cost of garbage input (reset per call) */
export let visitBudget: i32 = 0;
export const VISITS_PER_CALL: i32 = 400000;
/** calls started (standardize, suggest): the solvers tell the readings of one call from the next call's */
export let callCount: i32 = 0;
export function resetVisitBudget(): void {
  visitBudget = VISITS_PER_CALL;
  callCount++;
}
export let fuzzyCount: i32 = 0;

export function setupTrie(): void {
  if (ROWS != 0) return;
  ROWS = reserve(<usize>(MAX_DEPTH + 1) * <usize>(MAX_QUERY + 1) * 4);
  PATH = reserve(<usize>(MAX_DEPTH + 1) * 4);
  STACK = reserve(<usize>STACK_CAPACITY * 12);
  HITS = reserve(<usize>MAX_HITS * 8);
  const rowBytes = <usize>(MAX_DEPTH + 1) << 3;
  BIT_VP = reserve(rowBytes);
  BIT_VN = reserve(rowBytes);
  BIT_D0 = reserve(rowBytes);
  BIT_PM = reserve(rowBytes);
  BIT_LAST = reserve(<usize>(MAX_DEPTH + 1) << 2);
  PEQ = reserve(<usize>PEQ_SLOTS << 3);
  memory.fill(PEQ, 0, <usize>PEQ_SLOTS << 3);
  MEMO = reserve(<usize>(MEMO_ENTRIES * MEMO_FIELDS) << 2);
  MEMO_TEXT = reserve(<usize>(MEMO_ENTRIES * MAX_QUERY) << 1);
  MEMO_HITS = reserve(<usize>MEMO_HIT_CAPACITY << 3);
}

/** The walk's key: the reading's kind (a transliteration reads costs its own way), budget and prefix mode. */
// @ts-ignore: decorator
@inline function memoFlags(budget: i32, prefix: bool): i32 {
  return (minWordLength > 0 ? 32 : 0) | (budget << 2) | (prefix ? 2 : 0) | (normVariant == VARIANT_TRANSLIT ? 1 : 0);
}

/** The memo entry of this call for NORM[start … start+m) walked with `flags`, or −1. */
function memoFind(start: i32, m: i32, flags: i32): i32 {
  if (memoCall != callCount) {
    memoCall = callCount;
    memoCount = 0;
    memoHitsUsed = 0;
    return -1;
  }
  for (let e = 0; e < memoCount; e++) {
    const at = MEMO + (<usize>(e * MEMO_FIELDS) << 2);
    if (load<i32>(at, 4) != flags || load<i32>(at, 8) != m) continue;
    const text = MEMO_TEXT + (<usize>(e * MAX_QUERY) << 1);
    let same = true;
    for (let k = 0; k < m && same; k++) same = <i32>load<u16>(text + (<usize>k << 1)) == u16At(NORM, start + k);
    if (same) return e;
  }
  return -1;
}

/** Keeps the hits of the walk just made, when there is room. */
function memoKeep(start: i32, m: i32, flags: i32): void {
  if (memoCount >= MEMO_ENTRIES || memoHitsUsed + hitCount > MEMO_HIT_CAPACITY || visitBudget < 0) return;
  const e = memoCount++;
  const at = MEMO + (<usize>(e * MEMO_FIELDS) << 2);
  store<i32>(at, callCount);
  store<i32>(at, flags, 4);
  store<i32>(at, m, 8);
  store<i32>(at, memoHitsUsed, 12);
  store<i32>(at, hitCount, 16);
  const text = MEMO_TEXT + (<usize>(e * MAX_QUERY) << 1);
  for (let k = 0; k < m; k++) store<u16>(text + (<usize>k << 1), <u16>u16At(NORM, start + k));
  memory.copy(MEMO_HITS + (<usize>memoHitsUsed << 3), HITS, <usize>hitCount << 3);
  memoHitsUsed += hitCount;
}

/** Tests: true makes every lookup walk the cells (the reference the bit walk must agree with). */
export function setCellWalk(on: bool): void {
  cellWalkOnly = on;
}

/** Edit budget for a word of `len` letters. */
export function editBudget(len: i32): i32 {
  if (len >= TWO_EDIT_LETTERS) return 2;
  if (len >= 5) return 1;
  return 0;
}

// @ts-ignore: decorator
@inline function row(depth: i32, j: i32): i32 {
  return load<i32>(ROWS + (<usize>(depth * (MAX_QUERY + 1) + j) << 2));
}
// @ts-ignore: decorator
@inline function setRow(depth: i32, j: i32, v: i32): void {
  store<i32>(ROWS + (<usize>(depth * (MAX_QUERY + 1) + j) << 2), v);
}

// @ts-ignore: decorator
@inline function push(sp: i32, node: i32, depth: i32, best: i32): void {
  const p = STACK + (<usize>sp * 12);
  store<i32>(p, node);
  store<i32>(p, depth, 4);
  store<i32>(p, best, 8);
}

// @ts-ignore: decorator
@inline function addHit(wordId: i32, cost: i32): void {
  if (hitCount >= MAX_HITS) return;
  setI32(HITS, hitCount * 2, wordId);
  setI32(HITS, hitCount * 2 + 1, cost);
  hitCount++;
}

/** The child of `node` by char c, or −1. */
// @ts-ignore: decorator
@inline function childOf(node: i32, c: i32): i32 {
  let child = trieNode(node, 0);
  while (child >= 0 && trieNode(child, 2) != c) child = trieNode(child, 1);
  return child;
}

/** The node spelling NORM[start … start+len) exactly, or −1. */
function exactNode(start: i32, len: i32): i32 {
  let node = 0;
  for (let k = 0; k < len && node >= 0; k++) node = childOf(node, u16At(NORM, start + k));
  return node;
}

/** NORM[start … start+len) is a vocabulary word as spelled (`prefix`: the start of one). */
export function isWord(start: i32, len: i32, prefix: bool = false): bool {
  if (trieCount == 0 || len <= 0) return false;
  const node = exactNode(start, len);
  return node >= 0 && (prefix || trieNode(node, 3) >= 0);
}

/**
 * Every word at or below `node`, at cost 0 (prefix mode), the first MAX_HITS in reading order: the node's own word,
 * then its children's words, the last child's first. Word ids follow that order (dictionaries/blob-writer.ts
 * `renumberWords`, format 4), so the words are one run of ids: from the node's word (or its last child's first, down
 * the last children) to the word of the node reached down the first children.
 */
function collectSubtree(node: i32): void {
  subtreeIds(node);
  for (let id = subtreeLow; id <= subtreeHigh && hitCount < MAX_HITS; id++) addHit(id, 0);
}

/** The ids of the words at or below the node `subtreeIds` was given: subtreeLow … subtreeHigh (none: high < low). */
let subtreeLow: i32 = 0;
let subtreeHigh: i32 = -1;

/** Sets subtreeLow … subtreeHigh for `node`: its word, or its last child's first, down to its first children's. */
function subtreeIds(node: i32): void {
  subtreeLow = 0;
  subtreeHigh = -1;
  let first = node;
  while (trieNode(first, 3) < 0) {
    let child = trieNode(first, 0);
    if (child < 0) return;
    while (trieNode(child, 1) >= 0) child = trieNode(child, 1);
    first = child;
  }
  let last = node;
  while (trieNode(last, 0) >= 0) last = trieNode(last, 0);
  subtreeLow = trieNode(first, 3);
  subtreeHigh = trieNode(last, 3);
}

/** The word NORM[start … start+len) spells exactly, or −1 (no memo, no count: `lookup` is for the query's readings). */
export function exactWord(start: i32, len: i32): i32 {
  if (trieCount == 0 || len <= 0) return -1;
  const node = exactNode(start, len);
  return node < 0 ? -1 : trieNode(node, 3);
}

/**
 * Where NORM[start … start+len) splits into two words of the vocabulary, each of `min` characters or more (the second
 * may be the start of one with `prefixRight`): the first such split from the left, as a NORM index, or −1. One walk
 * down the trie for the first part, a look-up of the second at each word the walk passes.
 */
export function wordsGluedAt(start: i32, len: i32, min: i32, prefixRight: bool): i32 {
  if (trieCount == 0) return -1;
  let node = 0;
  for (let d = 1; d <= len - min; d++) {
    node = childOf(node, u16At(NORM, start + d - 1));
    if (node < 0) return -1;
    if (d >= min && trieNode(node, 3) >= 0 && isWord(start + d, len - d, prefixRight)) return start + d;
  }
  return -1;
}

/** NORM[a … a+alen) and NORM[b … b+blen) written together are a word of the vocabulary (`ново` `пашинский`). */
export function compoundWord(a: i32, alen: i32, b: i32, blen: i32): bool {
  if (trieCount == 0) return false;
  let node = 0;
  for (let k = 0; k < alen + blen && node >= 0; k++) node = childOf(node, u16At(NORM, k < alen ? a + k : b + k - alen));
  return node >= 0 && trieNode(node, 3) >= 0;
}

/** A vocabulary is attached (a bare core, as `parseHouse` may run, has none). */
export function hasVocabulary(): bool {
  return trieCount > 0;
}

/** NORM[start … start+len) is a type word as spelled (`ул`, `просп`: the vocabulary word has a type). */
export function isTypeWord(start: i32, len: i32): bool {
  if (trieCount == 0 || len <= 0) return false;
  const node = exactNode(start, len);
  if (node < 0) return false;
  const w = trieNode(node, 3);
  return w >= 0 && word(w, 2) >= 0;
}

/**
 * The ids of the words NORM[start … start+len) begins (itself included) into prefixLow … prefixHigh; false when no
 * word begins so. One run of ids (`collectSubtree`).
 */
export let prefixLow: i32 = 0;
export let prefixHigh: i32 = -1;
export function wordsBeginning(start: i32, len: i32): bool {
  prefixLow = 0;
  prefixHigh = -1;
  if (trieCount == 0 || len <= 0) return false;
  const node = exactNode(start, len);
  if (node < 0) return false;
  subtreeIds(node);
  prefixLow = subtreeLow;
  prefixHigh = subtreeHigh;
  return prefixHigh >= prefixLow;
}

/** The ids of the words that start with the letter `firstLetterRange` was given: firstLetterLow … firstLetterHigh. */
export let firstLetterLow: i32 = 0;
export let firstLetterHigh: i32 = -1;

/** The letters `firstLetterRange` keeps a range for: U+0430 … U+046F (the folded Cyrillic text's). */
const FIRST_LETTER_BASE: i32 = 0x430;
const FIRST_LETTERS: i32 = 64;
/** (low, high) ids per first letter, built by the first call on a trie (the root's children, once) */
let LETTER_RANGES: usize = 0;
/** the trie LETTER_RANGES was built for (a trie attached later gets its own) */
let letterRangesTrie: usize = 0;

/** Sets firstLetterLow … firstLetterHigh to the ids of the words starting with c (an empty range when none does). */
export function firstLetterRange(c: i32): void {
  firstLetterLow = 0;
  firstLetterHigh = -1;
  const k = c - FIRST_LETTER_BASE;
  if (trieCount == 0 || k < 0 || k >= FIRST_LETTERS) return;
  if (letterRangesTrie != TRIE) {
    if (LETTER_RANGES == 0) LETTER_RANGES = reserve(<usize>FIRST_LETTERS << 3);
    letterRangesTrie = TRIE;
    for (let j = 0; j < FIRST_LETTERS; j++) {
      store<i32>(LETTER_RANGES + (<usize>j << 3), 0);
      store<i32>(LETTER_RANGES + (<usize>j << 3), -1, 4);
    }
    for (let node = trieNode(0, 0); node >= 0; node = trieNode(node, 1)) {
      const letter = trieNode(node, 2) - FIRST_LETTER_BASE;
      if (letter < 0 || letter >= FIRST_LETTERS) continue;
      subtreeIds(node);
      store<i32>(LETTER_RANGES + (<usize>letter << 3), subtreeLow);
      store<i32>(LETTER_RANGES + (<usize>letter << 3), subtreeHigh, 4);
    }
  }
  firstLetterLow = load<i32>(LETTER_RANGES + (<usize>k << 3));
  firstLetterHigh = load<i32>(LETTER_RANGES + (<usize>k << 3), 4);
}

/**
 * Looks up NORM[start … start+len) with at most `budget` edits; `prefix` lets the query be a prefix.
 * Returns the number of hits written to HITS.
 */
export function lookup(start: i32, len: i32, budget: i32, prefix: bool): i32 {
  hitCount = 0;
  if (trieCount == 0 || len <= 0) return 0;
  // fast path: a word spelled right (or a prefix that exists) needs no fuzzy walk
  const exact = exactNode(start, len);
  if (exact >= 0) {
    if (!prefix) {
      const wordId = trieNode(exact, 3);
      if (wordId >= 0) {
        addHit(wordId, 0);
        return hitCount;
      }
    } else {
      collectSubtree(exact);
      if (hitCount > 0) return hitCount;
    }
  }
  const m = len > MAX_QUERY ? MAX_QUERY : len;
  if (len > MAX_QUERY) budget = 0;
  const flags = memoFlags(budget, prefix);
  const kept = cellWalkOnly ? -1 : memoFind(start, m, flags);
  if (kept >= 0) {
    const at = MEMO + (<usize>(kept * MEMO_FIELDS) << 2);
    hitCount = load<i32>(at, 16);
    memory.copy(HITS, MEMO_HITS + (<usize>load<i32>(at, 12) << 3), <usize>hitCount << 3);
    memoAnswers++;
    return hitCount;
  }
  fuzzyCount++;
  for (let j = 0; j < m; j++) {
    const slot = peqSlot(u16At(NORM, start + j));
    if (slot >= 0) store<u64>(PEQ + (<usize>slot << 3), load<u64>(PEQ + (<usize>slot << 3)) | ((<u64>1) << <u64>j));
  }
  if (cellWalkOnly) walkCells(start, m, budget, prefix, false);
  else if (normVariant == VARIANT_TRANSLIT) walkCells(start, m, budget, prefix, true);
  else walkBits(start, m, budget, prefix);
  for (let j = 0; j < m; j++) {
    const slot = peqSlot(u16At(NORM, start + j));
    if (slot >= 0) store<u64>(PEQ + (<usize>slot << 3), 0);
  }

  if (!cellWalkOnly) memoKeep(start, m, flags);
  return hitCount;
}

/** the shortest word a walk reaches (0: any): `lookupLong` reads two slips only in a word long enough to hold them */
let minWordLength: i32 = 0;
/** the length from which a word is read with two edits (`editBudget`) */
const TWO_EDIT_LETTERS: i32 = 9;

/**
 * The words of nine letters or more two edits from NORM[start … start+len), a word typed shorter, that start with its
 * first letter: two slips in one long word that dropped letters of it (`чйковсий`, `слобской`) leave fewer letters
 * than the two-edit budget asks. Returns the hits written.
 */
export function lookupLong(start: i32, len: i32): i32 {
  minWordLength = TWO_EDIT_LETTERS;
  const n = lookup(start, len, 2, false);
  minWordLength = 0;
  return n;
}

/**
 * The words that sound as NORM[start … start+len) is written (sound.ts), each at the cost of one edit, else those one
 * edit away by sound at the cost of two: the way in for a word spelled by ear that the fuzzy walk found nothing for
 * (`маяковскова` → маяковского, `совиская` → советская). Returns the hits written.
 */
export function lookupSound(start: i32, len: i32): i32 {
  hitCount = 0;
  const n = soundWords(start, len);
  for (let k = 0; k < n; k++) addHit(foundWord(k), 1);
  if (hitCount > 0) return hitCount;
  // spelled by ear and with a slip besides (`совиская`): a key one edit away, at the cost of two edits
  const near = soundWordsNear();
  for (let k = 0; k < near; k++) addHit(foundWord(k), 2);
  return hitCount;
}

/**
 * The words that start as NORM[start … start+len), a word being typed, sounds (sound.ts `soundPrefixNodes`: `кувшен`
 * starts кувшиново), each at the cost of one edit: the way in for the first letters of a name spelled by ear that the
 * prefix walk found nothing for. Returns the hits written.
 */
export function lookupSoundPrefix(start: i32, len: i32): i32 {
  hitCount = 0;
  const n = soundPrefixNodes(start, len);
  for (let k = 0; k < n && hitCount < MAX_HITS; k++) {
    subtreeIds(nodeFound(k));
    for (let id = subtreeLow; id <= subtreeHigh && hitCount < MAX_HITS; id++) addHit(id, 1);
  }
  return hitCount;
}

/**
 * Adds to the hits of the last `lookup` the words that sound as NORM[start … start+len) is written (sound.ts), each
 * at the cost of one edit, that it did not find at that cost or less: a word spelled by ear (`тальяти` for тольятти,
 * two edits by letters) when its letters are also one slip from another word. Returns the hits now written.
 */
export function addSoundHits(start: i32, len: i32): i32 {
  const before = hitCount;
  const n = soundWords(start, len);
  for (let k = 0; k < n; k++) {
    const wordId = foundWord(k);
    let seen = false;
    for (let h = 0; h < before && !seen; h++) seen = i32At(HITS, h * 2) == wordId && costOf(i32At(HITS, h * 2 + 1)) <= 1;
    if (!seen) addHit(wordId, 1);
  }
  return hitCount;
}

/**
 * The walk reached `node` with the whole query at cost `last`: adds its word when within budget (prefix mode: the
 * best cost of a prefix of the path, `best`, which it returns updated).
 */
// @ts-ignore: decorator
@inline function reachWord(node: i32, last: i32, best: i32, budget: i32, prefix: bool, depth: i32, start: i32, m: i32): i32 {
  const wordId = trieNode(node, 3);
  if (prefix) {
    if (last < best) best = last;
    if (best <= budget && wordId >= 0) addHit(wordId, best);
  } else if (last <= budget && wordId >= 0 && depth >= minWordLength) {
    addHit(wordId, last == 1 && (depth == m || depth == m - 1) && farSlip(start, m, depth) ? last | FAR_KEY : last);
  }
  return best;
}

/**
 * The word (PATH[1 … depth]) is the query (NORM[start …], m letters) with one slip a typist rarely makes (`nearKeys`):
 * a letter typed for one that is neither its neighbouring key nor alike by sound (depth == m, one letter differs), or a
 * letter typed in more that repeats neither of its neighbours nor is the key next to one (depth == m − 1: a finger
 * doubles a letter or hits two keys). Not for a transliteration, whose letters are read from another alphabet.
 */
function farSlip(start: i32, m: i32, depth: i32): bool {
  if (normVariant == VARIANT_TRANSLIT) return false;
  let at = 0;
  while (at < depth && load<i32>(PATH + (<usize>(at + 1) << 2)) == <i32>u16At(NORM, start + at)) at++;
  const typed = <i32>u16At(NORM, start + at);
  if (depth == m) {
    if (at == m) return false;
    // a second letter differing is a transposition
    for (let j = at + 1; j < m; j++) if (load<i32>(PATH + (<usize>(j + 1) << 2)) != <i32>u16At(NORM, start + j)) return false;
    return !nearKeys(typed, load<i32>(PATH + (<usize>(at + 1) << 2)));
  }
  // the letter typed in more is the first that differs (or the last); the rest follows the word one letter later
  for (let j = at + 1; j < m; j++) if (load<i32>(PATH + (<usize>j << 2)) != <i32>u16At(NORM, start + j)) return false;
  const before = at > 0 ? <i32>u16At(NORM, start + at - 1) : -1;
  const after = at + 1 < m ? <i32>u16At(NORM, start + at + 1) : -1;
  if (typed == before || typed == after) return false;
  return !((before >= 0 && keyNeighbours(typed, before)) || (after >= 0 && keyNeighbours(typed, after)));
}

let takenNode: i32 = 0;
let takenDepth: i32 = 0;
let takenBest: i32 = 0;

/** Takes entry sp − 1 of the walk's stack into takenNode, takenDepth and takenBest; false once the call's visits are spent. */
// @ts-ignore: decorator
@inline function takeNode(sp: i32): bool {
  if (--visitBudget < 0) return false;
  visitCount++;
  const p = STACK + (<usize>(sp - 1) * 12);
  takenNode = load<i32>(p);
  takenDepth = load<i32>(p, 4);
  takenBest = load<i32>(p, 8);
  return true;
}

/** Pushes the children of `node` at `depth`, carrying `best`; returns the new stack size. */
// @ts-ignore: decorator
@inline function pushChildren(sp: i32, node: i32, depth: i32, best: i32): i32 {
  let child = trieNode(node, 0);
  while (child >= 0 && sp < STACK_CAPACITY) {
    push(sp++, child, depth, best);
    child = trieNode(child, 1);
  }
  return sp;
}

/** The PEQ slot of a letter, −1 outside ASCII and the Cyrillic block. */
// @ts-ignore: decorator
@inline function peqSlot(c: i32): i32 {
  if (c < 0x80) return c;
  if (c >= 0x400 && c < 0x500) return c - 0x400 + 0x80;
  return -1;
}

/** The match vector of letter c against the query NORM[start … start+m). */
// @ts-ignore: decorator
@inline function matchVector(c: i32, start: i32, m: i32): u64 {
  const slot = peqSlot(c);
  if (slot >= 0) return load<u64>(PEQ + (<usize>slot << 3));
  let bits: u64 = 0;
  for (let j = 0; j < m; j++) if (u16At(NORM, start + j) == c) bits |= (<u64>1) << <u64>j;
  return bits;
}

/**
 * Row `depth` of the bit walk (see the file comment) for a node of letter match vector PM, from the parent's row
 * (VP, VN, D0, PM at d − 1) and the node letter's match vector PM:
 *   TR = ((~D0' & PM) << 1) & PM'               transposition: t[d] = q[j−1], t[d−1] = q[j]
 *   D0 = (((PM & VP) + VP) ^ VP) | PM | VN | TR  cells equal to their diagonal neighbour
 *   HP = VN | ~(D0 | VP), HN = VP & D0           horizontal deltas; bit m − 1 moves D[d][m]
 *   VP = (HN << 1) | ~(D0 | (HP << 1 | 1)), VN = (HP << 1 | 1) & D0   (D[d][0] = d: the +1 shifted in)
 * `full` masks the query's m bits, `top` is m − 1.
 */
// @ts-ignore: decorator
@inline function bitStep(depth: i32, pm: u64, full: u64, top: u64): void {
  const up = <usize>(depth - 1) << 3;
  const at = <usize>depth << 3;
  const vp = load<u64>(BIT_VP + up);
  const vn = load<u64>(BIT_VN + up);
  const tr = ((~load<u64>(BIT_D0 + up) & pm) << 1) & load<u64>(BIT_PM + up);
  const d0 = ((((pm & vp) + vp) ^ vp) | pm | vn | tr) & full;
  const hp = vn | ~(d0 | vp);
  const hn = vp & d0;
  const hpIn = (hp << 1) | 1;
  store<u64>(BIT_VP + at, ((hn << 1) | ~(d0 | hpIn)) & full);
  store<u64>(BIT_VN + at, hpIn & d0 & full);
  store<u64>(BIT_D0 + at, d0);
  store<u64>(BIT_PM + at, pm);
  store<i32>(BIT_LAST + (at >> 1), load<i32>(BIT_LAST + (up >> 1)) + <i32>((hp >> top) & 1) - <i32>((hn >> top) & 1));
}

/** Row 0 of the bit walk: D[0][j] = j. */
function bitStart(m: i32, full: u64): void {
  store<u64>(BIT_VP, full);
  store<u64>(BIT_VN, 0);
  store<u64>(BIT_D0, 0);
  store<u64>(BIT_PM, 0);
  store<i32>(BIT_LAST, m);
}

/**
 * The least cell of row `depth` over the band |j − depth| ≤ budget (and cell 0, = depth), from its deltas:
 * D[d][lo − 1] by popcount, then one delta a step up to hi (no branch: the deltas are data).
 */
// @ts-ignore: decorator
@inline function bandMin(vp: u64, vn: u64, depth: i32, budget: i32, m: i32): i32 {
  const lo = depth - budget > 1 ? depth - budget : 1;
  const hi = depth + budget < m ? depth + budget : m;
  const below: u64 = ((<u64>1) << <u64>(lo - 1)) - 1;
  let cell = depth + <i32>popcnt(vp & below) - <i32>popcnt(vn & below);
  let least = depth;
  for (let j = lo; j <= hi; j++) {
    const shift = <u64>(j - 1);
    cell += <i32>((vp >> shift) & 1) - <i32>((vn >> shift) & 1);
    least = min(least, cell);
  }
  return least;
}

/**
 * Pushes the children of `node` whose letter is one of the query's letters picked by `letters` (bit j for
 * letter j), and with `freeCosts` those of a letter a transliteration reads at no cost (ь ъ э, с and ч of
 * тс and сч: `walkCells`); the others are pruned unseen.
 */
function pushQueryLetters(sp: i32, node: i32, depth: i32, best: i32, start: i32, m: i32, letters: u64, freeCosts: bool): i32 {
  let child = trieNode(node, 0);
  while (child >= 0 && sp < STACK_CAPACITY) {
    const c = trieNode(child, 2);
    const free = freeCosts && (c == CH_SOFT || c == CH_HARD || c == CH_E_ROUND || c == CH_ES || c == CH_CHE);
    if (free || (matchVector(c, start, m) & letters) != 0) push(sp++, child, depth, best);
    child = trieNode(child, 1);
  }
  return sp;
}

/**
 * The query letters (bit j for letter j, 0-based) that can give a node at `depth` a cell within `budget` when its
 * row would otherwise be the pruned row of the letters not in the query. A cell D[depth][j] ≤ budget lies in the
 * band |depth − j| ≤ budget, and the node's letter lowers it only as the match of letter j − 1, or by
 * transposition as letter j − 2 where D[depth − 2][j − 2] ≤ budget − 1 (|depth − j| ≤ budget − 1): both within
 * depth − budget − 1 … depth + budget − 1. A match elsewhere lands on a cell over the budget, and a cell only
 * grows moving right into the band. So a child whose letter matches none of these has a row over the budget in
 * the band, as the shared row has: it is no hit and nothing below it is. (The bound is tight: the property
 * test of trie.test.ts fails with either end one letter narrower.)
 */
// @ts-ignore: decorator
@inline function bandLetters(depth: i32, budget: i32, m: i32): u64 {
  const lo = depth - budget - 1 > 0 ? depth - budget - 1 : 0;
  const hi = depth + budget - 1 < m - 1 ? depth + budget - 1 : m - 1;
  return letterRange(lo, hi);
}

/** Bits from … to of a letter mask (0-based, both included; 0 when from > to). */
// @ts-ignore: decorator
@inline function letterRange(from: i32, to: i32): u64 {
  if (from > to) return 0;
  const upTo: u64 = to >= 63 ? <u64>-1 : ((<u64>1) << <u64>(to + 1)) - 1;
  return upTo & ~(((<u64>1) << <u64>from) - 1);
}

/** The walk with rows as bit vectors (see the file comment and `bitStep`). */
function walkBits(start: i32, m: i32, budget: i32, prefix: bool): void {
  const full: u64 = m >= 64 ? <u64>-1 : ((<u64>1) << <u64>m) - 1;
  const top = <u64>(m - 1);
  bitStart(m, full);
  const NONE = 1 << 20;
  const deepest = m + budget < MAX_DEPTH ? m + budget : MAX_DEPTH;
  let sp = 0;
  if (minWordLength > 0) {
    // `lookupLong`: only the words of the typed first letter (a typo rarely touches it), a thirtieth of the walk
    const first = childOf(0, u16At(NORM, start));
    if (first >= 0) push(sp++, first, 1, NONE);
  } else {
    sp = pushChildren(0, 0, 1, NONE);
  }
  while (sp > 0 && takeNode(sp--)) {
    const node = takenNode;
    const depth = takenDepth;
    let best = takenBest;
    let rowMin = NONE;
    if (depth <= deepest) {
      const c = trieNode(node, 2);
      store<i32>(PATH + (<usize>depth << 2), c);
      bitStep(depth, matchVector(c, start, m), full, top);
      rowMin = bandMin(load<u64>(BIT_VP + (<usize>depth << 3)), load<u64>(BIT_VN + (<usize>depth << 3)), depth, budget, m);
      best = reachWord(node, load<i32>(BIT_LAST + (<usize>depth << 2)), best, budget, prefix, depth, start, m);
    } else if (prefix && best <= budget) {
      // deep inside a matched prefix: every word below matches at cost `best`
      reachWord(node, best, best, budget, true, depth, start, m);
    }
    if (rowMin > budget && !(prefix && best <= budget)) continue;
    if (hitCount >= MAX_HITS) break;
    if (prefix && best <= budget) {
      sp = pushChildren(sp, node, depth + 1, best);
    } else if (depth < deepest && rowMin >= budget) {
      // every cell of a child's row whose letter is not in the query is a cell of this row plus one: at least
      // rowMin + 1, over the budget (its last cell too), so only the children of the query's letters are walked
      sp = pushQueryLetters(sp, node, depth + 1, best, start, m, bandLetters(depth + 1, budget, m), false);
    } else if (depth < deepest) {
      // a child whose letter is not in the query has this row (PM = 0, so TR = 0, D0 = VN, HP = ~VP, HN = 0);
      // when it is pruned, so is every such child, and only the children of the query's letters are walked
      const vp = load<u64>(BIT_VP + (<usize>depth << 3));
      const vn = load<u64>(BIT_VN + (<usize>depth << 3));
      const hpIn = ((~vp & full) << 1) | 1;
      const otherVp = ~(vn | hpIn) & full;
      const otherVn = hpIn & vn & full;
      const otherLast = load<i32>(BIT_LAST + (<usize>depth << 2)) + <i32>((~vp >> top) & 1);
      if (bandMin(otherVp, otherVn, depth + 1, budget, m) <= budget || (prefix && otherLast <= budget)) {
        sp = pushChildren(sp, node, depth + 1, best);
      } else {
        sp = pushQueryLetters(sp, node, depth + 1, best, start, m, bandLetters(depth + 1, budget, m), false);
      }
    }
    // else at the deepest row: a child is neither computed nor inside a matched prefix, so nothing below hits
  }
}

/**
 * The walk with rows of cells over the Ukkonen band: the transliteration's free costs, and the tests' reference
 * (`skipPlain` false). With `skipPlain`, a letter that is not in the query and takes no free cost (not ь ъ э, not
 * the second letter of тс or сч) gives a child the same row whatever the letter is: the row is computed once
 * (`plainRowPasses`), and when it is pruned only the other children are walked.
 */
function walkCells(start: i32, m: i32, budget: i32, prefix: bool, skipPlain: bool): void {
  const translit = normVariant == VARIANT_TRANSLIT;
  const slack = translit ? TRANSLIT_SLACK : 0;
  const deepest = m + budget + slack < MAX_DEPTH ? m + budget + slack : MAX_DEPTH;
  for (let j = 0; j <= m; j++) setRow(0, j, j);
  const NONE = 1 << 20;
  let sp = pushChildren(0, 0, 1, NONE);
  while (sp > 0 && takeNode(sp--)) {
    const node = takenNode;
    const depth = takenDepth;
    let best = takenBest;
    const c = trieNode(node, 2);
    let rowMin = NONE;
    if (depth <= deepest) {
      store<i32>(PATH + (<usize>depth << 2), c);
      setRow(depth, 0, depth);
      rowMin = depth;
      // only the diagonal band |j − depth| ≤ budget can stay within budget (Ukkonen); the cells just
      // outside it are set to budget+1 so the next row reads defined values
      const lo = depth - budget - slack > 1 ? depth - budget - slack : 1;
      const hi = depth + budget < m ? depth + budget : m;
      const over = budget + 1;
      if (lo > 1) setRow(depth, lo - 1, over);
      for (let j = lo; j <= hi; j++) {
        const qc = u16At(NORM, start + j - 1);
        let v = row(depth - 1, j - 1) + (qc == c || (translit && qc == CH_E && c == CH_E_ROUND) ? 0 : 1);
        const del = row(depth - 1, j) + (translit && (c == CH_SOFT || c == CH_HARD) ? 0 : 1);
        const ins = row(depth, j - 1) + 1;
        if (del < v) v = del;
        if (ins < v) v = ins;
        if (depth >= 2 && j >= 2 && qc == load<i32>(PATH + (<usize>(depth - 1) << 2)) && u16At(NORM, start + j - 2) == c) {
          const t = row(depth - 2, j - 2) + 1;
          if (t < v) v = t;
        }
        if (translit && depth >= 2 && ((qc == CH_TSE && c == CH_ES && load<i32>(PATH + (<usize>(depth - 1) << 2)) == CH_TE) ||
          (qc == CH_SHCHA && c == CH_CHE && load<i32>(PATH + (<usize>(depth - 1) << 2)) == CH_ES))) {
          const t = row(depth - 2, j - 1);
          if (t < v) v = t;
        }
        setRow(depth, j, v);
        if (v < rowMin) rowMin = v;
      }
      if (hi < m) setRow(depth, hi + 1, over);
      const last = m >= lo && m <= hi ? row(depth, m) : over;
      best = reachWord(node, last, best, budget, prefix, depth, start, m);
    } else if (prefix && best <= budget) {
      // deep inside a matched prefix: every word below matches at cost `best`
      reachWord(node, best, best, budget, true, depth, start, m);
    }
    if (rowMin > budget && !(prefix && best <= budget)) continue;
    if (hitCount >= MAX_HITS) break;
    if (!skipPlain || (prefix && best <= budget)) {
      sp = pushChildren(sp, node, depth + 1, best);
    } else if (depth < deepest) {
      if (plainRowPasses(depth + 1, slack, m, budget, prefix)) sp = pushChildren(sp, node, depth + 1, best);
      else sp = pushQueryLetters(sp, node, depth + 1, best, start, m, cellBandLetters(depth + 1, budget, slack, m), true);
    }
  }
}

/**
 * The query letters (bit j for letter j, 0-based) that can give a node at `depth` a row of cells other than the
 * plain row (walkCells): the band lo … hi (1-based cells) compares the node's letter with letter j − 1 of each cell
 * j, and for a transposition with letter j − 2, which counts only where D[depth − 2][j − 2] ≤ budget − 1, so from
 * lo − 1 on (a cell lags its row by at most budget + slack: free deletions of ь ъ). A letter that matches none of
 * them, and takes no free cost, gives the plain row, which was pruned. (Tight at the top: the property test of
 * trie.test.ts fails with hi − 2.)
 */
function cellBandLetters(depth: i32, budget: i32, slack: i32, m: i32): u64 {
  const lo = depth - budget - slack > 1 ? depth - budget - slack : 1;
  const hi = depth + budget < m ? depth + budget : m;
  return letterRange(lo - 1 > 0 ? lo - 1 : 0, hi - 1);
}

/**
 * Row `depth` for a child whose letter is plain (see walkCells), written to ROWS (no node at that depth is
 * pending: the walk is depth first); true when such a child would not be pruned.
 */
function plainRowPasses(depth: i32, slack: i32, m: i32, budget: i32, prefix: bool): bool {
  setRow(depth, 0, depth);
  let rowMin = depth;
  const lo = depth - budget - slack > 1 ? depth - budget - slack : 1;
  const hi = depth + budget < m ? depth + budget : m;
  const over = budget + 1;
  if (lo > 1) setRow(depth, lo - 1, over);
  for (let j = lo; j <= hi; j++) {
    const v = min(min(row(depth - 1, j - 1), row(depth - 1, j)), row(depth, j - 1)) + 1;
    setRow(depth, j, v);
    rowMin = min(rowMin, v);
  }
  if (hi < m) setRow(depth, hi + 1, over);
  const last = m >= lo && m <= hi ? row(depth, m) : over;
  return rowMin <= budget || (prefix && last <= budget);
}
