/**
 * Chain solver: every object candidate is tried as the deepest level of the answer. Its chain score adds
 * the scores of its ancestors that are candidates on other tokens, the type words next to them, the
 * house when the parsed house key exists under it, and the postcode when it agrees. The best chain wins;
 * the runner-up that is not part of it decides quality.unique.
 *
 * Candidates come in two steps (solve/scope.ts): the areas the query names first, then the streets under
 * them, best bound first, until no chain left unread can beat the winner or reach the runner-up margin; a
 * street name that repeats in thousands of places is scored where the query puts it. The answer is the one
 * scoring every candidate would give: ties fall to the candidate read first in one pass (classify/candidates.ts `readEarlier`).
 *
 * Solvers, in order (one reason each), each the function of its name below (`scopeSolver` … `commonTypePenalty`):
 * `solve` runs the scope and the floor, `chainScore` adds the solvers that score, `evaluate` takes off the place
 * penalty and `tieBreak` applies the tie-breakers:
 *   ScopeSolver      the streets of the places named before the streets of the same name elsewhere, and those by
 *                    registry, weight and type, the tie-breaks below (speed only)
 *   FloorFilter      a reading of the query that cannot beat an earlier reading of it stops (speed only)
 *   AncestorSolver   region → … → street agreement is the strongest evidence of the right street
 *   HouseSolver      a house that exists under the street separates streets of the same name
 *   PostcodeSolver   a postcode in the input separates towns with the same street
 *   PlacePenalty     a chain that reads none of the words naming a typed region or city is not that place's (`placeLeftBy`)
 *   RegistryPenalty  tie-breaker: an object the official registry (GAR) confirms beats one known only from OSM
 *   WeightPenalty    tie-breaker: the bigger place (population, houses) is the likelier one
 *   CommonTypePenalty last tie-breaker: in one town, a street of the country's commonest type (ул) beats another (пл)
 */
import {
  obj, house, houseKeyChar, O_FLAGS, OBJ_REGISTRY, O_PARENT, O_LEVEL, O_HOUSE_START, O_HOUSE_COUNT, O_POSTCODE, O_WEIGHT, H_KEY, H_KEY_LEN,
  H_BASE_LEN, O_TYPE, typeFlags, TYPE_COMMON_STREET, typeLevelMask, objectCount,
} from '../blob';
import { objSlot, objAt, objUsed, readEarlier } from '../classify/candidates';
import { leafGainBound, leafNameBound, chargeMissingHouse } from '../classify/bounds';
import { nextHit, nextName } from '../classify/ordered';
import { typeBonusBound, leafTypeBound } from '../classify/type-words';
import { placeTokens, readsTypedPlace } from '../classify/places';
import { chainWeight as pathWeight, ensureOrder, leadsHaveFirst, leadsHavePair, leadsWanted, clearLeadsWanted, postcodeSlice, postcodeObject, scoped } from '../subtree';
import { typedPostcode } from '../house/grammar';
import { HOUSE_KEY, houseKeyLen, houseBaseLen, HOUSE_ALT_KEY, houseAltKeyLen, houseFractionBaseLen, HOUSE_FRACTION_BUILD_KEY, houseLiterBaseLen, HOUSE_WIDE_KEY, houseWideKeyLen } from '../house/key';
import { setU16, u16At } from '../memory';
import { isCyr, isDigit } from '../text';
import { callCount } from '../trie';
import { openScope, tightenScope, nextBound, openNext, nextIsOrdered, passBelow, primeRest, restKey, openPostcode, NO_BOUND, TIE_ANY_KEY } from './scope';

/** quality.unique: a runner-up at or above best − UNIQUE_MARGIN makes the answer not unique (answer.ts) */
const UNIQUE_MARGIN: i32 = 30;
const HOUSE_BONUS: i32 = 80;
/**
 * What a chain loses that reads none of the words naming a region or a city as typed (classify/places.ts `placeTokens`):
 * `Казань, ул Малышева 5` is not Екатеринбург's street with Казань left over, but Казань with the street unfound.
 * More than a street, its type and a house gain: the place the string names wins over any chain leaving it out.
 */
const PLACE_LEFT_PENALTY: i32 = 1000;
export const POSTCODE_BONUS: i32 = 20;

