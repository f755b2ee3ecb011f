/**
 * Dictionary sections, copied by the host into memory once (`reserve` + write) and read in place.
 * Every section is a little-endian array of fixed-width records; strides are fixed by FORMAT_VERSION
 * and documented in docs/DESIGN.md ("Blob format").
 *
 *   objects  OBJ_STRIDE i32: parent, level, typeId, latE6, lonE6, weight, houseStart, houseCount, postcode, flags
 *            (houseStart never decreases with the object id, also for objects without houses, so the owner of
 *            house h is the last object whose houseStart ≤ h: `houseParent`)
 *   houses   HOUSE_STRIDE i32: labelId (houses of one parent are consecutive; the parent is not stored)
 *   houseLabels LABEL_STRIDE i32: keyOffset, keyLength, baseLength — one record per distinct house label
 *            (a national registry has ≈35 M houses but only a few million distinct numbers)
 *   houseKeys u16: the normalized keys of the labels (10, 10а, 10к2, 10с12, 10/2)
 *   houseCoords (optional) 2 i32 per house: latE6, lonE6 (NO_COORD when unknown); absent when no house has any
 *   trie     TRIE_STRIDE i32: firstChild, nextSibling, char, wordId (−1 when the node ends no word)
 *   words    WORD_STRIDE i32: postingStart, postingCount, typeA, typeB (type ids of a type word, −1)
 *   postings i32: name ids, grouped by word
 *   names    NAME_STRIDE i32: object, wordStart, wordCount, flags (NAME_HISTORICAL, NAME_ALIAS, NAME_SPELLING, NAME_INITIAL), totalWeight (×100)
 *   nameWords NAME_WORD_STRIDE i32: wordId, weight (×100)
 *   types    TYPE_STRIDE i32: levelMask (bit = level), flags (TYPE_COMMON_STREET)
 *   grid     see grid.ts
 */
import { countRead } from './reads';

export { FORMAT_VERSION } from './layout';

export const OBJ_STRIDE: i32 = 10;
export const O_PARENT: i32 = 0;
export const O_LEVEL: i32 = 1;
export const O_TYPE: i32 = 2;
export const O_LAT: i32 = 3;
export const O_LON: i32 = 4;
export const O_WEIGHT: i32 = 5;
export const O_HOUSE_START: i32 = 6;
export const O_HOUSE_COUNT: i32 = 7;
export const O_POSTCODE: i32 = 8;
export const O_FLAGS: i32 = 9;
/** O_FLAGS bit: the object is in the official registry (it has a FIAS id) */
export const OBJ_REGISTRY: i32 = 1;

export const HOUSE_STRIDE: i32 = 1;
export const LABEL_STRIDE: i32 = 3;
/** fields of a house's label, read through `house(id, field)` */
export const H_KEY: i32 = 0;
export const H_KEY_LEN: i32 = 1;
export const H_BASE_LEN: i32 = 2;
export const NO_COORD: i32 = 0x7fffffff;

export const TRIE_STRIDE: i32 = 4;
export const WORD_STRIDE: i32 = 4;
export const NAME_STRIDE: i32 = 5;
export const NAME_WORD_STRIDE: i32 = 2;
export const TYPE_STRIDE: i32 = 2;

export const NAME_HISTORICAL: i32 = 1;
export const NAME_ALIAS: i32 = 2;
/** with NAME_ALIAS: a spelling of the official name, a slip or a part of it (`масква`, `тольяти`, `ростов`) */
export const NAME_SPELLING: i32 = 4;
/** with NAME_ALIAS: a town's name with its first word cut to the initial (`Н. Тагил`): read only with both words hit */
export const NAME_INITIAL: i32 = 8;

export let OBJECTS: usize = 0;
export let objectCount: i32 = 0;
export let HOUSES: usize = 0;
export let houseCount: i32 = 0;
export let HOUSE_LABELS: usize = 0;
export let HOUSE_COORDS: usize = 0;
export let HOUSE_KEYS: usize = 0;
export let TRIE: usize = 0;
export let trieCount: i32 = 0;
export let WORDS: usize = 0;
export let wordCount: i32 = 0;
export let POSTINGS: usize = 0;
export let NAMES: usize = 0;
export let nameCount: i32 = 0;
export let NAME_WORDS: usize = 0;
export let TYPES: usize = 0;
export let typeCount: i32 = 0;

