/**
 * The host's house columns of a dictionary blob (docs/DESIGN.md "Blob format", host.houses) as typed
 * arrays, and the id index over them. A house costs what the blob stores, or less: no JS object, no string
 * per house, and a national dictionary's codes (FIAS GUID, GAR id, cadastral number) read from the blob file
 * when asked for (`FixedRows` over a `ColdSection`). Label ids, keys and coordinates stay in core memory (read
 * through WasmCore.i32At).
 */
import { FixedRows, GuidIndex, KeyIndex, copy, isColdSection, last, numbers, u32Values, type ColdSection } from './columns.js';

export interface HouseColumns {
  labels: Int32Array;
  pool: string[];
  flags: Uint8Array;
  /** id into `postcodes`; u16 when the blob has fewer than 65,536 postcodes */
  postcode: Uint16Array | Uint32Array;
  postcodes: string[];
  /** cadnum.ts words, two per house (8 bytes) */
  cadnum: FixedRows;
  cadnumOther: string[];
  flatCount: Uint16Array;
  /** u32 per house */
  gar: FixedRows;
  osmType: Uint8Array;
  osmId: Float64Array;
  /** 16 bytes per house */
  fias: FixedRows;
  /** the few houses whose municipal entity is not their parent object's: ascending house ids … */
  municipalHouse: Uint32Array;
  /** … and the index of their entity in host.municipal */
  municipalId: Uint32Array;
}

/**
 * The house columns of `host.houses` for `count` houses. The codes a record shows but nothing matches on (FIAS
 * GUIDs, GAR ids, cadastral numbers: 28 bytes per house) may be sections left in the blob file (`ColdSection`).
 */
export function houseColumns(houses: Record<string, Uint8Array | string[] | ColdSection> | undefined, count: number): HouseColumns {
  const h = houses ?? {};
  const rows = (section: unknown, width: number) => new FixedRows(isColdSection(section) ? section : numbers(section, Uint8Array), width);
  const postcode = h.postcode instanceof Uint8Array && h.postcode.byteLength === count * 4 && count > 0
    ? copy(h.postcode, Uint32Array)
    : numbers(h.postcode, Uint16Array);
  return {
    labels: numbers(h.labels, Int32Array),
    pool: (h.pool as string[] | undefined) ?? [''],
    flags: numbers(h.flags, Uint8Array),
    postcode,
    postcodes: (h.postcodes as string[] | undefined) ?? [''],
    cadnum: rows(h.cadnum, 8),
    cadnumOther: (h.cadnumOther as string[] | undefined) ?? [],
    flatCount: numbers(h.flatCount, Uint16Array),
    gar: rows(h.gar, 4),
    osmType: numbers(h.osmType, Uint8Array),
    osmId: numbers(h.osmId, Float64Array),
    fias: rows(h.fias, 16),
    municipalHouse: numbers(h.municipalHouse, Uint32Array),
    municipalId: numbers(h.municipalId, Uint32Array),
  };
}

/** the municipal entity of house `id` when it is not its parent's (binary search of the sparse list), else −1 */
export function houseMunicipal(h: HouseColumns, id: number): number {
  const houses = h.municipalHouse;
  let low = 0;
  let high = houses.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = houses[middle];
    if (at === id) return h.municipalId[middle];
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * Houses by `fias:<guid>`, `gar:<id>` and `osm:<N|W|R><id>` keys, each kind's index built on the first lookup of
 * that kind: 4 bytes per house for GAR ids and for GUIDs; OSM ids (only houses that have one) in a Map. A GAR id
 * or GUID held by several rows answers the last (as a Map filled in row order did), an OSM id the first. A service
 * asked by FIAS GUIDs alone never builds the GAR index (at national scale a second of the first lookup and
 * 140 MB per worker).
 */
export class HouseIdIndex {
  private garIndex: KeyIndex | null = null;
  private fiasIndex: GuidIndex | null = null;
  private osmIndex: Map<string, number> | null = null;

  constructor(
    private readonly h: HouseColumns,
    private readonly count: number,
  ) {}

  private get byGar(): KeyIndex {
    // a cold column's keys are read whole to sort the rows, then read again at each probe
    const gar = this.h.gar;
    return (this.garIndex ??= new KeyIndex(u32Values(gar), undefined, gar.isCold ? (row) => gar.u32(row) : undefined));
  }

  private get byFias(): GuidIndex {
    return (this.fiasIndex ??= new GuidIndex(this.h.fias, this.count));
  }

  private get osm(): Map<string, number> {
    if (this.osmIndex === null) {
      const h = this.h;
      const osm = new Map<string, number>();
      for (let i = 0; i < h.osmType.length; i++) {
        const t = h.osmType[i];
        if (!t) continue;
        const key = `${'NWR'[t - 1]}${h.osmId[i]}`;
        if (!osm.has(key)) osm.set(key, i);
      }
      this.osmIndex = osm;
    }
    return this.osmIndex;
  }

  /** the house with this key, −1 when none */
  find(key: string): number {
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    const value = key.slice(colon + 1);
    if (kind === 'gar') return /^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff ? last(this.byGar.rows(Number(value))) : -1;
    if (kind === 'fias') return last(this.byFias.rows(value));
    if (kind === 'osm') return this.osm.get(value) ?? -1;
    return -1;
  }
}


