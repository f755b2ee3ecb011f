/**
 * Deferred areas: a hint typed as one word (every hit is the prefix token's) has its area names read object by object,
 * best bound first (`orderDeferredAreas`, `deferredAreaBound`, `readDeferredArea`), rather than all at once, as a
 * place's chain is then the place alone; so does a hint whose other words are in no leaf's name, for the places only
 * the word being typed reaches and no place of the other words stands above or below (`deferPrefixAreas`:
 * `екатеринбург лен`). Each object is read whole, its (hit, name) pairs in one-pass order.
 */
import { reserve } from '../memory';
import { word, posting, name, nameWord, nameCount, obj, O_PARENT } from '../blob';
import { scoped, isArea, areaStart, areaCount, areaName, leafCount, areaMax, areaTopKey, subtreeEnd, firstAreaNameAt } from '../subtree';
import { heapAt, setHeapAt, heapify, siftUp, popHeap, entryOf, entryIndex } from '../heap';
import { MAX_HITS } from '../trie';
import { hitTotal, hitToken, hitWord, gainAt, HIT_CAP, onlyToken } from './hit-log';
import { readPosting, newPart, nameUsed, usedName } from './candidates';
import { readHit, firstNameAt } from './postings';
import { searchSteps } from './leaf-hits';
import { NO_NEED } from './bounds';
import { hash, idEntry, clearIds } from './id-hash';

/**
 * Deferred areas (hints typed as one word): the area names the word's hits reach are read object by object,
 * best bound first (`orderDeferredAreas`), rather than all at once: AREA_WORDS i32 × 2 (hit, its word's slot in
 * AREA_WORD_TABLE) for the hits with area names, AREA_WORD_TABLE i32 × 2 (word, first hit) by open addressing
 * and AREA_HIT_NEXT the next hit on the same word; AREA_WORD_HEAP i64 max-heap of (bound << 32 | 0x7fffffff − hit) over the words not
 * expanded; AREA_PAIRS i32 × 2 (hit, name), each expanded object's in one-pass order; AREA_GROUPS i32 × 2 each
 * object's [start, end) in it; AREA_HEAP i64 max-heap of (bound << 32 | 0x7fffffff − group); AREA_SEEN the
 * objects expanded (open addressing, AREA_SEEN_USED its slots taken, to clear).
 */
const AREA_PAIR_CAP: i32 = 65536;
const AREA_SEEN_CAP: i32 = AREA_PAIR_CAP * 2;
let AREA_WORDS: usize = 0;
const AREA_WORD_TABLE_CAP: i32 = MAX_HITS * 2;
let AREA_WORD_TABLE: usize = 0;
let AREA_HIT_NEXT: usize = 0;
let AREA_WORD_HEAP: usize = 0;
let AREA_PAIRS: usize = 0;
let AREA_GROUPS: usize = 0;
let AREA_HEAP: usize = 0;
let AREA_SEEN: usize = 0;
let AREA_SEEN_USED: usize = 0;
let areaWordCount: i32 = 0;
let areaWordHeapSize: i32 = 0;
let areaPairCount: i32 = 0;
let areaGroupCount: i32 = 0;
let areaHeapSize: i32 = 0;
let areaSeenUsed: i32 = 0;
let areaBoundOf: (o: i32, gain: i32) => i32 = (o: i32, gain: i32): i32 => 0;
/** this call's areas wait for `readDeferredArea` */
export let areasDeferred: bool = false;

export function setupDeferredAreas(): void {
  if (AREA_WORDS != 0) return;
  AREA_WORDS = reserve(<usize>MAX_HITS << 3);
  AREA_WORD_TABLE = reserve(<usize>AREA_WORD_TABLE_CAP << 3);
  AREA_HIT_NEXT = reserve(<usize>HIT_CAP << 2);
  for (let i = 0; i < AREA_WORD_TABLE_CAP; i++) store<i32>(AREA_WORD_TABLE + (<usize>i << 3), -1);
  AREA_WORD_HEAP = reserve(<usize>MAX_HITS << 3);
  AREA_PAIRS = reserve(<usize>AREA_PAIR_CAP << 3);
  AREA_GROUPS = reserve(<usize>AREA_PAIR_CAP << 3);
  AREA_HEAP = reserve(<usize>AREA_PAIR_CAP << 3);
  AREA_SEEN = reserve(<usize>AREA_SEEN_CAP << 2);
  AREA_SEEN_USED = reserve(<usize>AREA_PAIR_CAP << 2);
  for (let i = 0; i < AREA_SEEN_CAP; i++) store<i32>(AREA_SEEN + (<usize>i << 2), -1);
}

