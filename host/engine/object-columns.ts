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

/** Objects by FIAS GUID, GAR id, KLADR code, OSM id and GA code; the first object holding an id answers. */
export class ObjectIdIndex {
  private readonly byFias: GuidIndex;
  private readonly byGar: KeyIndex;
  private readonly byKladr: TextIndex;
  private readonly byOsm: TextIndex;
  private readonly byGa: TextIndex;

  constructor(o: ObjectColumns, count: number) {
    this.byFias = new GuidIndex(o.fias, count);
    this.byGar = new KeyIndex(o.gar);
    this.byKladr = new TextIndex(o.kladr);
    this.byOsm = new TextIndex(o.osm);
    this.byGa = new TextIndex(o.ga);
  }

  /** the object with `<kind>:<id>`, −1 when none */
  find(key: string): number {
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    const value = key.slice(colon + 1);
    switch (kind) {
      case 'fias': return first(this.byFias.rows(value));
      case 'gar': return /^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff ? first(this.byGar.rows(Number(value))) : -1;
      case 'kladr': return first(this.byKladr.rows(value));
      case 'osm': return first(this.byOsm.rows(value));
      case 'ga': return first(this.byGa.rows(value));
      default: return -1;
    }
  }
}
