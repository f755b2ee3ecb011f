/**
 * Scope: which subtrees the leaf names are read in (see subtree.ts), best first, so a solver reads the streets
 * of the places a query names and stops before the streets of the same name elsewhere.
 *
 * After the area names are collected, every area candidate with a positive score is an anchor. Its bound is
 * the most a chain ending at a leaf under it can score: the leaf's own words, what the solver adds besides
 * (`anchorExtra(o)`: type word, house, postcode, rank bonuses) and its candidate ancestors, counted two
 * ways and the smaller taken: (a) the ancestors' positive scores (with type bonuses) plus the most a leaf's
 * name scores (`own`, names.ts); (b) per token: a token an ancestor holds goes either to it or to the leaf,
 * since a chain uses each token once, so each ancestor counts the larger of its score and the leaf gains of
 * its tokens, and the tokens no ancestor holds count their leaf gains. A leaf under no anchor has no
 * candidate ancestor: `own + restExtra` bounds it ("the rest").
 *
 * Anchors are opened greatest bound first; on a tie the greater id first (a descendant: pre-order ids).
 * A descendant anchor's bound may be smaller than its ancestor's under (b), so an anchor can be opened
 * after a range that contains it: opening skips ranges already open, inside or around. Opening an anchor reads the leaf names in
 * its range minus the ranges already open, then collects them. The rest comes last. A solver asks
 * `nextBound()` and stops when that bound cannot change its answer; the answer is then the one a reading of
 * every name would give (the solvers break ties by the one-pass order, names.ts `readEarlier`).
 * Opening a range costs a binary search per hit word before it reads anything; once the openings would have
 * cost more than reading every leaf name of the hits, the anchors left are read in one sweep over the posting
 * lists (a leaf belongs to them when a candidate stands above it; reading more never changes the answer), and
 * the rest after them the same way: a scope never costs much more than one pass.
 *
 *   ANCHORS i32 × 3 × anchorCount  id, bound (a) less `own`, bound (b), both with the anchor's extra
 *   HEAP  i64 × anchorCount  max-heap of (bound << 32 | anchor index); rebuilt when `own` is tightened
 *   OPEN  i32 × 2 × openCount the open ranges [start, end), sorted and disjoint
 */
import { reserve } from '../memory';
import { obj, name, posting, word, O_PARENT, objectCount } from '../blob';
import {
  objSlot, objAt, objUsed, expandLeaves, collectObjects, postingsOfHits, probesPerRange, leafHit, leafHits, hitWordOf,
  readLeaf, tokenLeafGain,
} from '../classify/names';
import { scoped, isArea, subtreeEnd } from '../subtree';

const CAPACITY: i32 = 65536;
export const NO_BOUND: i32 = -2147483648;

let HEAP: usize = 0;
let heapSize: i32 = 0;
let ANCHORS: usize = 0;
let anchorCount: i32 = 0;
let own: i32 = 0;
let restExtra: i32 = 0;
let OPEN: usize = 0;
let openCount: i32 = 0;
let restOpen: bool = true;
/** search steps spent on openings, against the postings of one full reading */
let spent: i32 = 0;
/** the anchors were read by a sweep: the rest is what no candidate stands above */
let swept: bool = false;
let typing: bool = false;

function setupScope(): void {
  if (HEAP != 0) return;
  HEAP = reserve(<usize>CAPACITY << 3);
  OPEN = reserve(<usize>CAPACITY << 3);
  ANCHORS = reserve(<usize>CAPACITY * 12);
}

