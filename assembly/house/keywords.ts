/**
 * House keywords: the words that open a house part (`кв` a flat, `корп` a corpus), read from a token or a span of
 * NORM. One table holds the Russian and Ukrainian ones as normalized (lower case, ё as е), an entry per keyword with
 * the part it opens; setup orders them by first letter once (`setupKeywords`), so a span is compared only with the
 * keywords of its letter. Latin and English keywords, read only in the readings that can spell them, and the keywords
 * of two tokens (а/я, кв-ра) are read by code.
 */
import { NORM, u16At } from '../memory';
import { tok, setTok, tokenCount, tokIs, spanIs, F_KEYWORD, F_KIND, F_LEN, F_SEP, F_SEGMENT, F_START, KIND_DIGIT, KIND_ALPHA, SEP_HYPHEN, SEP_SLASH } from '../tokenize';
import { cyrillicInput, normVariant, VARIANT_PLAIN, VARIANT_TRANSLIT } from '../text';
import { isTypeWord } from '../trie';
import {
  P_HOUSE, P_CASE, P_BUILD, P_LITER, P_CONSTR, P_STEAD, P_ENTR, P_FLOOR, P_FLAT, P_OFFICE, P_ROOM, P_KAB, P_PLACE, P_BLOCK, P_PAV, P_SEK,
  P_ABON, P_MUNIT,
} from './parts';
import { digitBefore } from './grammar';

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

/** A house keyword as normalized and the part it opens. */
@final class HouseKeyword {
  word: string;
  part: i32;
}

/** The Russian and Ukrainian house keywords, each with the part it opens (a keyword added here is found by its own letter). */
const KEYWORDS: StaticArray<HouseKeyword> = [
  { word: 'д', part: P_HOUSE }, { word: 'дом', part: P_HOUSE }, { word: 'н', part: P_HOUSE },
  { word: 'дд', part: P_HOUSE }, { word: 'вл', part: P_HOUSE }, { word: 'влд', part: P_HOUSE },
  { word: 'владение', part: P_HOUSE }, { word: 'двлд', part: P_HOUSE }, { word: 'домовладение', part: P_HOUSE },
  { word: 'домовл', part: P_HOUSE }, { word: 'номер', part: P_HOUSE }, { word: 'буд', part: P_HOUSE },
  { word: 'будинок', part: P_HOUSE }, { word: 'зд', part: P_HOUSE }, { word: 'здание', part: P_HOUSE },
  { word: 'к', part: P_CASE }, { word: 'корп', part: P_CASE }, { word: 'корпус', part: P_CASE },
  { word: 'кор', part: P_CASE }, { word: 'копр', part: P_CASE },
  { word: 'с', part: P_BUILD }, { word: 'стр', part: P_BUILD }, { word: 'строение', part: P_BUILD },
  { word: 'стре', part: P_BUILD }, { word: 'строен', part: P_BUILD },
  { word: 'лит', part: P_LITER }, { word: 'литер', part: P_LITER }, { word: 'литера', part: P_LITER },
  { word: 'л', part: P_LITER },
  { word: 'соор', part: P_CONSTR }, { word: 'сооружение', part: P_CONSTR }, { word: 'сооруж', part: P_CONSTR },
  { word: 'уч', part: P_STEAD }, { word: 'участок', part: P_STEAD }, { word: 'зу', part: P_STEAD },
  { word: 'под', part: P_ENTR }, { word: 'подъезд', part: P_ENTR }, { word: 'подьезд', part: P_ENTR },
  { word: 'пд', part: P_ENTR }, { word: 'парадная', part: P_ENTR }, { word: 'парадной', part: P_ENTR },
  { word: 'эт', part: P_FLOOR }, { word: 'этаж', part: P_FLOOR }, { word: 'поверх', part: P_FLOOR },
  { word: 'кв', part: P_FLAT }, { word: 'квартира', part: P_FLAT }, { word: 'кварт', part: P_FLAT },
  { word: 'квар', part: P_FLAT }, { word: 'квра', part: P_FLAT }, { word: 'кра', part: P_FLAT },
  { word: 'оф', part: P_OFFICE }, { word: 'офис', part: P_OFFICE },
  { word: 'ком', part: P_ROOM }, { word: 'комн', part: P_ROOM }, { word: 'комната', part: P_ROOM },
  { word: 'кимн', part: P_ROOM }, { word: 'кимната', part: P_ROOM },
  { word: 'каб', part: P_KAB }, { word: 'кабинет', part: P_KAB },
  { word: 'пом', part: P_PLACE }, { word: 'помещение', part: P_PLACE }, { word: 'помещ', part: P_PLACE },
  // premises GAR files as a house's rooms: `Малышева 5 гараж 3` is house 5, not 3
  { word: 'гараж', part: P_PLACE }, { word: 'бокс', part: P_PLACE }, { word: 'склад', part: P_PLACE },
  { word: 'блок', part: P_BLOCK }, { word: 'бл', part: P_BLOCK },
  { word: 'пав', part: P_PAV }, { word: 'павильон', part: P_PAV },
  { word: 'сек', part: P_SEK }, { word: 'секц', part: P_SEK }, { word: 'секция', part: P_SEK },
];

