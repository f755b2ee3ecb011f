/**
 * House-part grammar: finds the postcode, the house number and every HouseDetails member in the token
 * table, marks their tokens (role HOUSE / POSTCODE) so the name classifiers skip them, and records each
 * member as a token range.
 *
 * Parts (index = HouseDetails order of conventions.md):
 *   0 house 1 case 2 build 3 liter 4 lend 5 constr 6 stead 7 entr 8 floor 9 flat 10 office 11 room
 *   12 kab 13 place 14 block 15 pav 16 sek 17 abon 18 munit
 * PARTS: PART_COUNT × [firstToken, lastToken] (−1 when absent).
 *
 * What it reads:
 *   д 10а, дом53, д.20-18 (flat 18), 11/-89 (flat 89), 10/2 (a fraction), 10к2, 10 к 2, 10 корп. 2,
 *   10с12, стр. 2, лит А, двлд. 4 (a possession is the house), ЭТ 8 БЛОК Г ОФ 839, кв. 126, 3-122,
 *   7-й / 22-й (ordinals: part of a name, never a house), 6 digits alone (a postcode; 5 opening the string,
 *   before a word, too: Ukraine's), 11 digits (a phone).
 */
import { NORM, reserve, i32At, setI32, u16At, setU16 } from './memory';
import {
  tok, setTok, tokChar, tokenCount, tokIs, spanIs, sourceChar, F_KEYWORD, F_KIND, F_LEN, F_SEP, F_ROLE, F_ORDINAL, F_SEGMENT, F_START, F_VALUE,
  KIND_DIGIT, KIND_ALPHA, SEP_HYPHEN, SEP_SLASH, SEP_COMMA, SEP_SPACE, SEP_DOT, ROLE_FREE, ROLE_HOUSE, ROLE_POSTCODE, ROLE_NOISE,
} from './tokenize';
import { cyrillicInput, isDigit, normVariant, VARIANT_PLAIN, VARIANT_TRANSLIT } from './text';
import { hasVocabulary, isTypeWord } from './trie';
import { ensureSubtrees, postcodeObject, postcodeSlice } from './subtree';

import { PART_COUNT } from './layout';

export { PART_COUNT };
export const P_HOUSE: i32 = 0;
export const P_CASE: i32 = 1;
export const P_BUILD: i32 = 2;
export const P_LITER: i32 = 3;
export const P_LEND: i32 = 4;
export const P_CONSTR: i32 = 5;
export const P_STEAD: i32 = 6;
export const P_ENTR: i32 = 7;
export const P_FLOOR: i32 = 8;
export const P_FLAT: i32 = 9;
export const P_OFFICE: i32 = 10;
export const P_ROOM: i32 = 11;
export const P_KAB: i32 = 12;
export const P_PLACE: i32 = 13;
export const P_BLOCK: i32 = 14;
export const P_PAV: i32 = 15;
export const P_SEK: i32 = 16;
export const P_ABON: i32 = 17;
export const P_MUNIT: i32 = 18;

export let PARTS: usize = 0;
/** postcode token index, −1 when none */
export let postcodeToken: i32 = -1;

/** the postcode's last token: postcodeToken, or the second half of one typed in two (`468 320`) */
export let postcodeLastToken: i32 = -1;
let postcodeValue: i32 = -1;

/** The postcode typed (the postcode token's value), −1 when none. */
export function typedPostcode(): i32 {
  return postcodeToken >= 0 ? postcodeValue : -1;
}
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
/** `35д-253`, `37к-148`: the keyword letter glued to the house number before a hyphen and a flat (−1: none) */
let keywordLetter: i32 = -1;
/**
 * The flat read from a bare number after a space or a hyphen (`Ленина 5 1`, `37-9`; −1: none): the alternative key
 * reads it as the corpus (5к1, 37к9), which the solver takes when the street has no house of the number alone
 * (`takeAltHouse`).
 */
let spacedFlatAt: i32 = -1;
/** The alternative key is the spaced number's corpus reading, not a fraction's (`73/1`). */
let altSpaced = false;
/** The alternative key reads the typed corpus as a fraction (`14 к2` → 14/2). */
let altFraction = false;
/** The alternative key reads the letter glued to the корпус as the литера (`12к4Б` → 12бк4). */
let altCaseLiter = false;

export function setupHouse(): void {
  if (PARTS == 0) {
    PARTS = reserve(<usize>(PART_COUNT * 2) << 2);
    HOUSE_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
    HOUSE_ALT_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
    HOUSE_FRACTION_BUILD_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
    HOUSE_WIDE_KEY = reserve(<usize>HOUSE_KEY_CAPACITY << 1);
  }
}

// @ts-ignore: decorator
@inline export function partFirst(p: i32): i32 { return i32At(PARTS, p * 2); }
// @ts-ignore: decorator
@inline export function partLast(p: i32): i32 { return i32At(PARTS, p * 2 + 1); }
// @ts-ignore: decorator
@inline function setPart(p: i32, first: i32, last: i32): void {
  setI32(PARTS, p * 2, first);
  setI32(PARTS, p * 2 + 1, last);
}

/** Part a keyword token opens, or −1. Multi-token keywords (а/я, в/ч, кв-ра, п-д) are checked by the caller. */
export function keywordPart(i: i32): i32 {
  let part = tok(i, F_KEYWORD);
  if (part == -2) {
    part = readKeyword(i);
    setTok(i, F_KEYWORD, part);
  }
  return part;
}

function readKeyword(i: i32): i32 {
  if (tok(i, F_KIND) != KIND_ALPHA || englishStreet(i)) return -1;
  const part = keywordAt(tok(i, F_START), tok(i, F_LEN));
  // к and с alone with no number before them and a name's word before them are that name's initial (`Либкнехта К.,
  // 20`, `Разина С. 36`), not a корпус or строение of no house
  if ((part == P_CASE || part == P_BUILD) && tok(i, F_LEN) == 1 && i > 0 && tok(i - 1, F_KIND) == KIND_ALPHA &&
      keywordAt(tok(i - 1, F_START), tok(i - 1, F_LEN)) < 0 && !digitBefore(i)) return -1;
  return part;
}

/** The part the keyword NORM[at … at+len) opens (`кв` a flat), or −1. */
export function keywordAt(at: i32, len: i32): i32 {
  if (len > 12) return -1;
  const part = len > 0 ? russianKeyword(at, len) : -1;
  if (part >= 0) return part;
  if (normVariant == VARIANT_TRANSLIT) return englishKeyword(at, len);
  return normVariant == VARIANT_PLAIN && cyrillicInput && len >= 2 && u16At(NORM, at) < 0x80 ? latinKeyword(at, len) : -1;
}

/**
 * A keyword typed in Latin letters among Cyrillic words, as the string is read as typed (`Малышева 5 kv 3`: the
 * reading that transliterates the whole string reads the rest worse, and the as-typed one settles). Two letters at
 * least: a Latin letter alone after a number is the house's (`10a`).
 */
function latinKeyword(at: i32, len: i32): i32 {
  if (spanIs(at, len, 'kv') || spanIs(at, len, 'kvartira') || spanIs(at, len, 'kvart') || spanIs(at, len, 'apt') || spanIs(at, len, 'flat')) return P_FLAT;
  if (spanIs(at, len, 'korp') || spanIs(at, len, 'korpus') || spanIs(at, len, 'kor')) return P_CASE;
  if (spanIs(at, len, 'str') || spanIs(at, len, 'stroenie')) return P_BUILD;
  if (spanIs(at, len, 'lit') || spanIs(at, len, 'liter') || spanIs(at, len, 'litera')) return P_LITER;
  if (spanIs(at, len, 'of') || spanIs(at, len, 'ofis') || spanIs(at, len, 'office')) return P_OFFICE;
  if (spanIs(at, len, 'kom') || spanIs(at, len, 'komn') || spanIs(at, len, 'komnata')) return P_ROOM;
  if (spanIs(at, len, 'pom') || spanIs(at, len, 'pomeshchenie') || spanIs(at, len, 'pomeshenie')) return P_PLACE;
  if (spanIs(at, len, 'et') || spanIs(at, len, 'etazh') || spanIs(at, len, 'floor')) return P_FLOOR;
  if (spanIs(at, len, 'pod') || spanIs(at, len, 'podezd') || spanIs(at, len, 'podyezd') || spanIs(at, len, 'entrance')) return P_ENTR;
  if (spanIs(at, len, 'dom')) return P_HOUSE;
  if (spanIs(at, len, 'uch') || spanIs(at, len, 'uchastok')) return P_STEAD;
  return -1;
}

