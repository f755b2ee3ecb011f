/**
 * The only exports of the core (see docs/DESIGN.md, "WASM ABI"). Every function takes and returns i32/f64.
 *
 * Life cycle: the host calls `setup()`, then `reserve(bytes)` per dictionary section, writes the bytes
 * there and calls `attach(kind, ptr, count)`; after that `standardize`, `suggest`, `parseHouse` and
 * `nearest` read the query from `inputPtr()` (UTF-16, `len` code units) and write fixed records to
 * `resultPtr()`. No call allocates: all scratch memory is carved in `setup()`.
 *
 * standardize → RESULT (i32):
 *   [0] status (0 matched, 1 nothing matched)  [1] object id  [2] house id  [3] unique  [4] actuality
 *   [5] undefined  [6] level  [7] house quality  [8] postcode start  [9] postcode length  [10] score
 *   [11 + 2p, 12 + 2p] start, length of house part p (PART_COUNT parts; −1 when absent)
 *   [R_LEFT] leftover span count, then (start, length) pairs; spans index the input string
 * suggest → RESULT: [0] count, then per item (object id, house id, score)
 * parseHouse → RESULT: as standardize, with only [8], [9] and the parts filled
 */
import { setupArenas, reserve as reserveBytes, INPUT, RESULT, SRC, NORM, INPUT_CAPACITY, setI32, i32At, u16At } from './memory';
import { attachSection } from './blob';
import { readsSoFar } from './reads';
import { isLetter, normalize, latinKeys, layoutKeysInWord, VARIANT_TRANSLIT, layoutKeysRead, setWordTest, setVocabularyTest, VARIANT_PLAIN, VARIANT_LAYOUT, VARIANT_LAYOUT_KEEP, VARIANT_COUNT } from './text';
import { setupTokens, tokenize, tokenCount, tok, tokIs, setSplitGlued, splitsGlued, setJoinCompounds, hyphenCompound, F_START, F_LEN, F_ROLE, F_KIND, F_SEP, F_SEGMENT, F_TYPE_A, F_TYPE_B, SEP_DOT, KIND_ALPHA, KIND_DIGIT, ROLE_FREE, ROLE_NOISE } from './tokenize';
import { setupHouse, parseHouseParts, partFirst, partLast, keywordPart, keywordAt, PART_COUNT, P_HOUSE, postcodeToken, postcodeLastToken, typedPostcode, houseKeyLen, houseKeyStead, houseAmbiguous, houseBare, setNameFirstNumber, namedNumberAt, placeNumberAt, setPlaceNumberHouse, takeWideHouse, takeAltHouse, isCountryWord, inComment } from './house';
import { setupTrie, fuzzyCount, visitCount, memoAnswers, resetVisitBudget, lookup, setCellWalk, isWord, hitCount, HITS, wordsBeginning, prefixLow, prefixHigh, costOf } from './trie';
import { setupNames, resetCandidates, classifyNames, collectObjects, objUsed, objAt, restLooks, ensurePlaceWords, nameHasWordIn, unhitWord, clearUnhitWord } from './classify/names';
import {
  solve, solvedExactly, solveUnraised, setRaising, answerPostcodePlace, bestObject, bestHouse, bestHouseExact, bestHouseWide, bestHouseAlt, bestScore, bestMask, bestTypeMask, bestHistorical, runnerScore, runnerTies, prepareChainOrder, setFloorTies,
} from './solve/chain';
import { obj, word, house, houseKeyChar, typeLevelMask, O_LEVEL, O_PARENT, O_HOUSE_START, O_HOUSE_COUNT, H_KEY, H_KEY_LEN, houseParent, houseCount } from './blob';
import { suggestInto, prepareHintOrder } from './solve/suggest';
import { ensureSubtrees } from './subtree';
import { setupGrid, nearestInto, nearestMetroInto, buildGrid, attachMetro } from './grid';

const R_STATUS: i32 = 0;
const R_PARTS: i32 = 11;
const R_LEFT: i32 = 11 + 19 * 2;
const MAX_LEFT: i32 = 32;
/** folded text of the parts: R_TEXT_COUNT chars follow, parts index it as (start, length) */
const R_TEXT: i32 = R_LEFT + 1 + MAX_LEFT * 2;
const R_TEXT_CAPACITY: i32 = 1024;
export function setup(): void {
  setupArenas();
  // a word of the vocabulary, or a house keyword (`кв`): what a comma in a layout string may stand before
  setWordTest((start: i32, len: i32, prefix: bool): bool => isWord(start, len, prefix) || keywordAt(start, len) >= 0);
  setVocabularyTest((start: i32, len: i32, prefix: bool): bool => isWord(start, len, prefix));
  setupTokens();
  setupHouse();
  setupTrie();
  setupNames();
  setupGrid();
}

export function reserve(bytes: i32): i32 {
  return <i32>reserveBytes(<usize>bytes);
}

const SECTION_METRO: i32 = 11;

