/**
 * Scope: which leaf names a solver reads, and in what order, so that it reads the streets of the places a
 * query names and stops before the thousands of streets of the same name elsewhere. The answer stays the one a
 * reading of every name gives: a solver stops only when no unread name can change it (ties between equal
 * answers go to the one-pass order, classify/candidates.ts `readEarlier`), and reading more never changes it.
 *
 * Anchors. After the area names are collected, every area candidate with a positive score is an anchor. Its
 * bound is the most a chain ending at a leaf under it can score: the leaf's own words, what the solver adds
 * besides (`anchorExtra(o)`: type word, house, postcode, rank bonuses) and its candidate ancestors, counted two
 * ways and the smaller taken: (a) the ancestors' positive scores (with type bonuses) plus the most a leaf's
 * name scores (`own`: classify/bounds.ts `leafGainBound`); (b) per token: a token an ancestor holds goes either to it or to the leaf,
 * since a chain uses each token once, so each ancestor counts the larger of its score and the leaf gains of
 * its tokens, and the tokens no ancestor holds count their leaf gains; when those gain nothing, the leaf scores
 * on some ancestor's tokens and that ancestor leaves the chain, so the least an ancestor loses so comes off
 * (`сер`: a town named Серов bounds its streets by what `сер` gains on a street, not by its own score). Opening an anchor reads the leaf names in
 * its subtree's id range, less the ranges already open (ranges nest or are disjoint).
 *
 * The rest. A leaf under no anchor has no candidate ancestor: `own + restExtra` bounds it. The rest is read
 * name by name (with the other names of its object) in the solver's order (subtree.ts ensureOrder: a static key
 * of the object that the solver's rank or tie-break grows with, then the one-pass order), so its bound,
 * `own + restExtraOf(key)`, falls as it goes; a leaf whose own names cannot reach the solver's threshold
 * (`passBelow`) is passed by unread. Without an order (too many hit words) the rest is read at once.
 *
 * The solver asks `nextBound()` (the greater of the next anchor's and the rest's, an anchor first at a tie) and
 * calls `openNext()` while the bound can change its answer. Opening a range costs a binary search per hit word,
 * or a look at each name in the range when it has fewer (classify/postings.ts rangeCost: a town's streets against the
 * thousands of words a short prefix hits); once the openings would have cost more than reading every leaf name
 * of the hits twice, the anchors left are read in one sweep over the posting lists (a leaf is theirs when a candidate
 * stands above it): a scope never costs much more than two passes. (A posting of the sweep costs about two search
 * steps: its name and object at random, and two searches of the open and anchored ranges; `екатеринбург лен` swept
 * 1,160 postings of made-up words, 190 µs hot at lists 10 M, where reading the city's 799 names costs 23.)
 *
 * Bounds that look at the subtree: a token counts for the leaves under an anchor only when one of its words is
 * in a leaf's name there (classify/leaf-hits.ts leafTokensIn: a binary search per word, for tokens of few words), and an area
 * whose own tokens are all that its leaves can gain on is no anchor (a leaf under it takes one of them, and the
 * area leaves the chain). The rest read in order drops the cursors that can only lead to leaves below the
 * threshold (classify/ordered.ts minorHit): those of the tokens whose gains together stay below it, and those of words
 * whose names all score below it.
 *
 *   ANCHORS i32 × 3 × anchorCount  id, bound (a) less `own`, bound (b), both with the anchor's extra
 *   HEAP    i64 × anchorCount      max-heap of (bound << 32 | anchor index); rebuilt when `own` is tightened
 *   OPEN    i32 × 2 × openCount    the open ranges [start, end), sorted and disjoint
 *   ABOVE   i32 × 2 × aboveCount   the objects a candidate area stands above, [area + 1, subtree end) merged, sorted
 *                                  and disjoint; grown from classify/candidates.ts raisedArea as areas turn positive
 */
