/**
 * Column readers of a dictionary blob's host sections, and the id indexes over them. A column is one or
 * two binary sections, never an array of JS strings: a national dictionary has millions of objects and
 * tens of millions of houses, and a JS string costs 30–60 bytes of heap before its characters.
 *
 *   text column    { text: UTF-8 bytes of every value, ends: u32 end offset per row } (dictionaries/columns.ts)
 *   pooled column  { pool: string[], ids: u16 or u32 per row } for values that repeat (types, timezones)
 *   GUID column    16 bytes per row (all zero: none)
 *   u32 / f64      one number per row
 *
 * Indexes are built on the first lookup of their id kind and cost 4 bytes per row: row numbers ordered by a u32 key (the
 * GAR id, the first four bytes of a GUID, a hash of a text), found by binary search and confirmed on the
 * row itself.
 */

import { guidPrefixes, orderBy } from '../format/order.js';
import { guidInto, guidText } from '../format/guid.js';

export { orderBy };

type Ctor<T> = new (b: ArrayBuffer) => T;

/**
 * `bytes` as T: a copy (aligned, and the blob's buffer can go), or the bytes' own buffer when they are all of
 * it (a section read from a file into a buffer of its own, engine/blob-file.ts: no second copy).
 */
export const copy = <T>(bytes: Uint8Array, Type: Ctor<T>): T =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? new Type(bytes.buffer)
    : new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

/** A numeric column; absent from the blob (no row has a value) → an empty array, read as `undefined`. */
export function numbers<T>(bytes: unknown, Type: Ctor<T>): T {
  return bytes instanceof Uint8Array ? copy(bytes, Type) : new Type(new ArrayBuffer(0));
}

/** A section left in the blob file (engine/blob-file.ts): its bytes read a few at a time, when asked for. */
export interface ColdSection {
  readonly byteLength: number;
  /** `into.length` bytes of the section from `position` */
  read(into: Uint8Array, position: number): void;
}

export function isColdSection(value: unknown): value is ColdSection {
  return typeof value === 'object' && value !== null && typeof (value as ColdSection).read === 'function';
}

/**
 * `width` bytes per row: a section in memory, or a cold one read a row at a time. `bytes(row)` and `words(row)`
 * give an array holding the row from `at` on (a byte offset, a u32 index): the column itself in memory, a scratch
 * row (valid until the next call) when cold. A row past the column's end reads as zeros: no value.
 */
export class FixedRows {
  readonly count: number;
  /** where the last row asked for starts in the array returned */
  at = 0;
  private readonly memory: Uint8Array | null;
  private readonly memoryWords: Uint32Array | null;
  private readonly cold: ColdSection | null;
  private readonly scratch: Uint8Array;
  private readonly scratchWords: Uint32Array;

  constructor(
    section: unknown,
    readonly width: number,
  ) {
    this.cold = isColdSection(section) ? section : null;
    // in memory: the section's own bytes when u32-aligned (the caller copied them off the blob), else a copy
    this.memory = this.cold !== null ? null : section instanceof Uint8Array ? (section.byteOffset % 4 === 0 ? section : section.slice()) : new Uint8Array(0);
    this.memoryWords = this.memory !== null && width % 4 === 0 ? new Uint32Array(this.memory.buffer, this.memory.byteOffset, this.memory.byteLength >>> 2) : null;
    this.count = Math.floor((this.cold?.byteLength ?? this.memory!.byteLength) / width);
    this.scratchWords = new Uint32Array(Math.ceil(width / 4));
    this.scratch = new Uint8Array(this.scratchWords.buffer, 0, width);
  }

  /** whether the column is left in the file */
  get isCold(): boolean {
    return this.cold !== null;
  }

  bytes(row: number): Uint8Array {
    if (this.memory !== null && row >= 0 && row < this.count) {
      this.at = row * this.width;
      return this.memory;
    }
    this.at = 0;
    if (this.cold !== null && row >= 0 && row < this.count) this.cold.read(this.scratch, row * this.width);
    else this.scratch.fill(0);
    return this.scratch;
  }

