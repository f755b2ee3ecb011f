/**
 * The reading driver: how a query's readings are run. A query is read in each folding of its keys (text.ts
 * variants: as typed, in the other keyboard layout, transliterated), and a reading again with a grammar or tokenizer
 * option when its first answer leaves a sign it was read wrong (a bare number before a name, a word cut short with a
 * dot, two words glued, a hyphened compound). Each reading runs tokenize → house grammar → names → chain solver; the
 * best one's answer is written to RESULT (solve/answer.ts), and a reading that settles the call ends it. Hints
 * (solve/suggest.ts) are read the same way, each reading writing the hints that beat the readings before it.
 */
import { RESULT, i32At, setI32 } from '../memory';
import { normalize, latinKeys, layoutKeysInWord, VARIANT_TRANSLIT, layoutKeysRead, VARIANT_PLAIN, VARIANT_LAYOUT, VARIANT_LAYOUT_KEEP, VARIANT_COUNT } from '../text';
import { tokenize, tokenCount, tok, setSplitGlued, splitsGlued, setJoinCompounds, hyphenCompound, F_START, F_LEN, F_ROLE, F_KIND, F_SEP, F_SEGMENT, F_TYPE_A, SEP_DOT, KIND_ALPHA, ROLE_FREE } from '../tokenize';
import { parseHouseParts, typedPostcode, houseAmbiguous, houseBare, setNameFirstNumber, namedNumberAt, placeNumberAt, setPlaceNumberHouse } from '../house/grammar';
import { partFirst, partLast, P_HOUSE } from '../house/parts';
import { keywordPart } from '../house/keywords';
import { houseKeyLen, houseKeyStead } from '../house/key';
import { fuzzyCount, memoAnswers, resetVisitBudget, lookup, isWord, HITS } from '../trie';
import { resetCandidates, classifyNames } from '../classify/names';
import { collectObjects } from '../classify/candidates';
import { unhitWord, clearUnhitWord } from '../classify/lookups';
import { solve, solvedExactly, solveUnraised, answerPostcodePlace, bestObject, bestMask, setFloorTies } from './chain';
import { word } from '../blob';
import { suggestInto } from './suggest';
import { writeStandardized } from './answer';
import { R_STATUS } from '../layout';

/** Runs tokenize → house grammar → names → solver on the current NORM; returns the best chain score. */
function analyse(normLen: i32, prefixToken: i32): i32 {
  tokenize(normLen);
  parseHouseParts();
  readCandidates(prefixToken);
  const score = solve();
  if (solvedExactly()) return score;
  // a later winner's runner-up may be among the chains passed by below the first: the names once more, unraised, over
  // the tokens and the house as they are
  readCandidates(prefixToken);
  return solveUnraised();
}

/** The names the tokens hit, read afresh into candidates for the solver. */
function readCandidates(prefixToken: i32): void {
  resetCandidates();
  classifyNames(prefixToken);
  collectObjects();
}

/** The reading whose answer RESULT holds, and its score. */
let bestVariant: i32 = 0;
let bestReading: i32 = 0;
/** The last `standardizeVariant` wrote its answer. */
let variantWon = false;

/**
 * A reading's answer replaces the best so far when it scores more, or as much from an earlier variant: the
 * answer is the one the variants would give read in their order (PLAIN, LAYOUT, TRANSLIT, LAYOUT_KEEP),
 * whatever order they are read in.
 */
function takeReading(score: i32, variant: i32): void {
  if (score > bestReading || (score == bestReading && variant < bestVariant)) {
    bestReading = score;
    bestVariant = variant;
    variantWon = true;
    writeStandardized();
  }
}

/**
 * The first word followed by a dot that is neither a type word nor a house keyword and that no word of the chain `mask`
 * read: of 3+ letters (`Красноарм.`), or an initial of one or two before a word the chain read (`В. Новгород`, `Н.
 * Оскол`: the town whose name has a word of that initial, not the bigger one of the other word alone); −1 when none.
 */
function abbreviationLeft(mask: u64): i32 {
  for (let t = 0; t + 1 < tokenCount && t < 64; t++) {
    if (tok(t, F_KIND) != KIND_ALPHA || tok(t, F_ROLE) != ROLE_FREE || tok(t, F_TYPE_A) >= 0) continue;
    if ((tok(t + 1, F_SEP) & SEP_DOT) == 0 || keywordPart(t) >= 0 || (mask & ((<u64>1) << <u64>t)) != 0) continue;
    if (tok(t, F_LEN) < 3 && (t + 1 >= 64 || (mask & ((<u64>1) << <u64>(t + 1))) == 0)) continue;
    return t;
  }
  return -1;
}