export let bestObject: i32 = -1;
export let bestHouse: i32 = -1;
export let bestHouseExact: bool = false;
/** the best chain's house is the wide reading's (house/key.ts `HOUSE_WIDE_KEY`: `84-86`, `59б1`) */
export let bestHouseWide: bool = false;
/** the best chain's house is the alternative key's (house/key.ts `HOUSE_ALT_KEY`: `73/1` as 73к1, `5 1` as 5к1) */
export let bestHouseAlt: bool = false;
export let bestScore: i32 = -1000000;
export let bestMask: u64 = 0;
export let bestHistorical: bool = false;
export let runnerScore: i32 = -1000000;
/**
 * A runner-up that ties the winner is of its kind (`tieDepth` of its level: two towns, two streets): the answer is
 * not unique (quality.unique 2). A tie the tie-break settles by kind (a capital before a district named after it, a
 * town before a street) is only doubtful (1).
 */
export let runnerTies: bool = false;
/** type tokens the best chain used (bit set) */
export let bestTypeMask: u64 = 0;

/** hints rank houses themselves (suggest.ts): their chains are scored without the house */
let withHouse = true;
export function scoreHouses(on: bool): void {
  withHouse = on;
}

let chainMask: u64 = 0;
let chainTypeMask: u64 = 0;
let chainHistorical: bool = false;
let chainHouse: i32 = -1;
let chainHouseExact: bool = false;
let chainHouseWide: bool = false;
let chainHouseAlt: bool = false;
let chainWeight: i32 = 0;

/** Looks for the parsed house key among the houses of object o; sets chainHouse. Returns the bonus. */
export function matchHouse(o: i32): i32 {
  chainHouse = -1;
  chainHouseExact = false;
  chainHouseWide = false;
  chainHouseAlt = false;
  if (houseKeyLen == 0) return 0;
  const start = obj(o, O_HOUSE_START);
  const count = obj(o, O_HOUSE_COUNT);
  // a house spelled as typed read wide (`84-86`, `59б1`) comes before the narrow reading's (house 84, flat 86)
  const wide = houseWithKey(start, count, HOUSE_WIDE_KEY, houseWideKeyLen);
  if (wide >= 0) {
    chainHouse = wide;
    chainHouseExact = true;
    chainHouseWide = true;
    return HOUSE_BONUS;
  }
  let baseHit = -1;
  // `12 к4` typed, `12 лит Б к4` in the dictionary (key 12бк4): every part typed is the house's, and it has a
  // letter besides; a better guess than the first house of number 12 (`12 к3`), though no more certain
  let letterHit = -1;
  const lettered = letterable();
  // `5/1` typed where the street has neither 5/1 nor 5к1: the house of the number before the fraction (5, else
  // the first 5…), as `5 к9` is house 5 when it has no corpus 9
  let fractionHit = -1;
  // `5 литер Б` typed where the street has no 5б: house 5 (the plain one first), as `5 к9` is house 5
  let literHit = -1;
  for (let h = start; h < start + count; h++) {
    const off = house(h, H_KEY);
    const len = house(h, H_KEY_LEN);
    if (len == houseKeyLen && keyEquals(off, houseKeyLen)) {
      chainHouse = h;
      chainHouseExact = true;
      return HOUSE_BONUS;
    }
    // of the houses of the number typed, the plain one, else the first in natural order (37 к9 before 37 к12),
    // not the registry's first
    baseHit = numberHouse(h, off, len, houseBaseLen, baseHit, true);
    if (lettered && letterHit < 0 && keyWithLetter(off, len, false)) letterHit = h;
    fractionHit = numberHouse(h, off, len, houseFractionBaseLen, fractionHit, false);
    literHit = numberHouse(h, off, len, houseLiterBaseLen, literHit, false);
  }
  let alt = houseWithKey(start, count, HOUSE_ALT_KEY, houseAltKeyLen);
  // `7/2` where the registry has neither 7/2 nor 7к2 but 7 стр 2: the fraction's number is the building's
  if (alt < 0 && houseFractionBaseLen > 0) alt = houseWithKey(start, count, HOUSE_FRACTION_BUILD_KEY, houseAltKeyLen);
  if (alt >= 0) {
    chainHouse = alt;
    chainHouseExact = true;
    chainHouseAlt = true;
    return HOUSE_BONUS;
  }
  if (letterHit >= 0) {
    chainHouse = letterHit;
    return 50;
  }
  if (baseHit >= 0) {
    chainHouse = baseHit;
    return 50;
  }
  if (fractionHit >= 0) {
    chainHouse = fractionHit;
    return 50;
  }
  if (literHit >= 0) {
    chainHouse = literHit;
    return 50;
  }
  return 0;
}

/**
 * The house to keep of a number whose key is the parsed key's first `baseLen` characters (0: none), given house h
 * (key at `off`, `len` long) and `hit`, the one kept so far (−1): h when it is of that number and nothing is kept, or
 * when the kept one is not the plain number and h is (or, with `natural`, comes first in natural order); else `hit`.
 */
