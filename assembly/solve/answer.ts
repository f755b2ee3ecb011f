/**
 * Writes the answer of the reading just solved into RESULT, in the layout abi.ts documents (its R_* offsets): the
 * fields of the chain that won (solve/chain.ts), the house parts as folded text, the postcode's span and the
 * leftovers: the input's spans no chain member read, each judged significant or not (`undefined` of the answer).
 */
import { RESULT, SRC, NORM, setI32, i32At, u16At } from '../memory';
import { isLetter } from '../text';
import { tok, tokenCount, tokIs, F_START, F_LEN, F_ROLE, F_KIND, F_SEP, F_TYPE_A, SEP_DOT, KIND_ALPHA, KIND_DIGIT, ROLE_FREE, ROLE_NOISE } from '../tokenize';
import { postcodeToken, postcodeLastToken, isCountryWord, inComment } from '../house/grammar';
import { partFirst, partLast, PART_COUNT } from '../house/parts';
import { keywordPart } from '../house/keywords';
import { houseKeyLen } from '../house/key';
import { takeWideHouse, takeAltHouse } from '../house/match';
import { wordsBeginning, prefixLow, prefixHigh } from '../trie';
import { nameHasWordIn } from '../classify/postings';
import { bestObject, bestHouse, bestHouseExact, bestHouseWide, bestHouseAlt, bestScore, bestMask, bestTypeMask, bestHistorical, runnerScore, runnerTies } from './chain';
import { obj, O_LEVEL, O_PARENT } from '../blob';
import { namesDistrictAbove, namesCityDistrict } from './districts';
import { R_STATUS, R_PARTS, R_LEFT, MAX_LEFT, R_TEXT, R_TEXT_CAPACITY } from '../layout';

// @ts-ignore: decorator
@inline function srcStart(t: i32): i32 {
  return i32At(SRC, tok(t, F_START));
}
// @ts-ignore: decorator
@inline function srcEnd(t: i32): i32 {
  // the input index where the next folded char starts (translit folds several input chars into one)
  return i32At(SRC, tok(t, F_START) + tok(t, F_LEN));
}

/**
 * Writes each part as its folded text (so a part typed in the wrong layout reads right), into the text
 * area of RESULT; parts index that area.
 */
export function writeParts(): void {
  let text = 0;
  for (let p = 0; p < PART_COUNT; p++) {
    const first = partFirst(p);
    if (first < 0) {
      setI32(RESULT, R_PARTS + 2 * p, -1);
      setI32(RESULT, R_PARTS + 2 * p + 1, 0);
    } else {
      const start = text;
      for (let t = first; t <= partLast(p); t++) {
        // the text between two tokens as typed, but a word the tokenizer read as a slash (`37 дробь 15`) is the slash
        const from = t > first ? tok(t - 1, F_START) + tok(t - 1, F_LEN) : tok(t, F_START);
        const to = tok(t, F_START) + tok(t, F_LEN);
        let wordBetween = false;
        for (let k = from; k < tok(t, F_START); k++) wordBetween = wordBetween || isLetter(u16At(NORM, k));
        if (wordBetween && text < R_TEXT_CAPACITY) setI32(RESULT, R_TEXT + text++, 47);
        for (let k = wordBetween ? tok(t, F_START) : from; k < to && text < R_TEXT_CAPACITY; k++) setI32(RESULT, R_TEXT + text++, u16At(NORM, k));
      }
      setI32(RESULT, R_PARTS + 2 * p, start);
      setI32(RESULT, R_PARTS + 2 * p + 1, text - start);
    }
  }
  if (postcodeToken >= 0) {
    setI32(RESULT, 8, srcStart(postcodeToken));
    setI32(RESULT, 9, srcEnd(postcodeLastToken) - srcStart(postcodeToken));
  } else {
    setI32(RESULT, 8, -1);
    setI32(RESULT, 9, 0);
  }
}


