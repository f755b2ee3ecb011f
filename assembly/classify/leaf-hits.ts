/**
 * Leaf hits: the hits whose word is in some leaf's name (subtree.ts: an object with no children), the only ones the
 * leaves are read for (postings.ts `expandLeaves`, ordered.ts), listed once a call after the areas are read
 * (`listLeafHits`), by token (TOKEN_LEAF_HITS) and, when asked, by word (`indexHitWords`: WORD_SLOTS). What each token
 * gains at most in a leaf's name (TOKEN_GAIN) and the levels the leaves reach bound what the leaves not read yet can
 * score (bounds.ts, type-words.ts). The word slots' bound fields (@16, @20, @40, @44, @48) are worked out by bounds.ts
 * (`leafNameBound`, `shareNames`); the rest of the table is written here.
 */
import { reserve } from '../memory';
import { word, posting, name } from '../blob';
import { scoped, isArea, leafMax, leafLevels, leafCount, firstPostingAt, otherSign, OTHER_SIGN_BITS } from '../subtree';
import { hitTotal, hitToken, hitWord, gainAt, HIT_CAP } from './hit-log';
import { hash } from './id-hash';

/** hit words the word table can keep (a bigger set falls back to the per-token bound and the unordered rest) */
const WORD_SLOT_CAP: i32 = 8192;
export const WORD_SLOT_BYTES: i32 = 56;

/** the hits whose word is in some leaf's name (the only ones `expandLeaves` reads), and their postings */
export let LEAF_HITS: usize = 0;
export let leafHitCount: i32 = 0;
let leafPostings: i32 = 0;
export let leafProbes: i32 = 0;
/** TOKEN_GAIN i32 × 64: the most each token gains in a leaf's name (`leafGain` of its best hit) */
let TOKEN_GAIN: usize = 0;

/** TOKEN_LEAF_HITS i32 × 2 × 64: first index in LEAF_HITS and count of each token's leaf hits (the log is by token) */
let TOKEN_LEAF_HITS: usize = 0;
/** `leafTokensIn` looks for a token's words in a subtree when it has at most this many leaf hits */
const FEW_HITS: i32 = 8;

/** the tokens with a leaf gain (bit set) */
export let gainingTokens: u64 = 0;
/** the tokens with a hit on a word of a leaf's name, gaining or not (bit set) */
export let leafHitTokens: u64 = 0;

/** levels (bit set) of the leaves the hits can reach */
export let hitLeafLevels: i32 = 0;

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
export let WORD_SLOTS: usize = 0;
let WORD_INDEX: usize = 0;
/** the signs (subtree.ts otherSign) of the leaf hits' words, one bit each, set by `indexHitWords` */
let HIT_SIGNS: usize = 0;
const HIT_SIGN_BYTES: i32 = (1 << OTHER_SIGN_BITS) >> 3;
let WORD_USED: usize = 0;
export let wordUsed: i32 = 0;
export let HIT_NEXT: usize = 0;
export let HIT_SLOT: usize = 0;
/** 0 not built for this call, 1 built, −1 too many words */
let wordsIndexed: i32 = 0;

export function setupLeafHits(): void {
  if (LEAF_HITS != 0) return;
  LEAF_HITS = reserve(<usize>HIT_CAP << 2);
  TOKEN_GAIN = reserve(64 << 2);
  TOKEN_LEAF_HITS = reserve(64 << 3);
  WORD_SLOTS = reserve(<usize>WORD_SLOT_CAP * WORD_SLOT_BYTES);
  WORD_INDEX = reserve(<usize>WORD_SLOT_CAP << 3);
  HIT_SIGNS = reserve(<usize>HIT_SIGN_BYTES);
  WORD_USED = reserve(<usize>WORD_SLOT_CAP << 2);
  for (let i = 0; i < WORD_SLOT_CAP; i++) store<i32>(WORD_INDEX + (<usize>i << 3), -1);
  HIT_NEXT = reserve(<usize>HIT_CAP << 2);
  HIT_SLOT = reserve(<usize>HIT_CAP << 2);
}

/** Binary-search steps of finding a place in a list of `count` (the first at or after an id), two to start. */
// @ts-ignore: decorator
@inline export function searchSteps(count: i32): i32 {
  return 2 + 32 - clz<i32>(count);
}

/** The i-th hit `expandLeaves` reads (LEAF_HITS, in hit order). */
export function leafHit(i: i32): i32 {
  return load<i32>(LEAF_HITS + (<usize>i << 2));
}
export function leafHits(): i32 {
  return leafHitCount;
}

/** Postings `expandLeaves` reads over the whole id range: what reading every leaf name costs. */
export function postingsOfHits(): i32 {
  return leafPostings;
}

/** The most token t gains in a leaf's name. */
export function tokenLeafGain(t: i32): i32 {
  return load<i32>(TOKEN_GAIN + (<usize>t << 2));
}

/**
 * LEAF_HITS: the hits `expandLeaves` reads, with their postings and search steps; TOKEN_GAIN and the tokens with a
 * gain. The word table is built again when next asked (`indexHitWords`).
 */
export function listLeafHits(): void {
  wordsIndexed = 0;
  leafHitCount = 0;
  leafPostings = 0;
  leafProbes = 0;
  hitLeafLevels = 0;
  gainingTokens = 0;
  leafHitTokens = 0;
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
  for (let t = 0; t < 64; t++) if (tokenLeafGain(t) > 0) gainingTokens |= (<u64>1) << <u64>t;
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

/**
 * The name of these facts has one word besides the cursor's, and no hit word has that word's sign (HIT_SIGNS): the
 * name holds no other hit word, and is bounded as an alone word's (`екатеринбург степанна разин`: the copies of ул
 * Степана Халтурина on the cursor of степана, whose other word no hit word is, were each looked at, their facts
 * bounding them as if разин gained on it).
 */
// @ts-ignore: decorator
@inline export function otherUnhit(facts: u64): bool {
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

/** What hit h can gain on its word in a leaf's name at most (the word's greatest weight there). */
// @ts-ignore: decorator
@inline export function leafGain(h: i32): i32 {
  return gainAt(h, leafMax(hitWord(h)));
}

/** Slot of word w in WORD_SLOTS (created when `create`), 0 when absent or the table is full. */
export function wordSlot(w: i32, create: bool): usize {
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
export function indexHitWords(): bool {
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

/** The most the hits on the word of slot p gain in a name where it weighs `weight`. */
export function slotGainAt(p: usize, weight: i32): i32 {
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