function numberHouse(h: i32, off: i32, len: i32, baseLen: i32, hit: i32, natural: bool): i32 {
  if (baseLen == 0 || house(h, H_BASE_LEN) != baseLen || !keyEquals(off, baseLen)) return hit;
  if (hit < 0) return h;
  if (house(hit, H_KEY_LEN) == baseLen) return hit;
  return len == baseLen || (natural && houseKeyBefore(h, hit)) ? h : hit;
}

/** House a's key before house b's in natural order (runs of digits by their value: 35к2 before 35к10), else by id. */
export function houseKeyBefore(a: i32, b: i32): bool {
  const ao = house(a, H_KEY);
  const al = house(a, H_KEY_LEN);
  const bo = house(b, H_KEY);
  const bl = house(b, H_KEY_LEN);
  let i = 0;
  let j = 0;
  while (i < al && j < bl) {
    const ca = houseKeyChar(ao + i);
    const cb = houseKeyChar(bo + j);
    if (isDigit(ca) && isDigit(cb)) {
      let ie = i;
      while (ie < al && isDigit(houseKeyChar(ao + ie))) ie++;
      let je = j;
      while (je < bl && isDigit(houseKeyChar(bo + je))) je++;
      // a longer run is a bigger number (house numbers carry no leading zeros)
      if (ie - i != je - j) return ie - i < je - j;
      for (; i < ie; i++, j++) {
        const x = houseKeyChar(ao + i);
        const y = houseKeyChar(bo + j);
        if (x != y) return x < y;
      }
    } else {
      if (ca != cb) return ca < cb;
      i++;
      j++;
    }
  }
  if (al - i != bl - j) return al - i < bl - j;
  return a < b;
}

/** The parsed key has more than a base, and the base ends in a digit: a letter may stand after it (keyWithLetter). */
export function letterable(): bool {
  if (houseKeyLen <= houseBaseLen || houseBaseLen == 0) return false;
  return isDigit(u16At(HOUSE_KEY, houseBaseLen - 1));
}

/**
 * Whether the dictionary's house key at `off` is the parsed key with one letter after its base (`12к4` →
 * `12бк4`: the registry's литера stands between number and corpus); with `prefix`, whether it starts so (hints:
 * `12к` → `12бк4`). Only for a parsed key that is `letterable()` (the caller asks that once).
 */
export function keyWithLetter(off: i32, len: i32, prefix: bool): bool {
  if (prefix ? len <= houseKeyLen : len != houseKeyLen + 1) return false;
  if (!isCyr(houseKeyChar(off + houseBaseLen)) || !keyEquals(off, houseBaseLen)) return false;
  for (let k = houseBaseLen; k < houseKeyLen; k++) if (houseKeyChar(off + k + 1) != u16At(HOUSE_KEY, k)) return false;
  return true;
}

/** The first of houses [start, start + count) whose key is `key[0…len)`, −1 when none (or len 0). */
function houseWithKey(start: i32, count: i32, key: usize, len: i32): i32 {
  if (len == 0) return -1;
  for (let h = start; h < start + count; h++) if (house(h, H_KEY_LEN) == len && keyEquals(house(h, H_KEY), len, key)) return h;
  return -1;
}

/** Whether the dictionary's house key chars from `off` are `key[0…len)` (the parsed HOUSE_KEY by default). */
export function keyEquals(off: i32, len: i32, key: usize = 0): bool {
  const k0 = key == 0 ? HOUSE_KEY : key;
  for (let k = 0; k < len; k++) if (houseKeyChar(off + k) != u16At(k0, k)) return false;
  return true;
}

/**
 * Score of the chain ending at the candidate in slot p: the solvers that add to it, in order (the top of the file).
 * The tie-breaks (`tieBreak`) and the reading order (`solve`) are the others.
 */
export function chainScore(p: usize): i32 {
  const o = load<i32>(p);
  let total = ancestorSolver(p, o);
  total += houseSolver(o);
  total += postcodeSolver(o);
  return total;
}

/**
 * AncestorSolver: region → … → street agreement is the strongest evidence of the right street. The candidate's own
 * score and its type word's, plus those of each ancestor that is a candidate on other tokens; sets the chain's masks,
 * whether it is historical and its weight (its biggest place's, WeightPenalty's).
 */
