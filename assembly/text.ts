/**
 * Text folding: one pass from INPUT (the raw UTF-16 query) to NORM (folded text) with SRC mapping
 * every folded char back to its input index.
 *
 * Folding is a per-char table: upper → lower case, ё → е, Ukrainian/Belarusian/Kazakh letters to their
 * Russian look-alikes (і ї → и, є → е, ґ → г, ў → у, қ → к, …), every char that is neither a letter, a
 * digit nor one of the separators the grammar uses (`, ; / - .`) becomes a space. Variants:
 *  - PLAIN: the table alone, and a Latin look-alike glued to a house number read as its Cyrillic letter
 *    (`45a` → 45а, `40c4` → 40с4); keeps length (NORM index = INPUT index).
 *  - LAYOUT: Latin letters typed on a Russian keyboard in the Latin layout (`vjcrdf` → `москва`);
 *    keeps length; `, . ; ' [ ] \`` inside a Latin word are keys of б ю ж э х ъ ё.
 *  - TRANSLIT: Latin transliteration (`moskva ulitsa tverskaya`); shortens text (shch → щ), SRC keeps
 *    the mapping so spans still point into INPUT.
 */
import { INPUT, NORM, SRC, setU16, u16At, setI32 } from './memory';

export const VARIANT_PLAIN: i32 = 0;
export const VARIANT_LAYOUT: i32 = 1;
export const VARIANT_TRANSLIT: i32 = 2;
/** LAYOUT without the punctuation keys: `,` stays a comma, `.` a period (`; ' [ ] \`` are letters in both) */
export const VARIANT_LAYOUT_KEEP: i32 = 3;
export const VARIANT_COUNT: i32 = 4;

export const CH_SPACE: i32 = 32;

// The lower-case Cyrillic letters the folding leaves (ё is е), by their sound, for the rules that name them.
export const CH_A: i32 = 0x430; // а
export const CH_BE: i32 = 0x431; // б
export const CH_VE: i32 = 0x432; // в
export const CH_GE: i32 = 0x433; // г
export const CH_DE: i32 = 0x434; // д
export const CH_E: i32 = 0x435; // е
export const CH_ZHE: i32 = 0x436; // ж
export const CH_ZE: i32 = 0x437; // з
export const CH_I: i32 = 0x438; // и
export const CH_I_SHORT: i32 = 0x439; // й
export const CH_KA: i32 = 0x43a; // к
export const CH_O: i32 = 0x43e; // о
export const CH_PE: i32 = 0x43f; // п
export const CH_ES: i32 = 0x441; // с
export const CH_TE: i32 = 0x442; // т
export const CH_U: i32 = 0x443; // у
export const CH_EF: i32 = 0x444; // ф
export const CH_TSE: i32 = 0x446; // ц
export const CH_CHE: i32 = 0x447; // ч
export const CH_SHA: i32 = 0x448; // ш
export const CH_SHCHA: i32 = 0x449; // щ
export const CH_HARD: i32 = 0x44a; // ъ
export const CH_YERU: i32 = 0x44b; // ы
export const CH_SOFT: i32 = 0x44c; // ь
export const CH_E_ROUND: i32 = 0x44d; // э
export const CH_YU: i32 = 0x44e; // ю
export const CH_YA: i32 = 0x44f; // я

// @ts-ignore: decorator
@inline export function isCyr(c: i32): bool {
  return c >= 0x430 && c <= 0x44f;
}
// @ts-ignore: decorator
@inline export function isLatin(c: i32): bool {
  return c >= 97 && c <= 122;
}
// @ts-ignore: decorator
@inline export function isDigit(c: i32): bool {
  return c >= 48 && c <= 57;
}
// @ts-ignore: decorator
@inline export function isLetter(c: i32): bool {
  return isCyr(c) || isLatin(c);
}