// @ts-ignore: decorator
@inline function heapAt(i: i32): i64 {
  return load<i64>(HEAP + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline function setHeap(i: i32, v: i64): void {
  store<i64>(HEAP + (<usize>i << 3), v);
}

function siftDown(i: i32): void {
  const v = heapAt(i);
  while (true) {
    let child = 2 * i + 1;
    if (child >= heapSize) break;
    if (child + 1 < heapSize && heapAt(child + 1) > heapAt(child)) child++;
    if (heapAt(child) <= v) break;
    setHeap(i, heapAt(child));
    i = child;
  }
  setHeap(i, v);
}

// @ts-ignore: decorator
@inline function anchorField(i: i32, field: i32): i32 {
  return load<i32>(ANCHORS + <usize>(i * 3 + field) * 4);
}

/** The leaf gains of the tokens in a mask (names.ts tokenLeafGain). */
function maskGain(mask: u64): i32 {
  let total = 0;
  while (mask != 0) {
    total += tokenLeafGain(<i32>ctz<u64>(mask));
    mask &= mask - 1;
  }
  return total;
}

/** Bound (a) less `own` and bound (b) of the leaves under o (see the top of the file), into anchor i. */
function boundAnchor(i: i32, o: i32, extra: i32): void {
  let scores = 0;
  let byToken = 0;
  let held: u64 = 0;
  let a = o;
  while (a >= 0) {
    const q = objSlot(a, false);
    if (q != 0 && load<i32>(q, 4) > 0) {
      let gain = load<i32>(q, 4) + load<i32>(q, 24);
      if (gain < 0) gain = 0;
      scores += gain;
      const mask = load<u64>(q, 32);
      const leaf = maskGain(mask);
      byToken += gain > leaf ? gain : leaf;
      held |= mask;
    }
    a = obj(a, O_PARENT);
  }
  byToken += maskGain(~held);
  store<i32>(ANCHORS + <usize>(i * 3) * 4, o);
  store<i32>(ANCHORS + <usize>(i * 3 + 1) * 4, scores + extra);
  store<i32>(ANCHORS + <usize>(i * 3 + 2) * 4, byToken + extra);
}

/** The heap of anchors by their bound with the current `own`. */
function buildHeap(): void {
  heapSize = 0;
  for (let i = 0; i < anchorCount; i++) {
    const a = anchorField(i, 1) + own;
    const b = anchorField(i, 2);
    setHeap(heapSize++, (<i64>(a < b ? a : b) << 32) | <i64>i);
  }
  for (let i = (heapSize >> 1) - 1; i >= 0; i--) siftDown(i);
}

/**
 * Starts a scope over the candidates collected so far (the areas). `leafOwn` is the most a leaf's name scores;
 * the solver adds at most `anchorExtra(o)` to a leaf under anchor o besides, `leafExtra` to a leaf under none;
 * `hints` collects leaves as hints do (names.ts collectObjects). Without the subtree index every name is
 * read already and the scope is empty.
 */
export function openScope(leafOwn: i32, leafExtra: i32, anchorExtra: (o: i32) => i32, hints: bool): void {
  setupScope();
  heapSize = 0;
  anchorCount = 0;
  openCount = 0;
  typing = hints;
  restOpen = !scoped;
  own = leafOwn;
  restExtra = leafExtra;
  spent = 0;
  swept = false;
  if (!scoped) return;
  for (let k = 0; k < objUsed && anchorCount < CAPACITY; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0) continue;
    const o = load<i32>(p);
    if (!isArea(o)) continue;
    boundAnchor(anchorCount++, o, anchorExtra(o));
  }
  buildHeap();
}

/** A smaller bound on what a leaf's name scores (`leafOwn` of openScope), computed once the first did not suffice. */
export function tightenScope(leafOwn: i32): void {
  if (leafOwn >= own) return;
  own = leafOwn;
  buildHeap();
}

/** Bound of the next opening (an anchor, then the rest), NO_BOUND when all is open. */
export function nextBound(): i32 {
  if (heapSize > 0) return <i32>(heapAt(0) >> 32);
  return restOpen ? NO_BOUND : own + restExtra;
}

/** The next opening is the rest: leaves under no anchor. */
export function nextIsRest(): bool {
  return heapSize == 0 && !restOpen;
}

/** Index of the first open range that ends after o. */
function openAfter(o: i32): i32 {
  let lo = 0;
  let hi = openCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<i32>(OPEN + (<usize>mid << 3), 4) <= o) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Reads the leaves in [start, end) outside the open ranges, and marks [start, end) open. Ranges are subtrees
 * (nested or disjoint) or the whole id range, and there are fewer than CAPACITY (one per anchor, the rest).
 */
function open(start: i32, end: i32): void {
  const first = openAfter(start);
  if (first < openCount && load<i32>(OPEN + (<usize>first << 3)) <= start && load<i32>(OPEN + (<usize>first << 3), 4) >= end) return;
  let k = first;
  let from = start;
  while (k < openCount && load<i32>(OPEN + (<usize>k << 3)) < end) {
    expandLeaves(from, load<i32>(OPEN + (<usize>k << 3)));
    from = load<i32>(OPEN + (<usize>k << 3), 4);
    k++;
  }
  expandLeaves(from, end);
  // ranges first … k−1 lie inside [start, end): one range replaces them
  const removed = k - first;
  if (removed != 1) {
    memory.copy(OPEN + (<usize>(first + 1) << 3), OPEN + (<usize>k << 3), <usize>(openCount - k) << 3);
    openCount += 1 - removed;
  }
  store<i32>(OPEN + (<usize>first << 3), start);
  store<i32>(OPEN + (<usize>first << 3), end, 4);
}

/** A candidate area stands above o: o is under an anchor. */
function underAnchor(o: i32): bool {
  let a = obj(o, O_PARENT);
  while (a >= 0) {
    const q = objSlot(a, false);
    if (q != 0 && load<i32>(q, 4) > 0) return true;
    a = obj(a, O_PARENT);
  }
  return false;
}

/** Inside a range opened one by one. */
function inOpenRange(o: i32): bool {
  const k = openAfter(o);
  return k < openCount && load<i32>(OPEN + (<usize>k << 3)) <= o;
}

/** Reads, in one pass over each posting list, the leaves not read yet that are under an anchor (or, for the rest, not). */
function sweep(anchors: bool): void {
  for (let i = 0; i < leafHits(); i++) {
    const h = leafHit(i);
    const w = hitWordOf(h);
    const start = word(w, 0);
    const end = start + word(w, 1);
    for (let k = start; k < end; k++) {
      const nameId = posting(k);
      const o = name(nameId, 0);
      if (isArea(o) || inOpenRange(o) || underAnchor(o) != anchors) continue;
      if (!readLeaf(h, nameId)) return;
    }
  }
}

/** Opens the next anchor (or the rest) and collects the candidates it brings. */
export function openNext(): void {
  if (heapSize > 0 && spent + probesPerRange() > postingsOfHits()) {
    // cheaper to sweep the lists for every anchor left than to keep searching per range
    heapSize = 0;
    swept = true;
    sweep(true);
    collectObjects(typing);
    return;
  }
  spent += probesPerRange();
  if (heapSize > 0) {
    const o = anchorField(<i32>(heapAt(0) & 0xffffffff), 0);
    heapSize--;
    if (heapSize > 0) {
      setHeap(0, heapAt(heapSize));
      siftDown(0);
    }
    open(o, subtreeEnd(o));
    collectObjects(typing);
    return;
  }
  if (restOpen) return;
  restOpen = true;
  if (swept) sweep(false);
  else open(0, objectCount);
  collectObjects(typing);
}