// @ts-ignore: decorator
@inline function ancestorSolver(p: usize, o: i32): i32 {
  let total = load<i32>(p, 4) + load<i32>(p, 24);
  chainMask = load<u64>(p, 32);
  chainTypeMask = 0;
  const typeTok = load<i32>(p, 20);
  if (typeTok >= 0) chainTypeMask |= (<u64>1) << <u64>typeTok;
  chainHistorical = load<i32>(p, 16) != 0;
  chainWeight = obj(o, O_WEIGHT);
  let a = obj(o, O_PARENT);
  while (a >= 0) {
    const q = objSlot(a, false);
    if (q != 0) {
      const m = load<u64>(q, 32);
      if ((m & chainMask) == 0 && load<i32>(q, 4) > 0) {
        total += load<i32>(q, 4) + load<i32>(q, 24);
        chainMask |= m;
        const tt = load<i32>(q, 20);
        if (tt >= 0) chainTypeMask |= (<u64>1) << <u64>tt;
        if (load<i32>(q, 16) != 0) chainHistorical = true;
      }
    }
    const w = obj(a, O_WEIGHT);
    if (w > chainWeight) chainWeight = w;
    a = obj(a, O_PARENT);
  }
  return total;
}

/** HouseSolver: a house that exists under the street separates streets of the same name (`matchHouse`; not for hints). */
// @ts-ignore: decorator
@inline function houseSolver(o: i32): i32 {
  if (withHouse) return matchHouse(o);
  chainHouse = -1;
  return 0;
}

/** PostcodeSolver: a postcode in the input separates towns with the same street (o or a place above it has it). */
// @ts-ignore: decorator
@inline function postcodeSolver(o: i32): i32 {
  const postcode = typedPostcode();
  if (postcode <= 0) return 0;
  for (let a = o; a >= 0; a = obj(a, O_PARENT)) if (obj(a, O_POSTCODE) == postcode) return POSTCODE_BONUS;
  return 0;
}

/** Weight of the last chain scored (population of its biggest place). */
export function lastChainWeight(): i32 {
  return chainWeight;
}
export function lastChainMask(): u64 {
  return chainMask;
}
export function lastChainTypeMask(): u64 {
  return chainTypeMask;
}
export function lastChainHouse(): i32 {
  return chainHouse;
}
export function lastChainHouseExact(): bool {
  return chainHouseExact;
}

/** Object a is o or stands above it. */
export function isAncestor(a: i32, o: i32): bool {
  let x = o;
  while (x >= 0) {
    if (x == a) return true;
    x = obj(x, O_PARENT);
  }
  return false;
}

/** What a leaf not read yet can add to a chain besides its words: its type word, the house, the postcode. */
let extra: i32 = 0;
function leafExtra(): i32 {
  return leafTypeBound() + (withHouse && houseKeyLen > 0 ? HOUSE_BONUS : 0) +
    (typedPostcode() > 0 ? POSTCODE_BONUS : 0);
}
/**
 * What every leaf not read yet surely loses to PLACE_LEFT_PENALTY when no candidate on its path reads a token naming
 * a place: the leaves whose names do were read with the areas (classify/places.ts readPlaceLeaves). So `Новосибирск, ул Ленина 5`
 * bounds the thousands of ул Ленина elsewhere below the city, and does not read them.
 */
let restLeft: i32 = 0;
function anchorExtra(o: i32): i32 {
  return extra - placeLeftUnder(o);
}
/** Some candidate on o's path (o and its ancestors) reads a token naming a place. */
function pathReadsPlace(o: i32): bool {
  for (let a = o; a >= 0; a = obj(a, O_PARENT)) {
    const q = objSlot(a, false);
    if (q != 0 && load<i32>(q, 4) > 0 && (load<u64>(q, 32) & placeTokens) != 0) return true;
  }
  return false;
}

/** What a chain reading the tokens `mask` loses to PLACE_LEFT_PENALTY: all of it when it reads no place typed. */
export function placeLeftBy(mask: u64): i32 {
  return placeTokens != 0 && !readsTypedPlace(mask) ? PLACE_LEFT_PENALTY : 0;
}

/**
 * What every leaf of the rest (no candidate above it) not read yet surely loses to PLACE_LEFT_PENALTY: every leaf name
 * a place word is in was read with the areas (classify/places.ts readPlaceLeaves), so a leaf not read yet reads no such token.
 */
export function placeLeftOfRest(): i32 {
  return placeTokens != 0 && scoped ? PLACE_LEFT_PENALTY : 0;
}

/** The same for a leaf not read yet under o: nothing when some candidate on o's path reads a token naming a place. */
export function placeLeftUnder(o: i32): i32 {
  return placeTokens != 0 && scoped && !pathReadsPlace(o) ? PLACE_LEFT_PENALTY : 0;
}

