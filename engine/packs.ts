/**
 * Offline packs (docs/OFFLINE.md): a country's web dictionary cut into an entry pack (regions, areas, cities,
 * settlements and the words that read them) and one pack per place (its streets, sub-places and houses), and the
 * packs put back together into a dictionary the core reads. No Node API: the builder (web/build-packs.ts) cuts,
 * the browser engine (web/engine.ts) composes.
 *
 * A pack holds *fragments* of the dictionary's tables, each row with its id in the whole dictionary (`ids`,
 * ascending), and every reference (an object's parent and houses, a house's label, a label's pool strings, a
 * name's object and words) by that id too. Putting packs together is then one merge by id per table and a
 * renumbering, and gives what cutting the whole dictionary to the same objects gives: the rows keep their order
 * (objects depth first, houses in object order, words in the core's reading order, names in the one-pass order),
 * the postings and the trie are built from the names and the words as the builder builds them (format/trie.ts).
 *
 *   tables     objects, houses, labels (house labels: key, base length, parts), pool (the house parts' strings),
 *              postcodes (the houses'), words (spelling, type ids), names (object, flags, weight, words)
 *   global     the entry pack alone: the type table, municipal entities, the country, dates and sources
 */
import { flattenTrie, trieWords } from '../format/trie.js';
import { BLOB_MAGIC, FORMAT_VERSION } from '../format/blob.js';
import { LABEL_PARTS } from '../format/house-labels.js';
import type { BlobFile } from './dictionary.js';

export { codesChunk, codesFile, codesFiles, packFile } from './pack-files.js';

/** Version of the manifest's and the packs' layout (an engine refuses another). */
export const PACKS_FORMAT = 2;

/** The form of a place's code (`PackEntry.code`, `placeCodes`): what tools know a place by. */
const PACK_CODE = /^[0-9a-z][0-9a-z-]{0,63}$/;

/**
 * The codes a place may go by, in the order the builder picks its manifest `code`: its FIAS GUID, `kladr-<code>`,
 * `ga-<code>`, `osm-<id>` (lower case; only those that make a PACK_CODE).
 */
export function placeCodes(codes: { fias?: string; kladr?: string; ga?: string; osm?: string }): string[] {
  const out = [codes.fias, codes.kladr && `kladr-${codes.kladr}`, codes.ga && `ga-${codes.ga}`, codes.osm && `osm-${codes.osm}`];
  return out.filter((code): code is string => !!code).map((code) => code.toLowerCase()).filter((code) => PACK_CODE.test(code));
}

/**
 * A pack's id: its index in the cut (the entry's `entryPlace` gives it for every entry object) in base 36, so the
 * entry alone tells a page which file holds a place, with no list of codes: `0` … `3fz4`.
 */
export const packId = (index: number): string => index.toString(36);
/** A pack id's index, −1 when `id` is not the canonical base-36 form of one below `count`. */
export function packIndexOf(id: string, count: number): number {
  if (!/^(0|[1-9a-z][0-9a-z]{0,6})$/.test(id)) return -1;
  const index = parseInt(id, 36);
  return index < count ? index : -1;
}

/**
 * A place's houses go in house codes packs (`HOUSE_CODE_COLUMNS`) of CODES_CHUNK houses each, in the place pack's
 * house order: the house at row r of place pack `id` has its codes in chunk `<id>-<r / CODES_CHUNK>`, fetched when a
 * house of it is picked (a city of 60,000 GAR houses: ≈50 KB gzip a chunk, not ≈800 KB).
 */
export const CODES_CHUNK = 4096;
/** A chunk id's pack index and chunk, null when it is not one of a pack below `count`. */
export function chunkOf(chunk: string, count: number): { index: number; chunk: number } | null {
  const match = /^([0-9a-z]+)-(0|[1-9][0-9]{0,5})$/.exec(chunk);
  const index = match ? packIndexOf(match[1], count) : -1;
  return match && index >= 0 ? { index, chunk: Number(match[2]) } : null;
}

/** One place pack in the manifest. */
export interface PackEntry {
  /** the pack's id (packId): its file is `places/<id>.dict`, its house codes' `codes/<id>-<n>.dict` (`codes`) */
  id: string;
  file: string;
  /** the place's FIAS GUID (else `kladr-<code>`, `ga-<code>`, `osm-<id>`, `place-<row>`) */
  code: string;
  name: string;
  /** the place with its region and area: `Свердловская обл, г Екатеринбург` */
  fullName: string;
  /** 1 region … 5 settlement (a region or area holding streets itself has a pack too) */
  level: number;
  /** objects below the entry levels (streets, plan structures) */
  objects: number;
  houses: number;
  bytes: number;
  gzipBytes: number;
  /** the house codes packs (a place with houses): how many (`codes/<id>-<0…chunks − 1>.dict`), their bytes together */
  codes: { chunks: number; bytes: number; gzipBytes: number } | null;
}

/** `<country>/manifest.json`: the entry pack and every place pack, for tools (pages read the entry alone). */
export interface PacksManifest {
  packsFormat: number;
  country: BlobFile['country'];
  sourceDate: string;
  /** the build id of the web dictionary the packs were cut from (each pack's `source`) */
  buildId: string;
  entry: { file: string; objects: number; words: number; names: number; bytes: number; gzipBytes: number };
  packs: PackEntry[];
  totals: { packs: number; houses: number; bytes: number; gzipBytes: number };
}

const OBJ = 10;
const NAME = 5;
const LABEL = 3;
const NO_PARENT = -1;

export const TABLES = ['objects', 'houses', 'labels', 'pool', 'postcodes', 'words', 'names'] as const;
export type Table = (typeof TABLES)[number];

/** A host column as the blob holds it (engine/columns.ts): fixed-width rows, text, pooled, or none. */
type Column = Uint8Array | { text: Uint8Array; ends: Uint8Array } | { pool: string[]; ids: Uint8Array } | null | undefined;

