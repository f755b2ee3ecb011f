/**
 * Hints: the same classifiers and chain scores as standardization, ranked for a partial query.
 * The last word is read as a prefix; once a number follows a street, the houses of the best streets
 * whose key starts with it become the hints.
 *
 * Rank = chain score + LevelBonus (regions and cities first, as people type them first)
 *        + WeightBonus (bits of population / house count) − a penalty when the chain leaves the word being
 *        typed unexplained (LEFT_WORD_PENALTY), and a greater one, above any rank, for each whole word it leaves
 *        out (LEFT_WHOLE_PENALTY); the list written leaves out the hints that leave out more whole words than the
 *        one that leaves the fewest. TOP holds at most
 *        MAX_TOP (object, house, rank, order hit, order name) records, kept sorted by rank, then by the order one pass would have offered them in (so the list does not
 *        depend on the order subtrees are opened in).
 *
 * Streets come as in the chain solver (solve/scope.ts): under the places the query names first, then the others
 * by the part of their rank known before reading them (LevelBonus and WeightBonus), until the list is full and
 * no street left could enter it: the hints are those of reading everything. A word typed alone (`сер`) reads its
 * places that way too, best bound first (LevelBonus and WeightBonus known before reading): a prefix of a few letters
 * reaches thousands of places in a national dictionary. So does the word being typed after words no street's name
 * holds (`екатеринбург лен`), for the places no candidate of those words stands above or below (classify/deferred-areas.ts).
 */
import { reserve, RESULT, setI32, u16At } from '../memory';
import { isDigit } from '../text';
import { obj, house, houseLabel, houseKeyChar, word, name, nameWord, nameCount, objectCount, NAME_ALIAS, NAME_HISTORICAL, O_LEVEL, O_PARENT, O_TYPE, O_WEIGHT, O_HOUSE_START, O_HOUSE_COUNT, H_KEY, H_KEY_LEN } from '../blob';
import { resetCandidates, classifyNames } from '../classify/names';
import { collectObjects, objAt, objUsed } from '../classify/candidates';
import { leafGainBound, leafNameBound, chargeLeftTokens, chargeMissingHouse, chargeShortHouse } from '../classify/bounds';
import { hitLeafLevels, leafHitTokens } from '../classify/leaf-hits';
import { nextHit, nextName } from '../classify/ordered';
import { typeBonusBound, leafTypeBound, typeBonusMost } from '../classify/type-words';
import { areasDeferred, orderDeferredAreas, deferredAreaBound, readDeferredArea } from '../classify/deferred-areas';
import { firstNameAt, nameHasWordIn } from '../classify/postings';
import { placeTokens } from '../classify/places';
import { heaviest, chainWeight, ensureOrder, isArea, subtreeEnd, scoped, leadsHaveFirst, leadsHavePair, leadsWanted, orderKey, hasShortKey } from '../subtree';
import {
  chainScore, keyEquals, keyWithLetter, letterable, lastChainMask, lastChainTypeMask, lastChainWeight, scoreHouses, POSTCODE_BONUS,
  placeLeftBy, placeLeftOfRest, placeLeftUnder, houseKeyBefore, isAncestor,
} from './chain';
import { parseHouseParts, typedPostcode, houseBare, houseAmbiguous } from '../house/grammar';
import { partFirst, P_HOUSE } from '../house/parts';
import { HOUSE_KEY, houseKeyLen, HOUSE_WIDE_KEY, houseWideKeyLen, HOUSE_ALT_KEY, houseAltKeyLen } from '../house/key';
import { exactWord, wordsBeginning, prefixLow, prefixHigh } from '../trie';
import { tok, tokenCount, F_START, F_LEN, F_KIND, F_SEGMENT, F_ORDINAL, F_ROLE, F_TYPE_A, KIND_ALPHA, ROLE_FREE } from '../tokenize';
import { openScope, tightenScope, nextBound, nextIsOrdered, openNext, passBelow, openPostcode, dropRest, NO_BOUND } from './scope';

const MAX_TOP: i32 = 100;
/** (object, house, rank, order hit, order name, whole words left) */
const TOP_BYTES: i32 = 24;
/** the most WeightBonus adds (bits of a weight are at most 31) */
const WEIGHT_BONUS: i32 = 31 / 2 + 31 / 4;
/** the most a house hint adds to its street's rank */
const HOUSE_HINT_BONUS: i32 = 80;
const LAST_OF_OBJECT: i32 = 0x7fffffff;
let TOP: usize = 0;
let topCount: i32 = 0;

