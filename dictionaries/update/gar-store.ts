/**
 * The update store: the GAR records the dictionary was built from, kept between builds in LMDB so that a
 * delta archive applies to them record by record and the dictionary is rebuilt without the full archive
 * (docs/UPDATES.md).
 *
 * One row per kept GAR record, keyed by where it belongs and its record id (GAR's `ID`, unique per table):
 * `region (4 ASCII bytes, zero-padded; the root's type lists: 4 zero bytes) · table (1 byte: its index in
 * STORED_TABLES) · ID (6 bytes, big-endian)`, so one region's table is one key range, read in ID order. A
 * delta record replaces the row of its ID, or removes it when the reader would not keep it (an object no
 * longer actual, a hierarchy row no longer active, a param ended): GAR sends a changed record again under
 * its ID and a new version under a new ID.
 *
 * The value is the attributes the reader reads (`GAR_TABLES[table].layout`, slot order), decoded, each as
 * UTF-8, separated by 0x01, an absent one as the single byte 0x02 (GAR's XML has neither: the scanner
 * refuses control characters). `StoredRecord` reads a row back through the same accessors as a scanned
 * record (`FlatRecord`), so `readGarRecords` is the one reader of both.
 *
 * Beside the rows (`meta` database): the registry date, and the GA code of every object of the last build
 * (`ga:<key>`), which the next build keeps (merge.ts `assignGa`).
 */
import { existsSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import { FlatRecord } from '../io/flat-xml.js';
import { REGION_TABLES, TYPE_TABLES, type GarTableName } from '../io/gar-tables.js';

/** every table the store keeps, in the order of their byte in the key */
export const STORED_TABLES: readonly GarTableName[] = [...TYPE_TABLES, ...REGION_TABLES];
const TABLE_BYTE = new Map(STORED_TABLES.map((table, index) => [table, index]));
const REGION_BYTES = 4;
const KEY_BYTES = REGION_BYTES + 1 + 6;
const SEPARATOR = 0x01;
const ABSENT = 0x02;

export function storeKey(region: string, table: GarTableName, id: number): Buffer {
  if (region.length > REGION_BYTES || !/^[0-9A-Za-z]*$/.test(region)) throw new Error(`GAR region folder "${region}" is not 1–4 letters or digits`);
  if (!Number.isSafeInteger(id) || id < 0 || id >= 2 ** 48) throw new Error(`GAR record ID ${id} is not an integer below 2^48`);
  const key = Buffer.alloc(KEY_BYTES);
  key.write(region, 0, 'latin1');
  key[REGION_BYTES] = TABLE_BYTE.get(table)!;
  key.writeUIntBE(id, REGION_BYTES + 1, 6);
  return key;
}

/** the attributes of `slots` slots of a scanned record, as a stored value (plain values copied as bytes, others decoded) */
export function storedValue(record: FlatRecord, slots: number): Buffer {
  const { starts, ends, flags, base, bytes } = record;
  let length = slots - 1;
  for (let slot = 0; slot < slots; slot++) {
    const at = base + slot;
    length += starts[at] < 0 ? 1 : flags[at] === 0 ? ends[at] - starts[at] : Buffer.byteLength(record.text(slot));
  }
  const value = Buffer.allocUnsafe(length);
  let to = 0;
  for (let slot = 0; slot < slots; slot++) {
    if (slot > 0) value[to++] = SEPARATOR;
    const at = base + slot;
    if (starts[at] < 0) value[to++] = ABSENT;
    else if (flags[at] === 0) {
      value.set(bytes.subarray(starts[at], ends[at]), to);
      to += ends[at] - starts[at];
    }
    else to += value.write(record.text(slot), to, 'utf8');
  }
  return value;
}

/** A stored row seen through `FlatRecord`'s accessors (no flags: the values are decoded already). */
export class StoredRecord extends FlatRecord {
  constructor(private readonly slots: number) {
    super(slots);
  }

  /** points the record at `value`; valid until the next call */
  load(value: Buffer, index: number): this {
    this.bytes = value;
    this.index = index;
    let start = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      let end = value.indexOf(SEPARATOR, start);
      if (end < 0) end = value.length;
      const absent = end - start === 1 && value[start] === ABSENT;
      this.starts[slot] = absent ? -1 : start;
      this.ends[slot] = end;
      start = end + 1;
    }
    return this;
  }
}

