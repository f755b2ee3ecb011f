/**
 * Name classifier: every free token is looked up in the vocabulary trie (with typos; the last token of a
 * hint query as a prefix) and each hit adds the token to the names that contain the word. A name becomes
 * an object candidate when the tokens cover enough of it: all its significant words, or half its weight.
 * The same lookup marks type words (`ул`, `г`, `пр-кт`, …) on the token.
 *
 * Lookups come first and go to a hit log (HIT_WORDS, HIT_INFO: word id, token << 8 | cost in eighths, in lookup order),
 * so the postings can be read in parts without a second trie walk. `classifyNames` reads the names of areas
 * (objects with children, see subtree.ts) in full; the leaves are read in parts as the solver asks
 * (solve/scope.ts): `expandLeaves(lo, hi)` the leaves whose object lies in [lo, hi), `readLeaf` one posting of a
 * sweep, `readOrdered` the next object of an order with all its names (`beginOrdered`, `orderedKey`). Every part
 * applies the hits in log order, and a name is read by one part only (the part number in its slot), so each
 * name sees its hits as in one full pass. Bounds on what names not read yet can score: `leafGainBound` (per
 * token), `leafNameBound` (per word and its companions), `orderedBound` (the next object's own names). A hint
 * typed as one word (every hit is the prefix token's) defers its area names too: they are read object by object,
 * best bound first (`orderDeferredAreas`, `readDeferredArea`), as a place's chain is then the place alone; so does
 * a hint whose other words are in no leaf's name, for the places only the word being typed reaches and no place of
 * the other words stands above or below (`deferPrefixAreas`: `екатеринбург лен`). Without
 * the subtree index (`scoped` false) `classifyNames` reads every posting at once.
 *
 * NAME_SLOTS: open-addressing table keyed by name id, NAME_SLOT_BYTES each:
 *   @0 nameId  @4 matched (weight×100 less typo cost)  @8 matchedRaw  @12 wordsMask (name words hit)
 *   @16 firstTok  @20 lastTok  @24 flags (1 = an alpha token hit)  @28 reserve: (gain << 16 | word << 8 | token)
 *   of the other hit of a word hit twice, −1  @32 u64 token mask
 *   @40 u8 × 8 token that hit each of the first 8 words (255 none)  @48 u8 × 8 what that hit gained
 *   @56 the hit that first reached the name (with the name id, its place in a one-pass reading)
 *   @60 the part that read it (a name is read by one part: later parts pass it by)
 * OBJ_SLOTS: the same keyed by object id, OBJ_SLOT_BYTES each:
 *   @0 objectId  @4 score×100  @8 firstTok  @12 lastTok  @16 flags (NAME_HISTORICAL)  @20 typeToken
 *   @24 typeBonus×100  @28 chain score (solve/chain.ts)  @32 u64 token mask
 *   @40 order key: hit, @44 name id of the name that made the candidate (ties go to the earlier, as in one pass)
 * Both tables are reset through their used lists, so a call costs what it touched.
 */
import { NORM, reserve, u16At } from '../memory';
import {
  word, posting, name, nameWord, obj, NAME_HISTORICAL, NAME_ALIAS, NAME_INITIAL, O_TYPE, O_LEVEL, O_PARENT, typeLevelMask, nameCount, NAMES, wordCount,
} from '../blob';
import { lookup, lookupSound, exactWord, editBudget, firstLetterRange, firstLetterLow, firstLetterHigh, HITS, MAX_HITS, FAR_KEY, costOf } from '../trie';
import {
  ensureSubtrees, scoped, isArea, areaStart, areaCount, areaName, leafMax, leafRepeat, leafLevels, companionStart,
  companionCount, companion, companionWeight, lightestName, firstPostingAt, leafStart, leafCount, orderedName,
  orderTop, wordTopKey, NO_KEY, tailHasLeads, clearLeadsWanted, areaMax, areaTopKey, subtreeEnd, firstAreaNameAt, orderedKeyAt, leafFacts, factsHaveLead, hasShortKey, leadsHaveWanted, touchHouses, otherSign, OTHER_SIGN_BITS,
} from '../subtree';
import { heapAt, setHeapAt, heapify, siftDown, siftUp, popHeap, sortAscending } from '../heap';
import { isLatin, normVariant, VARIANT_PLAIN } from '../text';
import {
  tok, setTok, tokChar, tokenCount, F_START, F_LEN, F_KIND, F_ROLE, F_ORDINAL, F_SEGMENT, F_TYPE_A, F_TYPE_B,
  KIND_ALPHA, KIND_DIGIT, ROLE_FREE,
} from '../tokenize';

const NAME_SLOT_CAP: i32 = 65536;
const NAME_SLOT_BYTES: i32 = 64;
const OBJ_SLOT_CAP: i32 = 65536;
const OBJ_SLOT_BYTES: i32 = 48;
const MAX_POSTINGS_PER_CALL: i32 = 200000;
/** every hit of one call: MAX_HITS per token, 64 tokens */
const HIT_CAP: i32 = MAX_HITS * 64;
/** hit words the word table can keep (a bigger set falls back to the per-token bound and the unordered rest) */
const WORD_SLOT_CAP: i32 = 8192;
const WORD_SLOT_BYTES: i32 = 56;
/** (hit, name) pairs one object is read with at once (`readObject`) */
const TOUCH_CAP: i32 = 512;
/** (hit, name) pairs one range read by its names can hold (`readRangeByNames`; a bigger one is read by hit) */
const RANGE_CAP: i32 = 32768;
/**
 * what reading one name of a range by its words costs, in binary-search steps: a few probes of the small word index,
 * the names and their words read in a row, where a step reads a posting and its name at random
 */
const NAME_SCAN_COST: i32 = 1;

let NAME_SLOTS: usize = 0;
let NAME_USED: usize = 0;
export let nameUsed: i32 = 0;
let OBJ_SLOTS: usize = 0;
let OBJ_USED: usize = 0;
export let objUsed: i32 = 0;
let postingsSeen: i32 = 0;
let HIT_WORDS: usize = 0;
let HIT_INFO: usize = 0;
export let hitTotal: i32 = 0;
/** the hits whose word is in some leaf's name (the only ones `expandLeaves` reads), and their postings */
let LEAF_HITS: usize = 0;
let leafHitCount: i32 = 0;
let leafPostings: i32 = 0;
let leafProbes: i32 = 0;
/** TOKEN_GAIN i32 × 64: the most each token gains in a leaf's name (`leafGain` of its best hit) */
let TOKEN_GAIN: usize = 0;
/**
 * The tokens with a leaf gain, by gain ascending (TOKEN_RANK i32 × 64: a token's place, TOKEN_SUM i32 × 64: the
 * gains up to and including that place). A leaf's name scores at most the gains of the tokens that hit it (a token
 * hits a name once), so a name hit only by the first `minorTokens` tokens, whose gains sum below what the ordered
 * reading needs, cannot matter: their cursors are dropped (MaxScore, as in top-k retrieval).
 */
let TOKEN_RANK: usize = 0;
/** TOKEN_LEAF_HITS i32 × 2 × 64: first index in LEAF_HITS and count of each token's leaf hits (the log is by token) */
let TOKEN_LEAF_HITS: usize = 0;
/** `leafTokensIn` looks for a token's words in a subtree when it has at most this many leaf hits */
const FEW_HITS: i32 = 8;
let TOKEN_SUM: usize = 0;
/** TOKEN_AT i32 × 64: the token at each place of TOKEN_RANK */
let TOKEN_AT: usize = 0;
let rankedTokens: i32 = 0;
/** the tokens with a leaf gain (bit set) */
export let gainingTokens: u64 = 0;
/** the tokens with a hit on a word of a leaf's name, gaining or not (bit set) */
export let leafHitTokens: u64 = 0;
let minorTokens: i32 = 0;
/** the first `minorTokens` tokens by gain (bit set) */
let minorMask: u64 = 0;
/**
 * What a leaf's name of the rest loses for each token of `leftTokens` it leaves out (`chargeLeftTokens`: the hint
 * solver's penalty for a word left unexplained; 0 for the chain solver). A leaf of the rest has no candidate place
 * above it, so its chain explains only the tokens its own name is hit by.
 */
let leftCost: i32 = 0;
let leftTokens: u64 = 0;
/** and for the word being typed, which costs less (hints: a whole word left out costs more than any rank) */
let leftTypingCost: i32 = 0;
let leftTyping: u64 = 0;
/** what a leaf's name must score, at a key of the ordered reading, to matter (solve/scope.ts); NO_NEED: anything */
export const NO_NEED: i32 = -2147483648;
let neededAt: (key: i32) => i32 = (key: i32): i32 => NO_NEED;
/** a name scoring exactly what it needs, at this place of a one-pass reading (hit, name id) and key of the order, cannot matter */
let tiedOut: (hit: i32, nameId: i32, key: i32) => bool = (hit: i32, nameId: i32, key: i32): bool => false;
/** levels (bit set) of the leaves the hits can reach */
export let hitLeafLevels: i32 = 0;
/** the hit being read (order key of the names it reaches first) */
let hitNow: i32 = 0;
/** the part being read: the areas, one range, one sweep, one name read in order */
let partNow: i32 = 0;

/** Starts a new part of the reading (names read by earlier parts are passed by). */
export function newPart(): void {
  partNow++;
}
let prefixTok: i32 = -1;
/**
 * WORD_SLOTS: the words the leaf hits hit, WORD_SLOT_BYTES each, in the order they were met (word ids, as the hits come
 * in reading order: the passes over every hit word read them in a row, not at random over the table), found by WORD_INDEX,
 * an open-addressing table of (word id, slot number), 8 B an entry. A slot: @0 word id, @4 best gain
 * of a hit on it in a leaf's name, @8 its first hit, @12 its last hit, @16 the most a leaf's name holding it scores
 * (`leafNameBound`; 0x7fffffff until it is computed), @20 1 when it is the only hit word a leaf's name holding it
 * holds, and holds it once (`leafNameBound`: a name's bound is then told by LEAF_FACTS), 2 when that is so of its
 * names not in SHARED, 3 until `shareNames` tells 2 or 0 (`leafNameBound`), @24 the tokens of its hits
 * (u64 bit set), @32 the last weight `slotGainAt` was asked and @36 its answer, @40 what the hits on its other
 * companions gain, @44 their weight, @48 the left-token penalty of all its companions' tokens (`sharingBound`); HIT_NEXT: the next hit of the same
 * word; HIT_SLOT: the slot of a leaf hit's word (its word looked up once, not at every step of
 * the ordered reading).
 * Built once per call when asked (`indexHitWords`), reset through WORD_USED (the entries of WORD_INDEX used).
 */
let WORD_SLOTS: usize = 0;
let WORD_INDEX: usize = 0;
/** the signs (subtree.ts otherSign) of the leaf hits' words, one bit each, set by `indexHitWords` */
let HIT_SIGNS: usize = 0;
const HIT_SIGN_BYTES: i32 = (1 << OTHER_SIGN_BITS) >> 3;
let WORD_USED: usize = 0;
let wordUsed: i32 = 0;
let HIT_NEXT: usize = 0;
let HIT_SLOT: usize = 0;
/** 0 not built for this call, 1 built, −1 too many words */
let wordsIndexed: i32 = 0;
let TOUCH: usize = 0;
let RANGE_PAIRS: usize = 0;
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
/** the areas whose score turned positive in this call, in that order (solve/scope.ts: what stands above a leaf) */
let RAISED: usize = 0;
export let raisedCount: i32 = 0;
/**
 * Ordered reading of leaf names (solve/scope.ts, the rest): CURSORS i32 per leaf hit, the next index in its
 * word's slice of the order (subtree.ts ORDERED); READER a max-heap of (key << 32 | 0x7fffffff − leaf hit index)
 * over the cursors with names left, so names come by key, then by hit, then by id: the one-pass order.
 */
let CURSORS: usize = 0;
let READER: usize = 0;
let readerSize: i32 = 0;
let readerOrder: i32 = 0;
/** the next name `readOrdered` reads and the hit that reaches it first, after `orderedKey` */
export let nextName: i32 = -1;
export let nextHit: i32 = -1;
/** names of the ordered rest whose bound this call read, one by one (their names' records: core stats(4)) */
export let restLooks: i32 = 0;
/** names already turned into candidates (collectObjects reads the ones after) */
let namesCollected: i32 = 0;