function setupTop(): void {
  if (TOP == 0) TOP = reserve(<usize>MAX_TOP * TOP_BYTES);
}

// @ts-ignore: decorator
@inline function topAt(i: i32): usize {
  return TOP + <usize>i * TOP_BYTES;
}

/**
 * The hint (rank, order hit, order name, house) ranks before TOP item i: a higher rank, or the same rank
 * offered earlier in one pass (objects in reading order, each object's houses before the object).
 */
function ranksBefore(rank: i32, hit: i32, nameId: i32, h: i32, i: i32): bool {
  const p = topAt(i);
  if (rank != load<i32>(p, 8)) return rank > load<i32>(p, 8);
  if (hit != load<i32>(p, 12)) return hit < load<i32>(p, 12);
  if (nameId != load<i32>(p, 16)) return nameId < load<i32>(p, 16);
  const other = load<i32>(p, 4);
  // houses of one street: their numbers in natural order (35к2 before 35к10), the street itself after them
  if (h >= 0 && other >= 0) return houseKeyBefore(h, other);
  return (h < 0 ? LAST_OF_OBJECT : h) < (other < 0 ? LAST_OF_OBJECT : other);
}

function levelBonus(level: i32): i32 {
  if (level == 1 || level == 3) return 30;
  if (level == 5) return 20;
  if (level == 2) return 10;
  return 0;
}

/** what the word being typed costs a hint that leaves it unexplained */
const LEFT_WORD_PENALTY: i32 = 60;
/**
 * What a whole word (not the one being typed) costs a hint that leaves it unexplained: more than any rank, so a hint
 * that leaves one out comes after every hint that reads them all (conventions.md: whole words before the last
 * match), and is not written when one does (`suggestInto`).
 */
const LEFT_WHOLE_PENALTY: i32 = 10000;

/** The token being typed, as a bit (0 when none), for this call. */
let typingBit: u64 = 0;

/** What a hint pays for the tokens of `left` it leaves unexplained. */
// @ts-ignore: decorator
@inline function leftPenaltyOf(left: u64): i32 {
  return LEFT_WORD_PENALTY * <i32>popcnt<u64>(left & typingBit) + LEFT_WHOLE_PENALTY * <i32>popcnt<u64>(left & ~typingBit);
}

/**
 * The tokens a hint pays for (`leftPenaltyOf`) when its chain's names leave them out (bit set): the word being
 * typed, whole words (not type words) and numbers read as a name's. `академика ко` must not hint Кострома above
 * пр-кт Академика Королева, nor a garbage reading of a layout query (`if[vf` kept as `ша ма`) its real one (`шахма`).
 */
function leftTokenMask(prefixToken: i32): u64 {
  let mask: u64 = 0;
  for (let t = 0; t < tokenCount && t < 64; t++) {
    if (tok(t, F_ROLE) != ROLE_FREE) continue;
    // a word, or a number read as part of a name (7-й, or `6а` read as a microdistrict)
    if (t == prefixToken || (tok(t, F_KIND) == KIND_ALPHA ? tok(t, F_TYPE_A) < 0 : tok(t, F_ORDINAL) != 0)) {
      mask |= (<u64>1) << <u64>t;
    }
  }
  return mask;
}
/** this call's leftTokenMask */
let leftTokens: u64 = 0;

function bits(v: i32): i32 {
  return v <= 0 ? 0 : 32 - clz<i32>(v);
}