  words(row: number): Uint32Array {
    if (this.memoryWords !== null && row >= 0 && row < this.count) {
      this.at = (row * this.width) >>> 2;
      return this.memoryWords;
    }
    this.bytes(row);
    this.at = 0;
    return this.scratchWords;
  }

  /** the row's first four bytes as a little-endian u32 (a u32 column's value) */
  u32(row: number): number {
    const words = this.words(row);
    return words[this.at];
  }

  /**
   * Rows [from, from + count) as one array from 0, into `into` (at least `count × width` bytes) when cold: a scan
   * of the whole column a block at a time (index building). In memory the column's own bytes (a view).
   */
  block(from: number, count: number, into: Uint8Array): Uint8Array {
    const start = from * this.width;
    const end = Math.min(this.count, from + count) * this.width;
    if (this.memory !== null) return this.memory.subarray(start, end);
    const out = into.subarray(0, end - start);
    this.cold!.read(out, start);
    return out;
  }
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** Text values stored as one UTF-8 area and end offsets. */
export class TextColumn {
  private readonly text: Uint8Array;
  private readonly ends: Uint32Array;

  constructor(section: unknown) {
    const s = (section ?? {}) as { text?: Uint8Array; ends?: Uint8Array };
    this.text = s.text instanceof Uint8Array ? copy(s.text, Uint8Array) : new Uint8Array(0);
    this.ends = numbers(s.ends, Uint32Array);
  }

  get length(): number {
    return this.ends.length;
  }

  private start(row: number): number {
    return row === 0 ? 0 : this.ends[row - 1];
  }

  get(row: number): string {
    if (row < 0 || row >= this.ends.length) return '';
    const start = this.start(row);
    const end = this.ends[row];
    return start === end ? '' : utf8.decode(this.text.subarray(start, end));
  }

  isEmpty(row: number): boolean {
    return this.ends[row] === this.start(row);
  }

  /** FNV-1a of the row's UTF-8 bytes (`hashBytes` of the same text) */
  hash(row: number): number {
    return hashBytes(this.text, this.start(row), this.ends[row]);
  }

  /** whether the row holds exactly these UTF-8 bytes */
  equals(row: number, bytes: Uint8Array): boolean {
    const start = this.start(row);
    if (this.ends[row] - start !== bytes.length) return false;
    for (let i = 0; i < bytes.length; i++) if (this.text[start + i] !== bytes[i]) return false;
    return true;
  }
}

/** Repeating values: a pool and an id per row. */
export class PooledColumn {
  private readonly pool: string[];
  private readonly ids: Uint16Array | Uint32Array;

  constructor(section: unknown) {
    const s = (section ?? {}) as { pool?: string[]; ids?: Uint8Array };
    this.pool = s.pool ?? [''];
    this.ids = s.ids instanceof Uint8Array && this.pool.length > 0x10000 ? copy(s.ids, Uint32Array) : numbers(s.ids, Uint16Array);
  }

  get(row: number): string {
    return this.pool[this.ids[row]] ?? '';
  }
}

export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

export { guidText };

/**
 * Rows by a u32 key, with `skip` rows (key 0 = no value) left out. `rows(key)` lists the rows holding it
 * in row order.
 */
export class KeyIndex {
  private readonly order: Uint32Array;
  private readonly keyOf: (row: number) => number;

  /**
   * `keyOf(row)`: the key of a row when the index is asked (default `keys[row]`); with it, `keys` is only read
   * here and may go once the index is built (a cold column's keys, read from the file again at each probe).
   */
  constructor(keys: Uint32Array, present: (row: number) => boolean = (row) => keys[row] !== 0, keyOf?: (row: number) => number) {
    const all = orderBy(keys);
    let kept = 0;
    for (let i = 0; i < all.length; i++) if (present(all[i])) all[kept++] = all[i];
    this.order = all.subarray(0, kept);
    this.keyOf = keyOf ?? ((row) => keys[row]);
  }

