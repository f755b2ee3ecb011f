/**
 * Houses packed for another thread: a reader in a worker (sources/gar-regions.ts) turns its `HouseRecord`s into
 * columns here, and the merge's thread appends them to its house store (`HouseStore.addPacked`, through
 * `ModelBuilder.addPackedHouses`) without a JS object per house and without the string look-ups that `addHouse`
 * makes per house (parent key, part tuple, postcode, GUID parsed, cadastral number encoded): the worker makes them.
 *
 * Strings are numbered per batch, one local list per kind (parent keys, municipal keys, sources, postcodes, part
 * tuples), each in the order of its first use in the batch. The merge's thread numbers a batch's strings in that
 * order before it appends its rows, which gives every string the id `addHouse` would have given it row by row
 * (a new string takes the next id at its first use either way). So a batch must not straddle a house added
 * otherwise: `HousePacker.add` refuses what it cannot pack (coordinates, OSM ids, flat counts: no GAR house has
 * them) and its caller flushes the batch before handing that house on as a record.
 */
import type { HouseRecord } from './source-model.js';
import { FLAG_MULTI_FLAT, FLAG_MULTI_FLAT_KNOWN, FLAG_POSSESSION, FLAG_STEAD } from '../format/house-flags.js';
import { LABEL_PARTS } from '../format/house-labels.js';
import { guidInto, guidText } from '../format/guid.js';
import { decodeCadnum, encodeCadnum } from '../format/cadnum.js';
import { internKey } from './columns.js';

/** why the merge rejects a house without one (`hasHouseNumber`) */
export const HOUSE_WITHOUT_NUMBER = 'house without a number';

/** a house has a number to find it by (else the merge rejects it: `ModelBuilder.addHouse`) */
export function hasHouseNumber(house: Pick<HouseRecord, 'number' | 'block' | 'building' | 'construction'>): boolean {
  return !!(house.number || house.block || house.building || house.construction);
}

/** A batch of packed houses; its typed arrays are transferred between threads. */
export interface PackedHouses {
  count: number;
  /** per house: index in `parents`, in `municipals` (−1: its parent's), in `labels`, in `sources` (−1: none), in `postcodes` (−1: none) */
  parent: Int32Array;
  municipal: Int32Array;
  label: Int32Array;
  source: Int32Array;
  postcode: Int32Array;
  /** per house: HouseStore's flags byte; the GAR id (0: none); the GUID's 16 bytes (`hasFias`); the cadastral number's two words (cadnum.ts; hi 0: none) */
  flags: Uint8Array;
  gar: Float64Array;
  hasFias: Uint8Array;
  fias: Uint8Array;
  cadnum: Uint32Array;
  parents: string[];
  municipals: string[];
  sources: string[];
  postcodes: string[];
  /** LABEL_PARTS strings per label: number, block, building, liter, construction */
  labels: string[];
  /** the texts of cadastral numbers of other shapes (`CADNUM_EXCEPTION` rows refer to them by index) */
  cadnumOther: string[];
}

/** the typed arrays of a batch, to transfer */
export function packedBuffers(batch: PackedHouses): ArrayBuffer[] {
  return [batch.parent, batch.municipal, batch.label, batch.source, batch.postcode, batch.flags, batch.gar, batch.hasFias, batch.fias, batch.cadnum].map(
    (array) => array.buffer as ArrayBuffer,
  );
}

/** numbers strings in the order of their first use */
class LocalPool {
  private readonly ids = new Map<string, number>();
  readonly strings: string[] = [];
  id(text: string): number {
    return internKey(this.ids, this.strings, text);
  }
}

/** Packs houses into batches of at most `capacity`. */
export class HousePacker {
  private batch!: PackedHouses;
  private parents!: LocalPool;
  private municipals!: LocalPool;
  private sources!: LocalPool;
  private postcodes!: LocalPool;
  private labelIds!: Map<string, number>;
  private numberIds!: Map<string, number>;

  constructor(private readonly capacity = 65536) {
    this.reset();
  }

  get count(): number {
    return this.batch.count;
  }