/**
 * Decides whether this call's areas wait for `readDeferredArea` (`asked` by the solver, for a hint whose token being
 * typed is `prefixToken`) and gathers them if so; returns `areasDeferred`. Nothing of their names is read yet.
 */
export function chooseDeferredAreas(prefixToken: i32, asked: bool): bool {
  areaHeapSize = 0;
  areaWordHeapSize = 0;
  areasDeferred = false;
  if (asked && scoped && prefixToken >= 0) {
    clearAreaSeen();
    areasDeferred = onlyToken(prefixToken) ? gatherAreas(0, 0) : deferPrefixAreas(prefixToken);
  }
  return areasDeferred;
}

/**
 * The hits from `first` on whose words have area names, for the deferred reading: AREA_WORDS, and AREA_WORD_TABLE,
 * so that the hits on a word are found by one probe; false (nothing deferred) when their area names and `more`
 * are more than AREA_PAIR_CAP. Nothing of the names is read yet.
 */
function gatherAreas(first: i32, more: i32): bool {
  let total = more;
  for (let h = first; h < hitTotal; h++) total += areaCount(hitWord(h));
  if (total > AREA_PAIR_CAP) return false;
  for (let k = 0; k < areaWordCount; k++) store<i32>(AREA_WORD_TABLE + (<usize>load<i32>(AREA_WORDS + (<usize>k << 3), 4) << 3), -1);
  areaWordCount = 0;
  for (let h = first; h < hitTotal; h++) {
    const w = hitWord(h);
    if (areaCount(w) == 0) continue;
    // the hits on a word chained in hit order (one token hits a word once; a chain costs nothing more)
    let i = hash(w) & (AREA_WORD_TABLE_CAP - 1);
    while (load<i32>(AREA_WORD_TABLE + (<usize>i << 3)) >= 0 && load<i32>(AREA_WORD_TABLE + (<usize>i << 3)) != w) {
      i = (i + 1) & (AREA_WORD_TABLE_CAP - 1);
    }
    store<i32>(AREA_WORDS + (<usize>areaWordCount << 3), h);
    store<i32>(AREA_WORDS + (<usize>areaWordCount << 3), i, 4);
    store<i32>(AREA_HIT_NEXT + (<usize>h << 2), -1);
    if (load<i32>(AREA_WORD_TABLE + (<usize>i << 3)) < 0) {
      store<i32>(AREA_WORD_TABLE + (<usize>i << 3), w);
      store<i32>(AREA_WORD_TABLE + (<usize>i << 3), h, 4);
    } else {
      let last = load<i32>(AREA_WORD_TABLE + (<usize>i << 3), 4);
      while (load<i32>(AREA_HIT_NEXT + (<usize>last << 2)) >= 0) last = load<i32>(AREA_HIT_NEXT + (<usize>last << 2));
      store<i32>(AREA_HIT_NEXT + (<usize>last << 2), h);
    }
    areaWordCount++;
  }
  return true;
}

/** at most this many area names of the other words' hits (`deferPrefixAreas` reads their objects whole at once) */
const FEW_OTHER_AREAS: i32 = 64;
/** at most this many leaf names of the other words' hits (the places above each are read at once) */
const FEW_OTHER_LEAVES: i32 = 4096;
/** the prefix's area names that reading the places above one such leaf costs as much as (`deferPrefixAreas`) */
const LEAF_WALK_COST: i32 = 4;
/** at most this many searches for the prefix's places under those objects (one per object and word) */
const INSIDE_SEARCHES: i32 = 8192;