/** The rest is read by registry, then chain weight, greatest first: the tie-breaks after score and level. */
const ORDER_CHAIN: i32 = 0;
function chainKey(o: i32): i32 {
  const weight = pathWeight(o);
  const capped = weight < 0 ? 0 : weight < (1 << 29) ? weight : (1 << 29) - 1;
  return ((obj(o, O_FLAGS) & OBJ_REGISTRY) != 0 ? 1 << 30 : 0) | (capped << 1) | (commonStreet(o) ? 1 : 0);
}

/** Object o has the country's commonest street type (the last tie-break, `evaluate`). */
function commonStreet(o: i32): bool {
  return (typeFlags(obj(o, O_TYPE)) & TYPE_COMMON_STREET) != 0;
}

/** Builds the reading order of standardize now (at load) rather than in the first query. */
export function prepareChainOrder(): void {
  ensureOrder(ORDER_CHAIN, chainKey);
}
function chainExtraOf(key: i32): i32 {
  return extra - restLeft;
}
/** What leaf o adds besides its words: as `leafExtra`, with its own type word (its house: `chainHouseLoss`). */
function chainExtraOfLeaf(o: i32, key: i32): i32 {
  return extra - restLeft - leafTypeBound() + typeBonusBound(o);
}
/**
 * The characters a house key of the leaf must start with for `matchHouse` to find `key` (of `keyLen`, base `baseLen`):
 * every house it takes starts with the typed base (the exact key, a house of that base, one with a letter after
 * it, the wide key), so its first two characters when the base has two, else its first (c2 −1).
 */
// @ts-ignore: decorator
@inline function leadOf(key: usize, baseLen: i32, second: bool): i32 {
  return second ? (baseLen > 1 ? u16At(key, 1) : -1) : u16At(key, 0);
}

/** Some house key of object o starts as `key` must (`leadOf`; subtree.ts HOUSE_LEADS). */
function hasLeadOf(o: i32, key: usize, baseLen: i32): bool {
  const second = leadOf(key, baseLen, true);
  return second >= 0 ? leadsHavePair(o, leadOf(key, baseLen, false), second) : leadsHaveFirst(o, leadOf(key, baseLen, false));
}

/** What leaf o's houses take from `chainExtraOfLeaf`: the house bonus it cannot have (HouseSolver's bonus). */
function chainHouseLoss(o: i32, slack: i32): i32 {
  if (!withHouse || houseKeyLen == 0) return 0;
  // no house key starts as the typed one or the alternative must: matchHouse finds nothing, as the first two
  // characters of its keys say (subtree.ts HOUSE_LEADS); the alternative (`73к1` for `73/1`) is taken whole
  if (houseBaseLen > 0 && !hasLeadOf(o, HOUSE_KEY, houseBaseLen) &&
    (houseAltKeyLen == 0 || !hasLeadOf(o, HOUSE_ALT_KEY, houseAltKeyLen)) &&
    (houseFractionBaseLen == 0 || !hasLeadOf(o, HOUSE_KEY, houseFractionBaseLen)) &&
    (houseLiterBaseLen == 0 || !hasLeadOf(o, HOUSE_KEY, houseLiterBaseLen))) return HOUSE_BONUS;
  // matchHouse's side effects (chainHouse) are read only right after chainScore, never across this call
  return HOUSE_BONUS - matchHouse(o);
}

/**
 * A leaf of the rest that ties the winner loses the tie-break when it comes after it in the order (a lower key, or
 * the same key and a later place in one pass), and cannot make quality.unique another: a runner-up ties the
 * winner already, and no leaf is deeper than it (a house typed and found, or a street when none is typed).
 */
function tiesLost(): bool {
  return runnerScore >= bestScore && bestLevel >= (withHouse && houseKeyLen > 0 ? 8 : 7);
}

/**
 * The rest read in order can no longer change the answer: it can at best tie the winner's score, not pass its
 * level, and loses the other tie-breaks (registry and weight by its key, then the one-pass order), while the
 * runner-up already ties the winner (quality.unique cannot change).
 */
function restLosesTies(bound: i32): bool {
  if (bound > bestScore || !tiesLost()) return false;
  const key = chainKey(bestObject);
  if (restKey != key) return restKey < key;
  const hit = load<i32>(bestSlot, 40);
  return hit < nextHit || (hit == nextHit && load<i32>(bestSlot, 44) < nextName);
}

