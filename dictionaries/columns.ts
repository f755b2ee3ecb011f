/**
 * Column writers for the blob's host sections, the builder's side of engine/columns.ts: no column is
 * an array of JS strings in the blob, so the loader never makes one JS string per row.
 *
 *   textColumn    { text: UTF-8 of every value, ends: u32 end offset per row }
 *   pooledColumn  { pool: string[], ids: u16 (u32 past 65,536 distinct values) } for values that repeat
 *   guidColumn    16 bytes per row (all zero: none)
 *   u32Column / f64Column
 *
 * A column with no value in any row is written as nil, and the reader reads nil as empty rows.
 */
import { guidInto } from '../format/guid.js';

const bytes = (array: ArrayBufferView): Buffer => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

const empty = (values: readonly unknown[]): boolean => values.every((value) => !value);

export function textColumn(values: readonly (string | undefined)[]): { text: Buffer; ends: Buffer } | null {
  if (empty(values)) return null;
  // sized first, then written in place: no buffer per value (a national build has millions of rows per column)
  let total = 0;
  for (const value of values) if (value) total += Buffer.byteLength(value, 'utf8');
  const text = Buffer.allocUnsafe(total);
  const ends = new Uint32Array(values.length);
  let end = 0;
  values.forEach((value, row) => {
    if (value) end += text.write(value, end, 'utf8');
    ends[row] = end;
  });
  return { text, ends: bytes(ends) };
}

/** A text column of ASCII values all `width` bytes long, given as their bytes one after another (GA codes). */
export function fixedTextColumn(text: Uint8Array, width: number): { text: Buffer; ends: Buffer } | null {
  const rows = text.length / width;
  if (rows === 0) return null;
  const ends = new Uint32Array(rows);
  for (let row = 0; row < rows; row++) ends[row] = (row + 1) * width;
  return { text: bytes(text), ends: bytes(ends) };
}

/** the id of `key` in `ids`; a new key takes the next id, `keys.length`, and is appended to `keys` */
export function internKey(ids: Map<string, number>, keys: string[], key: string): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = keys.length;
    keys.push(key);
    ids.set(key, id);
  }
  return id;
}

export function pooledColumn(values: readonly (string | undefined)[]): { pool: string[]; ids: Buffer } | null {
  if (empty(values)) return null;
  const pool = [''];
  const index = new Map<string, number>([['', 0]]);
  const ids = new Uint32Array(values.length);
  values.forEach((value, row) => {
    ids[row] = internKey(index, pool, value ?? '');
  });
  return { pool, ids: bytes(pool.length > 0x10000 ? ids : Uint16Array.from(ids)) };
}

export function guidColumn(values: readonly (string | undefined)[]): Buffer | null {
  if (empty(values)) return null;
  const out = Buffer.alloc(values.length * 16);
  values.forEach((value, row) => {
    if (value && !guidInto(value, out, row * 16)) throw new Error(`bad GUID ${value} in row ${row}`);
  });
  return out;
}

export function u32Column(values: readonly (string | number | undefined)[]): Buffer | null {
  if (values.every((value) => !Number(value ?? 0))) return null;
  return bytes(Uint32Array.from(values, (value, row) => {
    const n = Number(value ?? 0);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new Error(`bad u32 ${value} in row ${row}`);
    return n;
  }));
}

export function f64Column(values: readonly (number | undefined)[]): Buffer | null {
  if (empty(values)) return null;
  return bytes(Float64Array.from(values, (value) => value ?? 0));
}

