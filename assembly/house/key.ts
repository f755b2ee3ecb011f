/**
 * The house key: the parsed house (grammar.ts parts) spelled as the dictionary keys houses (dictionaries/fold.ts
 * houseKey: number, then к<case>, с<build>), and the other readings of it the solver tries where the street has no
 * house of that key: the alternative (a fraction as a corpus, a spaced number as the corpus, a corpus as a
 * fraction), the fraction as the building, the wide reading. Each key is a UTF-16 buffer of HOUSE_KEY_CAPACITY
 * code units carved once at setup, with its length beside it.
 */
import { NORM, reserve, u16At, setU16 } from '../memory';
import { tok, tokenCount, sourceChar, F_KIND, F_LEN, F_SEP, F_ROLE, F_START, KIND_DIGIT, KIND_ALPHA, SEP_HYPHEN, SEP_COMMA, ROLE_FREE } from '../tokenize';
import { isDigit } from '../text';
import { partFirst, partLast, P_HOUSE, P_CASE, P_BUILD, P_LITER, P_STEAD, P_FLAT } from './parts';
import { keywordLetter, spacedFlatAt, fractionSlash, glued, isDigitTok } from './grammar';

/** the house key: number, then к<case>, с<build>, as the dictionary writes them */
export let HOUSE_KEY: usize = 0;
export let houseKeyLen: i32 = 0;
/** the key is a land plot's number, typed with its keyword (`уч 27`, `участок 2`) */
export let houseKeyStead: bool = false;
/** length of the bare number part of the key (before к/с) */
export let houseBaseLen: i32 = 0;
export const HOUSE_KEY_CAPACITY: i32 = 64;
/**
 * The key read another way: a fraction as a corpus (73/1 → 73к1, as OSM often means it), a number after a space as
 * the corpus (`5 1` → 5к1, `altSpaced`) or a corpus as a fraction (`14 к2` → 14/2, `altFraction`); length 0 when none
 */
export let HOUSE_ALT_KEY: usize = 0;
export let houseAltKeyLen: i32 = 0;
/** the number before the fraction (`5/1`: 1, the length of `5`), 0 when the key has no fraction */
export let houseFractionBaseLen: i32 = 0;
/**
 * The fraction read as the building (`7/2` → 7с2, GAR's `7 стр 2`), as long as HOUSE_ALT_KEY; filled when
 * houseFractionBaseLen > 0: the solver tries it where the street has neither 7/2 nor 7к2
 */
export let HOUSE_FRACTION_BUILD_KEY: usize = 0;
/**
 * The key's length before the литера typed with its word (`5 литер Б`: 1, the length of `5`), 0 when none: the
 * solver takes the house of that number when the street has no such letter (a partial match, as `5 к9`)
 */
export let houseLiterBaseLen: i32 = 0;
/**
 * The house read wide: with the flat of `84-86` (`84-86`, as OSM and GAR write some numbers), with the digits glued
 * after its letter (`59б1`), or with the keyword letter before a hyphen and a flat (`35д-253`: `35д`). The solver
 * takes a house of that key first; length 0 when there is no wide reading.
 */
export let HOUSE_WIDE_KEY: usize = 0;
export let houseWideKeyLen: i32 = 0;
/** the last token of the wide reading, and whether it was read as the flat */
export let wideLast: i32 = -1;
export let wideTakesFlat = false;
/** The alternative key is the spaced number's corpus reading, not a fraction's (`73/1`). */
export let altSpaced = false;
/** The alternative key reads the typed corpus as a fraction (`14 к2` → 14/2). */
export let altFraction = false;
/** The alternative key reads the letter glued to the корпус as the литера (`12к4Б` → 12бк4). */
export let altCaseLiter = false;

export function setupKey(): void {
  if (HOUSE_KEY == 0) {
    HOUSE_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
    HOUSE_ALT_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
    HOUSE_FRACTION_BUILD_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
    HOUSE_WIDE_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
  }
}

/**
 * The wide reading of a house with neither corpus nor building: `84-86` (the flat after a hyphen, the dictionary
 * keeps a hyphen between digits) or `59б1` (a number glued after the house's letter, which no keyword opens); or
 * of a house followed by a keyword letter, a hyphen and a flat (`35д-253`, `37к-148`: the number with the letter).
 */