/** а … я */
const INITIALS: i32 = 32;

/** The slot of a first letter among INITIALS (а is 0), or out of range (≥ INITIALS as u32) for any other character. */
// @ts-ignore: decorator
@inline function initialSlot(code: i32): i32 { return code - 0x430; }

/**
 * The keywords of initial slot b are KEYWORDS_BY_INITIAL[i] for i in keywordsFrom[b] … keywordsFrom[b + 1], opening
 * PARTS_BY_INITIAL[i]: the table ordered by first letter (in table order within a letter), built by `setupKeywords`.
 */
const keywordsFrom = new StaticArray<i32>(INITIALS + 1);
const KEYWORDS_BY_INITIAL = new StaticArray<string>(KEYWORDS.length);
const PARTS_BY_INITIAL = new StaticArray<i32>(KEYWORDS.length);

/** Orders the keywords by first letter, once (setup). */
export function setupKeywords(): void {
  const n = KEYWORDS.length;
  if (keywordsFrom[INITIALS] == n) return;
  for (let i = 0; i < n; i++) {
    const b = initialSlot(KEYWORDS[i].word.charCodeAt(0));
    assert(<u32>b < <u32>INITIALS, 'a keyword not in а … я');
    keywordsFrom[b + 1]++;
  }
  for (let b = 0; b < INITIALS; b++) keywordsFrom[b + 1] += keywordsFrom[b];
  const next = new StaticArray<i32>(INITIALS);
  for (let b = 0; b < INITIALS; b++) next[b] = keywordsFrom[b];
  for (let i = 0; i < n; i++) {
    const at = next[initialSlot(KEYWORDS[i].word.charCodeAt(0))]++;
    KEYWORDS_BY_INITIAL[at] = KEYWORDS[i].word;
    PARTS_BY_INITIAL[at] = KEYWORDS[i].part;
  }
}

function russianKeyword(at: i32, len: i32): i32 {
  const b = initialSlot(u16At(NORM, at));
  if (<u32>b >= <u32>INITIALS) return -1;
  for (let i = keywordsFrom[b], end = keywordsFrom[b + 1]; i < end; i++) {
    if (spanIs(at, len, KEYWORDS_BY_INITIAL[i])) return PARTS_BY_INITIAL[i];
  }
  return -1;
}

/**
 * `str.` right after a name word of its part of the string, before any number and with no type word before it in
 * that part, is English `street` in a Latin address (`Malysheva str. 5`), not строение, which follows the house
 * (`d. 5, str. 1`), a comma (`ul. barmina, str 1a`) or a typed street (`prosp. abaya str 1e`): no keyword then, and
 * noise (classifyNumbers).
 */
export function englishStreet(i: i32): bool {
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

/** Abbreviation split by a slash or hyphen (а/я, в/ч, з/у, кв-ра, п-д) or two words (земельный участок). Returns the part and sets `pairLen`. */
export let pairLen: i32 = 1;
export function pairKeyword(i: i32): i32 {
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