/** Folds one char: lower case Cyrillic or Latin letter, digit, separator, or space. */
export function foldChar(c: i32): i32 {
  if (c >= 48 && c <= 57) return c;
  if (c >= 97 && c <= 122) return c;
  if (c >= 65 && c <= 90) return c + 32;
  if (c >= 0x430 && c <= 0x44f) return c == 0x451 ? 0x435 : c;
  if (c >= 0x410 && c <= 0x42f) return c + 32;
  switch (c) {
    case 0x401: case 0x451: return 0x435; // Ё ё → е
    case 0x404: case 0x454: return 0x435; // Є є → е
    case 0x406: case 0x456: case 0x407: case 0x457: return 0x438; // І і Ї ї → и
    case 0x490: case 0x491: return 0x433; // Ґ ґ → г
    case 0x40e: case 0x45e: return 0x443; // Ў ў → у
    case 0x4d8: case 0x4d9: return 0x430; // Ә ә → а
    case 0x492: case 0x493: return 0x433; // Ғ ғ → г
    case 0x49a: case 0x49b: return 0x43a; // Қ қ → к
    case 0x4a2: case 0x4a3: return 0x43d; // Ң ң → н
    case 0x4e8: case 0x4e9: return 0x43e; // Ө ө → о
    case 0x4b0: case 0x4b1: case 0x4ae: case 0x4af: return 0x443; // Ұ ұ Ү ү → у
    case 0x4ba: case 0x4bb: return 0x445; // Һ һ → х
    case 44: case 59: case 47: case 45: case 46: return c; // , ; / - .
    case 0x2013: case 0x2014: case 0x2212: return 45; // dashes → -
    case 0x5c: return 47; // \ → /
    case 0x2116: return 0x43d; // № → н (read as «номер» by the house grammar)
  }
  return CH_SPACE;
}

/**
 * Where each letter а…я sits on the ЙЦУКЕН keyboard: row × 64 + the key's left edge in quarters of a key (the rows
 * start 0, ¼ and ¾ of a key apart, as on the keys themselves); −1 for ё, which folds to е.
 */
const KEY_PLACE = new StaticArray<i32>(32);
const KEY_ROWS: string[] = ['йцукенгшщзхъ', 'фывапролджэ', 'ячсмитьбю'];
const ROW_SHIFT: i32[] = [0, 1, 3];
for (let i = 0; i < 32; i++) unchecked(KEY_PLACE[i] = -1);
for (let r = 0; r < 3; r++) {
  const row = KEY_ROWS[r];
  for (let k = 0; k < row.length; k++) unchecked(KEY_PLACE[row.charCodeAt(k) - 0x430] = r * 64 + k * 4 + ROW_SHIFT[r]);
}

/** Letters typed for one another by sound rather than by the finger (безударные гласные, voicing): а о, е и, … */
function soundAlike(a: i32, b: i32): bool {
  const lo = a < b ? a : b;
  const hi = a < b ? b : a;
  // а о, а я, е и, е э, е я, и ы, у ю, б п, в ф, г к, д т, ж ш, з с, ш щ, ъ ь
  return (lo == 0x430 && (hi == 0x43e || hi == 0x44f)) || (lo == 0x435 && (hi == 0x438 || hi == 0x44d || hi == 0x44f)) ||
    (lo == 0x438 && hi == 0x44b) || (lo == 0x443 && hi == 0x44e) || (lo == 0x431 && hi == 0x43f) ||
    (lo == 0x432 && hi == 0x444) || (lo == 0x433 && hi == 0x43a) || (lo == 0x434 && hi == 0x442) ||
    (lo == 0x436 && hi == 0x448) || (lo == 0x437 && hi == 0x441) || (lo == 0x448 && hi == 0x449) || (lo == 0x44a && hi == 0x44c);
}

/**
 * A slip of one letter for another that a typist makes: neighbouring keys of ЙЦУКЕН (a finger off by one key:
 * `вмдная` is видная, not водная), letters alike by sound, or anything that is not two Cyrillic letters (digits,
 * Latin). A typo between two letters far apart on the keyboard and unlike in sound is rarer.
 */
export function nearKeys(a: i32, b: i32): bool {
  return keyNeighbours(a, b) || soundAlike(a, b);
}

/** Two keys next to each other on ЙЦУКЕН (or not two Cyrillic letters: nothing to tell). */
export function keyNeighbours(a: i32, b: i32): bool {
  if (!isCyr(a) || !isCyr(b)) return true;
  const p = unchecked(KEY_PLACE[a - 0x430]);
  const q = unchecked(KEY_PLACE[b - 0x430]);
  if (p < 0 || q < 0) return true;
  const rows = (p >> 6) - (q >> 6);
  const across = (p & 63) - (q & 63);
  return rows >= -1 && rows <= 1 && across >= -4 && across <= 4;
}

