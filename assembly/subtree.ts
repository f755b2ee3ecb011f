/**
 * Subtree index, built once per dictionary from sections already loaded (the blob needs nothing new).
 *
 * Objects are numbered depth-first (dictionaries/merge/tree.ts), so the subtree of object o is the id
 * range [o, END[o]); names are stored in object order and each posting list in name order, so the names of a
 * word inside a subtree are one slice of its posting list, found by binary search (`firstPostingAt`).
 *
 * An object with children (an "area": region … settlement, a microdistrict with streets) can stand above
 * another in a chain; an object without children (a "leaf": nearly every street) can only end one. The
 * classifier reads the area names of a word in full and its leaf names only inside the subtrees the solver
 * opens (solve/scope.ts): a street name that repeats in thousands of places costs what it costs inside the
 * places the query names.
 *
 *   END        i32 × objectCount      end of each object's subtree (one backward pass over parents)
 *   WORD_INFO  i32 × 13 × wordCount   the per-word tables marked (fields …), one record per word: a query reads
 *                                     them all for each hit word, thousands for a short prefix
 *   AREA_SLICE i32 × 2 × wordCount    start, count of the word's area names in AREA_NAMES (fields 0, 1)
 *   AREA_NAMES i32 × area postings    name ids of objects with children, grouped by word, in posting order
 *   AREA_MAX   i32 × wordCount        the greatest weight the word has in an area's name (field 10)
 *   AREA_TOP   i32 × 2 × wordCount    per order: the greatest key of an area whose name has the word (fields 11, 12;
 *                                     `ensureOrder`): a word's places are bounded before any of them is read
 *                                     (classify/deferred-areas.ts, the places of a word typed alone)
 *   LEAF_MAX   i32 × 2 × wordCount    the greatest weight the word has in a leaf's name, and the most times it
 *                                     occurs in one (bounds, solve/scope.ts) (fields 2, 3)
 *   LEAF_LEVELS i32 × wordCount       bit L set when a leaf of level L has the word in its name (field 4)
 *   LIGHTEST   i32 × wordCount        the smallest total weight of a leaf's name holding the word (field 5)
 *   HEAVIEST   i32 × objectCount      the greatest weight in each object's subtree (hint rank bounds)
 *   CO_SLICE   i32 × 2 × wordCount    start, count of the word's companions in CO_WORDS (fields 6, 7)
 *   CO_WORDS   i32 × 2 × Σ wc² over leaf names   companions: the distinct words that share a leaf's name with
 *                                     the word, itself included, each with its greatest weight in such a name
 *                                     (a street name scores only from words it holds together; this does not
 *                                     grow with the number of places)
 *   PATH       i32 × MAX_DEPTH        scratch of the depth-first check
 *   CHAIN_WEIGHT i32 × objectCount    the greatest weight on the path from the root to each object (the
 *                                     chain solver's last tie-break)
 *   LEAF_SLICE i32 × 2 × wordCount    start, count of the word's leaf names in an ORDERED array (fields 8, 9)
 *   ORDERED    i32 × leaf postings    per order (`ensureOrder`): each word's leaf names by a solver's static key
 *                                     of their object, greatest first, then by name id (the one-pass order);
 *   ORDER_KEY  i32 × objectCount      that key. Built by the first query that reads streets in that order.
 *   WORD_TOP   i32 × wordCount        per order: the key of each word's first leaf name there (its greatest), so
 *                                     that starting the ordered reading of a prefix's thousands of words reads
 *                                     one array in word order, not three tables at random per word
 *   ORDERED_KEYS i32 × leaf postings  per order: the key of each name of ORDERED, beside it (the reader of the
 *                                     ordered rest keys its cursors by it: no read of the name and its object)
 *   LEAF_FACTS u64 × leaf postings   per order: for each name of ORDERED, beside it, the facts a bound needs: its
 *                                     object's classes of house keys' first characters (a digit 0–9, another
 *                                     character: bits 0–10), level (bits 11–15) and type (bits 16–31, 0xffff when
 *                                     larger); the word's weight in the name (bits 32–39, 255 when larger or the word
 *                                     is twice in it), the name's other weight (bits 40–47, at most 255) and whether
 *                                     it is an earlier name (bit 48), and when the name has one word besides the
 *                                     word, that word's sign (`otherSign`, bits 49–62; bit 63 set): a name that cannot
 *                                     reach is passed by without a read of the name or its object (classify/ordered.ts)
 *   TAIL_LEADS u64 × 2 × (leaf postings / 16 + wordCount)  per order: for every 16th name of each word's ordered
 *                                     list, the HOUSE_LEADS of the names from it to the end of the list, so that a
 *                                     cursor whose names have no house starting as the one typed is dropped
 *                                     (`tailHasLeads`) rather than its names passed by one at a time
 *   HOUSE_LEADS u64 × 2 × objectCount the pairs of first two characters of the object's house keys as bits
 *                                     (`leadsHavePair`: a digit, another character, none): a street passed by for
 *                                     want of the house typed (`9`, `35`) is told by one load, not by reading its
 *                                     houses (hundreds on a long street)
 *   SHORT_KEYS u64 × 2 × objectCount  bit n for a house key that is the number n of two digits, or them and one
 *                                     character more (`hasShortKey`: `35` typed, a street of 35к1 and 35к2 is
 *                                     told by one load)
 *   POSTCODES  i64 × objects whose postcode is not their parent's: (postcode << 32 | object), sorted, so the
 *                                     objects a postcode names are one slice (`postcodeSlice`), and every object
 *                                     with that postcode, or under one with it, lies in their subtrees
 *
 * The index is built by the first query after the sections are attached (`ensureSubtrees`); `scoped` is false
 * when the dictionary breaks one of the orders above (or is empty), and the classifier then reads every
 * posting in full, as it did before the index existed.
 */