/**
 * The Russian and Ukrainian house keywords as normalized (lower case, ё as е), each with the part it opens
 * (KEYWORD_PARTS, same index). A span is compared only with the keywords of its first letter (`keywordsFrom`).
 */
const KEYWORD_WORDS: StaticArray<string> = [
  'д', 'дом', 'н', 'дд', 'вл', 'влд', 'владение', 'двлд', 'домовладение', 'домовл', 'номер', 'буд', 'будинок', 'зд', 'здание',
  'к', 'корп', 'корпус', 'кор', 'копр',
  'с', 'стр', 'строение', 'стре', 'строен',
  'лит', 'литер', 'литера', 'л',
  'соор', 'сооружение', 'сооруж',
  'уч', 'участок', 'зу',
  'под', 'подъезд', 'подьезд', 'пд', 'парадная', 'парадной',
  'эт', 'этаж', 'поверх',
  'кв', 'квартира', 'кварт', 'квар', 'квра', 'кра',
  'оф', 'офис',
  'ком', 'комн', 'комната', 'кимн', 'кимната',
  'каб', 'кабинет',
  'пом', 'помещение', 'помещ',
  'блок', 'бл',
  'пав', 'павильон',
  'сек', 'секц', 'секция',
];
const KEYWORD_PARTS: StaticArray<i32> = [
  P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE, P_HOUSE,
  P_CASE, P_CASE, P_CASE, P_CASE, P_CASE,
  P_BUILD, P_BUILD, P_BUILD, P_BUILD, P_BUILD,
  P_LITER, P_LITER, P_LITER, P_LITER,
  P_CONSTR, P_CONSTR, P_CONSTR,
  P_STEAD, P_STEAD, P_STEAD,
  P_ENTR, P_ENTR, P_ENTR, P_ENTR, P_ENTR, P_ENTR,
  P_FLOOR, P_FLOOR, P_FLOOR,
  P_FLAT, P_FLAT, P_FLAT, P_FLAT, P_FLAT, P_FLAT,
  P_OFFICE, P_OFFICE,
  P_ROOM, P_ROOM, P_ROOM, P_ROOM, P_ROOM,
  P_KAB, P_KAB,
  P_PLACE, P_PLACE, P_PLACE,
  P_BLOCK, P_BLOCK,
  P_PAV, P_PAV,
  P_SEK, P_SEK, P_SEK,
];

/** а … я */
const INITIALS: i32 = 32;

/** The slot of a first letter among INITIALS (а is 0), or out of range (≥ INITIALS as u32) for any other character. */
// @ts-ignore: decorator
@inline function initialSlot(code: i32): i32 { return code - 0x430; }

/** the keywords of initial slot b are KEYWORD_WORDS[keywordOrder[i]] for i in keywordsFrom[b] … keywordsFrom[b + 1] */
const keywordsFrom = new StaticArray<i32>(INITIALS + 1);
const keywordOrder = new StaticArray<i32>(KEYWORD_WORDS.length);
indexKeywords();

/** Sorts the keywords by first letter, at start: a keyword added to the list is found by its own letter. */
function indexKeywords(): void {
  assert(KEYWORD_WORDS.length == KEYWORD_PARTS.length, 'a keyword without its part');
  const n = KEYWORD_WORDS.length;
  for (let i = 0; i < n; i++) {
    const b = initialSlot(KEYWORD_WORDS[i].charCodeAt(0));
    assert(<u32>b < <u32>INITIALS, 'a keyword not in а … я');
    keywordsFrom[b + 1]++;
  }
  for (let b = 0; b < INITIALS; b++) keywordsFrom[b + 1] += keywordsFrom[b];
  const next = new StaticArray<i32>(INITIALS);
  for (let b = 0; b < INITIALS; b++) next[b] = keywordsFrom[b];
  for (let i = 0; i < n; i++) keywordOrder[next[initialSlot(KEYWORD_WORDS[i].charCodeAt(0))]++] = i;
}

function russianKeyword(at: i32, len: i32): i32 {
  const b = initialSlot(u16At(NORM, at));
  if (<u32>b >= <u32>INITIALS) return -1;
  for (let i = keywordsFrom[b], end = keywordsFrom[b + 1]; i < end; i++) {
    const k = keywordOrder[i];
    if (spanIs(at, len, KEYWORD_WORDS[k])) return KEYWORD_PARTS[k];
  }
  return -1;
}

/**
 * `str.` right after a name word of its part of the string, before any number and with no type word before it in
 * that part, is English `street` in a Latin address (`Malysheva str. 5`), not строение, which follows the house
 * (`d. 5, str. 1`), a comma (`ul. barmina, str 1a`) or a typed street (`prosp. abaya str 1e`): no keyword then, and
 * noise (classifyNumbers).
 */
function englishStreet(i: i32): bool {
  if (normVariant != VARIANT_TRANSLIT || i == 0 || !tokIs(i, 'стр')) return false;
  if (tok(i - 1, F_KIND) != KIND_ALPHA || tok(i - 1, F_SEGMENT) != tok(i, F_SEGMENT) || readKeyword(i - 1) >= 0) return false;
  for (let k = 0; k < i; k++) {
    // (a number opening the name in the same part is the name's: `8 Marta str. 5`, `40-letiya Komsomola str., 10`)
    const namesNumber = tok(k, F_SEGMENT) == tok(i, F_SEGMENT) && k + 1 < i && tok(k + 1, F_KIND) == KIND_ALPHA && readKeyword(k + 1) < 0;
    if (tok(k, F_KIND) == KIND_DIGIT && tok(k, F_LEN) < 6 && !namesNumber) return false;
    // a street typed with its Russian type word already (`prosp. abaya str 1e`: строение 1е)
    if (tok(k, F_SEGMENT) == tok(i, F_SEGMENT) && tok(k, F_KIND) == KIND_ALPHA && isTypeWord(tok(k, F_START), tok(k, F_LEN))) return false;
  }
  return true;
}

/**
 * English unit words of a Latin address, as the transliteration spells them (`apt 10` → апт, `flat` → флат,
 * `office` → оффице, `floor` → флоор, `entrance` → ентранце): read only in that reading, so a Cyrillic `апт`
 * (аптека) is no keyword.
 */
function englishKeyword(at: i32, len: i32): i32 {
  if (spanIs(at, len, 'апт') || spanIs(at, len, 'апартмент') || spanIs(at, len, 'флат')) return P_FLAT;
  if (spanIs(at, len, 'оффице')) return P_OFFICE;
  if (spanIs(at, len, 'флоор')) return P_FLOOR;
  if (spanIs(at, len, 'ентранце')) return P_ENTR;
  // Russian keywords as the Latin reading spells their transliteration (`etazh`, `podezd`, `podyezd`)
  if (spanIs(at, len, 'етаж')) return P_FLOOR;
  if (spanIs(at, len, 'подезд')) return P_ENTR;
  return -1;
}

/** этаж and its cases after a number (на 2 этаже, 3 этаж, 4 эт; Ukrainian 3 поверх, на 2 поверсі) */
function isFloorWord(i: i32): bool {
  return i < tokenCount && tok(i, F_KIND) == KIND_ALPHA && tok(i, F_ROLE) == ROLE_FREE &&
    (tokIs(i, 'этаж') || tokIs(i, 'этаже') || tokIs(i, 'этажа') || tokIs(i, 'эт') || tokIs(i, 'поверх') || tokIs(i, 'поверси') ||
     tokIs(i, 'етаж'));
}

/** подъезд and its cases after a number (2 подъезд, во 2 подъезде; 2 пд, and 2 под closing its part of the string) */
function isEntranceWord(i: i32): bool {
  return i < tokenCount && tok(i, F_KIND) == KIND_ALPHA && tok(i, F_ROLE) == ROLE_FREE &&
    (tokIs(i, 'подъезд') || tokIs(i, 'подъезде') || tokIs(i, 'подьезд') || tokIs(i, 'подьезде') || tokIs(i, 'подезд') ||
     tokIs(i, 'пд') || (tokIs(i, 'под') && closesSegment(i)));
}