  *rows(key: number): Generator<number> {
    const order = this.order;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keyOf(order[mid]) < key) lo = mid + 1;
      else hi = mid;
    }
    for (let at = lo; at < order.length && this.keyOf(order[at]) === key; at++) yield order[at];
  }
}

/** The 16 bytes of a GUID written with or without dashes, in any case; null for another shape. */
export function guidBytes(text: string): Uint8Array | null {
  const out = new Uint8Array(16);
  return guidInto(text, out, 0) ? out : null;
}

/** rows per block when a column is scanned whole to build an index (1 MB of GUIDs) */
const SCAN_ROWS = 65_536;

/** The values of a u32 column (`FixedRows` of width 4): the column's own words in memory, read whole when cold. */
export function u32Values(rows: FixedRows): Uint32Array {
  if (!rows.isCold) {
    const all = rows.block(0, rows.count, new Uint8Array(0));
    return new Uint32Array(all.buffer, all.byteOffset, rows.count);
  }
  const out = new Uint32Array(rows.count);
  const bytes = new Uint8Array(out.buffer);
  for (let from = 0; from < rows.count; from += SCAN_ROWS) rows.block(from, SCAN_ROWS, bytes.subarray(from * 4));
  return out;
}

/** Rows of a GUID column by GUID (keyed by their first four bytes, read from the column at each probe). */
export class GuidIndex {
  private readonly index: KeyIndex;
  private readonly guids: FixedRows;

  constructor(guids: Uint8Array | FixedRows, count: number) {
    const rows = guids instanceof FixedRows ? guids : new FixedRows(guids, 16);
    this.guids = rows;
    const n = Math.min(count, rows.count);
    const keys = new Uint32Array(n);
    const present = new Uint8Array(n);
    const scratch = new Uint8Array(rows.isCold ? SCAN_ROWS * 16 : 0);
    for (let from = 0; from < n; from += SCAN_ROWS) {
      const block = rows.block(from, Math.min(SCAN_ROWS, n - from), scratch);
      keys.set(guidPrefixes(block, block.length >>> 4), from);
      for (let i = 0; i < block.length >>> 4; i++) {
        for (let k = 0; k < 16 && !present[from + i]; k++) if (block[i * 16 + k] !== 0) present[from + i] = 1;
      }
    }
    this.index = new KeyIndex(keys, (row) => present[row] === 1, (row) => this.prefixOf(row));
  }

  private prefixOf(row: number): number {
    const bytes = this.guids.bytes(row);
    const at = this.guids.at;
    return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
  }

  /** rows holding the GUID, in row order */
  *rows(text: string): Generator<number> {
    const bytes = guidBytes(text);
    if (!bytes) return;
    const key = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
    for (const row of this.index.rows(key)) {
      const own = this.guids.bytes(row);
      const at = this.guids.at;
      let same = true;
      for (let k = 4; k < 16 && same; k++) same = own[at + k] === bytes[k];
      if (same) yield row;
    }
  }
}

/** Rows of a text column by value (keyed by a hash of the bytes, confirmed on the row). */
export class TextIndex {
  private readonly index: KeyIndex;

  constructor(private readonly column: TextColumn) {
    const keys = new Uint32Array(column.length);
    const present = new Uint8Array(column.length);
    for (let i = 0; i < keys.length; i++) {
      keys[i] = column.hash(i);
      present[i] = column.isEmpty(i) ? 0 : 1;
    }
    this.index = new KeyIndex(keys, (row) => present[row] === 1);
  }

  *rows(text: string): Generator<number> {
    if (!text) return;
    const bytes = encoder.encode(text);
    for (const row of this.index.rows(hashBytes(bytes, 0, bytes.length))) if (this.column.equals(row, bytes)) yield row;
  }
}

/** The first of a generator's values, −1 when none. */
export function first(rows: Iterable<number>): number {
  for (const row of rows) return row;
  return -1;
}

/** The last of a generator's values, −1 when none. */
export function last(rows: Iterable<number>): number {
  let found = -1;
  for (const row of rows) found = row;
  return found;
}