/** What a pack holds of the dictionary (its `pack` entry), references by id in the whole dictionary. */
export interface Fragment {
  /** the id in the whole dictionary of each row, per table (u32, ascending) */
  ids: Record<Table, Uint8Array>;
  /** i32 × 10 an object, as core.objects, with the parent and houseStart as whole-dictionary ids */
  objects: Uint8Array;
  objectColumns: Record<string, Column>;
  /** i32 label id a house */
  houses: Uint8Array;
  /** i32 × 2 a house, or null when no house has coordinates */
  houseCoords: Uint8Array | null;
  /** per-house columns: flags, postcode (u32 id in `postcodes`), municipal (u32: municipal index + 1, 0 none), codes */
  houseColumns: Record<string, Column>;
  labelKeys: string[];
  /** u32 base length a label */
  labelBase: Uint8Array;
  /** i32 × 5 pool ids a label (number, корпус, строение, литера, сооружение) */
  labelParts: Uint8Array;
  pool: string[];
  postcodes: string[];
  wordSpelling: string[];
  /** i32 × 2 a word: its type ids (typeA, typeB) */
  wordTypes: Uint8Array;
  /** i32 × 5 a name, as core.names (object as a whole-dictionary id; wordStart counts this fragment's nameWords) */
  names: Uint8Array;
  /** i32 × 2 a name's word: word id, weight */
  nameWords: Uint8Array;
  /** a place pack: the entry objects whose registry codes it holds (u32 ids, ascending; `PLACE_CODE_COLUMNS`) … */
  placeIds?: Uint8Array;
  /** … and those codes, a row each */
  placeColumns?: Record<string, Column>;
}

/**
 * The registry codes of a place (a city, a settlement, a city area, a region holding streets) that the entry pack
 * leaves to the place's pack: two fifths of an entry's bytes, which no typed word matches. A place's hint shows them
 * once its pack is loaded, as it shows its streets.
 */
export const PLACE_CODE_COLUMNS = ['fias', 'gar', 'kladr', 'ga', 'osm'] as const;

/**
 * The registry codes of a house (FIAS GUID, GAR id, OSM type and id) that a place's pack leaves to its house codes
 * pack (`codesFile`): no hint is listed or ranked by them, and a city's GUIDs are half its pack's bytes. A house's
 * record shows them once that pack is loaded (`houseCodesPart`, `composeBlob`).
 */
export const HOUSE_CODE_COLUMNS = ['fias', 'gar', 'osmType', 'osmId'] as const;

/** A house codes pack: the whole-dictionary ids of a place's houses (u32, ascending) and their code columns. */
export interface HouseCodesPart {
  houses: Uint8Array;
  columns: Record<string, Column>;
}

/** The entry pack's share of what is not a table: the type table, municipal entities, the blob's header. */
export interface PackGlobal {
  country: BlobFile['country'];
  sourceDate: string;
  createdAt: string;
  sources: BlobFile['sources'];
  counts: Record<string, number>;
  coreTypes: Uint8Array;
  hostTypes: string[];
  municipal: Record<string, unknown>;
}

// ---- typed views ----

/** `bytes` as T, aligned (a copy when msgpack left them at an odd offset) */
function view<T>(bytes: Uint8Array | null | undefined, Type: { new (b: ArrayBuffer, o: number, l: number): T; BYTES_PER_ELEMENT: number }): T {
  if (!bytes) return new Type(new ArrayBuffer(0), 0, 0);
  // a copy of its own (a Buffer's slice() would share the unaligned memory)
  const aligned = bytes.byteOffset % Type.BYTES_PER_ELEMENT === 0 ? bytes : new Uint8Array(bytes);
  return new Type(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength / Type.BYTES_PER_ELEMENT);
}
/** A section of i32 (u32) rows, read in place when it is aligned (a decoded fragment's sections are) */
export const i32 = (bytes: Uint8Array | null | undefined) => view(bytes, Int32Array);
export const u32 = (bytes: Uint8Array | null | undefined) => view(bytes, Uint32Array);
const bytesOf = (array: ArrayBufferView): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** The index of `id` in the ascending `ids`, −1 when absent. */
export function indexOf(ids: Uint32Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = ids[middle];
    if (at === id) return middle;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

// ---- gathering rows ----

/** Rows taken from fragments, in output order: fragment k's row r. */
interface Picks {
  frag: Uint16Array;
  row: Uint32Array;
}

function fixedRows(column: Uint8Array, rows: number): number {
  return rows > 0 ? column.byteLength / rows : 0;
}

/** One host column over the picked rows, of the kind the sources have (`counts[k]`: rows of fragment k). */
function gatherColumn(sources: Column[], counts: number[], picks: Picks): Column {
  const present = sources.find((s) => s !== null && s !== undefined);
  if (!present) return null;
  const n = picks.row.length;
  if (present instanceof Uint8Array) {
    let width = 0;
    sources.forEach((s, k) => {
      if (s instanceof Uint8Array && counts[k] > 0) width ||= fixedRows(s, counts[k]);
    });
    if (width === 0) return null;
    const out = new Uint8Array(n * width);
    for (let i = 0; i < n; i++) {
      const s = sources[picks.frag[i]];
      if (s instanceof Uint8Array && s.byteLength > 0) out.set(s.subarray(picks.row[i] * width, picks.row[i] * width + width), i * width);
    }
    return out;
  }
  if ('text' in present) {
    const ends = sources.map((s) => (s && 'text' in s ? u32(s.ends) : null));
    let total = 0;
    for (let i = 0; i < n; i++) {
      const e = ends[picks.frag[i]];
      if (e && picks.row[i] < e.length) total += e[picks.row[i]] - (picks.row[i] > 0 ? e[picks.row[i] - 1] : 0);
    }
    const text = new Uint8Array(total);
    const outEnds = new Uint32Array(n);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const s = sources[picks.frag[i]];
      const e = ends[picks.frag[i]];
      const r = picks.row[i];
      if (s && 'text' in s && e && r < e.length) {
        const from = r > 0 ? e[r - 1] : 0;
        text.set(s.text.subarray(from, e[r]), at);
        at += e[r] - from;
      }
      outEnds[i] = at;
    }
    return { text, ends: bytesOf(outEnds) };
  }
  const ids = sources.map((s) => (s && 'pool' in s ? (s.pool.length > 0x10000 ? u32(s.ids) : view(s.ids, Uint16Array)) : null));
  const pool = [''];
  const index = new Map<string, number>([['', 0]]);
  const outIds = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const s = sources[picks.frag[i]];
    const id = ids[picks.frag[i]];
    const value = s && 'pool' in s && id && picks.row[i] < id.length ? s.pool[id[picks.row[i]]] ?? '' : '';
    let to = index.get(value);
    if (to === undefined) {
      to = pool.length;
      pool.push(value);
      index.set(value, to);
    }
    outIds[i] = to;
  }
  return { pool, ids: bytesOf(pool.length > 0x10000 ? outIds : Uint16Array.from(outIds)) };
}