import { reserve, i32At, setI32 } from './memory';
import { setHeapAt, sortAscending } from './heap';
import { isDigit } from './text';
import { countRead } from './reads';
import {
  obj, name, nameWord, posting, word, house, houseKeyChar, O_PARENT, O_LEVEL, O_TYPE, O_WEIGHT, O_HOUSE_START, O_HOUSE_COUNT,
  H_KEY, H_KEY_LEN, O_POSTCODE, OBJECTS, NAMES, objectCount, nameCount, wordCount,
} from './blob';

/** no more names in an order */
export const NO_KEY: i32 = -1;

const MAX_DEPTH: i32 = 256;

let END: usize = 0;
/** the per-word tables, one record of WORD_FIELDS i32 per word (a word's figures share a cache line or two) */
const WORD_FIELDS: i32 = 13;
let WORD_INFO: usize = 0;
let AREA_NAMES: usize = 0;
let HEAVIEST: usize = 0;
let CO_WORDS: usize = 0;
let CHAIN_WEIGHT: usize = 0;
let HOUSE_LEADS: usize = 0;
let SHORT_KEYS: usize = 0;
let POSTCODES: usize = 0;
let postcodeCount: i32 = 0;
let leafPostingTotal: i32 = 0;
let longestLeafList: i32 = 0;
const ORDERS: i32 = 2;
/** ORDERED and ORDER_KEY of each order, 0 until built */
let ORDERED: StaticArray<usize> = new StaticArray<usize>(ORDERS);
let ORDER_KEY: StaticArray<usize> = new StaticArray<usize>(ORDERS);
let WORD_TOP: StaticArray<usize> = new StaticArray<usize>(ORDERS);
let TAIL_LEADS: StaticArray<usize> = new StaticArray<usize>(ORDERS);
let ORDERED_KEYS: StaticArray<usize> = new StaticArray<usize>(ORDERS);
let LEAF_FACTS: StaticArray<usize> = new StaticArray<usize>(ORDERS);
/** the greatest key of a leaf in each order (NO_KEY while unbuilt or without leaves) */
let ORDER_TOP: StaticArray<i32> = new StaticArray<i32>(ORDERS);
let PATH: usize = 0;
let builtObjects: usize = 0;
let builtNames: usize = 0;
let builtObjectCount: i32 = -1;

/** the dictionary keeps the three orders: leaf names are read per subtree */
export let scoped: bool = false;

// @ts-ignore: decorator
@inline function wordField(w: i32, field: i32): i32 {
  return i32At(WORD_INFO, w * WORD_FIELDS + field);
}
// @ts-ignore: decorator
@inline function setWordField(w: i32, field: i32, v: i32): void {
  setI32(WORD_INFO, w * WORD_FIELDS + field, v);
}

// @ts-ignore: decorator
@inline export function subtreeEnd(o: i32): i32 {
  return i32At(END, o);
}

/** The object has children: it can stand above another object in a chain. */
// @ts-ignore: decorator
@inline export function isArea(o: i32): bool {
  return i32At(END, o) > o + 1;
}

