/**
 * The host's object columns of a dictionary blob (docs/DESIGN.md "Blob format", host.objects): names and
 * codes as text, pooled, GUID and number columns (columns.ts), read per object when a record needs it.
 * Parent and level are the core's (objects section). The id index is built on the first id lookup.
 * The municipal entities (host.municipal) are read through the same class: their columns are a subset.
 */
import {
  GuidIndex, KeyIndex, PooledColumn, TextColumn, TextIndex, first, guidText, numbers,
} from './columns.js';

export class ObjectColumns {
  readonly name: TextColumn;
  readonly type: PooledColumn;
  readonly fias: Uint8Array;
  readonly gar: Uint32Array;
  readonly kladr: TextColumn;
  readonly osm: TextColumn;
  readonly okato: TextColumn;
  readonly oktmo: TextColumn;
  readonly ifns: PooledColumn;
  readonly ga: TextColumn;
  readonly postcode: PooledColumn;
  readonly timezone: PooledColumn;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  /** index + 1 of the object's municipal entity (host.municipal), 0: none; empty when no object has one */
  readonly municipal: Uint32Array;

  constructor(objects: Record<string, unknown> | undefined) {
    const o = objects ?? {};
    this.name = new TextColumn(o.name);
    this.type = new PooledColumn(o.type);
    this.fias = numbers(o.fias, Uint8Array);
    this.gar = numbers(o.gar, Uint32Array);
    this.kladr = new TextColumn(o.kladr);
    this.osm = new TextColumn(o.osm);
    this.okato = new TextColumn(o.okato);
    this.oktmo = new TextColumn(o.oktmo);
    this.ifns = new PooledColumn(o.ifns);
    this.ga = new TextColumn(o.ga);
    this.postcode = new PooledColumn(o.postcode);
    this.timezone = new PooledColumn(o.timezone);
    this.lat = numbers(o.lat, Float64Array);
    this.lon = numbers(o.lon, Float64Array);
    this.municipal = numbers(o.municipal, Uint32Array);
  }

  fiasOf(id: number): string {
    return guidText(this.fias, id);
  }

  garOf(id: number): string {
    const gar = this.gar[id];
    return gar ? String(gar) : '';
  }
}

/**
 * Objects by FIAS GUID, GAR id, KLADR code, OSM id and GA code; the first object holding an id answers. Each
 * kind's index is built on the first lookup of that kind.
 */
export class ObjectIdIndex {
  private readonly indexes = new Map<string, { rows(value: string): Iterable<number> }>();

  constructor(
    private readonly o: ObjectColumns,
    private readonly count: number,
  ) {}

  private index(kind: string): { rows(value: string): Iterable<number> } | null {
    let index = this.indexes.get(kind);
    if (index === undefined) {
      const o = this.o;
      switch (kind) {
        case 'fias': index = new GuidIndex(o.fias, this.count); break;
        case 'gar': {
          const byGar = new KeyIndex(o.gar);
          index = { rows: (value: string) => (/^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff ? byGar.rows(Number(value)) : []) };
          break;
        }
        case 'kladr': index = new TextIndex(o.kladr); break;
        case 'osm': index = new TextIndex(o.osm); break;
        case 'ga': index = new TextIndex(o.ga); break;
        default: return null;
      }
      this.indexes.set(kind, index);
    }
    return index;
  }

  /** the object with `<kind>:<id>`, −1 when none */
  find(key: string): number {
    const colon = key.indexOf(':');
    const index = this.index(key.slice(0, colon));
    return index === null ? -1 : first(index.rows(key.slice(colon + 1)));
  }
}