function offer(o: i32, h: i32, rank: i32, hit: i32, nameId: i32, cap: i32, whole: i32): void {
  // a rank that cannot enter the full list costs nothing more
  if (topCount >= cap && !ranksBefore(rank, hit, nameId, h, topCount - 1)) return;
  // skip a duplicate: the same hint, or another house of the street with the same label (OSM's several buildings of
  // one address, `мкр Светлый, 5`; `31а` and `31 лит а` stay two): one hint a text, the one that ranks first
  for (let i = 0; i < topCount; i++) {
    const p = topAt(i);
    if (load<i32>(p) != o) continue;
    const other = load<i32>(p, 4);
    const same = other == h;
    if (!same && (h < 0 || other < 0 || houseLabel(h) != houseLabel(other))) continue;
    if (same ? rank <= load<i32>(p, 8) : !ranksBefore(rank, hit, nameId, h, i)) return;
    // remove it, re-insert below
    for (let j = i; j < topCount - 1; j++) memory.copy(topAt(j), topAt(j + 1), TOP_BYTES);
    topCount--;
    break;
  }
  if (topCount >= cap && !ranksBefore(rank, hit, nameId, h, topCount - 1)) return;
  let i = topCount < cap ? topCount : cap - 1;
  while (i > 0 && ranksBefore(rank, hit, nameId, h, i - 1)) {
    memory.copy(topAt(i), topAt(i - 1), TOP_BYTES);
    i--;
  }
  const p = topAt(i);
  store<i32>(p, o);
  store<i32>(p, h, 4);
  store<i32>(p, rank, 8);
  store<i32>(p, hit, 12);
  store<i32>(p, nameId, 16);
  store<i32>(p, whole, 20);
  if (topCount < cap) topCount++;
}

/** The parsed house key may have a letter after its base (chain.ts letterable), set once per reading. */
let lettered: bool = false;

/**
 * The parsed house's other key (house/key.ts `HOUSE_ALT_KEY`: `214/2` typed, 214к2 in the registry; `14 к5`, 14/5) is read
 * too, set once per reading: when it starts with the typed key's first two characters, as the bounds of the streets
 * not read yet know a street's houses by them (subtree.ts HOUSE_LEADS).
 */
let altUsable: bool = false;

function altKeyUsable(): bool {
  if (houseAltKeyLen == 0 || houseKeyLen == 0 || u16At(HOUSE_ALT_KEY, 0) != u16At(HOUSE_KEY, 0)) return false;
  return houseKeyLen < 2 || houseAltKeyLen < 2 || u16At(HOUSE_ALT_KEY, 1) == u16At(HOUSE_KEY, 1);
}

/** The house key is the other key (`altUsable`). */
function keyIsAlt(off: i32, len: i32): bool {
  return altUsable && len == houseAltKeyLen && keyEquals(off, len, HOUSE_ALT_KEY);
}

/**
 * The house key starts with the parsed key, or with it and a letter after its base (chain.ts keyWithLetter), or is
 * the other key.
 */
function keyStartsWith(off: i32, len: i32): bool {
  return (len >= houseKeyLen && keyEquals(off, houseKeyLen)) || (lettered && keyWithLetter(off, len, true)) || keyIsAlt(off, len);
}

/** The house key is the wide reading's (house/key.ts `HOUSE_WIDE_KEY`: `84-86`, `59б1`). */
function keyIsWide(off: i32, len: i32): bool {
  return houseWideKeyLen > 0 && len == houseWideKeyLen && keyEquals(off, len, HOUSE_WIDE_KEY);
}

/**
 * What a house whose key starts with the one typed adds to its street's rank: the house spelled as typed, read
 * wide (`84-86`) first, then the narrow reading's (house 84, flat 86); a longer key less the longer it is, and a
 * key whose number goes on (`50` after `5`) below every key of the number typed (`5б`, `5/2`, `5к1`), all alike:
 * other numbers, in their natural order (`ranksBefore`).
 */
function houseHintBonus(off: i32, len: i32): i32 {
  if (keyIsWide(off, len)) return 80;
  if (keyIsAlt(off, len)) return 79;
  if (len == houseKeyLen) return houseWideKeyLen > 0 ? 79 : 80;
  return continuesNumber(off, len) ? OTHER_NUMBER_BONUS : longerHouseBonus(len - houseKeyLen);
}

/** What a house whose number goes on from the one typed adds (`houseHintBonus`): below any `longerHouseBonus`. */
const OTHER_NUMBER_BONUS: i32 = 40;

/** The house key is the typed one, a number, with more digits of the number after it (`50` after `5`). */
function continuesNumber(off: i32, len: i32): bool {
  return len > houseKeyLen && isDigit(u16At(HOUSE_KEY, houseKeyLen - 1)) && isDigit(houseKeyChar(off + houseKeyLen)) &&
    keyEquals(off, houseKeyLen);
}

/** What a house whose key is `more` characters longer than the one typed adds (`houseHintBonus`). */
// @ts-ignore: decorator
@inline function longerHouseBonus(more: i32): i32 {
  return 60 - more * 2;
}

/**
 * The word of the house's number when it was taken bare, before a word of its part of the string and with no other
 * number after it (`екатеринбург 8 марта `), −1 otherwise: a street whose name has that word lists no houses of it.
 */