/**
 * The best score of the earlier readings of this call (readings.ts: four foldings, a bare number read both ways):
 * a reading that cannot beat it is dropped whole, so it may stop as soon as neither its best nor anything
 * unread can (FloorFilter).
 */
let floor: i32 = -2000000;
let floorCall: i32 = -1;
/**
 * This reading wins a tie with the floor (readings.ts reads the variants in another order than the one that breaks
 * their ties, so an earlier variant read later keeps a tie): it may stop only below the floor.
 */
let floorTies = false;
export function setFloorTies(ties: bool): void {
  floorTies = ties;
}

let bestSlot: usize = 0;
let bestWeight: i32 = -1;
let bestLevel: i32 = 0;
let bestDepth: i32 = 0;
let bestRegistry: bool = false;
let bestCommon: bool = false;

/**
 * How deep an answer counts in a tie: a house, then a city, then a settlement or a region of a city's type (Алматы,
 * Астана: not the districts named after them; the city Київ before the region Київ), then a street, then the other
 * levels by depth. A city before a village of its name: KZ `Актобе` is the regional centre, not the с Актобе of
 * Абай обл (KATO gives no population to tell them apart).
 */
// @ts-ignore: decorator
@inline function tieDepth(level: i32, o: i32): i32 {
  if (level == 1 && (typeLevelMask(obj(o, O_TYPE)) & (1 << 3)) != 0) return 30;
  return level == 3 ? 31 : level == 5 ? 30 : level << 2;
}

/** the most objects of one postcode `answerPostcodePlace` reads (a region's postcode names thousands) */
const POSTCODE_PLACE_READ: i32 = 4096;

/**
 * The place a postcode names when no name was found (`620014` alone: Екатеринбург, whose streets have it): the
 * deepest object above every object of the postcode (subtree.ts POSTCODES: those whose postcode is not their
 * parent's), set as the answer with no word read. False when the postcode names nothing or too many objects.
 */
export function answerPostcodePlace(postcode: i32): bool {
  if (postcode <= 0) return false;
  let place = -1;
  let read = 0;
  if (scoped) {
    for (let i = postcodeSlice(postcode); postcodeObject(i, postcode) >= 0; i++) {
      if (++read > POSTCODE_PLACE_READ) return false;
      place = placeAbove(place, postcodeObject(i, postcode));
      if (place < 0) return false;
    }
  } else {
    // no subtree index (a dictionary out of reading order, the tests' reference): the same objects, read in turn
    for (let o = 0; o < objectCount; o++) {
      const parent = obj(o, O_PARENT);
      if (obj(o, O_POSTCODE) != postcode || (parent >= 0 && obj(parent, O_POSTCODE) == postcode)) continue;
      if (++read > POSTCODE_PLACE_READ) return false;
      place = placeAbove(place, o);
      if (place < 0) return false;
    }
  }
  if (place < 0) return false;
  bestObject = place;
  bestHouse = -1;
  bestHouseExact = false;
  bestHouseWide = false;
  bestHouseAlt = false;
  bestScore = 0;
  bestMask = 0;
  bestTypeMask = 0;
  bestHistorical = false;
  runnerScore = -1000000;
  runnerTies = false;
  return true;
}

/** The deepest object at or above both `place` (−1: none yet) and o. */
function placeAbove(place: i32, o: i32): i32 {
  if (place < 0) return o;
  while (place >= 0 && !isAncestor(place, o)) place = obj(place, O_PARENT);
  return place;
}

/**
 * Of two chains of one score and level, whether the one in slot p (`registry`: the registry confirms it; `common`: of
 * the commonest street type) beats the best so far: the penalties in order, each > 0 for p, < 0 for the best, 0 on a
 * tie; then the one read first.
 */
function tieBreak(p: usize, registry: bool, common: bool): bool {
  let order = registryPenalty(registry);
  if (order == 0) order = weightPenalty();
  if (order == 0) order = commonTypePenalty(common);
  return order != 0 ? order > 0 : readEarlier(p, bestSlot);
}

/** RegistryPenalty: an object the official registry (GAR) confirms beats one known only from OSM. */
// @ts-ignore: decorator
@inline function registryPenalty(registry: bool): i32 {
  return registry == bestRegistry ? 0 : registry ? 1 : -1;
}

/** WeightPenalty: the bigger place (population, houses) of the last chain scored is the likelier one. */
// @ts-ignore: decorator
@inline function weightPenalty(): i32 {
  return chainWeight == bestWeight ? 0 : chainWeight > bestWeight ? 1 : -1;
}

/** CommonTypePenalty: in one town, a street of the country's commonest type (ул) beats another (пл). */
// @ts-ignore: decorator
@inline function commonTypePenalty(common: bool): i32 {
  return common == bestCommon ? 0 : common ? 1 : -1;
}