function gatherColumns(sources: Record<string, Column>[], counts: number[], picks: Picks): Record<string, Column> {
  const names = new Set(sources.flatMap((s) => Object.keys(s)));
  const out: Record<string, Column> = {};
  for (const name of names) {
    const column = gatherColumn(sources.map((s) => s[name]), counts, picks);
    if (column) out[name] = column;
  }
  return out;
}

/** Fixed-width records (`width` i32s a row) over the picked rows. */
function gatherRecords(sources: Uint8Array[], width: number, picks: Picks): Int32Array {
  const views = sources.map(i32);
  const out = new Int32Array(picks.row.length * width);
  for (let i = 0; i < picks.row.length; i++) {
    const r = picks.row[i] * width;
    out.set(views[picks.frag[i]].subarray(r, r + width), i * width);
  }
  return out;
}

const gatherStrings = (sources: string[][], picks: Picks): string[] => Array.from(picks.row, (r, i) => sources[picks.frag[i]][r]);

/**
 * The rows of every table picked from the fragments, as one fragment (ids and references unchanged). A name's
 * words go with it (their start renumbered to the output's nameWords).
 */
function gather(fragments: Fragment[], picks: Record<Table, Picks>, ids: Record<Table, Uint32Array>): Fragment {
  const counts = (table: Table) => fragments.map((f) => f.ids[table].byteLength / 4);
  const names = gatherRecords(fragments.map((f) => f.names), NAME, picks.names);
  const sourceWords = fragments.map((f) => i32(f.nameWords));
  let total = 0;
  for (let i = 0; i < picks.names.row.length; i++) total += names[i * NAME + 2];
  const nameWords = new Int32Array(total * 2);
  let at = 0;
  for (let i = 0; i < picks.names.row.length; i++) {
    const source = sourceWords[picks.names.frag[i]];
    const start = names[i * NAME + 1];
    const count = names[i * NAME + 2];
    nameWords.set(source.subarray(start * 2, (start + count) * 2), at * 2);
    names[i * NAME + 1] = at;
    at += count;
  }
  const coords = fragments.some((f) => f.houseCoords) ? gatherColumn(fragments.map((f) => f.houseCoords), counts('houses'), picks.houses) : null;
  return {
    ids: Object.fromEntries(TABLES.map((t) => [t, bytesOf(ids[t])])) as Record<Table, Uint8Array>,
    objects: bytesOf(gatherRecords(fragments.map((f) => f.objects), OBJ, picks.objects)),
    objectColumns: gatherColumns(fragments.map((f) => f.objectColumns), counts('objects'), picks.objects),
    houses: bytesOf(gatherRecords(fragments.map((f) => f.houses), 1, picks.houses)),
    houseCoords: coords instanceof Uint8Array ? coords : null,
    houseColumns: gatherColumns(fragments.map((f) => f.houseColumns), counts('houses'), picks.houses),
    labelKeys: gatherStrings(fragments.map((f) => f.labelKeys), picks.labels),
    labelBase: bytesOf(gatherRecords(fragments.map((f) => f.labelBase), 1, picks.labels)),
    labelParts: bytesOf(gatherRecords(fragments.map((f) => f.labelParts), LABEL_PARTS, picks.labels)),
    pool: gatherStrings(fragments.map((f) => f.pool), picks.pool),
    postcodes: gatherStrings(fragments.map((f) => f.postcodes), picks.postcodes),
    wordSpelling: gatherStrings(fragments.map((f) => f.wordSpelling), picks.words),
    wordTypes: bytesOf(gatherRecords(fragments.map((f) => f.wordTypes), 2, picks.words)),
    names: bytesOf(names),
    nameWords: bytesOf(nameWords),
  };
}

/**
 * The columns `names` of `columns` (rows: the ascending ids `ids`) with the rows of `parts` (each: ascending ids and
 * their columns) written over them, in place: a part's row replaces the row of its id.
 */
function overlay(columns: Record<string, Column>, ids: Uint32Array, parts: Array<{ ids: Uint32Array; columns: Record<string, Column> }>, names: readonly string[]): void {
  if (parts.length === 0) return;
  const frag = new Uint16Array(ids.length);
  const row = Uint32Array.from(ids, (_, k) => k);
  parts.forEach((part, k) => {
    part.ids.forEach((id, j) => {
      const at = indexOf(ids, id);
      if (at >= 0) {
        frag[at] = k + 1;
        row[at] = j;
      }
    });
  });
  const counts = [ids.length, ...parts.map((part) => part.ids.length)];
  for (const name of names) {
    const column = gatherColumn([columns[name], ...parts.map((part) => part.columns[name])], counts, { frag, row });
    if (column) columns[name] = column;
  }
}