/**
 * Token t is in a delivery note or a landmark after its opening word, in its part of the string (`вход со двора`,
 * `позвонить за час`, `ТЦ Гринвич`, `напротив школы`): text that says nothing of the address (abi.ts: a leftover of no
 * weight).
 */
export function inComment(t: i32): bool {
  const segment = tok(t, F_SEGMENT);
  for (let k = t; k >= 0 && tok(k, F_SEGMENT) == segment; k--) {
    if (tok(k, F_KIND) == KIND_ALPHA && opensComment(k)) return true;
  }
  return false;
}

function opensComment(k: i32): bool {
  return tokIs(k, 'вход') || tokIs(k, 'входа') || tokIs(k, 'позвонить') || tokIs(k, 'позвоните') || tokIs(k, 'звонить') ||
    tokIs(k, 'звоните') || tokIs(k, 'перезвонить') || tokIs(k, 'заранее') || tokIs(k, 'курьер') || tokIs(k, 'курьеру') ||
    tokIs(k, 'доставка') || tokIs(k, 'доставку') || tokIs(k, 'оставить') || tokIs(k, 'охрана') || tokIs(k, 'шлагбаум') ||
    tokIs(k, 'пропуск') || tokIs(k, 'въезд') || tokIs(k, 'заезд') || tokIs(k, 'ориентир') || tokIs(k, 'напротив') ||
    tokIs(k, 'рядом') || tokIs(k, 'возле') || tokIs(k, 'около') || tokIs(k, 'тц') || tokIs(k, 'трц') || tokIs(k, 'бц') ||
    tokIs(k, 'жк') || tokIs(k, 'домофон');
}

/** A number stands before token i (the house's, when i is an entrance's). */
function digitBefore(i: i32): bool {
  for (let k = 0; k < i; k++) if (tok(k, F_KIND) == KIND_DIGIT) return true;
  return false;
}

/** Ordinal suffixes of numbered names: 7-й, 2-я, 22-го, 1-ое. */
function isOrdinalSuffix(i: i32): bool {
  return tokIs(i, 'й') || tokIs(i, 'я') || tokIs(i, 'ой') || tokIs(i, 'ий') || tokIs(i, 'ая') || tokIs(i, 'го') ||
    tokIs(i, 'е') || tokIs(i, 'ый') || tokIs(i, 'ое') || tokIs(i, 'ья') || tokIs(i, 'ая') || tokIs(i, 'ого') || tokIs(i, 'ей') || tokIs(i, 'ы');
}

/** Parts whose value may be a letter (block Г, liter А). */
// @ts-ignore: decorator
@inline function letterValued(p: i32): bool {
  return p == P_LITER || p == P_BLOCK || p == P_SEK || p == P_ENTR || p == P_CASE || p == P_BUILD || p == P_PAV;
}

// @ts-ignore: decorator
@inline function isDigitTok(i: i32): bool {
  return i >= 0 && i < tokenCount && tok(i, F_KIND) == KIND_DIGIT;
}

// @ts-ignore: decorator
@inline function glued(i: i32): bool {
  return i < tokenCount && tok(i, F_SEP) == 0;
}

/** Abbreviation split by a slash or hyphen (а/я, в/ч, з/у, кв-ра, п-д) or two words (земельный участок). Returns the part and sets `pairLen`. */
let pairLen: i32 = 1;
function pairKeyword(i: i32): i32 {
  pairLen = 1;
  if (i + 1 >= tokenCount || tok(i + 1, F_KIND) != KIND_ALPHA) return keywordPart(i);
  const sep = tok(i + 1, F_SEP);
  if ((sep & SEP_SLASH) != 0) {
    if (tokIs(i, 'а') && tokIs(i + 1, 'я')) { pairLen = 2; return P_ABON; }
    if (tokIs(i, 'в') && tokIs(i + 1, 'ч')) { pairLen = 2; return P_MUNIT; }
    if (tokIs(i, 'з') && tokIs(i + 1, 'у')) { pairLen = 2; return P_STEAD; }
    if (tokIs(i, 'п') && tokIs(i + 1, 'д')) { pairLen = 2; return P_ENTR; }
  }
  // земельный участок 5, зем. уч. 5: a land plot in two words
  if ((tokIs(i, 'земельный') || tokIs(i, 'зем')) && (tokIs(i + 1, 'участок') || tokIs(i + 1, 'уч'))) { pairLen = 2; return P_STEAD; }
  if ((sep & SEP_HYPHEN) != 0) {
    if (tokIs(i, 'кв') && tokIs(i + 1, 'ра')) { pairLen = 2; return P_FLAT; }
    if (tokIs(i, 'п') && tokIs(i + 1, 'д')) { pairLen = 2; return P_ENTR; }
    if (tokIs(i, 'стр') && tokIs(i + 1, 'е')) { pairLen = 2; return P_BUILD; }
  }
  return keywordPart(i);
}

/**
 * Reads a numeric value at token i (digits, a glued or lone letter, a fraction) for part p.
 * Returns the last token of the value, or −1 when there is none.
 */
function readValue(i: i32, p: i32): i32 {
  if (i >= tokenCount) return -1;
  if (tok(i, F_ROLE) != ROLE_FREE) return -1;
  if (tok(i, F_KIND) == KIND_DIGIT) {
    if (tok(i, F_LEN) > 6) return -1;
    let last = i;
    // a letter: 10а (glued), 12 А (alone), but not «д34 г Екатеринбург» (the type of the next name)
    const nx = last + 1;
    if (nx < tokenCount && tok(nx, F_KIND) == KIND_ALPHA && tok(nx, F_LEN) == 1 &&
        (tok(nx, F_SEP) & SEP_COMMA) == 0 && tok(nx, F_ROLE) == ROLE_FREE) {
      // к 2, с 1 after the number open their own (10к2); so does д, but not before a slash: 7д/2 is the number 7д/2
      // (not a number after a comma: `6д, 620137` is house 6д and a postcode)
      const opensNumber = keywordPart(nx) >= 0 && isDigitTok(nx + 1) && (tok(nx + 1, F_SEP) & SEP_COMMA) == 0 &&
        !(keywordPart(nx) == P_HOUSE && tok(nx + 1, F_SEP) == SEP_SLASH);
      const after = nx + 1;
      // a word after the letter makes it that word's type (`д34 г Екатеринбург`), when it is one (and the preposition
      // в: `5 в Екатеринбурге`); another letter stays the house's (`д. 28 А г. Екатеринбург`)
      const wordFollows = after < tokenCount && tok(after, F_KIND) == KIND_ALPHA &&
        tok(after, F_SEGMENT) == tok(nx, F_SEGMENT) && pairKeyword(after) < 0 &&
        (tokIs(nx, 'в') || !hasVocabulary() || isTypeWord(tok(nx, F_START), 1));
      const glue = tok(nx, F_SEP) == 0;
      // hints: a spaced letter that opens a house keyword, typed last, is that keyword being typed (`мира 29 к`: кв or
      // корпус on the way) rather than the house's letter; the house's own keys all start with the number
      if (!glue && keyBeingTyped && nx == tokenCount - 1 && opensKeyword(nx)) return last;
      // nor the first letter of a keyword of two (`10 п-д 2`: подъезд 2)
      const opensPair = (pairKeyword(nx) >= 0 && pairLen == 2) || entranceLetter(nx);
      if (!opensNumber && !opensPair && (glue ? !(wordFollows && tok(after, F_SEP) == 0) : !wordFollows)) last++;
    }
    // a unit's fraction: кв 12/1, оф. 301/1
    if ((p == P_FLAT || p == P_OFFICE || p == P_ROOM || p == P_PLACE) && isDigitTok(last + 1) && fractionSlash(last + 1) &&
        tok(last + 1, F_SEP) == SEP_SLASH) return last + 1;
    // a fraction: 10/2, 1/2а (not 11/-89, which carries a flat; in 2/10к1 the к opens the corpus)
    if (p == P_HOUSE && isDigitTok(last + 1) && fractionSlash(last + 1)) {
      last++;
      const letter = last + 1;
      // (or its letter after a space or hyphen, closing its part of the string: `52/1 а`, `52/1-а, кв 3`)
      const closes = closesSegment(letter) || keywordPart(letter + 1) >= 0;
      if (letter < tokenCount && tok(letter, F_KIND) == KIND_ALPHA && tok(letter, F_LEN) == 1 &&
          (glued(letter) || ((tok(letter, F_SEP) & (SEP_COMMA | SEP_SLASH | SEP_DOT)) == 0 && closes && keywordPart(letter) < 0)) &&
          !(keywordPart(letter) >= 0 && isDigitTok(letter + 1))) last++;
    }
    return last;
  }
  // a letter that is also a keyword is the value when no number of its own follows it (`лит Л`, `литер К`; not
  // `корп к 2`; but `лит. Д, 620000` and `лит Д 2 этаж`: those numbers are another part's)
  if (letterValued(p) && tok(i, F_KIND) == KIND_ALPHA && tok(i, F_LEN) <= 2 &&
      (keywordPart(i) < 0 || (tok(i, F_LEN) == 1 && !numberOfLetter(i)))) return i;
  return -1;
}

