/**
 * Places typed: the free tokens that spell a region's or a city's name as typed, found by the lookups
 * (`notePlaceWord`) from bit sets over the vocabulary built once a dictionary (`ensurePlaceWords`); a name of several
 * words counts when all its significant words are typed (`multiWordPlaces`). The leaf names of those words are read
 * at once (`readPlaceLeaves`), so that the solver's bounds can charge every leaf left unread for leaving the place
 * out (solve/chain.ts `PLACE_LEFT_PENALTY`, `readsTypedPlace`).
 */
import { reserve } from '../memory';
import { word, posting, name, nameWord, obj, O_LEVEL, NAME_HISTORICAL, NAME_ALIAS, NAMES, nameCount, wordCount } from '../blob';
import { scoped, isArea, areaCount } from '../subtree';
import { hitTotal, hitToken, hitWord } from './hit-log';
import { SIGNIFICANT_WEIGHT } from './candidates';
import { readNameWhole } from './postings';

/**
 * The free tokens that spell, as typed, a region's or a city's name (`Казань`, `Москва`, `Свердловская`, `Нижний
 * Тагил`, `Каменск-Уральский`, and other names: `спб`, `Питер`; `placeName`): an address whose chain reads none of
 * them leaves the place it names out (solve/chain.ts `PLACE_LEFT_PENALTY`). A name of several words counts when every
 * one of its significant words is typed (`Гора` alone names no Высокая Гора).
 */
export let placeTokens: u64 = 0;
/** bit per word id: the one significant word of the official name of a region or a city (level 1 or 3; from four letters) */
let PLACE_WORDS: usize = 0;
/** bit per word id: a significant word of such a name of several (`multiWordPlaces` checks the others) */
let PLACE_PART_WORDS: usize = 0;
/** bit per word id: the one significant word of a popular name of a region or a city (`спб`, `кубань`) */
let ALIAS_PLACE_WORDS: usize = 0;
let placeWordsCapacity: i32 = 0;
/** the name table PLACE_WORDS was built for (another attached gets its own) */
let placeWordsNames: usize = 0;

// @ts-ignore: decorator
@inline function setWordBit(bits: usize, w: i32): void {
  const at = bits + (<usize>(w >>> 5) << 2);
  store<u32>(at, load<u32>(at) | ((<u32>1) << <u32>(w & 31)));
}

// @ts-ignore: decorator
@inline function wordBit(bits: usize, w: i32): bool {
  return (load<u32>(bits + (<usize>(w >>> 5) << 2)) & ((<u32>1) << <u32>(w & 31))) != 0;
}

/**
 * Name n is the official name of a region or a city, or one of its other names (dictionaries/data/aliases.tsv: `спб`,
 * `екб`, Набережные Челны as `наб челны`), not a spelling of the official one (NAME_SPELLING: `тольяти` is a slip of
 * Пальмиро Тольятти's word too, `ростов` a part) nor an earlier name (GAR keeps those of many renamed places).
 */
function placeName(n: i32): bool {
  const level = obj(name(n, 0), O_LEVEL);
  // a former name people still use (`свердловск`: both flags) is one of them too
  return (level == 1 || level == 3) && (name(n, 3) == 0 || (name(n, 3) & ~NAME_HISTORICAL) == NAME_ALIAS);
}

export function ensurePlaceWords(): void {
  if (placeWordsNames == NAMES && PLACE_WORDS != 0) return;
  placeWordsNames = NAMES;
  const bytes = ((wordCount + 31) >>> 5) << 2;
  if (bytes > placeWordsCapacity) {
    PLACE_WORDS = reserve(<usize>bytes);
    PLACE_PART_WORDS = reserve(<usize>bytes);
    ALIAS_PLACE_WORDS = reserve(<usize>bytes);
    placeWordsCapacity = bytes;
  }
  memory.fill(PLACE_WORDS, 0, <usize>bytes);
  memory.fill(PLACE_PART_WORDS, 0, <usize>bytes);
  memory.fill(ALIAS_PLACE_WORDS, 0, <usize>bytes);
  for (let n = 0; n < nameCount; n++) {
    if (!placeName(n)) continue;
    const ws = name(n, 1);
    const wc = name(n, 2);
    let w = -1;
    let significant = 0;
    for (let j = 0; j < wc; j++) {
      if (nameWord(ws + j, 1) < SIGNIFICANT_WEIGHT) continue;
      significant++;
      w = nameWord(ws + j, 0);
    }
    if (significant == 1) setWordBit(name(n, 3) == 0 ? PLACE_WORDS : ALIAS_PLACE_WORDS, w);
    else if (significant > 1) for (let j = 0; j < wc; j++) if (nameWord(ws + j, 1) >= SIGNIFICANT_WEIGHT) setWordBit(PLACE_PART_WORDS, nameWord(ws + j, 0));
  }
}

// @ts-ignore: decorator
@inline function isPlaceWord(w: i32): bool {
  return wordBit(PLACE_WORDS, w);
}

/** The most tokens spelling a word of a place's name of several words that a call looks at (`multiWordPlaces`). */
const PLACE_PARTS_MAX: i32 = 8;
/** The most names of such a word `multiWordPlaces` reads (`Нижний` is in many streets' names, `Тагил` in few). */
const PLACE_PART_NAMES: i32 = 256;
/**
 * The tokens naming each place typed (a bit set per place: one token for a one-word name, all of a name of several
 * words), at most PLACE_GROUPS_MAX: a chain reads a typed place when it reads every token of one (`readsTypedPlace`).
 */
