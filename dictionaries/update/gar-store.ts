/**
 * The update store: the GAR records the dictionary was built from, kept between builds in LMDB so that a
 * delta archive applies to them record by record and the dictionary is rebuilt without the full archive
 * (docs/UPDATES.md).
 *
 * The kept records of one region's table, in record-id order (GAR's `ID`, unique per table), are cut into
 * *blocks* of consecutive rows, each one LMDB row of at most BLOCK_BYTES (two fit a 4 KB page, none spills
 * to overflow pages), keyed by where it belongs and its first row's id: `region (4 ASCII bytes, zero-padded;
 * the root's type lists: 4 zero bytes) · table (1 byte: its index in STORED_TABLES) · ID (6 bytes,
 * big-endian)`, so one region's table is one key range, read in ID order. Inside a block each row is its ID
 * (6 bytes, big-endian), its value's length (4 bytes, big-endian) and the value. A rebuild reads every row:
 * read block by block, a row costs a few byte searches instead of a cursor step with its key and value
 * copied out (the cursor's time in a rebuild at 1 M houses: ≈4.3 → ≈1.8 s), and a full build appends the
 * blocks in key order, filling the pages (322 against 348 MB at 1 M houses).
 *
 * A delta record replaces the row of its ID, or removes it when the reader would not keep it (an object no
 * longer actual, a hierarchy row no longer active, a param ended): GAR sends a changed record again under
 * its ID and a new version under a new ID. `applyRows` rewrites only the blocks the changed IDs fall in.
 *
 * A row's value is the attributes the reader reads (`GAR_TABLES[table].layout`, slot order), decoded, each as
 * UTF-8, separated by 0x01, an absent one as the single byte 0x02 (GAR's XML has neither: the scanner
 * refuses control characters). `StoredRecord` reads a row back through the same accessors as a scanned
 * record (`FlatRecord`), so `readGarRecords` is the one reader of both.
 *
 * Beside the rows (`meta` database): the registry date; and (`ga` database) the GA code of every object of the
 * last build, which the next build keeps (merge/ga-codes.ts `assignGa`): the objects' keys joined, and their
 * codes packed.
 */
import { existsSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import { FlatRecord } from '../io/flat-xml.js';
import { REGION_TABLES, TYPE_TABLES, type GarTableName } from '../io/gar-tables.js';
import { previousGa, type PreviousGa } from '../merge/ga-codes.js';
import { GA_LENGTH } from '../merged-model.js';

/** every table the store keeps, in the order of their byte in the key */
export const STORED_TABLES: readonly GarTableName[] = [...TYPE_TABLES, ...REGION_TABLES];
const TABLE_BYTE = new Map(STORED_TABLES.map((table, index) => [table, index]));
const REGION_BYTES = 4;
const KEY_BYTES = REGION_BYTES + 1 + 6;
const SEPARATOR = 0x01;
/** between the object keys of the GA codes */
const KEY_SEPARATOR = '\u0000';
const ABSENT = 0x02;
/** a block's bytes at most (unless one row alone is longer): two blocks and their LMDB headers fit a 4 KB page */
export const BLOCK_BYTES = 1900;
/** a row's head in a block: its ID (6 bytes) and its value's length (4 bytes) */
const ROW_HEAD = 10;

/** the key of a block of `region`'s `table` whose first row is record `id` */
export function storeKey(region: string, table: GarTableName, id: number): Buffer {
  if (!Number.isSafeInteger(id) || id < 0 || id >= 2 ** 48) throw new Error(`GAR record ID ${id} is not an integer below 2^48`);
  const key = Buffer.alloc(KEY_BYTES);
  tablePrefix(region, table).copy(key);
  key.writeUIntBE(id, REGION_BYTES + 1, 6);
  return key;
}

/** the first bytes of every key of `region`'s `table` (sorting before them all) */
function tablePrefix(region: string, table: GarTableName): Buffer {
  if (region.length > REGION_BYTES || !/^[0-9A-Za-z]*$/.test(region)) throw new Error(`GAR region folder "${region}" is not 1–4 letters or digits`);
  const prefix = Buffer.alloc(REGION_BYTES + 1);
  prefix.write(region, 0, 'latin1');
  prefix[REGION_BYTES] = TABLE_BYTE.get(table)!;
  return prefix;
}

/** the key right after every key of the table of `prefix` */
function tableEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  end[REGION_BYTES]++;
  return end;
}

/** Rows (ID order) cut into blocks of at most BLOCK_BYTES; `put` takes each full block with its first row's id. */
class BlockBuilder {
  private bytes = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;
  private first = -1;

  constructor(private readonly put: (firstId: number, block: Buffer) => void) {}

