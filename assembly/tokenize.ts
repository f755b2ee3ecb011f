/**
 * Tokenizer: splits NORM into runs of letters (ALPHA) and runs of digits (DIGIT).
 *
 * Token table: MAX_TOKENS records of TOKEN_STRIDE i32 at TOKENS:
 *   [start, len, kind, sep, segment, role, value, ordinal, typeA, typeB, used, keyword]
 * `start/len` index NORM. `sep` says what stood between the previous token and this one (bit set of
 * SEP_*; 0 = glued, as in `10а` or `дом53`). `segment` counts comma/semicolon separated parts.
 * `role` is filled by the classifiers: free, house part, postcode, type word, name word.
 * `value` holds a DIGIT token's number (saturated) for cheap checks.
 */
import { INPUT, NORM, SRC, reserve, i32At, setI32, u16At, setU16 } from './memory';
import { isDigit, isLetter, knownWord, spellsLiterWord } from './text';
import { compoundWord, isTypeWord, wordsGluedAt } from './trie';

export const MAX_TOKENS: i32 = 64;
export const TOKEN_STRIDE: i32 = 12;

export const KIND_ALPHA: i32 = 1;
export const KIND_DIGIT: i32 = 2;

export const SEP_SPACE: i32 = 1;
export const SEP_COMMA: i32 = 2;
export const SEP_HYPHEN: i32 = 4;
export const SEP_SLASH: i32 = 8;
export const SEP_DOT: i32 = 16;

export const ROLE_FREE: i32 = 0;
export const ROLE_HOUSE: i32 = 1;
export const ROLE_POSTCODE: i32 = 2;
export const ROLE_TYPE: i32 = 3;
export const ROLE_NAME: i32 = 4;
export const ROLE_NOISE: i32 = 5;

export const F_START: i32 = 0;
export const F_LEN: i32 = 1;
export const F_KIND: i32 = 2;
export const F_SEP: i32 = 3;
export const F_SEGMENT: i32 = 4;
export const F_ROLE: i32 = 5;
export const F_VALUE: i32 = 6;
export const F_ORDINAL: i32 = 7;
export const F_TYPE_A: i32 = 8;
export const F_TYPE_B: i32 = 9;
export const F_USED: i32 = 10;
/** cached house keyword part of the token (house/keywords.ts keywordPart); −2 until asked */
export const F_KEYWORD: i32 = 11;

export let TOKENS: usize = 0;
export let tokenCount: i32 = 0;

export function setupTokens(): void {
  if (TOKENS == 0) TOKENS = reserve(<usize>(MAX_TOKENS * TOKEN_STRIDE) << 2);
}

// @ts-ignore: decorator
@inline export function tok(i: i32, field: i32): i32 {
  return i32At(TOKENS, i * TOKEN_STRIDE + field);
}
// @ts-ignore: decorator
@inline export function setTok(i: i32, field: i32, value: i32): void {
  setI32(TOKENS, i * TOKEN_STRIDE + field, value);
}

/** First char of token i. */
// @ts-ignore: decorator
@inline export function tokChar(i: i32, k: i32): i32 {
  return u16At(NORM, tok(i, F_START) + k);
}

/**
 * Joins short abbreviations written with a hyphen (пр-кт, б-р, р-н, ст-ца, кв-л, кв-ра, пос-к): a `-` between
 * two letter runs of at most 3 letters each and 5 together is removed from NORM (SRC shifts with it), so the
 * abbreviation is one token as the vocabulary spells it (пркт). Two runs of 3 are words (`ust-kut`, read
 * `уст-кут`: Усть-Кут), not an abbreviation. The hyphen stays when the joined runs start no word of the
 * vocabulary while the first is a word and the second starts one: the start of a longer name being typed
 * (`ак-д`, `ак-дов`: Ак-Довурак, whose words are ак and довурак; the builder joins only `Ак-Су` whole).
 * Returns the new length; NORM keeps its length, spaces at the end.
 */
function joinAbbreviations(len: i32): i32 {
  let i = 1;
  while (i < len - 1) {
    if (u16At(NORM, i) == 45 && isLetter(u16At(NORM, i - 1)) && isLetter(u16At(NORM, i + 1))) {
      let a = i - 1;
      while (a > 0 && isLetter(u16At(NORM, a - 1))) a--;
      let b = i + 1;
      while (b < len && isLetter(u16At(NORM, b))) b++;
      if (i - a <= 3 && b - i - 1 <= 3 && b - a - 1 <= 5) {
        const apart = knownWord(a, i - a, false) && knownWord(i + 1, b - i - 1, true);
        const at = i32At(SRC, i);
        shiftLeft(i, len);
        if (apart && !knownWord(a, b - a - 1, true)) {
          shiftRight(i, len, at);
          i++;
          continue;
        }
        len--;
        continue;
      }
      // a compound name typed with a hyphen the vocabulary writes without (`Ново-Пашинский`: новопашинский), when
      // asked for (`setJoinCompounds`)
      if (joinCompounds && i - a >= 2 && b - i - 1 >= 3) {
        const at = i32At(SRC, i);
        shiftLeft(i, len);
        if (knownWord(a, b - a - 1, false)) {
          len--;
          continue;
        }
        shiftRight(i, len, at);
      }
    }
    i++;
  }
  return len;
}

