/**
 * Bounds on what the names not read yet can score, so that a solver stops reading when none can change its answer
 * (solve/scope.ts, solve/chain.ts, solve/suggest.ts): `leafGainBound` (per token), `leafNameBound` (per word and its
 * companions, subtree.ts), `nameBound` (one name from its words, without reading it); and what the solver charges the
 * names of the rest for what they leave out (`chargeLeftTokens`, `chargeMissingHouse`, `chargeShortHouse`, until the
 * next `resetCandidates`), which the ordered reading (ordered.ts) takes off its bounds. A word of many leaf names that
 * shares a few with another hit word has them told apart by SHARED (`shareNames`). `leafNameBound` and `shareNames`
 * write the bound fields of the hit words' slots (leaf-hits.ts WORD_SLOTS @16, @20, @40, @44, @48).
 */
import { reserve } from '../memory';
import { word, posting, name, nameWord } from '../blob';
import { leafRepeat, leafCount, companionStart, companionCount, companion, companionWeight, lightestName } from '../subtree';
import { gainAt } from './hit-log';
import { tokenLeafGain, leafHitTokens, indexHitWords, wordSlot, slotGainAt, WORD_SLOTS, WORD_SLOT_BYTES, wordUsed, HIT_NEXT } from './leaf-hits';
import { idEntry, clearIds } from './id-hash';

/** what a leaf's name must score, at a key of the ordered reading, to matter (solve/scope.ts); NO_NEED: anything */
export const NO_NEED: i32 = -2147483648;

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

/** What a leaf of the rest loses when it has no house of the leads wanted (subtree.ts leadsWanted). */
export let houseShortfall: i32 = 0;

/**
 * The house typed: a leaf of the rest with no house key of the leads wanted (set by the solver through subtree.ts
 * leadsWanted) gets `shortfall` less than the solver's extra says (its house bonus). Until the next
 * `resetCandidates`; `minorHit` then drops a cursor whose names left have no such house and cannot reach without it.
 */
export function chargeMissingHouse(shortfall: i32): void {
  houseShortfall = shortfall;
}

/** what a leaf of the rest loses when no house key of it is the two digits typed or them and one character more */
export let shortHouseLoss: i32 = 0;
export let shortFirst: i32 = 0;
export let shortSecond: i32 = 0;

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

/** Forgets the charges (a new query). */
export function clearCharges(): void {
  leftCost = 0;
  leftTokens = 0;
  leftTypingCost = 0;
  leftTyping = 0;
  houseShortfall = 0;
  shortHouseLoss = 0;
}

/** What a leaf's name of the rest hit by at most the tokens `held` surely loses for the tokens it leaves out. */
// @ts-ignore: decorator
@inline export function leftPenalty(held: u64): i32 {
  return leftCost * <i32>popcnt<u64>(leftTokens & leafHitTokens & ~held) +
    leftTypingCost * <i32>popcnt<u64>(leftTyping & leafHitTokens & ~held);
}

/**
 * The most a name whose cursor's word gains `gained` in it can score when other hit words may be in its `other`
 * weight (LEAF_FACTS; 255 or more when unknown): they gain at most what they gain as the word's companions (slot
 * @40) on at most the weight they have there (@44) or the name's other weight, whichever is less, and the rest of
 * that weight pays the coverage penalty; it pays at least the left-token penalty of all the companions' tokens
 * (@48). Never below `nameBound`.
 */
export function sharingBound(slot: usize, gained: i32, other: i32, earlier: bool): i32 {
  const othersGain = load<i32>(slot, 40);
  const reach = other >= 255 || other > load<i32>(slot, 44) ? load<i32>(slot, 44) : other;
  const covered = other >= 255 ? 0 : (other - reach) / 5;
  return gained + (othersGain < reach ? othersGain : reach) - covered - (earlier ? 5 : 0) - load<i32>(slot, 48);
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
export const SHARE_AFTER_LOOKS: i32 = 32;
/** `shareNames` ran in this call */
export let sharedBuilt: bool = false;
let SHARED: usize = 0;
let SHARED_USED: usize = 0;
let sharedUsed: i32 = 0;
let sharedWork: i32 = 0;

export function setupBounds(): void {
  if (SHARED != 0) return;
  SHARED = reserve(<usize>SHARED_CAP << 2);
  SHARED_USED = reserve(<usize>(SHARED_CAP >> 1) << 2);
  for (let i = 0; i < SHARED_CAP; i++) store<i32>(SHARED + (<usize>i << 2), -1);
}

/**
 * A word of many leaf names that shares a few with another hit word (`верхний` with a word `уфал` starts, in one
 * name of its 729 at 10 M) is not alone, so every name its cursor came to was read to bound it. Such a word's slot
 * has @20 3 (`leafNameBound`); once the call has looked at SHARE_AFTER_LOOKS names one by one, SHARED gets the
 * names of each such word that hold another hit word too (each of the other word's names searched among its own),
 * and the word's slot 2: a name of its cursor not in SHARED holds no other hit word, so its bound is told by its
 * facts as an alone word's (`belowOnFacts`). A word whose searches do not pay or fit gets 0.
 */
export function shareNames(): void {
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
@inline export function isShared(n: i32): bool {
  return load<i32>(idEntry(SHARED, SHARED_CAP, n)) == n;
}

/**
 * The most leaf name n can score from this call's hits without reading it: its words' best gains, less the
 * coverage penalty on the weight no hit reaches and the earlier-name penalty (collectObjects), and less what it
 * pays for the tokens no hit on its words holds (`leftPenalty`: a bound for the rest only, where it is used).
 */
export function nameBound(n: i32): i32 {
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
export function coveredBound(gained: i32, total: i32, reached: i32, earlier: bool, held: u64): i32 {
  return gained - (total > reached ? (total - reached) / 5 : 0) - (earlier ? 5 : 0) - leftPenalty(held);
}