function buildWideKey(): void {
  const last = partLast(P_HOUSE);
  const next = last + 1;
  if (keywordLetter == next) {
    // 35д-253, 37к-148: the number with its letter (the corpus read from the letter, if any, is not in it)
    if (houseBaseLen + 1 > HOUSE_KEY_CAPACITY) return;
    for (let k = 0; k < houseBaseLen; k++) setU16(HOUSE_WIDE_KEY, k, u16At(HOUSE_KEY, k));
    houseWideKeyLen = houseBaseLen;
    setU16(HOUSE_WIDE_KEY, houseWideKeyLen++, u16At(NORM, tok(next, F_START)));
    wideLast = next;
    wideTakesFlat = false;
    return;
  }
  if (next >= tokenCount || tok(next, F_KIND) != KIND_DIGIT) return;
  const flat = partFirst(P_FLAT) == next;
  const hyphen = (tok(next, F_SEP) & SEP_HYPHEN) != 0 && (tok(next, F_SEP) & SEP_COMMA) == 0 && (flat || tok(next, F_ROLE) == ROLE_FREE);
  const glued = tok(next, F_SEP) == 0 && tok(next, F_ROLE) == ROLE_FREE && tok(last, F_KIND) == KIND_ALPHA;
  if (!hyphen && !glued) return;
  const n = tok(next, F_LEN);
  if (houseKeyLen + 1 + n > HOUSE_KEY_CAPACITY) return;
  for (let k = 0; k < houseKeyLen; k++) setU16(HOUSE_WIDE_KEY, k, u16At(HOUSE_KEY, k));
  houseWideKeyLen = houseKeyLen;
  if (hyphen) setU16(HOUSE_WIDE_KEY, houseWideKeyLen++, 45);
  const s = tok(next, F_START);
  for (let k = 0; k < n; k++) setU16(HOUSE_WIDE_KEY, houseWideKeyLen++, u16At(NORM, s + k));
  wideLast = next;
  wideTakesFlat = flat;
}

function appendTokens(first: i32, last: i32): void {
  for (let t = first; t <= last; t++) {
    if (t > first && fractionSlash(t) && houseKeyLen < HOUSE_KEY_CAPACITY) {
      setU16(HOUSE_KEY, houseKeyLen++, 47);
    }
    const s = tok(t, F_START);
    const n = tok(t, F_LEN);
    for (let k = 0; k < n && houseKeyLen < HOUSE_KEY_CAPACITY; k++) setU16(HOUSE_KEY, houseKeyLen++, u16At(NORM, s + k));
  }
}