  /** packs `house` (false: it has what a batch does not carry, see the module comment) */
  add(house: HouseRecord): boolean {
    const codes = house.codes;
    if (codes.osm || house.flatCount || (house.lat !== undefined && house.lon !== undefined && Number.isFinite(house.lat) && Number.isFinite(house.lon))) return false;
    const gar = codes.gar ? Number(codes.gar) : 0;
    if (!Number.isInteger(gar) || gar <= 0 !== !codes.gar) return false;
    const b = this.batch;
    const row = b.count;
    if (codes.fias && !guidInto(codes.fias, b.fias, row * 16)) return false;
    b.hasFias[row] = codes.fias ? 1 : 0;
    b.count++;
    b.parent[row] = this.parents.id(house.parent);
    b.municipal[row] = house.municipal === undefined ? -1 : this.municipals.id(house.municipal);
    b.label[row] = this.labelId(house);
    b.source[row] = house.source ? this.sources.id(house.source) : -1;
    b.postcode[row] = house.postcode ? this.postcodes.id(house.postcode) : -1;
    let flags = 0;
    if (house.possession) flags |= FLAG_POSSESSION;
    if (house.stead) flags |= FLAG_STEAD;
    if (house.multiFlat !== undefined) flags |= FLAG_MULTI_FLAT_KNOWN | (house.multiFlat ? FLAG_MULTI_FLAT : 0);
    b.flags[row] = flags;
    b.gar[row] = gar;
    encodeCadnum(house.cadnum, b.cadnum, row * 2, b.cadnumOther);
    return true;
  }

  get full(): boolean {
    return this.batch.count >= this.capacity;
  }

  /** the batch packed so far (null: none), a new one begun */
  take(): PackedHouses | null {
    if (this.batch.count === 0) return null;
    const batch = this.batch;
    batch.parents = this.parents.strings;
    batch.municipals = this.municipals.strings;
    batch.sources = this.sources.strings;
    batch.postcodes = this.postcodes.strings;
    this.reset();
    return batch;
  }

  /** the batch's id of the house's part tuple (a number alone, most houses, keyed by itself: no key string made) */
  private labelId(house: HouseRecord): number {
    const numberOnly = !house.block && !house.building && !house.liter && !house.construction;
    const ids = numberOnly ? this.numberIds : this.labelIds;
    const key = numberOnly ? house.number : `${house.number}\u0001${house.block ?? ''}\u0001${house.building ?? ''}\u0001${house.liter ?? ''}\u0001${house.construction ?? ''}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = this.batch.labels.length / LABEL_PARTS;
      ids.set(key, id);
      this.batch.labels.push(house.number ?? '', house.block ?? '', house.building ?? '', house.liter ?? '', house.construction ?? '');
    }
    return id;
  }

  private reset(): void {
    const n = this.capacity;
    this.batch = {
      count: 0,
      parent: new Int32Array(n), municipal: new Int32Array(n), label: new Int32Array(n), source: new Int32Array(n), postcode: new Int32Array(n),
      flags: new Uint8Array(n), gar: new Float64Array(n), hasFias: new Uint8Array(n), fias: new Uint8Array(n * 16), cadnum: new Uint32Array(n * 2),
      parents: [], municipals: [], sources: [], postcodes: [], labels: [], cadnumOther: [],
    };
    this.parents = new LocalPool();
    this.municipals = new LocalPool();
    this.sources = new LocalPool();
    this.postcodes = new LocalPool();
    this.labelIds = new Map();
    this.numberIds = new Map();
  }
}

/** house `row` of a batch as the record it was packed from (for a sink without `addPackedHouses`) */
export function unpackHouse(b: PackedHouses, row: number): HouseRecord {
  const codes: HouseRecord['codes'] = {};
  if (b.hasFias[row]) codes.fias = guidText(b.fias, row);
  if (b.gar[row]) codes.gar = String(b.gar[row]);
  const part = (index: number) => b.labels[b.label[row] * LABEL_PARTS + index];
  const house: HouseRecord = { parent: b.parents[b.parent[row]], number: part(0), codes } as HouseRecord;
  const optional = (field: 'block' | 'building' | 'liter' | 'construction', index: number) => {
    if (part(index)) house[field] = part(index);
  };
  optional('block', 1);
  optional('building', 2);
  optional('liter', 3);
  optional('construction', 4);
  const flags = b.flags[row];
  if (flags & FLAG_POSSESSION) house.possession = true;
  if (flags & FLAG_STEAD) house.stead = true;
  if (flags & FLAG_MULTI_FLAT_KNOWN) house.multiFlat = (flags & FLAG_MULTI_FLAT) !== 0;
  if (b.postcode[row] >= 0) house.postcode = b.postcodes[b.postcode[row]];
  const cadnum = b.cadnum[row * 2] === 0 ? '' : decodeCadnum(b.cadnum, row * 2, b.cadnumOther);
  if (cadnum) house.cadnum = cadnum;
  if (b.municipal[row] >= 0) house.municipal = b.municipals[b.municipal[row]];
  if (b.source[row] >= 0) house.source = b.sources[b.source[row]];
  return house;
}
