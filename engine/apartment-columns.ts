/**
 * The host's apartment columns of a dictionary blob (docs/DESIGN.md "Blob format", host.apartments):
 * apartments sorted by house, so a house's apartments are found by binary search; numbers and types
 * pooled, GUIDs 16 bytes, cadastral numbers packed (format/cadnum.ts). No JS object per apartment.
 */
import { decodeCadnum } from '../format/cadnum.js';
import { GuidIndex, KeyIndex, PooledColumn, guidText, last, numbers } from './columns.js';
import type { ApartmentInfo } from './types.js';

export class ApartmentColumns {
  private readonly house: Uint32Array;
  private readonly number: PooledColumn;
  private readonly type: PooledColumn;
  private readonly fias: Uint8Array;
  private readonly gar: Uint32Array;
  private readonly cadnum: Uint32Array;
  private readonly cadnumOther: string[];
  private index: { byGar: KeyIndex; byFias: GuidIndex } | null = null;

  constructor(apartments: Record<string, unknown> | undefined, readonly count: number) {
    const a = apartments ?? {};
    this.house = numbers(a.house, Uint32Array);
    this.number = new PooledColumn(a.number);
    this.type = new PooledColumn(a.type);
    this.fias = numbers(a.fias, Uint8Array);
    this.gar = numbers(a.gar, Uint32Array);
    const cadnum = (a.cadnum ?? {}) as { words?: Uint8Array; other?: string[] };
    this.cadnum = numbers(cadnum.words, Uint32Array);
    this.cadnumOther = cadnum.other ?? [];
  }

  houseOf(id: number): number {
    return this.house[id] ?? 0;
  }

  get(id: number): ApartmentInfo {
    const gar = this.gar[id];
    return {
      id,
      house: this.houseOf(id),
      number: this.number.get(id),
      type: this.type.get(id),
      codes: { fias: guidText(this.fias, id), ga: '', osm: '', gar: gar ? String(gar) : '', kladr: '' },
      cadnum: decodeCadnum(this.cadnum, id * 2, this.cadnumOther),
    };
  }

  /** apartment ids of a house, in their order */
  of(houseId: number): number[] {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.houseOf(mid) < houseId) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let id = lo; id < this.count && this.houseOf(id) === houseId; id++) out.push(id);
    return out;
  }

  /** the apartment with `fias:<guid>` or `gar:<id>`, −1 when none (the last of equal ids) */
  find(key: string): number {
    if (this.count === 0) return -1;
    this.index ??= { byGar: new KeyIndex(this.gar), byFias: new GuidIndex(this.fias, this.count) };
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon);
    const value = key.slice(colon + 1);
    if (kind === 'gar') return /^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff ? last(this.index.byGar.rows(Number(value))) : -1;
    if (kind === 'fias') return last(this.index.byFias.rows(value));
    return -1;
  }
}