export function setupNames(): void {
  if (NAME_SLOTS != 0) return;
  HIT_WORDS = reserve(<usize>HIT_CAP << 2);
  HIT_INFO = reserve(<usize>HIT_CAP << 2);
  LEAF_HITS = reserve(<usize>HIT_CAP << 2);
  TOKEN_GAIN = reserve(64 << 2);
  TOKEN_RANK = reserve(64 << 2);
  TOKEN_LEAF_HITS = reserve(64 << 3);
  TOKEN_SUM = reserve(64 << 2);
  TOKEN_AT = reserve(64 << 2);
  WORD_SLOTS = reserve(<usize>WORD_SLOT_CAP * WORD_SLOT_BYTES);
  WORD_INDEX = reserve(<usize>WORD_SLOT_CAP << 3);
  HIT_SIGNS = reserve(<usize>HIT_SIGN_BYTES);
  WORD_USED = reserve(<usize>WORD_SLOT_CAP << 2);
  for (let i = 0; i < WORD_SLOT_CAP; i++) store<i32>(WORD_INDEX + (<usize>i << 3), -1);
  HIT_NEXT = reserve(<usize>HIT_CAP << 2);
  HIT_SLOT = reserve(<usize>HIT_CAP << 2);
  TOUCH = reserve(<usize>TOUCH_CAP << 3);
  RANGE_PAIRS = reserve(<usize>RANGE_CAP << 3);
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
  CURSORS = reserve(<usize>HIT_CAP << 2);
  READER = reserve(<usize>HIT_CAP << 3);
  NAME_SLOTS = reserve(<usize>NAME_SLOT_CAP * NAME_SLOT_BYTES);
  NAME_USED = reserve(<usize>NAME_SLOT_CAP * 4);
  OBJ_SLOTS = reserve(<usize>OBJ_SLOT_CAP * OBJ_SLOT_BYTES);
  OBJ_USED = reserve(<usize>OBJ_SLOT_CAP * 4);
  RAISED = reserve(<usize>OBJ_SLOT_CAP * 4);
  SHARED = reserve(<usize>SHARED_CAP << 2);
  SHARED_USED = reserve(<usize>(SHARED_CAP >> 1) << 2);
  for (let i = 0; i < SHARED_CAP; i++) store<i32>(SHARED + (<usize>i << 2), -1);
  for (let i = 0; i < NAME_SLOT_CAP; i++) store<i32>(NAME_SLOTS + <usize>i * NAME_SLOT_BYTES, -1);
  for (let i = 0; i < OBJ_SLOT_CAP; i++) store<i32>(OBJ_SLOTS + <usize>i * OBJ_SLOT_BYTES, -1);
}

export function resetCandidates(): void {
  for (let k = 0; k < nameUsed; k++) {
    store<i32>(NAME_SLOTS + <usize>load<i32>(NAME_USED + (<usize>k << 2)) * NAME_SLOT_BYTES, -1);
  }
  nameUsed = 0;
  for (let k = 0; k < objUsed; k++) {
    store<i32>(OBJ_SLOTS + <usize>load<i32>(OBJ_USED + (<usize>k << 2)) * OBJ_SLOT_BYTES, -1);
  }
  objUsed = 0;
  raisedCount = 0;
  postingsSeen = 0;
  namesCollected = 0;
  restLooks = 0;
  hitTotal = 0;
  leftCost = 0;
  leftTokens = 0;
  leftTypingCost = 0;
  leftTyping = 0;
  houseShortfall = 0;
  shortHouseLoss = 0;
  clearLeadsWanted();
}

/** What a leaf of the rest loses when it has no house of the leads wanted (subtree.ts leadsWanted). */
let houseShortfall: i32 = 0;

/**
 * The house typed: a leaf of the rest with no house key of the leads wanted (set by the solver through subtree.ts
 * leadsWanted) gets `shortfall` less than the solver's extra says (its house bonus). Until the next
 * `resetCandidates`; `minorHit` then drops a cursor whose names left have no such house and cannot reach without it.
 */
export function chargeMissingHouse(shortfall: i32): void {
  houseShortfall = shortfall;
}

/** what a leaf of the rest loses when no house key of it is the two digits typed or them and one character more */
let shortHouseLoss: i32 = 0;
let shortFirst: i32 = 0;
let shortSecond: i32 = 0;

/**
 * Two digits typed (`first`, `second`): a leaf of the rest with a house key starting as the first does but none that
 * is the two or them and one character more (subtree.ts SHORT_KEYS) gets `loss` less than the solver's extra says,
 * told by one load beside its facts (`belowOnFacts`). Until the next `resetCandidates`.
 */
export function chargeShortHouse(loss: i32, first: i32, second: i32): void {
  shortHouseLoss = loss;
  shortFirst = first;
  shortSecond = second;
}

/**
 * Charges `cost` in the rest's bounds (the ordered reading: `nameBound`, `minorHit`) for each token of `tokens`
 * that a leaf's name leaves out while some leaf's name has a hit on it (`leafHitTokens`; a token with none is left
 * out by all, and the solver charges it in its own extra). Until the next `resetCandidates`.
 */
export function chargeLeftTokens(cost: i32, tokens: u64, typingCost: i32 = 0, typing: u64 = 0): void {
  leftCost = cost;
  leftTokens = tokens;
  leftTypingCost = typingCost;
  leftTyping = typing;
}

/** What a leaf's name of the rest hit by at most the tokens `held` surely loses for the tokens it leaves out. */
// @ts-ignore: decorator
@inline function leftPenalty(held: u64): i32 {
  return leftCost * <i32>popcnt<u64>(leftTokens & leafHitTokens & ~held) +
    leftTypingCost * <i32>popcnt<u64>(leftTyping & leafHitTokens & ~held);
}

// @ts-ignore: decorator
@inline function hash(v: i32): i32 {
  return <i32>((<u32>v * 2654435761) >> 16); // 16 bits: the tables hold 65,536 slots (a street name repeats
  // thousands of times in a national dictionary)
}

/** Slot of a name id (created when absent), or −1 when the table is full. */
function nameSlot(nameId: i32): usize {
  let i = hash(nameId) & (NAME_SLOT_CAP - 1);
  while (true) {
    const p = NAME_SLOTS + <usize>i * NAME_SLOT_BYTES;
    const id = load<i32>(p);
    if (id == nameId) return p;
    if (id < 0) {
      if (nameUsed >= (NAME_SLOT_CAP * 3) / 4) return 0;
      store<i32>(p, nameId);
      store<i32>(p, 0, 4);
      store<i32>(p, 0, 8);
      store<i32>(p, 0, 12);
      store<i32>(p, 1 << 20, 16);
      store<i32>(p, -1, 20);
      store<i32>(p, 0, 24);
      store<i32>(p, -1, 28);
      store<u64>(p, 0, 32);
      store<u64>(p, 0xffffffffffffffff, 40);
      store<u64>(p, 0, 48);
      store<i32>(p, hitNow, 56);
      store<i32>(p, partNow, 60);
      store<i32>(NAME_USED + (<usize>nameUsed << 2), i);
      nameUsed++;
      return p;
    }
    i = (i + 1) & (NAME_SLOT_CAP - 1);
  }
}

/** Slot of an object id; `create` adds it. Returns 0 when absent (or the table is full). */
export function objSlot(objectId: i32, create: bool): usize {
  let i = hash(objectId) & (OBJ_SLOT_CAP - 1);
  while (true) {
    const p = OBJ_SLOTS + <usize>i * OBJ_SLOT_BYTES;
    const id = load<i32>(p);
    if (id == objectId) return p;
    if (id < 0) {
      if (!create || objUsed >= (OBJ_SLOT_CAP * 3) / 4) return 0;
      store<i32>(p, objectId);
      store<i32>(p, -1000000, 4);
      store<i32>(p, 0, 8);
      store<i32>(p, 0, 12);
      store<i32>(p, 0, 16);
      store<i32>(p, -1, 20);
      store<i32>(p, 0, 24);
      store<i32>(p, -1000000, 28);
      store<u64>(p, 0, 32);
      store<i32>(p, 0, 40);
      store<i32>(p, 0, 44);
      store<i32>(OBJ_USED + (<usize>objUsed << 2), i);
      objUsed++;
      return p;
    }
    i = (i + 1) & (OBJ_SLOT_CAP - 1);
  }
}

/** The i-th area whose score turned positive in this call (scores only grow: it stays positive). */
export function raisedArea(i: i32): i32 {
  return load<i32>(RAISED + (<usize>i << 2));
}

/** The k-th object candidate slot. */
export function objAt(k: i32): usize {
  return OBJ_SLOTS + <usize>load<i32>(OBJ_USED + (<usize>k << 2)) * OBJ_SLOT_BYTES;
}

/**
 * Adds token t, matched to word w at `cost` edits, to name `nameId`. Returns false when the name table is
 * full (the caller stops reading).
 */
function hitName(nameId: i32, t: i32, w: i32, cost: i32, prefix: bool): bool {
  const alpha = tok(t, F_KIND) == KIND_ALPHA;
  const bit: u64 = (<u64>1) << <u64>t;
  const p = nameSlot(nameId);
  if (p == 0) return false;
  if (load<i32>(p, 60) != partNow) return true;
  const mask = load<u64>(p, 32);
  if ((mask & bit) != 0) return true;
  // which word of the name: the first one with this id not hit yet
  const ws = name(nameId, 1);
  const wc = name(nameId, 2);
  let wordsMask = load<i32>(p, 12);
  let at = -1;
  let replace = -1;
  for (let j = 0; j < wc && j < 31; j++) {
    if (nameWord(ws + j, 0) != w) continue;
    if ((wordsMask & (1 << j)) == 0) { at = j; break; }
    if (replace < 0 && j < 8) replace = j;
  }
  const weight = nameWord(ws + (at >= 0 ? at : replace >= 0 ? replace : 0), 1);
  const gained = typoGain(weight, cost, prefix);
  if (at < 0) {
    // a word already hit by a worse token (хабаровский ~ хабаровск) is taken by the better one
    if (replace < 0) return true;
    const oldGained = <i32>load<u8>(p + 48 + <usize>replace);
    const oldToken = <i32>load<u8>(p + 40 + <usize>replace);
    if (oldToken == 255) return true;
    const kept = load<i32>(p, 28) >= 0;
    if (gained <= oldGained) {
      // the same word twice (Ханты-Мансийский АО, г Ханты-Мансийск; г Ханнты-Мансийск with a typo): the other token
      // is kept in reserve, and the one next to the name's other words is chosen when the name is collected
      if (!kept) store<i32>(p, reserveOf(replace, t, gained), 28);
      return true;
    }
    if (!kept) store<i32>(p, reserveOf(replace, oldToken, oldGained), 28);
    store<i32>(p, load<i32>(p, 4) - oldGained + gained, 4);
    const newMask = (mask & ~((<u64>1) << <u64>oldToken)) | bit;
    store<u64>(p, newMask, 32);
    store<u8>(p + 40 + <usize>replace, <u8>t);
    store<u8>(p + 48 + <usize>replace, <u8>gained);
    let first = 1 << 20;
    let last = -1;
    for (let k = 0; k < 64; k++) {
      if ((newMask & ((<u64>1) << <u64>k)) != 0) {
        if (k < first) first = k;
        if (k > last) last = k;
      }
    }
    store<i32>(p, first, 16);
    store<i32>(p, last, 20);
    if (alpha) store<i32>(p, load<i32>(p, 24) | 1, 24);
    return true;
  }
  if (at < 8) {
    store<u8>(p + 40 + <usize>at, <u8>t);
    store<u8>(p + 48 + <usize>at, <u8>(gained < 0 ? 0 : gained));
  }
  wordsMask |= 1 << at;
  store<i32>(p, load<i32>(p, 4) + gained, 4);
  store<i32>(p, load<i32>(p, 8) + weight, 8);
  store<i32>(p, wordsMask, 12);
  if (t < load<i32>(p, 16)) store<i32>(p, t, 16);
  if (t > load<i32>(p, 20)) store<i32>(p, t, 20);
  if (alpha) store<i32>(p, load<i32>(p, 24) | 1, 24);
  store<u64>(p, mask | bit, 32);
  return true;
}

// @ts-ignore: decorator
@inline function hitToken(h: i32): i32 {
  return load<i32>(HIT_INFO + (<usize>h << 2)) >> 8;
}
/**
 * What a word of `weight` gains hit at `cost`: a typo costs a quarter of the word per edit (`cost` in eighths:
 * `hitCost`), a prefix that is not the whole word a little.
 */
// @ts-ignore: decorator
@inline function typoGain(weight: i32, cost: i32, prefix: bool): i32 {
  return weight - (weight * cost) / 8 - (prefix ? weight / 20 : 0);
}

/**
 * Hit h's cost in eighths of its word: two per edit, one more when an edit changed the word's first letter, one more
 * when it is a slip a typist rarely makes (trie.ts FAR_KEY).
 */
// @ts-ignore: decorator
@inline function hitCost(h: i32): i32 {
  return load<i32>(HIT_INFO + (<usize>h << 2)) & 0xff;
}
// @ts-ignore: decorator
@inline function hitWord(h: i32): i32 {
  return load<i32>(HIT_WORDS + (<usize>h << 2));
}

/** Reads one posting of hit h; false when the call may read no more. */
function readPosting(h: i32, nameId: i32): bool {
  if (postingsSeen >= MAX_POSTINGS_PER_CALL) return false;
  postingsSeen++;
  if (nameId < 0 || nameId >= nameCount) return true;
  const t = hitToken(h);
  return hitName(nameId, t, hitWord(h), hitCost(h), t == prefixTok);
}