/** Runs one variant, and again reading its first bare number as a name when that is ambiguous. */
function standardizeVariant(len: i32, variant: i32): void {
  variantWon = false;
  const normLen = normalize(len, variant);
  setFloorTies(variant < bestVariant);
  const first = analyse(normLen, -1);
  // a word cut short with a dot the chain did not read (`Красноарм. 5`, `Ленингр. пр-т`): read again as the start of a
  // word, as hints read the word being typed
  const dotted = abbreviationLeft(bestMask);
  // `ул. 8 Марта`, `40-летия Комсомола`: a bare number before a word, no other number after it, taken as the house
  const numberBeforeName = houseBare && !houseAmbiguous && bestObject >= 0 && wordAfter(partFirst(P_HOUSE));
  const firstObject = bestObject;
  takeReading(first, variant);
  const firstTaken = variantWon;
  if (dotted >= 0) {
    setFloorTies(variant < bestVariant);
    const score = analyse(normLen, dotted);
    // an initial counts only in the name of the word after it (`Ак. Бардина` is no ул Академическая with Бардина left)
    const pair: u64 = (<u64>3) << <u64>dotted;
    if (score > first && (tok(dotted, F_LEN) >= 3 || (bestMask & pair) == pair)) takeReading(score, variant);
  }
  // `Светлый мкр 5`: the number after the place's word, read as its name, was read by no name of the chain
  const placeNumber = placeNumberAt;
  const placeNumberLeft = placeNumber >= 0 && placeNumber < 64 && partFirst(P_HOUSE) < 0 && (bestMask & ((<u64>1) << <u64>placeNumber)) == 0;
  if (houseAmbiguous) {
    setNameFirstNumber(true);
    setFloorTies(variant < bestVariant);
    const score = analyse(normLen, -1);
    setNameFirstNumber(false);
    // the same variant: only a higher score replaces its first reading, and only when a name read the number
    // (`Ленина 5, 1` on a street with house 1 and no 5 is not house 1 with the 5 left over)
    if (score > first && namedNumberAt >= 0 && (bestMask & ((<u64>1) << <u64>namedNumberAt)) != 0) takeReading(score, variant);
  }
  if (placeNumberLeft) {
    setPlaceNumberHouse(true);
    setFloorTies(variant < bestVariant);
    const score = analyse(normLen, -1);
    setPlaceNumberHouse(false);
    if (score > first) takeReading(score, variant);
  }
  // two words glued (`БорисаЕльцина`, `санктпетербург`) that the chain did not read: read again as two
  if (gluedLeft(bestMask)) readAgain((on: bool): void => setSplitGlued(on), normLen, variant, first);
  // a compound name typed with a hyphen (`Ново-Пашинский`) whose halves the chain did not read: read again joined
  if (compoundLeft(bestMask)) readAgain((on: bool): void => setJoinCompounds(on), normLen, variant, first);
  // …of a street whose name has the number there: the same street read with the number in its name is the answer,
  // though it scores less than with a house (house 8 of ул 8 Марта was a house nobody typed); the bar stays the first's
  if (numberBeforeName && firstTaken && bestVariant == variant && bestReading == first) {
    setNameFirstNumber(true);
    setFloorTies(variant < bestVariant);
    analyse(normLen, -1);
    setNameFirstNumber(false);
    if (bestObject == firstObject && namedNumberAt >= 0 && namedNumberAt < 64 && (bestMask & ((<u64>1) << <u64>namedNumberAt)) != 0) {
      writeStandardized();
    }
  }
  setFloorTies(false);
}

/** Reads the variant again with a tokenizer option on (`set`), taking the reading when it scores more than `first`. */
function readAgain(set: (on: bool) => void, normLen: i32, variant: i32, first: i32): void {
  set(true);
  setFloorTies(variant < bestVariant);
  const score = analyse(normLen, -1);
  set(false);
  if (score > first) takeReading(score, variant);
}

/** Two tokens a hyphen parts, one of them not read by the chain `mask`, spell a word together (tokenize.ts). */
function compoundLeft(mask: u64): bool {
  for (let t = 0; t + 1 < tokenCount && t + 1 < 64; t++) {
    const pair: u64 = (<u64>3) << <u64>t;
    if ((mask & pair) != pair && tok(t, F_ROLE) == ROLE_FREE && tok(t + 1, F_ROLE) == ROLE_FREE && hyphenCompound(t)) return true;
  }
  return false;
}