// @ts-ignore: decorator
@inline export function areaStart(w: i32): i32 {
  return wordField(w, 0);
}
// @ts-ignore: decorator
@inline export function areaCount(w: i32): i32 {
  return wordField(w, 1);
}
// @ts-ignore: decorator
@inline export function areaName(i: i32): i32 {
  return i32At(AREA_NAMES, i);
}
// @ts-ignore: decorator
@inline export function leafMax(w: i32): i32 {
  return wordField(w, 2);
}
/** The greatest weight word w has in an area's name. */
// @ts-ignore: decorator
@inline export function areaMax(w: i32): i32 {
  return wordField(w, 10);
}
/** The greatest key in `order` of an area whose name has word w, NO_KEY when none (`ensureOrder` built it). */
// @ts-ignore: decorator
@inline export function areaTopKey(order: i32, w: i32): i32 {
  return wordField(w, 11 + order);
}
/** The smallest total weight of a leaf's name holding word w. */
// @ts-ignore: decorator
@inline export function lightestName(w: i32): i32 {
  return wordField(w, 5);
}
/** Levels (bit set) of the leaves whose names hold word w. */
// @ts-ignore: decorator
@inline export function leafLevels(w: i32): i32 {
  return wordField(w, 4);
}
/** The greatest weight on the path from the root to o, o included. */
// @ts-ignore: decorator
@inline export function chainWeight(o: i32): i32 {
  return i32At(CHAIN_WEIGHT, o);
}
// @ts-ignore: decorator
@inline export function leafStart(w: i32): i32 {
  return wordField(w, 8);
}
// @ts-ignore: decorator
@inline export function leafCount(w: i32): i32 {
  return wordField(w, 9);
}
/** The i-th leaf name of an order (`leafStart(w)` … of word w). */
// @ts-ignore: decorator
@inline export function orderedName(order: i32, i: i32): i32 {
  countRead();
  return i32At(unchecked(ORDERED[order]), i);
}
/** The key of object o in an order. */
// @ts-ignore: decorator
@inline export function orderKey(order: i32, o: i32): i32 {
  return i32At(unchecked(ORDER_KEY[order]), o);
}
/** The key of word w's first leaf name in an order (`ensureOrder` built it), NO_KEY when it has none. */
// @ts-ignore: decorator
@inline export function wordTopKey(order: i32, w: i32): i32 {
  return i32At(unchecked(WORD_TOP[order]), w);
}
/** The greatest key of a leaf name in an order (`ensureOrder` built it), NO_KEY when there is none. */
// @ts-ignore: decorator
@inline export function orderTop(order: i32): i32 {
  return unchecked(ORDER_TOP[order]);
}
/** The greatest weight in the subtree of o. */
// @ts-ignore: decorator
@inline export function heaviest(o: i32): i32 {
  return i32At(HEAVIEST, o);
}
/** The most times word w occurs in one leaf's name. */
// @ts-ignore: decorator
@inline export function leafRepeat(w: i32): i32 {
  return wordField(w, 3);
}
// @ts-ignore: decorator
@inline export function companionStart(w: i32): i32 {
  return wordField(w, 6);
}
// @ts-ignore: decorator
@inline export function companionCount(w: i32): i32 {
  return wordField(w, 7);
}
// @ts-ignore: decorator
@inline export function companion(i: i32): i32 {
  return i32At(CO_WORDS, i << 1);
}
/** The greatest weight companion i has in a leaf's name holding the word it accompanies. */
// @ts-ignore: decorator
@inline export function companionWeight(i: i32): i32 {
  return i32At(CO_WORDS, (i << 1) + 1);
}

/** Builds the index when the attached sections changed since the last build. */
export function ensureSubtrees(): void {
  if (builtObjects == OBJECTS && builtNames == NAMES && builtObjectCount == objectCount) return;
  builtObjects = OBJECTS;
  builtNames = NAMES;
  builtObjectCount = objectCount;
  scoped = false;
  for (let k = 0; k < ORDERS; k++) {
    unchecked((ORDERED[k] = 0));
    unchecked((ORDER_KEY[k] = 0));
    unchecked((WORD_TOP[k] = 0));
    unchecked((TAIL_LEADS[k] = 0));
    unchecked((ORDERED_KEYS[k] = 0));
    unchecked((LEAF_FACTS[k] = 0));
    unchecked((ORDER_TOP[k] = NO_KEY));
  }
  OBJECT_FACTS = 0;
  if (objectCount == 0 || nameCount == 0 || wordCount == 0) return;
  if (PATH == 0) PATH = reserve(<usize>MAX_DEPTH << 2);
  END = reserve(<usize>objectCount << 2);
  if (!buildEnds()) return;
  if (!namesInOrder()) return;
  if (!leafWordsInRange()) return;
  WORD_INFO = reserve(<usize>wordCount * WORD_FIELDS * 4);
  HEAVIEST = reserve(<usize>objectCount << 2);
  CHAIN_WEIGHT = reserve(<usize>objectCount << 2);
  HOUSE_LEADS = reserve(<usize>objectCount << 4);
  SHORT_KEYS = reserve(<usize>objectCount << 4);
  buildHeaviest();
  buildHouseLeads();
  buildPostcodes();
  buildWords();
  buildCompanions();
  scoped = true;
}

/**
 * END by one backward pass over parents, after checking that the ids are a depth-first order: every
 * object's parent is on the path from the root to the object before it.
 */
function buildEnds(): bool {
  let depth = 0;
  for (let o = 0; o < objectCount; o++) {
    const parent = obj(o, O_PARENT);
    while (depth > 0 && i32At(PATH, depth - 1) != parent) depth--;
    if (parent >= 0 && depth == 0) return false;
    if (depth == MAX_DEPTH) return false;
    setI32(PATH, depth, o);
    depth++;
    setI32(END, o, o + 1);
  }
  for (let o = objectCount - 1; o >= 0; o--) {
    const parent = obj(o, O_PARENT);
    if (parent < 0) continue;
    if (subtreeEnd(o) > subtreeEnd(parent)) setI32(END, parent, subtreeEnd(o));
  }
  return true;
}

/** POSTCODES: the objects whose postcode is not their parent's, by postcode (see the top of the file). */
function buildPostcodes(): void {
  postcodeCount = 0;
  for (let o = 0; o < objectCount; o++) if (ownPostcode(o)) postcodeCount++;
  POSTCODES = reserve(<usize>postcodeCount << 3);
  let k = 0;
  for (let o = 0; o < objectCount; o++) {
    if (ownPostcode(o)) setHeapAt(POSTCODES, k++, (<i64>obj(o, O_POSTCODE) << 32) | <i64>o);
  }
  sortAscending(POSTCODES, postcodeCount);
}