/** The union of the fragments' ids of a table, ascending, each taken from the first fragment that has it. */
function mergeIds(lists: Uint32Array[]): { ids: Uint32Array; picks: Picks } {
  const at = new Uint32Array(lists.length);
  const ids: number[] = [];
  const frag: number[] = [];
  const row: number[] = [];
  for (;;) {
    let best = -1;
    for (let k = 0; k < lists.length; k++) if (at[k] < lists[k].length && (best < 0 || lists[k][at[k]] < lists[best][at[best]])) best = k;
    if (best < 0) break;
    const id = lists[best][at[best]];
    ids.push(id);
    frag.push(best);
    row.push(at[best]);
    for (let k = 0; k < lists.length; k++) while (at[k] < lists[k].length && lists[k][at[k]] === id) at[k]++;
  }
  return { ids: Uint32Array.from(ids), picks: { frag: Uint16Array.from(frag), row: Uint32Array.from(row) } };
}

// ---- a fragment's bytes in a pack file ----

/** The i32 record sections of a fragment and their widths (`ids` are one i32 a row). */
const RECORDS: ReadonlyArray<[keyof Fragment, number]> = [
  ['objects', OBJ], ['houses', 1], ['houseCoords', 2], ['labelBase', 1], ['labelParts', LABEL_PARTS], ['wordTypes', 2], ['names', NAME], ['nameWords', 2],
];

/**
 * Records as a pack file holds them: column by column, each column as the differences of its values (wrapping
 * i32 arithmetic, so exact for any value; `codeColumns` codes the host columns alike), each difference zigzagged and
 * written in 7-bit groups (`varint`). Ascending ids become runs of ones, a street's house coordinates small
 * steps of a byte or two, the objects' levels and types runs of zeros: gzip takes them to a fraction of the
 * interleaved records (Екатеринбург's coordinates: 62.5 KB gzip as i32 differences, 50.3 KB as varints).
 */
function deltaColumns(bytes: Uint8Array, width: number, encode: boolean): Uint8Array {
  const values = encode ? i32(bytes) : unvarint(bytes);
  const rows = values.length / width;
  const out = new Int32Array(values.length);
  for (let c = 0; c < width; c++) {
    let before = 0;
    for (let r = 0; r < rows; r++) {
      if (encode) {
        const v = values[r * width + c];
        out[c * rows + r] = (v - before) | 0;
        before = v;
      } else {
        before = (before + values[c * rows + r]) | 0;
        out[r * width + c] = before;
      }
    }
  }
  return encode ? varint(out) : bytesOf(out);
}

/** i32 values zigzagged (0, −1, 1, −2 … → 0, 1, 2, 3 …) in little-endian groups of 7 bits, the high bit "more" */
function varint(values: Int32Array): Uint8Array {
  const out = new Uint8Array(values.length * 5);
  let at = 0;
  for (let k = 0; k < values.length; k++) {
    let z = ((values[k] << 1) ^ (values[k] >> 31)) >>> 0;
    while (z >= 0x80) {
      out[at++] = (z & 0x7f) | 0x80;
      z >>>= 7;
    }
    out[at++] = z;
  }
  return out.slice(0, at);
}

function unvarint(bytes: Uint8Array): Int32Array {
  let count = 0;
  for (let k = 0; k < bytes.length; k++) if (bytes[k] < 0x80) count++;
  const out = new Int32Array(count);
  let at = 0;
  let z = 0;
  let shift = 0;
  for (let k = 0; k < bytes.length; k++) {
    const b = bytes[k];
    z |= (b & 0x7f) << shift;
    if (b < 0x80) {
      out[at++] = (z >>> 1) ^ -(z & 1);
      z = 0;
      shift = 0;
    } else shift += 7;
  }
  return out;
}

/** A u32 host column as a pack file holds it: its rows' differences as varints (`deltaColumns`), marked so. */
interface DeltaColumn {
  deltas: Uint8Array;
}

/** A host column's rows coded: text ends and u32 rows as differences; the others as they are. */
function codeColumns(columns: Record<string, Column>, rows: number, encode: boolean): Record<string, Column> {
  const out: Record<string, Column> = {};
  for (const [name, column] of Object.entries(columns)) {
    if (encode && column instanceof Uint8Array && rows > 0 && column.byteLength === rows * 4) out[name] = { deltas: deltaColumns(column, 1, true) } as unknown as Column;
    else if (!encode && column && !(column instanceof Uint8Array) && 'deltas' in column) out[name] = deltaColumns((column as DeltaColumn).deltas, 1, false);
    else if (column && !(column instanceof Uint8Array) && 'text' in column) out[name] = { text: column.text, ends: deltaColumns(column.ends, 1, encode) };
    else out[name] = column;
  }
  return out;
}

const NO_COORD = 0x7fffffff;

/**
 * An object's latitude or longitude (host f64) that is its core coordinate (i32 millionths) divided by a million,
 * as a source with six decimals gives, is written as +0 and read back from the core's; a true 0 as −0. Exact both
 * ways: a decimal of six places and its millionths over 1e6 round to the same double.
 */
function codeCoordinate(column: Column, objects: Int32Array, field: number, encode: boolean): Column {
  if (!(column instanceof Uint8Array)) return column;
  const values = view(column, Float64Array);
  const out = new Float64Array(values.length);
  for (let k = 0; k < values.length; k++) {
    const e6 = objects[k * OBJ + field];
    const fromCore = e6 === NO_COORD ? Number.NaN : e6 / 1e6;
    const v = values[k];
    if (encode) out[k] = v === fromCore ? 0 : v === 0 ? -0 : v;
    else out[k] = Object.is(v, 0) ? fromCore : Object.is(v, -0) ? 0 : v;
  }
  return bytesOf(out);
}

