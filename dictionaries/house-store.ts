/**
 * Columnar, append-only store of houses: one growable typed array per field, strings that repeat (house
 * numbers, корпус/строение values, postcodes, OKATO/OKTMO) interned in a deduplicated pool, strings that do
 * not (cadastral numbers) appended to a UTF-8 arena, the FIAS GUID packed into 16 bytes.
 *
 * Columns a source never fills are never allocated (`LazyColumn`), so a GAR-only build carries no
 * coordinates and an OSM-only build no GUIDs. Memory per house, all columns present:
 *   parent 4 + number 4 + block/building/liter/construction 16 + flags 1 + source 1 + postcode 4
 *   + lat/lon 8 (Int32 degrees × 10⁷, as OSM) + gar 4 + fias 16 + osm 9 + okato/oktmo/ifns 12 + flatCount 2
 *   + cadnum 10 offset/length + ≈18 bytes text ≈ 115 bytes at most. Measured on 2 M GAR-like houses (no OSM
 *   columns, 60 % with a cadastral number, growth slack included): 78 bytes per house, so a national GAR
 *   build holds ≈ 2.7 GB of houses (`node --max-old-space-size` is not involved: typed arrays live outside
 *   the JS heap), plus the pool (≈ 1 M distinct numbers, ≈ 60 MB).
 * Growth doubles the arrays, so peak is up to 2× during a resize of one column, never of all at once.
 *
 * `order(parentIndex)` sorts rows by their resolved parent with a counting sort (two passes, one Uint32Array
 * of row numbers), which is how the merged model yields houses grouped by parent.
 */
import type { Codes, HouseRecord } from './model.js';
import type { MergedHouse } from './merged.js';

type TypedArray = Int32Array | Uint32Array | Uint8Array | Uint16Array | Float32Array | Float64Array;
type TypedArrayConstructor<T extends TypedArray> = { new (length: number): T };

/** a typed array that exists only once a non-default value was written, and grows by doubling */
class LazyColumn<T extends TypedArray> {
  data: T | null = null;
  constructor(
    private readonly make: TypedArrayConstructor<T>,
    private readonly width = 1,
    private readonly fill?: number,
  ) {}

  set(row: number, value: number, capacity: number): void {
    if (this.data === null) {
      this.data = new this.make(capacity * this.width);
      if (this.fill !== undefined) this.data.fill(this.fill);
    } else if (this.data.length < (row + 1) * this.width) {
      const grown = new this.make(capacity * this.width);
      if (this.fill !== undefined) grown.fill(this.fill);
      grown.set(this.data as never);
      this.data = grown;
    }
    this.data[row * this.width] = value;
  }

  setAt(row: number, offset: number, value: number, capacity: number): void {
    this.set(row, this.get(row), capacity); // ensures allocation and size
    this.data![row * this.width + offset] = value;
  }

  get(row: number, offset = 0): number {
    const index = row * this.width + offset;
    if (this.data === null || index >= this.data.length) return this.fill ?? 0;
    return this.data[index];
  }
}

/** deduplicated strings; id 0 is the empty string */
export class StringPool {
  private readonly ids = new Map<string, number>([['', 0]]);
  readonly strings: string[] = [''];
  id(text: string | undefined): number {
    if (text === undefined || text === '') return 0;
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(text);
      this.ids.set(text, id);
    }
    return id;
  }
  get size(): number {
    return this.strings.length;
  }
}

/** non-deduplicated UTF-8 text, addressed by row */
class TextArena {
  private bytes = new Uint8Array(0);
  private used = 0;
  private readonly start = new LazyColumn(Float64Array, 1, -1);
  private readonly length = new LazyColumn(Uint16Array);
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  set(row: number, text: string | undefined, capacity: number): void {
    if (!text) return;
    const encoded = this.encoder.encode(text);
    if (this.used + encoded.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(1024, (this.used + encoded.length) * 2));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.bytes.set(encoded, this.used);
    this.start.set(row, this.used, capacity);
    this.length.set(row, encoded.length, capacity);
    this.used += encoded.length;
  }

  get(row: number): string | undefined {
    const start = this.start.get(row);
    if (start < 0) return undefined;
    return this.decoder.decode(this.bytes.subarray(start, start + this.length.get(row)));
  }
}

