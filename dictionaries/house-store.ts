/**
 * Columnar, append-only store of houses: one chunked typed column per field (spill.ts), no JS object per
 * house. The merge keeps its houses here (rows in source order, parent = an interned key id); the blob
 * writer takes the blob's house sections straight from it (`sections(rows)`: each column gathered into
 * dictionary order block by block while the writer streams it; docs/DESIGN.md "Blob format"). A model
 * without a store (tests, bench/scale.ts) is copied into one first.
 *
 *   label     u32   the house's parts (number, корпус, строение, литера, сооружение) as one id: a country has
 *                   ≈35 M houses but a few million distinct part tuples (`HouseLabels`)
 *   postcode  u32   id in a pool of postcodes (≈42 k in Russia, so the blob stores it in 2 bytes)
 *   cadnum    2×u32 the cadastral number packed by cadnum.ts (text only for odd shapes)
 *   fias      16 B  the GUID's bytes; gar u32; osm kind u8 + id f64; lat/lon i32 degrees × 10⁷;
 *                   flags u8; flatCount u16; source u8 (merge only); parent i32
 *   municipal        sparse: (row, municipal id) pairs for the few houses whose municipal entity is not their
 *                   parent object's (source-model.ts `HouseRecord.municipal`); 0 bytes for the others
 *
 * Columns grow a chunk (1 Mi rows) at a time, and a chunk exists only once a row in it has a value, so a
 * GAR-only build carries no coordinates and no OSM ids, an OSM-only build no GUIDs; GAR-like houses (60 %
 * with a cadastral number) cost ≈ 42 bytes each. Past `spillAfterRows` (4 Mi rows) every full chunk goes
 * to a spill file and leaves memory, so a national store holds one chunk per column while reading and
 * the build's memory no longer grows with its houses (4 bytes per house of order remain: `order`).
 *
 * `order(parentIndex)` sorts rows by their resolved parent with a counting sort (two passes, one Uint32Array
 * of row numbers), which is how the merged model yields houses grouped by parent.
 */
import type { Codes, HouseRecord } from './source-model.js';
import type { MergedHouse } from './merged-model.js';
import { CADNUM_EXCEPTION, decodeCadnum, encodeCadnum } from '../format/cadnum.js';
import type { PackedHouses } from './house-pack.js';
import { internKey } from './columns.js';
import { houseKey } from './fold.js';
import { FLAG_MULTI_FLAT, FLAG_MULTI_FLAT_KNOWN, FLAG_POSSESSION, FLAG_STEAD } from '../format/house-flags.js';
import { LABEL_PARTS } from '../format/house-labels.js';
import { guidInto, guidText } from '../format/guid.js';
import { indexOfSorted, lowerBound } from '../format/order.js';
import { BinBlocks, BLOCK_ROWS, CHUNK_SHIFT, ChunkedColumn, SpillFile } from './spill.js';