let nameNumberWord: i32 = -1;

function bareNumberBeforeWord(): i32 {
  const t = partFirst(P_HOUSE);
  if (!houseBare || houseAmbiguous || t < 0 || t + 1 >= tokenCount) return -1;
  const next = t + 1;
  if (tok(next, F_KIND) != KIND_ALPHA || tok(next, F_SEGMENT) != tok(t, F_SEGMENT) || tok(next, F_LEN) < 2 || tok(next, F_ROLE) != ROLE_FREE) return -1;
  return exactWord(tok(t, F_START), tok(t, F_LEN));
}

/** The fewest whole words a hint of TOP leaves out (64 when TOP is empty): the hints written leave out that many. */
function fewestLeftOut(): i32 {
  let fewest = 64;
  for (let i = 0; i < topCount; i++) fewest = min(fewest, load<i32>(topAt(i), 20));
  return fewest;
}

/** Some hint of TOP leaves out no whole word (the word being typed aside). */
function topHasMatch(): bool {
  for (let i = 0; i < topCount; i++) if (load<i32>(topAt(i), 20) == 0) return true;
  return false;
}

/** Ranks candidates [from, to) into TOP. */
function rankCandidates(from: i32, to: i32, prefixToken: i32, cap: i32): void {
  const houseMode = houseKeyLen > 0;
  for (let k = from; k < to; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0) continue;
    const o = load<i32>(p);
    const hit = load<i32>(p, 40);
    const nameId = load<i32>(p, 44);
    let rank = chainScore(p);
    const level = obj(o, O_LEVEL);
    rank += levelBonus(level) + bits(lastChainWeight()) / 2 + bits(obj(o, O_WEIGHT)) / 4;
    // (a type word being typed that the chain takes as its type is read: `сибирский тракт`)
    const left = leftTokens & ~(lastChainMask() | lastChainTypeMask());
    rank -= leftPenaltyOf(left);
    // the whole words it leaves out (not the one being typed): a hint that leaves one is no match of the query
    const whole = <i32>popcnt<u64>(left & ~typingBit);
    // a place typed and left out: below every hint that reads it (`новосибирск ленина 5`: the city, not ул Ленина elsewhere)
    rank -= placeLeftBy(lastChainMask());
    // `8 марта `: a bare number before the street's other words that its name has is the name's, no house of it
    if (houseMode && obj(o, O_HOUSE_COUNT) > 0 && !(nameNumberWord >= 0 && nameHasWordIn(o, nameNumberWord, nameNumberWord))) {
      const start = obj(o, O_HOUSE_START);
      const count = obj(o, O_HOUSE_COUNT);
      for (let h = start; h < start + count; h++) {
        const off = house(h, H_KEY);
        const len = house(h, H_KEY_LEN);
        if (!keyStartsWith(off, len)) continue;
        offer(o, h, rank + houseHintBonus(off, len), hit, nameId, cap, whole);
      }
    }
    offer(o, -1, rank, hit, nameId, cap, whole);
  }
}

/** What a street not read yet can add to its rank besides its words and bonuses: type word, postcode, a house. */
let extra: i32 = 0;
/**
 * What a street of the scope's rest (one with no candidate place above it) surely loses to the words it leaves out
 * (`leftPenaltyOf`): it explains only the tokens its own name is hit by, so every word no street's name has a hit on
 * (classify/leaf-hits.ts leafHitTokens: the town of `кикрполь горько`) is left out by each of them. Without it in the rest's
 * bounds, the penalty lowered the last hint's rank below the bound of every street of that name in every other town,
 * and all were read (hints 20× slower at 10 M houses). The words some streets have and others not are charged per
 * name in the rest's reading (classify/bounds.ts chargeLeftTokens: `нижняя с`, a street that is not Нижняя pays for нижняя).
 */
let restLeft: i32 = 0;
function leafRankExtra(): i32 {
  return leafTypeBound() + (houseKeyLen > 0 ? HOUSE_HINT_BONUS : 0) +
    (typedPostcode() > 0 ? POSTCODE_BONUS : 0);
}

/** The greatest LevelBonus of a level in `levels` (bit set) deeper than `above`. */
function levelBonusBelow(above: i32, levels: i32): i32 {
  let best = 0;
  for (let level = above + 1; level < 32; level++) {
    if ((levels & (1 << level)) != 0 && levelBonus(level) > best) best = levelBonus(level);
  }
  return best;
}