export class GarStore {
  private constructor(
    readonly path: string,
    private readonly root: RootDatabase,
    private readonly rows: Database<Buffer, Buffer>,
    private readonly meta: Database<string, string>,
  ) {}

  /** the store at `path` (created when `create`, else it must exist) */
  static open(path: string, options: { create?: boolean } = {}): GarStore {
    if (!options.create && !existsSync(path)) {
      throw new Error(`${path}: no GAR update store here; a full build writes it (npm run dict:build) before a delta can apply`);
    }
    const root = open({ path, noSync: true, maxDbs: 4, mapSize: 2 ** 36 });
    const rows = root.openDB<Buffer, Buffer>({ name: 'rows', keyEncoding: 'binary', encoding: 'binary' });
    const meta = root.openDB<string, string>({ name: 'meta', encoding: 'string' });
    return new GarStore(path, root, rows, meta);
  }

  /** the registry date of the records held, `YYYYMMDD` (`''`: none yet) */
  get date(): string {
    return this.meta.get('date') ?? '';
  }

  /** what the last full build read besides GAR: `all` of DATA_DIR, or nothing (`gar`: `BuildOptions.garOnly`) */
  get sources(): 'gar' | 'all' {
    return this.meta.get('sources') === 'gar' ? 'gar' : 'all';
  }

  setSources(sources: 'gar' | 'all'): void {
    this.meta.putSync('sources', sources);
  }

  /** region folders with rows (the root's type lists excluded) */
  regions(): string[] {
    return (this.meta.get('regions') ?? '').split(',').filter(Boolean);
  }

  /** queues a write (LMDB commits queued writes in batches; `flushed` waits for them) */
  put(key: Buffer, value: Buffer): void {
    void this.rows.put(key, value);
  }

  /** queues the removal of a row (none there: nothing happens) */
  remove(key: Buffer): void {
    void this.rows.remove(key);
  }

  /** resolves when every queued write is committed */
  get flushed(): Promise<boolean> {
    return this.root.flushed;
  }

  setDate(date: string, regions: Iterable<string>): void {
    this.meta.putSync('date', date);
    this.meta.putSync('regions', [...new Set([...this.regions(), ...regions])].sort().join(','));
  }

  /** the rows of one region's table, in record-id order */
  *records(region: string, table: GarTableName, slots: number): Generator<FlatRecord> {
    const record = new StoredRecord(slots);
    let index = 0;
    const range = this.rows.getRange({ start: storeKey(region, table, 0), end: storeKey(region, table, 2 ** 48 - 1), snapshot: false });
    for (const { value } of range) yield record.load(value, ++index);
  }

  /** the GA codes of the last build, by object key */
  gaCodes(): Map<string, string> {
    const codes = new Map<string, string>();
    for (const { key, value } of this.meta.getRange({ start: 'ga:', end: 'ga;' })) codes.set(key.slice(3), value);
    return codes;
  }

  /** replaces the GA codes held with `codes` */
  async setGaCodes(codes: Iterable<[string, string]>): Promise<void> {
    await this.meta.transaction(() => {
      for (const { key } of this.meta.getRange({ start: 'ga:', end: 'ga;' })) this.meta.remove(key);
      for (const [key, code] of codes) this.meta.put(`ga:${key}`, code);
    });
  }

  /** every row and all meta gone (a full build starts from an empty store) */
  async clear(): Promise<void> {
    await this.rows.clearAsync();
    await this.meta.clearAsync();
  }

  async close(): Promise<void> {
    await this.root.flushed;
    await this.root.close();
  }
}