import { reserve } from '../memory';
import { heapAt, setHeapAt, heapify, popHeap, sortAscending } from '../heap';
import { obj, name, posting, word, O_PARENT, objectCount } from '../blob';
import { objSlot, objAt, objUsed, collectObjects, raisedCount, raisedArea, newPart } from '../classify/candidates';
import { expandLeaves, rangeCost, readLeaf } from '../classify/postings';
import { postingsOfHits, leafHit, leafHits, tokenLeafGain, leafTokensIn, gainingTokens } from '../classify/leaf-hits';
import { hitWordOf } from '../classify/hit-log';
import { NO_NEED } from '../classify/bounds';
import {
  orderedFactsLoss, beginOrdered, orderedKey, readOrdered, orderedBound, skipOrdered, nextName, nextHit, primeOrdered,
} from '../classify/ordered';
import { scoped, isArea, subtreeEnd, ensureOrder, NO_KEY, postcodeSlice, postcodeObject } from '../subtree';

const CAPACITY: i32 = 65536;
export const NO_BOUND: i32 = -2147483648;

let HEAP: usize = 0;
let heapSize: i32 = 0;
let ANCHORS: usize = 0;
let anchorCount: i32 = 0;
let own: i32 = 0;
let restExtra: i32 = 0;
/** the rest in order: the order, its key and the solver's extra by key; `ordering` once begun, `restKey` next */
let order: i32 = -1;
let keyOf: (o: i32) => i32 = (o: i32): i32 => 0;
let restExtraOf: (key: i32) => i32 = (key: i32): i32 => 0;
let leafExtraOf: (o: i32, key: i32) => i32 = (o: i32, key: i32): i32 => 0;
let leafHouseLoss: (o: i32, slack: i32) => i32 = (o: i32, slack: i32): i32 => 0;
let ordering: bool = false;
export let restKey: i32 = NO_KEY;
/** leaves of the rest that cannot reach this are passed by unread, and at it those read after (hit, name) */
let skipBelow: i32 = NO_BOUND;
let tieHit: i32 = 0x7fffffff;
let tieName: i32 = 0x7fffffff;
/**
 * the key of the order at which the rule of (hit, name) holds for a tie, a leaf at a lower key losing it whatever
 * its place (standardize: the tie-breaks after level go by the order's key); TIE_ANY_KEY: the rule at every key
 */
export const TIE_ANY_KEY: i32 = 0x7fffffff;
let tieKey: i32 = TIE_ANY_KEY;
/** below this the solver stops on the bound of the rest: nothing to pass by then */
let stopBelow: i32 = NO_BOUND;
let OPEN: usize = 0;
let openCount: i32 = 0;
let ABOVE: usize = 0;
let aboveCount: i32 = 0;
/** the areas of classify/candidates.ts raisedArea merged into ABOVE so far */
let aboveTaken: i32 = 0;
/** more raised areas than this at once are merged by a sort (one by one each shifts the ranges after it) */
const FEW_RAISED: i32 = 8;
let ABOVE_SORTED: usize = 0;
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
  ABOVE = reserve(<usize>CAPACITY << 3);
  ABOVE_SORTED = reserve(<usize>CAPACITY << 3);
  ANCHORS = reserve(<usize>CAPACITY * 12);
}

// @ts-ignore: decorator
@inline function anchorField(i: i32, field: i32): i32 {
  return load<i32>(ANCHORS + <usize>(i * 3 + field) * 4);
}

/** The leaf gains of the tokens in a mask (classify/leaf-hits.ts tokenLeafGain). */
function maskGain(mask: u64): i32 {
  let total = 0;
  while (mask != 0) {
    total += tokenLeafGain(<i32>ctz<u64>(mask));
    mask &= mask - 1;
  }
  return total;
}