function codeFragment(fragment: Fragment, encode: boolean): Fragment {
  const out: Fragment = { ...fragment, ids: { ...fragment.ids } };
  const records = out as unknown as Record<string, Uint8Array | null>;
  for (const [name, width] of RECORDS) {
    const bytes = records[name];
    if (bytes) records[name] = deltaColumns(bytes, width, encode);
  }
  const objects = i32(encode ? fragment.objects : out.objects);
  out.objectColumns = codeColumns(fragment.objectColumns, fragment.ids.objects.byteLength / 4, encode);
  if (out.objectColumns.lat !== undefined) out.objectColumns.lat = codeCoordinate(out.objectColumns.lat, objects, 3, encode);
  if (out.objectColumns.lon !== undefined) out.objectColumns.lon = codeCoordinate(out.objectColumns.lon, objects, 4, encode);
  out.houseColumns = codeColumns(fragment.houseColumns, fragment.ids.houses.byteLength / 4, encode);
  for (const table of TABLES) out.ids[table] = deltaColumns(fragment.ids[table], 1, encode);
  if (fragment.placeIds && fragment.placeColumns) {
    out.placeIds = deltaColumns(fragment.placeIds, 1, encode);
    out.placeColumns = codeColumns(fragment.placeColumns, fragment.placeIds.byteLength / 4, encode);
  }
  return out;
}

/** A column of i32 rows as differences (`deltaColumns`), and back. */
export const encodeColumn = (bytes: Uint8Array): Uint8Array => deltaColumns(bytes, 1, true);
export const decodeColumn = (bytes: Uint8Array): Uint8Array => deltaColumns(bytes, 1, false);

/** A fragment as a pack file holds it (`deltaColumns`). */
export const encodeFragment = (fragment: Fragment): Fragment => codeFragment(fragment, true);
/** A fragment of a pack file, back to its records. */
export const decodeFragment = (fragment: Fragment): Fragment => codeFragment(fragment, false);

// ---- the whole dictionary as a fragment, and cutting it ----

/** A dictionary blob (a web dictionary) as one fragment: every id its own row. */
export function fragmentOfBlob(blob: BlobFile): { fragment: Fragment; global: PackGlobal } {
  const core = blob.core;
  const objectCount = core.objects.byteLength / (OBJ * 4);
  const houseCount = (core.houses?.byteLength ?? 0) / 4;
  const labels = i32(core.houseLabels);
  const labelCount = labels.length / LABEL;
  const keyChars = view(core.houseKeys, Uint16Array);
  const labelKeys: string[] = [];
  const labelBase = new Uint32Array(labelCount);
  for (let l = 0; l < labelCount; l++) {
    labelKeys.push(String.fromCharCode(...keyChars.subarray(labels[l * LABEL], labels[l * LABEL] + labels[l * LABEL + 1])));
    labelBase[l] = labels[l * LABEL + 2];
  }
  const words = i32(core.words);
  const wordCount = words.length / 4;
  const wordTypes = new Int32Array(wordCount * 2);
  for (let w = 0; w < wordCount; w++) {
    wordTypes[w * 2] = words[w * 4 + 2];
    wordTypes[w * 2 + 1] = words[w * 4 + 3];
  }
  const h = blob.host.houses;
  const pool = (h.pool as string[] | undefined) ?? [''];
  const postcodes = (h.postcodes as string[] | undefined) ?? [''];
  // per-house columns; postcode ids as u32, the sparse municipal list as a column
  const houseColumns: Record<string, Column> = {};
  for (const [name, value] of Object.entries(h)) {
    if (['labels', 'pool', 'postcodes', 'municipalHouse', 'municipalId'].includes(name) || !(value instanceof Uint8Array)) continue;
    houseColumns[name] = value;
  }
  if (h.postcode instanceof Uint8Array) {
    const wide = h.postcode.byteLength === houseCount * 4 && houseCount > 0;
    houseColumns.postcode = bytesOf(Uint32Array.from(wide ? u32(h.postcode) : view(h.postcode, Uint16Array)));
  }
  const municipalHouse = u32(h.municipalHouse as Uint8Array | undefined);
  if (municipalHouse.length > 0) {
    const municipalId = u32(h.municipalId as Uint8Array | undefined);
    const column = new Uint32Array(houseCount);
    municipalHouse.forEach((house, k) => (column[house] = municipalId[k] + 1));
    houseColumns.municipal = bytesOf(column);
  }
  const identity = (n: number) => bytesOf(Uint32Array.from({ length: n }, (_, i) => i));
  const fragment: Fragment = {
    ids: {
      objects: identity(objectCount),
      houses: identity(houseCount),
      labels: identity(labelCount),
      pool: identity(pool.length),
      postcodes: identity(postcodes.length),
      words: identity(wordCount),
      names: identity(core.names.byteLength / (NAME * 4)),
    },
    objects: core.objects,
    objectColumns: blob.host.objects as Record<string, Column>,
    houses: core.houses ?? new Uint8Array(0),
    houseCoords: core.houseCoords ?? null,
    houseColumns,
    labelKeys,
    labelBase: bytesOf(labelBase),
    labelParts: (h.labels as Uint8Array | undefined) ?? new Uint8Array(labelCount * LABEL_PARTS * 4),
    pool,
    postcodes,
    wordSpelling: trieWords(i32(core.trie), wordCount),
    wordTypes: bytesOf(wordTypes),
    names: core.names,
    nameWords: core.nameWords,
  };
  const global: PackGlobal = {
    country: blob.country,
    sourceDate: blob.sourceDate,
    createdAt: blob.createdAt,
    sources: blob.sources,
    counts: blob.counts,
    coreTypes: core.types,
    hostTypes: blob.host.types,
    municipal: blob.host.municipal ?? {},
  };
  return { fragment: aligned(fragment), global };
}

/**
 * The fragment with every section at an offset its widest rows can be read at: msgpack leaves sections at odd
 * offsets, and a typed view of one (`view`) is then a copy, made again by every cut of a national dictionary.
 */
function aligned(fragment: Fragment): Fragment {
  const align = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes));
  const alignColumn = (column: Column): Column => {
    if (column instanceof Uint8Array) return align(column);
    if (column && 'text' in column) return { text: column.text, ends: align(column.ends) };
    if (column && 'pool' in column) return { pool: column.pool, ids: align(column.ids) };
    return column;
  };
  const columns = (all: Record<string, Column>) => Object.fromEntries(Object.entries(all).map(([name, column]) => [name, alignColumn(column)]));
  return {
    ...fragment,
    objects: align(fragment.objects),
    objectColumns: columns(fragment.objectColumns),
    houses: align(fragment.houses),
    houseCoords: fragment.houseCoords && align(fragment.houseCoords),
    houseColumns: columns(fragment.houseColumns),
    labelParts: align(fragment.labelParts),
    names: align(fragment.names),
    nameWords: align(fragment.nameWords),
  };
}