/** Token i is one letter after the литера's word, in its part of the string (`лит Д`): that литера. */
function literLetter(i: i32): bool {
  return i > 0 && tok(i, F_KIND) == KIND_ALPHA && tok(i, F_LEN) == 1 && keywordPart(i - 1) == P_LITER &&
    tok(i - 1, F_LEN) > 1 && tok(i - 1, F_SEGMENT) == tok(i, F_SEGMENT);
}

/** A number follows the letter i as its own (`к 2`): in its part of the string, not before its own word (`2 этаж`). */
function numberOfLetter(i: i32): bool {
  if (!isDigitTok(i + 1) || tok(i + 1, F_SEGMENT) != tok(i, F_SEGMENT) || tok(i + 1, F_ROLE) != ROLE_FREE) return false;
  return !((isFloorWord(i + 2) || isEntranceWord(i + 2)) && tok(i + 2, F_SEGMENT) == tok(i + 1, F_SEGMENT));
}

/** Token t, one letter, is the first of a house part's keyword (к корпус, кв; с; д; п подъезд; о офис; э этаж; л литера). */
function opensKeyword(t: i32): bool {
  return tokIs(t, 'к') || tokIs(t, 'с') || tokIs(t, 'д') || tokIs(t, 'п') || tokIs(t, 'о') || tokIs(t, 'э') || tokIs(t, 'л');
}

/**
 * Token t is a lone `п` with a number after it in its part of the address: the entrance (`д. 5 п. 2`), read so only
 * after the house's number (`Минка п 20` is п Минка, house 20; a type is no house keyword).
 */
function entranceLetter(t: i32): bool {
  return t < tokenCount && tok(t, F_KIND) == KIND_ALPHA && tok(t, F_SEP) != 0 && tokIs(t, 'п') && isDigitTok(t + 1) &&
    (tok(t + 1, F_SEP) & SEP_COMMA) == 0 && tok(t + 1, F_SEGMENT) == tok(t, F_SEGMENT);
}

/** A slash stands before token t, spaced or not (`10/2`, `33 / 3`), and no comma or hyphen (`11/-89`: a flat). */
// @ts-ignore: decorator
@inline function fractionSlash(t: i32): bool {
  const sep = tok(t, F_SEP);
  return (sep & SEP_SLASH) != 0 && (sep & (SEP_COMMA | SEP_HYPHEN)) == 0;
}

/** Token t is a free number after a hyphen, not a comma: the flat of `20-18`, `48 к.1-34`, `84-86-283`. */
function flatAfterHyphen(t: i32): bool {
  return isDigitTok(t) && tok(t, F_ROLE) == ROLE_FREE && (tok(t, F_SEP) & SEP_HYPHEN) != 0 && (tok(t, F_SEP) & SEP_COMMA) == 0;
}

/**
 * Token t is a one-letter keyword glued to the number before it, followed by a hyphen and a free number (35д-253),
 * or by a space and a free number that closes its part of the string (`28д 71`, `18к 21`).
 */
function letterBeforeFlat(t: i32): bool {
  if (t >= tokenCount || tok(t, F_KIND) != KIND_ALPHA || tok(t, F_LEN) != 1 || tok(t, F_SEP) != 0 || tok(t, F_ROLE) != ROLE_FREE) return false;
  if (keywordPart(t) < 0) return false;
  const n = t + 1;
  return flatAfterHyphen(n) || (isDigitTok(n) && tok(n, F_SEP) == SEP_SPACE && tok(n, F_ROLE) == ROLE_FREE && tok(n, F_LEN) <= 4 &&
    closesSegment(n));
}

/**
 * Token t, a number after a space, is the last of its segment (the text ends or a comma follows), and the house
 * number at `houseAt` is not a `№` (`н`: `Участок №1 1` is a name with its number, then the house).
 */
function spacedFlat(houseAt: i32, t: i32): bool {
  if ((tok(t, F_SEP) & SEP_SPACE) == 0) return false;
  if (houseAt > 0 && tokIs(houseAt - 1, 'н')) return false;
  return closesSegment(t);
}

/** A flat keyword with its number after token t (кв 53, квартира 5, оф 12). */
function flatKeywordAfter(t: i32): bool {
  for (let k = t + 1; k < tokenCount; k++) {
    if (tok(k, F_KIND) == KIND_ALPHA && pairKeyword(k) == P_FLAT && isDigitTok(k + pairLen)) return true;
  }
  return false;
}

function mark(first: i32, last: i32, role: i32): void {
  for (let k = first; k <= last; k++) setTok(k, F_ROLE, role);
}

/** Words numbered places carry (мкр 6, 5 квартал, линия 3): their number is a name, not a house. */
function isNumberedPlace(i: i32): bool {
  if (i < 0 || i >= tokenCount || tok(i, F_KIND) != KIND_ALPHA) return false;
  return tokIs(i, 'мкр') || tokIs(i, 'мкрн') || tokIs(i, 'микрорайон') || tokIs(i, 'мк') || tokIs(i, 'квл') ||
    tokIs(i, 'квартал') || tokIs(i, 'линия') || tokIs(i, 'лин') || tokIs(i, 'микр') || tokIs(i, 'мкрн');
}

/** True when the place word at p already has its number before it (7-й мкр. 7а: 7а is the house). */
function numberedBefore(p: i32): bool {
  for (let k = p - 1; k >= 0 && k >= p - 3; k--) {
    if (tok(k, F_SEGMENT) != tok(p, F_SEGMENT)) return false;
    if (tok(k, F_KIND) == KIND_DIGIT) return true;
  }
  return false;
}

/** Number token i starts as a phone number with its country code does (7…, 8…). */
function opensPhone(i: i32): bool {
  const c = tokChar(i, 0);
  return c == 0x37 || c == 0x38;
}

/** Another number than token i stands in the string, not a postcode's (six digits) nor a long number's. */
function anotherNumber(i: i32): bool {
  for (let k = 0; k < tokenCount; k++) {
    if (k != i && tok(k, F_KIND) == KIND_DIGIT && tok(k, F_LEN) <= 5 && tok(k, F_ROLE) != ROLE_NOISE) return true;
  }
  return false;
}

/**
 * Phone numbers written in groups (+7 (912) 345-67-89, 8-912-345-67-89, тел 31-25-44): a run of 3+ numbers
 * joined by spaces, hyphens or brackets with 10+ digits in all, or any numbers right after «тел»; and the code
 * after «домофон» or «код».
 */