export const SECTION_OBJECTS: i32 = 0;
export const SECTION_HOUSES: i32 = 1;
export const SECTION_HOUSE_KEYS: i32 = 2;
export const SECTION_TRIE: i32 = 3;
export const SECTION_WORDS: i32 = 4;
export const SECTION_POSTINGS: i32 = 5;
export const SECTION_NAMES: i32 = 6;
export const SECTION_NAME_WORDS: i32 = 7;
export const SECTION_TYPES: i32 = 8;
export const SECTION_GRID: i32 = 9;
export const SECTION_GRID_CELLS: i32 = 10;
export const SECTION_HOUSE_LABELS: i32 = 12;
export const SECTION_HOUSE_COORDS: i32 = 13;

/** Records where the host put a section; `count` is the number of records (or elements). */
export function attachSection(kind: i32, ptr: usize, count: i32): i32 {
  switch (kind) {
    case SECTION_OBJECTS: OBJECTS = ptr; objectCount = count; break;
    case SECTION_HOUSES: HOUSES = ptr; houseCount = count; break;
    case SECTION_HOUSE_KEYS: HOUSE_KEYS = ptr; break;
    case SECTION_HOUSE_LABELS: HOUSE_LABELS = ptr; break;
    case SECTION_HOUSE_COORDS: HOUSE_COORDS = ptr; break;
    case SECTION_TRIE: TRIE = ptr; trieCount = count; break;
    case SECTION_WORDS: WORDS = ptr; wordCount = count; break;
    case SECTION_POSTINGS: POSTINGS = ptr; break;
    case SECTION_NAMES: NAMES = ptr; nameCount = count; break;
    case SECTION_NAME_WORDS: NAME_WORDS = ptr; break;
    case SECTION_TYPES: TYPES = ptr; typeCount = count; break;
    default: return -1;
  }
  return 0;
}

// @ts-ignore: decorator
@inline export function obj(id: i32, field: i32): i32 {
  return load<i32>(OBJECTS + (<usize>(id * OBJ_STRIDE + field) << 2));
}
/** House `id`'s label: one per distinct number, block, building, liter and construction. */
// @ts-ignore: decorator
@inline export function houseLabel(id: i32): i32 {
  return load<i32>(HOUSES + (<usize>id << 2));
}
/** A field of house `id`'s label (H_KEY, H_KEY_LEN, H_BASE_LEN). */
// @ts-ignore: decorator
@inline export function house(id: i32, field: i32): i32 {
  const label = load<i32>(HOUSES + (<usize>id << 2));
  return load<i32>(HOUSE_LABELS + (<usize>(label * LABEL_STRIDE + field) << 2));
}
// @ts-ignore: decorator
@inline export function houseLat(id: i32): i32 {
  return HOUSE_COORDS == 0 ? NO_COORD : load<i32>(HOUSE_COORDS + (<usize>id << 3));
}
// @ts-ignore: decorator
@inline export function houseLon(id: i32): i32 {
  return HOUSE_COORDS == 0 ? NO_COORD : load<i32>(HOUSE_COORDS + (<usize>id << 3) + 4);
}
/** The object that owns house `id`: the last object whose houseStart ≤ id (binary search). */
export function houseParent(id: i32): i32 {
  let lo = 0;
  let hi = objectCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (obj(mid, O_HOUSE_START) <= id) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
// @ts-ignore: decorator
@inline export function trieNode(id: i32, field: i32): i32 {
  return load<i32>(TRIE + (<usize>(id * TRIE_STRIDE + field) << 2));
}
// @ts-ignore: decorator
@inline export function word(id: i32, field: i32): i32 {
  return load<i32>(WORDS + (<usize>(id * WORD_STRIDE + field) << 2));
}
// @ts-ignore: decorator
@inline export function posting(i: i32): i32 {
  countRead();
  return load<i32>(POSTINGS + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline export function name(id: i32, field: i32): i32 {
  return load<i32>(NAMES + (<usize>(id * NAME_STRIDE + field) << 2));
}
// @ts-ignore: decorator
@inline export function nameWord(i: i32, field: i32): i32 {
  return load<i32>(NAME_WORDS + (<usize>(i * NAME_WORD_STRIDE + field) << 2));
}
// @ts-ignore: decorator
@inline export function typeLevelMask(typeId: i32): i32 {
  return typeId < 0 || typeId >= typeCount ? 0 : load<i32>(TYPES + (<usize>(typeId * TYPE_STRIDE) << 2));
}
/** types flags: the country's commonest street type (`ул`, `вул`), which a tie without a typed type goes to */
export const TYPE_COMMON_STREET: i32 = 1;
// @ts-ignore: decorator
@inline export function typeFlags(typeId: i32): i32 {
  return typeId < 0 || typeId >= typeCount ? 0 : load<i32>(TYPES + (<usize>(typeId * TYPE_STRIDE + 1) << 2));
}
// @ts-ignore: decorator
@inline export function houseKeyChar(offset: i32): i32 {
  return <i32>load<u16>(HOUSE_KEYS + (<usize>offset << 1));
}