const FLAG_POSSESSION = 1;
const FLAG_STEAD = 2;
const FLAG_MULTI_FLAT = 4;
const FLAG_MULTI_FLAT_KNOWN = 8;
const OSM_KINDS = ['', 'N', 'W', 'R'];
const HEX = '0123456789abcdef';
const NO_COORDINATE = -0x80000000;
const COORDINATE_SCALE = 1e7;

export class HouseStore {
  count = 0;
  private capacity = 1024;
  readonly pool = new StringPool();
  private readonly sources = new StringPool();
  private readonly parent = new LazyColumn(Int32Array, 1, -1);
  private readonly number = new LazyColumn(Uint32Array);
  private readonly block = new LazyColumn(Uint32Array);
  private readonly building = new LazyColumn(Uint32Array);
  private readonly liter = new LazyColumn(Uint32Array);
  private readonly construction = new LazyColumn(Uint32Array);
  private readonly flags = new LazyColumn(Uint8Array);
  private readonly source = new LazyColumn(Uint8Array);
  private readonly postcode = new LazyColumn(Uint32Array);
  /** degrees × 10⁷ as OSM stores them (exact to 7 decimals, ±1 cm); NO_COORDINATE when unknown */
  private readonly lat = new LazyColumn(Int32Array, 1, NO_COORDINATE);
  private readonly lon = new LazyColumn(Int32Array, 1, NO_COORDINATE);
  private readonly gar = new LazyColumn(Uint32Array);
  private readonly fias = new LazyColumn(Uint8Array, 16);
  private readonly osmKind = new LazyColumn(Uint8Array);
  private readonly osmId = new LazyColumn(Float64Array);
  private readonly okato = new LazyColumn(Uint32Array);
  private readonly oktmo = new LazyColumn(Uint32Array);
  private readonly ifns = new LazyColumn(Uint32Array);
  private readonly flatCount = new LazyColumn(Uint16Array);
  private readonly cadnum = new TextArena();

  /** append a house whose parent is the interned key id `parentId`; returns the row */
  add(house: HouseRecord, parentId: number): number {
    const row = this.count++;
    if (this.count > this.capacity) this.capacity *= 2;
    const capacity = this.capacity;
    this.parent.set(row, parentId, capacity);
    this.setString(this.number, row, house.number);
    this.setString(this.block, row, house.block);
    this.setString(this.building, row, house.building);
    this.setString(this.liter, row, house.liter);
    this.setString(this.construction, row, house.construction);
    let flags = 0;
    if (house.possession) flags |= FLAG_POSSESSION;
    if (house.stead) flags |= FLAG_STEAD;
    if (house.multiFlat !== undefined) flags |= FLAG_MULTI_FLAT_KNOWN | (house.multiFlat ? FLAG_MULTI_FLAT : 0);
    if (flags !== 0) this.flags.set(row, flags, capacity);
    const source = this.sources.id(house.source);
    if (source > 255) throw new Error(`house store: more than 255 sources (${house.source})`);
    if (source !== 0) this.source.set(row, source, capacity);
    this.setString(this.postcode, row, house.postcode);
    if (house.lat !== undefined && house.lon !== undefined && Number.isFinite(house.lat) && Number.isFinite(house.lon)) {
      this.lat.set(row, Math.round(house.lat * COORDINATE_SCALE), capacity);
      this.lon.set(row, Math.round(house.lon * COORDINATE_SCALE), capacity);
    }
    const codes = house.codes;
    if (codes.gar) this.gar.set(row, Number(codes.gar), capacity);
    if (codes.fias) this.setGuid(row, codes.fias);
    if (codes.osm) {
      const kind = OSM_KINDS.indexOf(codes.osm[0]);
      if (kind <= 0) throw new Error(`house store: bad OSM id ${codes.osm}`);
      this.osmKind.set(row, kind, capacity);
      this.osmId.set(row, Number(codes.osm.slice(1)), capacity);
    }
    this.setString(this.okato, row, codes.okato);
    this.setString(this.oktmo, row, codes.oktmo);
    this.setString(this.ifns, row, codes.ifns);
    if (house.flatCount) this.flatCount.set(row, Math.min(house.flatCount, 65535), capacity);
    this.cadnum.set(row, house.cadnum, capacity);
    return row;
  }