/** Bound (a) less `own` and bound (b) of the leaves under o (see the top of the file), into anchor i. */
function boundAnchor(i: i32, o: i32, extra: i32, present: u64): void {
  let scores = 0;
  let byToken = 0;
  let held: u64 = 0;
  // the least an ancestor loses when the leaf takes its tokens (score over its tokens' leaf gains)
  let yields = 0x7fffffff;
  let a = o;
  while (a >= 0) {
    const q = objSlot(a, false);
    if (q != 0 && load<i32>(q, 4) > 0) {
      let gain = load<i32>(q, 4) + load<i32>(q, 24);
      if (gain < 0) gain = 0;
      scores += gain;
      const mask = load<u64>(q, 32);
      const leaf = maskGain(mask & present);
      byToken += gain > leaf ? gain : leaf;
      held |= mask;
      const loss = gain > leaf ? gain - leaf : 0;
      if (leaf > 0 && loss < yields) yields = loss;
    }
    a = obj(a, O_PARENT);
  }
  const unheld = maskGain(~held & present);
  byToken += unheld;
  // a leaf scores on some token of its own: when every token it can gain on is an ancestor's, that ancestor
  // leaves the chain (a chain uses a token once), so the leaf gains at most what the ancestor would have
  if (unheld == 0) byToken -= yields == 0x7fffffff ? byToken : yields;
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
    setHeapAt(HEAP, heapSize, (<i64>(a < b ? a : b) << 32) | <i64>i);
    heapSize++;
  }
  heapify(HEAP, heapSize);
}

/**
 * Starts a scope over the candidates collected so far (the areas). `leafOwn` is the most a leaf's name scores;
 * the solver adds at most `anchorExtra(o)` to a leaf under anchor o besides, `leafExtra` to a leaf under none,
 * `extraOf(key)` to one whose object has `key` in order `leafOrder` (`key(o)`), and `objectExtra(o, key)` (at most
 * `extraOf(key)`: a leaf is passed by on its names and `extraOf` before its object's record is read) to
 * leaf o itself (looked at before passing it by), less `houseLoss(o, slack)` (what o loses for want of the house
 * typed: it reads o's houses, so it is asked last, only when the rest of the bound reaches the threshold; it may stop
 * at a loss under `slack`, which o's bound passes the threshold by); `hints` collects leaves as hints do
 * (classify/candidates.ts collectObjects). Without the subtree index every name is read already and the scope is empty.
 */
export function openScope(
  leafOwn: i32, leafExtra: i32, anchorExtra: (o: i32) => i32, leafOrder: i32, key: (o: i32) => i32,
  extraOf: (key: i32) => i32, objectExtra: (o: i32, key: i32) => i32, houseLoss: (o: i32, slack: i32) => i32, hints: bool,
): void {
  setupScope();
  heapSize = 0;
  anchorCount = 0;
  openCount = 0;
  aboveCount = 0;
  aboveTaken = 0;
  typing = hints;
  restOpen = !scoped;
  own = leafOwn;
  restExtra = leafExtra;
  order = leafOrder;
  keyOf = key;
  restExtraOf = extraOf;
  leafExtraOf = objectExtra;
  leafHouseLoss = houseLoss;
  ordering = false;
  tieKey = TIE_ANY_KEY;
  restKey = NO_KEY;
  skipBelow = NO_BOUND;
  stopBelow = NO_BOUND;
  spent = 0;
  swept = false;
  if (!scoped) return;
  for (let k = 0; k < objUsed && anchorCount < CAPACITY; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0) continue;
    const o = load<i32>(p);
    if (!isArea(o)) continue;
    // every token a leaf can gain on is the area's own: a leaf under it takes one, and the area leaves the chain,
    // so its leaves are those of the areas above it or of the rest (`сер`: a town named Серов)
    const others = ~load<u64>(p, 32) & gainingTokens;
    if (others == 0) continue;
    const present = leafTokensIn(o, subtreeEnd(o));
    if ((others & present) == 0) continue;
    boundAnchor(anchorCount++, o, anchorExtra(o), present);
  }
  buildHeap();
}