/**
 * The most the bonuses add to a street under o: LevelBonus of the leaf levels the hits reach below o,
 * WeightBonus from the heaviest object on o's path and in its subtree (subtree.ts).
 */
/** The rest is read by LevelBonus + WeightBonus of the street itself, greatest first (its rank grows with it). */
const ORDER_HINT: i32 = 1;
function hintKey(o: i32): i32 {
  return levelBonus(obj(o, O_LEVEL)) + bits(chainWeight(o)) / 2 + bits(obj(o, O_WEIGHT)) / 4;
}

/** Builds the reading order of hints now (at load) rather than in the first query. */
export function prepareHintOrder(): void {
  ensureOrder(ORDER_HINT, hintKey);
}
function hintExtraOf(key: i32): i32 {
  return extra - restLeft + key;
}
/**
 * The words typed whole that every street of the rest not read yet leaves out (`leftPenaltyOf`): those no street's
 * name has a hit on (names.ts leafHitTokens), and, when the subtree index holds, the words naming a place (a street
 * name holding one was read with the places: names.ts readPlaceLeaves, chain.ts placeLeftOfRest).
 */
function restWholeLeft(typedTypeBit: u64): u64 {
  return leftTokens & ~typingBit & ~typedTypeBit & (~leafHitTokens | (scoped ? placeTokens : 0));
}
/** What street o adds besides its words: as `hintExtraOf`, with its own type word (its houses: `hintHouseLoss`). */
function hintExtraOfLeaf(o: i32, key: i32): i32 {
  return extra - restLeft + key - leafTypeBound() + typeBonusBound(o);
}
/** The house typed is two digits as they are: no letter may follow them, no wide reading (`hintHouseLoss`). */
function twoDigitsTyped(): bool {
  return houseKeyLen == 2 && !altUsable && !lettered && houseWideKeyLen == 0 && isDigit(u16At(HOUSE_KEY, 0)) && isDigit(u16At(HOUSE_KEY, 1));
}
/** What a house hint whose key is two characters longer than the one typed loses to one that is it (`houseHintBonus`). */
const TWO_LONGER_LOSS: i32 = HOUSE_HINT_BONUS - longerHouseBonus(2);
/**
 * What street o's houses take from `hintExtraOfLeaf`: the house hint bonus less the most a house of it whose key
 * starts with the number typed adds (`houseHintBonus`: `35к1` after `35` adds 24 less than a house `35` would), or
 * the loss of the first such house that loses less than `slack` (its bound passes the threshold either way), or a
 * loss no house can lose less than, itself at least `slack`.
 */
function hintHouseLoss(o: i32, slack: i32): i32 {
  if (houseKeyLen == 0) return 0;
  // the first two characters of its house keys (subtree.ts HOUSE_LEADS) say it for most streets
  if (houseKeyLen == 1) return leadsHaveFirst(o, u16At(HOUSE_KEY, 0)) ? 0 : HOUSE_HINT_BONUS;
  if (!leadsHavePair(o, u16At(HOUSE_KEY, 0), u16At(HOUSE_KEY, 1))) return HOUSE_HINT_BONUS;
  // two digits typed as they are, and no house that is them or them and one character more: a house at best two
  // characters longer (35к1 after 35) loses the bonus's 20 and 2 a character, at least the slack (subtree.ts
  // SHORT_KEYS)
  if (slack <= TWO_LONGER_LOSS && twoDigitsTyped() && !hasShortKey(o, u16At(HOUSE_KEY, 0), u16At(HOUSE_KEY, 1))) return TWO_LONGER_LOSS;
  const start = obj(o, O_HOUSE_START);
  let best = 0;
  for (let h = start; h < start + obj(o, O_HOUSE_COUNT); h++) {
    const off = house(h, H_KEY);
    const len = house(h, H_KEY_LEN);
    if (!keyStartsWith(off, len)) continue;
    const bonus = houseHintBonus(off, len);
    if (bonus >= HOUSE_HINT_BONUS || HOUSE_HINT_BONUS - bonus < slack) return HOUSE_HINT_BONUS - bonus;
    if (bonus > best) best = bonus;
  }
  return HOUSE_HINT_BONUS - best;
}