/** Scores candidates [from, to): the best chain, then the runner-up against it. */
function evaluate(from: i32, to: i32): void {
  const previous = bestObject;
  for (let k = from; k < to; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0) continue;
    let score = chainScore(p);
    score -= placeLeftBy(chainMask);
    store<i32>(p, score, 28);
    const o = load<i32>(p);
    const level = chainHouse >= 0 ? 8 : obj(o, O_LEVEL);
    // ties: the deeper answer (but a town before a street: `Слободской` alone is the town, not a lane of
    // Екатеринбург), then the one the official registry confirms, then the bigger place, then the one read first
    const registry = (obj(o, O_FLAGS) & OBJ_REGISTRY) != 0;
    // then, in one town, the commonest street type (`Бахчиванджи, 3`: the ул, not the пл of that name)
    const common = commonStreet(o);
    const depth = tieDepth(level, o);
    const better = score > bestScore ||
      (score == bestScore && (depth > bestDepth || (level == bestLevel && tieBreak(p, registry, common))));
    if (better) {
      bestSlot = p;
      bestRegistry = registry;
      bestCommon = common;
      bestObject = o;
      bestScore = score;
      bestMask = chainMask;
      bestTypeMask = chainTypeMask;
      bestHistorical = chainHistorical;
      bestHouse = chainHouse;
      bestHouseExact = chainHouseExact;
      bestHouseWide = chainHouseWide;
      bestHouseAlt = chainHouseAlt;
      bestWeight = chainWeight;
      bestLevel = level;
      bestDepth = depth;
    }
  }
  if (bestObject < 0) return;
  // the runner-up: the best chain that neither contains the winner nor is contained by it
  if (bestObject != previous) {
    runnerScore = -1000000;
    runnerTies = false;
    from = 0;
  }
  const kind = tieDepth(obj(bestObject, O_LEVEL), bestObject);
  for (let k = from; k < to; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0) continue;
    const o = load<i32>(p);
    if (isAncestor(o, bestObject) || isAncestor(bestObject, o)) continue;
    const score = load<i32>(p, 28);
    if (score > runnerScore) runnerScore = score;
    if (score >= bestScore && tieDepth(obj(o, O_LEVEL), o) == kind) runnerTies = true;
  }
}

/**
 * Once a runner-up is within the margin, a chain below the winner changes neither the winner nor quality.unique
 * while the winner stays: the rest is passed by below the winner itself, not below it less the margin
 * (`ТОЛЬЯТТИ`: the 727 ул Пальмиро Тольятти after the town and one of them). Should a later chain take the lead, a
 * chain passed by may have been its runner-up: `solvedExactly` says so, and the reading is done again without it.
 * RAISE_OFF, RAISE_ON (the default), RAISE_CHECKED (tests: every solve that raised is done again, `setRaising`).
 */
export const RAISE_OFF: i32 = 0;
export const RAISE_ON: i32 = 1;
export const RAISE_CHECKED: i32 = 2;
let raising = RAISE_ON;
export function setRaising(mode: i32): void {
  raising = mode;
}
/** this solve passed the rest by above the winner less the margin (`raising`) */
let raised = false;
/** the floor as this call's earlier readings left it, for a reading done again (`solveUnraised`) */
let floorBefore: i32 = 0;

/**
 * The last solve's answer is the one-pass reading's: it never raised, or its runner-up is within the margin. A
 * chain passed by was below the winner of its time, so below the last: it does not win, nor tie the last; and it
 * matters to the runner-up only if within the margin of the last, which then took the lead from that winner less
 * than the margin above it, and is its relative (else that winner is a runner-up within the margin).
 */
export function solvedExactly(): bool {
  return !raised || (raising != RAISE_CHECKED && (bestObject < 0 || runnerScore >= bestScore - UNIQUE_MARGIN));
}

/** `solve` again, for the same candidates read afresh, without raising (after `solvedExactly` said no). */
export function solveUnraised(): i32 {
  const mode = raising;
  raising = RAISE_OFF;
  floor = floorBefore;
  const score = solve();
  raising = mode;
  return score;
}

/**
 * ScopeSolver: the streets of the places named before the streets of the same name elsewhere, and those by registry,
 * weight and type, the tie-breaks (speed only; solve/scope.ts).
 */
function scopeSolver(): void {
  restLeft = placeLeftOfRest();
  openScope(leafGainBound(), extra - restLeft, anchorExtra, ORDER_CHAIN, chainKey, chainExtraOf, chainExtraOfLeaf, chainHouseLoss, false);
}