/**
 * A hint typed as several words, the last being typed (`екатеринбург лен`), defers the places the prefix alone
 * reaches, as a word typed alone does, when no other word is in a leaf's name (so such a place is no anchor: every
 * token its streets can gain on is its own) and their area names are few: those are read now, each object whole (its
 * names with the prefix's hits too), and so is every place of the prefix above or below one of them. A place left
 * has names only the prefix hits and no candidate of another word on its path: its chain is the place and the
 * prefix, and it leaves out every other word (the solver charges them in its bound). False, having read nothing,
 * otherwise (the prefix's hits must be the log's last).
 */
function deferPrefixAreas(p: i32): bool {
  if (hitTotal == 0 || hitToken(hitTotal - 1) != p) return false;
  let first = hitTotal - 1;
  while (first > 0 && hitToken(first - 1) == p) first--;
  let others = 0;
  let leaves = 0;
  for (let h = 0; h < first; h++) {
    const w = hitWord(h);
    if (hitToken(h) == p) return false;
    others += areaCount(w);
    leaves += leafCount(w);
  }
  if (others > FEW_OTHER_AREAS || leaves > FEW_OTHER_LEAVES) return false;
  if (leaves > 0) {
    // the walk above each leaf costs about what reading a few of the prefix's places does
    let places = 0;
    for (let h = first; h < hitTotal; h++) places += areaCount(hitWord(h));
    if (places < leaves * LEAF_WALK_COST) return false;
  }
  if (!gatherAreas(first, others * 16) || others * areaWordCount > INSIDE_SEARCHES) return false;
  for (let h = 0; h < first; h++) readHit(h, true);
  const touched = nameUsed;
  for (let k = 0; k < touched; k++) {
    const o = name(usedName(k), 0);
    if (!readWhole(o)) continue;
    for (let a = obj(o, O_PARENT); a >= 0; a = obj(a, O_PARENT)) readWhole(a);
    const end = subtreeEnd(o);
    if (end > o + 1) readInside(o, end);
  }
  // the places above a leaf another word is in: each may be the anchor of that street (a place read is read with
  // every place above it, so the walk stops at one)
  if (leaves > 0) {
    for (let h = 0; h < first; h++) {
      const w = hitWord(h);
      if (leafCount(w) == 0) continue;
      const start = word(w, 0);
      for (let k = start; k < start + word(w, 1); k++) {
        const o = name(posting(k), 0);
        if (isArea(o)) continue;
        for (let a = obj(o, O_PARENT); a >= 0 && readWhole(a); a = obj(a, O_PARENT)) {}
      }
    }
  }
  return true;
}

/** Reads object o's names with the deferred hits now, in one-pass order (`areaPairs`); false when it was read. */
function readWhole(o: i32): bool {
  if (!markAreaSeen(o)) return false;
  const from = areaPairCount;
  areaPairs(o, firstNameAt(o));
  readPairs(from, areaPairCount);
  areaPairCount = from;
  return true;
}

/**
 * Reads whole every object in (lo, hi) with a name the deferred hits reach: a search in each word's area names, or,
 * when the range has fewer names than those searches take steps, a look at the words of each area's name there
 * (`екатеринбург лен`: 1,160 made-up words of the prefix, a search each, against the city's 799 names).
 */
function readInside(lo: i32, hi: i32): void {
  const first = firstNameAt(lo + 1);
  const end = firstNameAt(hi);
  let steps = 0;
  for (let i = 0; i < areaWordCount && steps < end - first; i++) steps += searchSteps(areaCount(hitWord(load<i32>(AREA_WORDS + (<usize>i << 3)))));
  if (end - first < steps) {
    for (let n = first; n < end; n++) {
      const o = name(n, 0);
      if (!isArea(o)) continue;
      for (let j = name(n, 1); j < name(n, 1) + name(n, 2); j++) {
        if (firstAreaHit(nameWord(j, 0)) < 0) continue;
        readWhole(o);
        break;
      }
    }
    return;
  }
  for (let i = 0; i < areaWordCount; i++) {
    const w = hitWord(load<i32>(AREA_WORDS + (<usize>i << 3)));
    const end = areaStart(w) + areaCount(w);
    for (let k = firstAreaNameAt(w, lo + 1); k < end; k++) {
      const o = name(areaName(k), 0);
      if (o >= hi) break;
      readWhole(o);
    }
  }
}