function markPhones(): void {
  for (let i = 0; i < tokenCount; i++) {
    if (tok(i, F_KIND) != KIND_DIGIT) continue;
    let j = i;
    let digits = tok(i, F_LEN);
    while (j + 1 < tokenCount && tok(j + 1, F_KIND) == KIND_DIGIT && (tok(j + 1, F_SEP) & (SEP_COMMA | SEP_SLASH)) == 0 &&
           tok(j + 1, F_SEP) != 0) {
      j++;
      digits += tok(j, F_LEN);
    }
    // (a т glued to a number is that house's letter: `1т, 620000`)
    const afterTel = i > 0 && (tokIs(i - 1, 'тел') || tokIs(i - 1, 'телефон') ||
      (tokIs(i - 1, 'т') && !(tok(i - 1, F_SEP) == 0 && isDigitTok(i - 2))));
    // домофон 12, код 45: the intercom's code, never a house
    const afterCode = i > 0 && (tokIs(i - 1, 'домофон') || tokIs(i - 1, 'код'));
    // the house's number before the phone (`д 5 +7 912 345-67-89`): a phone has 11 digits at most, 11 only after its
    // country's 7 or 8; the numbers before them are not its
    if (!afterTel && !afterCode) {
      while (j - i >= 3 && digits - tok(i, F_LEN) >= 10 && (digits > 11 || (digits == 11 && !opensPhone(i)))) {
        digits -= tok(i, F_LEN);
        i++;
      }
    }
    if ((j - i >= 2 && digits >= 10) || (afterTel && (j > i || digits >= 5)) || afterCode) {
      for (let k = i; k <= j; k++) setTok(k, F_ROLE, ROLE_NOISE);
      if (afterTel || afterCode) setTok(i - 1, F_ROLE, ROLE_NOISE);
    }
    i = j;
  }
}

/** The first letters of the country words and their titles (р б к у, r b k u): the others are passed at once. */
// @ts-ignore: decorator
@inline function countryLetter(c: i32): bool {
  return c == 0x440 || c == 0x431 || c == 0x43a || c == 0x443 || c == 114 || c == 98 || c == 107 || c == 117;
}

/** A country's name (one word), as people write it before or after an address, folded (Ukrainian Росія is росия). */
export function isCountryWord(t: i32): bool {
  return tokIs(t, 'россия') || tokIs(t, 'рф') || tokIs(t, 'росия') || tokIs(t, 'russia') || tokIs(t, 'руссиа') ||
    tokIs(t, 'беларусь') || tokIs(t, 'белоруссия') || tokIs(t, 'belarus') || tokIs(t, 'беларус') ||
    tokIs(t, 'казахстан') || tokIs(t, 'kazakhstan') || tokIs(t, 'украина') || tokIs(t, 'ukraine') ||
    tokIs(t, 'ukraina') || tokIs(t, 'украине');
}

/** Федерация, as typed or as the Latin reading spells it. */
function isFederation(t: i32): bool {
  return tokIs(t, 'федерация') || tokIs(t, 'федератион') || tokIs(t, 'federation');
}

/** Tokens t, t+1 are a country's name in its official form: Российская Федерация, Республика Беларусь. */
function isCountryTitle(t: i32): bool {
  if (t + 1 >= tokenCount) return false;
  if (isFederation(t + 1)) return tokIs(t, 'российская') || tokIs(t, 'руссиан') || tokIs(t, 'russian');
  return tokIs(t, 'республика') && (tokIs(t + 1, 'беларусь') || tokIs(t + 1, 'казахстан'));
}

/**
 * The country's name written with the address (`Россия, г. Екатеринбург`, `…, 620014, РФ`, `Российская Федерация,
 * …`) is noise: the request's country decides the dictionary. Only as the first or the last words or a segment of
 * their own, so that a name with it stays a name (`ул Героев России`).
 */
function markCountries(): void {
  for (let i = 0; i < tokenCount; i++) {
    if (tok(i, F_KIND) != KIND_ALPHA || tok(i, F_ROLE) != ROLE_FREE || !countryLetter(u16At(NORM, tok(i, F_START)))) continue;
    const last = isCountryTitle(i) ? i + 1 : isCountryWord(i) ? i : -1;
    if (last < 0) continue;
    const segment = tok(i, F_SEGMENT);
    const alone = (i == 0 || tok(i - 1, F_SEGMENT) != segment) && (last + 1 >= tokenCount || tok(last + 1, F_SEGMENT) != segment);
    // a title of two words (`Российская Федерация`) anywhere; one word in the middle may be a name's (`ул Россия`):
    // a chain that does not read it leaves it out of the leftovers (abi.ts)
    if (i != 0 && last + 1 < tokenCount && !alone && last == i) continue;
    for (let k = i; k <= last; k++) setTok(k, F_ROLE, ROLE_NOISE);
    i = last;
  }
}

/** Tokens t and t+1 are the words a and b. */
function pairIs(t: i32, a: string, b: string): bool {
  return t + 1 < tokenCount && tokIs(t, a) && tokIs(t + 1, b);
}

/**
 * How many words at t name a municipal unit's kind (`городской округ`, `г.о.`, `муниципальный район`, `м.р-н`,
 * `сельское поселение`, `с.п.`, `внутригородская территория`, `вн.тер.г.`), or 0.
 */
function municipalWords(t: i32): i32 {
  const c = u16At(NORM, tok(t, F_START));
  if (c != 0x433 && c != 0x441 && c != 0x43c && c != 0x432) return 0; // г с м в
  if (pairIs(t, 'городской', 'округ') || pairIs(t, 'городское', 'поселение') || pairIs(t, 'сельское', 'поселение') ||
      pairIs(t, 'муниципальный', 'район') || pairIs(t, 'муниципальный', 'округ') ||
      pairIs(t, 'муниципальное', 'образование') || pairIs(t, 'внутригородская', 'территория')) return 2;
  if (tokIs(t, 'внутригородское') && pairIs(t + 1, 'муниципальное', 'образование')) return 3;
  if (tokIs(t, 'города') && pairIs(t + 1, 'федерального', 'значения')) return 3;
  if (tokIs(t, 'вн') && pairIs(t + 1, 'тер', 'г')) return 3;
  // the dotted abbreviations, each letter a token: г.о., г.п., с.п., м.р-н
  if (t + 1 < tokenCount && (tok(t + 1, F_SEP) & SEP_DOT) != 0 && tok(t, F_LEN) == 1 &&
      (pairIs(t, 'г', 'о') || pairIs(t, 'г', 'п') || pairIs(t, 'с', 'п') || pairIs(t, 'м', 'рн'))) return 2;
  return 0;
}

/**
 * The municipal division's words of an address printed from GAR's municipal hierarchy (`Свердловская обл., г.о.
 * город Екатеринбург, г. Екатеринбург`, `муниципальное образование город Екатеринбург`): noise, the unit's name that
 * follows is the place's own or is read as a name.
 */
function markMunicipal(): void {
  for (let i = 0; i < tokenCount; i++) {
    if (tok(i, F_KIND) != KIND_ALPHA || tok(i, F_ROLE) != ROLE_FREE) continue;
    const n = municipalWords(i);
    if (n == 0) continue;
    for (let k = i; k < i + n; k++) setTok(k, F_ROLE, ROLE_NOISE);
    i += n - 1;
  }
}