/** Hit h on every name of its word (`areas`: only the names of areas, subtree.ts). */
function readHit(h: i32, areas: bool): void {
  hitNow = h;
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

/** Binary-search steps of finding a place in a list of `count` (the first at or after an id), two to start. */
// @ts-ignore: decorator
@inline function searchSteps(count: i32): i32 {
  return 2 + 32 - clz<i32>(count);
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
    hitNow = <i32>(pair >> 32);
    if (!readPosting(hitNow, <i32>(pair & 0xffffffff))) return true;
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
    hitNow = h;
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

/** The i-th hit `expandLeaves` reads (LEAF_HITS, in hit order). */
export function leafHit(i: i32): i32 {
  return load<i32>(LEAF_HITS + (<usize>i << 2));
}
export function leafHits(): i32 {
  return leafHitCount;
}
export function hitWordOf(h: i32): i32 {
  return hitWord(h);
}

/** Reads one leaf name for hit h (a caller walking the posting lists itself); false when reading must stop. */
export function readLeaf(h: i32, nameId: i32): bool {
  hitNow = h;
  return readPosting(h, nameId);
}

/** Postings `expandLeaves` reads over the whole id range: what reading every leaf name costs. */
export function postingsOfHits(): i32 {
  return leafPostings;
}

/** The most token t gains in a leaf's name. */
export function tokenLeafGain(t: i32): i32 {
  return load<i32>(TOKEN_GAIN + (<usize>t << 2));
}

/** LEAF_HITS: the hits `expandLeaves` reads, with their postings and search steps; TOKEN_GAIN. */
function listLeafHits(): void {
  leafHitCount = 0;
  leafPostings = 0;
  leafProbes = 0;
  hitLeafLevels = 0;
  gainingTokens = 0;
  leafHitTokens = 0;
  rankedTokens = 0;
  minorTokens = 0;
  minorMask = 0;
  for (let t = 0; t < 64; t++) {
    store<i32>(TOKEN_GAIN + (<usize>t << 2), 0);
    store<i32>(TOKEN_LEAF_HITS + (<usize>t << 3), 0);
    store<i32>(TOKEN_LEAF_HITS + (<usize>t << 3), 0, 4);
  }
  if (!scoped) return;
  for (let h = 0; h < hitTotal; h++) {
    const w = hitWord(h);
    const count = word(w, 1);
    if (leafCount(w) == 0) continue;
    const t = hitToken(h);
    leafHitTokens |= (<u64>1) << <u64>t;
    const gain = leafGain(h);
    if (gain > tokenLeafGain(t)) store<i32>(TOKEN_GAIN + (<usize>t << 2), gain);
    hitLeafLevels |= leafLevels(w);
    const q = TOKEN_LEAF_HITS + (<usize>t << 3);
    if (load<i32>(q, 4) == 0) store<i32>(q, leafHitCount);
    store<i32>(q, load<i32>(q, 4) + 1, 4);
    store<i32>(LEAF_HITS + (<usize>leafHitCount << 2), h);
    leafHitCount++;
    leafPostings += count;
    leafProbes += searchSteps(count);
  }
  rankTokens();
}

/**
 * The tokens with a leaf gain that may gain on a leaf in [lo, hi) (bit set): those with a word in a leaf's name
 * there (a binary search per word), and those with more than FEW_HITS words, unsearched.
 */
export function leafTokensIn(lo: i32, hi: i32): u64 {
  let tokens: u64 = 0;
  for (let left = gainingTokens; left != 0; left &= left - 1) {
    const t = <i32>ctz<u64>(left);
    const q = TOKEN_LEAF_HITS + (<usize>t << 3);
    const count = load<i32>(q, 4);
    if (count > FEW_HITS || hasLeafIn(load<i32>(q), count, lo, hi)) tokens |= (<u64>1) << <u64>t;
  }
  return tokens;
}

/** Some leaf hit of LEAF_HITS[first, first + count) has its word in a leaf's name in [lo, hi). */
function hasLeafIn(first: i32, count: i32, lo: i32, hi: i32): bool {
  for (let i = first; i < first + count; i++) {
    const w = hitWord(leafHit(i));
    const start = word(w, 0);
    const end = start + word(w, 1);
    // areas with the word in the range come first at most a few times; past FEW_HITS of them, say yes
    let seen = 0;
    for (let k = firstPostingAt(start, end, lo); k < end && seen < FEW_HITS; k++, seen++) {
      const o = name(posting(k), 0);
      if (o >= hi) break;
      if (!isArea(o)) return true;
    }
    if (seen >= FEW_HITS) return true;
  }
  return false;
}

/** TOKEN_RANK and TOKEN_SUM: the tokens with a leaf gain by gain ascending (insertion, at most 64). */
function rankTokens(): void {
  rankedTokens = 0;
  minorTokens = 0;
  minorMask = 0;
  gainingTokens = 0;
  for (let t = 0; t < 64; t++) {
    store<i32>(TOKEN_RANK + (<usize>t << 2), 64);
    const gain = tokenLeafGain(t);
    if (gain <= 0) continue;
    gainingTokens |= (<u64>1) << <u64>t;
    // TOKEN_SUM holds the ranked tokens themselves until the sums are taken
    let at = rankedTokens;
    while (at > 0 && tokenLeafGain(load<i32>(TOKEN_SUM + (<usize>(at - 1) << 2))) > gain) {
      store<i32>(TOKEN_SUM + (<usize>at << 2), load<i32>(TOKEN_SUM + (<usize>(at - 1) << 2)));
      at--;
    }
    store<i32>(TOKEN_SUM + (<usize>at << 2), t);
    rankedTokens++;
  }
  let sum = 0;
  for (let i = 0; i < rankedTokens; i++) {
    const t = load<i32>(TOKEN_SUM + (<usize>i << 2));
    store<i32>(TOKEN_RANK + (<usize>t << 2), i);
    store<i32>(TOKEN_AT + (<usize>i << 2), t);
    sum += tokenLeafGain(t);
    store<i32>(TOKEN_SUM + (<usize>i << 2), sum);
  }
}

/**
 * Leaf hit h cannot lead the ordered reading to a name that matters at this key: its token is among those whose
 * gains together stay below what a name needs there (`needed`, from `neededAt`, which only grows as the reading goes: the
 * threshold never falls and the key never rises, so a dropped cursor is never needed again), or every leaf's
 * name holding its word scores below it (the word's companions, `leafNameBound`).
 */
function minorHit(h: i32, needed: i32, at: i32): bool {
  if (needed == NO_NEED) return false;
  // a name hit only by minor tokens also leaves out the others (`leftPenalty`): `нижняя с` drops the cursors of с
  while (minorTokens < rankedTokens) {
    // (and by the tokens that hit leaves without a gain, which are not ranked)
    const held = minorMask | ((<u64>1) << <u64>load<i32>(TOKEN_AT + (<usize>minorTokens << 2))) | (leafHitTokens & ~gainingTokens);
    if (load<i32>(TOKEN_SUM + (<usize>minorTokens << 2)) - leftPenalty(held) >= needed) break;
    minorMask = held;
    minorTokens++;
  }
  if (load<i32>(TOKEN_RANK + (<usize>hitToken(h) << 2)) < minorTokens) return true;
  return boundBelow(h, needed, at);
}

/**
 * `minorHit` by leaf hit h's own bound alone: every name of its word scores below `needed` (`leafNameBound`), or
 * below it without the house bonus when no name left from place `at` on has the house typed.
 */
function boundBelow(h: i32, needed: i32, at: i32): bool {
  // a leaf hit's slot (indexHitWords, which the ordered reading needs)
  const best = load<i32>(<usize>load<i32>(HIT_SLOT + (<usize>h << 2)), 16);
  if (best < needed) return true;
  // no name left on the cursor has the house typed (a block's look: subtree.ts TAIL_LEADS)
  return houseShortfall > 0 && best - houseShortfall < needed && !tailHasLeads(readerOrder, hitWord(h), at);
}

/**
 * The name at leaf hit i's cursor cannot matter (it needs `needed`), told by the facts kept beside it
 * (`passedOnFacts`); `passedAlike` then says how many names after it, at the same key, are passed by too
 * (`alikeAfter`).
 */
function belowOnFacts(i: i32, needed: i32, key: i32): bool {
  passedAlike = 0;
  if (needed == NO_NEED) return false;
  const at = cursorAt(i);
  if (!passedOnFacts(i, at, needed, key)) return false;
  passedAlike = alikeAfter(i, at, needed, key);
  return true;
}

/** `passedOnFacts` passed its name by on the facts' bound alone (no read of the name's object) */
let byFactsAlone: bool = false;

/**
 * The name at place `at` of leaf hit i's ordered list (at `key`, where a name needs `needed`) cannot matter, told by
 * the facts kept beside it (subtree.ts LEAF_FACTS): what its object's type and level take from the type bonus the
 * solver's extra holds (a leaf's extra is at most that extra less `leafTypeBound` plus its `typeBonusBound`, in both
 * solvers), and the house bonus when it has no house of the leads wanted, off the most a name of the cursor scores
 * (`minorHit`), or off the name's own bound when the cursor's word is the only hit word of its names (`nameBound`
 * from the word's weight in it and its other weight: `екатеринбург горько` passes Максима Горького in 2,000 towns
 * by). A name that only ties with what it needs and comes after the last hint in one pass cannot matter either. It
 * is passed by with no read of the name or its object: the copies of `московский 9 километр` without a house 9 cost
 * a look at two arrays each, not four reads at random.
 */
function passedOnFacts(i: i32, at: i32, needed: i32, key: i32): bool {
  const bound = factsBound(i, at);
  byFactsAlone = passedAt(i, at, bound, needed, key);
  if (byFactsAlone) return true;
  if ((houseShortfall == 0 && shortHouseLoss == 0) || !factsHaveLead(leafFacts(readerOrder, at))) return false;
  // asked only of a name the facts would not pass by (most that reach here tie and come after the last, in one pass)
  const o = name(orderedName(readerOrder, at), 0);
  if (shortHouseLoss > 0) {
    // the house typed is two digits, its first character some house's: the object's short keys (one more load); a
    // key of those digits (and at most one character more) has their pair too
    if (hasShortKey(o, shortFirst, shortSecond)) return false;
    if (passedAt(i, at, bound - shortHouseLoss, needed, key)) return true;
  }
  // the facts tell a house key's first character, the object's leads its first two (one load): none as the house
  // typed, the whole house bonus is lost (`екатеринбург февральской революции 15`: the 683 ул Революции with houses
  // starting 1 but none 15… were each looked at and passed by)
  return houseShortfall > 0 && !leadsHaveWanted(o) && passedAt(i, at, bound - houseShortfall, needed, key);
}

/** the names after the one `belowOnFacts` passed by that are passed by with it (`alikeAfter`) */
let passedAlike: i32 = 0;
/** LEAF_FACTS bits below the sign of a name's other word (bits 0–48) */
const FACTS_BELOW_SIGN: u64 = ((<u64>1) << 49) - 1;
/**
 * `boundFacts` bits a name's facts bound reads besides its leads: level, type, weights, an earlier name (bits 11–48),
 * whether a hit word may be its other word (bit 63)
 */
const ALIKE_FACTS: u64 = (FACTS_BELOW_SIGN & ~(<u64>0x7ff)) | ((<u64>1) << 63);
/** no facts: bits 1–10 of `factsSign` are never set */
const NO_SIGN: u64 = 0xffffffffffffffff;

/** What a name's facts bound reads of facts `facts`: the bits of ALIKE_FACTS, and bit 0 for a house of a lead wanted. */
// @ts-ignore: decorator
@inline function factsSign(facts: u64): u64 {
  return (boundFacts(facts) & ALIKE_FACTS) | (factsHaveLead(facts) ? 1 : 0);
}

/**
 * Facts as a name's facts bound reads them: the sign of the name's other word (bits 49–63) replaced by whether no hit
 * word has it (`otherUnhit`, bit 63), so that the copies of a street whose other words differ and none is hit read
 * alike.
 */
// @ts-ignore: decorator
@inline function boundFacts(facts: u64): u64 {
  return (facts & FACTS_BELOW_SIGN) | (otherUnhit(facts) ? (<u64>1) << 63 : 0);
}

/**
 * The names after place `at` of leaf hit i's cursor, which was passed by on its facts, that are passed by too at the
 * same key (what a name needs there): each as `passedOnFacts` passes it, with no step of the reader's heap, and a name
 * whose facts read as those of a name passed on them alone (the same level, type, weights and earlier-name bit, a
 * house of a lead wanted or none alike: the same bound, and at a tie each after the one before, as a key's names
 * come by id) with no bound worked out. The copies of one street in hundreds of towns: `новый ` passed 675 of them
 * one at a time, each popped and pushed on the reader's heap. A word whose names' bounds read the name itself
 * (`shareNames`) works out each.
 */
function alikeAfter(i: i32, at: i32, needed: i32, key: i32): i32 {
  const h = leafHit(i);
  const byName = load<i32>(<usize>load<i32>(HIT_SLOT + (<usize>h << 2)), 20) == 2;
  // the signs of the last two facts passed on them alone (names of one street alternate: its current and other name)
  let last = byFactsAlone && !byName ? factsSign(leafFacts(readerOrder, at)) : NO_SIGN;
  let before = NO_SIGN;
  const end = leafStart(hitWord(h)) + leafCount(hitWord(h));
  // a name whose facts do not pass it may be passed by its object's houses
  const houses = houseShortfall > 0 || shortHouseLoss > 0;
  let warmed = 0;
  let j = at + 1;
  while (j < end && orderedKeyAt(readerOrder, j) == key) {
    const sign = factsSign(leafFacts(readerOrder, j));
    if (sign != last && sign != before) {
      if (houses && j >= warmed) {
        warmed = j + WARM_AHEAD < end ? j + WARM_AHEAD : end;
        warmObjects(j, warmed);
      }
      if (!passedOnFacts(i, j, needed, key)) break;
      if (byFactsAlone && !byName) {
        before = last;
        last = sign;
      }
    }
    j++;
  }
  return j - at - 1;
}

/** names of an order's list whose objects' houses `warmObjects` loads at once */
const WARM_AHEAD: i32 = 8;
const WARM = new StaticArray<i32>(WARM_AHEAD);
/** what the loads of `warmObjects` read, kept so that they are made */
let warmSink: u64 = 0;

/**
 * Loads the objects of names [from, to) of the reader's order, then their house leads and short keys (at most
 * WARM_AHEAD), each load independent of the others: the processor waits for them together, where `passedOnFacts`
 * asking one name after another waits for two reads at random in turn (the copies of a street in hundreds of towns,
 * objects far apart: `хрустальногорская 35` asks 682 of them the short key 35).
 */
function warmObjects(from: i32, to: i32): void {
  for (let j = from; j < to; j++) unchecked((WARM[j - from] = name(orderedName(readerOrder, j), 0)));
  let sink: u64 = 0;
  for (let k = 0; k < to - from; k++) sink ^= touchHouses(unchecked(WARM[k]));
  warmSink ^= sink;
}

/**
 * a call that has looked at this many names one by one loads those after a cursor's name ahead (`warmLooks`); few
 * calls look at so many (the loads ahead cost a call that looks at a few more than it saves)
 */
const WARM_AFTER_LOOKS: i32 = 64;
/** the cursor whose names `warmLooks` loaded, and the place in the order's list they end */
let warmedHit: i32 = -1;
let warmedTo: i32 = 0;

/**
 * Before the name at leaf hit i's cursor is looked at (`orderedBound`: its object's names, their words; the solver then
 * its object's record), the next WARM_AHEAD names of the cursor have their records, their first words and their
 * objects' records loaded, each load independent of the others, once every WARM_AHEAD names: a cursor whose names
 * its facts cannot pass by (`екатеринбург степанна разин` looks at the 683 ул Степана Разина one after another) waits
 * for those reads at random together, not in turn.
 */
function warmLooks(i: i32): void {
  const at = cursorAt(i);
  if (leafHit(i) == warmedHit && at < warmedTo && at >= warmedTo - WARM_AHEAD) return;
  const w = hitWord(leafHit(i));
  const end = leafStart(w) + leafCount(w);
  warmedHit = leafHit(i);
  warmedTo = at + 1 + WARM_AHEAD < end ? at + 1 + WARM_AHEAD : end;
  let sink: u64 = 0;
  for (let j = at + 1; j < warmedTo; j++) {
    const n = orderedName(readerOrder, j);
    unchecked((WARM[j - at - 1] = n));
    sink ^= <u64>name(n, 0);
  }
  for (let k = 0; k < warmedTo - at - 1; k++) {
    const n = unchecked(WARM[k]);
    sink ^= <u64>obj(name(n, 0), O_LEVEL) ^ <u64>nameWord(name(n, 1), 0);
  }
  warmSink ^= sink;
}

/** A name at place `at` of leaf hit i's list, at `key` and bounded by `bound`, cannot matter where a name needs `needed`. */
// @ts-ignore: decorator
@inline function passedAt(i: i32, at: i32, bound: i32, needed: i32, key: i32): bool {
  return bound < needed || (bound == needed && tiedOut(leafHit(i), orderedName(readerOrder, at), key));
}

/**
 * The most the name at place `at` of leaf hit i's ordered list can score, told by the facts kept beside it
 * (`belowOnFacts`): the most a name of the cursor scores, or the name's own bound from its weights (also when its one
 * other word is no hit word's, `otherUnhit`, unless `bySign` is false), less what its type and houses surely take.
 */
function factsBound(i: i32, at: i32, bySign: bool = true): i32 {
  const facts = leafFacts(readerOrder, at);
  const slot = <usize>load<i32>(HIT_SLOT + (<usize>leafHit(i) << 2));
  let bound = load<i32>(slot, 16);
  const weight = <i32>((facts >>> 32) & 0xff);
  let alone = load<i32>(slot, 20);
  if (weight < 255) {
    if (alone == 3 && restLooks >= SHARE_AFTER_LOOKS && !sharedBuilt) {
      shareNames();
      alone = load<i32>(slot, 20);
    }
    const gained = slotGainAt(slot, weight);
    const other = <i32>((facts >>> 40) & 0xff);
    const earlier = ((facts >>> 48) & 1) != 0;
    // the cursor's word is the only hit word its names can hold, or this name's (no other word, or `shareNames`):
    // the name's own bound (`nameBound`) from the facts; else the most the other hit words can add in its other weight
    const own = alone == 1 || other == 0 || (alone == 2 && !isShared(orderedName(readerOrder, at))) || (bySign && otherUnhit(facts))
      ? coveredBound(gained > 0 ? gained : 0, other + weight, gained > 0 ? weight : 0, earlier, load<u64>(slot, 24))
      : sharingBound(slot, gained > 0 ? gained : 0, other, earlier);
    if (own < bound) bound = own;
  }
  let typeLoss = factsTypeLoss(facts);
  // no other hit word can be in the names of this one, and one token hits it: the name is that token alone, and its
  // type bonus is that of the type words beside the token (`scoreType`), −15 when one contradicts it (`г. лесной`: a
  // пер Лесной), where the facts say what any type word typed could give
  if (alone == 1 && popcnt<u64>(load<u64>(slot, 24)) == 1) {
    const exact = typeMost - besideTypeBonus(hitToken(leafHit(i)), factsType(facts), factsLevel(facts));
    if (exact > typeLoss) typeLoss = exact;
  }
  return bound - typeLoss - factsHouseLoss(facts);
}

/**
 * The type bonus `scoreType` gives an object of this type and level (0xffff: any) whose name is token t alone: the
 * best of the type words beside t in its segment that agree, else −15 when one contradicts it, else 0.
 */
function besideTypeBonus(t: i32, type: i32, level: i32): i32 {
  let best = 0;
  let against = false;
  for (let side = 0; side < 2; side++) {
    const n = side == 0 ? t - 1 : t + 1;
    if (n < 0 || n >= tokenCount || tok(n, F_SEGMENT) != tok(t, F_SEGMENT)) continue;
    const a = tok(n, F_TYPE_A);
    if (a < 0) continue;
    const bonus = typeWordBonus(a, tok(n, F_TYPE_B), type, level);
    if (bonus > best) best = bonus;
    else if (bonus < 0 && n != prefixTok) against = true; // (the word being typed contradicts nothing: scoreType)
  }
  return best > 0 ? best : against ? -15 : 0;
}
/**
 * The most a name whose cursor's word gains `gained` in it can score when other hit words may be in its `other`
 * weight (LEAF_FACTS; 255 or more when unknown): they gain at most what they gain as the word's companions (slot
 * @40) on at most the weight they have there (@44) or the name's other weight, whichever is less, and the rest of
 * that weight pays the coverage penalty; it pays at least the left-token penalty of all the companions' tokens
 * (@48). Never below `nameBound`.
 */
function sharingBound(slot: usize, gained: i32, other: i32, earlier: bool): i32 {
  const othersGain = load<i32>(slot, 40);
  const reach = other >= 255 || other > load<i32>(slot, 44) ? load<i32>(slot, 44) : other;
  const covered = other >= 255 ? 0 : (other - reach) / 5;
  return gained + (othersGain < reach ? othersGain : reach) - covered - (earlier ? 5 : 0) - load<i32>(slot, 48);
}

/**
 * Leaf hit i's cursor (at key `key`, where a name needs `needed`) can only lead to names that tie with what they need at best and come after the
 * last that may enter in a one-pass reading: its names at this key come by name id, so each after the one it is at,
 * and those at a lower key need more (the names left scoring at most the cursor's bound, `minorHit`). Such a cursor
 * is dropped: the 683 copies of `жуковского` in as many towns, tied with the copy that holds the fifth hint and
 * after it, are not looked at one by one. (A name the cursor's word shares with an earlier hit was offered by that
 * hit's cursor first, at its own place: the reader takes a key's names by hit.)
 */
function tiedAfter(i: i32, key: i32, needed: i32): bool {
  if (needed == NO_NEED) return false;
  const h = leafHit(i);
  const best = load<i32>(<usize>load<i32>(HIT_SLOT + (<usize>h << 2)), 16);
  return best == needed && key - 1 > NO_KEY && neededAt(key - 1) > best && tiedOut(h, cursorName(i), key);
}

/**
 * The name of these facts has one word besides the cursor's, and no hit word has that word's sign (HIT_SIGNS): the
 * name holds no other hit word, and is bounded as an alone word's (`екатеринбург степанна разин`: the copies of ул
 * Степана Халтурина on the cursor of степана, whose other word no hit word is, were each looked at, their facts
 * bounding them as if разин gained on it).
 */
// @ts-ignore: decorator
@inline function otherUnhit(facts: u64): bool {
  if ((facts >>> 63) == 0) return false;
  const sign = <i32>((facts >>> 49) & ((1 << OTHER_SIGN_BITS) - 1));
  return (load<u64>(signWord(sign)) & signBit(sign)) == 0;
}

/** The u64 of HIT_SIGNS holding a sign's bit, and that bit. */
// @ts-ignore: decorator
@inline function signWord(sign: i32): usize {
  return HIT_SIGNS + (<usize>(sign >> 6) << 3);
}
// @ts-ignore: decorator
@inline function signBit(sign: i32): u64 {
  return (<u64>1) << <u64>(sign & 63);
}

/** `leafTypeBound` of this call's ordered reading (set by `beginOrdered`). */
let typeMost: i32 = 0;
/** the facts of the name `orderedKey` found (subtree.ts LEAF_FACTS) */
let nextFacts: u64 = 0;

/** The type (0xffff: any) and the level of a leaf's object, as its facts keep them (subtree.ts LEAF_FACTS). */
// @ts-ignore: decorator
@inline function factsType(facts: u64): i32 {
  return <i32>((facts >>> 16) & 0xffff);
}
// @ts-ignore: decorator
@inline function factsLevel(facts: u64): i32 {
  return <i32>((facts >>> 11) & 31);
}

/** What a leaf with these facts surely takes from the solver's extra for its type: the type bonus it cannot have. */
function factsTypeLoss(facts: u64): i32 {
  return typeMost > 0 ? typeMost - typeBonusOf(factsType(facts), factsLevel(facts)) : 0;
}

/** What a leaf with these facts surely takes from the solver's extra for its houses: none of the leads wanted. */
// @ts-ignore: decorator
@inline function factsHouseLoss(facts: u64): i32 {
  return houseShortfall > 0 && !factsHaveLead(facts) ? houseShortfall : 0;
}

/** What a leaf with these facts surely takes from the solver's extra: the type bonus its type cannot have, the house. */
function factsLoss(facts: u64): i32 {
  return factsTypeLoss(facts) + factsHouseLoss(facts);
}

/**
 * What the object of the name `orderedKey` found surely takes from the solver's extra for the rest (its type, a house
 * of the first character typed), told by the facts kept beside the name, not by the object's record and houses.
 */
export function orderedFactsLoss(): i32 {
  return factsLoss(nextFacts);
}

/**
 * What hit h gains on its word when the word weighs at most `weight` in the name: `hitName`'s gain (weight less a
 * quarter per edit, less a twentieth for a prefix) at that weight or up to five below (the rounded terms can make
 * a smaller weight gain one or two more; six below it gains less).
 */
let gainMemoKey: i32 = -1;
let gainMemo: i32 = 0;
// @ts-ignore: decorator
@inline function gainAt(h: i32, weight: i32): i32 {
  // one remembered (weight, cost, prefix): most words weigh the same, and a call asks thousands of times (the test
  // inline, the rest not)
  const key = (weight << 9) | (hitCost(h) << 1) | (hitToken(h) == prefixTok ? 1 : 0);
  return key == gainMemoKey && weight >= 0 ? gainMemo : gainOf(key, weight);
}

/** `gainAt` worked out for (weight, cost, prefix) packed in `key`, and remembered. */
function gainOf(key: i32, weight: i32): i32 {
  const cost = (key >> 1) & 0xff;
  const prefix = (key & 1) != 0;
  let best = 0;
  for (let w = weight; w >= 0 && w >= weight - 5; w--) {
    const gained = typoGain(w, cost, prefix);
    if (gained > best) best = gained;
  }
  gainMemoKey = key;
  gainMemo = best;
  return best;
}

/** What hit h can gain on its word in a leaf's name at most (the word's greatest weight there). */
// @ts-ignore: decorator
@inline function leafGain(h: i32): i32 {
  return gainAt(h, leafMax(hitWord(h)));
}

/**
 * The most any leaf's name can score from the tokens: each token's best word in a leaf name, less its typo
 * cost. A bound for names not read yet (solve/scope.ts); cheap, but it lets one name hold every word.
 */
export function leafGainBound(): i32 {
  let total = 0;
  for (let t = 0; t < 64; t++) total += tokenLeafGain(t);
  return total;
}

/** Slot of word w in WORD_SLOTS (created when `create`), 0 when absent or the table is full. */
function wordSlot(w: i32, create: bool): usize {
  let i = hash(w) & (WORD_SLOT_CAP - 1);
  while (true) {
    const e = WORD_INDEX + (<usize>i << 3);
    const id = load<i32>(e);
    if (id == w) return WORD_SLOTS + <usize>load<i32>(e, 4) * WORD_SLOT_BYTES;
    if (id < 0) {
      if (!create || wordUsed >= (WORD_SLOT_CAP * 3) / 4) return 0;
      store<i32>(e, w);
      store<i32>(e, wordUsed, 4);
      const p = WORD_SLOTS + <usize>wordUsed * WORD_SLOT_BYTES;
      store<i32>(p, w);
      store<i32>(p, 0, 4);
      store<i32>(p, -1, 8);
      store<i32>(p, -1, 12);
      store<i32>(p, 0x7fffffff, 16);
      store<i32>(p, 0, 20);
      store<u64>(p, 0, 24);
      store<i32>(p, -1, 32);
      // (@40, @44, @48: `leafNameBound` sets them before the ordered reading asks)
      store<i32>(WORD_USED + (<usize>wordUsed << 2), i);
      wordUsed++;
      return p;
    }
    i = (i + 1) & (WORD_SLOT_CAP - 1);
  }
}

/** WORD_SLOTS, HIT_NEXT and HIT_SIGNS for the leaf hits of this call; false when they hit too many words. */
function indexHitWords(): bool {
  if (wordsIndexed != 0) return wordsIndexed > 0;
  for (let k = 0; k < wordUsed; k++) store<i32>(WORD_INDEX + (<usize>load<i32>(WORD_USED + (<usize>k << 2)) << 3), -1);
  wordUsed = 0;
  wordsIndexed = -1;
  memory.fill(HIT_SIGNS, 0, <usize>HIT_SIGN_BYTES);
  for (let i = 0; i < leafHitCount; i++) {
    const h = leafHit(i);
    const p = wordSlot(hitWord(h), true);
    if (p == 0) return false;
    const sign = otherSign(hitWord(h));
    store<u64>(signWord(sign), load<u64>(signWord(sign)) | signBit(sign));
    const gained = leafGain(h);
    if (gained > load<i32>(p, 4)) store<i32>(p, gained, 4);
    store<i32>(HIT_NEXT + (<usize>h << 2), -1);
    store<i32>(HIT_SLOT + (<usize>h << 2), <i32>p);
    if (load<i32>(p, 8) < 0) store<i32>(p, h, 8);
    else store<i32>(HIT_NEXT + (<usize>load<i32>(p, 12) << 2), h);
    store<i32>(p, h, 12);
    store<u64>(p, load<u64>(p, 24) | ((<u64>1) << <u64>hitToken(h)), 24);
  }
  wordsIndexed = 1;
  return true;
}

/**
 * A tighter bound than `leafGainBound`: a leaf's name holding word w scores at most what the hits gain on w's
 * companions (subtree.ts: the words that share a leaf's name with w, at their greatest weight in such a name),
 * each times its repeats in one name, less the coverage penalty (collectObjects: a fifth of the weight not hit)
 * on at least the lightest such name's weight beyond those companions'. The greatest over the hit words, never
 * more than `leafGainBound`.
 */
export function leafNameBound(): i32 {
  const perToken = leafGainBound();
  if (!indexHitWords()) return perToken;
  let best = 0;
  for (let k = 0; k < wordUsed; k++) {
    const slot = WORD_SLOTS + <usize>k * WORD_SLOT_BYTES;
    const w = load<i32>(slot);
    let sum = 0;
    let weightHit = 0;
    let othersGain = 0;
    let othersWeight = 0;
    let held: u64 = 0;
    let alone = leafRepeat(w) == 1;
    const start = companionStart(w);
    for (let i = start; i < start + companionCount(w); i++) {
      const v = companion(i);
      // a word is its own companion (most made-up words have no other): its slot is at hand
      const q = v == w ? slot : wordSlot(v, false);
      if (q == 0) continue;
      if (v != w) alone = false;
      let gained = 0;
      for (let h = load<i32>(q, 8); h >= 0; h = load<i32>(HIT_NEXT + (<usize>h << 2))) {
        const g = gainAt(h, companionWeight(i));
        if (g > gained) gained = g;
      }
      held |= load<u64>(q, 24);
      sum += gained * leafRepeat(v);
      weightHit += companionWeight(i) * leafRepeat(v);
      if (v != w) {
        othersGain += gained * leafRepeat(v);
        othersWeight += companionWeight(i) * leafRepeat(v);
      }
    }
    const missed = lightestName(w) - weightHit;
    if (missed > 0) sum -= missed / 5;
    // the rest's bound (minorHit) also pays for the tokens no companion is hit by; `own` does not (an anchor's
    // leaves have places above them that may explain those)
    store<i32>(slot, sum - leftPenalty(held), 16);
    store<i32>(slot, othersGain, 40);
    store<i32>(slot, othersWeight, 44);
    store<i32>(slot, leftPenalty(held), 48);
    store<i32>(slot, alone ? 1 : leafRepeat(w) == 1 && leafCount(w) >= SHARED_MIN_LEAVES ? 3 : 0, 20);
    if (sum > best) best = sum;
  }
  sharedBuilt = false;
  return best < perToken ? best : perToken;
}

/** a word with fewer leaf names is left to `nameBound` (its names are few to read) */
const SHARED_MIN_LEAVES: i32 = 64;
/** SHARED's table: open addressing over name ids, at most half full */
const SHARED_CAP: i32 = 16384;
/** the most binary-search steps `shareNames` takes in a call */
const SHARED_WORK: i32 = 4096;
/** the names a call looks at one by one before `shareNames` is worth its searches */
const SHARE_AFTER_LOOKS: i32 = 32;
/** `shareNames` ran in this call */
let sharedBuilt: bool = false;
let SHARED: usize = 0;
let SHARED_USED: usize = 0;
let sharedUsed: i32 = 0;
let sharedWork: i32 = 0;

/**
 * A word of many leaf names that shares a few with another hit word (`верхний` with a word `уфал` starts, in one
 * name of its 729 at 10 M) is not alone, so every name its cursor came to was read to bound it. Such a word's slot
 * has @20 3 (`leafNameBound`); once the call has looked at SHARE_AFTER_LOOKS names one by one, SHARED gets the
 * names of each such word that hold another hit word too (each of the other word's names searched among its own),
 * and the word's slot 2: a name of its cursor not in SHARED holds no other hit word, so its bound is told by its
 * facts as an alone word's (`belowOnFacts`). A word whose searches do not pay or fit gets 0.
 */
function shareNames(): void {
  sharedBuilt = true;
  clearIds(SHARED, SHARED_USED, sharedUsed);
  sharedUsed = 0;
  sharedWork = 0;
  for (let k = 0; k < wordUsed; k++) {
    const slot = WORD_SLOTS + <usize>k * WORD_SLOT_BYTES;
    const w = load<i32>(slot);
    if (load<i32>(slot, 20) != 3) continue;
    let fits = true;
    const start = companionStart(w);
    for (let i = start; i < start + companionCount(w) && fits; i++) {
      const v = companion(i);
      if (v != w && wordSlot(v, false) != 0) fits = shareBoth(w, v);
    }
    store<i32>(slot, fits ? 2 : 0, 20);
  }
}

/**
 * Adds to SHARED every name holding both words, searching w's postings for each of v's (ascending name ids); false
 * when v has more than a quarter of w's postings (most of w's names may hold it: little to pass by on the facts),
 * when the searches cost more than is left, or when SHARED is full.
 */
function shareBoth(w: i32, v: i32): bool {
  const count = word(v, 1);
  if (count * 4 > word(w, 1)) return false;
  sharedWork += count * (32 - clz<i32>(word(w, 1)));
  if (sharedWork > SHARED_WORK) return false;
  let lo = word(w, 0);
  const end = lo + word(w, 1);
  for (let j = word(v, 0); j < word(v, 0) + count && lo < end; j++) {
    const n = posting(j);
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (posting(mid) < n) lo = mid + 1;
      else hi = mid;
    }
    if (lo < end && posting(lo) == n && !addShared(n)) return false;
  }
  return true;
}

/**
 * The entry of `id` in an open-addressing set of ids (`cap` i32 entries, −1 empty: AREA_SEEN, SHARED), or the empty
 * entry where it would go.
 */
function idEntry(table: usize, cap: i32, id: i32): usize {
  let i = hash(id) & (cap - 1);
  while (true) {
    const at = table + (<usize>i << 2);
    const v = load<i32>(at);
    if (v == id || v < 0) return at;
    i = (i + 1) & (cap - 1);
  }
}

/** Empties the `count` entries of such a set whose indexes `used` lists. */
function clearIds(table: usize, used: usize, count: i32): void {
  for (let k = 0; k < count; k++) store<i32>(table + (<usize>load<i32>(used + (<usize>k << 2)) << 2), -1);
}

function addShared(n: i32): bool {
  const at = idEntry(SHARED, SHARED_CAP, n);
  if (load<i32>(at) == n) return true;
  if (sharedUsed >= SHARED_CAP >> 1) return false;
  store<i32>(at, n);
  store<i32>(SHARED_USED + (<usize>sharedUsed << 2), <i32>((at - SHARED) >> 2));
  sharedUsed++;
  return true;
}

// @ts-ignore: decorator
@inline function isShared(n: i32): bool {
  return load<i32>(idEntry(SHARED, SHARED_CAP, n)) == n;
}

/** The name has been read in this call (it has a slot). */
function nameRead(nameId: i32): bool {
  let i = hash(nameId) & (NAME_SLOT_CAP - 1);
  while (true) {
    const id = load<i32>(NAME_SLOTS + <usize>i * NAME_SLOT_BYTES);
    if (id == nameId) return true;
    if (id < 0) return false;
    i = (i + 1) & (NAME_SLOT_CAP - 1);
  }
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
function readObject(n: i32): void {
  const o = name(n, 0);
  let first = n;
  while (first > 0 && name(first - 1, 0) == o) first--;
  let count = 0;
  for (let m = first; m < nameCount && name(m, 0) == o; m++) if (!nameRead(m)) count = touchName(m, count);
  for (let k = 0; k < count; k++) {
    const entry = load<i64>(TOUCH + (<usize>k << 3));
    hitNow = <i32>(entry >> 32);
    if (!readPosting(hitNow, <i32>(entry & 0xffffffff))) return;
  }
}

// @ts-ignore: decorator
@inline function cursorName(i: i32): i32 {
  return orderedName(readerOrder, cursorAt(i));
}

/** The place in ORDERED of leaf hit i's cursor. */
// @ts-ignore: decorator
@inline function cursorAt(i: i32): i32 {
  return leafStart(hitWord(leafHit(i))) + load<i32>(CURSORS + (<usize>i << 2));
}

/** The reader entry of leaf hit i at its cursor. */
function readerEntry(i: i32): i64 {
  return entryOf(orderedKeyAt(readerOrder, cursorAt(i)), i);
}

/**
 * A max-heap entry (the reader's, the deferred areas' and their words'): the key, then index i, the earlier index
 * first at a tie.
 */
// @ts-ignore: decorator
@inline function entryOf(key: i32, i: i32): i64 {
  return (<i64>key << 32) | <i64>(0x7fffffff - i);
}

/** The index of an `entryOf` entry. */
// @ts-ignore: decorator
@inline function entryIndex(entry: i64): i32 {
  return 0x7fffffff - <i32>(entry & 0xffffffff);
}

/** Moves the cursor at the top of the reader one name on, and `alike` more (names passed by with it, `alikeAfter`). */
function advanceTop(alike: i32 = 0): void {
  const i = entryIndex(heapAt(READER, 0));
  const at = load<i32>(CURSORS + (<usize>i << 2)) + 1 + alike;
  store<i32>(CURSORS + (<usize>i << 2), at);
  if (at >= leafCount(hitWord(leafHit(i)))) {
    readerSize = popHeap(READER, readerSize);
  } else {
    setHeapAt(READER, 0, readerEntry(i));
    siftDown(READER, readerSize, 0);
  }
}

/**
 * Starts reading the leaf names of the hits in `order` (subtree.ts ensureOrder, built by the caller); false
 * when the hits reach too many words for it (read the rest unordered then).
 */
export function beginOrdered(order: i32, needed: (key: i32) => i32, tied: (hit: i32, nameId: i32, key: i32) => bool): bool {
  if (!scoped || !indexHitWords()) return false;
  neededAt = needed;
  tiedOut = tied;
  readerOrder = order;
  warmedHit = -1;
  typeMost = leafTypeBound();
  readerSize = 0;
  // a cursor minor at the greatest key is minor at every key (what a name needs only grows as keys fall): it
  // never enters the reader, and its first name's key (a random read in a national dictionary) is not looked up
  const top = orderTop(order);
  const neededTop = top != NO_KEY ? neededAt(top) : NO_NEED;
  for (let i = 0; i < leafHitCount; i++) {
    if (minorHit(leafHit(i), neededTop, 0)) continue;
    store<i32>(CURSORS + (<usize>i << 2), 0);
    // readerEntry(i) at the first name, its key kept per word (subtree.ts WORD_TOP)
    setHeapAt(READER, readerSize, entryOf(wordTopKey(order, hitWord(leafHit(i))), i));
    readerSize++;
  }
  heapify(READER, readerSize);
  sweeping = true;
  return true;
}

/** Minor cursors popped in a row from the reader's top before it sweeps out every cursor minor at that need. */
const MINOR_RUN: i32 = 16;
/** the reader may sweep (`dropMinor`): until a sweep keeps most of it */
let sweeping: bool = false;

/**
 * Drops from the reader, in one pass and a heapify, every cursor whose own bound is below what a name needs at its
 * key (`boundBelow`): the cursors `orderedKey` would pop as minor once at the top, as what a name needs at a key only
 * grows and a cursor's place moves only at the top. A prefix of three letters enters a thousand cursors of made-up
 * words, nearly all minor once the hint list is full: popped one by one, each cost log₂ of the reader in sift steps.
 */
function dropMinor(): void {
  let kept = 0;
  for (let k = 0; k < readerSize; k++) {
    const entry = heapAt(READER, k);
    const i = entryIndex(entry);
    const needed = neededAt(<i32>(entry >> 32));
    if (needed == NO_NEED || !boundBelow(leafHit(i), needed, load<i32>(CURSORS + (<usize>i << 2)))) setHeapAt(READER, kept++, entry);
  }
  // a sweep that keeps most of the reader costs more than the pops it saves: none more in this reading
  if (kept > readerSize / 2) sweeping = false;
  readerSize = kept;
  heapify(READER, readerSize);
}

/** Key of the next leaf name not read yet (NO_KEY when none); sets nextName and nextHit. */
export function orderedKey(): i32 {
  let run = 0;
  while (readerSize > 0) {
    const i = entryIndex(heapAt(READER, 0));
    const key = <i32>(heapAt(READER, 0) >> 32);
    // what a name needs at this key, asked once (the solver's bound by key)
    const needed = neededAt(key);
    if (minorHit(leafHit(i), needed, load<i32>(CURSORS + (<usize>i << 2))) || tiedAfter(i, key, needed)) {
      readerSize = popHeap(READER, readerSize);
      if (++run == MINOR_RUN && sweeping) dropMinor();
      continue;
    }
    if (belowOnFacts(i, needed, key)) {
      advanceTop(passedAlike);
      continue;
    }
    const n = cursorName(i);
    if (!nameRead(n)) {
      if (restLooks >= WARM_AFTER_LOOKS) warmLooks(i);
      nextName = n;
      nextHit = leafHit(i);
      nextFacts = leafFacts(readerOrder, cursorAt(i));
      return key;
    }
    advanceTop();
  }
  return NO_KEY;
}

/** The most the hits on the word of slot p gain in a name where it weighs `weight`. */
function slotGainAt(p: usize, weight: i32): i32 {
  // the last weight asked of this word, remembered in its slot (the ordered reading asks it of every name)
  if (load<i32>(p, 32) == weight) return load<i32>(p, 36);
  let best = 0;
  for (let h = load<i32>(p, 8); h >= 0; h = load<i32>(HIT_NEXT + (<usize>h << 2))) {
    const g = gainAt(h, weight);
    if (g > best) best = g;
  }
  store<i32>(p, weight, 32);
  store<i32>(p, best, 36);
  return best;
}

/**
 * The most leaf name n can score from this call's hits without reading it: its words' best gains, less the
 * coverage penalty on the weight no hit reaches and the earlier-name penalty (collectObjects), and less what it
 * pays for the tokens no hit on its words holds (`leftPenalty`: a bound for the rest only, where it is used).
 */
function nameBound(n: i32): i32 {
  let gained = 0;
  let reached = 0;
  let held: u64 = 0;
  const start = name(n, 1);
  for (let j = start; j < start + name(n, 2); j++) {
    const p = wordSlot(nameWord(j, 0), false);
    if (p == 0) continue;
    held |= load<u64>(p, 24);
    const g = slotGainAt(p, nameWord(j, 1));
    if (g <= 0) continue;
    gained += g;
    reached += nameWord(j, 1);
  }
  return coveredBound(gained, name(n, 4), reached, name(n, 3) != 0, held);
}

/**
 * A name's bound from what its hit words gain (`gained`, their weight `reached` of the name's `total`): less the
 * coverage penalty on the weight no hit reaches and the earlier-name penalty (collectObjects), and less what it pays
 * for the tokens no hit on its words holds (`leftPenalty` of `held`).
 */
function coveredBound(gained: i32, total: i32, reached: i32, earlier: bool, held: u64): i32 {
  return gained - (total > reached ? (total - reached) / 5 : 0) - (earlier ? 5 : 0) - leftPenalty(held);
}

/** The most the object of the name `orderedKey` found can score from its names (read it or pass it by). */
export function orderedBound(): i32 {
  restLooks++;
  const o = name(nextName, 0);
  let first = nextName;
  while (first > 0 && name(first - 1, 0) == o) first--;
  let best = -1000000;
  for (let m = first; m < nameCount && name(m, 0) == o; m++) {
    const b = nameBound(m);
    if (b > best) best = b;
  }
  return best;
}

/** Passes by the name `orderedKey` found without reading it. */
export function skipOrdered(): void {
  advanceTop();
}

/**
 * Reads, out of order, the unread name of the reader's cursors that its facts bound highest (`primeAt`): that of the
 * cursor whose word gains the most in a leaf's name first, then the others' as the budget lasts, a tie going to the
 * earlier; false when there is no such name. New names wait for `collectObjects`. A name read early changes no
 * answer (the answer is the one of a full pass): it gives the solver a winner, so a threshold, before the ordered
 * reading drains a cursor whose names cannot reach it (at one key the earlier hit's: the title word `академика`
 * before the name word `сахарова`; the ул of 727 towns holding both `тракт` and `сибирский` before the тракт
 * Сибирский, on the other word's cursor).
 */
export function primeOrdered(): bool {
  let chosen = -1;
  let most = -1;
  for (let k = 0; k < readerSize; k++) {
    const i = entryIndex(heapAt(READER, k));
    const gain = leafGain(leafHit(i));
    if (gain > most || (gain == most && i < chosen)) {
      most = gain;
      chosen = i;
    }
  }
  if (chosen < 0) return false;
  primeBudget = PRIME_SCAN;
  let at = primeAt(chosen);
  let bound = primeBound;
  for (let k = 0; k < readerSize && primeBudget > 0; k++) {
    const i = entryIndex(heapAt(READER, k));
    if (i == chosen) continue;
    const place = primeAt(i);
    if (primeBound > bound) {
      bound = primeBound;
      at = place;
    }
  }
  const n = orderedName(readerOrder, at);
  if (nameRead(n)) return false;
  partNow++;
  readObject(n);
  return true;
}

/** how many names `primeOrdered` bounds by their facts, over all cursors */
const PRIME_SCAN: i32 = 4096;
let primeBudget: i32 = 0;
/** the facts bound of the name `primeAt` found */
let primeBound: i32 = 0;

/**
 * The place of the name of leaf hit i's list, from its cursor on, that its facts bound highest (`factsBound`, set
 * in primeBound; the first at a tie), while the budget lasts or until one reaches the most a name of the cursor
 * scores: the name read first gives the solver the threshold, and the heaviest names of a word need not be its best
 * (`просп. Академика Королева`: the пр-кт, after the ул of 727 heavier towns that the type typed takes points from).
 */
function primeAt(i: i32): i32 {
  const start = cursorAt(i);
  const slot = <usize>load<i32>(HIT_SLOT + (<usize>leafHit(i) << 2));
  const top = load<i32>(slot, 16);
  let best = start;
  // (without the other word's sign: a name that holds another hit word is what the scan looks for, and the names
  // the sign bounds lower would only make it read on, the budget's 4,096 names for `просп. Академика Сахарова,43`)
  let most = factsBound(i, start, false);
  // the bound of a name with the facts of the one before is its bound, unless it depends on the name (shareNames,
  // which the call above may have run)
  const byName = load<i32>(slot, 20) == 2;
  let facts = leafFacts(readerOrder, start) & FACTS_BELOW_SIGN;
  primeBudget--;
  const w = hitWord(leafHit(i));
  const end = leafStart(w) + leafCount(w);
  for (let at = start + 1; at < end && most < top && primeBudget > 0; at++, primeBudget--) {
    const next = leafFacts(readerOrder, at) & FACTS_BELOW_SIGN;
    if (next == facts && !byName) continue;
    facts = next;
    const bound = factsBound(i, at, false);
    if (bound > most) {
      most = bound;
      best = at;
    }
  }
  primeBound = most;
  return best;
}

/** Reads the name `orderedKey` found (call it first); new names wait for `collectObjects`. */
export function readOrdered(): void {
  advanceTop();
  partNow++;
  readObject(nextName);
}

/**
 * The free tokens that spell, as typed, a region's or a city's name (`Казань`, `Москва`, `Свердловская`, `Нижний
 * Тагил`, `Каменск-Уральский`, and other names: `спб`, `Питер`; `placeName`): an address whose chain reads none of
 * them leaves the place it names out (solve/chain.ts `PLACE_LEFT_PENALTY`). A name of several words counts when every
 * one of its significant words is typed (`Гора` alone names no Высокая Гора).
 */
export let placeTokens: u64 = 0;
/** bit per word id: the one significant word of the official name of a region or a city (level 1 or 3; from four letters) */
let PLACE_WORDS: usize = 0;
/** bit per word id: a significant word of such a name of several (`multiWordPlaces` checks the others) */
let PLACE_PART_WORDS: usize = 0;
/** bit per word id: the one significant word of a popular name of a region or a city (`спб`, `кубань`) */
let ALIAS_PLACE_WORDS: usize = 0;
let placeWordsCapacity: i32 = 0;
/** the name table PLACE_WORDS was built for (another attached gets its own) */
let placeWordsNames: usize = 0;
/** a name word that weighs less is no significant word of a name (`на` of Ростов-на-Дону, a title, a type word) */
const SIGNIFICANT_WEIGHT: i32 = 100;

// @ts-ignore: decorator
@inline function setWordBit(bits: usize, w: i32): void {
  const at = bits + (<usize>(w >>> 5) << 2);
  store<u32>(at, load<u32>(at) | ((<u32>1) << <u32>(w & 31)));
}

// @ts-ignore: decorator
@inline function wordBit(bits: usize, w: i32): bool {
  return (load<u32>(bits + (<usize>(w >>> 5) << 2)) & ((<u32>1) << <u32>(w & 31))) != 0;
}

/**
 * Name n is the official name of a region or a city, or one of its other names (dictionaries/data/aliases.tsv: `спб`,
 * `екб`, Набережные Челны as `наб челны`), not a spelling of the official one (NAME_SPELLING: `тольяти` is a slip of
 * Пальмиро Тольятти's word too, `ростов` a part) nor an earlier name (GAR keeps those of many renamed places).
 */
function placeName(n: i32): bool {
  const level = obj(name(n, 0), O_LEVEL);
  // a former name people still use (`свердловск`: both flags) is one of them too
  return (level == 1 || level == 3) && (name(n, 3) == 0 || (name(n, 3) & ~NAME_HISTORICAL) == NAME_ALIAS);
}

export function ensurePlaceWords(): void {
  if (placeWordsNames == NAMES && PLACE_WORDS != 0) return;
  placeWordsNames = NAMES;
  const bytes = ((wordCount + 31) >>> 5) << 2;
  if (bytes > placeWordsCapacity) {
    PLACE_WORDS = reserve(<usize>bytes);
    PLACE_PART_WORDS = reserve(<usize>bytes);
    ALIAS_PLACE_WORDS = reserve(<usize>bytes);
    placeWordsCapacity = bytes;
  }
  memory.fill(PLACE_WORDS, 0, <usize>bytes);
  memory.fill(PLACE_PART_WORDS, 0, <usize>bytes);
  memory.fill(ALIAS_PLACE_WORDS, 0, <usize>bytes);
  for (let n = 0; n < nameCount; n++) {
    if (!placeName(n)) continue;
    const ws = name(n, 1);
    const wc = name(n, 2);
    let w = -1;
    let significant = 0;
    for (let j = 0; j < wc; j++) {
      if (nameWord(ws + j, 1) < SIGNIFICANT_WEIGHT) continue;
      significant++;
      w = nameWord(ws + j, 0);
    }
    if (significant == 1) setWordBit(name(n, 3) == 0 ? PLACE_WORDS : ALIAS_PLACE_WORDS, w);
    else if (significant > 1) for (let j = 0; j < wc; j++) if (nameWord(ws + j, 1) >= SIGNIFICANT_WEIGHT) setWordBit(PLACE_PART_WORDS, nameWord(ws + j, 0));
  }
}

// @ts-ignore: decorator
@inline function isPlaceWord(w: i32): bool {
  return wordBit(PLACE_WORDS, w);
}

/** The most tokens spelling a word of a place's name of several words that a call looks at (`multiWordPlaces`). */
const PLACE_PARTS_MAX: i32 = 8;
/** The most names of such a word `multiWordPlaces` reads (`Нижний` is in many streets' names, `Тагил` in few). */
const PLACE_PART_NAMES: i32 = 256;
/**
 * The tokens naming each place typed (a bit set per place: one token for a one-word name, all of a name of several
 * words), at most PLACE_GROUPS_MAX: a chain reads a typed place when it reads every token of one (`readsTypedPlace`).
 */
const PLACE_GROUPS_MAX: i32 = 16;
const PLACE_GROUPS = new StaticArray<u64>(PLACE_GROUPS_MAX);
let placeGroupCount: i32 = 0;

function addPlaceGroup(tokens: u64): void {
  for (let i = 0; i < placeGroupCount; i++) if (unchecked(PLACE_GROUPS[i]) == tokens) return;
  if (placeGroupCount >= PLACE_GROUPS_MAX) return;
  unchecked(PLACE_GROUPS[placeGroupCount++] = tokens);
  placeTokens |= tokens;
}

/** Drops token t from the typed places (its word is in too many leaf names to read them at once), and the places left with no token. */
function dropPlaceToken(t: i32): void {
  const bit = (<u64>1) << <u64>t;
  placeTokens &= ~bit;
  let kept = 0;
  for (let i = 0; i < placeGroupCount; i++) {
    const tokens = unchecked(PLACE_GROUPS[i]) & ~bit;
    if (tokens != 0) unchecked(PLACE_GROUPS[kept++] = tokens);
  }
  placeGroupCount = kept;
}

/**
 * A chain reading the tokens `chainMask` reads a place typed (`placeTokens`): every token of one. Reading `Нижний`
 * of `Нижний Тагил` and a street of Нижний Услон is not reading Нижний Тагил.
 */
export function readsTypedPlace(chainMask: u64): bool {
  if ((chainMask & placeTokens) == 0) return false;
  for (let i = 0; i < placeGroupCount; i++) {
    const tokens = unchecked(PLACE_GROUPS[i]);
    if ((chainMask & tokens) == tokens) return true;
  }
  return false;
}

const PART_TOKEN = new StaticArray<i32>(PLACE_PARTS_MAX);
const PART_WORD = new StaticArray<i32>(PLACE_PARTS_MAX);
let partCount: i32 = 0;

/** The token typed for word w among the place parts of this call, or −1. */
function partTokenOf(w: i32): i32 {
  for (let i = 0; i < partCount; i++) if (unchecked(PART_WORD[i]) == w) return unchecked(PART_TOKEN[i]);
  return -1;
}

/**
 * Adds to `placeTokens` the tokens of every region or city name (`placeName`) of several significant words that are
 * all typed as spelled (PART_TOKEN/PART_WORD, from classifyNames): `Нижний Тагил`, not `Тагил` alone.
 */
function multiWordPlaces(): void {
  for (let i = 0; i < partCount; i++) {
    const w = unchecked(PART_WORD[i]);
    // the names of the word (a town with no streets is a leaf); a name holding every part is among each part's
    const start = word(w, 0);
    const count = word(w, 1);
    if (count > PLACE_PART_NAMES) continue;
    for (let k = start; k < start + count; k++) {
      const n = posting(k);
      if (!placeName(n)) continue;
      const ws = name(n, 1);
      let tokens: u64 = 0;
      let all = true;
      for (let j = ws; j < ws + name(n, 2); j++) {
        if (nameWord(j, 1) < SIGNIFICANT_WEIGHT) continue;
        const t = partTokenOf(nameWord(j, 0));
        if (t < 0) {
          all = false;
          break;
        }
        tokens |= (<u64>1) << <u64>t;
      }
      if (all) addPlaceGroup(tokens);
    }
  }
}

/**
 * A word of six letters or more hit no word of the vocabulary, even with its slips, in the plain reading since the last
 * `clearUnhitWord` (it may be two words glued: abi.ts reads the hints again with them split).
 */
export let unhitWord = false;
export function clearUnhitWord(): void {
  unhitWord = false;
}

/** Records a type word hit on token t. */
function addTypeHit(t: i32, w: i32): void {
  const a = word(w, 2);
  const b = word(w, 3);
  if (a < 0) return;
  if (tok(t, F_TYPE_A) < 0) {
    setTok(t, F_TYPE_A, a);
    setTok(t, F_TYPE_B, b);
  }
}

/** III, IV, XX: Roman numerals stay Latin in names (ул III Интернационала). */
function isRoman(t: i32): bool {
  const len = tok(t, F_LEN);
  if (len > 5) return false;
  for (let k = 0; k < len; k++) {
    const c = tokChar(t, k);
    if (c != 105 && c != 118 && c != 120 && c != 108 && c != 99) return false; // i v x l c
  }
  return true;
}

/**
 * Looks up every free token (letters, ordinals and numbers inside names) into the hit log, then reads the
 * names the hits reach: those of areas when the dictionary has its subtree index (leaves wait for
 * `expandLeaves`), every name otherwise. `prefixToken` is the token read as a prefix (hints), or −1.
 */
export function classifyNames(prefixToken: i32, deferAreas: bool = false): void {
  ensureSubtrees();
  prefixTok = prefixToken;
  hitTotal = 0;
  placeTokens = 0;
  placeGroupCount = 0;
  partCount = 0;
  ensurePlaceWords();
  wordsIndexed = 0;
  areaHeapSize = 0;
  areaWordHeapSize = 0;
  for (let t = 0; t < tokenCount && t < 64; t++) {
    if (tok(t, F_ROLE) != ROLE_FREE) continue;
    const kind = tok(t, F_KIND);
    const len = tok(t, F_LEN);
    const prefix = t == prefixToken;
    let budget = kind == KIND_DIGIT ? 0 : editBudget(len);
    if (len == 4 && !prefix) budget = 1; // азиа → азина: a missed letter in a short name
    if (prefix && len < 3) budget = 0;
    // the vocabulary is Cyrillic: a Latin word left as typed (the PLAIN reading) is read by the other variants
    if (isLatin(tokChar(t, 0)) && !isRoman(t)) continue;
    // the word being typed may be a whole type word already (`сибирский тракт 1`: тракт types the street; of four
    // letters or more: `ул`, `пр`, `пер` start too many names while typed, and cost the bounds of every prefix)
    if (prefix && len >= 4) {
      const exact = exactWord(tok(t, F_START), len);
      if (exact >= 0) addTypeHit(t, exact);
    }
    // one edit first: most typos are one, and the two-edit walk costs far more
    let n = lookup(tok(t, F_START), len, budget > 1 ? 1 : budget, prefix);
    if (n == 0 && budget > 1) n = lookup(tok(t, F_START), len, budget, prefix);
    // a word of four being typed, with the house's number after it, is whole: a missed or wrong letter, as in a word
    // of four not being typed (`мипа 46`, `щоса 103`), when it starts no word as spelled
    if (n == 0 && prefix && len == 4 && kind != KIND_DIGIT && t + 1 < tokenCount && tok(t + 1, F_KIND) == KIND_DIGIT) {
      budget = 1;
      n = lookup(tok(t, F_START), len, 1, prefix);
    }
    // a word written as it is heard, two edits or more by letters (`маяковскова`, `брацкая`): its sound key
    if (n == 0 && kind == KIND_ALPHA) n = lookupSound(tok(t, F_START), len);
    if (n == 0 && len >= 6 && kind == KIND_ALPHA && normVariant == VARIANT_PLAIN) unhitWord = true;
    // a typo rarely touches a word's first letter: an edit that changes it costs an eighth of the word more
    // (`талинский` is таллинский before шалинский)
    if (budget > 0) firstLetterRange(tokChar(t, 0));
    for (let h = 0; h < n && hitTotal < HIT_CAP; h++) {
      const w = load<i32>(HITS + (<usize>h << 3));
      const walked = load<i32>(HITS + (<usize>h << 3), 4);
      const cost = costOf(walked);
      const firstChanged = cost > 0 && (w < firstLetterLow || w > firstLetterHigh) ? 1 : 0;
      // and so does a slip a typist rarely makes: a letter typed for one far from it on the keyboard and unlike in
      // sound (`вмдная` is видная before водная: м is и's neighbour), a stray letter typed in more (trie.ts farSlip)
      const farSlip = (walked & FAR_KEY) != 0 ? 1 : 0;
      if (cost == 0 && !prefix) {
        addTypeHit(t, w);
        // an official name of four letters or more, a popular one of three (`спб`, `мск`; `рт`, `мо` are too short)
        if ((len >= 4 && isPlaceWord(w)) || (len >= 3 && wordBit(ALIAS_PLACE_WORDS, w))) addPlaceGroup((<u64>1) << <u64>t);
        if (scoped && wordBit(PLACE_PART_WORDS, w) && partCount < PLACE_PARTS_MAX) {
          unchecked(PART_TOKEN[partCount] = t);
          unchecked(PART_WORD[partCount++] = w);
        }
      } else if (cost == 1 && !prefix && len >= 4 && firstChanged == 0) {
        // a type word with one slip, its first letter kept (`улца`, `проспкт`): the type, not a leftover
        addTypeHit(t, w);
      }
      store<i32>(HIT_WORDS + (<usize>hitTotal << 2), w);
      store<i32>(HIT_INFO + (<usize>hitTotal << 2), (t << 8) | (cost * 2 + firstChanged + farSlip));
      hitTotal++;
    }
  }
  areasDeferred = false;
  if (deferAreas && scoped && prefixToken >= 0) {
    clearAreaSeen();
    areasDeferred = onlyToken(prefixToken) ? gatherAreas(0, 0) : deferPrefixAreas(prefixToken);
  }
  if (!areasDeferred) for (let h = 0; h < hitTotal; h++) readHit(h, scoped);
  if (partCount > 1) multiWordPlaces();
  if (placeTokens != 0 && scoped) readPlaceLeaves();
  listLeafHits();
}

/** A place word of more leaf names than this is not read at once: its token names no place (`placeTokens`). */
const PLACE_LEAF_CAP: i32 = 256;

/**
 * Reads now the leaf names of the words naming places (a town with no streets is a leaf, and so is a street of
 * that name), so every leaf left unread surely leaves those tokens out: the solver's bounds charge it the penalty
 * (solve/chain.ts `restLeft`). An exact word is its token's only hit (trie.ts lookup).
 */
function readPlaceLeaves(): void {
  for (let h = 0; h < hitTotal; h++) {
    const t = hitToken(h);
    if ((placeTokens & ((<u64>1) << <u64>t)) == 0) continue;
    const w = hitWord(h);
    const start = word(w, 0);
    const end = start + word(w, 1);
    if (end - start - areaCount(w) > PLACE_LEAF_CAP) {
      dropPlaceToken(t);
      continue;
    }
    for (let k = start; k < end; k++) {
      const nameId = posting(k);
      if (isArea(name(nameId, 0))) continue;
      if (!readNameWhole(nameId)) return;
    }
  }
}

/**
 * Reads leaf name `nameId` for every hit on its words, in hit order, as one pass would (a name is read by one
 * part: later parts pass it by). Reading it again changes nothing (a token hits a name once).
 */
function readNameWhole(nameId: i32): bool {
  const ws = name(nameId, 1);
  const wc = name(nameId, 2);
  for (let h = 0; h < hitTotal; h++) {
    const w = hitWord(h);
    for (let j = 0; j < wc; j++) {
      if (nameWord(ws + j, 0) != w) continue;
      hitNow = h;
      if (!readPosting(h, nameId)) return false;
      break;
    }
  }
  return true;
}

/** Every hit is token t's. */
function onlyToken(t: i32): bool {
  if (t < 0 || hitTotal == 0) return false;
  for (let h = 0; h < hitTotal; h++) if (hitToken(h) != t) return false;
  return true;
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
    const o = name(load<i32>(NAME_SLOTS + <usize>load<i32>(NAME_USED + (<usize>k << 2)) * NAME_SLOT_BYTES), 0);
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
    hitNow = load<i32>(AREA_PAIRS + (<usize>j << 3));
    if (!readPosting(hitNow, load<i32>(AREA_PAIRS + (<usize>j << 3), 4))) return;
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
  partNow++;
  readPairs(load<i32>(AREA_GROUPS + (<usize>group << 3)), load<i32>(AREA_GROUPS + (<usize>group << 3), 4));
}

/**
 * Turns the names read since the last call into object candidates: coverage check, score, best name per
 * object. An object's names are all read by one part (classifyNames or one expandLeaves), so each object is
 * made whole by one call.
 */
export function collectObjects(typing: bool = false): void {
  const firstObject = objUsed;
  for (let k = namesCollected; k < nameUsed; k++) {
    const p = NAME_SLOTS + <usize>load<i32>(NAME_USED + (<usize>k << 2)) * NAME_SLOT_BYTES;
    const nameId = load<i32>(p);
    const wordHit = (load<i32>(p, 24) & 1) != 0;
    if (!wordHit && !ordinalOnly(p)) continue;
    const total = name(nameId, 4);
    const matchedRaw = load<i32>(p, 8);
    const wordsMask = load<i32>(p, 12);
    // a town's initial and word (`Н. Тагил`) names it with both, never with one of them alone (`Тагил`, `№` folded to н)
    if ((name(nameId, 3) & NAME_INITIAL) != 0 && (wordsMask & 3) != 3) continue;
    // every significant word (weight ≥ 1) hit, or half the weight of the significant words (`имени Геннадия
    // Дмитриенко` by `Дмитриенко`, `Вильгельма де Геннина` by `Геннина`: a particle or title left out does not count)
    let significantMissed = false;
    let weakMissed = 0;
    const ws = name(nameId, 1);
    const wc = name(nameId, 2);
    for (let j = 0; j < wc && j < 31; j++) {
      if ((wordsMask & (1 << j)) != 0) continue;
      const weight = nameWord(ws + j, 1);
      if (weight >= SIGNIFICANT_WEIGHT) significantMissed = true;
      else weakMissed += weight;
    }
    // a name hit by an ordinal alone is that number's (7-й мкр), not a street's with a word missed (`1-я ул.
    // Неизвестная` is no `1-й Подъёмный`); while typing the word may still come
    if (!wordHit && significantMissed && !typing) continue;
    // while typing (hints), a name hit from its first word is still being written: Комсомольск-на-Амуре
    const fromStart = typing && (wordsMask & 1) != 0;
    if (!fromStart && significantMissed && matchedRaw * 2 < total - weakMissed) continue;
    if (!fromStart && matchedRaw * 3 < total) continue;
    // an earlier or other name loses a tie against the current official one (ул Титова, г Ростов)
    preferAdjacent(p);
    const score = load<i32>(p, 4) - (total - matchedRaw) / 5 - (name(nameId, 3) != 0 ? 5 : 0);
    const objectId = name(nameId, 0);
    const created = objUsed;
    const o = objSlot(objectId, true);
    if (o == 0) continue;
    if (objUsed > created) {
      store<i32>(o, load<i32>(p, 56), 40);
      store<i32>(o, nameId, 44);
    }
    if (score > load<i32>(o, 4)) {
      if (score > 0 && load<i32>(o, 4) <= 0 && isArea(objectId)) {
        store<i32>(RAISED + (<usize>raisedCount << 2), objectId);
        raisedCount++;
      }
      store<i32>(o, score, 4);
      store<i32>(o, load<i32>(p, 16), 8);
      store<i32>(o, load<i32>(p, 20), 12);
      store<i32>(o, name(nameId, 3) & NAME_HISTORICAL, 16);
      store<u64>(o, load<u64>(p, 32), 32);
    }
  }
  namesCollected = nameUsed;
  for (let k = firstObject; k < objUsed; k++) scoreType(objAt(k));
}

/**
 * True when candidate a came before candidate b in a one-pass reading (hits in order, names in id order):
 * the tie-breaker that keeps answers independent of the order subtrees are opened in.
 */
export function readEarlier(a: usize, b: usize): bool {
  const hitA = load<i32>(a, 40);
  const hitB = load<i32>(b, 40);
  return hitA < hitB || (hitA == hitB && load<i32>(a, 44) < load<i32>(b, 44));
}

/** Span of the tokens in a mask (last − first), 64 when empty. */
function spanOf(mask: u64): i32 {
  if (mask == 0) return 64;
  return 63 - <i32>clz<u64>(mask) - <i32>ctz<u64>(mask);
}

/** A name slot's reserve (@28): the second token to hit word `word` of the name, and what that hit gained. */
// @ts-ignore: decorator
@inline function reserveOf(word: i32, t: i32, gained: i32): i32 {
  return ((gained < 0 ? 0 : gained) << 16) | (word << 8) | t;
}

/**
 * Takes the reserve token of a word hit twice when it makes the name's tokens lie closer together: as good a hit
 * when the span shrinks, a worse one (a typo) only when the name's tokens then lie side by side, as a name is typed
 * (`Ханты-Мансийский АО, г Ханнты-Мансийск`: the city's `ханнты`, not the region's `ханты`). The name's score
 * takes the reserve's gain.
 */
function preferAdjacent(p: usize): void {
  const reserve = load<i32>(p, 28);
  if (reserve < 0) return;
  const word = (reserve >> 8) & 0xff;
  const t = reserve & 0xff;
  const gained = reserve >> 16;
  const oldToken = <i32>load<u8>(p + 40 + <usize>word);
  if (oldToken == 255) return;
  const mask = load<u64>(p, 32);
  const swapped = (mask & ~((<u64>1) << <u64>oldToken)) | ((<u64>1) << <u64>t);
  if ((mask & ((<u64>1) << <u64>t)) != 0 || spanOf(swapped) >= spanOf(mask)) return;
  const oldGained = <i32>load<u8>(p + 48 + <usize>word);
  if (gained < oldGained && spanOf(swapped) != <i32>popcnt<u64>(swapped) - 1) return;
  store<u64>(p, swapped, 32);
  store<u8>(p + 40 + <usize>word, <u8>t);
  store<u8>(p + 48 + <usize>word, <u8>gained);
  store<i32>(p, load<i32>(p, 4) - oldGained + gained, 4);
  store<i32>(p, 63 - <i32>clz<u64>(swapped), 20);
  store<i32>(p, <i32>ctz<u64>(swapped), 16);
}

/** A name hit only by an ordinal number (7-й мкр) counts when the number carried its suffix. */
function ordinalOnly(p: usize): bool {
  const t = load<i32>(p, 16);
  return t >= 0 && t < tokenCount && tok(t, F_ORDINAL) != 0;
}

/**
 * The most a type word of the query can add to a leaf the hits reach: none when no type word's type occurs at
 * a level of those leaves (types.levelMask holds every level a type occurs at).
 */
export function leafTypeBound(): i32 {
  for (let t = 0; t < tokenCount; t++) {
    const a = tok(t, F_TYPE_A);
    if (a < 0) continue;
    if (((typeLevelMask(a) | typeLevelMask(tok(t, F_TYPE_B))) & hitLeafLevels) != 0) return 30;
  }
  return 0;
}

/** The most `typeBonusBound` gives any object: 30 when a token is a type word. */
export function typeBonusMost(): i32 {
  for (let t = 0; t < tokenCount; t++) if (tok(t, F_TYPE_A) >= 0) return 30;
  return 0;
}

/** The most a type word of the query can add to object o (scoreType's bonus, whatever the name's place). */
export function typeBonusBound(o: i32): i32 {
  return typeBonusOf(obj(o, O_TYPE), obj(o, O_LEVEL));
}

/** `typeBonusBound` of an object of this type and level (type 0xffff: any type). */
function typeBonusOf(type: i32, level: i32): i32 {
  let best = 0;
  for (let t = 0; t < tokenCount; t++) {
    const a = tok(t, F_TYPE_A);
    if (a < 0) continue;
    const b = tok(t, F_TYPE_B);
    if (a == type || b == type || type == 0xffff) return 30;
    if (((typeLevelMask(a) | typeLevelMask(b)) & (1 << level)) != 0) best = 15;
  }
  return best;
}

/**
 * What a type word read as types a, b gives an object of this type and level (0xffff: any type) beside its name: 30
 * for its type, 15 for another of its level, −15 when it contradicts both; −300 for a district's type beside a
 * street's name or a street's beside a place's when the word can type no other name (`typeWordAlone`).
 */
// @ts-ignore: decorator
@inline function typeWordBonus(a: i32, b: i32, type: i32, level: i32, alone: bool = false): i32 {
  if (a == type || b == type || type == 0xffff) return 30;
  const levels = typeLevelMask(a) | typeLevelMask(b);
  if ((levels & (1 << level)) != 0) return 15;
  // a type word that can type no other name (`alone`: `typeWordAlone`) says what the name beside it is not: a
  // district's or region's beside a street's name (`Верх-Исетский р-н, ул Шаумяна`: the city's district the data
  // lacks, not б-р Верх-Исетский), a street's beside a place's (`г. Алматы, ул. Абая`: no village Абай)
  if (alone && (level >= STREET_LEVEL_FROM ? (levels & PLACE_TYPE_LEVELS) == levels : (levels & STREET_TYPE_LEVELS) == levels)) {
    return -DISTRICT_TYPE_PENALTY;
  }
  return -15;
}

/**
 * Type word t stands beside the name at token `near` with nothing on its other side in its part of the string
 * (`Верх-Исетский р-н,`; `, ул. Абая`), so it types that name or none; in `Свердловская обл Малышева` the обл is
 * Свердловская's, and in `Байконур мкр 5` the мкр the number's: neither says anything against the other name.
 */
function typeWordAlone(t: i32, near: i32): bool {
  const other = t + (t - near);
  return other < 0 || other >= tokenCount || tok(other, F_SEGMENT) != tok(t, F_SEGMENT);
}
/**
 * The word of token t is typed again elsewhere in the string (`Верх-Исетский район, б-р Верх-Исетский`: the district
 * and the street of one name): a type word beside one of the two says nothing against the name (the solver keeps one
 * of a word's tokens, and it may be the other's).
 */
function typedTwice(t: i32): bool {
  const start = tok(t, F_START);
  const len = tok(t, F_LEN);
  for (let k = 0; k < tokenCount; k++) {
    if (k == t || tok(k, F_LEN) != len || tok(k, F_KIND) != tok(t, F_KIND)) continue;
    let same = true;
    for (let c = 0; c < len && same; c++) same = u16At(NORM, tok(k, F_START) + c) == u16At(NORM, start + c);
    if (same) return true;
  }
  return false;
}
/** the levels of a street's type word (plan structure, street) */
const STREET_TYPE_LEVELS: i32 = (1 << 6) | (1 << 7);
/** the levels of a region's or district's type word (region, area, city district) */
const PLACE_TYPE_LEVELS: i32 = (1 << 1) | (1 << 2) | (1 << 4);
/** the object levels a place's type word says a name is not: plan structures and streets */
const STREET_LEVEL_FROM: i32 = 6;
const DISTRICT_TYPE_PENALTY: i32 = 300;

/** Type word next to the name: agreeing with the object's type or level adds, contradicting takes away. */
function scoreType(o: usize): void {
  const objectId = load<i32>(o);
  const type = obj(objectId, O_TYPE);
  const level = obj(objectId, O_LEVEL);
  const first = load<i32>(o, 8);
  const last = load<i32>(o, 12);
  const mask = load<u64>(o, 32);
  let bestBonus = 0;
  let bestToken = -1;
  for (let side = 0; side < 2; side++) {
    const t = side == 0 ? first - 1 : last + 1;
    if (t < 0 || t >= tokenCount) continue;
    const near = side == 0 ? first : last;
    if (tok(t, F_SEGMENT) != tok(near, F_SEGMENT)) continue;
    if ((mask & ((<u64>1) << <u64>t)) != 0) continue;
    const a = tok(t, F_TYPE_A);
    if (a < 0) continue;
    const bonus = typeWordBonus(a, tok(t, F_TYPE_B), type, level, typeWordAlone(t, near) && !typedTwice(near));
    // the word being typed may still be the start of a name (`екатеринбург ул` on the way to Ульяновская): it types
    // what it agrees with, and contradicts nothing
    if (bonus < 0 && t == prefixTok) continue;
    if (bonus > bestBonus || (bestToken < 0 && bonus < 0 && bestBonus == 0)) {
      if (bonus > 0 || bestBonus == 0) { bestBonus = bonus; bestToken = bonus > 0 ? t : -1; }
    }
  }
  store<i32>(o, bestBonus, 24);
  store<i32>(o, bestToken, 20);
}