/** Levels of the entry pack's objects (1 region, 2 area, 3 city, 4 city area, 5 settlement). */
export const ENTRY_LEVELS = 5;
/** Levels whose objects are places with a pack of their own (3 city, 5 settlement). */
const PLACE_LEVELS = new Set([3, 5]);

/**
 * How a dictionary is cut: the entry objects (levels 1–5), and each place's pack: the objects below the entry
 * levels whose nearest place (a city or settlement; a city area's streets go with its city; with no place above
 * them, the region or area that holds them), and the houses of those objects and of the place itself.
 */
export interface PackPlan {
  /** ascending ids of the entry's objects */
  entry: Uint32Array;
  /** per pack: its place's object id */
  places: number[];
  /** per object: the index of the pack its streets and houses go in (−1: none, an entry object without any) */
  packOf: Int32Array;
  /** per object: the index of the pack of its place (a city's, for the city, its city areas and its streets), −1 none */
  placePack: Int32Array;
}

export function planPacks(fragment: Fragment): PackPlan {
  const objects = i32(fragment.objects);
  const n = objects.length / OBJ;
  const entry: number[] = [];
  // the object whose pack an object's streets and houses go in (objects are numbered depth first: a parent first)
  const rootOf = new Int32Array(n);
  // an entry object's place: itself (a city or settlement), its parent's place (a city area), or none (−1)
  const placeOf = new Int32Array(n).fill(-1);
  for (let id = 0; id < n; id++) {
    const level = objects[id * OBJ + 1];
    const parent = objects[id * OBJ];
    if (level <= ENTRY_LEVELS) {
      entry.push(id);
      placeOf[id] = PLACE_LEVELS.has(level) ? id : parent >= 0 ? placeOf[parent] : -1;
      rootOf[id] = placeOf[id] >= 0 ? placeOf[id] : id;
    } else rootOf[id] = parent >= 0 ? rootOf[parent] : id;
  }
  const packOf = new Int32Array(n).fill(-1);
  const index = new Map<number, number>();
  const places: number[] = [];
  for (let id = 0; id < n; id++) {
    if (objects[id * OBJ + 1] <= ENTRY_LEVELS && objects[id * OBJ + 7] === 0) continue;
    let k = index.get(rootOf[id]);
    if (k === undefined) {
      k = places.length;
      places.push(rootOf[id]);
      index.set(rootOf[id], k);
    }
    packOf[id] = k;
  }
  const placePack = Int32Array.from(rootOf, (root) => index.get(root) ?? -1);
  return { entry: Uint32Array.from(entry), places, packOf, placePack };
}

/** Row lists of the whole dictionary by object: its names (CSR), for cutting. */
export interface CutIndex {
  nameStart: Uint32Array;
  nameRows: Uint32Array;
  /** words no name holds (the type words): they go in the entry */
  lonelyWords: Uint32Array;
}

export function cutIndex(fragment: Fragment): CutIndex {
  const objectCount = fragment.objects.byteLength / (OBJ * 4);
  const names = i32(fragment.names);
  const nameCount = names.length / NAME;
  const nameStart = new Uint32Array(objectCount + 1);
  for (let k = 0; k < nameCount; k++) nameStart[names[k * NAME] + 1]++;
  for (let o = 0; o < objectCount; o++) nameStart[o + 1] += nameStart[o];
  const fill = nameStart.slice(0, objectCount);
  const nameRows = new Uint32Array(nameCount);
  for (let k = 0; k < nameCount; k++) nameRows[fill[names[k * NAME]]++] = k;
  const used = new Uint8Array(fragment.wordSpelling.length);
  const nameWords = i32(fragment.nameWords);
  for (let k = 0; k < nameWords.length; k += 2) used[nameWords[k]] = 1;
  const types = i32(fragment.wordTypes);
  const lonely: number[] = [];
  used.forEach((u, w) => {
    if (!u || types[w * 2] >= 0 || types[w * 2 + 1] >= 0) lonely.push(w);
  });
  return { nameStart, nameRows, lonelyWords: Uint32Array.from(lonely) };
}

const ascending = (values: Iterable<number>): Uint32Array => Uint32Array.from(new Set(values)).sort();

/**
 * The entry's cut (`entry`) with the registry codes (`PLACE_CODE_COLUMNS`) of the objects that have a pack
 * (`placePack`, the plan's) left blank: their packs hold them (`withPlaceCodes`).
 */
export function withoutPlaceCodes(whole: Fragment, entry: Fragment, placePack: Int32Array): Fragment {
  const counts = [whole.objects.byteLength / (OBJ * 4), 0];
  const objects = i32(whole.objects);
  const entryIds = u32(entry.ids.objects);
  const moved = (id: number) => codesInPack(objects, placePack, id);
  const kept: Picks = { frag: Uint16Array.from(entryIds, (id) => (moved(id) ? 1 : 0)), row: Uint32Array.from(entryIds, (id) => (moved(id) ? 0 : id)) };
  const objectColumns = { ...entry.objectColumns };
  for (const name of PLACE_CODE_COLUMNS) {
    if (whole.objectColumns[name]) objectColumns[name] = gatherColumn([whole.objectColumns[name], null], counts, kept);
  }
  return { ...entry, objectColumns };
}

/**
 * Whether an entry object's registry codes go in its place's pack: a city area or a settlement with a pack (≈155,000
 * nationally). A region's, an area's and a city's (≈3,500) stay in the entry: a page preloads a city's pack, or every
 * pack under a region or area, by its code.
 */