export function attach(kind: i32, ptr: i32, count: i32): i32 {
  if (kind == SECTION_METRO) {
    attachMetro(<usize>ptr, count);
    return 0;
  }
  return attachSection(kind, <usize>ptr, count);
}

/** Builds the spatial grid and the street scopes once every section is attached; returns the number of grid points. */
export function index(): i32 {
  const points = buildGrid();
  // the street scopes and both reading orders, at load: otherwise the first query pays for them (≈0.5 s at 10 M houses)
  ensureSubtrees();
  prepareChainOrder();
  prepareHintOrder();
  ensurePlaceWords();
  return points;
}

export function inputPtr(): i32 {
  return <i32>INPUT;
}
export function inputCapacity(): i32 {
  return INPUT_CAPACITY;
}
export function resultPtr(): i32 {
  return <i32>RESULT;
}

/**
 * Diagnostics for bench/ and tests: 0 fuzzy trie walks made, 1 trie nodes they visited (since start), 2 candidates
 * the last call collected, 3 fuzzy lookups answered from the call's memo of walks (since start), 4 names of the
 * ordered rest whose records the last call read to bound them one by one (names.ts restLooks), 5 posting entries
 * read (since start, wrapping at 2^32: reads.ts).
 */
export function stats(kind: i32): i32 {
  return kind == 0 ? fuzzyCount : kind == 1 ? visitCount : kind == 2 ? objUsed : kind == 3 ? memoAnswers : kind == 4 ? restLooks : kind == 5 ? readsSoFar() : 0;
}

/**
 * Tests and bench: looks INPUT[0…len), folded as `variant`, up as one word with `budget` edits (`prefix` 1: as
 * a prefix), by the cell walk when `cells` is 1 (trie.ts, the bit walk's reference). RESULT: [0] hit count,
 * then (word id, cost) per hit. Returns the count.
 */
export function lookupWord(len: i32, variant: i32, budget: i32, prefix: i32, cells: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY || variant < 0 || variant >= VARIANT_COUNT) return -1;
  resetVisitBudget();
  const folded = normalize(len, variant);
  setCellWalk(cells != 0);
  lookup(0, folded, budget, prefix != 0);
  setCellWalk(false);
  const count = hitCount;
  setI32(RESULT, 0, count);
  for (let h = 0; h < count; h++) {
    setI32(RESULT, 1 + h * 2, i32At(HITS, h * 2));
    setI32(RESULT, 2 + h * 2, costOf(i32At(HITS, h * 2 + 1)));
  }
  return count;
}

/** The object that owns house `id` (houses do not store their parent), −1 for an id out of range. */
export function parentOfHouse(id: i32): i32 {
  return id < 0 || id >= houseCount ? -1 : houseParent(id);
}

/**
 * The first house after `after` of the object owning house `id` whose key is house `id`'s, other than `id` (−1 none):
 * houses spelled alike, as GAR's stead `№2` beside house `2` (the key drops the sign). The host picks the stead or the
 * building of such twins.
 */
export function houseTwin(id: i32, after: i32): i32 {
  const o = parentOfHouse(id);
  if (o < 0) return -1;
  const end = obj(o, O_HOUSE_START) + obj(o, O_HOUSE_COUNT);
  const len = house(id, H_KEY_LEN);
  const key = house(id, H_KEY);
  for (let h = max(after + 1, obj(o, O_HOUSE_START)); h < end; h++) {
    if (h == id || house(h, H_KEY_LEN) != len) continue;
    const other = house(h, H_KEY);
    let k = 0;
    while (k < len && houseKeyChar(other + k) == houseKeyChar(key + k)) k++;
    if (k == len) return h;
  }
  return -1;
}