/**
 * What a place read later (`areasDeferred`) surely loses to the words it leaves out (`leftPenaltyOf`): its names are
 * hit by the word being typed alone and no candidate of another word stands above it, so its chain leaves out every
 * other word.
 */
let areaLeft: i32 = 0;

/**
 * The most a place read later (`areasDeferred`: its chain is the place and the word being typed) can rank: what its
 * names gain, its type word, the postcode, a house, and its LevelBonus and WeightBonus, less `areaLeft`.
 */
function areaRankBound(o: i32, gain: i32): i32 {
  // hintKey(o), as the hint order keeps it (built at load: one read, not the object's record and its chain weight)
  return gain + typeBonusBound(o) + (typedPostcode() > 0 ? POSTCODE_BONUS : 0) +
    (houseKeyLen > 0 && obj(o, O_HOUSE_COUNT) > 0 ? HOUSE_HINT_BONUS : 0) + orderKey(ORDER_HINT, o) - areaLeft;
}

/** The most `areaRankBound` adds to a place's gain besides its key: a type word, the postcode, a house, less `areaLeft`. */
function areaExtraBound(): i32 {
  return typeBonusMost() + (typedPostcode() > 0 ? POSTCODE_BONUS : 0) + (houseKeyLen > 0 ? HOUSE_HINT_BONUS : 0) - areaLeft;
}

/** The last hint comes before any hint of the next street in order at its rank (one-pass order). */
function lastBefore(hit: i32, nameId: i32): bool {
  const p = topAt(topCount - 1);
  return load<i32>(p, 12) < hit || (load<i32>(p, 12) == hit && load<i32>(p, 16) < nameId);
}

function anchorRankExtra(o: i32): i32 {
  let weight = heaviest(o);
  for (let a = obj(o, O_PARENT); a >= 0; a = obj(a, O_PARENT)) if (obj(a, O_WEIGHT) > weight) weight = obj(a, O_WEIGHT);
  // the streets under a place no candidate of a typed place's tokens stands on leave that place out
  return extra + levelBonusBelow(obj(o, O_LEVEL), hitLeafLevels) + bits(weight) / 2 + bits(heaviest(o)) / 4 - placeLeftUnder(o);
}

/**
 * A type word typed last, after a place (`екатеринбург ул`, `байконур мкр`): no name starts with it, or few do, so
 * the room the list has left is filled with the objects of that type in the first place of the list that has any,
 * below the place and reading the words the place reads: heaviest (most houses) first, then by their names' first
 * words in alphabetical order (word ids run against it, dictionaries/blob-writer.ts byTrieReading), so that neither
 * depends on how the objects are numbered. One walk of the names of the place's subtree (objects are numbered
 * depth-first, names stored in object order), of at most MAX_TYPED_WALK names (a city's streets; in a region's, those
 * of its first towns): it runs only when a type word ends the query and the list is not full.
 */
const MAX_TYPED_WALK: i32 = 32768;
function offerOfTypeTyped(prefixToken: i32, cap: i32): void {
  if (prefixToken < 0 || prefixToken != tokenCount - 1 || houseKeyLen > 0) return;
  // the hints that will be written (those that leave out the fewest whole words, suggestInto) leave room
  const fewest = fewestLeftOut();
  let written = 0;
  for (let i = 0; i < topCount; i++) if (load<i32>(topAt(i), 20) == fewest) written++;
  if (written >= cap || !typeBeingTyped(prefixToken)) return;
  const a = typedTypeA;
  const b = typedTypeB;
  for (let i = 0; i < topCount; i++) {
    const p = topAt(i);
    const place = load<i32>(p);
    if (load<i32>(p, 4) >= 0 || load<i32>(p, 20) != fewest || (scoped && !isArea(place))) continue;
    const rank = load<i32>(p, 8);
    const whole = load<i32>(p, 20);
    let offered = false;
    // (a dictionary not in depth-first order, which the builder never writes, is walked whole: subtree.ts scoped)
    const end = scoped ? subtreeEnd(place) : objectCount;
    const first = scoped ? firstNameAt(place + 1) : 0;
    const last = scoped ? min(nameCount, first + MAX_TYPED_WALK) : nameCount;
    for (let n = first; n < last; n++) {
      const o = name(n, 0);
      if (o >= end) break;
      if ((name(n, 3) & (NAME_ALIAS | NAME_HISTORICAL)) != 0 || name(n, 2) == 0) continue;
      const type = obj(o, O_TYPE);
      if ((type != a && type != b) || (!scoped && (o == place || !isAncestor(place, o)))) continue;
      const weight = obj(o, O_WEIGHT);
      offer(o, -1, rank - 32 + bits(weight), -weight, -nameWord(name(n, 1), 0), cap, whole);
      offered = true;
    }
    if (offered) return;
  }
}