export const codesInPack = (objects: Int32Array, placePack: Int32Array, id: number): boolean =>
  placePack[id] >= 0 && objects[id * OBJ + 1] > CITY_LEVEL;
const CITY_LEVEL = 3;

/** A place's pack without its houses' codes (`HOUSE_CODE_COLUMNS`), and those codes as its house codes pack. */
export function houseCodesPart(pack: Fragment): { pack: Fragment; codes: HouseCodesPart } {
  const houseColumns = { ...pack.houseColumns };
  const columns: Record<string, Column> = {};
  for (const name of HOUSE_CODE_COLUMNS) {
    if (houseColumns[name] !== undefined) columns[name] = houseColumns[name];
    delete houseColumns[name];
  }
  return { pack: { ...pack, houseColumns }, codes: { houses: pack.ids.houses, columns } };
}

/** A place's house codes in chunks of CODES_CHUNK houses (its columns are fixed-width rows). */
export function chunkHouseCodes(part: HouseCodesPart): HouseCodesPart[] {
  const rows = part.houses.byteLength / 4;
  const out: HouseCodesPart[] = [];
  for (let from = 0; from < rows; from += CODES_CHUNK) {
    const to = Math.min(rows, from + CODES_CHUNK);
    const columns: Record<string, Column> = {};
    for (const [name, column] of Object.entries(part.columns)) {
      if (!(column instanceof Uint8Array)) throw new Error(`house codes column ${name}: not fixed-width rows`);
      const width = column.byteLength / rows;
      columns[name] = column.slice(from * width, to * width);
    }
    out.push({ houses: part.houses.slice(from * 4, to * 4), columns });
  }
  return out;
}

/** A house codes pack as its file holds it (ids and u32 columns as differences), and back. */
export function codeHouseCodes(part: HouseCodesPart, encode: boolean): HouseCodesPart {
  const rows = part.houses.byteLength / 4;
  return { houses: deltaColumns(part.houses, 1, encode), columns: codeColumns(part.columns, rows, encode) };
}

/** A place's pack with the registry codes of the entry objects `places` (ascending ids) whose pack it is. */
export function withPlaceCodes(whole: Fragment, pack: Fragment, places: Uint32Array): Fragment {
  if (places.length === 0) return pack;
  const counts = [whole.objects.byteLength / (OBJ * 4)];
  const picks: Picks = { frag: new Uint16Array(places.length), row: places };
  const placeColumns: Record<string, Column> = {};
  for (const name of PLACE_CODE_COLUMNS) if (whole.objectColumns[name]) placeColumns[name] = gatherColumn([whole.objectColumns[name]], counts, picks);
  return { ...pack, placeIds: bytesOf(places), placeColumns };
}

/**
 * The fragment of the whole dictionary (`fragmentOfBlob`) that holds `objects` (ascending ids) with their names,
 * `houses` (ascending ids) with their labels, and the words, pool strings and postcodes those need (plus `words`).
 */
export function cut(whole: Fragment, index: CutIndex, objects: Uint32Array, houses: Uint32Array, words: Uint32Array = new Uint32Array(0)): Fragment {
  const nameList: number[] = [];
  for (const o of objects) for (let k = index.nameStart[o]; k < index.nameStart[o + 1]; k++) nameList.push(index.nameRows[k]);
  const names = ascending(nameList);
  const allNames = i32(whole.names);
  const allNameWords = i32(whole.nameWords);
  const wordList: number[] = [...words];
  for (const n of names) {
    const start = allNames[n * NAME + 1];
    for (let k = 0; k < allNames[n * NAME + 2]; k++) wordList.push(allNameWords[(start + k) * 2]);
  }
  const allHouses = i32(whole.houses);
  const labels = ascending(Array.from(houses, (h) => allHouses[h]));
  const parts = i32(whole.labelParts);
  const poolList: number[] = [0];
  for (const l of labels) for (let p = 0; p < LABEL_PARTS; p++) poolList.push(parts[l * LABEL_PARTS + p]);
  const postcodeList: number[] = [0];
  const postcode = whole.houseColumns.postcode instanceof Uint8Array ? u32(whole.houseColumns.postcode) : null;
  if (postcode) for (const h of houses) postcodeList.push(postcode[h]);
  const ids: Record<Table, Uint32Array> = {
    objects, houses, labels, names, words: ascending(wordList), pool: ascending(poolList), postcodes: ascending(postcodeList),
  };
  const picks = Object.fromEntries(TABLES.map((t) => [t, { frag: new Uint16Array(ids[t].length), row: ids[t] }])) as Record<Table, Picks>;
  return gather([whole], picks, ids);
}

// ---- putting packs together ----

/**
 * The dictionary of the entry pack and some place packs: what the whole dictionary cut to their objects gives
 * (a place whose pack is not given shows, with no streets or houses). `LoadedDictionary.fromBlob` loads it.
 */