/** A smaller bound on what a leaf's name scores (`leafOwn` of openScope), computed once the first did not suffice. */
export function tightenScope(leafOwn: i32): void {
  if (leafOwn >= own) return;
  own = leafOwn;
  buildHeap();
}

/**
 * The leaves under no anchor not read yet are no longer wanted: the solver knows that none of them can change its
 * answer (hints: each leaves out a word typed whole, and a hint reads every word already). The anchors stay: what
 * is left to read is bounded by the places the query names, not by the country.
 */
export function dropRest(): void {
  restOpen = true;
}

/** Bound of the leaves not read under no anchor, NO_BOUND when they are all read (or dropped). */
function restBound(): i32 {
  if (restOpen) return NO_BOUND;
  if (!ordering) return own + restExtra;
  while (true) {
    restKey = orderedKey();
    if (restKey == NO_KEY) {
      restOpen = true;
      return NO_BOUND;
    }
    const bound = own + restExtraOf(restKey);
    // the solver stops on this bound, or a leaf under an anchor not open yet may add the anchor's score
    if (skipBelow == NO_BOUND || bound < stopBelow || !reaches(bound)) return bound;
    // passed by when under no anchor and short of the threshold: the cheap bounds first (the names, then the
    // object's own type word: its record is one more read at random), the houses last
    const o = name(nextName, 0);
    const named = orderedBound();
    // the object's type and houses as the facts beside the name tell them (no read of its record yet)
    if (!reaches(named + bound - own - orderedFactsLoss())) {
      if (underAnchor(o)) return bound;
      skipOrdered();
      continue;
    }
    const leaf = named + leafExtraOf(o, restKey);
    if (reaches(leaf)) {
      if (underAnchor(o) || reaches(leaf - leafHouseLoss(o, leaf - skipBelow))) return bound;
    } else if (underAnchor(o)) return bound;
    skipOrdered();
  }
}

/**
 * What the words of a leaf of the rest at this key must score for it to matter: below it the leaf cannot reach
 * `skipBelow`, even at a tie (classify/ordered.ts drops the cursors that can lead only to such leaves).
 */
function restNeeded(key: i32): i32 {
  return skipBelow == NO_BOUND ? NO_NEED : skipBelow - restExtraOf(key);
}

/** A leaf of the rest at (hit, name) in one-pass order and at `key` loses a tie with the one `passBelow` was given. */
function tieLost(hit: i32, nameId: i32, key: i32): bool {
  if (tieKey != TIE_ANY_KEY && key != tieKey) return key < tieKey;
  return hit > tieHit || (hit == tieHit && nameId > tieName);
}

/** A leaf of the rest at (hit, name) and `key` that scores exactly `skipBelow` cannot matter (`passBelow`). */
function afterTie(hit: i32, nameId: i32, key: i32): bool {
  return skipBelow != NO_BOUND && tieLost(hit, nameId, key);
}

/** A leaf of the rest with this bound, next in order, can still matter (see `passBelow`). */
function reaches(bound: i32): bool {
  return bound > skipBelow || (bound == skipBelow && !tieLost(nextHit, nextName, restKey));
}

/**
 * Leaves of the rest read in order that cannot reach `threshold` (their names' bound without reading them, plus
 * what the solver adds to them) are passed by unread, and those that reach it exactly when they come after
 * (`afterHit`, `afterName`) in one-pass order, at the order's key `atKey` or at any key (TIE_ANY_KEY), and at a
 * key below `atKey` whatever their place. A solver gives a threshold that never falls while it reads (hints: the
 * last rank of a full list, and its place; standardize: the best less the runner-up margin, no tie, or the best
 * itself once a runner-up is within the margin, and its place and key once one ties it), and `stop`, below which
 * it stops on the bound of the rest anyway.
 */