/** No-op across the boundary: the cost of a call alone (bench/boundary). */
export function ping(x: i32): i32 {
  return x + 1;
}

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
function writeParts(): void {
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

function writeStandardized(): void {
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

/**
 * Token t names a district (level 2) of the region above object o, o lies in a settlement (level 5) and no district
 * or city stands above it: the data places the village in its region directly (OSM's villages), so the district typed
 * agrees with the answer rather than contradicting it. Under another district it would, and a city (Екатеринбург)
 * is in no district: the word stays a leftover there.
 */
function namesDistrictAbove(t: i32, o: i32): bool {
  if (t >= 64) return false;
  let region = -1;
  let settlement = false;
  for (let a = o; a >= 0; a = obj(a, O_PARENT)) {
    const level = obj(a, O_LEVEL);
    if (level == 2 || level == 3) return false;
    if (level == 5) settlement = true;
    region = a;
  }
  return settlement && districtReads(t, region);
}

/** A candidate district (level 2) of `region` reads token t (< 64). */
function districtReads(t: i32, region: i32): bool {
  const bit: u64 = (<u64>1) << <u64>t;
  for (let k = 0; k < objUsed; k++) {
    const p = objAt(k);
    if (load<i32>(p, 4) <= 0 || (load<u64>(p, 32) & bit) == 0) continue;
    const d = load<i32>(p);
    if (obj(d, O_LEVEL) == 2 && obj(d, O_PARENT) == region) return true;
  }
  return false;
}

/**
 * Token t is a word of a name typed with a district's type word beside it (`Верх-Исетский р-н`, `район Октябрьский`)
 * and object o lies in a city: the city's district, which the data does not place the answer in (OSM's extracts
 * carry none), a leftover of no weight for the address; not a district the dictionary has.
 */
function namesCityDistrict(t: i32, o: i32): bool {
  if (t >= 64 || (!districtTypeAt(nextNameEnd(t, 1)) && !districtTypeAt(nextNameEnd(t, -1)))) return false;
  // a district the dictionary has in the answer's region (`Сысертский р-н`) is one the answer is not in: that says
  // something (a Ленинский р-н of another region does not)
  if (districtReads(t, rootOf(o))) return false;
  for (let a = o; a >= 0; a = obj(a, O_PARENT)) if (obj(a, O_LEVEL) == 3) return true;
  return false;
}

/** The object at the top of o's chain (its region). */
function rootOf(o: i32): i32 {
  while (obj(o, O_PARENT) >= 0) o = obj(o, O_PARENT);
  return o;
}

/** The first token from t on in direction `step` (±1), within t's part of the string, that is no plain word of a name (at most two words on). */
function nextNameEnd(t: i32, step: i32): i32 {
  let k = t + step;
  for (let n = 0; n < 2 && k >= 0 && k < tokenCount && tok(k, F_SEGMENT) == tok(t, F_SEGMENT); n++, k += step) {
    if (tok(k, F_KIND) != KIND_ALPHA || tok(k, F_TYPE_A) >= 0) return k;
  }
  return k >= 0 && k < tokenCount && tok(k, F_SEGMENT) == tok(t, F_SEGMENT) ? k : -1;
}

/** Token k is a type word of districts only (`р-н`, `район`: an area or a city's district). */
function districtTypeAt(k: i32): bool {
  if (k < 0 || k >= tokenCount || tok(k, F_ROLE) != ROLE_FREE) return false;
  const a = tok(k, F_TYPE_A);
  if (a < 0) return false;
  const levels = typeLevelMask(a) | typeLevelMask(tok(k, F_TYPE_B));
  return (levels & ~DISTRICT_LEVELS) == 0;
}
const DISTRICT_LEVELS: i32 = (1 << 2) | (1 << 4);

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
 * Standardizes INPUT[0…len). Returns 0 when something matched, 1 when nothing did. Text with Latin letters is
 * read in every variant, most words spelled right first (PLAIN too: a layout string as typed is Latin noise whose
 * fuzzy walks cost more than the rest of the call), and a reading that settles the call (`readingSettles`) ends it:
 * a layout string read right skips the fuzzy walks of its other readings.
 */
export function standardize(len: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY) return -1;
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

/**
 * Tests: how standardize passes the rest by once a runner-up is within the margin (solve/chain.ts `raising`): 0 below
 * the winner less the margin only, 1 below the winner (the default), 2 as 1 with every solve that raised done again
 * without (the guard `solvedExactly` rarely needs, run every time).
 */
export function setStandardizeRaising(mode: i32): void {
  setRaising(mode < 0 || mode > 2 ? 1 : mode);
}

/** Tests: every variant read, in variant order, none settling the call (the reference for `standardize` and `suggest`). */
let everyReading = false;
export function setEveryReading(on: i32): void {
  everyReading = on != 0;
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

/** Parses only the house part of INPUT[0…len) (any country). */
export function parseHouse(len: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY) return -1;
  tokenize(normalize(len, VARIANT_PLAIN));
  parseHouseParts();
  writeParts();
  return 0;
}

/** The hints `suggest` wrote last were read with a land plot's number as the house (`участок 2`). */
let hintsStead: bool = false;

/**
 * 1 when the hints of the last `suggest` call were read with a land plot's number, typed with its keyword (`уч 27`,
 * `участок 2`), as the house key: the host then lists the stead before the building of two houses keyed alike.
 */
export function hintsAskStead(): i32 {
  return hintsStead ? 1 : 0;
}

/** The best score after a reading that scored `score`: a better one wrote the hints (`suggestInto`), as it read them. */
function bestAfter(score: i32, best: i32): i32 {
  if (score <= best) return best;
  hintsStead = houseKeyStead;
  return score;
}

/**
 * Hints for INPUT[0…len): `prefix` 1 when the last word is still being typed. Writes at most `max`
 * items; returns their count.
 */
export function suggest(len: i32, max: i32, prefix: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY) return -1;
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

/** Nearest object of a level (0 = any) within `radius` meters of a point, in object `within`'s subtree (−1 any); see grid.ts. */
export function nearest(lat: f64, lon: f64, level: i32, radius: f64, within: i32): i32 {
  return nearestInto(lat, lon, level, radius, within);
}

/** Up to `max` metro stations within `radius` meters, nearest first; see grid.ts. */
export function nearestMetro(lat: f64, lon: f64, max: i32, radius: f64): i32 {
  return nearestMetroInto(lat, lon, max, radius);
}