/** The types of the type word being typed (`typeBeingTyped`). */
let typedTypeA: i32 = -1;
let typedTypeB: i32 = -1;
/** How many words starting as the one typed `typeBeingTyped` reads for their types, at most. */
const TYPE_PREFIX_WORDS: i32 = 256;

/**
 * Token t is a type word (`ул`, `проспект`), or four letters or more of the type words of one type (`просп`, `проспек`
 * while `проспект` is being typed; `прое` is проезд, `про` no type): its types into typedTypeA, typedTypeB.
 */
function typeBeingTyped(t: i32): bool {
  const start = tok(t, F_START);
  const len = tok(t, F_LEN);
  const w = exactWord(start, len);
  if (w >= 0 && word(w, 2) >= 0) {
    typedTypeA = word(w, 2);
    typedTypeB = word(w, 3);
    return true;
  }
  if (len < 4 || !wordsBeginning(start, len)) return false;
  typedTypeA = -1;
  for (let id = prefixLow; id <= prefixHigh && id < prefixLow + TYPE_PREFIX_WORDS; id++) {
    const a = word(id, 2);
    if (a < 0) continue;
    if (typedTypeA >= 0 && (a != typedTypeA || word(id, 3) != typedTypeB)) return false;
    typedTypeA = a;
    typedTypeB = word(id, 3);
  }
  return typedTypeA >= 0;
}

/**
 * Ranks hints for the tokenized query into RESULT when its best rank beats `writeAbove`.
 * Returns the best rank (−1000000 when there is none).
 */
