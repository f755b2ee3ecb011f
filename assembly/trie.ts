/**
 * Fuzzy lookup of one token in the vocabulary trie.
 *
 * The trie (blob section `trie`) is a first-child/next-sibling tree over the folded words of every name
 * and type word; a node that ends a word carries its word id. Lookup is a depth-first walk that keeps one
 * row of the optimal-string-alignment (Damerau) distance matrix per depth (ROWS, MAX_DEPTH × (MAX_QUERY+1)),
 * pruning a subtree as soon as the row minimum exceeds the edit budget: one edit for words of 5+ letters,
 * two for 9+. In prefix mode (the last word of a hint query) a word matches when some prefix of it is
 * within budget of the query; its cost is the best such prefix.
 *
 * A transliterated query (VARIANT_TRANSLIT) is read with what Latin spelling cannot tell apart, at no cost:
 * a soft or hard sign the Latin text drops (`engels` → энгельс, `ust-kut` → усть-кут), э written as е, and
 * the clusters the reading took for one letter (`ts` → ц for тс: `sovetskaya` → советская; `sch` → щ for сч:
 * `peschanaya` → песчаная).
 *
 * Hits go to HITS as (wordId, cost) pairs; the caller owns them until the next lookup.
 */
import { reserve, setI32, u16At, NORM } from './memory';
import { trieCount, trieNode } from './blob';
import { normVariant, VARIANT_TRANSLIT } from './text';

const CH_SOFT: i32 = 0x44c; // ь
const CH_HARD: i32 = 0x44a; // ъ
const CH_E: i32 = 0x435; // е
const CH_E_ROUND: i32 = 0x44d; // э
const CH_TE: i32 = 0x442; // т
const CH_ES: i32 = 0x441; // с
const CH_CHE: i32 = 0x447; // ч
const CH_TSE: i32 = 0x446; // ц
const CH_SHCHA: i32 = 0x449; // щ
/** a soft or hard sign a transliteration dropped costs nothing: how many a word may hold beyond the budget */
const TRANSLIT_SLACK: i32 = 2;

export const MAX_QUERY: i32 = 40;
export const MAX_DEPTH: i32 = 48;
export const MAX_HITS: i32 = 2048;
const STACK_CAPACITY: i32 = 8192;

let ROWS: usize = 0;
let PATH: usize = 0;
let STACK: usize = 0;
export let HITS: usize = 0;
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
}

/** Edit budget for a word of `len` letters. */
export function editBudget(len: i32): i32 {
  if (len >= 9) return 2;
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

/** The node spelling NORM[start … start+len) exactly, or −1. */
function exactNode(start: i32, len: i32): i32 {
  let node = 0;
  for (let k = 0; k < len; k++) {
    const c = u16At(NORM, start + k);
    let child = trieNode(node, 0);
    while (child >= 0 && trieNode(child, 2) != c) child = trieNode(child, 1);
    if (child < 0) return -1;
    node = child;
  }
  return node;
}

/** Every word at or below `node`, at cost 0 (prefix mode). */
function collectSubtree(node: i32): void {
  let sp = 0;
  push(sp++, node, 0, 0);
  while (sp > 0 && hitCount < MAX_HITS) {
    sp--;
    const n = load<i32>(STACK + (<usize>sp * 12));
    const wordId = trieNode(n, 3);
    if (wordId >= 0) addHit(wordId, 0);
    let ch = trieNode(n, 0);
    while (ch >= 0 && sp < STACK_CAPACITY) {
      push(sp++, ch, 0, 0);
      ch = trieNode(ch, 1);
    }
  }
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
  const translit = normVariant == VARIANT_TRANSLIT;
  const slack = translit ? TRANSLIT_SLACK : 0;
  for (let j = 0; j <= m; j++) setRow(0, j, j);
  const NONE = 1 << 20;
  let sp = 0;
  // children of the root (node 0)
  let child = trieNode(0, 0);
  while (child >= 0 && sp < STACK_CAPACITY) {
    push(sp++, child, 1, NONE);
    child = trieNode(child, 1);
  }
  fuzzyCount++;
  while (sp > 0) {
    if (--visitBudget < 0) break;
    sp--;
    visitCount++;
    const p = STACK + (<usize>sp * 12);
    const node = load<i32>(p);
    const depth = load<i32>(p, 4);
    let best = load<i32>(p, 8);
    const c = trieNode(node, 2);
    let rowMin = NONE;
    if (depth <= m + budget + slack && depth <= MAX_DEPTH) {
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
      const wordId = trieNode(node, 3);
      if (prefix) {
        if (last < best) best = last;
        if (best <= budget && wordId >= 0) addHit(wordId, best);
      } else if (last <= budget && wordId >= 0) {
        addHit(wordId, last);
      }
    } else if (prefix && best <= budget) {
      // deep inside a matched prefix: every word below matches at cost `best`
      const wordId = trieNode(node, 3);
      if (wordId >= 0) addHit(wordId, best);
    }
    if (rowMin > budget && !(prefix && best <= budget)) continue;
    if (hitCount >= MAX_HITS) break;
    let ch = trieNode(node, 0);
    while (ch >= 0 && sp < STACK_CAPACITY) {
      push(sp++, ch, depth + 1, best);
      ch = trieNode(ch, 1);
    }
  }
  return hitCount;
}