/**
 * FloorFilter: a reading of the query that cannot beat an earlier reading of it stops (speed only): nothing unread
 * (`bound`) nor its best can pass the floor, or reach it when this reading loses a tie with it.
 */
// @ts-ignore: decorator
@inline function floorFilter(bound: i32): bool {
  return floorTies ? bound < floor && bestScore < floor : bound <= floor && bestScore <= floor;
}

/** Picks the best chain (see the top of the file); returns its score (or −1000000 when none). */
export function solve(): i32 {
  raised = false;
  bestObject = -1;
  bestHouse = -1;
  bestScore = -1000000;
  runnerScore = -1000000;
  runnerTies = false;
  bestMask = 0;
  bestTypeMask = 0;
  bestHistorical = false;
  bestHouseExact = false;
  bestHouseWide = false;
  bestHouseAlt = false;
  bestSlot = 0;
  bestWeight = -1;
  bestLevel = 0;
  bestDepth = 0;
  bestRegistry = false;
  bestCommon = false;
  if (floorCall != callCount) {
    floorCall = callCount;
    floor = -2000000;
  }
  floorBefore = floor;
  evaluate(0, objUsed);
  extra = leafExtra();
  // a leaf of the rest with no house key starting as the typed one or its alternative loses the house bonus
  // (`chainHouseLoss`), and so does a cursor of the ordered rest with no such leaf left on it (classify/ordered.ts minorHit)
  clearLeadsWanted();
  chargeMissingHouse(0);
  if (withHouse && houseKeyLen > 0 && houseBaseLen > 0) {
    leadsWanted(leadOf(HOUSE_KEY, houseBaseLen, false), leadOf(HOUSE_KEY, houseBaseLen, true));
    if (houseAltKeyLen > 0) leadsWanted(leadOf(HOUSE_ALT_KEY, houseAltKeyLen, false), leadOf(HOUSE_ALT_KEY, houseAltKeyLen, true));
    if (houseFractionBaseLen > 0) leadsWanted(leadOf(HOUSE_KEY, houseFractionBaseLen, false), leadOf(HOUSE_KEY, houseFractionBaseLen, true));
    chargeMissingHouse(HOUSE_BONUS);
  }
  scopeSolver();
  // the places of the postcode typed first: then no street of the rest can have it, and its bound loses the bonus
  const from = objUsed;
  if (openPostcode(typedPostcode())) {
    evaluate(from, objUsed);
    extra -= POSTCODE_BONUS;
  }
  let tight = false;
  let primed = false;
  let passed = -1000000;
  while (true) {
    // a chain below `needed` changes neither the winner nor quality.unique (runner-up ≥ best, ≥ best − margin)
    const needed = runnerScore >= bestScore - UNIQUE_MARGIN ? bestScore : bestScore - UNIQUE_MARGIN;
    // best − margin only rises: a leaf below it changes neither the winner nor quality.unique, ever; raised to
    // `needed` (the winner, a runner-up being within the margin) while the winner stays, never lowered
    if (bestObject >= 0) {
      if (raising != RAISE_OFF && needed > bestScore - UNIQUE_MARGIN) raised = true;
      if (raised && needed > passed) passed = needed;
      // and once a runner-up ties the winner, a leaf that can only tie it and loses the tie-break (the order's key,
      // then the one-pass place) is passed by too (`tiesLost`)
      const ties = raised && tiesLost();
      passBelow(raised ? passed : bestScore - UNIQUE_MARGIN, ties ? load<i32>(bestSlot, 40) : 0x7fffffff, ties ? load<i32>(bestSlot, 44) : 0x7fffffff,
        needed, ties ? chainKey(bestObject) : TIE_ANY_KEY);
    }
    const bound = nextBound();
    if (bound == NO_BOUND) break;
    if (bound < needed || floorFilter(bound)) break;
    if (!tight) {
      // before reading anything, the tighter bound (it costs a pass over the hit words' companions)
      tight = true;
      tightenScope(leafNameBound());
      continue;
    }
    if (nextIsOrdered() && restLosesTies(bound)) break;
    const from = objUsed;
    if (bestObject < 0 && !primed && nextIsOrdered()) {
      // no winner, so no threshold yet: the first name of each hit's cursor first (scope.ts primeRest)
      primed = true;
      if (primeRest()) {
        evaluate(from, objUsed);
        continue;
      }
    }
    openNext();
    evaluate(from, objUsed);
  }
  if (bestScore > floor) floor = bestScore;
  return bestScore;
}