export function suggestInto(prefix: bool, max: i32, writeAbove: i32): i32 {
  setupTop();
  topCount = 0;
  const cap = max < 1 ? 1 : max > MAX_TOP ? MAX_TOP : max;
  parseHouseParts(prefix);
  lettered = letterable();
  altUsable = altKeyUsable();
  nameNumberWord = bareNumberBeforeWord();
  // the word being typed: the last one, or the last word before the house number being typed
  // (`екатеринбург вокз 1`: вокз is still a prefix)
  let prefixToken = -1;
  if (prefix && tokenCount > 0) {
    let t = tokenCount - 1;
    while (t >= 0 && tok(t, F_ROLE) != ROLE_FREE) t--;
    if (t >= 0 && tok(t, F_KIND) == KIND_ALPHA) prefixToken = t;
  }
  resetCandidates();
  // a street of the rest whose houses none starts as the one typed loses the house bonus (`hintHouseLoss`), and so
  // does a cursor of the ordered rest with no such street left on it (classify/ordered.ts minorHit)
  if (houseKeyLen > 0) {
    leadsWanted(u16At(HOUSE_KEY, 0), houseKeyLen > 1 ? u16At(HOUSE_KEY, 1) : -1);
    chargeMissingHouse(HOUSE_HINT_BONUS);
    if (twoDigitsTyped()) chargeShortHouse(TWO_LONGER_LOSS, u16At(HOUSE_KEY, 0), u16At(HOUSE_KEY, 1));
  }
  // the places only the word being typed reaches: read best bound first, like the streets (classify/deferred-areas.ts orderDeferredAreas)
  classifyNames(prefixToken, true);
  // after the names are classified: a type word (`ул`, `мкр`) is known as one only then, and is no word to leave out
  leftTokens = leftTokenMask(prefixToken);
  typingBit = prefixToken >= 0 ? (<u64>1) << <u64>prefixToken : 0;
  areaLeft = prefixToken >= 0 ? leftPenaltyOf(leftTokens & ~typingBit) : 0;
  // a place read later reads the word being typed alone, which names no place typed (classify/places.ts placeTokens)
  areaLeft += placeLeftBy(prefixToken >= 0 ? (<u64>1) << <u64>prefixToken : 0);
  if (areasDeferred) orderDeferredAreas(areaRankBound, ORDER_HINT, areaExtraBound());
  collectObjects(true);
  scoreHouses(false);
  rankCandidates(0, objUsed, prefixToken, cap);
  extra = leafRankExtra();
  // a type word being typed may be read as a street's type, not its name's: no street surely leaves it out
  const typedTypeBit = prefixToken >= 0 && tok(prefixToken, F_TYPE_A) >= 0 ? typingBit : 0;
  restLeft = leftPenaltyOf(leftTokens & ~leafHitTokens & ~typedTypeBit);
  // and a place typed (chain.ts placeLeftOfRest)
  restLeft += placeLeftOfRest();
  chargeLeftTokens(LEFT_WHOLE_PENALTY, leftTokens & ~typingBit, LEFT_WORD_PENALTY, leftTokens & typingBit & ~typedTypeBit);
  openScope(
    leafGainBound(), extra - restLeft + levelBonusBelow(0, hitLeafLevels) + WEIGHT_BONUS, anchorRankExtra, ORDER_HINT, hintKey,
    hintExtraOf, hintExtraOfLeaf, hintHouseLoss, true,
  );
  // the places of the postcode typed first: then no street of the rest can have it (scope.ts openPostcode)
  const from = objUsed;
  if (openPostcode(typedPostcode())) {
    rankCandidates(from, objUsed, prefixToken, cap);
    extra -= POSTCODE_BONUS;
  }
  // a place read later leaves out every whole word but the one being typed: once a hint of the list reads them all,
  // no such place is written (the list written leaves out what leaves out a whole word another hint reads, below)
  const areasLeaveWhole = (leftTokens & ~typingBit) != 0;
  const restLeavesWhole = restWholeLeft(typedTypeBit) != 0;
  let tight = false;
  while (true) {
    // so does every street of the rest (`кстово 8 мар`: the 8 Марта of the thousands of other towns leave кстово
    // out), and once a hint reads every word none of them is written: what is left is read under the places typed
    if (restLeavesWhole && topHasMatch()) dropRest();
    // the last hint of a full list only moves up: a street below it (or at it, read after it) cannot enter, ever
    if (topCount >= cap) {
      const last = topAt(topCount - 1);
      passBelow(load<i32>(last, 8), load<i32>(last, 12), load<i32>(last, 16), load<i32>(last, 8));
    }
    const scopeBound = nextBound();
    const areaBound = areasLeaveWhole && topHasMatch() ? NO_BOUND : deferredAreaBound();
    const bound = areaBound > scopeBound ? areaBound : scopeBound;
    if (bound == NO_BOUND) break;
    if (topCount >= cap && bound < load<i32>(topAt(topCount - 1), 8)) break;
    // a reading whose best rank cannot beat an earlier reading's is not written (readings.ts)
    if (bound <= writeAbove && (topCount == 0 || load<i32>(TOP, 8) <= writeAbove)) break;
    if (!tight) {
      tight = true;
      tightenScope(leafNameBound());
      continue;
    }
    if (areaBound != NO_BOUND && areaBound >= scopeBound) {
      const from = objUsed;
      readDeferredArea();
      collectObjects(true);
      rankCandidates(from, objUsed, prefixToken, cap);
      continue;
    }
    if (topCount >= cap && bound == load<i32>(topAt(topCount - 1), 8) && nextIsOrdered() && lastBefore(nextHit, nextName)) break;
    const from = objUsed;
    openNext();
    rankCandidates(from, objUsed, prefixToken, cap);
  }
  scoreHouses(true);
  offerOfTypeTyped(prefixToken, cap);
  // conventions.md: whole words before the last match; a hint that leaves out a whole word another hint reads only
  // fills the list (`екб мал`: Малоярославец after Екатеринбург's streets) and is left out. When every hint leaves
  // one out (a word no name holds), those that leave the fewest stay. The reading's best is its first hint written.
  const fewest = fewestLeftOut();
  let best = -1000000;
  for (let i = 0; i < topCount; i++) {
    if (load<i32>(topAt(i), 20) == fewest) {
      best = load<i32>(topAt(i), 8);
      break;
    }
  }
  if (best > writeAbove) {
    let written = 0;
    for (let i = 0; i < topCount; i++) {
      const p = topAt(i);
      if (load<i32>(p, 20) > fewest) continue;
      setI32(RESULT, 1 + written * 3, load<i32>(p));
      setI32(RESULT, 2 + written * 3, load<i32>(p, 4));
      setI32(RESULT, 3 + written * 3, load<i32>(p, 8));
      written++;
    }
    setI32(RESULT, 0, written);
  }
  return best;
}