/** Whether `joinAbbreviations` joins two long runs a hyphen parts when together they are a word: set by solve/readings.ts. */
let joinCompounds = false;
export function setJoinCompounds(on: bool): void {
  joinCompounds = on;
}

/** Tokens t and t + 1 are runs of letters a hyphen parts that together spell a word (`ново-пашинский`). */
export function hyphenCompound(t: i32): bool {
  if (t + 1 >= tokenCount || tok(t, F_KIND) != KIND_ALPHA || tok(t + 1, F_KIND) != KIND_ALPHA || tok(t + 1, F_SEP) != SEP_HYPHEN) return false;
  if (tok(t, F_LEN) < 2 || tok(t + 1, F_LEN) < 3) return false;
  return compoundWord(tok(t, F_START), tok(t, F_LEN), tok(t + 1, F_START), tok(t + 1, F_LEN));
}

/** Drops NORM[i] (and SRC[i]): what follows moves one left; the place freed at the end is a space. */
function shiftLeft(i: i32, len: i32): void {
  for (let k = i; k < len - 1; k++) {
    setU16(NORM, k, u16At(NORM, k + 1));
    setI32(SRC, k, i32At(SRC, k + 1));
  }
  setI32(SRC, len - 1, i32At(SRC, len));
  // a space: NORM tokenized again with the length the folding gave (a second reading of the same text) reads the
  // same tokens, not the last character twice
  setU16(NORM, len - 1, 32);
}

/** Undoes `shiftLeft(i, len)`: the hyphen back at i, its source index `at`. */
function shiftRight(i: i32, len: i32, at: i32): void {
  for (let k = len - 1; k > i; k--) {
    setU16(NORM, k, u16At(NORM, k - 1));
    setI32(SRC, k, i32At(SRC, k - 1));
  }
  setU16(NORM, i, 45);
  setI32(SRC, i, at);
}

/**
 * Whether `tokenize` splits a run of letters that is no word of the vocabulary, nor the start of one, into two that
 * are (`борисаельцина` → бориса ельцина, `санктпетербург`, `уланудэ`): set by solve/readings.ts for the readings that ask.
 */
let splitGlued = false;
/** hints: the second part of the last run may be the start of a word (`борисаельц`: the word being typed) */
let splitTyping = false;
export function setSplitGlued(on: bool, typing: bool = false): void {
  splitGlued = on;
  splitTyping = typing;
}
/** The shortest part a glued run is split into. */
const GLUED_PART_MIN: i32 = 3;

/**
 * Where to split NORM[i…j) into two words (trie.ts `wordsGluedAt`), or −1: not a run that starts a word itself, nor a
 * Latin one (the vocabulary is Cyrillic: the other readings read it). `len`: NORM's, for whether the run is the last.
 */
function gluedSplit(i: i32, j: i32, len: i32): i32 {
  if (j - i < 2 * GLUED_PART_MIN || u16At(NORM, i) < 0x400 || knownWord(i, j - i, true)) return -1;
  // a type word of two letters glued to the name (`улМира`, `прЛенина`): shorter than a part, read where the rest is
  // a word
  const typing = splitTyping && !hasLetterAfter(j, len);
  if (isTypeWord(i, 2) && knownWord(i + 2, j - i - 2, typing)) return i + 2;
  return wordsGluedAt(i, j - i, GLUED_PART_MIN, typing);
}

/** A letter or digit stands in NORM[from…len). */
function hasLetterAfter(from: i32, len: i32): bool {
  for (let k = from; k < len; k++) if (isLetter(u16At(NORM, k)) || isDigit(u16At(NORM, k))) return true;
  return false;
}

/** Token t is a run of letters `tokenize` would split as two words glued (`setSplitGlued`). */
export function splitsGlued(t: i32): bool {
  const start = tok(t, F_START);
  return tok(t, F_KIND) == KIND_ALPHA && gluedSplit(start, start + tok(t, F_LEN), 0) > start;
}

/** The input's character NORM[k] was folded from. */
// @ts-ignore: decorator
@inline export function sourceChar(k: i32): i32 {
  return u16At(INPUT, i32At(SRC, k));
}

/** NORM[k] is the folding of a number sign `№` of the input (text.ts folds it to н). */
// @ts-ignore: decorator
@inline function numberSignAt(k: i32): bool {
  return u16At(NORM, k) == 0x43d && sourceChar(k) == 0x2116;
}

