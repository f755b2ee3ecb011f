/**
 * Columnar store of apartments (GAR AS_APARTMENTS: tens of millions nationally), the apartments' twin of
 * house-store.ts: no JS object per apartment. The merge adds them as the reader yields them, with their
 * house as a reference (`gar:<id>` or `fias:<guid>`); `place()` resolves each distinct reference to the
 * house's position in the dictionary (the house store streams its id columns once) and orders the apartments by it;
 * `sections()` gives the blob's apartment columns (docs/DESIGN.md "Blob format"), each built when the
 * writer streams it.
 *
 *   refGar u32 / refFias 16 B   the house reference (merge only)
 *   number, type                pool ids (numbers and types repeat: `1`…`500`, `кв`, `оф`)
 *   gar u32, fias 16 B, cadnum 2 × u32 (cadnum.ts), source u8
 */
import { decodeCadnum, encodeCadnum } from '../format/cadnum.js';
import { bytes, guidIndex, LazyColumn, StringPool, type HouseReferences, type Section } from './house-store.js';
import type { ApartmentRecord } from './source-model.js';
import type { MergedApartment } from './merged-model.js';
import { guidPrefixes, indexOfSorted, orderBy } from '../format/order.js';
import { guidInto, guidText } from '../format/guid.js';

export class ApartmentStore {
  count = 0;
  private capacity = 1024;
  private readonly numbers = new StringPool();
  private readonly types = new StringPool();
  private readonly sources = new StringPool();
  private readonly cadnumOther: string[] = [];
  private readonly refGar = new LazyColumn(Uint32Array);
  private readonly refFias = new LazyColumn(Uint8Array, 16);
  private readonly number = new LazyColumn(Uint32Array);
  private readonly type = new LazyColumn(Uint32Array);
  private readonly source = new LazyColumn(Uint8Array);
  private readonly gar = new LazyColumn(Uint32Array);
  private readonly fias = new LazyColumn(Uint8Array, 16);
  private readonly cadnum = new LazyColumn(Uint32Array, 2);

  /**
   * Appends an apartment; its house is `house` (a reference to resolve with `place`) or, for a model's
   * apartments, already a dictionary position (kept in the refGar column; `positioned()` reads it back).
   * Returns false for a reference of another shape.
   */
  add(apartment: ApartmentRecord | MergedApartment): boolean {
    const row = this.count;
    const capacity = row + 1 > this.capacity ? (this.capacity = Math.ceil(this.capacity * 1.5)) : this.capacity;
    const house = apartment.house;
    if (typeof house === 'number') {
      this.refGar.set(row, house, capacity);
    } else if (house.startsWith('gar:') && /^\d{1,10}$/.test(house.slice(4)) && Number(house.slice(4)) <= 0xffffffff) {
      this.refGar.set(row, Number(house.slice(4)), capacity);
    } else if (!(house.startsWith('fias:') && guidInto(house.slice(5), this.refFias.reserve(row, capacity), row * 16))) {
      return false;
    }
    this.count++;
    this.number.set(row, this.numbers.id(apartment.number), capacity);
    const type = this.types.id(apartment.type);
    if (type) this.type.set(row, type, capacity);
    const source = this.sources.id(apartment.source);
    if (source > 255) throw new Error(`apartment store: more than 255 sources (${apartment.source})`);
    if (source) this.source.set(row, source, capacity);
    if (apartment.codes.gar) this.gar.set(row, Number(apartment.codes.gar), capacity);
    if (apartment.codes.fias && !guidInto(apartment.codes.fias, this.fias.reserve(row, capacity), row * 16)) {
      throw new Error(`apartment store: bad FIAS GUID ${apartment.codes.fias}`);
    }
    if (apartment.cadnum) encodeCadnum(apartment.cadnum, this.cadnum.reserve(row, capacity), row * 2, this.cadnumOther);
    return true;
  }

  /** the source of row `row` (for reject counts) */
  sourceOf(row: number): string {
    return this.sources.strings[this.source.get(row)];
  }

  /** row `row` as a merged apartment in house position `house` */
  get(row: number, house: number): MergedApartment {
    const apartment: MergedApartment = { house, number: this.numbers.strings[this.number.get(row)], type: this.types.strings[this.type.get(row)], codes: {}, source: this.sourceOf(row) };
    const gar = this.gar.get(row);
    if (gar) apartment.codes.gar = String(gar);
    const fias = this.fias.data === null ? '' : guidText(this.fias.data, row);
    if (fias) apartment.codes.fias = fias;
    if (this.cadnum.data !== null) {
      const cadnum = decodeCadnum(this.cadnum.data, row * 2, this.cadnumOther);
      if (cadnum) apartment.cadnum = cadnum;
    }
    return apartment;
  }