/** Some token the chain `mask` did not read is two words glued (tokenize.ts `splitsGlued`). */
function gluedLeft(mask: u64): bool {
  for (let t = 0; t < tokenCount && t < 64; t++) {
    if ((mask & ((<u64>1) << <u64>t)) == 0 && tok(t, F_ROLE) == ROLE_FREE && tok(t, F_LEN) >= 6 && splitsGlued(t)) return true;
  }
  return false;
}

/** Token t is followed by a word in its part of the string that opens no house part (`8 Марта`, not `5 кв`). */
function wordAfter(t: i32): bool {
  const next = t + 1;
  return t >= 0 && next < tokenCount && tok(next, F_KIND) == KIND_ALPHA && tok(next, F_SEGMENT) == tok(t, F_SEGMENT) &&
    tok(next, F_LEN) > 1 && keywordPart(next) < 0 && tok(next, F_ROLE) == ROLE_FREE;
}

/**
 * Words of 3+ letters in variant v's folding of INPUT[0…len) that are vocabulary words as spelled; `allSpelled`
 * tells whether every such word is (with `lastPrefix`, the last one may be the start of a word: a hint being typed).
 */
let allSpelled = false;
function wordsSpelled(len: i32, variant: i32, lastPrefix: bool = false): i32 {
  tokenize(normalize(len, variant));
  let count = 0;
  let last = tokenCount - 1;
  while (last >= 0 && tok(last, F_KIND) != KIND_ALPHA) last--;
  // (the word being typed is the last token: one a number follows is whole)
  const typing = lastPrefix && last == tokenCount - 1;
  allSpelled = true;
  lastWordLength = 0;
  longestSpelled = 0;
  for (let t = 0; t < tokenCount; t++) {
    if (tok(t, F_KIND) != KIND_ALPHA || tok(t, F_LEN) < 3) continue;
    if (isWord(tok(t, F_START), tok(t, F_LEN), lastPrefix && t == last)) {
      count++;
      if (t == last) lastWordLength = tok(t, F_LEN);
      if (!(typing && t == last) && tok(t, F_LEN) > longestSpelled) longestSpelled = tok(t, F_LEN);
    } else {
      allSpelled = false;
    }
  }
  return count;
}
/** The length of the last word of the text when `wordsSpelled` counted it (a hint's word being typed), else 0. */
let lastWordLength = 0;
/** The longest word `wordsSpelled` counted that is no word being typed. */
let longestSpelled = 0;

/**
 * The answer of the reading just run settles the call: it is this reading's, it matched with nothing left over,
 * one way only, with the typed house found as spelled (or none typed), from at least `SETTLING_WORDS` words
 * spelled right and no fuzzy lookup. The other readings of Latin keys are the same keys read another way: where
 * one spells two words or more right, the others read noise (a layout string read as a transliteration, and the
 * other way round), and their fuzzy walks over it are most of a Latin query's time. That they cannot score more
 * is not proven: checked on the evaluation's queries and the accuracy probe's (docs/DECISIONS.md).
 */
const SETTLING_WORDS: i32 = 2;
function readingSettles(spelled: i32, lookupsBefore: i32): bool {
  return variantWon && spelled >= SETTLING_WORDS && fuzzyCount + memoAnswers == lookupsBefore &&
    i32At(RESULT, R_STATUS) == 0 && i32At(RESULT, 5) == 0 && i32At(RESULT, 3) == 0 &&
    (i32At(RESULT, 7) == 3 || i32At(RESULT, 7) == 9);
}

/** The variants in reading order, and each variant's words spelled right (`orderReadings`). */
const READING_ORDER = new StaticArray<i32>(VARIANT_COUNT);
const READING_SPELLED = new StaticArray<i32>(VARIANT_COUNT);

/** Orders PLAIN, LAYOUT, TRANSLIT and LAYOUT_KEEP by words spelled right, most first, ties in variant order. */
function orderReadings(len: i32): void {
  for (let k = 0; k < VARIANT_COUNT; k++) {
    const v = VARIANT_PLAIN + k;
    const spelled = wordsSpelled(len, v);
    READING_SPELLED[v] = spelled;
    let at = k;
    while (at > 0 && READING_SPELLED[READING_ORDER[at - 1]] < spelled) {
      READING_ORDER[at] = READING_ORDER[at - 1];
      at--;
    }
    READING_ORDER[at] = v;
  }
}