/** The first hit on word w among those with area names (AREA_WORD_TABLE), −1 when none; the next by AREA_HIT_NEXT. */
function firstAreaHit(w: i32): i32 {
  let i = hash(w) & (AREA_WORD_TABLE_CAP - 1);
  while (true) {
    const id = load<i32>(AREA_WORD_TABLE + (<usize>i << 3));
    if (id == w) return load<i32>(AREA_WORD_TABLE + (<usize>i << 3), 4);
    if (id < 0) return -1;
    i = (i + 1) & (AREA_WORD_TABLE_CAP - 1);
  }
}

/**
 * Orders the deferred areas by `boundOf(object, gain)`, the most an object can rank given the most its names gain
 * from their hits, without reading them: each hit word first, by the most any of its area names can (the gain at
 * the word's greatest weight in an area's name, `extra` for the solver's other bonuses, and the greatest key in
 * `order` of such an area: subtree.ts AREA_MAX, AREA_TOP; `boundOf` adds at most `extra` and the key to the gain).
 * A word that comes first is expanded into its objects (`expandAreaWord`); a prefix of three letters reaches
 * hundreds of words of one place each in a national dictionary, and few of them are ever expanded.
 */
export function orderDeferredAreas(boundOf: (o: i32, gain: i32) => i32, order: i32, extra: i32): void {
  areaBoundOf = boundOf;
  areaPairCount = 0;
  areaGroupCount = 0;
  areaHeapSize = 0;
  areaWordHeapSize = 0;
  for (let i = 0; i < areaWordCount; i++) {
    const h = load<i32>(AREA_WORDS + (<usize>i << 3));
    const w = hitWord(h);
    const bound = gainAt(h, areaMax(w)) + extra + areaTopKey(order, w);
    setHeapAt(AREA_WORD_HEAP, areaWordHeapSize++, entryOf(bound, h));
  }
  heapify(AREA_WORD_HEAP, areaWordHeapSize);
}

/** Forgets the objects expanded or read by an earlier call. */
function clearAreaSeen(): void {
  clearIds(AREA_SEEN, AREA_SEEN_USED, areaSeenUsed);
  areaSeenUsed = 0;
}

/** Marks object o expanded (AREA_SEEN: a set of object ids, `idEntry`); false when it was already. */
function markAreaSeen(o: i32): bool {
  const at = idEntry(AREA_SEEN, AREA_SEEN_CAP, o);
  if (load<i32>(at) == o) return false;
  store<i32>(at, o);
  store<i32>(AREA_SEEN_USED + (<usize>areaSeenUsed << 2), <i32>((at - AREA_SEEN) >> 2));
  areaSeenUsed++;
  return true;
}

/**
 * Expands the hit word on top of AREA_WORD_HEAP: each object among its area names not expanded yet becomes a group
 * of every (hit, name) pair a full reading of the hits gives it (its names' words that are hit, any of the hits),
 * in one-pass order (by hit, then name), with its bound in AREA_HEAP. An object is in the lists of each word of its
 * names, so one not expanded has all its words unexpanded, and their bounds bound it.
 */
function expandAreaWord(): void {
  const h = entryIndex(heapAt(AREA_WORD_HEAP, 0));
  areaWordHeapSize = popHeap(AREA_WORD_HEAP, areaWordHeapSize);
  const w = hitWord(h);
  for (let k = areaStart(w); k < areaStart(w) + areaCount(w); k++) {
    const o = name(areaName(k), 0);
    if (!markAreaSeen(o)) continue;
    let first = areaName(k);
    while (first > 0 && name(first - 1, 0) == o) first--;
    const from = areaPairCount;
    const gain = areaPairs(o, first);
    store<i32>(AREA_GROUPS + (<usize>areaGroupCount << 3), from);
    store<i32>(AREA_GROUPS + (<usize>areaGroupCount << 3), areaPairCount, 4);
    setHeapAt(AREA_HEAP, areaHeapSize, entryOf(areaBoundOf(o, gain), areaGroupCount));
    areaHeapSize++;
    siftUp(AREA_HEAP, areaHeapSize - 1);
    areaGroupCount++;
  }
}