  /** the distinct houses the apartments refer to (`HouseReferences`): GAR ids, else GUIDs */
  references(): HouseReferences {
    const ids = new Uint32Array(this.count);
    let garCount = 0;
    const byGuid = new Uint32Array(this.refFias.data === null ? 0 : this.count);
    let guidCount = 0;
    for (let row = 0; row < this.count; row++) {
      const gar = this.refGar.get(row);
      if (gar) ids[garCount++] = gar;
      else if (this.refFias.data !== null) byGuid[guidCount++] = row;
    }
    const guidRows = byGuid.subarray(0, guidCount);
    const sorted = ids.subarray(0, garCount).sort();
    let distinct = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i];
    const data = this.refFias.data;
    const keys = data === null ? new Uint32Array(0) : guidPrefixes(data, this.count);
    const byKey = orderBy(Uint32Array.from(guidRows, (row) => keys[row]));
    const fias = new Uint8Array(byKey.length * 16);
    const fiasKeys = new Uint32Array(byKey.length);
    let kept = 0;
    for (let i = 0; i < byKey.length; i++) {
      const row = guidRows[byKey[i]];
      const key = keys[row];
      // a GUID met already sits among the last kept ones of the same four bytes
      let seen = false;
      for (let k = kept - 1; k >= 0 && fiasKeys[k] === key && !seen; k--) {
        seen = true;
        for (let b = 4; b < 16 && seen; b++) seen = fias[k * 16 + b] === data![row * 16 + b];
      }
      if (seen) continue;
      fias.set(data!.subarray(row * 16, row * 16 + 16), kept * 16);
      fiasKeys[kept++] = key;
    }
    return { gar: sorted.slice(0, distinct), fias: fias.slice(0, kept * 16), fiasKeys: fiasKeys.slice(0, kept) };
  }

  /** rows whose house reference is itself a position (a model's apartments), in house order */
  positioned(): { rows: Uint32Array; houses: Uint32Array } {
    const houses = this.refGar.gather(Uint32Array.from({ length: this.count }, (_, i) => i)) as Uint32Array;
    const rows = orderBy(houses);
    return { rows, houses: Uint32Array.from(rows, (row) => houses[row]) };
  }

  /**
   * Resolves each apartment's house reference to the house's dictionary position and orders the apartments by
   * it (stable). `positionsOf` gives the position of each distinct reference (−1: no such house; the house
   * store's `positionsOf`, which keeps nothing per house); `unplaced(row)` is called for an apartment whose
   * house is not in the dictionary.
   */
  place(positionsOf: (refs: HouseReferences) => { gar: Int32Array; fias: Int32Array }, unplaced: (row: number) => void): { rows: Uint32Array; houses: Uint32Array } {
    const refs = this.references();
    const positions = positionsOf(refs);
    const houseOf = new Uint32Array(this.count);
    const placed = new Uint8Array(this.count);
    for (let row = 0; row < this.count; row++) {
      const gar = this.refGar.get(row);
      let found = -1;
      if (gar) found = positions.gar[indexOfSorted(refs.gar, gar)] ?? -1;
      else if (this.refFias.data !== null) found = positions.fias[guidIndex(refs, this.refFias.data, row * 16)] ?? -1;
      if (found < 0) unplaced(row);
      else {
        houseOf[row] = found;
        placed[row] = 1;
      }
    }
    const order = orderBy(houseOf);
    let kept = 0;
    for (let i = 0; i < order.length; i++) if (placed[order[i]]) order[kept++] = order[i];
    const rows = order.slice(0, kept);
    return { rows, houses: Uint32Array.from(rows, (row) => houseOf[row]) };
  }

  /** The blob's apartment columns for `rows` in house order, `houses` their house positions. */
  sections(rows: Uint32Array, houses: Uint32Array): Record<string, Section | undefined> {
    const pooled = (pool: StringPool, column: LazyColumn<Uint32Array>): Section => () => ({
      pool: pool.strings,
      ids: bytes(column.gather(rows, pool.size > 0x10000 ? Uint32Array : Uint16Array)),
    });
    return {
      house: () => bytes(houses),
      number: pooled(this.numbers, this.number),
      type: this.type.data === null ? undefined : pooled(this.types, this.type),
      fias: this.fias.data === null ? undefined : () => bytes(this.fias.gather(rows)),
      gar: this.gar.data === null ? undefined : () => bytes(this.gar.gather(rows)),
      cadnum: this.cadnum.data === null ? undefined : () => ({ words: bytes(this.cadnum.gather(rows)), other: this.cadnumOther }),
    };
  }
}