/** Marks ordinals, the postcode and phone numbers; they are never house numbers. */
function classifyNumbers(): void {
  postcodeToken = -1;
  postcodeLastToken = -1;
  postcodeValue = -1;
  markPhones();
  markCountries();
  markMunicipal();
  markAddressLabel();
  for (let i = 0; i < tokenCount; i++) if (tok(i, F_ROLE) == ROLE_FREE && englishStreet(i)) setTok(i, F_ROLE, ROLE_NOISE);
  for (let i = 0; i < tokenCount; i++) {
    if (tok(i, F_KIND) != KIND_DIGIT || tok(i, F_ROLE) != ROLE_FREE) continue;
    const n = tok(i, F_LEN);
    // 7-й, 7й, 22-го
    // a glued single letter other than й is the house's letter (2е, 7я); with a hyphen it is an ordinal (2-е, 7-я),
    // but for the number of a house keyword (`д. 6-Е`: the house's letter)
    const oneLetter = tok(i + 1, F_LEN) == 1 && !tokIs(i + 1, 'й');
    const houseNumber = i > 0 && keywordPart(i - 1) == P_HOUSE && tok(i - 1, F_SEGMENT) == tok(i, F_SEGMENT);
    if (i + 1 < tokenCount && tok(i + 1, F_KIND) == KIND_ALPHA && (tok(i + 1, F_SEP) == 0 || tok(i + 1, F_SEP) == SEP_HYPHEN) &&
        isOrdinalSuffix(i + 1) && !(oneLetter && (tok(i + 1, F_SEP) == 0 || houseNumber))) {
      // 3-й этаж, 2й подъезд: the floor or the entrance, with its ordinal's suffix
      const floor = isFloorWord(i + 2);
      if (n <= 3 && (floor || (isEntranceWord(i + 2) && digitBefore(i))) && tok(i + 2, F_SEGMENT) == tok(i, F_SEGMENT)) {
        setPart(floor ? P_FLOOR : P_ENTR, i, i);
        mark(i, i + 2, ROLE_HOUSE);
        continue;
      }
      setTok(i, F_ORDINAL, 1);
      setTok(i + 1, F_ROLE, ROLE_NOISE);
      continue;
    }
    // мкр. 6а, 5-й мкр (the number after its word is the house in the other reading: `Светлый мкр 5`), мкр. №6
    const signed = i > 1 && tokIs(i - 1, 'н') && isNumberedPlace(i - 2);
    const placeAt = signed ? i - 2 : i - 1;
    const afterPlace = i > 0 && isNumberedPlace(placeAt) && tok(placeAt, F_SEGMENT) == tok(i, F_SEGMENT) && !numberedBefore(placeAt);
    if (afterPlace && placeNumberAt < 0) placeNumberAt = i;
    if (afterPlace && signed && !placeNumberHouse) setTok(i - 1, F_ROLE, ROLE_NOISE);
    if ((afterPlace && !placeNumberHouse) ||
        (i + 1 < tokenCount && isNumberedPlace(i + 1) && tok(i + 1, F_SEGMENT) == tok(i, F_SEGMENT)) ||
        (i + 2 < tokenCount && tok(i + 1, F_LEN) == 1 && tok(i + 1, F_SEP) == 0 && isNumberedPlace(i + 2) &&
         tok(i + 2, F_SEGMENT) == tok(i, F_SEGMENT))) {
      setTok(i, F_ORDINAL, 1);
      continue;
    }
    // (a keyword that took the number before it is not this one's: `2 подъезд 5 этаж`; nor the литера's letter:
    // `литер Д 2 этаж`)
    const prevKeyword = i > 0 && keywordPart(i - 1) >= 0 && tok(i - 1, F_ROLE) == ROLE_FREE && !literLetter(i - 1);
    // на 2 этаже, 3 этаж: the floor before its word (not «5 этаж 3»: there the keyword has its own number; a number
    // after a comma is another part's: `2 подъезд,3 этаж`)
    // (nor the number of the next such word: `2 подъезд 5 этаж`)
    const ownNumber = isDigitTok(i + 2) && tok(i + 2, F_SEGMENT) == tok(i + 1, F_SEGMENT) &&
      !((isFloorWord(i + 3) || isEntranceWord(i + 3)) && tok(i + 3, F_SEGMENT) == tok(i + 2, F_SEGMENT));
    const keywordBefore = prevKeyword && tok(i - 1, F_SEGMENT) == tok(i, F_SEGMENT);
    // (not the only number when a comma parts it from the word: `Малышева 5, этаж` is house 5)
    if (!keywordBefore && n <= 3 && isFloorWord(i + 1) && !ownNumber &&
        (tok(i + 1, F_SEGMENT) == tok(i, F_SEGMENT) || anotherNumber(i))) {
      setPart(P_FLOOR, i, i);
      setTok(i, F_ROLE, ROLE_HOUSE);
      setTok(i + 1, F_ROLE, ROLE_HOUSE);
      continue;
    }
    // 2 подъезд: the entrance before its word, after the house's number (`Малышева 5 подъезд` keeps its house), or
    // closing its part when a bare number stands in a later part (`Белинского, 3 подъезд, 86`: house 86)
    if (!keywordBefore && n <= 2 && isEntranceWord(i + 1) && !ownNumber &&
        (digitBefore(i) || (closesSegment(i + 1) && bareNumberAfter(i + 1)))) {
      setPart(P_ENTR, i, i);
      setTok(i, F_ROLE, ROLE_HOUSE);
      setTok(i + 1, F_ROLE, ROLE_HOUSE);
      continue;
    }
    // 620000; 01033 opening the string before a word (Ukraine's postcodes have 5 digits: `01033, Київ`), not
    // one glued to it (`11111д` is a number with its letter)
    const fiveFirst = n == 5 && ((i == 0 && i + 1 < tokenCount && tok(i + 1, F_KIND) == KIND_ALPHA && tok(i + 1, F_SEP) != 0) ||
      // or alone between commas anywhere, when the dictionary has it (`м. Київ, 01033, вул. …`, `…, 1, м. Київ, 01033`)
      (!keywordBefore && postcodeToken < 0 && aloneInSegment(i) && knownPostcode(tok(i, F_VALUE))));
    // a postcode typed in two halves (`468 320, Байконур`), alone between commas at either end, when it is one
    if (n == 3 && postcodeToken < 0 && !keywordBefore && splitPostcode(i)) {
      postcodeToken = i;
      postcodeLastToken = i + 1;
      postcodeValue = tok(i, F_VALUE) * 1000 + tok(i + 1, F_VALUE);
      setTok(i, F_ROLE, ROLE_POSTCODE);
      setTok(i + 1, F_ROLE, ROLE_POSTCODE);
      i++;
      continue;
    }
    if ((n == 6 || fiveFirst) && postcodeToken < 0 && !keywordBefore) {
      postcodeToken = i;
      postcodeLastToken = i;
      postcodeValue = tok(i, F_VALUE);
      setTok(i, F_ROLE, ROLE_POSTCODE);
      // its label: `индекс 620014`, `почтовый индекс: 620014`
      if (i > 0 && tok(i - 1, F_ROLE) == ROLE_FREE && (tokIs(i - 1, 'индекс') || tokIs(i - 1, 'инд'))) {
        setTok(i - 1, F_ROLE, ROLE_NOISE);
        if (i > 1 && tokIs(i - 2, 'почтовый')) setTok(i - 2, F_ROLE, ROLE_NOISE);
      }
      continue;
    }
    if (n >= 7) setTok(i, F_ROLE, ROLE_NOISE);
  }
}

/** Keyword token k took the number before it as its value (`2 этаж`): its part ends before it. */
function tookNumberBefore(k: i32): bool {
  const p = keywordPart(k);
  return p >= 0 && tok(k, F_ROLE) == ROLE_HOUSE && partFirst(p) >= 0 && partLast(p) < k;
}

/** A number no keyword claims stands alone after token t in a later part of the string (`…, 3 подъезд, 86`). */
function bareNumberAfter(t: i32): bool {
  for (let k = t + 1; k < tokenCount; k++) {
    if (tok(k, F_SEGMENT) == tok(t, F_SEGMENT) || tok(k, F_KIND) != KIND_DIGIT || tok(k, F_ROLE) != ROLE_FREE) continue;
    if (opensSegment(k)) return true;
  }
  return false;
}

/** Token t is the first of its part of the string (the string's start or a comma before it). */
function opensSegment(t: i32): bool {
  return t == 0 || tok(t - 1, F_SEGMENT) != tok(t, F_SEGMENT);
}

/** Token t is the last of its part of the string (the string's end or a comma after it). */
function closesSegment(t: i32): bool {
  return t + 1 >= tokenCount || tok(t + 1, F_SEGMENT) != tok(t, F_SEGMENT);
}

/** Token i is the only one of its part of the string (between commas or the string's ends). */
function aloneInSegment(i: i32): bool {
  return opensSegment(i) && closesSegment(i);
}

/** `value` is a postcode of the dictionary. */
function knownPostcode(value: i32): bool {
  ensureSubtrees(); // (`parseHouse` may come before any query built the index)
  return postcodeObject(postcodeSlice(value), value) >= 0;
}

/**
 * Number tokens i and i + 1 are three digits each, one space apart, alone in the first or last part of the string
 * between commas, and together a postcode of the dictionary (`468 320, Байконур`, `…, 620 014`).
 */
function splitPostcode(i: i32): bool {
  const j = i + 1;
  if (j >= tokenCount || tok(j, F_KIND) != KIND_DIGIT || tok(j, F_LEN) != 3 || tok(j, F_SEP) != SEP_SPACE) return false;
  if (tok(j, F_ROLE) != ROLE_FREE || tok(j, F_SEGMENT) != tok(i, F_SEGMENT)) return false;
  if (!opensSegment(i) || !closesSegment(j) || (i > 0 && j + 1 < tokenCount)) return false;
  return knownPostcode(tok(i, F_VALUE) * 1000 + tok(j, F_VALUE));
}