/** The next letter or digit in NORM[from…len) is a digit. */
function digitNext(from: i32, len: i32): bool {
  for (let k = from; k < len; k++) {
    const c = u16At(NORM, k);
    if (isDigit(c)) return true;
    if (isLetter(c)) return false;
  }
  return false;
}

/** The length of the литера's word (лит, литер, литера) that NORM[i…i+len) is with one letter after it, else 0. */
function literKeywordLen(i: i32, len: i32): i32 {
  const n = len - 1;
  if (!spellsLiterWord(NORM, i, n, false)) return 0;
  // (литера itself is the word: литерА typed glued reads as it)
  return n == 5 && u16At(NORM, i + 5) == 0x430 ? 0 : n;
}

/** Tokenizes NORM[0…len); returns the token count. */
export function tokenize(len: i32): i32 {
  len = joinAbbreviations(len);
  let count = 0;
  let sep = 0;
  let segment = 0;
  let i = 0;
  while (i < len && count < MAX_TOKENS) {
    const c = u16At(NORM, i);
    if (isDigit(c) || isLetter(c)) {
      const digit = isDigit(c);
      let j = i + 1;
      let value = 0;
      // a number sign (№, folded to н) is a word of its own, glued to a word or not (`дом№5`, `квартира№10`)
      if (digit || !numberSignAt(i)) {
        while (j < len) {
          const d = u16At(NORM, j);
          if (digit ? !isDigit(d) : !isLetter(d) || numberSignAt(j)) break;
          j++;
        }
      }
      // two words glued (`БорисаЕльцина`, `уланудэ`), when asked for: two tokens where the run is no word
      if (!digit && splitGlued) {
        const k = gluedSplit(i, j, len);
        if (k > i) j = k;
      }
      // `37 дробь 15`: the word of a fraction's slash between two numbers is the slash
      if (!digit && count > 0 && tok(count - 1, F_KIND) == KIND_DIGIT && spanIs(i, j - i, 'дробь') && digitNext(j, len)) {
        sep |= SEP_SLASH;
        i = j;
        continue;
      }
      // литБ, литерБ, литераБ: the литера's word with its letter glued is two tokens (not where the run is a word)
      if (!digit) {
        const kw = literKeywordLen(i, j - i);
        if (kw > 0 && !knownWord(i, j - i, false)) j = i + kw;
      }
      // 5ак1: a letter glued between a number and к/с + number is a token of its own
      if (!digit && j - i == 2 && i > 0 && isDigit(u16At(NORM, i - 1)) && j < len && isDigit(u16At(NORM, j)) &&
          (u16At(NORM, i + 1) == 0x43a || u16At(NORM, i + 1) == 0x441)) j = i + 1;
      if (digit) {
        for (let k = i; k < j; k++) {
          value = value * 10 + (u16At(NORM, k) - 48);
          if (value > 100000000) value = 100000000;
        }
      }
      const base = count * TOKEN_STRIDE;
      setI32(TOKENS, base + F_START, i);
      setI32(TOKENS, base + F_LEN, j - i);
      setI32(TOKENS, base + F_KIND, digit ? KIND_DIGIT : KIND_ALPHA);
      setI32(TOKENS, base + F_SEP, count == 0 ? SEP_SPACE : sep);
      setI32(TOKENS, base + F_SEGMENT, segment);
      setI32(TOKENS, base + F_ROLE, ROLE_FREE);
      setI32(TOKENS, base + F_VALUE, value);
      setI32(TOKENS, base + F_ORDINAL, 0);
      setI32(TOKENS, base + F_TYPE_A, -1);
      setI32(TOKENS, base + F_TYPE_B, -1);
      setI32(TOKENS, base + F_USED, 0);
      setI32(TOKENS, base + F_KEYWORD, -2);
      count++;
      sep = 0;
      i = j;
      continue;
    }
    if (c == 44 || c == 59) {
      sep |= SEP_COMMA;
      if (count > 0 && (tok(count - 1, F_SEGMENT) == segment)) segment++;
    } else if (c == 45) sep |= SEP_HYPHEN;
    else if (c == 47) sep |= SEP_SLASH;
    else if (c == 46) sep |= SEP_DOT;
    else sep |= SEP_SPACE;
    i++;
  }
  tokenCount = count;
  return count;
}

/** Length of token i. */
// @ts-ignore: decorator
@inline export function tokLen(i: i32): i32 {
  return tok(i, F_LEN);
}

/** True when token i's text equals the ASCII-coded Cyrillic word `w` (given as a JS-side static string). */
export function tokIs(i: i32, w: string): bool {
  return spanIs(tok(i, F_START), tok(i, F_LEN), w);
}

/** NORM[start … start+len) is `w`. */
export function spanIs(start: i32, len: i32, w: string): bool {
  const n = w.length;
  if (len != n) return false;
  for (let k = 0; k < n; k++) if (u16At(NORM, start + k) != <i32>w.charCodeAt(k)) return false;
  return true;
}
