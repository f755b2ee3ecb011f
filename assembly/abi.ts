/**
 * The exports of the core to its host (see docs/DESIGN.md, "WASM ABI"); the debug build adds the test hooks of
 * testing.ts. Every function takes and returns i32/f64. The readings run in solve/readings.ts, the answer is written
 * by solve/answer.ts at the offsets below.
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
 *   [R_LEFT] leftover span count, then (start, length) pairs; spans index the input string; then R_TEXT, the
 *   folded text of the parts (the R_* offsets are format/result.ts's, generated into layout.ts)
 * suggest → RESULT: [0] count, then per item (object id, house id, score)
 * parseHouse → RESULT: as standardize, with only [8], [9] and the parts filled
 */
import { setupArenas, reserve as reserveBytes, INPUT, RESULT, INPUT_CAPACITY } from './memory';
import { attachSection } from './blob';
import { normalize, setWordTest, setVocabularyTest, VARIANT_PLAIN } from './text';
import { setupTokens, tokenize } from './tokenize';
import { setupHouse, parseHouseParts } from './house/grammar';
import { keywordAt } from './house/keywords';
import { setupTrie, isWord } from './trie';
import { setupNames } from './classify/names';
import { ensurePlaceWords } from './classify/places';
import { prepareChainOrder } from './solve/chain';
import { obj, house, houseKeyChar, O_HOUSE_START, O_HOUSE_COUNT, H_KEY, H_KEY_LEN, houseParent, houseCount } from './blob';
import { prepareHintOrder } from './solve/suggest';
import { readStandardized, readHints, hintsStead } from './solve/readings';
import { writeParts } from './solve/answer';
import { ensureSubtrees } from './subtree';
import { setupGrid, nearestInto, nearestMetroInto, buildGrid, attachMetro } from './grid';


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

/**
 * Standardizes INPUT[0…len) (solve/readings.ts reads it). Returns 0 when something matched, 1 when nothing did, −1 for
 * a length out of range.
 */
export function standardize(len: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY) return -1;
  return readStandardized(len);
}

/** Parses only the house part of INPUT[0…len) (any country). */
export function parseHouse(len: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY) return -1;
  tokenize(normalize(len, VARIANT_PLAIN));
  parseHouseParts();
  writeParts();
  return 0;
}

/**
 * 1 when the hints of the last `suggest` call were read with a land plot's number, typed with its keyword (`уч 27`,
 * `участок 2`), as the house key: the host then lists the stead before the building of two houses keyed alike.
 */
export function hintsAskStead(): i32 {
  return hintsStead ? 1 : 0;
}

/**
 * Hints for INPUT[0…len): `prefix` 1 when the last word is still being typed. Writes at most `max`
 * items; returns their count.
 */
export function suggest(len: i32, max: i32, prefix: i32): i32 {
  if (len < 0 || len > INPUT_CAPACITY) return -1;
  return readHints(len, max, prefix);
}

/** Nearest object of a level (0 = any) within `radius` meters of a point, in object `within`'s subtree (−1 any); see grid.ts. */
export function nearest(lat: f64, lon: f64, level: i32, radius: f64, within: i32): i32 {
  return nearestInto(lat, lon, level, radius, within);
}

/** Up to `max` metro stations within `radius` meters, nearest first; see grid.ts. */
export function nearestMetro(lat: f64, lon: f64, max: i32, radius: f64): i32 {
  return nearestMetroInto(lat, lon, max, radius);
}