/** Latin key → Cyrillic letter on the ЙЦУКЕН layout; 0 when the key has none. */
export function layoutChar(c: i32): i32 {
  switch (c) {
    case 113: return 0x439; case 119: return 0x446; case 101: return 0x443; case 114: return 0x43a;
    case 116: return 0x435; case 121: return 0x43d; case 117: return 0x433; case 105: return 0x448;
    case 111: return 0x449; case 112: return 0x437; case 91: return 0x445; case 93: return 0x44a;
    case 97: return 0x444; case 115: return 0x44b; case 100: return 0x432; case 102: return 0x430;
    case 103: return 0x43f; case 104: return 0x440; case 106: return 0x43e; case 107: return 0x43b;
    case 108: return 0x434; case 59: return 0x436; case 39: return 0x44d; case 122: return 0x44f;
    case 120: return 0x447; case 99: return 0x441; case 118: return 0x43c; case 98: return 0x438;
    case 110: return 0x442; case 109: return 0x44c; case 44: return 0x431; case 46: return 0x44e;
    case 96: return 0x435;
  }
  return 0;
}

/**
 * A Latin letter typed for its Cyrillic look-alike in a house number (`45a`, `40c4`, `1B`): the Cyrillic letter
 * (B is В, b is б, as in `parseHouseNumber` of the dictionary builder), or the one it transliterates where no
 * look-alike is (`6d` д, `67v` в, `3g` г, `5z` з, `7l` л, `9n` н); 0 for other letters.
 */
function houseLookalike(c: i32): i32 {
  switch (c) {
    case 98: return 0x431; // b → б
    case 100: case 68: return 0x434; // d D → д
    case 118: case 86: return 0x432; // v V → в
    case 103: case 71: return 0x433; // g G → г
    case 122: case 90: return 0x437; // z Z → з
    case 108: case 76: return 0x43b; // l L → л
    case 110: case 78: return 0x43d; // n N → н
    case 115: case 83: return 0x441; // s S → с (`12s1`: строение 1)
  }
  return wordLookalike(c);
}

/**
 * INPUT[i], a letter, stands after a space that follows a house's number (and its letter): the house's letter
 * (`5 a`) or a keyword's before its number (`15 k2`, `6А c3`), typed in the Latin layout.
 */
function keyAfterNumber(i: i32, len: i32): bool {
  // after a space, a hyphen or a quote (`5 a`, `4-a`, `4 - a`, `5 "a"`), or the литера's word and its dot (`лит A`,
  // `литер. B`)
  let k = i - 1;
  let hyphen = false;
  while (k >= 0 && letterGap(u16At(INPUT, k))) {
    if (u16At(INPUT, k) == 45) hyphen = true;
    k--;
  }
  if (k < 1 || k == i - 1) return false;
  if (literWordEndsAt(k)) return true;
  if (u16At(INPUT, i - 1) == 46) return false;
  // (after a hyphen only a letter no keyword or ordinal's suffix opens: `4-a`, not `40-k`, `5-y`)
  if (hyphen && !hyphenLetter(u16At(INPUT, i))) return false;
  if (k > 0 && isLetter(foldChar(u16At(INPUT, k))) && isDigit(u16At(INPUT, k - 1))) k--; // the house's own letter
  return isDigit(u16At(INPUT, k));
}

/** U+200B–U+200D, U+2060, U+00AD, U+FEFF: characters that show nothing. */
// @ts-ignore: decorator
@inline export function invisible(c: i32): bool {
  return (c >= 0x200b && c <= 0x200d) || c == 0x2060 || c == 0xad || c == 0xfeff;
}

/** a A b B v V g G e E z Z: the look-alikes a house's letter after a hyphen may be (а б в г е з) */
// @ts-ignore: decorator
@inline function hyphenLetter(c: i32): bool {
  const l = c | 32;
  return l == 97 || l == 98 || l == 118 || l == 103 || l == 101 || l == 122;
}

/** What may stand between a house's number and its letter: a space, a hyphen, a dot, a quote (" ' « »). */
// @ts-ignore: decorator
@inline function letterGap(c: i32): bool {
  return c == 32 || c == 45 || c == 46 || c == 34 || c == 39 || c == 0xab || c == 0xbb;
}