/** Key of the parsed house as the dictionary spells it: 10, 10а, 10/2, 10к2, 10с12, 10к2с1. */
export function buildHouseKey(): void {
  houseKeyLen = 0;
  houseBaseLen = 0;
  houseKeyStead = false;
  houseAltKeyLen = 0;
  houseFractionBaseLen = 0;
  houseLiterBaseLen = 0;
  altSpaced = false;
  altFraction = false;
  altCaseLiter = false;
  houseWideKeyLen = 0;
  wideLast = -1;
  wideTakesFlat = false;
  if (partFirst(P_HOUSE) < 0) {
    // a land plot typed with its keyword (`уч 27`, `участок 2`): its number is the key, as GAR's steads are keyed
    // (the host then prefers the stead of two houses keyed alike, docs/DECISIONS.md)
    if (partFirst(P_STEAD) >= 0 && partFirst(P_BUILD) < 0) {
      appendTokens(partFirst(P_STEAD), partLast(P_STEAD));
      houseBaseLen = houseKeyLen;
      houseKeyStead = true;
      return;
    }
    // a building with no house number (GAR has «ул Бармина, стр 1а»): the key is the dictionary's `с1а`, and
    // only that house matches (the whole key is its base)
    if (partFirst(P_BUILD) < 0) return;
    setU16(HOUSE_KEY, houseKeyLen++, 0x441);
    appendTokens(partFirst(P_BUILD), partLast(P_BUILD));
    houseBaseLen = houseKeyLen;
    return;
  }
  appendTokens(partFirst(P_HOUSE), partLast(P_HOUSE));
  // the литера is the number's letter, unless the number has its own (`11Б лит Л`: the registry keys it 11б, as
  // dictionaries/fold.ts houseKey does)
  if (partFirst(P_LITER) >= 0 && tok(partFirst(P_LITER), F_KIND) == KIND_ALPHA && houseKeyLen > 0 &&
      isDigit(u16At(HOUSE_KEY, houseKeyLen - 1))) {
    houseLiterBaseLen = houseKeyLen;
    appendTokens(partFirst(P_LITER), partLast(P_LITER));
  }
  houseBaseLen = houseKeyLen;
  if (partFirst(P_CASE) >= 0 && houseKeyLen < HOUSE_KEY_CAPACITY) {
    setU16(HOUSE_KEY, houseKeyLen++, 0x43a);
    appendTokens(partFirst(P_CASE), partLast(P_CASE));
  }
  if (partFirst(P_BUILD) >= 0 && houseKeyLen < HOUSE_KEY_CAPACITY) {
    setU16(HOUSE_KEY, houseKeyLen++, 0x441);
    appendTokens(partFirst(P_BUILD), partLast(P_BUILD));
  }
  if ((partFirst(P_CASE) < 0 && partFirst(P_BUILD) < 0) || keywordLetter == partLast(P_HOUSE) + 1) buildWideKey();
  // the корпус ends with a letter glued to its number and no литера was typed (`12к4Б`)
  const caseLast = partLast(P_CASE);
  const caseLiter = partFirst(P_CASE) >= 0 && caseLast > partFirst(P_CASE) && partFirst(P_LITER) < 0 && partFirst(P_BUILD) < 0 &&
    tok(caseLast, F_KIND) == KIND_ALPHA && tok(caseLast, F_LEN) == 1 && glued(caseLast) && isDigitTok(caseLast - 1) &&
    houseKeyLen < HOUSE_KEY_CAPACITY && houseBaseLen > 0 && isDigit(u16At(HOUSE_KEY, houseBaseLen - 1));
  // the fraction's slash in the number (−1: none)
  let slash = -1;
  for (let k = 0; k < houseBaseLen; k++) if (u16At(HOUSE_KEY, k) == 47) { slash = k; break; }
  // 73/1 → 73к1 when no corpus was written
  if (partFirst(P_CASE) < 0) {
    if (slash > 0) {
      houseAltKeyLen = keyWithChar(HOUSE_ALT_KEY, slash, 0x43a);
      keyWithChar(HOUSE_FRACTION_BUILD_KEY, slash, 0x441);
      houseFractionBaseLen = slash;
    } else if (partFirst(P_BUILD) < 0 && spacedFlatAt >= 0 && houseKeyLen + 1 + tok(spacedFlatAt, F_LEN) <= HOUSE_KEY_CAPACITY) {
      // `Ленина 5 1` → 5к1: the bare number after a space is the corpus where the street has no house 5
      altSpaced = true;
      for (let k = 0; k < houseKeyLen; k++) setU16(HOUSE_ALT_KEY, k, u16At(HOUSE_KEY, k));
      houseAltKeyLen = houseKeyLen;
      setU16(HOUSE_ALT_KEY, houseAltKeyLen++, 0x43a);
      const s = tok(spacedFlatAt, F_START);
      for (let k = 0; k < tok(spacedFlatAt, F_LEN); k++) setU16(HOUSE_ALT_KEY, houseAltKeyLen++, u16At(NORM, s + k));
    }
  } else if (partFirst(P_BUILD) < 0 && tok(partFirst(P_CASE), F_KIND) == KIND_DIGIT && houseLiterBaseLen == 0 && slash < 0 && !caseLiter) {
    // `14 к2` → 14/2: the registry writes some corpora as a fraction (GAR's «14/2» where people type «14 корп 2»)
    houseAltKeyLen = keyWithChar(HOUSE_ALT_KEY, houseBaseLen, 47);
    altFraction = true;
  }
  // `53B`: a Latin capital B is В by its look and б by its transliteration; the other reading is the other key
  if (houseAltKeyLen == 0) {
    const at = latinCapitalB();
    if (at >= 0) houseAltKeyLen = keyWithChar(HOUSE_ALT_KEY, at, 0x431);
  }
  // `12к4Б`: the letter glued to the корпус is the литера (Санкт-Петербург's `12 к4 литБ`, keyed 12бк4 as the литера
  // stands after the number), where the registry has no корпус 4б
  if (houseAltKeyLen == 0 && caseLiter) {
    for (let k = 0; k < houseBaseLen; k++) setU16(HOUSE_ALT_KEY, k, u16At(HOUSE_KEY, k));
    houseAltKeyLen = houseBaseLen;
    setU16(HOUSE_ALT_KEY, houseAltKeyLen++, u16At(NORM, tok(caseLast, F_START)));
    for (let k = houseBaseLen; k < houseKeyLen - 1; k++) setU16(HOUSE_ALT_KEY, houseAltKeyLen++, u16At(HOUSE_KEY, k));
    altCaseLiter = true;
  }
}

/** Writes HOUSE_KEY into `key` with the character at `at` replaced by `c`; returns the key's length. */
function keyWithChar(key: usize, at: i32, c: i32): i32 {
  for (let k = 0; k < houseKeyLen; k++) setU16(key, k, k == at ? c : u16At(HOUSE_KEY, k));
  return houseKeyLen;
}

/** Where in HOUSE_KEY the house's letter stands when it was typed as a Latin capital B (read В), else −1. */
function latinCapitalB(): i32 {
  if (houseBaseLen < 2 || u16At(HOUSE_KEY, houseBaseLen - 1) != 0x432) return -1;
  for (let t = partFirst(P_HOUSE); t >= 0 && t <= partLast(P_HOUSE); t++) {
    if (tok(t, F_KIND) == KIND_ALPHA && tok(t, F_LEN) == 1 && sourceChar(tok(t, F_START)) == 66) return houseBaseLen - 1;
  }
  return -1;
}
