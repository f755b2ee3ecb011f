/**
 * The ordered reading of leaf names (solve/scope.ts, the rest): the names the leaf hits reach, by key of an order
 * (subtree.ts ensureOrder), so that the solver reads the best first and stops when none left can matter:
 * `beginOrdered`, then `orderedKey` (the next name's key, `nextName`, `nextHit`), `orderedBound` (what its object can
 * score), then `readOrdered` or `skipOrdered`; `primeOrdered` reads early the name its facts bound highest. A cursor is
 * dropped when its names cannot matter (`minorHit`: MaxScore over the tokens ranked by gain, `rankTokens`;
 * `tiedAfter`), and a name is passed by on the facts kept beside it (subtree.ts LEAF_FACTS: `belowOnFacts`,
 * `alikeAfter`), with no read of the name or its object.
 */
import { reserve } from '../memory';
import { name, nameCount, nameWord, obj, O_LEVEL } from '../blob';
import {
  scoped, leafStart, leafCount, orderedName, orderTop, wordTopKey, NO_KEY, tailHasLeads, orderedKeyAt, leafFacts, factsHaveLead,
  hasShortKey, leadsHaveWanted, touchHouses,
} from '../subtree';
import { heapAt, setHeapAt, heapify, siftDown, popHeap, entryOf, entryIndex } from '../heap';
import { hitToken, hitWord, HIT_CAP } from './hit-log';
import { nameRead, newPart } from './candidates';
import { readObject } from './postings';
import { leafHit, leafHitCount, leafHitTokens, gainingTokens, tokenLeafGain, leafGain, indexHitWords, otherUnhit, slotGainAt, HIT_SLOT } from './leaf-hits';
import {
  NO_NEED, leftPenalty, houseShortfall, shortHouseLoss, shortFirst, shortSecond, SHARE_AFTER_LOOKS, sharedBuilt, shareNames, isShared,
  coveredBound, sharingBound, nameBound,
} from './bounds';
import { leafTypeBound, typeBonusOf, besideTypeBonus } from './type-words';

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

/** what a leaf's name must score, at a key of the ordered reading, to matter (solve/scope.ts, `beginOrdered`) */
let neededAt: (key: i32) => i32 = (key: i32): i32 => NO_NEED;
/** a name scoring exactly what it needs, at this place of a one-pass reading (hit, name id) and key of the order, cannot matter */
let tiedOut: (hit: i32, nameId: i32, key: i32) => bool = (hit: i32, nameId: i32, key: i32): bool => false;

/**
 * The tokens with a leaf gain, by gain ascending (TOKEN_RANK i32 × 64: a token's place, TOKEN_SUM i32 × 64: the
 * gains up to and including that place). A leaf's name scores at most the gains of the tokens that hit it (a token
 * hits a name once), so a name hit only by the first `minorTokens` tokens, whose gains sum below what the ordered
 * reading needs, cannot matter: their cursors are dropped (MaxScore, as in top-k retrieval).
 */
let TOKEN_RANK: usize = 0;
let TOKEN_SUM: usize = 0;
/** TOKEN_AT i32 × 64: the token at each place of TOKEN_RANK */
let TOKEN_AT: usize = 0;
let rankedTokens: i32 = 0;
let minorTokens: i32 = 0;
/** the first `minorTokens` tokens by gain (bit set) */
let minorMask: u64 = 0;

export function setupOrdered(): void {
  if (CURSORS != 0) return;
  TOKEN_RANK = reserve(64 << 2);
  TOKEN_SUM = reserve(64 << 2);
  TOKEN_AT = reserve(64 << 2);
  CURSORS = reserve(<usize>HIT_CAP << 2);
  READER = reserve(<usize>HIT_CAP << 3);
}

/** Forgets the names looked at (a new query). */
export function clearRestLooks(): void {
  restLooks = 0;
}

/** TOKEN_RANK and TOKEN_SUM: the tokens with a leaf gain by gain ascending (insertion, at most 64). */
export function rankTokens(): void {
  rankedTokens = 0;
  minorTokens = 0;
  minorMask = 0;
  for (let t = 0; t < 64; t++) {
    store<i32>(TOKEN_RANK + (<usize>t << 2), 64);
    const gain = tokenLeafGain(t);
    if (gain <= 0) continue;
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
  newPart();
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
  newPart();
  readObject(nextName);
}