/** INPUT[… k] ends with the литера's word (лит, литер, литера) standing alone. */
function literWordEndsAt(k: i32): bool {
  let start = k;
  while (start > 0 && isLetter(foldChar(u16At(INPUT, start - 1)))) start--;
  return spellsLiterWord(INPUT, start, k - start + 1, true);
}

const LITERA = 'литера';

/**
 * buf[start … start+n) spells the литера's word (лит, литер, литера), each character folded first when `fold` (the
 * raw input; NORM is folded already).
 */
export function spellsLiterWord(buf: usize, start: i32, n: i32, fold: bool): bool {
  if (n != 3 && n != 5 && n != 6) return false;
  for (let k = 0; k < n; k++) {
    const c = u16At(buf, start + k);
    if ((fold ? foldChar(c) : c) != <i32>LITERA.charCodeAt(k)) return false;
  }
  return true;
}

/** A Latin letter that looks like a Cyrillic one (A a B C c E e H K k M m O o P p T X x y): that letter, else 0. */
function wordLookalike(c: i32): i32 {
  switch (c) {
    case 97: case 65: return 0x430; // a A → а
    case 66: return 0x432; // B → в
    case 99: case 67: return 0x441; // c C → с
    case 101: case 69: return 0x435; // e E → е
    case 72: return 0x43d; // H → н
    case 107: case 75: return 0x43a; // k K → к
    case 109: case 77: return 0x43c; // m M → м
    case 111: case 79: return 0x43e; // o O → о
    case 112: case 80: return 0x440; // p P → р
    case 84: return 0x442; // T → т
    case 120: case 88: return 0x445; // x X → х
    case 121: return 0x443; // y → у
  }
  return 0;
}

/** The end (exclusive) of the run of letters `cyrillicInWord` read last in this `normalize`, and its answer. */
let runEnd: i32 = -1;
let runMixed = false;

/**
 * The run of Latin and Cyrillic letters around INPUT[i] holds a Cyrillic letter. Read once per run: `normalize` asks
 * in input order, so an index below `runEnd` lies in the run read last.
 */
function cyrillicInWord(i: i32, len: i32): bool {
  if (i < runEnd) return runMixed;
  let start = i;
  while (start > 0 && (isLatinRaw(u16At(INPUT, start - 1)) || isCyr(foldChar(u16At(INPUT, start - 1))))) start--;
  let end = i + 1;
  while (end < len && (isLatinRaw(u16At(INPUT, end)) || isCyr(foldChar(u16At(INPUT, end))))) end++;
  runMixed = false;
  for (let k = start; k < end && !runMixed; k++) runMixed = isCyr(foldChar(u16At(INPUT, k)));
  runEnd = end;
  return runMixed;
}