export function composeBlob(
  global: PackGlobal, fragments: Fragment[], buildId: string, houseCodes: HouseCodesPart[] = [],
): { blob: BlobFile; objectIds: Uint32Array; houseIds: Uint32Array } {
  const merged = Object.fromEntries(TABLES.map((t) => [t, mergeIds(fragments.map((f) => u32(f.ids[t])))])) as Record<Table, { ids: Uint32Array; picks: Picks }>;
  const ids = Object.fromEntries(TABLES.map((t) => [t, merged[t].ids])) as Record<Table, Uint32Array>;
  const f = gather(fragments, Object.fromEntries(TABLES.map((t) => [t, merged[t].picks])) as Record<Table, Picks>, ids);

  // the places' codes their packs hold, over the entry's blanks; the houses' codes of the house codes packs given
  const placeParts = fragments.filter((fr) => fr.placeIds && fr.placeColumns).map((fr) => ({ ids: u32(fr.placeIds), columns: fr.placeColumns! }));
  overlay(f.objectColumns, ids.objects, placeParts, PLACE_CODE_COLUMNS);
  overlay(f.houseColumns, ids.houses, houseCodes.map((part) => ({ ids: u32(part.houses), columns: part.columns })), HOUSE_CODE_COLUMNS);

  // objects: parents renumbered; houses found again by their ids (houses go in object order)
  const objects = i32(f.objects);
  const objectCount = ids.objects.length;
  const houseIds = ids.houses;
  let h = 0;
  for (let o = 0; o < objectCount; o++) {
    const at = o * OBJ;
    if (objects[at] !== NO_PARENT) objects[at] = indexOf(ids.objects, objects[at]);
    const start = objects[at + 6];
    const end = start + objects[at + 7];
    while (h < houseIds.length && houseIds[h] < start) h++;
    const first = h;
    while (h < houseIds.length && houseIds[h] < end) h++;
    objects[at + 6] = first;
    objects[at + 7] = h - first;
  }

  // houses: labels renumbered; postcode ids renumbered; the municipal column back to its sparse list
  const houses = i32(f.houses);
  for (let k = 0; k < houses.length; k++) houses[k] = indexOf(ids.labels, houses[k]);
  const houseHost: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(f.houseColumns)) if (name !== 'postcode' && name !== 'municipal') houseHost[name] = value;
  if (f.houseColumns.postcode instanceof Uint8Array) {
    const postcode = u32(f.houseColumns.postcode);
    const renumbered = Uint32Array.from(postcode, (id) => Math.max(0, indexOf(ids.postcodes, id)));
    houseHost.postcode = bytesOf(ids.postcodes.length > 0x10000 ? renumbered : Uint16Array.from(renumbered));
  }
  if (f.houseColumns.municipal instanceof Uint8Array) {
    const column = u32(f.houseColumns.municipal);
    const house: number[] = [];
    const id: number[] = [];
    column.forEach((m, k) => {
      if (m > 0) {
        house.push(k);
        id.push(m - 1);
      }
    });
    if (house.length > 0) {
      houseHost.municipalHouse = bytesOf(Uint32Array.from(house));
      houseHost.municipalId = bytesOf(Uint32Array.from(id));
    }
  }

  // labels: keys laid out again, one copy of each; their parts' pool ids renumbered
  const labelCount = ids.labels.length;
  const labelRecords = new Int32Array(labelCount * LABEL);
  const keyOffsets = new Map<string, number>();
  const keyChars: number[] = [];
  const base = u32(f.labelBase);
  for (let l = 0; l < labelCount; l++) {
    const key = f.labelKeys[l];
    let offset = keyOffsets.get(key);
    if (offset === undefined) {
      offset = keyChars.length;
      for (let c = 0; c < key.length; c++) keyChars.push(key.charCodeAt(c));
      keyOffsets.set(key, offset);
    }
    labelRecords.set([offset, key.length, base[l]], l * LABEL);
  }
  const labelParts = i32(f.labelParts);
  for (let k = 0; k < labelParts.length; k++) labelParts[k] = Math.max(0, indexOf(ids.pool, labelParts[k]));

  // names: objects and words renumbered; postings built from the names' words as the builder builds them
  const names = i32(f.names);
  const nameWords = i32(f.nameWords);
  for (let k = 0; k < names.length; k += NAME) names[k] = indexOf(ids.objects, names[k]);
  for (let k = 0; k < nameWords.length; k += 2) nameWords[k] = indexOf(ids.words, nameWords[k]);
  const wordCount = ids.words.length;
  const postingCount = new Uint32Array(wordCount + 1);
  const nameCount = names.length / NAME;
  const seen = new Int32Array(wordCount).fill(-1);
  for (let n = 0; n < nameCount; n++) {
    for (let k = names[n * NAME + 1], end = k + names[n * NAME + 2]; k < end; k++) {
      const w = nameWords[k * 2];
      if (seen[w] === n) continue;
      seen[w] = n;
      postingCount[w + 1]++;
    }
  }
  for (let w = 0; w < wordCount; w++) postingCount[w + 1] += postingCount[w];
  const postings = new Int32Array(postingCount[wordCount]);
  const fill = postingCount.slice(0, wordCount);
  seen.fill(-1);
  for (let n = 0; n < nameCount; n++) {
    for (let k = names[n * NAME + 1], end = k + names[n * NAME + 2]; k < end; k++) {
      const w = nameWords[k * 2];
      if (seen[w] === n) continue;
      seen[w] = n;
      postings[fill[w]++] = n;
    }
  }
  const types = i32(f.wordTypes);
  const words = new Int32Array(wordCount * 4);
  for (let w = 0; w < wordCount; w++) words.set([postingCount[w], postingCount[w + 1] - postingCount[w], types[w * 2], types[w * 2 + 1]], w * 4);

  const core: Record<string, Uint8Array> = {
    objects: bytesOf(objects),
    houses: bytesOf(houses),
    houseLabels: bytesOf(labelRecords),
    houseKeys: bytesOf(Uint16Array.from(keyChars)),
    trie: bytesOf(flattenTrie(f.wordSpelling)),
    words: bytesOf(words),
    postings: bytesOf(postings),
    names: bytesOf(names),
    nameWords: bytesOf(nameWords),
    types: global.coreTypes,
  };
  if (f.houseCoords) core.houseCoords = f.houseCoords;
  const blob: BlobFile = {
    magic: BLOB_MAGIC,
    format: FORMAT_VERSION,
    country: global.country,
    sourceDate: global.sourceDate,
    createdAt: global.createdAt,
    sources: global.sources,
    buildId,
    counts: { ...global.counts, objects: objectCount, houses: houseIds.length, apartments: 0, metro: 0 },
    variant: 'web',
    core,
    host: {
      types: global.hostTypes,
      objects: f.objectColumns,
      municipal: global.municipal,
      houses: { labels: bytesOf(labelParts), pool: f.pool, postcodes: f.postcodes, ...houseHost } as Record<string, Uint8Array | string[]>,
      apartments: {},
      metro: {},
    },
  };
  return { blob, objectIds: ids.objects, houseIds: ids.houses };
}