/**
 * The label a form puts before the address, as clients paste it with the address (`Адрес: …`, `адрес доставки: …`,
 * `Юридический адрес: …`): noise, only at the start of the string.
 */
function markAddressLabel(): void {
  if (tokenCount < 2 || tok(0, F_ROLE) != ROLE_FREE) return;
  let at = 0;
  if (tokIs(0, 'юридический') || tokIs(0, 'фактический') || tokIs(0, 'почтовый')) at = 1;
  if (!tokIs(at, 'адрес') || at + 1 >= tokenCount) return;
  let last = at;
  if (tokIs(at + 1, 'доставки') || tokIs(at + 1, 'регистрации') || tokIs(at + 1, 'проживания')) last = at + 1;
  for (let k = 0; k <= last; k++) setTok(k, F_ROLE, ROLE_NOISE);
}

/** True when a free number at i is followed, in its segment, by a word of a name (8 Марта, 10 лет Октября). */
function startsName(i: i32): bool {
  const next = i + 1;
  if (next >= tokenCount) return false;
  if (tok(next, F_SEGMENT) != tok(i, F_SEGMENT)) return false;
  if (tok(next, F_KIND) != KIND_ALPHA) return false;
  if (tok(next, F_SEP) == 0 && tok(next, F_LEN) == 1) return false; // 10а
  if (pairKeyword(next) >= 0) return false;
  if (tok(next, F_LEN) == 1) return false; // 12 А
  // a number followed by words and then by another number is part of the name
  for (let k = next + 1; k < tokenCount; k++) {
    if (tok(k, F_KIND) == KIND_DIGIT && tok(k, F_ROLE) == ROLE_FREE && tok(k, F_ORDINAL) == 0) return true;
  }
  return false;
}

/**
 * When set, the first number the grammar would take as a house without a keyword is read as part of a
 * name instead (`байконур, 6а, 25`: microdistrict 6а, house 25). The solver tries both readings.
 */
export let nameFirstNumber = false;
/** Set by the grammar: the house was taken without a keyword and another free number follows. */
export let houseAmbiguous = false;
/** Set by the grammar: the house was taken without a keyword (`байконур 6а`: a house, or microdistrict 6а). */
export let houseBare = false;

/** The number the grammar read as part of a name under `nameFirstNumber` (−1: none). */
export let namedNumberAt: i32 = -1;

/**
 * When set, a number after a numbered place's word is read as the house, not as the place's name: `Светлый мкр 5` is
 * мкр Светлый, house 5, where `мкр 6а` is microdistrict 6а. The solver tries it when the first reading's chain left
 * that number unread.
 */
let placeNumberHouse = false;
/** Set by the grammar: the first number after a numbered place's word (`мкр 5`), −1 none. */
export let placeNumberAt: i32 = -1;

export function setPlaceNumberHouse(on: bool): void {
  placeNumberHouse = on;
}

export function setNameFirstNumber(on: bool): void {
  nameFirstNumber = on;
}

/** The last word is still being typed (hints): a lone letter there may open a keyword (`readValue`). */
let keyBeingTyped = false;