// @ts-ignore: decorator
@inline function lowerAscii(c: i32): i32 {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

// @ts-ignore: decorator
@inline function isLatinRaw(c: i32): bool {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** A key that types a Russian letter on the ЙЦУКЕН layout and is rarely punctuation: ; ' [ ] ` (ж э х ъ ё). */
function isLetterKey(c: i32): bool {
  return c == 59 || c == 39 || c == 91 || c == 93 || c == 96;
}

/** A Latin letter or a punctuation key that types a Russian letter on the ЙЦУКЕН layout. */
function isLayoutKey(c: i32): bool {
  return isLatinRaw(c) || c == 44 || c == 46 || isLetterKey(c);
}

/**
 * The word goes on at INPUT[at…] after a `,` typed for б: past a `.` key comes a Latin letter or another letter key
 * (`,fh,.cf` барбюса, `j,[jlyjq` обходной). Not past another comma: `tr,,vjcrjdcrfz` is ек,, московская more often
 * than a double б.
 */
function wordGoesOn(at: i32, len: i32): bool {
  if (at < len && u16At(INPUT, at) == 46) at++;
  if (at >= len) return false;
  const c = u16At(INPUT, at);
  return isLatinRaw(c) || isLetterKey(c);
}

/** The `,` of б after a house number (or a number and `/`) closes the string or comes before `,` or `/`. */
function houseLetterKey(i: i32, len: i32): bool {
  const prev = i > 0 ? u16At(INPUT, i - 1) : 0;
  const next = i + 1 < len ? u16At(INPUT, i + 1) : 0;
  const afterNumber = isDigit(prev) || (prev == 47 && i > 1 && isDigit(u16At(INPUT, i - 2)));
  return afterNumber && (next == 0 || next == 44 || next == 47);
}

/** INPUT[at…] starts with a number of one or two digits (a building's number after its house's letter: `59,1`). */
function shortNumberAt(at: i32, len: i32): bool {
  let end = at;
  while (end < len && isDigit(u16At(INPUT, end))) end++;
  return end > at && end - at <= 2;
}

/**
 * Number of Latin letters and of the letter keys `; ' [ ] `` in the input (`.;f` южа): decides whether the LAYOUT and
 * TRANSLIT variants are tried.
 */
export function latinKeys(len: i32): i32 {
  let n = 0;
  for (let i = 0; i < len; i++) {
    const c = u16At(INPUT, i);
    if (isLatinRaw(c) || isLetterKey(c)) n++;
  }
  return n;
}

/**
 * A `[` or `]` touches a Latin letter, or a `;` stands between a Latin letter and another key of a word (`.;f` южа):
 * keys of the Russian layout typed in the Latin one (`,k.[t` блюхе), which no transliteration writes (its `'` is a
 * soft sign, and it is not counted here).
 */
export function layoutKeysInWord(len: i32): bool {
  for (let i = 0; i < len; i++) {
    const c = u16At(INPUT, i);
    if (c != 91 && c != 93 && c != 59) continue;
    const before = i > 0 ? u16At(INPUT, i - 1) : 0;
    const after = i + 1 < len ? u16At(INPUT, i + 1) : 0;
    const prev = isLatinRaw(before);
    const next = isLatinRaw(after);
    if (c == 59 ? (prev && isLayoutKey(after)) || (next && isLayoutKey(before)) : prev || next) return true;
  }
  return false;
}

/** The first character of the input that is not a space (set by `normalize`): a `,` or `.` there punctuates nothing. */
let textStart: i32 = 0;

// @ts-ignore: decorator
@inline function emit(out: i32, c: i32, src: i32): i32 {
  setU16(NORM, out, c);
  setI32(SRC, out, src);
  return out + 1;
}

// @ts-ignore: decorator
@inline function isVowelLatin(c: i32): bool {
  return c == 97 || c == 101 || c == 105 || c == 111 || c == 117 || c == 121;
}

/** Transliterates the Latin letters at INPUT[i…]; returns how many input chars it consumed, writes chars. */
function translitAt(i: i32, len: i32): i32 {
  const c0 = lowerAscii(u16At(INPUT, i));
  const c1 = i + 1 < len ? lowerAscii(u16At(INPUT, i + 1)) : 0;
  const c2 = i + 2 < len ? lowerAscii(u16At(INPUT, i + 2)) : 0;
  const c3 = i + 3 < len ? lowerAscii(u16At(INPUT, i + 3)) : 0;
  // four and three letter groups
  if (c0 == 115 && c1 == 104 && c2 == 99 && c3 == 104) { tlOut = 0x449; return 4; } // shch щ
  if (c0 == 115 && c1 == 99 && c2 == 104) { tlOut = 0x449; return 3; } // sch щ
  // two letter groups
  if (c1 == 104) {
    if (c0 == 122) { tlOut = 0x436; return 2; } // zh ж
    if (c0 == 107) { tlOut = 0x445; return 2; } // kh х
    if (c0 == 99) { tlOut = 0x447; return 2; } // ch ч
    if (c0 == 115) { tlOut = 0x448; return 2; } // sh ш
  }
  // ts tz ц, but tsh is т and ш or щ (krupnosortshchikov: Крупносортщиков, rotshild)
  if ((c0 == 116 && c1 == 115 && c2 != 104) || (c0 == 116 && c1 == 122)) { tlOut = 0x446; return 2; }
  if (c0 == 121 || c0 == 106) {
    if (c1 == 117) { tlOut = 0x44e; return 2; } // yu ю
    if (c1 == 97) { tlOut = 0x44f; return 2; } // ya я
    if (c1 == 111) { tlOut = 0x435; return 2; } // yo ё→е
    if (c1 == 101) { tlOut = 0x435; return 2; } // ye е
  }
  if (c0 == 105 && c1 == 121 && !isVowelLatin(c2)) { tlOut = 0x438; tlOut2 = 0x439; return 2; } // iy ий
  // the passports' (ICAO) я ia after a vowel (`borovaia` боровая, `altaiskaia`); elsewhere ia stays иа
  // (`aviatsionnaya`; `lennia`, ленина with two letters swapped), and iu stays иу (`shubniuova`, a slip of шубникова)
  if (c0 == 105 && c1 == 97 && i > 0 && isVowelLatin(lowerAscii(u16At(INPUT, i - 1)))) {
    tlOut = 0x44f;
    return 2;
  }
  if (c0 == 121 && c1 == 121) { tlOut = 0x44b; tlOut2 = 0x439; return 2; } // yy ый
  switch (c0) {
    case 97: tlOut = 0x430; return 1;
    case 98: tlOut = 0x431; return 1;
    case 118: case 119: tlOut = 0x432; return 1;
    case 103: tlOut = 0x433; return 1;
    case 100: tlOut = 0x434; return 1;
    case 101: tlOut = 0x435; return 1;
    case 122: tlOut = 0x437; return 1;
    case 105: tlOut = 0x438; return 1;
    case 106: tlOut = 0x439; return 1;
    case 107: case 113: tlOut = 0x43a; return 1;
    case 108: tlOut = 0x43b; return 1;
    case 109: tlOut = 0x43c; return 1;
    case 110: tlOut = 0x43d; return 1;
    case 111: tlOut = 0x43e; return 1;
    case 112: tlOut = 0x43f; return 1;
    case 114: tlOut = 0x440; return 1;
    case 115: tlOut = 0x441; return 1;
    case 116: tlOut = 0x442; return 1;
    case 117: tlOut = 0x443; return 1;
    case 102: tlOut = 0x444; return 1;
    case 104: tlOut = 0x445; return 1;
    case 99: tlOut = (c1 == 101 || c1 == 105) ? 0x446 : 0x43a; return 1;
    case 120: tlOut = 0x43a; tlOut2 = 0x441; return 1;
    case 121: {
      // y after a vowel closes a syllable (maykop → майкоп); after k, g or h (kh zh ch sh) it is и, as Russian
      // spelling has it, and at the word's end ий (`sibirsky` сибирский, `gorky` горький); else ы
      const prev = i > 0 ? lowerAscii(u16At(INPUT, i - 1)) : 0;
      if (isVowelLatin(prev)) tlOut = 0x439;
      else if (prev == 107 || prev == 103 || prev == 104) {
        tlOut = 0x438;
        if (!(i + 1 < len && isLatinRaw(u16At(INPUT, i + 1)))) tlOut2 = 0x439;
      } else tlOut = 0x44b;
      return 1;
    }
  }
  tlOut = CH_SPACE;
  return 1;
}
let tlOut: i32 = 0;
let tlOut2: i32 = 0;

/** The variant NORM holds (the trie reads a transliteration more leniently: trie.ts). */
export let normVariant: i32 = VARIANT_PLAIN;
/** The input has a Cyrillic letter (set by the PLAIN reading): Latin keywords among Cyrillic words (house/keywords.ts `latinKeyword`) */
export let cyrillicInput = false;
/**
 * The last LAYOUT reading took a `,` or `.` for a letter (`,fevfyf` → баумана). Then LAYOUT and LAYOUT_KEEP are two
 * readings of the text (`,ek` is бул in one and `, ул` in the other); else they fold it alike.
 */
export let layoutKeysRead: bool = false;

/**
 * The vocabulary's test of a folded word (trie.ts `isWord`: NORM[start … start+len) is a word, or with `prefix` the
 * start of one), set by abi.ts: the folding reads no dictionary itself. Until it is set, no word is known.
 */
let wordAt: (start: i32, len: i32, prefix: bool) => bool = (start: i32, len: i32, prefix: bool): bool => false;
export function setWordTest(test: (start: i32, len: i32, prefix: bool) => bool): void {
  wordAt = test;
}

/**
 * The vocabulary's test alone (trie.ts `isWord`, no house keywords), for the tokenizer's hyphen joins: with no
 * dictionary no word is known and every join is made, as the builder's fold.ts makes it.
 */
let vocabularyAt: (start: i32, len: i32, prefix: bool) => bool = (start: i32, len: i32, prefix: bool): bool => false;
export function setVocabularyTest(test: (start: i32, len: i32, prefix: bool) => bool): void {
  vocabularyAt = test;
}

/** NORM[start … start+len) is a word of the vocabulary (`prefix`: the start of one); false with no dictionary. */
export function knownWord(start: i32, len: i32, prefix: bool): bool {
  return vocabularyAt(start, len, prefix);
}

/**
 * LAYOUT's `,` read as б before a letter and `.` read as ю after a letter (NORM indices, at most KEYS_KEPT), for
 * `punctuationBetweenWords`.
 */
const KEYS_KEPT: i32 = 16;
const KEY_AT = new StaticArray<i32>(KEYS_KEPT);
let keyCount: i32 = 0;

/**
 * LAYOUT reads a `,` before a letter as б (`trfnthby,ehu` → екатеринбург) and a `.` after a letter before another
 * key as ю (`,k.[thf` → блюхера). Where that spells no word, it stays punctuation when a comma leaves a word on its
 * right (`,fqrjyeh,gh-rn` → байконурбпр-кт, or байконур, пр-кт; `25,rd` → 25бкв, or 25, кв; a house keyword counts as
 * a word) or a dot leaves a word on its left and a word or nothing on its right (`ek.,` → улю, or ул.,): a string
 * typed in the wrong layout with its commas and dots written between words without spaces reads right in one
 * reading. The last word may be the start of one (a hint being typed).
 */
function punctuationBetweenWords(length: i32): void {
  let end = length;
  while (end > 0 && !isLetter(u16At(NORM, end - 1))) end--;
  for (let k = 0; k < keyCount; k++) {
    const at = unchecked(KEY_AT[k]);
    let from = at;
    while (from > 0 && isLetter(u16At(NORM, from - 1))) from--;
    let to = at + 1;
    while (to < length && isLetter(u16At(NORM, to))) to++;
    if (wordAt(from, to - from, to == end)) continue;
    // a comma takes the word on its right (the one on its left may be misspelt: `,tkbyccrjuj,l` is белинсского, д),
    // or after a house number any word of three letters or more (`28,ljvjajy`, `26d,ljvjajy`: 28, домофон, not 28б
    // and домофон); a dot ends the word on its left
    const right = to - at - 1;
    const rightWord = right > 0 && wordAt(at + 1, right, to == end);
    const afterNumber = at - from <= 1 && from > 0 && isDigit(u16At(NORM, from - 1));
    let stays = false;
    if (u16At(INPUT, at) == 44) stays = rightWord || (right >= 3 && afterNumber);
    else stays = (from == at || wordAt(from, at - from, false)) && (right == 0 || rightWord);
    if (stays) setU16(NORM, at, u16At(INPUT, at));
  }
}

/** Writes the folded text of INPUT[0…len) for a variant into NORM/SRC; returns the folded length. */
export function normalize(len: i32, variant: i32): i32 {
  normVariant = variant;
  if (variant == VARIANT_PLAIN) {
    cyrillicInput = false;
    for (let k = 0; k < len && !cyrillicInput; k++) cyrillicInput = u16At(INPUT, k) >= 0x400 && u16At(INPUT, k) < 0x530;
  }
  if (variant == VARIANT_LAYOUT) layoutKeysRead = false;
  keyCount = 0;
  runEnd = -1;
  textStart = 0;
  while (textStart < len && u16At(INPUT, textStart) == 32) textStart++;
  let out = 0;
  let i = 0;
  while (i < len) {
    const raw = u16At(INPUT, i);
    // characters that show nothing (a zero-width space, a soft hyphen, a word joiner, a BOM: text pasted from a web page
    // or a word processor) are no break in a word: `Мур\u200bзинская` is мурзинская
    if (invisible(raw)) {
      i++;
      continue;
    }
    if (variant == VARIANT_LAYOUT || variant == VARIANT_LAYOUT_KEEP) {
      const lower = lowerAscii(raw);
      let mapped = 0;
      if (isLatinRaw(raw)) mapped = layoutChar(lower);
      else if (((variant == VARIANT_LAYOUT || i == textStart) && (raw == 44 || raw == 46)) || isLetterKey(raw)) {
        // punctuation keys count as letters when they touch a Latin word; LAYOUT_KEEP leaves `,` and `.` (the others
        // are rarely punctuation in an address: `rhfcys[ r` is красных к in both readings, not красны к), but for one
        // that opens the text, where nothing is to be punctuated (`,fpj` is базо in both, not азо)
        const prev = i > 0 ? u16At(INPUT, i - 1) : 0;
        const next = i + 1 < len ? u16At(INPUT, i + 1) : 0;
        // `,` is б when a Latin letter follows (`,fevfyf` → баумана, `trfnthby,ehu`), else a comma (`ehu, ekbwf`);
        // a dot is ю when a letter follows inside or at the start of a word (`,k.[thf` → блюхера, `.;f` → южа;
        // `ek.` → ул.); ж э х ъ ё whenever they touch a word (semicolons are rare in addresses)
        // after a number, `,` closing the string or followed by a comma, a slash or a number of one or two digits is
        // the house letter б (`12,` → 12б, `12,, rd 5` → 12б, кв 5, `1,/1` → 1б/1, `59,1` → 59б1: LAYOUT_KEEP reads
        // 59, 1; `rd/63,468321` is кв.63, and a postcode); followed by a space it stays a comma (`12, rd 5`: LAYOUT_KEEP
        // reads the same)
        let letter = false;
        // `,` before more keys of the word is б too (`j,[jlyjq` обходной, `,fh,.cf` барбюса); `69/,` is 69/б as
        // `12,` is 12б (a `.` there stays a period: `5.` is rarely 5ю)
        if (raw == 44) {
          letter = isLatinRaw(next) || (isLatinRaw(prev) && wordGoesOn(i + 1, len)) || houseLetterKey(i, len) ||
            (isDigit(prev) && shortNumberAt(i + 1, len));
        } else if (raw == 46) letter = isLayoutKey(next) && (isLayoutKey(prev) || prev == 32 || prev == 0);
        else letter = isLayoutKey(prev) || isLayoutKey(next) || isDigit(prev); // ; ' [ ] ` (Малмыж: vkvs;; 34; → 34ж)
        if (letter) {
          mapped = layoutChar(raw);
          if (variant == VARIANT_LAYOUT) {
            if (raw == 44 || raw == 46) layoutKeysRead = true;
            if ((raw == 46 ? isLatinRaw(prev) : isLatinRaw(next) || isLatinRaw(prev)) && keyCount < KEYS_KEPT) {
              unchecked(KEY_AT[keyCount++] = out);
            }
          }
        }
      }
      out = emit(out, mapped != 0 ? foldChar(mapped) : foldChar(raw), i);
      i++;
    } else if (variant == VARIANT_TRANSLIT && isLatinRaw(raw)) {
      tlOut2 = 0;
      const used = translitAt(i, len);
      out = emit(out, tlOut, i);
      if (tlOut2 != 0) out = emit(out, tlOut2, i);
      i += used;
    } else if (variant == VARIANT_TRANSLIT && raw == 39) {
      i++; // apostrophe of a soft sign: dropped
    } else {
      let folded = foldChar(raw);
      // PLAIN: a lone Latin look-alike right after a digit is the house's Cyrillic letter (`45a`, `40c4`), and one
      // after a space that follows a house's number (`5 a`; `15 k2`, `6А c3`: корпус 2, строение 3)
      if (variant == VARIANT_PLAIN && isLatinRaw(raw) && i > 0 && (isDigit(u16At(INPUT, i - 1)) || keyAfterNumber(i, len)) &&
          !(i + 1 < len && isLetter(foldChar(u16At(INPUT, i + 1))))) {
        const lookalike = houseLookalike(raw);
        if (lookalike != 0) folded = lookalike;
      } else if (variant == VARIANT_PLAIN && isLatinRaw(raw) && cyrillicInWord(i, len)) {
        // and inside a word of Cyrillic letters, its look-alike (`EKATEPИHБУPГ`, `Мaлышевa`: the letters of two
        // keyboards mixed, as copied text often has them; b is no б there)
        const lookalike = wordLookalike(raw);
        if (lookalike != 0) folded = lookalike;
      }
      out = emit(out, folded, i);
      i++;
    }
  }
  setI32(SRC, out, len);
  if (keyCount > 0) punctuationBetweenWords(out);
  return out;
}