/** Object o has a postcode and its parent another (or none). */
function ownPostcode(o: i32): bool {
  const postcode = obj(o, O_POSTCODE);
  const parent = obj(o, O_PARENT);
  return postcode > 0 && (parent < 0 || obj(parent, O_POSTCODE) != postcode);
}

/** Index of the first POSTCODES entry of `postcode` (the slice ends where the postcode changes: `postcodeObject`). */
export function postcodeSlice(postcode: i32): i32 {
  let lo = 0;
  let hi = postcodeCount;
  const key = <i64>postcode << 32;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<i64>(POSTCODES + (<usize>mid << 3)) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The object of POSTCODES entry i when its postcode is `postcode`, else −1 (the slice has ended). */
export function postcodeObject(i: i32, postcode: i32): i32 {
  if (i >= postcodeCount) return -1;
  const entry = load<i64>(POSTCODES + (<usize>i << 3));
  return <i32>(entry >> 32) == postcode ? <i32>(entry & 0xffffffff) : -1;
}

/** HEAVIEST: one backward pass, as END; CHAIN_WEIGHT: one forward pass (a parent comes before its children). */
function buildHeaviest(): void {
  for (let o = 0; o < objectCount; o++) {
    setI32(HEAVIEST, o, obj(o, O_WEIGHT));
    const parent = obj(o, O_PARENT);
    const weight = obj(o, O_WEIGHT);
    setI32(CHAIN_WEIGHT, o, parent >= 0 && chainWeight(parent) > weight ? chainWeight(parent) : weight);
  }
  for (let o = objectCount - 1; o >= 0; o--) {
    const parent = obj(o, O_PARENT);
    if (parent >= 0 && heaviest(o) > heaviest(parent)) setI32(HEAVIEST, parent, heaviest(o));
  }
}

/**
 * The class of a house key's character in HOUSE_LEADS: a digit is itself (0…9), any other character 10, and no
 * character (a key of one character, asked for the second) 11. A key that `keyWithLetter` (solve/chain.ts) lets
 * start as the typed one has a letter where the typed key has the non-digit after its base: both class 10.
 */
// @ts-ignore: decorator
@inline function leadClass(c: i32): i32 {
  return c >= 48 && c <= 57 ? c - 48 : 10;
}

/** The bit of HOUSE_LEADS for keys starting with characters of classes `first` (0…10) and `second` (0…11). */
// @ts-ignore: decorator
@inline function leadBit(first: i32, second: i32): u64 {
  return (<u64>1) << <u64>((first < 10 ? first * 12 + second : 120) & 63);
}

/** The word (0 or 1) of HOUSE_LEADS holding the bit of classes `first`, `second`. */
// @ts-ignore: decorator
@inline function leadWord(first: i32, second: i32): i32 {
  return (first < 10 ? first * 12 + second : 120) >> 6;
}

/** Sets the bit of classes `first`, `second` in the house leads (two u64) at p. */
// @ts-ignore: decorator
@inline function orLead(p: usize, first: i32, second: i32): void {
  const at = p + (<usize>leadWord(first, second) << 3);
  store<u64>(at, load<u64>(at) | leadBit(first, second));
}

/**
 * Some house key of object o starts with character c (true without the index). One 16-byte read, not its houses
 * (hundreds on a long street).
 */
export function leadsHaveFirst(o: i32, c: i32): bool {
  if (HOUSE_LEADS == 0) return true;
  const first = leadClass(c);
  const p = HOUSE_LEADS + (<usize>o << 4);
  if (first == 10) return (load<u64>(p, 8) & leadBit(10, 0)) != 0;
  // the twelve bits of a digit: bits first·12 … first·12 + 11, across the two words for 5
  const at = first * 12;
  const group: u64 = 0xfff;
  if (at + 12 <= 64) return (load<u64>(p) & (group << <u64>at)) != 0;
  if (at >= 64) return (load<u64>(p, 8) & (group << <u64>(at - 64))) != 0;
  return (load<u64>(p) & (group << <u64>at)) != 0 || (load<u64>(p, 8) & (group >> <u64>(64 - at))) != 0;
}

/** Some house key of object o starts with characters c1, c2 (of their classes; true without the index). */
export function leadsHavePair(o: i32, c1: i32, c2: i32): bool {
  if (HOUSE_LEADS == 0) return true;
  const first = leadClass(c1);
  const second = leadClass(c2);
  return (load<u64>(HOUSE_LEADS + (<usize>o << 4) + (<usize>leadWord(first, second) << 3)) & leadBit(first, second)) != 0;
}

/**
 * Some house key of object o is the two digits c1 c2, or them and one character more (true without the index):
 * `35` typed, a street whose houses are 35к1 and 35к2 is told without reading them (solve/suggest.ts hintHouseLoss).
 */
export function hasShortKey(o: i32, c1: i32, c2: i32): bool {
  if (SHORT_KEYS == 0) return true;
  const n = (c1 - 0x30) * 10 + c2 - 0x30;
  return (load<u64>(shortKeyWord(o, n)) & shortKeyBit(n)) != 0;
}

/**
 * Reads object o's house leads and short keys and returns bits of them that mean nothing: a caller about to ask
 * them of several objects at random asks this of each first, loads that do not wait for one another
 * (classify/ordered.ts `warmObjects`). 0 without the index.
 */
export function touchHouses(o: i32): u64 {
  return HOUSE_LEADS == 0 ? 0 : load<u64>(HOUSE_LEADS + (<usize>o << 4)) ^ load<u64>(SHORT_KEYS + (<usize>o << 4));
}

/** The u64 of SHORT_KEYS holding object o's bit for the two-digit number n, and that bit. */
// @ts-ignore: decorator
@inline function shortKeyWord(o: i32, n: i32): usize {
  return SHORT_KEYS + (<usize>o << 4) + (<usize>(n >> 6) << 3);
}
// @ts-ignore: decorator
@inline function shortKeyBit(n: i32): u64 {
  return (<u64>1) << <u64>(n & 63);
}

/**
 * HOUSE_LEADS: per object two u64 of bits, one per class of a house key's first two characters (`leadBit`);
 * SHORT_KEYS: per object two u64 of bits, bit n for a house key that is the number n of two digits or them and one
 * character more.
 */
function buildHouseLeads(): void {
  for (let o = 0; o < objectCount; o++) {
    const p = HOUSE_LEADS + (<usize>o << 4);
    const q = SHORT_KEYS + (<usize>o << 4);
    store<u64>(p, 0);
    store<u64>(p, 0, 8);
    store<u64>(q, 0);
    store<u64>(q, 0, 8);
    const start = obj(o, O_HOUSE_START);
    for (let h = start; h < start + obj(o, O_HOUSE_COUNT); h++) {
      const len = house(h, H_KEY_LEN);
      if (len == 0) continue;
      const off = house(h, H_KEY);
      orLead(p, leadClass(houseKeyChar(off)), len > 1 ? leadClass(houseKeyChar(off + 1)) : 11);
      if ((len == 2 || len == 3) && isDigit(houseKeyChar(off)) && isDigit(houseKeyChar(off + 1))) {
        const n = (houseKeyChar(off) - 0x30) * 10 + houseKeyChar(off + 1) - 0x30;
        const at = shortKeyWord(o, n);
        store<u64>(at, load<u64>(at) | shortKeyBit(n));
      }
    }
  }
}

/** TAIL_LEADS blocks: TAIL_BLOCK names of an ordered list each. */
const TAIL_SHIFT: i32 = 4;
const TAIL_BLOCK: i32 = 1 << TAIL_SHIFT;

/**
 * The TAIL_LEADS block of the name at position i of word w's ordered list: the word's blocks start at
 * (leafStart(w) >> TAIL_SHIFT) + w, after the blocks of the words before it (they hold at most
 * ceil(count / TAIL_BLOCK) ≤ ((start + count) >> TAIL_SHIFT) − (start >> TAIL_SHIFT) + 1 each).
 */
// @ts-ignore: decorator
@inline function tailBlock(w: i32, i: i32): i32 {
  return (leafStart(w) >> TAIL_SHIFT) + w + (i >> TAIL_SHIFT);
}

/** The house leads a solver looks for (`leadsWanted`): two u64, bits as HOUSE_LEADS. */
const WANTED = new StaticArray<u64>(2);
/** The classes of the first characters of the house leads wanted (bits as LEAF_FACTS). */
let wantedFirst: u32 = 0;
/** some lead wanted has its second character (`leadsWanted` with c2 ≥ 0) */
let pairsWanted: bool = false;

/**
 * LEAF_FACTS bits 0–31 of each object, once for the orders, in object order (their lists reach objects at random, a
 * posting at a time): OBJECT_FACTS, u32 × objectCount.
 */
function ensureObjectFacts(): usize {
  if (OBJECT_FACTS != 0) return OBJECT_FACTS;
  OBJECT_FACTS = reserve(<usize>objectCount << 2);
  for (let o = 0; o < objectCount; o++) {
    const p = HOUSE_LEADS + (<usize>o << 4);
    const type = obj(o, O_TYPE);
    store<u32>(OBJECT_FACTS + (<usize>o << 2), firstClasses(load<u64>(p), load<u64>(p, 8)) | (<u32>(obj(o, O_LEVEL) & 31) << 11) |
      (<u32>(type >= 0 && type < 0xffff ? type : 0xffff) << 16));
  }
  return OBJECT_FACTS;
}
let OBJECT_FACTS: usize = 0;

/**
 * The sign LEAF_FACTS keeps of a name's one word besides the cursor's (bits 49–62, 14 bits of word v's hash): a name
 * whose other word's sign no hit word has holds no other hit word (classify/ordered.ts `factsBound`).
 */
export const OTHER_SIGN_BITS: i32 = 14;
// @ts-ignore: decorator
@inline export function otherSign(v: i32): i32 {
  return <i32>((<u32>v * 2654435761) >> (32 - OTHER_SIGN_BITS));
}

/** LEAF_FACTS bits 32–63 of word w in name n (see the top of the file). */
function nameFacts(n: i32, w: i32): u64 {
  let weight = -1;
  // the name's one word besides w (−2 when it has more)
  let single = -1;
  for (let j = name(n, 1); j < name(n, 1) + name(n, 2); j++) {
    const v = nameWord(j, 0);
    if (v != w) {
      single = single == -1 || single == v ? v : -2;
      continue;
    }
    weight = weight < 0 ? nameWord(j, 1) : 255;
  }
  const lone = single >= 0 ? ((<u64>1) << 63) | (<u64>otherSign(single) << 49) : 0;
  const other = weight >= 0 && weight < 255 ? name(n, 4) - weight : 0;
  const known = weight >= 0 && weight < 255 ? weight : 255;
  return (<u64>known << 32) | (<u64>(other < 0 ? 0 : other > 255 ? 255 : other) << 40) | (<u64>(name(n, 3) != 0 ? 1 : 0) << 48) | lone;
}

/** The classes of the first characters (bits 0–10) of house leads (two u64, bits as HOUSE_LEADS). */
function firstClasses(low: u64, high: u64): u32 {
  let classes: u32 = 0;
  for (let first = 0; first < 10; first++) {
    // the twelve bits of a digit: bits first·12 … first·12 + 11, across the two words for 5
    const at = first * 12;
    const group: u64 = 0xfff;
    const bits = at + 12 <= 64 ? low & (group << <u64>at) : at >= 64 ? high & (group << <u64>(at - 64)) :
      (low & (group << <u64>at)) | (high & (group >> <u64>(64 - at)));
    if (bits != 0) classes |= 1 << first;
  }
  if ((high & leadBit(10, 0)) != 0) classes |= 1 << 10;
  return classes;
}

/** The key in `order` of the i-th name of ORDERED (`orderedName(order, i)`), kept beside it. */
// @ts-ignore: decorator
@inline export function orderedKeyAt(order: i32, i: i32): i32 {
  countRead();
  return i32At(unchecked(ORDERED_KEYS[order]), i);
}

/** The facts of the i-th name of ORDERED in `order` (LEAF_FACTS); every lead and no type when it keeps none. */
// @ts-ignore: decorator
@inline export function leafFacts(order: i32, i: i32): u64 {
  const facts = unchecked(LEAF_FACTS[order]);
  countRead();
  return facts == 0 ? 0x000000ffffffffff : load<u64>(facts + (<usize>i << 3));
}

/** The object of leaf facts `facts` has a house key starting as a lead wanted does (its first character's class). */
// @ts-ignore: decorator
@inline export function factsHaveLead(facts: u64): bool {
  return (<u32>facts & wantedFirst) != 0;
}

/**
 * Sets the house leads `tailHasLeads` looks for: keys starting with character c1, and, when c2 ≥ 0, with c2 after
 * it (its class). Added to those set before; `clearLeadsWanted` empties them.
 */
export function leadsWanted(c1: i32, c2: i32): void {
  const first = leadClass(c1);
  const wanted = changetype<usize>(WANTED);
  wantedFirst |= 1 << first;
  if (c2 >= 0) pairsWanted = true;
  if (c2 >= 0 || first == 10) {
    orLead(wanted, first, c2 >= 0 ? leadClass(c2) : 0);
    return;
  }
  for (let second = 0; second < 12; second++) orLead(wanted, first, second);
}

export function clearLeadsWanted(): void {
  unchecked((WANTED[0] = 0));
  unchecked((WANTED[1] = 0));
  wantedFirst = 0;
  pairsWanted = false;
}

/** The two u64 of house leads at `at` (bits as HOUSE_LEADS) hold a lead wanted (`leadsWanted`). */
// @ts-ignore: decorator
@inline function holdsWanted(at: usize): bool {
  return (load<u64>(at) & unchecked(WANTED[0])) != 0 || (load<u64>(at, 8) & unchecked(WANTED[1])) != 0;
}

/**
 * Some house key of object o starts as a lead wanted does (`leadsWanted`; true without the index): one 16-byte read.
 * Asked only when a lead wanted has its second character (`pairsWanted`): else the first one, in a leaf's facts, tells.
 */
export function leadsHaveWanted(o: i32): bool {
  if (HOUSE_LEADS == 0 || !pairsWanted) return true;
  return holdsWanted(HOUSE_LEADS + (<usize>o << 4));
}

/**
 * Some name of word w's list in `order` from position i on (or a little before it: its block) belongs to an object
 * with a house of the leads wanted (true without the index). A cursor of the ordered rest whose names have no such
 * house cannot lead to a name with the house bonus (classify/ordered.ts minorHit).
 */
export function tailHasLeads(order: i32, w: i32, i: i32): bool {
  const tails = unchecked(TAIL_LEADS[order]);
  if (tails == 0 || HOUSE_LEADS == 0) return true;
  return holdsWanted(tails + (<usize>tailBlock(w, i) << 4));
}

/** Names in object order, every posting list in name order, every id in range. */
function namesInOrder(): bool {
  let last = -1;
  for (let n = 0; n < nameCount; n++) {
    const o = name(n, 0);
    if (o < last || o >= objectCount) return false;
    last = o;
  }
  for (let w = 0; w < wordCount; w++) {
    const start = word(w, 0);
    const count = word(w, 1);
    let previous = -1;
    for (let k = start; k < start + count; k++) {
      const n = posting(k);
      if (n <= previous || n >= nameCount) return false;
      previous = n;
    }
  }
  return true;
}

/** Every word id of a leaf's name is a word of the vocabulary. */
function leafWordsInRange(): bool {
  for (let n = 0; n < nameCount; n++) {
    if (isArea(name(n, 0))) continue;
    const start = name(n, 1);
    for (let j = start; j < start + name(n, 2); j++) {
      const w = nameWord(j, 0);
      if (w < 0 || w >= wordCount) return false;
    }
  }
  return true;
}

/** LEAF_MAX from the names of leaves; AREA_SLICE and AREA_NAMES from the postings (count, reserve, fill). */
function buildWords(): void {
  for (let w = 0; w < wordCount; w++) {
    setWordField(w, 2, 0);
    setWordField(w, 3, 0);
    setWordField(w, 4, 0);
    setWordField(w, 5, 0x7fffffff);
    setWordField(w, 10, 0);
    for (let k = 0; k < ORDERS; k++) setWordField(w, 11 + k, NO_KEY);
  }
  for (let n = 0; n < nameCount; n++) {
    if (isArea(name(n, 0))) {
      for (let j = name(n, 1); j < name(n, 1) + name(n, 2); j++) {
        if (nameWord(j, 1) > areaMax(nameWord(j, 0))) setWordField(nameWord(j, 0), 10, nameWord(j, 1));
      }
      continue;
    }
    const start = name(n, 1);
    const end = start + name(n, 2);
    const level = obj(name(n, 0), O_LEVEL) & 31;
    for (let j = start; j < end; j++) {
      const w = nameWord(j, 0);
      setWordField(w, 4, leafLevels(w) | (1 << level));
      if (name(n, 4) < lightestName(w)) setWordField(w, 5, name(n, 4));
      if (nameWord(j, 1) > leafMax(w)) setWordField(w, 2, nameWord(j, 1));
      let times = 0;
      for (let i = start; i < end; i++) if (nameWord(i, 0) == w) times++;
      if (times > leafRepeat(w)) setWordField(w, 3, times);
    }
  }
  let total = 0;
  leafPostingTotal = 0;
  longestLeafList = 0;
  for (let w = 0; w < wordCount; w++) {
    const start = word(w, 0);
    let areas = 0;
    for (let k = start; k < start + word(w, 1); k++) if (isArea(name(posting(k), 0))) areas++;
    setWordField(w, 0, total);
    setWordField(w, 1, areas);
    total += areas;
    const leaves = word(w, 1) - areas;
    setWordField(w, 8, leafPostingTotal);
    setWordField(w, 9, leaves);
    leafPostingTotal += leaves;
    if (leaves > longestLeafList) longestLeafList = leaves;
  }
  const slots = total > 0 ? total : 1;
  AREA_NAMES = reserve(<usize>slots << 2);
  for (let w = 0; w < wordCount; w++) {
    const start = word(w, 0);
    let at = areaStart(w);
    for (let k = start; k < start + word(w, 1); k++) {
      const n = posting(k);
      if (!isArea(name(n, 0))) continue;
      setI32(AREA_NAMES, at, n);
      at++;
    }
  }
}

/**
 * CO_SLICE and CO_WORDS: every word of a leaf's name is added to the companions of every word of it (count,
 * reserve, fill), then each word's companions lose their repeats (a mark per word, so it costs the pairs).
 */
function buildCompanions(): void {
  for (let w = 0; w < wordCount; w++) {
    setWordField(w, 6, 0);
    setWordField(w, 7, 0);
  }
  let total: i64 = 0;
  for (let n = 0; n < nameCount; n++) {
    if (isArea(name(n, 0))) continue;
    const start = name(n, 1);
    const count = name(n, 2);
    for (let j = start; j < start + count; j++) {
      const w = nameWord(j, 0);
      setWordField(w, 7, companionCount(w) + count);
    }
    total += <i64>(count * count);
  }
  let at = 0;
  for (let w = 0; w < wordCount; w++) {
    setWordField(w, 6, at);
    at += companionCount(w);
    setWordField(w, 7, 0);
  }
  CO_WORDS = reserve(<usize>(total > 0 ? total : 1) << 3);
  for (let n = 0; n < nameCount; n++) {
    if (isArea(name(n, 0))) continue;
    const start = name(n, 1);
    const end = start + name(n, 2);
    for (let j = start; j < end; j++) {
      const w = nameWord(j, 0);
      for (let i = start; i < end; i++) {
        const at = companionStart(w) + companionCount(w);
        setI32(CO_WORDS, at << 1, nameWord(i, 0));
        setI32(CO_WORDS, (at << 1) + 1, nameWord(i, 1));
        setWordField(w, 7, companionCount(w) + 1);
      }
    }
  }
  // repeats out, keeping the greatest weight: MARK[v] = w + 1 once v is kept for w, at KEPT[v]
  const MARK = reserve(<usize>wordCount << 2);
  const KEPT = reserve(<usize>wordCount << 2);
  for (let v = 0; v < wordCount; v++) setI32(MARK, v, 0);
  for (let w = 0; w < wordCount; w++) {
    const start = companionStart(w);
    let kept = 0;
    for (let i = start; i < start + companionCount(w); i++) {
      const v = companion(i);
      const weight = companionWeight(i);
      if (i32At(MARK, v) == w + 1) {
        const at = i32At(KEPT, v);
        if (weight > companionWeight(at)) setI32(CO_WORDS, (at << 1) + 1, weight);
        continue;
      }
      setI32(MARK, v, w + 1);
      setI32(KEPT, v, start + kept);
      setI32(CO_WORDS, (start + kept) << 1, v);
      setI32(CO_WORDS, ((start + kept) << 1) + 1, weight);
      kept++;
    }
    setWordField(w, 7, kept);
  }
}

/**
 * Builds order `order` (once per dictionary): ORDER_KEY from `key` (non-negative, below 2^31), then each word's
 * leaf names sorted by (key descending, name id) through one packed i64 per name.
 */
export function ensureOrder(order: i32, key: (o: i32) => i32): void {
  if (!scoped || unchecked(ORDERED[order]) != 0) return;
  const keys = reserve(<usize>objectCount << 2);
  for (let o = 0; o < objectCount; o++) setI32(keys, o, key(o));
  const postings = leafPostingTotal > 0 ? leafPostingTotal : 1;
  const longest = longestLeafList > 0 ? longestLeafList : 1;
  const ordered = reserve(<usize>postings << 2);
  const orderedKeys = reserve(<usize>postings << 2);
  const leafFacts = reserve(<usize>postings << 3);
  const objectFacts = ensureObjectFacts();
  const scratch = reserve(<usize>longest << 3);
  const tops = reserve(<usize>wordCount << 2);
  const tails = reserve(<usize>((postings >> TAIL_SHIFT) + wordCount + 1) << 4);
  let top = NO_KEY;
  for (let w = 0; w < wordCount; w++) {
    const start = word(w, 0);
    let count = 0;
    for (let k = start; k < start + word(w, 1); k++) {
      const n = posting(k);
      const o = name(n, 0);
      if (isArea(o)) {
        if (i32At(keys, o) > areaTopKey(order, w)) setWordField(w, 11 + order, i32At(keys, o));
        continue;
      }
      if (i32At(keys, o) > top) top = i32At(keys, o);
      setHeapAt(scratch, count++, (<i64>(0x7fffffff - i32At(keys, o)) << 32) | <i64>n);
    }
    sortAscending(scratch, count);
    for (let i = 0; i < count; i++) {
      const entry = load<i64>(scratch + (<usize>i << 3));
      setI32(ordered, leafStart(w) + i, <i32>(entry & 0xffffffff));
      setI32(orderedKeys, leafStart(w) + i, 0x7fffffff - <i32>(entry >> 32));
    }
    setI32(tops, w, count > 0 ? 0x7fffffff - <i32>(load<i64>(scratch) >> 32) : NO_KEY);
    // the house leads of the names from each block of TAIL_BLOCK on to the end of the list
    let low: u64 = 0;
    let high: u64 = 0;
    for (let i = count - 1; i >= 0; i--) {
      const n = i32At(ordered, leafStart(w) + i);
      const o = name(n, 0);
      const p = HOUSE_LEADS + (<usize>o << 4);
      store<u64>(leafFacts + (<usize>(leafStart(w) + i) << 3), <u64>load<u32>(objectFacts + (<usize>o << 2)) | nameFacts(n, w));
      low |= load<u64>(p);
      high |= load<u64>(p, 8);
      if ((i & (TAIL_BLOCK - 1)) == 0) {
        const at = tails + (<usize>(tailBlock(w, i)) << 4);
        store<u64>(at, low);
        store<u64>(at, high, 8);
      }
    }
  }
  unchecked((ORDER_KEY[order] = keys));
  unchecked((ORDERED[order] = ordered));
  unchecked((WORD_TOP[order] = tops));
  unchecked((TAIL_LEADS[order] = tails));
  unchecked((ORDERED_KEYS[order] = orderedKeys));
  unchecked((LEAF_FACTS[order] = leafFacts));
  unchecked((ORDER_TOP[order] = top));
}

/** The first of word w's area names (AREA_NAMES) whose object is ≥ o (they are in name order, names in object order). */
export function firstAreaNameAt(w: i32, o: i32): i32 {
  let lo = areaStart(w);
  let hi = lo + areaCount(w);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (name(areaName(mid), 0) < o) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index in [start, end) of a posting list whose name belongs to an object ≥ o. */
export function firstPostingAt(start: i32, end: i32, o: i32): i32 {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (name(posting(mid), 0) < o) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