export function passBelow(threshold: i32, afterHit: i32, afterName: i32, stop: i32, atKey: i32 = TIE_ANY_KEY): void {
  skipBelow = threshold;
  tieHit = afterHit;
  tieName = afterName;
  tieKey = atKey;
  stopBelow = stop;
}

/** Bound of the next opening (an anchor or the rest, the greater), NO_BOUND when all is open. */
export function nextBound(): i32 {
  const rest = restBound();
  if (heapSize == 0) return rest;
  const anchor = <i32>(heapAt(HEAP, 0) >> 32);
  return anchor > rest ? anchor : rest;
}

/** The next opening is the rest: leaves under no anchor (at an equal bound an anchor goes first: the places a query names). */
export function nextIsRest(): bool {
  const rest = restBound();
  return rest != NO_BOUND && (heapSize == 0 || rest > <i32>(heapAt(HEAP, 0) >> 32));
}

/**
 * Reads, out of order, the first unread name of the ordered rest's cursor that gains the most
 * (classify/ordered.ts primeOrdered): for a solver with no winner yet, whose threshold would otherwise pass nothing by while the reader
 * drains the cursor of the earlier hit. True when it read something (collected for the solver to evaluate).
 */
export function primeRest(): bool {
  if (!ordering || !primeOrdered()) return false;
  const before = objUsed;
  collectObjects(typing);
  return objUsed > before;
}

/** the most objects a postcode may name for `openPostcode` (a city's names tens of streets) */
const MAX_POSTCODE_OBJECTS: i32 = 512;

/**
 * Reads the leaves under every object the postcode names (subtree.ts POSTCODES: those whose postcode is not their
 * parent's), as anchors are read: then no leaf left unread has that postcode on its path, so a solver may take the
 * postcode's bonus out of what it adds to the rest (`468321, ул. Ленина, д3`: the Ленина of the town with that
 * postcode first, not after the thousands of heavier towns' Ленина). False, having read nothing, when it names more
 * than MAX_POSTCODE_OBJECTS, when the openings would cost more than one full reading (a region's postcode), or when
 * the dictionary has no subtree index.
 */
export function openPostcode(postcode: i32): bool {
  if (!scoped || postcode <= 0) return false;
  const first = postcodeSlice(postcode);
  if (postcodeSlice(postcode + 1) - first > MAX_POSTCODE_OBJECTS) return false;
  let cost = 0;
  for (let i = first; postcodeObject(i, postcode) >= 0; i++) {
    const o = postcodeObject(i, postcode);
    cost += rangeCost(o, subtreeEnd(o));
    if (spent + cost > postingsOfHits()) return false;
  }
  spent += cost;
  newPart();
  for (let i = first; postcodeObject(i, postcode) >= 0; i++) {
    const o = postcodeObject(i, postcode);
    open(o, subtreeEnd(o));
  }
  collectObjects(typing);
  return true;
}

/** The next opening reads one name of the rest in order: classify/ordered.ts nextHit and nextName say which, `restKey` its key. */
export function nextIsOrdered(): bool {
  return ordering && nextIsRest();
}

/** Index of the first of `count` ranges at `base` (i32 start, end; sorted and disjoint) that ends after o. */
function rangeAfter(base: usize, count: i32, o: i32): i32 {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<i32>(base + (<usize>mid << 3), 4) <= o) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ranges first … k−1 of the `count` at `base` (they lie inside [start, end)) replaced by it; returns the new count. */
function replaceRanges(base: usize, count: i32, first: i32, k: i32, start: i32, end: i32): i32 {
  const removed = k - first;
  if (removed != 1) {
    memory.copy(base + (<usize>(first + 1) << 3), base + (<usize>k << 3), <usize>(count - k) << 3);
    count += 1 - removed;
  }
  store<i32>(base + (<usize>first << 3), start);
  store<i32>(base + (<usize>first << 3), end, 4);
  return count;
}

