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
 * Indexes are built on the first id lookup and cost 4 bytes per row: row numbers ordered by a u32 key (the
 * GAR id, the first four bytes of a GUID, a hash of a text), found by binary search and confirmed on the
 * row itself.
 */

import { guidPrefixes, lowerBound, orderBy } from '../../dictionaries/order.js';
import { guidInto, guidText } from '../../dictionaries/guid.js';

export { orderBy };

type Ctor<T> = new (b: ArrayBuffer) => T;

/**
 * `bytes` as T: a copy (aligned, and the blob's buffer can go), or the bytes' own buffer when they are all of
 * it (a section read from a file into a buffer of its own, host/engine/blob-file.ts: no second copy).
 */
export const copy = <T>(bytes: Uint8Array, Type: Ctor<T>): T =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? new Type(bytes.buffer)
    : new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

/** A numeric column; absent from the blob (no row has a value) → an empty array, read as `undefined`. */
export function numbers<T>(bytes: unknown, Type: Ctor<T>): T {
  return bytes instanceof Uint8Array ? copy(bytes, Type) : new Type(new ArrayBuffer(0));
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

  constructor(private readonly keys: Uint32Array, present: (row: number) => boolean = (row) => keys[row] !== 0) {
    const all = orderBy(keys);
    let kept = 0;
    for (let i = 0; i < all.length; i++) if (present(all[i])) all[kept++] = all[i];
    this.order = all.subarray(0, kept);
  }

  *rows(key: number): Generator<number> {
    const order = this.order;
    for (let at = lowerBound(this.keys, order, key); at < order.length && this.keys[order[at]] === key; at++) yield order[at];
  }
}

/** The 16 bytes of a GUID written with or without dashes, in any case; null for another shape. */
export function guidBytes(text: string): Uint8Array | null {
  const out = new Uint8Array(16);
  return guidInto(text, out, 0) ? out : null;
}

/** Rows of a GUID column by GUID (keyed by their first four bytes). */
export class GuidIndex {
  private readonly index: KeyIndex;

  constructor(private readonly guids: Uint8Array, count: number) {
    const keys = guidPrefixes(guids, guids.length >= count * 16 ? count : 0);
    const present = new Uint8Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      for (let k = 0; k < 16 && !present[i]; k++) if (guids[i * 16 + k] !== 0) present[i] = 1;
    }
    this.index = new KeyIndex(keys, (row) => present[row] === 1);
  }

  /** rows holding the GUID, in row order */
  *rows(text: string): Generator<number> {
    const bytes = guidBytes(text);
    if (!bytes) return;
    const key = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
    for (const row of this.index.rows(key)) {
      let same = true;
      for (let k = 4; k < 16 && same; k++) same = this.guids[row * 16 + k] === bytes[k];
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