/**
 * Appends to AREA_PAIRS every (hit, name) pair a full reading of the deferred hits gives object o's names (`first`
 * its first name), in one-pass order (by hit, then name); returns the most one of its names gains.
 */
function areaPairs(o: i32, first: i32): i32 {
  const from = areaPairCount;
  let gain = -1000000;
  for (let n = first; n < nameCount && name(n, 0) == o; n++) {
    // one token: a name scores the gain of one hit, less the coverage penalty on the rest of its weight and the
    // earlier name's (collectObjects)
    const penalty = name(n, 3) != 0 ? 5 : 0;
    for (let j = name(n, 1); j < name(n, 1) + name(n, 2); j++) {
      const x = nameWord(j, 0);
      for (let hx = firstAreaHit(x); hx >= 0; hx = load<i32>(AREA_HIT_NEXT + (<usize>hx << 2))) {
        const g = gainAt(hx, nameWord(j, 1)) - (name(n, 4) - nameWord(j, 1)) / 5 - penalty;
        if (g > gain) gain = g;
        // (hit, name) in one-pass order: insertion, a group holds a few; a word twice in a name is one pair
        let at = areaPairCount;
        while (at > from && areaPairBefore(hx, n, at - 1)) at--;
        if (at > from && areaPairIs(hx, n, at - 1)) continue;
        for (let m = areaPairCount; m > at; m--) store<i64>(AREA_PAIRS + (<usize>m << 3), load<i64>(AREA_PAIRS + (<usize>(m - 1) << 3)));
        store<i32>(AREA_PAIRS + (<usize>at << 3), hx);
        store<i32>(AREA_PAIRS + (<usize>at << 3), n, 4);
        areaPairCount++;
      }
    }
  }
  return gain;
}

/** Reads the pairs AREA_PAIRS [from, to) in order. */
function readPairs(from: i32, to: i32): void {
  for (let j = from; j < to; j++) {
    if (!readPosting(load<i32>(AREA_PAIRS + (<usize>j << 3)), load<i32>(AREA_PAIRS + (<usize>j << 3), 4))) return;
  }
}

/** Pair (hit, name) comes before AREA_PAIRS[i] in one-pass order. */
function areaPairBefore(h: i32, n: i32, i: i32): bool {
  const ph = load<i32>(AREA_PAIRS + (<usize>i << 3));
  return h < ph || (h == ph && n < load<i32>(AREA_PAIRS + (<usize>i << 3), 4));
}

function areaPairIs(h: i32, n: i32, i: i32): bool {
  return load<i32>(AREA_PAIRS + (<usize>i << 3)) == h && load<i32>(AREA_PAIRS + (<usize>i << 3), 4) == n;
}

/**
 * The bound of the next deferred area (`orderDeferredAreas`), NO_NEED when none is left: the words whose bound comes
 * first are expanded until an object's comes first.
 */
export function deferredAreaBound(): i32 {
  while (areaWordHeapSize > 0 && (areaHeapSize == 0 || (heapAt(AREA_WORD_HEAP, 0) >> 32) >= (heapAt(AREA_HEAP, 0) >> 32))) {
    expandAreaWord();
  }
  return areaHeapSize > 0 ? <i32>(heapAt(AREA_HEAP, 0) >> 32) : NO_NEED;
}

/** Reads the next deferred area (call `deferredAreaBound` first): every name of the object with its hits, as one pass reads them. */
export function readDeferredArea(): void {
  const group = entryIndex(heapAt(AREA_HEAP, 0));
  areaHeapSize = popHeap(AREA_HEAP, areaHeapSize);
  newPart();
  readPairs(load<i32>(AREA_GROUPS + (<usize>group << 3)), load<i32>(AREA_GROUPS + (<usize>group << 3), 4));
}
