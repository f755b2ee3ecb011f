/**
 * House-part grammar: finds the postcode, the house number and every HouseDetails member in the token
 * table, marks their tokens (role HOUSE / POSTCODE) so the name classifiers skip them, and records each
 * member as a token range in PARTS (parts.ts); then spells the house key (key.ts). Keywords: keywords.ts.
 *
 * What it reads:
 *   д 10а, дом53, д.20-18 (flat 18), 11/-89 (flat 89), 10/2 (a fraction), 10к2, 10 к 2, 10 корп. 2,
 *   10с12, стр. 2, лит А, двлд. 4 (a possession is the house), ЭТ 8 БЛОК Г ОФ 839, кв. 126, 3-122,
 *   7-й / 22-й (ordinals: part of a name, never a house), 6 digits alone (a postcode; 5 opening the string,
 *   before a word, too: Ukraine's), 11 digits (a phone).
 */
import { NORM, u16At } from '../memory';
import {
  tok, setTok, tokChar, tokenCount, tokIs, F_KIND, F_LEN, F_SEP, F_ROLE, F_ORDINAL, F_SEGMENT, F_START, F_VALUE,
  KIND_DIGIT, KIND_ALPHA, SEP_HYPHEN, SEP_SLASH, SEP_COMMA, SEP_SPACE, SEP_DOT, ROLE_FREE, ROLE_HOUSE, ROLE_POSTCODE, ROLE_NOISE,
} from '../tokenize';
import { hasVocabulary, isTypeWord } from '../trie';
import { ensureSubtrees, postcodeObject, postcodeSlice } from '../subtree';
import {
  PART_COUNT, P_HOUSE, P_CASE, P_BUILD, P_LITER, P_STEAD, P_ENTR, P_FLOOR, P_FLAT, P_OFFICE, P_ROOM, P_PLACE, P_BLOCK, P_PAV, P_SEK,
  partFirst, partLast, setPart, setupParts,
} from './parts';
import { keywordPart, pairKeyword, pairLen, englishStreet, setupKeywords } from './keywords';
import { buildHouseKey, setupKey } from './key';

/** postcode token index, −1 when none */
export let postcodeToken: i32 = -1;

/** the postcode's last token: postcodeToken, or the second half of one typed in two (`468 320`) */
export let postcodeLastToken: i32 = -1;
let postcodeValue: i32 = -1;

/** The postcode typed (the postcode token's value), −1 when none. */
export function typedPostcode(): i32 {
  return postcodeToken >= 0 ? postcodeValue : -1;
}
/** `35д-253`, `37к-148`: the keyword letter glued to the house number before a hyphen and a flat (−1: none) */
export let keywordLetter: i32 = -1;
/**
 * The flat read from a bare number after a space or a hyphen (`Ленина 5 1`, `37-9`; −1: none): the alternative key
 * reads it as the corpus (5к1, 37к9), which the solver takes when the street has no house of the number alone
 * (`takeAltHouse`).
 */
export let spacedFlatAt: i32 = -1;

/** Carves the parts and the keys and orders the keywords, once (abi.ts `setup`). */
export function setupHouse(): void {
  setupParts();
  setupKey();
  setupKeywords();
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
 * `позвонить за час`, `ТЦ Гринвич`, `напротив школы`): text that says nothing of the address (solve/answer.ts: a leftover of no
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
export function digitBefore(i: i32): bool {
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
@inline export function isDigitTok(i: i32): bool {
  return i >= 0 && i < tokenCount && tok(i, F_KIND) == KIND_DIGIT;
}

// @ts-ignore: decorator
@inline export function glued(i: i32): bool {
  return i < tokenCount && tok(i, F_SEP) == 0;
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
@inline export function fractionSlash(t: i32): bool {
  const sep = tok(t, F_SEP);
  return (sep & SEP_SLASH) != 0 && (sep & (SEP_COMMA | SEP_HYPHEN)) == 0;
}

/** Token t is a free number after a hyphen, not a comma: the flat of `20-18`, `48 к.1-34`, `84-86-283`. */
export function flatAfterHyphen(t: i32): bool {
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

export function mark(first: i32, last: i32, role: i32): void {
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
    // a chain that does not read it leaves it out of the leftovers (solve/answer.ts)
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