  add(id: number, value: Uint8Array): void {
    const size = ROW_HEAD + value.byteLength;
    if (this.used > 0 && this.used + size > BLOCK_BYTES) this.flush();
    if (size > this.bytes.length) this.bytes = Buffer.allocUnsafe(size);
    if (this.used === 0) this.first = id;
    this.bytes.writeUIntBE(id, this.used, 6);
    this.bytes.writeUInt32BE(value.byteLength, this.used + 6);
    this.bytes.set(value, this.used + ROW_HEAD);
    this.used += size;
  }

  /** puts the block begun (if any) */
  flush(): void {
    if (this.used === 0) return;
    this.put(this.first, Buffer.from(this.bytes.subarray(0, this.used)));
    this.used = 0;
  }
}

const sameBlock = (a: { key: Buffer } | undefined, b: { key: Buffer } | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.key.equals(b.key);

/** the rows of a block: each row's id, and its value's start and end in `block` */
function* blockRows(block: Buffer): Generator<[number, number, number]> {
  for (let at = 0; at < block.length; ) {
    const end = at + ROW_HEAD + block.readUInt32BE(at + 6);
    yield [block.readUIntBE(at, 6), at + ROW_HEAD, end];
    at = end;
  }
}

/**
 * Writes one region's table into the store, its rows given in any order: in ID order (GAR's files are) each
 * block is put as it fills; a row out of order and every one after it are applied as a delta's are, at `end`.
 */
export class TableWriter {
  private readonly blocks: BlockBuilder;
  private last = -1;
  private readonly late = new Map<number, Buffer>();

  constructor(
    private readonly store: GarStore,
    private readonly region: string,
    private readonly table: GarTableName,
  ) {
    this.blocks = new BlockBuilder((first, block) => store.putBlock(storeKey(region, table, first), block));
  }

  add(id: number, value: Buffer): void {
    if (this.late.size === 0 && id > this.last) {
      this.blocks.add(id, value);
      this.last = id;
    } else this.late.set(id, value);
  }

  async end(): Promise<void> {
    this.blocks.flush();
    if (this.late.size === 0) return;
    await this.store.putsDone();
    this.store.applyRows(this.region, this.table, this.late);
  }
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

  /** points the record at the value in `bytes` from `start` to `end`; valid until the next call */
  load(bytes: Buffer, start: number, end: number, index: number): this {
    this.bytes = bytes;
    this.index = index;
    let at = start;
    for (let slot = 0; slot < this.slots; slot++) {
      let stop = bytes.indexOf(SEPARATOR, at);
      if (stop < 0 || stop > end) stop = end;
      const absent = stop - at === 1 && bytes[at] === ABSENT;
      this.starts[slot] = absent ? -1 : at;
      this.ends[slot] = stop;
      at = stop + 1;
    }
    return this;
  }

  /** hands each row of `block` to `handle` through this record, numbered after `index`; returns the last number */
  rows(block: Buffer, index: number, handle: (record: FlatRecord) => void): number {
    for (let at = 0; at < block.length; ) {
      const start = at + ROW_HEAD;
      at = start + block.readUInt32BE(at + 6);
      handle(this.load(block, start, at, ++index));
    }
    return index;
  }
}

/** bytes of blocks read after which `records`' reader lets LMDB's mapping go (`unmapRead`) */
const UNMAP_READ_BYTES = 64 * 2 ** 20;

export class GarStore {
  private root!: RootDatabase;
  private rows!: Database<Buffer, Buffer>;
  private meta!: Database<string, string>;
  private ga!: Database<Buffer, string>;
  /** bytes of blocks read since the store was opened */
  private bytesRead = 0;

  private constructor(readonly path: string) {
    this.openDatabases();
  }

  /** the store at `path` (created when `create`, else it must exist) */
  static open(path: string, options: { create?: boolean } = {}): GarStore {
    if (!options.create && !existsSync(path)) {
      throw new Error(`${path}: no GAR update store here; a full build writes it (npm run dict:build) before a delta can apply`);
    }
    return new GarStore(path);
  }

  private openDatabases(): void {
    this.root = open({ path: this.path, noSync: true, maxDbs: 4, mapSize: 2 ** 36 });
    this.rows = this.root.openDB<Buffer, Buffer>({ name: 'rows', keyEncoding: 'binary', encoding: 'binary' });
    this.meta = this.root.openDB<string, string>({ name: 'meta', encoding: 'string' });
    this.ga = this.root.openDB<Buffer, string>({ name: 'ga', encoding: 'binary' });
    this.bytesRead = 0;
  }

  /**
   * Closes the store and opens it again once `records` has read UNMAP_READ_BYTES (`force`: whatever it read).
   * The pages of LMDB's file the reads touched stay mapped, and counted in the process's RSS, until the file
   * is closed: read whole, the store (hundreds of MB per million houses) would add its size to the peak RSS of
   * the build that reads it. Call it when no `records` iteration is under way.
   */
  async unmapRead(force = false): Promise<void> {
    if (!force && this.bytesRead < UNMAP_READ_BYTES) return;
    await this.root.flushed;
    await this.root.close();
    this.openDatabases();
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

  /** `namesDigest` of the blob the last build or update wrote (blob-writer.ts `ReusedNames`; `''`: none) */
  get namesDigest(): string {
    return this.meta.get('names') ?? '';
  }

  setNamesDigest(digest: string): void {
    this.meta.putSync('names', digest);
  }

  /** region folders with rows (the root's type lists excluded) */
  regions(): string[] {
    return (this.meta.get('regions') ?? '').split(',').filter(Boolean);
  }

  /** a writer of one region's table into an empty store (a full archive) */
  tableWriter(region: string, table: GarTableName): TableWriter {
    return new TableWriter(this, region, table);
  }

  /**
   * Queues the write of a block (LMDB commits queued writes in batches; `flushed` waits for them). A key above
   * every key put before goes at the end of the file's last page (MDB_APPEND): a full build's blocks come in
   * key order, which so fill their pages instead of leaving them half full.
   */
  putBlock(key: Buffer, block: Buffer): void {
    const append = this.lastPut === undefined || key.compare(this.lastPut) > 0;
    if (append) this.lastPut = key;
    const put = this.rows.put as (key: Buffer, value: Buffer, options: { append: boolean }) => Promise<boolean>;
    void put.call(this.rows, key, block, { append }).then((written) => {
      // an appended key below one already in the file (a store not emptied first) is refused
      if (!written) this.refusedPut ??= key;
    });
  }

  /** the key of the last block `putBlock` put */
  private lastPut: Buffer | undefined;
  private refusedPut: Buffer | undefined;

  /** waits for the blocks queued by `putBlock`, and refuses to go on if one could not be written */
  async putsDone(): Promise<void> {
    await this.root.flushed;
    if (this.refusedPut) throw new Error(`${this.path}: block ${this.refusedPut.toString('hex')} could not be written in key order; the store must be emptied before a full archive`);
  }

  /**
   * Applies `changes` to the rows of `region`'s `table` (record id → the new value, or `null`: the row removed,
   * if there is one), in one transaction: only the blocks the ids fall in are read and written again.
   */
  applyRows(region: string, table: GarTableName, changes: ReadonlyMap<number, Buffer | null>): void {
    const prefix = tablePrefix(region, table);
    const ids = Float64Array.from(changes.keys()).sort();
    this.rows.transactionSync(() => {
      // the block an id falls in: the last one starting at or before it, else the table's first (none: an empty table)
      const blockOf = (id: number) => this.firstRow({ start: storeKey(region, table, id), end: prefix, reverse: true }) ?? this.firstRow({ start: prefix, end: tableEnd(prefix) });
      let block: { key: Buffer; value: Buffer } | undefined;
      let from = 0;
      for (let k = 0; k <= ids.length; k++) {
        // looked up before the block of the ids before is rewritten: every key it writes is below this one's
        const found = k < ids.length ? blockOf(ids[k]) : undefined;
        if (k > 0 && (k === ids.length || !sameBlock(found, block))) {
          this.rewriteBlock(region, table, block, ids.subarray(from, k), changes);
          from = k;
        }
        block = found;
      }
    });
  }

  /** `block` (undefined: none yet) with the changes of `ids` applied, as one block or more (none: all rows gone) */
  private rewriteBlock(region: string, table: GarTableName, block: { key: Buffer; value: Buffer } | undefined, ids: Float64Array, changes: ReadonlyMap<number, Buffer | null>): void {
    const rows = new Map<number, Uint8Array>();
    if (block) for (const [id, from, to] of blockRows(block.value)) rows.set(id, block.value.subarray(from, to));
    for (const id of ids) {
      const value = changes.get(id)!;
      if (value === null) rows.delete(id);
      else rows.set(id, value);
    }
    const keys: Buffer[] = [];
    const blocks = new BlockBuilder((first, bytes) => {
      const key = storeKey(region, table, first);
      keys.push(key);
      this.rows.putSync(key, bytes);
    });
    for (const id of [...rows.keys()].sort((a, b) => a - b)) blocks.add(id, rows.get(id)!);
    blocks.flush();
    // the old block's key is gone unless a new block took it
    if (block && !keys.some((key) => key.equals(block.key))) this.rows.removeSync(block.key);
  }

  /** the first row of a key range */
  private firstRow(range: { start: Buffer; end: Buffer; reverse?: boolean }): { key: Buffer; value: Buffer } | undefined {
    for (const row of this.rows.getRange({ ...range, limit: 1 })) return row;
    return undefined;
  }

  /** resolves when every queued write is committed */
  get flushed(): Promise<boolean> {
    return this.root.flushed;
  }

  setDate(date: string, regions: Iterable<string>): void {
    this.meta.putSync('date', date);
    this.meta.putSync('regions', [...new Set([...this.regions(), ...regions])].sort().join(','));
  }

  /** hands the rows of one region's table to `handle`, in record-id order (one record, loaded row by row); returns their number */
  readRecords(region: string, table: GarTableName, slots: number, handle: (record: FlatRecord) => void): number {
    const record = new StoredRecord(slots);
    let index = 0;
    for (const block of this.blocks(region, table)) index = record.rows(block, index, handle);
    return index;
  }

  /**
   * The rows of one region's table as they are stored (blocks joined: `StoredRecord.rows` reads them), in pieces of
   * about `bytes`, each read in one go: the store may be closed and reopened between two (`unmapRead`, called
   * before each), never during one.
   */
  async *rowPieces(region: string, table: GarTableName, bytes: number): AsyncGenerator<Buffer> {
    const prefix = tablePrefix(region, table);
    const end = tableEnd(prefix);
    for (let start: Buffer | undefined = prefix; start; ) {
      await this.unmapRead();
      // each block copied at once (a value may share memory with the next read), into a piece of its own
      let piece = Buffer.allocUnsafe(bytes + 2 * BLOCK_BYTES);
      let size = 0;
      let next: Buffer | undefined;
      for (const { key, value } of this.rows.getRange({ start, end, snapshot: false })) {
        if (size >= bytes) {
          next = Buffer.from(key);
          break;
        }
        if (size + value.length > piece.length) piece = Buffer.concat([piece.subarray(0, size)], 2 * (size + value.length));
        piece.set(value, size);
        size += value.length;
      }
      this.bytesRead += size;
      start = next;
      if (size > 0) yield piece.subarray(0, size);
    }
  }

  /** the blocks of one region's table, in record-id order (`StoredRecord.rows` reads their rows) */
  *blocks(region: string, table: GarTableName): Generator<Buffer> {
    const prefix = tablePrefix(region, table);
    for (const { value } of this.rows.getRange({ start: prefix, end: tableEnd(prefix), snapshot: false })) {
      this.bytesRead += value.length;
      yield value;
    }
  }

  /** the GA codes of the last build (`setGaCodes`) */
  gaCodes(): PreviousGa {
    const keys = this.ga.get('keys');
    const codes = this.ga.get('codes');
    if (keys && codes) return previousGa(keys.length === 0 ? [] : keys.toString('utf8').split(KEY_SEPARATOR), new Uint8Array(codes));
    // a store written before the codes were packed: a meta row per object
    const legacyKeys: string[] = [];
    const legacyCodes: string[] = [];
    for (const { key, value } of this.meta.getRange({ start: 'ga:', end: 'ga;' })) {
      if (value.length !== GA_LENGTH) continue;
      legacyKeys.push(key.slice(3));
      legacyCodes.push(value);
    }
    return previousGa(legacyKeys, Buffer.from(legacyCodes.join(''), 'latin1'));
  }

  /**
   * Replaces the GA codes held with those of `keys` (object keys, in order), GA_LENGTH ASCII bytes each in
   * `codes`: two values, the keys joined and the codes as they are (one meta row per object took seconds to
   * rewrite at 10 M houses).
   */
  async setGaCodes(keys: readonly string[], codes: Uint8Array): Promise<void> {
    if (codes.length !== keys.length * GA_LENGTH) throw new Error(`GA codes: ${codes.length} bytes for ${keys.length} objects`);
    for (const key of keys) if (key.includes(KEY_SEPARATOR)) throw new Error(`object key ${JSON.stringify(key)} holds a NUL character`);
    const joined = Buffer.from(keys.join(KEY_SEPARATOR), 'utf8');
    await this.root.transaction(() => {
      for (const { key } of this.meta.getRange({ start: 'ga:', end: 'ga;' })) this.meta.remove(key);
      this.ga.put('keys', joined);
      this.ga.put('codes', Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength));
    });
  }

  /** every row and all meta gone (a full build starts from an empty store) */
  async clear(): Promise<void> {
    this.lastPut = undefined;
    await this.rows.clearAsync();
    await this.meta.clearAsync();
    await this.ga.clearAsync();
  }

  async close(): Promise<void> {
    await this.root.flushed;
    await this.root.close();
  }
}