/**
 * Standardizes INPUT[0…len) (abi.ts `standardize` checked its length). Returns 0 when something matched, 1 when
 * nothing did. Text with Latin letters is read in every variant, most words spelled right first (PLAIN too: a layout
 * string as typed is Latin noise whose fuzzy walks cost more than the rest of the call), and a reading that settles
 * the call (`readingSettles`) ends it: a layout string read right skips the fuzzy walks of its other readings.
 */
export function readStandardized(len: i32): i32 {
  resetVisitBudget();
  bestReading = -2000000;
  bestVariant = VARIANT_COUNT;
  const latin = latinKeys(len) >= 2;
  // keys of the Russian layout inside a Latin word: no transliteration reads them (text.ts layoutKeysInWord)
  const translit = latin && !layoutKeysInWord(len);
  if (!latin) {
    standardizeVariant(len, VARIANT_PLAIN);
  } else if (everyReading) {
    for (let v = VARIANT_PLAIN; v < VARIANT_COUNT; v++) if (v != VARIANT_TRANSLIT || translit) standardizeVariant(len, v);
  } else {
    orderReadings(len);
    let settledBy = -1;
    for (let k = 0; k < VARIANT_COUNT; k++) {
      const v = READING_ORDER[k];
      if (v == VARIANT_TRANSLIT && !translit) continue;
      if (settledBy >= 0 && !otherLayoutReading(len, v, settledBy, false)) continue;
      if (settlingVariant(len, v, READING_SPELLED[v]) && settledBy < 0) settledBy = v;
    }
  }
  // nothing found by name, a postcode typed: the place it names (`620014`), the rest of the text left over
  if (i32At(RESULT, R_STATUS) != 0 && answerPostcodePlace(typedPostcode())) writeStandardized();
  return i32At(RESULT, R_STATUS);
}

/** Every variant read, in variant order, none settling the call (the reference for `standardize` and `suggest`). */
let everyReading = false;
export function readEveryVariant(on: bool): void {
  everyReading = on;
}

/**
 * Variant v still has to be read after `settledBy` settled the call: both are layout readings, the text has
 * punctuation keys LAYOUT takes for letters, and v spells every word right too (`lastPrefix`: the last may be
 * the start of one), so they read it two ways (`,,ek` бул or `, ул`), not one as noise (`trfnthby,ehu`: LAYOUT's
 * екатеринбург, LAYOUT_KEEP's екатерин and ург).
 */
function otherLayoutReading(len: i32, v: i32, settledBy: i32, lastPrefix: bool): bool {
  if (!layoutKeysRead || (v != VARIANT_LAYOUT && v != VARIANT_LAYOUT_KEEP) || (settledBy != VARIANT_LAYOUT && settledBy != VARIANT_LAYOUT_KEEP)) {
    return false;
  }
  wordsSpelled(len, v, lastPrefix);
  return allSpelled;
}

/** Runs one variant after PLAIN; true when its answer settles the call (`readingSettles`). */
function settlingVariant(len: i32, variant: i32, spelled: i32): bool {
  const lookupsBefore = fuzzyCount + memoAnswers;
  standardizeVariant(len, variant);
  return readingSettles(spelled, lookupsBefore);
}

/** The hints `suggest` wrote last were read with a land plot's number as the house (`участок 2`, abi.ts `hintsAskStead`). */
export let hintsStead: bool = false;

/** The best score after a reading that scored `score`: a better one wrote the hints (`suggestInto`), as it read them. */
function bestAfter(score: i32, best: i32): i32 {
  if (score <= best) return best;
  hintsStead = houseKeyStead;
  return score;
}

/**
 * Hints for INPUT[0…len) (abi.ts `suggest` checked its length): `prefix` 1 when the last word is still being typed.
 * Writes at most `max` items; returns their count.
 */
export function readHints(len: i32, max: i32, prefix: i32): i32 {
  resetVisitBudget();
  clearUnhitWord();
  let count = suggestReadings(len, max, prefix);
  // a word no name has, even with slips: when it is two words glued (`уланудэ`, `санктпетербург`, `борисаельц`), the
  // readings again with such words split
  if (unhitWord) {
    setSplitGlued(true, prefix != 0);
    count = suggestReadings(len, max, prefix);
    setSplitGlued(false);
  }
  return count;
}