/** Index of the first open range that ends after o. */
function openAfter(o: i32): i32 {
  return rangeAfter(OPEN, openCount, o);
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
  openCount = replaceRanges(OPEN, openCount, first, k, start, end);
}

/** Adds [start, end) to ABOVE: inside a range it changes nothing, else it replaces the ranges it holds (subtrees nest). */
function addAbove(start: i32, end: i32): void {
  const first = rangeAfter(ABOVE, aboveCount, start);
  if (first < aboveCount && load<i32>(ABOVE + (<usize>first << 3)) <= start) return;
  let k = first;
  while (k < aboveCount && load<i32>(ABOVE + (<usize>k << 3)) < end) k++;
  aboveCount = replaceRanges(ABOVE, aboveCount, first, k, start, end);
}

/** ABOVE anew from every raised area: sorted by start, a range inside the one before it left out (subtrees nest). */
function rebuildAbove(): void {
  for (let i = 0; i < raisedCount; i++) {
    const a = raisedArea(i);
    setHeapAt(ABOVE_SORTED, i, (<i64>(a + 1) << 32) | <i64>subtreeEnd(a));
  }
  sortAscending(ABOVE_SORTED, raisedCount);
  aboveCount = 0;
  let end = -1;
  for (let i = 0; i < raisedCount; i++) {
    const range = heapAt(ABOVE_SORTED, i);
    if (<i32>(range >> 32) < end) continue;
    end = <i32>(range & 0xffffffff);
    store<i64>(ABOVE + (<usize>aboveCount << 3), (<i64>end << 32) | (range >> 32));
    aboveCount++;
  }
  aboveTaken = raisedCount;
}

/**
 * A candidate area stands above o: o is under an anchor. A binary search over the subtrees of the areas with a
 * positive score (the walk up o's parents costs a hash probe per level, and a sweep asks for every posting).
 */
function underAnchor(o: i32): bool {
  if (raisedCount - aboveTaken > FEW_RAISED) rebuildAbove();
  while (aboveTaken < raisedCount) {
    const a = raisedArea(aboveTaken++);
    addAbove(a + 1, subtreeEnd(a));
  }
  const k = rangeAfter(ABOVE, aboveCount, o);
  return k < aboveCount && load<i32>(ABOVE + (<usize>k << 3)) <= o;
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

/** what a posting of `sweep` costs in search steps of the openings (see the top of the file) */
const SWEEP_POSTING_COST: i32 = 2;

/** Opens the next anchor (or the rest) and collects the candidates it brings. */
export function openNext(): void {
  if (nextIsRest()) {
    openRest();
    return;
  }
  const next = heapSize > 0 ? anchorField(<i32>(heapAt(HEAP, 0) & 0xffffffff), 0) : -1;
  const cost = next >= 0 ? rangeCost(next, subtreeEnd(next)) : 0;
  if (heapSize > 0 && spent + cost > SWEEP_POSTING_COST * postingsOfHits()) {
    // cheaper to sweep the lists for every anchor left than to keep searching per range
    heapSize = 0;
    swept = true;
    newPart();
    sweep(true);
    collectObjects(typing);
    return;
  }
  spent += cost;
  if (heapSize > 0) {
    heapSize = popHeap(HEAP, heapSize);
    newPart();
    open(next, subtreeEnd(next));
    collectObjects(typing);
  }
}

/**
 * The rest: the first time, begins the ordered reading and reads nothing (the bound is then by key: the solver
 * asks again); then one name per call. Unordered (no order, or too many hit words) it is read at once.
 */
function openRest(): void {
  if (!ordering && order >= 0) {
    ensureOrder(order, keyOf);
    ordering = beginOrdered(order, restNeeded, afterTie);
    order = -1;
    if (ordering) return;
  }
  if (ordering) {
    readOrdered();
    collectObjects(typing);
    return;
  }
  restOpen = true;
  newPart();
  if (swept) sweep(false);
  else open(0, objectCount);
  collectObjects(typing);
}