export type TypedArray = Int32Array | Uint32Array | Uint8Array | Uint16Array | Float64Array;
export type TypedArrayConstructor<T extends TypedArray> = {
  new (length: number): T;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** a typed array that exists only once a non-default value was written; it grows to the store's capacity */
export class LazyColumn<T extends TypedArray> {
  data: T | null = null;
  constructor(
    private readonly make: TypedArrayConstructor<T>,
    private readonly width = 1,
    private readonly fill?: number,
  ) {}

  /** makes room for `row` (allocating or growing to `capacity` rows) and returns the array */
  reserve(row: number, capacity: number): T {
    if (this.data === null || this.data.length < (row + 1) * this.width) {
      const grown = new this.make(capacity * this.width);
      if (this.fill !== undefined) grown.fill(this.fill);
      if (this.data !== null) grown.set(this.data as never);
      this.data = grown;
    }
    return this.data;
  }

  set(row: number, value: number, capacity: number): void {
    this.reserve(row, capacity)[row * this.width] = value;
  }

  get(row: number, offset = 0): number {
    const index = row * this.width + offset;
    if (this.data === null || index >= this.data.length) return this.fill ?? 0;
    return this.data[index];
  }

  /** the values of `rows`, in that order, into a new array of type `make` (the column's own by default) */
  gather(rows: Uint32Array, make: TypedArrayConstructor<TypedArray> = this.make): TypedArray {
    const width = this.width;
    const out = new make(rows.length * width);
    if (this.fill !== undefined) out.fill(this.fill);
    const data = this.data;
    if (data === null) return out;
    for (let i = 0; i < rows.length; i++) {
      const from = rows[i] * width;
      if (from >= data.length) continue; // a row past the last write reads as the default
      for (let k = 0; k < width; k++) out[i * width + k] = data[from + k];
    }
    return out;
  }
}

/** A growable Int32Array. */
export class Int32Builder {
  data = new Int32Array(1024);
  length = 0;
  push(...values: number[]): void {
    this.pushAll(values);
  }
  /** appends a list of any length (a spread call overflows the stack past ≈ 125 k arguments) */
  pushAll(values: ArrayLike<number>): void {
    if (this.length + values.length > this.data.length) {
      const next = new Int32Array(Math.max(this.data.length * 2, this.length + values.length));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    for (let i = 0; i < values.length; i++) this.data[this.length++] = values[i];
  }
  buffer(): Buffer {
    return Buffer.from(this.data.buffer, 0, this.length * 4);
  }
}

/** deduplicated strings; id 0 is the empty string */
export class StringPool {
  private readonly ids = new Map<string, number>([['', 0]]);
  readonly strings: string[] = [''];
  id(text: string | undefined): number {
    return text === undefined || text === '' ? 0 : internKey(this.ids, this.strings, text);
  }
  get size(): number {
    return this.strings.length;
  }
}

type Parts = Pick<HouseRecord, 'number' | 'block' | 'building' | 'liter' | 'construction'>;

/** Distinct part tuples of houses: LABEL_PARTS pool ids per label (number, block, building, liter, construction). */
export class HouseLabels {
  private readonly ids = new Map<string, number>();
  /** the labels of a number alone (most houses), by the number: no key string made per house */
  private readonly numbers = new Map<string, number>();
  readonly parts = new Int32Builder();
  readonly pool = new StringPool();
  private size = 0;

  id(house: Parts): number {
    // an empty part is no part (the pool's id 0 either way)
    const numberOnly = !house.block && !house.building && !house.liter && !house.construction;
    const key = numberOnly ? house.number : `${house.number}\u0001${house.block ?? ''}\u0001${house.building ?? ''}\u0001${house.liter ?? ''}\u0001${house.construction ?? ''}`;
    const ids = numberOnly ? this.numbers : this.ids;
    let id = ids.get(key);
    if (id === undefined) {
      id = this.size++;
      ids.set(key, id);
      const p = this.pool;
      this.parts.push(p.id(house.number), p.id(house.block), p.id(house.building), p.id(house.liter), p.id(house.construction));
    }
    return id;
  }

  get count(): number {
    return this.size;
  }

  part(label: number, index: number): string {
    return this.pool.strings[this.parts.data[label * LABEL_PARTS + index]];
  }
}

const OSM_KINDS = ['', 'N', 'W', 'R'];
const NO_COORDINATE = -0x80000000;
const COORDINATE_SCALE = 1e7;
/** the core's "no coordinate" (assembly/blob.ts NO_COORD) */
const NO_COORD_E6 = 0x7fffffff;

/**
 * The houses some records refer to (apartments: `ApartmentStore.references`), each once: GAR ids ascending,
 * GUIDs (16 bytes each) ascending by their first four bytes, `fiasKeys` those four bytes as a big-endian u32.
 */
export interface HouseReferences {
  gar: Uint32Array;
  fias: Uint8Array;
  fiasKeys: Uint32Array;
}

/** The index of the GUID at `bytes[at…at+16)` in `refs`, −1 when it is not there. */
export function guidIndex(refs: HouseReferences, bytes: ArrayLike<number>, at: number): number {
  const key = ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
  const keys = refs.fiasKeys;
  for (let k = lowerBound(keys, key); k < keys.length && keys[k] === key; k++) {
    let same = true;
    for (let i = 4; i < 16 && same; i++) same = refs.fias[k * 16 + i] === bytes[at + i];
    if (same) return k;
  }
  return -1;
}

/**
 * The blob's house sections (docs/DESIGN.md "Blob format"), each a function that builds it when the writer
 * streams it; a column no house fills is left out.
 */
export interface HouseSections {
  core: { houses: Section; houseLabels: Section; houseKeys: Section; houseCoords?: Section };
  host: Record<string, Section>;
}
export type Section = () => unknown;

export const bytes = (array: ArrayBufferView): Buffer => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

export interface HouseStoreOptions {
  /**
   * once the store holds this many rows, its full chunks go to a spill file (spill.ts) and leave memory;
   * default 4 Mi rows (≈ 190 MB of GAR-like columns), `Infinity` never spills
   */
  spillAfterRows?: number;
  /** where the spill file goes (default: the OS temporary directory) */
  spillDir?: string;
  /** rows per chunk as a power of two (default 20: 1 Mi rows); tests use small chunks */
  chunkShift?: number;
}

const DEFAULT_SPILL_AFTER_ROWS = 1 << 22;

export class HouseStore {
  count = 0;
  readonly labels = new HouseLabels();
  private readonly postcodes = new StringPool();
  private readonly sources = new StringPool();
  private readonly cadnumOther: string[] = [];
  private readonly parent: ChunkedColumn<Int32Array>;
  private readonly label: ChunkedColumn<Uint32Array>;
  private readonly flags: ChunkedColumn<Uint8Array>;
  private readonly source: ChunkedColumn<Uint8Array>;
  private readonly postcode: ChunkedColumn<Uint32Array>;
  /** degrees × 10⁷ as OSM stores them (exact to 7 decimals, ±1 cm); NO_COORDINATE when unknown */
  private readonly lat: ChunkedColumn<Int32Array>;
  private readonly lon: ChunkedColumn<Int32Array>;
  private readonly gar: ChunkedColumn<Uint32Array>;
  private readonly fias: ChunkedColumn<Uint8Array>;
  private readonly osmKind: ChunkedColumn<Uint8Array>;
  private readonly osmId: ChunkedColumn<Float64Array>;
  private readonly flatCount: ChunkedColumn<Uint16Array>;
  private readonly cadnum: ChunkedColumn<Uint32Array>;
  private readonly columns: Array<ChunkedColumn<TypedArray>>;
  private readonly spillAfterRows: number;
  private spillFile: SpillFile | null = null;
  /** the sparse municipal list: rows in the order added, and their municipal ids */
  private readonly municipalRows = new Int32Builder();
  private readonly municipalIds = new Int32Builder();

  constructor(private readonly options: HouseStoreOptions = {}) {
    this.spillAfterRows = options.spillAfterRows ?? DEFAULT_SPILL_AFTER_ROWS;
    const shift = options.chunkShift ?? CHUNK_SHIFT;
    const column = <T extends TypedArray>(make: TypedArrayConstructor<T>, width = 1, fill?: number) => new ChunkedColumn(make, width, fill, shift);
    this.parent = column(Int32Array, 1, -1);
    this.label = column(Uint32Array);
    this.flags = column(Uint8Array);
    this.source = column(Uint8Array);
    this.postcode = column(Uint32Array);
    this.lat = column(Int32Array, 1, NO_COORDINATE);
    this.lon = column(Int32Array, 1, NO_COORDINATE);
    this.gar = column(Uint32Array);
    this.fias = column(Uint8Array, 16);
    this.osmKind = column(Uint8Array);
    this.osmId = column(Float64Array);
    this.flatCount = column(Uint16Array);
    this.cadnum = column(Uint32Array, 2);
    this.columns = [
      this.parent, this.label, this.flags, this.source, this.postcode, this.lat, this.lon, this.gar, this.fias,
      this.osmKind, this.osmId, this.flatCount, this.cadnum,
    ];
  }

  /** bytes the store has moved to its spill file */
  get spilledBytes(): number {
    return this.spillFile?.bytes ?? 0;
  }

  /**
   * append a house whose parent is `parentId` (an interned key id, or an object index) and whose municipal
   * entity, when not its parent's, is `municipal` (an id, −1: the parent's); returns the row
   */
  add(house: HouseRecord | MergedHouse, parentId: number, municipal = -1): number {
    const row = this.newRow(parentId, municipal);
    this.label.set(row, this.labels.id(house));
    let flags = 0;
    if (house.possession) flags |= FLAG_POSSESSION;
    if (house.stead) flags |= FLAG_STEAD;
    if (house.multiFlat !== undefined) flags |= FLAG_MULTI_FLAT_KNOWN | (house.multiFlat ? FLAG_MULTI_FLAT : 0);
    if (flags !== 0) this.flags.set(row, flags);
    this.setSource(row, this.sources.id(house.source), house.source);
    const postcode = this.postcodes.id(house.postcode);
    if (postcode !== 0) this.postcode.set(row, postcode);
    if (house.lat !== undefined && house.lon !== undefined && Number.isFinite(house.lat) && Number.isFinite(house.lon)) {
      this.lat.set(row, Math.round(house.lat * COORDINATE_SCALE));
      this.lon.set(row, Math.round(house.lon * COORDINATE_SCALE));
    }
    const codes = house.codes;
    if (codes.gar) this.gar.set(row, Number(codes.gar));
    if (codes.fias) this.setGuid(row, codes.fias);
    if (codes.osm) {
      const kind = OSM_KINDS.indexOf(codes.osm[0]);
      if (kind <= 0) throw new Error(`house store: bad OSM id ${codes.osm}`);
      this.osmKind.set(row, kind);
      this.osmId.set(row, Number(codes.osm.slice(1)));
    }
    if (house.flatCount) this.flatCount.set(row, Math.min(house.flatCount, 65535));
    if (house.cadnum) encodeCadnum(house.cadnum, this.cadnum.chunkFor(row), this.cadnum.offset(row), this.cadnumOther);
    return row;
  }

  /**
   * Appends a batch of packed houses (house-pack.ts), the same rows `add` would make of the records they were
   * packed from; `parentIds[i]`, `municipalIds[i]`: the ids of the batch's i-th parent and municipal key. The
   * batch's part tuples, sources and postcodes are numbered first, in their order (see house-pack.ts).
   */
  addPacked(batch: PackedHouses, parentIds: Int32Array, municipalIds: Int32Array): void {
    const labelIds = new Int32Array(batch.labels.length / LABEL_PARTS);
    const l = batch.labels;
    for (let i = 0; i < labelIds.length; i++) {
      const at = i * LABEL_PARTS;
      labelIds[i] = this.labels.id({ number: l[at], block: l[at + 1], building: l[at + 2], liter: l[at + 3], construction: l[at + 4] });
    }
    const sourceIds = batch.sources.map((source) => this.sources.id(source));
    const postcodeIds = batch.postcodes.map((postcode) => this.postcodes.id(postcode));
    const otherBase = this.cadnumOther.length;
    for (const text of batch.cadnumOther) this.cadnumOther.push(text);
    for (let i = 0; i < batch.count; i++) {
      const row = this.newRow(parentIds[batch.parent[i]], batch.municipal[i] < 0 ? -1 : municipalIds[batch.municipal[i]]);
      this.label.set(row, labelIds[batch.label[i]]);
      if (batch.flags[i] !== 0) this.flags.set(row, batch.flags[i]);
      if (batch.source[i] >= 0) this.setSource(row, sourceIds[batch.source[i]], batch.sources[batch.source[i]]);
      if (batch.postcode[i] >= 0 && postcodeIds[batch.postcode[i]] !== 0) this.postcode.set(row, postcodeIds[batch.postcode[i]]);
      if (batch.gar[i] !== 0) this.gar.set(row, batch.gar[i]);
      if (batch.hasFias[i]) this.fias.chunkFor(row).set(batch.fias.subarray(i * 16, i * 16 + 16), this.fias.offset(row));
      const hi = batch.cadnum[i * 2];
      if (hi !== 0) {
        const words = this.cadnum.chunkFor(row);
        const at = this.cadnum.offset(row);
        words[at] = hi;
        words[at + 1] = hi === CADNUM_EXCEPTION ? batch.cadnum[i * 2 + 1] + otherBase : batch.cadnum[i * 2 + 1];
      }
    }
  }

  /** a new row with its parent and municipal entity (`add`); past `spillAfterRows`, each full chunk spilled first */
  private newRow(parentId: number, municipal: number): number {
    const row = this.count++;
    if (municipal >= 0) {
      this.municipalRows.push(row);
      this.municipalIds.push(municipal);
    }
    if (row >= this.spillAfterRows && this.parent.offset(row) === 0) {
      this.spillFile ??= new SpillFile(this.options.spillDir);
      for (const column of this.columns) column.spillBefore(this.parent.chunkOf(row), this.spillFile);
    }
    this.parent.set(row, parentId);
    return row;
  }

  private setSource(row: number, source: number, name: string | undefined): void {
    if (source > 255) throw new Error(`house store: more than 255 sources (${name})`);
    if (source !== 0) this.source.set(row, source);
  }

  /** renumbers the municipal ids of the sparse list (−1: dropped, the house has its parent's) */
  remapMunicipal(map: (id: number) => number): void {
    const ids = this.municipalIds.data;
    for (let i = 0; i < this.municipalIds.length; i++) if (ids[i] >= 0) ids[i] = map(ids[i]);
  }

  /** the municipal id of `row` when it is not its parent's, else −1 (a scan of the sparse list: tests, small models) */
  municipalOf(row: number): number {
    const rows = this.municipalRows.data;
    for (let i = 0; i < this.municipalRows.length; i++) if (rows[i] === row) return this.municipalIds.data[i];
    return -1;
  }

  parentIdOf(row: number): number {
    return this.parent.get(row);
  }
  /** latitude in degrees, NaN when unknown */
  latOf(row: number): number {
    const value = this.lat.get(row);
    return value === NO_COORDINATE ? NaN : value / COORDINATE_SCALE;
  }
  lonOf(row: number): number {
    const value = this.lon.get(row);
    return value === NO_COORDINATE ? NaN : value / COORDINATE_SCALE;
  }
  garOf(row: number): number {
    return this.gar.get(row);
  }
  fiasOf(row: number): string {
    const chunk = this.fias.chunkAt(this.fias.chunkOf(row));
    return chunk === null ? '' : guidText(chunk, this.fias.offset(row) / 16);
  }

  /** the row as a merged house with parent index `parent` */
  get(row: number, parent: number): MergedHouse {
    const codes: Codes = {};
    const fias = this.fiasOf(row);
    if (fias) codes.fias = fias;
    const gar = this.gar.get(row);
    if (gar) codes.gar = String(gar);
    const osmKind = this.osmKind.get(row);
    if (osmKind) codes.osm = OSM_KINDS[osmKind] + String(this.osmId.get(row));
    const label = this.label.get(row);
    const labels = this.labels;
    const house: MergedHouse = { parent, number: labels.part(label, 0), codes, source: this.sources.strings[this.source.get(row)] };
    const optional = (field: 'block' | 'building' | 'liter' | 'construction', index: number) => {
      const text = labels.part(label, index);
      if (text) house[field] = text;
    };
    optional('block', 1);
    optional('building', 2);
    optional('liter', 3);
    optional('construction', 4);
    const flags = this.flags.get(row);
    if (flags & FLAG_POSSESSION) house.possession = true;
    if (flags & FLAG_STEAD) house.stead = true;
    if (flags & FLAG_MULTI_FLAT_KNOWN) house.multiFlat = (flags & FLAG_MULTI_FLAT) !== 0;
    const postcode = this.postcode.get(row);
    if (postcode) house.postcode = this.postcodes.strings[postcode];
    const lat = this.latOf(row);
    if (!Number.isNaN(lat)) {
      house.lat = lat;
      house.lon = this.lonOf(row);
    }
    const flatCount = this.flatCount.get(row);
    if (flatCount) house.flatCount = flatCount;
    if (this.municipalRows.length > 0) {
      const municipal = this.municipalOf(row);
      if (municipal >= 0) house.municipal = municipal;
    }
    const cadnumChunk = this.cadnum.chunkAt(this.cadnum.chunkOf(row));
    if (cadnumChunk !== null) {
      const cadnum = decodeCadnum(cadnumChunk as Uint32Array, this.cadnum.offset(row), this.cadnumOther);
      if (cadnum) house.cadnum = cadnum;
    }
    return house;
  }

  /**
   * Rows sorted by parent: `parentIndexOf(parentId)` maps an interned key id to an object index (or -1 for
   * a house to drop). Counting sort, stable within a parent (houses keep their source order); the parent ids
   * are read twice in store order (a spilled store reads its chunks back in turn) rather than kept resolved,
   * which cost 4 bytes per house for as long as the model lived. `counts[index]` is the houses of object
   * `index`, so the houses of an object are `rows[start … start + counts[index])`, objects in index order.
   */
  order(parentIndexOf: (parentId: number) => number, objectCount: number): { rows: Uint32Array; counts: Uint32Array } {
    const counts = new Uint32Array(objectCount);
    let kept = 0;
    for (let row = 0; row < this.count; row++) {
      const index = parentIndexOf(this.parent.get(row));
      if (index >= 0) {
        counts[index]++;
        kept++;
      }
    }
    const next = new Uint32Array(objectCount);
    for (let i = 1; i < objectCount; i++) next[i] = next[i - 1] + counts[i - 1];
    const rows = new Uint32Array(kept);
    for (let row = 0; row < this.count; row++) {
      const index = parentIndexOf(this.parent.get(row));
      if (index >= 0) rows[next[index]++] = row;
    }
    return { rows, counts };
  }

  /** `inverse[row]` = the row's position in `rows`, −1 for a row not in it (what a spilled column is gathered by) */
  private inverseOf(rows: Uint32Array): () => Int32Array {
    let inverse: Int32Array | null = null;
    return () => {
      if (inverse === null) {
        inverse = new Int32Array(this.count).fill(-1);
        for (let i = 0; i < rows.length; i++) inverse[rows[i]] = i;
      }
      return inverse;
    };
  }

  /**
   * The dictionary position (index in `rows`) of the last house holding each of `refs`' GAR ids and GUIDs, −1
   * when none: `gar[k]` for `refs.gar[k]`, `fias[k]` for the k-th GUID. The two columns are streamed once in
   * store order, a chunk at a time, and only the houses referred to are kept: gathering both columns into
   * dictionary order and radix-sorting them by id (as this once did) took 16 bytes per house, ≈ 85 MB of the
   * merge's peak at 10 M houses.
   */
  positionsOf(rows: Uint32Array, refs: HouseReferences): { gar: Int32Array; fias: Int32Array } {
    const gar = new Int32Array(refs.gar.length).fill(-1);
    const fias = new Int32Array(refs.fiasKeys.length).fill(-1);
    // 1. the rows holding a referenced id (ascending: store order) and which reference each holds
    const garHits = new Int32Builder();
    const fiasHits = new Int32Builder();
    const marked = new Uint8Array((this.count + 7) >>> 3);
    const mark = (row: number) => (marked[row >>> 3] |= 1 << (row & 7));
    if (refs.gar.length > 0) {
      for (const { first, chunk } of this.gar.chunksInOrder()) {
        const end = Math.min(chunk.length, this.count - first);
        for (let i = 0; i < end; i++) {
          const id = chunk[i];
          const k = id === 0 ? -1 : indexOfSorted(refs.gar, id);
          if (k < 0) continue;
          garHits.push(first + i, k);
          mark(first + i);
        }
      }
    }
    if (refs.fiasKeys.length > 0) {
      for (const { first, chunk } of this.fias.chunksInOrder()) {
        const end = Math.min(chunk.length / 16, this.count - first);
        for (let i = 0; i < end; i++) {
          const k = guidIndex(refs, chunk, i * 16);
          if (k < 0) continue;
          fiasHits.push(first + i, k);
          mark(first + i);
        }
      }
    }
    // 2. their positions: one pass over `rows` (a later position holding the same id wins)
    const hitAt = (hits: Int32Builder, row: number): number => {
      let lo = 0;
      let hi = hits.length >>> 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (hits.data[mid * 2] < row) lo = mid + 1;
        else hi = mid;
      }
      return lo < hits.length >>> 1 && hits.data[lo * 2] === row ? hits.data[lo * 2 + 1] : -1;
    };
    for (let position = 0; position < rows.length; position++) {
      const row = rows[position];
      if ((marked[row >>> 3] & (1 << (row & 7))) === 0) continue;
      const k = hitAt(garHits, row);
      if (k >= 0) gar[k] = position;
      const f = hitAt(fiasHits, row);
      if (f >= 0) fias[f] = position;
    }
    return { gar, fias };
  }

  /** the postcode id of `row` (0: none), `postcodeText` its postcode */
  postcodeIdOf(row: number): number {
    return this.postcode.get(row);
  }
  /** how many postcode ids there are (0 included) */
  get postcodeIdCount(): number {
    return this.postcodes.strings.length;
  }
  postcodeText(id: number): string {
    return this.postcodes.strings[id];
  }

  /** rows 0…count−1: the store's rows as added */
  allRows(): Uint32Array {
    const rows = new Uint32Array(this.count);
    for (let i = 0; i < rows.length; i++) rows[i] = i;
    return rows;
  }

  /**
   * The blob's house sections for `rows` (the store's rows in dictionary order). Core: one label id per
   * house, per label its key (folded by fold.ts) as offset/length/base length into the deduplicated key
   * text, and coordinates in degrees × 10⁶ when any house has them. Host: the label parts, flags,
   * postcodes (u16 ids while there are fewer than 65,536), packed cadastral numbers, flat counts, GAR ids,
   * OSM ids and FIAS GUIDs, each only when some house has one; the sparse municipal list as two u32
   * columns, the houses' dictionary positions (ascending) and their municipal ids. A column is gathered block
   * by block as it is written (`BinBlocks`), so the writer never holds a whole column of a national store.
   */
  sections(rows: Uint32Array): HouseSections {
    const labels = this.labels;
    const inverse = this.inverseOf(rows);
    const keys = (): { labelCore: Int32Array; keyChars: Uint16Array } => {
      const labelCore = new Int32Array(labels.count * 3);
      const keyOffsets = new Map<string, number>();
      let keyText = '';
      for (let label = 0; label < labels.count; label++) {
        const { key, base } = houseKey(labels.part(label, 0), labels.part(label, 1), labels.part(label, 2), labels.part(label, 3));
        let offset = keyOffsets.get(key);
        if (offset === undefined) {
          offset = keyText.length;
          keyOffsets.set(key, offset);
          keyText += key;
        }
        labelCore.set([offset, key.length, base], label * 3);
      }
      const keyChars = new Uint16Array(keyText.length);
      for (let i = 0; i < keyText.length; i++) keyChars[i] = keyText.charCodeAt(i);
      return { labelCore, keyChars };
    };
    let keyTables: ReturnType<typeof keys> | null = null;
    const keyTable = () => (keyTables ??= keys());
    // one buffer for the blocks of every column streamed below, made for the widest: the writer writes them one
    // after another, so a column's blocks never outlive it (a buffer per column left each for the collector:
    // 64 MB of GUIDs, 32 of cadastral numbers … at 4 Mi rows a block)
    const blockRows = Math.min(rows.length, BLOCK_ROWS);
    let shared: ArrayBuffer | null = null;
    const scratch = (bytesPerRow: number): ArrayBuffer =>
      (shared ??= new ArrayBuffer(blockRows * Math.max(bytesPerRow, ...this.streamedColumns().map((column) => column.bytesPerRow()))));
    /** a column in dictionary order, as blocks of bytes */
    const stream = (column: ChunkedColumn<TypedArray>, make?: TypedArrayConstructor<TypedArray>): Section => () => {
      return new BinBlocks(rows.length * column.bytesPerRow(make), function* () {
        const into = scratch(column.bytesPerRow(make));
        for (const block of column.gatherBlocks(rows, make, inverse, BLOCK_ROWS, into)) yield bytes(block);
      });
    };

    const core: HouseSections['core'] = {
      houses: stream(this.label),
      houseLabels: () => bytes(keyTable().labelCore),
      houseKeys: () => bytes(keyTable().keyChars),
    };
    if (this.lat.used) {
      const lat = this.lat;
      const lon = this.lon;
      core.houseCoords = () =>
        new BinBlocks(rows.length * 8, function* () {
          const lons = lon.gatherBlocks(rows, undefined, inverse, BLOCK_ROWS, new ArrayBuffer(blockRows * 4));
          let shared: Int32Array | null = null;
          for (const latBlock of lat.gatherBlocks(rows, undefined, inverse, BLOCK_ROWS, new ArrayBuffer(blockRows * 4))) {
            const lonBlock = lons.next().value as Int32Array;
            shared ??= new Int32Array(latBlock.length * 2);
            const coords = shared.subarray(0, latBlock.length * 2);
            for (let i = 0; i < latBlock.length; i++) {
              const has = latBlock[i] !== NO_COORDINATE;
              coords[i * 2] = has ? Math.round(latBlock[i] / 10) : NO_COORD_E6;
              coords[i * 2 + 1] = has ? Math.round(lonBlock[i] / 10) : NO_COORD_E6;
            }
            yield bytes(coords);
          }
        });
    }

    const host: HouseSections['host'] = {
      labels: () => bytes(labels.parts.data.subarray(0, labels.parts.length)),
      pool: () => labels.pool.strings,
    };
    const put = (name: string, column: ChunkedColumn<TypedArray>, make?: TypedArrayConstructor<TypedArray>) => {
      if (column.used) host[name] = stream(column, make);
    };
    put('flags', this.flags);
    if (this.postcode.used) {
      put('postcode', this.postcode, this.postcodes.size <= 0x10000 ? Uint16Array : Uint32Array);
      host.postcodes = () => this.postcodes.strings;
    }
    if (this.cadnum.used) {
      put('cadnum', this.cadnum);
      host.cadnumOther = () => this.cadnumOther;
    }
    put('flatCount', this.flatCount);
    put('gar', this.gar);
    if (this.osmKind.used) {
      put('osmType', this.osmKind);
      put('osmId', this.osmId);
    }
    put('fias', this.fias);
    if (this.municipalRows.length > 0) {
      let sparse: { houses: Uint32Array; ids: Uint32Array } | null = null;
      const municipal = () => (sparse ??= this.municipalSections(rows));
      host.municipalHouse = () => bytes(municipal().houses);
      host.municipalId = () => bytes(municipal().ids);
    }
    return { core, host };
  }

  /** the columns `sections` streams block by block (the widest sets the size of their shared block) */
  private streamedColumns(): ChunkedColumn<TypedArray>[] {
    return [this.label, this.flags, this.postcode, this.cadnum, this.flatCount, this.gar, this.osmKind, this.osmId, this.fias]
      .filter((column) => column.used) as ChunkedColumn<TypedArray>[];
  }

  /** closes the spill file (its space is freed); the store can no longer read spilled rows */
  close(): void {
    this.spillFile?.close();
  }

  /** the sparse municipal list in dictionary order: positions of `rows` that are listed, and their ids */
  private municipalSections(rows: Uint32Array): { houses: Uint32Array; ids: Uint32Array } {
    const idOf = new Map<number, number>();
    for (let i = 0; i < this.municipalRows.length; i++) {
      const id = this.municipalIds.data[i];
      if (id >= 0) idOf.set(this.municipalRows.data[i], id);
    }
    const houses: number[] = [];
    const ids: number[] = [];
    if (idOf.size > 0) {
      for (let i = 0; i < rows.length; i++) {
        const id = idOf.get(rows[i]);
        if (id !== undefined) {
          houses.push(i);
          ids.push(id);
        }
      }
    }
    return { houses: Uint32Array.from(houses), ids: Uint32Array.from(ids) };
  }

  private setGuid(row: number, guid: string): void {
    if (!guidInto(guid, this.fias.chunkFor(row), this.fias.offset(row))) throw new Error(`house store: bad FIAS GUID ${guid}`);
  }
}