export function writeStandardized(): void {
  const matched = bestObject >= 0;
  setI32(RESULT, R_STATUS, matched ? 0 : 1);
  setI32(RESULT, 1, bestObject);
  setI32(RESULT, 2, bestHouse);
  let unique = 0;
  if (matched && runnerScore >= bestScore) unique = runnerTies ? 2 : 1;
  else if (matched && runnerScore >= bestScore - 30) unique = 1;
  setI32(RESULT, 3, unique);
  setI32(RESULT, 4, matched && bestHistorical ? 1 : 0);
  let level = matched ? obj(bestObject, O_LEVEL) : 0;
  if (bestHouse >= 0) level = 8;
  setI32(RESULT, 6, level);
  let houseQuality = 9;
  if (houseKeyLen > 0) houseQuality = bestHouse < 0 ? 0 : (bestHouseExact ? 3 : 4);
  setI32(RESULT, 7, houseQuality);
  setI32(RESULT, 10, bestScore);
  if (bestHouse >= 0 && bestHouseWide) takeWideHouse();
  if (bestHouse >= 0 && bestHouseAlt) takeAltHouse();
  writeParts();
  // leftovers: free tokens no chain member used, not type words
  let count = 0;
  let significant = false;
  for (let t = 0; t < tokenCount && count < MAX_LEFT; t++) {
    const role = tok(t, F_ROLE);
    const bit: u64 = (<u64>1) << <u64>t;
    if (matched && ((bestMask | bestTypeMask) & bit) != 0) continue;
    if (role == ROLE_FREE) {
      if (matched && tok(t, F_TYPE_A) >= 0) continue; // a type word with nothing to type
      // the country's name in the middle of the string (`620030 Россия Свердловская обл. …`), which no name read
      if (matched && isCountryWord(t)) continue;
      // a word the chain read elsewhere, written again (`г.о. город Екатеринбург, г. Екатеринбург`)
      if (matched && tok(t, F_KIND) == KIND_ALPHA && tok(t, F_LEN) >= 3 && readElsewhere(t, bestMask)) continue;
      // a title cut short before the name it is part of (`ул. Ак. Бардина`, `Вл. Высоцкого`, `Марш. Жукова`)
      if (matched && abbreviatesChain(t, bestObject, bestMask | bestTypeMask)) continue;
      // «имени» before the name the chain read (`ул. им. Малышева`, `ул. имени Малышева`)
      if (matched && (tokIs(t, 'им') || tokIs(t, 'имени')) && t + 1 < 64 && (bestMask & ((<u64>1) << <u64>(t + 1))) != 0) continue;
      // the district of the answer's region its data does not place the answer in (`Заинский р-н, с. Большое Афанасово`)
      if (matched && namesDistrictAbove(t, bestObject)) continue;
      // a house part's word with no value (`Малышева 5, этаж`) says nothing of the address, nor the name of a city's
      // district the data does not place the answer in (`Екатеринбург, Верх-Исетский р-н, …`)
      // (nor a delivery note or landmark: `вход со двора`, `ТЦ Гринвич`)
      if (tok(t, F_KIND) == KIND_ALPHA && tok(t, F_LEN) >= 3 && !(matched && (keywordPart(t) >= 0 || namesCityDistrict(t, bestObject) || inComment(t)))) {
        significant = true;
      }
      if (!matched && tok(t, F_KIND) == KIND_DIGIT) significant = true;
    } else if (!(role == ROLE_NOISE && tok(t, F_KIND) == KIND_DIGIT)) continue;
    setI32(RESULT, R_LEFT + 1 + 2 * count, srcStart(t));
    setI32(RESULT, R_LEFT + 2 + 2 * count, srcEnd(t) - srcStart(t));
    count++;
  }
  setI32(RESULT, R_LEFT, count);
  setI32(RESULT, 5, !matched ? 2 : count == 0 ? 0 : significant ? 2 : 1);
}

/**
 * Token t, letters (2 to 6, or an initial with its dot) before a word the chain read or a type word, begins a word of
 * a name of the chain's object or of a place above it: an abbreviation of a word the match did not need (titles weigh
 * little: `Академика`; `Свердл. обл.` before a street found without its region; `Б. Ельцина` for Бориса Ельцина).
 */
function abbreviatesChain(t: i32, o: i32, mask: u64): bool {
  const len = tok(t, F_LEN);
  if (tok(t, F_KIND) != KIND_ALPHA || len > 6 || t + 1 >= tokenCount || t + 1 >= 64) return false;
  if (len == 1 && (tok(t + 1, F_SEP) & SEP_DOT) == 0) return false;
  if ((mask & ((<u64>1) << <u64>(t + 1))) == 0 && tok(t + 1, F_TYPE_A) < 0) return false;
  if (!wordsBeginning(tok(t, F_START), len)) return false;
  for (let a = o; a >= 0; a = obj(a, O_PARENT)) {
    if (nameHasWordIn(a, prefixLow, prefixHigh)) return true;
  }
  return false;
}

/** Token t spells the same word as a token of `mask` (the chain's words). */
function readElsewhere(t: i32, mask: u64): bool {
  const start = tok(t, F_START);
  const len = tok(t, F_LEN);
  for (let u = 0; u < tokenCount && u < 64; u++) {
    if (u == t || (mask & ((<u64>1) << <u64>u)) == 0 || tok(u, F_LEN) != len) continue;
    const other = tok(u, F_START);
    let k = 0;
    while (k < len && u16At(NORM, start + k) == u16At(NORM, other + k)) k++;
    if (k == len) return true;
  }
  return false;
}