const PLACE_GROUPS_MAX: i32 = 16;
const PLACE_GROUPS = new StaticArray<u64>(PLACE_GROUPS_MAX);
let placeGroupCount: i32 = 0;

function addPlaceGroup(tokens: u64): void {
  for (let i = 0; i < placeGroupCount; i++) if (unchecked(PLACE_GROUPS[i]) == tokens) return;
  if (placeGroupCount >= PLACE_GROUPS_MAX) return;
  unchecked(PLACE_GROUPS[placeGroupCount++] = tokens);
  placeTokens |= tokens;
}

/** Drops token t from the typed places (its word is in too many leaf names to read them at once), and the places left with no token. */
function dropPlaceToken(t: i32): void {
  const bit = (<u64>1) << <u64>t;
  placeTokens &= ~bit;
  let kept = 0;
  for (let i = 0; i < placeGroupCount; i++) {
    const tokens = unchecked(PLACE_GROUPS[i]) & ~bit;
    if (tokens != 0) unchecked(PLACE_GROUPS[kept++] = tokens);
  }
  placeGroupCount = kept;
}

/**
 * A chain reading the tokens `chainMask` reads a place typed (`placeTokens`): every token of one. Reading `Нижний`
 * of `Нижний Тагил` and a street of Нижний Услон is not reading Нижний Тагил.
 */
export function readsTypedPlace(chainMask: u64): bool {
  if ((chainMask & placeTokens) == 0) return false;
  for (let i = 0; i < placeGroupCount; i++) {
    const tokens = unchecked(PLACE_GROUPS[i]);
    if ((chainMask & tokens) == tokens) return true;
  }
  return false;
}

const PART_TOKEN = new StaticArray<i32>(PLACE_PARTS_MAX);
const PART_WORD = new StaticArray<i32>(PLACE_PARTS_MAX);
let partCount: i32 = 0;

/** The token typed for word w among the place parts of this call, or −1. */
function partTokenOf(w: i32): i32 {
  for (let i = 0; i < partCount; i++) if (unchecked(PART_WORD[i]) == w) return unchecked(PART_TOKEN[i]);
  return -1;
}

/**
 * Adds to `placeTokens` the tokens of every region or city name (`placeName`) of several significant words that are
 * all typed as spelled (PART_TOKEN/PART_WORD, from classifyNames): `Нижний Тагил`, not `Тагил` alone.
 */
function multiWordPlaces(): void {
  for (let i = 0; i < partCount; i++) {
    const w = unchecked(PART_WORD[i]);
    // the names of the word (a town with no streets is a leaf); a name holding every part is among each part's
    const start = word(w, 0);
    const count = word(w, 1);
    if (count > PLACE_PART_NAMES) continue;
    for (let k = start; k < start + count; k++) {
      const n = posting(k);
      if (!placeName(n)) continue;
      const ws = name(n, 1);
      let tokens: u64 = 0;
      let all = true;
      for (let j = ws; j < ws + name(n, 2); j++) {
        if (nameWord(j, 1) < SIGNIFICANT_WEIGHT) continue;
        const t = partTokenOf(nameWord(j, 0));
        if (t < 0) {
          all = false;
          break;
        }
        tokens |= (<u64>1) << <u64>t;
      }
      if (all) addPlaceGroup(tokens);
    }
  }
}

/** Starts this call's places typed (with the place words of the dictionary attached). */
export function beginPlaces(): void {
  placeTokens = 0;
  placeGroupCount = 0;
  partCount = 0;
  ensurePlaceWords();
}

/** Token t, of `len` letters, is word w as spelled: a place's name of one word, or a word of one of several. */
// @ts-ignore: decorator
@inline export function notePlaceWord(t: i32, w: i32, len: i32): void {
  // an official name of four letters or more, a popular one of three (`спб`, `мск`; `рт`, `мо` are too short)
  if ((len >= 4 && isPlaceWord(w)) || (len >= 3 && wordBit(ALIAS_PLACE_WORDS, w))) addPlaceGroup((<u64>1) << <u64>t);
  if (scoped && wordBit(PLACE_PART_WORDS, w) && partCount < PLACE_PARTS_MAX) {
    unchecked(PART_TOKEN[partCount] = t);
    unchecked(PART_WORD[partCount++] = w);
  }
}

/** The places of several words typed whole, then the leaf names of every place word (once the areas are read). */
export function readPlaces(): void {
  if (partCount > 1) multiWordPlaces();
  if (placeTokens != 0 && scoped) readPlaceLeaves();
}

/** A place word of more leaf names than this is not read at once: its token names no place (`placeTokens`). */
const PLACE_LEAF_CAP: i32 = 256;

/**
 * Reads now the leaf names of the words naming places (a town with no streets is a leaf, and so is a street of
 * that name), so every leaf left unread surely leaves those tokens out: the solver's bounds charge it the penalty
 * (solve/chain.ts `restLeft`). An exact word is its token's only hit (trie.ts lookup).
 */
function readPlaceLeaves(): void {
  for (let h = 0; h < hitTotal; h++) {
    const t = hitToken(h);
    if ((placeTokens & ((<u64>1) << <u64>t)) == 0) continue;
    const w = hitWord(h);
    const start = word(w, 0);
    const end = start + word(w, 1);
    if (end - start - areaCount(w) > PLACE_LEAF_CAP) {
      dropPlaceToken(t);
      continue;
    }
    for (let k = start; k < end; k++) {
      const nameId = posting(k);
      if (isArea(name(nameId, 0))) continue;
      if (!readNameWhole(nameId)) return;
    }
  }
}