function suggestReadings(len: i32, max: i32, prefix: i32): i32 {
  const variants = latinKeys(len) >= 2 ? VARIANT_COUNT : 1;
  const translit = variants > 1 && !layoutKeysInWord(len);
  let best = -1000000;
  setI32(RESULT, 0, 0);
  hintsStead = false;
  let settledBy = -1;
  for (let v = 0; v < variants; v++) {
    if (v == VARIANT_TRANSLIT && !translit) continue;
    if (settledBy >= 0 && !otherLayoutReading(len, v, settledBy, prefix != 0)) continue;
    const bestBefore = best;
    const lookupsBefore = fuzzyCount + memoAnswers;
    tokenize(normalize(len, v));
    let score = suggestInto(prefix != 0, max, best);
    best = bestAfter(score, best);
    const houseTyped = houseKeyLen > 0;
    // and again reading a number after a numbered place's word as the house when no hint is one (`светлый мкр 5`)
    if (placeNumberAt >= 0 && partFirst(P_HOUSE) < 0 && !hintsHaveHouse()) {
      tokenize(normalize(len, v));
      setPlaceNumberHouse(true);
      score = suggestInto(prefix != 0, max, best);
      setPlaceNumberHouse(false);
      best = bestAfter(score, best);
    }
    // and again reading the first bare number as a name when that is ambiguous (`6а 23`: мкр 6а, house 23), when
    // no hint so far is a house (`байконур 6а`: microdistrict 6а being typed), or when the word being typed follows
    // it (`екатеринбург 8 ма`: ул 8 Марта)
    if (houseAmbiguous || (houseBare && ((!hintsHaveHouse() && namesFew(partFirst(P_HOUSE))) || (prefix != 0 && wordAfterHouse())))) {
      tokenize(normalize(len, v));
      setNameFirstNumber(true);
      score = suggestInto(prefix != 0, max, best);
      setNameFirstNumber(false);
      best = bestAfter(score, best);
    }
    // a reading of Latin keys that wrote its hints from words all spelled right (two at least besides the one being
    // typed), with no fuzzy lookup and the typed house found, ends the call (as `readingSettles` does for standardize:
    // the later readings read the same keys as noise)
    if (v > VARIANT_PLAIN && !everyReading && settledBy < 0 && best > bestBefore && fuzzyCount + memoAnswers == lookupsBefore &&
        (!houseTyped || i32At(RESULT, 2) >= 0) && hintSettles(len, v, prefix != 0)) settledBy = v;
  }
  return i32At(RESULT, 0);
}

/**
 * Variant v spells every word right, two at least, the one being typed (the last word, `prefix`) counted when it has
 * four letters or more: `просторная ули` (ули: улица, улиточная, …) does not settle a call that `екб` may answer.
 */
function hintSettles(len: i32, variant: i32, prefix: bool): bool {
  const spelled = wordsSpelled(len, variant, prefix);
  // (or one whole word of SETTLING_LETTERS or more, spelled right in the other layout: `xthtvifycrfz 11`; its
  // transliteration's walk found nothing and cost ten times the hint)
  return allSpelled && (spelled - (prefix && lastWordLength > 0 && lastWordLength < 4 ? 1 : 0) >= SETTLING_WORDS ||
    (variant != VARIANT_TRANSLIT && longestSpelled >= SETTLING_LETTERS));
}
/** The length of a word spelled right in the other layout that settles a hint call alone. */
const SETTLING_LETTERS: i32 = 8;

/**
 * True when the last token is a free word after the house number, not a house keyword (the word being typed
 * follows the number: `8 ма`, not `5 к`).
 */
function wordAfterHouse(): bool {
  const last = tokenCount - 1;
  return partFirst(P_HOUSE) >= 0 && partLast(P_HOUSE) < last && tok(last, F_KIND) == KIND_ALPHA &&
    tok(last, F_ROLE) == ROLE_FREE && keywordPart(last) < 0;
}

/**
 * How many names a bare number may be in for hints to read it as a name when no hint is a house (`байконур 6а`:
 * microdistrict 6а). That reading reads every place of the name that ties with the last hint of the list: a
 * town's microdistricts are a few names, the `8 Марта` streets of a country thousands (as the microdistricts of
 * a synthetic country that copies one town into every town: 0.5 ms a hint at 1 M houses, milliseconds at 10 M).
 */
const NAMED_FEW: i32 = 64;

/** Token t, read as a word, is in at least one name and at most NAMED_FEW (exact spelling: no fuzzy walk). */
function namesFew(t: i32): bool {
  if (t < 0 || lookup(tok(t, F_START), tok(t, F_LEN), 0, false) == 0) return false;
  return word(i32At(HITS, 0), 1) <= NAMED_FEW;
}

/** True when a hint written to RESULT (count, then object, house, rank each) is a house. */
function hintsHaveHouse(): bool {
  const count = i32At(RESULT, 0);
  for (let i = 0; i < count; i++) if (i32At(RESULT, 2 + i * 3) >= 0) return true;
  return false;
}