/** Runs the grammar over the token table; returns the first token of the house number or −1. `typing`: hints'. */
export function parseHouseParts(typing: bool = false): i32 {
  keyBeingTyped = typing;
  houseAmbiguous = false;
  houseBare = false;
  namedNumberAt = -1;
  placeNumberAt = -1;
  keywordLetter = -1;
  spacedFlatAt = -1;
  for (let p = 0; p < PART_COUNT; p++) setPart(p, -1, -1);
  houseKeyLen = 0;
  houseBaseLen = 0;
  classifyNumbers();
  let houseAt = -1;
  // 1. a house keyword with its number: д 10а, дом53, двлд. 4
  for (let i = 0; i + 1 < tokenCount && houseAt < 0; i++) {
    if (tok(i, F_ROLE) != ROLE_FREE) continue;
    // a one-letter keyword glued or hyphened after a number is that number's letter (35д-253, 7д/2, 21-д), not the
    // house's keyword
    if (tok(i, F_LEN) == 1 && (tok(i, F_SEP) == 0 || tok(i, F_SEP) == SEP_HYPHEN) && isDigitTok(i - 1)) continue;
    // nor the second of a keyword of two (`п-д 2`, `п/д 2`: подъезд 2)
    if (i > 0 && (tok(i, F_SEP) & (SEP_HYPHEN | SEP_SLASH)) != 0 && tok(i - 1, F_KIND) == KIND_ALPHA && pairKeyword(i - 1) >= 0 && pairLen == 2) continue;
    // nor the литера's letter (`литер Д 2 этаж`)
    if (literLetter(i)) continue;
    // its number stands in its part of the address (`д, 468320` is no house 468320)
    if (keywordPart(i) == P_HOUSE && isDigitTok(i + 1) && tok(i + 1, F_ROLE) == ROLE_FREE && tok(i + 1, F_ORDINAL) == 0 &&
        tok(i + 1, F_SEGMENT) == tok(i, F_SEGMENT)) {
      // a № after another part's keyword is that part's (кв. № 10: step 3), but not a stead's: `Участок №1` is a
      // street's name in OSM, its № the house's
      const sign = tokIs(i, 'н') && i > 0 && tok(i - 1, F_KIND) == KIND_ALPHA && tok(i - 1, F_ROLE) == ROLE_FREE;
      if (sign && keywordPart(i - 1) >= 0 && keywordPart(i - 1) != P_HOUSE && keywordPart(i - 1) != P_STEAD) continue;
      // with its keyword a number is the house even when a name follows (д 26 улица 40-летия Комсомола)
      houseAt = i + 1;
      setTok(i, F_ROLE, ROLE_HOUSE);
      // дом № 5: the keyword before the №
      if (sign && keywordPart(i - 1) == P_HOUSE) setTok(i - 1, F_ROLE, ROLE_HOUSE);
    }
  }
  // 2. else the first free number that does not begin a name: Ленина 87, 26а
  if (houseAt < 0) {
    for (let i = 0; i < tokenCount; i++) {
      if (tok(i, F_KIND) != KIND_DIGIT || tok(i, F_ROLE) != ROLE_FREE || tok(i, F_ORDINAL) != 0) continue;
      // кв 5 (not a keyword that took the number before it: `2 этаж, 12` is house 12)
      if (i > 0 && pairKeyword(i - 1) >= 0 && pairKeyword(i - 1) != P_HOUSE && !tookNumberBefore(i - 1)) continue;
      if (i > 1 && pairKeyword(i - 2) >= 0 && pairLen == 2) continue; // а/я 15, в/ч 12345
      if (i > 1 && (tok(i - 1, F_KIND) == KIND_ALPHA) && tok(i - 1, F_LEN) <= 2 && (tok(i, F_SEP) & SEP_SLASH) != 0) continue;
      if (startsName(i)) continue;
      if (nameFirstNumber) {
        nameFirstNumber = false;
        namedNumberAt = i;
        setTok(i, F_ORDINAL, 1);
        continue;
      }
      houseAt = i;
      houseBare = true;
      // another free number after a space or comma, not a keyword's value (стр 24, кв 5) nor a fraction's or a
      // flat's (71/3, 3-122): the first may be a name's (`байконур, 6а, 25`, `6а 23`: microdistrict 6а, house 23);
      // the solver tries both readings
      for (let k = i + 1; k < tokenCount; k++) {
        const sep = tok(k, F_SEP);
        if (tok(k, F_KIND) == KIND_DIGIT && tok(k, F_ROLE) == ROLE_FREE && tok(k, F_ORDINAL) == 0 &&
            (sep & (SEP_SPACE | SEP_COMMA)) != 0 && (sep & (SEP_SLASH | SEP_HYPHEN)) == 0 && pairKeyword(k - 1) < 0) {
          houseAmbiguous = true;
        }
      }
      break;
    }
  }
  let last = -1;
  if (houseAt >= 0) {
    last = readValue(houseAt, P_HOUSE);
    if (last >= 0) {
      setPart(P_HOUSE, houseAt, last);
      mark(houseAt, last, ROLE_HOUSE);
      // 20-18 → flat 18; 11/-89 → flat 89; but not when a flat keyword follows (84-86 кв 53: the house's own hyphen)
      const next = last + 1;
      if (flatAfterHyphen(next) && !flatKeywordAfter(next)) {
        setPart(P_FLAT, next, next);
        mark(next, next, ROLE_HOUSE);
        // or the corpus where the street has no house of the number alone (`37-9`: 37 к9, `takeAltHouse`)
        spacedFlatAt = next;
      } else if (letterBeforeFlat(next)) {
        // 35д-253: a letter that is also a keyword, glued to the number, then a flat after a hyphen. The house's own
        // letter when the street has that house (the wide reading); else a slip: house 35, flat 253. A corpus or
        // building letter (37к-148) keeps its reading (37 корпус 148) beside the wide one.
        keywordLetter = next;
        const p = keywordPart(next);
        if (p != P_CASE && p != P_BUILD) {
          mark(next, next, ROLE_HOUSE);
          setPart(P_FLAT, next + 1, next + 1);
          mark(next + 1, next + 1, ROLE_HOUSE);
        }
      }
    } else houseAt = -1;
  }
  // 3. keyword + value pairs anywhere: к 2, стр. 2, ЭТ 8, БЛОК Г, ОФ 839, кв. 126, 10к2, 10с12
  // the last token of the house and of the corpus, building or letter read right after it (26ак1 с1: the с follows
  // the corpus)
  let houseEnd = houseAt >= 0 ? partLast(P_HOUSE) : -1;
  for (let i = 0; i < tokenCount; i++) {
    if (tok(i, F_ROLE) != ROLE_FREE || tok(i, F_KIND) != KIND_ALPHA) continue;
    let p = pairKeyword(i);
    const width = pairLen;
    // `п 2` after the house's number: the entrance (`entranceLetter`)
    const entrance = p < 0 && houseAt >= 0 && i > houseAt && entranceLetter(i);
    if (entrance) p = P_ENTR;
    if (p < 0) continue;
    if (p == P_HOUSE) continue;
    if (partFirst(p) >= 0) continue;
    // a one-letter keyword (к, с, л) must stand right after the house part or before a number; a № may stand
    // between a keyword and its number (кв. № 10, корп. №2; not a stead's, above)
    let valueAt = i + width;
    if (p != P_STEAD && valueAt + 1 < tokenCount && tokIs(valueAt, 'н') && tok(valueAt, F_ROLE) == ROLE_FREE &&
        isDigitTok(valueAt + 1)) valueAt++;
    // a keyword's value stands in its part of the address (`20к, 620000`: no корпус 620000)
    if (valueAt < tokenCount && tok(valueAt, F_SEGMENT) != tok(i, F_SEGMENT)) continue;
    const end = readValue(valueAt, p);
    if (end < 0) continue;
    if (tok(i, F_LEN) == 1 && width == 1 && !entrance) {
      const afterHouse = houseAt >= 0 && i > houseAt && i <= houseEnd + 2;
      if (!afterHouse || tok(valueAt, F_KIND) != KIND_DIGIT) continue;
    }
    setPart(p, valueAt, end);
    mark(i, end, ROLE_HOUSE);
    if ((p == P_CASE || p == P_BUILD || p == P_LITER) && houseAt >= 0 && i > houseAt && i <= houseEnd + 2) houseEnd = end;
    // 48 к.1-34 → flat 34
    if ((p == P_CASE || p == P_BUILD) && partFirst(P_FLAT) < 0 && flatAfterHyphen(end + 1)) {
      setPart(P_FLAT, end + 1, end + 1);
      mark(end + 1, end + 1, ROLE_HOUSE);
      i = end + 1;
      continue;
    }
    i = end;
  }
  // 4. a bare number right after the house: дом 26, 5 → flat 5; after a space when it closes its segment
  // (`малышева 5 10`, `малышева 5 10, екатеринбург`; not `5 2 этаж`); after its корпус and a comma (`5 к2, 3`)
  if (houseAt >= 0) {
    let next = partLast(P_HOUSE) + 1;
    while (next < tokenCount && tok(next, F_ROLE) == ROLE_HOUSE) next++;
    // or after the house's корпус or строение and a comma (`5 к2, 3`)
    const afterCorpus = next > partLast(P_HOUSE) + 1 && next == houseEnd + 1 && next < tokenCount && (tok(next, F_SEP) & SEP_COMMA) != 0;
    if ((next == partLast(P_HOUSE) + 1 || afterCorpus) && isDigitTok(next) && tok(next, F_ROLE) == ROLE_FREE && tok(next, F_LEN) <= 4 &&
        ((tok(next, F_SEP) & (SEP_COMMA | SEP_HYPHEN)) != 0 || spacedFlat(houseAt, next)) && !startsName(next)) {
      const spaced = (tok(next, F_SEP) & (SEP_COMMA | SEP_HYPHEN)) == 0;
      const comma = (tok(next, F_SEP) & SEP_COMMA) != 0;
      const third = next + 1;
      if (comma && partFirst(P_FLAT) < 0 && partFirst(P_CASE) < 0 && partFirst(P_BUILD) < 0 && isDigitTok(third) &&
          tok(third, F_ROLE) == ROLE_FREE && tok(third, F_LEN) <= 4 && (tok(third, F_SEP) & SEP_COMMA) != 0 && aloneInSegment(next) &&
          aloneInSegment(third)) {
        // house, корпус and flat each between commas, as 1C and KLADR exports write them (`Шварца ул,10,1,192`)
        setPart(P_CASE, next, next);
        setPart(P_FLAT, third, third);
        mark(next, third, ROLE_HOUSE);
      } else if (partFirst(P_FLAT) < 0) {
        setPart(P_FLAT, next, next);
        mark(next, next, ROLE_HOUSE);
        // (the number may be the corpus where the street has no house of the number alone: `Шварца ул,10,1,`)
        if (spaced || (comma && aloneInSegment(next))) spacedFlatAt = next;
      } else if (spaced && partFirst(P_CASE) < 0 && partFirst(P_BUILD) < 0) {
        // a flat of its own besides (`35 4, кв 5`): the number can only be the corpus (alternative key), else left over
        spacedFlatAt = next;
      }
    }
  }
  buildHouseKey();
  return houseAt;
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

/**
 * The parts when the solver took the house read wide: the house runs to `wideLast`, and the flat it took is gone
 * (or, after a keyword letter, the number after the hyphen is the flat and no corpus is read from the letter).
 */
export function takeWideHouse(): void {
  if (wideLast < 0) return;
  if (wideLast == keywordLetter) {
    // the letter is the house's: a corpus or building read from it goes, the number after the hyphen is the flat
    setPart(P_HOUSE, partFirst(P_HOUSE), wideLast);
    if (partFirst(P_CASE) == wideLast + 1) setPart(P_CASE, -1, -1);
    if (partFirst(P_BUILD) == wideLast + 1) setPart(P_BUILD, -1, -1);
    setPart(P_FLAT, wideLast + 1, wideLast + 1);
    mark(wideLast, wideLast + 1, ROLE_HOUSE);
    return;
  }
  setPart(P_HOUSE, partFirst(P_HOUSE), wideLast);
  if (wideTakesFlat) setPart(P_FLAT, -1, -1);
  setTok(wideLast, F_ROLE, ROLE_HOUSE);
  // 84-86-283 → flat 283, as 20-18 → flat 18
  const next = wideLast + 1;
  if (partFirst(P_FLAT) < 0 && flatAfterHyphen(next)) {
    setPart(P_FLAT, next, next);
    mark(next, next, ROLE_HOUSE);
  }
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
function buildHouseKey(): void {
  houseKeyLen = 0;
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

/**
 * The parts when the solver took the alternative key's house: the number after a space was its corpus (`5 1` →
 * 5к1; `35 4, кв 5` → 35к4, flat 5).
 */
export function takeAltHouse(): void {
  // the corpus typed is the fraction's number: the registry's house spells it
  if (altFraction) setPart(P_CASE, -1, -1);
  if (altCaseLiter) {
    setPart(P_LITER, partLast(P_CASE), partLast(P_CASE));
    setPart(P_CASE, partFirst(P_CASE), partLast(P_CASE) - 1);
  }
  if (!altSpaced) return;
  if (partFirst(P_FLAT) == spacedFlatAt) setPart(P_FLAT, -1, -1);
  setPart(P_CASE, spacedFlatAt, spacedFlatAt);
  mark(spacedFlatAt, spacedFlatAt, ROLE_HOUSE);
}