  parentIdOf(row: number): number {
    return this.parent.get(row);
  }
  postcodeOf(row: number): string {
    return this.pool.strings[this.postcode.get(row)];
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
    if (this.fias.data === null) return '';
    let hex = '';
    let zero = true;
    for (let i = 0; i < 16; i++) {
      const byte = this.fias.get(row, i);
      if (byte !== 0) zero = false;
      hex += HEX[byte >> 4] + HEX[byte & 15];
    }
    if (zero) return '';
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** the row as a merged house with parent index `parent` */
  get(row: number, parent: number): MergedHouse {
    const s = this.pool.strings;
    const codes: Codes = {};
    const fias = this.fiasOf(row);
    if (fias) codes.fias = fias;
    const gar = this.gar.get(row);
    if (gar) codes.gar = String(gar);
    const osmKind = this.osmKind.get(row);
    if (osmKind) codes.osm = OSM_KINDS[osmKind] + String(this.osmId.get(row));
    if (this.okato.get(row)) codes.okato = s[this.okato.get(row)];
    if (this.oktmo.get(row)) codes.oktmo = s[this.oktmo.get(row)];
    if (this.ifns.get(row)) codes.ifns = s[this.ifns.get(row)];
    const house: MergedHouse = { parent, number: s[this.number.get(row)], codes, source: this.sources.strings[this.source.get(row)] };
    const optional = (field: 'block' | 'building' | 'liter' | 'construction', column: LazyColumn<Uint32Array>) => {
      const id = column.get(row);
      if (id) house[field] = s[id];
    };
    optional('block', this.block);
    optional('building', this.building);
    optional('liter', this.liter);
    optional('construction', this.construction);
    const flags = this.flags.get(row);
    if (flags & FLAG_POSSESSION) house.possession = true;
    if (flags & FLAG_STEAD) house.stead = true;
    if (flags & FLAG_MULTI_FLAT_KNOWN) house.multiFlat = (flags & FLAG_MULTI_FLAT) !== 0;
    const postcode = this.postcode.get(row);
    if (postcode) house.postcode = s[postcode];
    const lat = this.latOf(row);
    if (!Number.isNaN(lat)) {
      house.lat = lat;
      house.lon = this.lonOf(row);
    }
    const flatCount = this.flatCount.get(row);
    if (flatCount) house.flatCount = flatCount;
    const cadnum = this.cadnum.get(row);
    if (cadnum) house.cadnum = cadnum;
    return house;
  }

  /**
   * Rows sorted by parent: `parentIndexOf(parentId)` maps an interned key id to an object index (or -1 for
   * a house to drop). Counting sort, stable within a parent (houses keep their source order).
   */
  order(parentIndexOf: (parentId: number) => number, objectCount: number): { rows: Uint32Array; parents: Int32Array } {
    const parents = new Int32Array(this.count);
    const counts = new Uint32Array(objectCount + 1);
    let kept = 0;
    for (let row = 0; row < this.count; row++) {
      const index = parentIndexOf(this.parent.get(row));
      parents[row] = index;
      if (index >= 0) {
        counts[index + 1]++;
        kept++;
      }
    }
    for (let i = 1; i <= objectCount; i++) counts[i] += counts[i - 1];
    const rows = new Uint32Array(kept);
    for (let row = 0; row < this.count; row++) {
      const index = parents[row];
      if (index >= 0) rows[counts[index]++] = row;
    }
    return { rows, parents };
  }

  private setString(column: LazyColumn<Uint32Array>, row: number, text: string | undefined): void {
    const id = this.pool.id(text);
    if (id !== 0) column.set(row, id, this.capacity);
  }

  private setGuid(row: number, guid: string): void {
    const hex = guid.replace(/-/g, '').toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`house store: bad FIAS GUID ${guid}`);
    for (let i = 0; i < 16; i++) this.fias.setAt(row, i, parseInt(hex.slice(i * 2, i * 2 + 2), 16), this.capacity);
  }
}
