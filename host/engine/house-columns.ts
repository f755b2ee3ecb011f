/**
 * The host's house columns of a dictionary blob (docs/DESIGN.md "Blob format", host.houses) as typed
 * arrays, and the id index over them. A house costs what the blob stores: no JS object, no string per
 * house. Label ids, keys and coordinates stay in core memory (read through WasmCore.i32At).
 *
 * The id index (`HouseIdIndex`) is built on the first id lookup: house numbers ordered by GAR id and by
 * the first four bytes of the FIAS GUID (a radix sort, 4 bytes per house each), found by binary search;
 * OSM ids (only houses that have one) go into a Map.
 */

/** pool ids per label: number, block (корпус), building (строение), liter, construction (сооружение) */
export const LABEL_PARTS = 5;

export interface HouseColumns {
  labels: Int32Array;
  pool: string[];
  flags: Uint8Array;
  /** id into `postcodes`; u16 when the blob has fewer than 65,536 postcodes */
  postcode: Uint16Array | Uint32Array;
  postcodes: string[];
  /** cadnum.ts words, two per house */
  cadnum: Uint32Array;
  cadnumOther: string[];
  flatCount: Uint16Array;
  gar: Uint32Array;
  osmType: Uint8Array;
  osmId: Float64Array;
  /** 16 bytes per house */
  fias: Uint8Array;
}

type Ctor<T> = (new (b: ArrayBuffer) => T) & { BYTES_PER_ELEMENT: number };

/** A copy of `bytes` as T (the copy aligns it, and lets the blob's buffer go). */
const copy = <T>(bytes: Uint8Array, Type: new (b: ArrayBuffer) => T): T =>
  new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

/** A column; absent from the blob (no house has a value) → an empty array, read as `undefined` → 0 / ''. */
function column<T>(bytes: unknown, Type: Ctor<T>): T {
  return bytes instanceof Uint8Array ? copy(bytes, Type) : new Type(new ArrayBuffer(0));
}

/** The house columns of `host.houses` for `count` houses. */
export function houseColumns(houses: Record<string, Uint8Array | string[]> | undefined, count: number): HouseColumns {
  const h = houses ?? {};
  const postcodes = (h.postcodes as string[] | undefined) ?? [''];
  const postcode = h.postcode instanceof Uint8Array && h.postcode.byteLength === count * 4
    ? copy(h.postcode, Uint32Array)
    : column(h.postcode, Uint16Array);
  return {
    labels: column(h.labels, Int32Array),
    pool: (h.pool as string[] | undefined) ?? [''],
    flags: column(h.flags, Uint8Array),
    postcode,
    postcodes,
    cadnum: column(h.cadnum, Uint32Array),
    cadnumOther: (h.cadnumOther as string[] | undefined) ?? [],
    flatCount: column(h.flatCount, Uint16Array),
    gar: column(h.gar, Uint32Array),
    osmType: column(h.osmType, Uint8Array),
    osmId: column(h.osmId, Float64Array),
    fias: column(h.fias, Uint8Array),
  };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The GUID of row `id` of a 16-bytes-per-row column, '' when absent or all zero. */
export function guidText(fias: Uint8Array, id: number): string {
  const at = id * 16;
  if (at + 16 > fias.length) return '';
  let hex = '';
  let zero = true;
  for (let i = at; i < at + 16; i++) {
    if (fias[i] !== 0) zero = false;
    hex += HEX[fias[i]];
  }
  if (zero) return '';
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Row numbers 0…n−1 ordered by `keys` (stable LSD radix sort, two 16-bit passes). */
export function orderBy(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  const first = new Uint32Array(n);
  const out = new Uint32Array(n);
  const counts = new Uint32Array(0x10001);
  for (let i = 0; i < n; i++) counts[(keys[i] & 0xffff) + 1]++;
  for (let b = 1; b <= 0x10000; b++) counts[b] += counts[b - 1];
  for (let i = 0; i < n; i++) first[counts[keys[i] & 0xffff]++] = i;
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(keys[i] >>> 16) + 1]++;
  for (let b = 1; b <= 0x10000; b++) counts[b] += counts[b - 1];
  for (let j = 0; j < n; j++) {
    const row = first[j];
    out[counts[keys[row] >>> 16]++] = row;
  }
  return out;
}

/** The first position in `order` whose key is ≥ `key`. */
function lowerBound(keys: Uint32Array, order: Uint32Array, key: number): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[order[mid]] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first four bytes of each 16-byte GUID, big-endian. */
function guidPrefixes(fias: Uint8Array, count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count && i * 16 + 16 <= fias.length; i++) {
    const at = i * 16;
    out[i] = ((fias[at] << 24) | (fias[at + 1] << 16) | (fias[at + 2] << 8) | fias[at + 3]) >>> 0;
  }
  return out;
}

const GUID_HEX = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/;

/** Houses by `fias:<guid>`, `gar:<id>` and `osm:<N|W|R><id>` keys. */
export class HouseIdIndex {
  private readonly byGar: Uint32Array;
  private readonly fiasKeys: Uint32Array;
  private readonly byFias: Uint32Array;
  private readonly osm = new Map<string, number>();

  constructor(private readonly h: HouseColumns, count: number) {
    this.byGar = h.gar.length ? orderBy(h.gar) : new Uint32Array(0);
    this.fiasKeys = guidPrefixes(h.fias, h.fias.length ? count : 0);
    this.byFias = orderBy(this.fiasKeys);
    for (let i = 0; i < h.osmType.length; i++) {
      const t = h.osmType[i];
      if (!t) continue;
      const key = `${'NWR'[t - 1]}${h.osmId[i]}`;
      if (!this.osm.has(key)) this.osm.set(key, i);
    }
  }

  /** the house with this key, −1 when none */
  find(key: string): number {
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    const value = key.slice(colon + 1);
    if (kind === 'gar') return this.findGar(value);
    if (kind === 'fias') return this.findFias(value);
    if (kind === 'osm') return this.osm.get(value) ?? -1;
    return -1;
  }

  private findGar(value: string): number {
    if (!/^\d{1,10}$/.test(value)) return -1;
    const id = Number(value);
    if (id === 0 || id > 0xffffffff) return -1;
    // GAR ids repeat only across versions of a house; the last one of a run is the current (as a Map kept it)
    let at = lowerBound(this.h.gar, this.byGar, id + 1) - 1;
    return at >= 0 && this.h.gar[this.byGar[at]] === id ? this.byGar[at] : -1;
  }

  private findFias(value: string): number {
    if (!GUID_HEX.test(value)) return -1;
    const hex = value.replace(/-/g, '');
    const prefix = Number.parseInt(hex.slice(0, 8), 16) >>> 0;
    const fias = this.h.fias;
    let found = -1;
    for (let at = lowerBound(this.fiasKeys, this.byFias, prefix); at < this.byFias.length; at++) {
      const row = this.byFias[at];
      if (this.fiasKeys[row] !== prefix) break;
      let same = true;
      for (let i = 0; i < 16 && same; i++) same = fias[row * 16 + i] === Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
      if (same) found = row; // the last of equal GUIDs, as a Map kept it
    }
    return found;
  }
}
