import { describe, expect, it } from 'vitest';
import { HouseStore } from '../../../dictionaries/house-store.js';
import { HousePacker, unpackHouse, type PackedHouses } from '../../../dictionaries/house-pack.js';
import { internKey } from '../../../dictionaries/columns.js';
import { BinBlocks } from '../../../dictionaries/spill.js';
import type { HouseRecord } from '../../../dictionaries/source-model.js';

/** GAR-like houses with every field a packed batch carries, a few with coordinates (which it does not) */
function houses(n: number): HouseRecord[] {
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const hex = () => Math.floor(next() * 2 ** 32).toString(16).padStart(8, '0');
  return Array.from({ length: n }, (_, i) => {
    const house = { parent: `street-${Math.floor(next() * 30)}`, number: next() < 0.05 ? '' : String(1 + Math.floor(next() * 60)), codes: { gar: String(5000 + i) } } as HouseRecord;
    if (next() < 0.9) house.codes.fias = `${hex()}-${hex().slice(0, 4)}-4${hex().slice(0, 3)}-a${hex().slice(0, 3)}-${hex()}${hex().slice(0, 4)}`;
    if (next() < 0.6) house.postcode = String(468300 + Math.floor(next() * 40));
    // a number of another shape (a leading zero) is kept as text: its index must follow the store's list
    if (next() < 0.5) house.cadnum = next() < 0.2 ? `99:01:000000${Math.floor(next() * 9)}:0${Math.floor(next() * 90)}` : `99:01:0000000:${Math.floor(next() * 9000)}`;
    if (next() < 0.3) house.multiFlat = next() < 0.5;
    if (next() < 0.2) house.municipal = `municipal-${Math.floor(next() * 5)}`;
    if (next() < 0.3) house.block = String(1 + Math.floor(next() * 3));
    if (next() < 0.1) house.liter = pick(['а', 'б']);
    if (next() < 0.1) house.building = pick(['1', '2']);
    if (next() < 0.05) house.construction = '1';
    if (next() < 0.1) house.possession = true;
    if (next() < 0.1) house.stead = true;
    house.source = next() < 0.9 ? 'gar' : 'other';
    if (next() < 0.02) {
      house.lat = 45.6;
      house.lon = 63.3;
    }
    return house;
  });
}

/** every section of the store built and read out whole */
function sections(store: HouseStore): Record<string, unknown> {
  const { core, host } = store.sections(store.allRows());
  const read = (value: unknown) => (value instanceof BinBlocks ? Buffer.concat([...value.blocks()]) : value instanceof Uint8Array ? Buffer.from(value) : value);
  return Object.fromEntries([...Object.entries(core), ...Object.entries(host)].map(([name, section]) => [name, read(section!())]));
}

/** keys interned as the merge interns them (merge/sink.ts) */
function interner() {
  const ids = new Map<string, number>();
  const keys: string[] = [];
  return (key: string) => internKey(ids, keys, key);
}

describe('packed houses', () => {
  it('make the very rows, ids and sections that adding each house makes, whatever the batches', () => {
    const data = houses(3000).filter((house) => house.number || house.block || house.building || house.construction);
    const added = new HouseStore();
    const addedParent = interner();
    const addedMunicipal = interner();
    for (const house of data) added.add(house, addedParent(house.parent), house.municipal === undefined ? -1 : addedMunicipal(house.municipal));

    for (const capacity of [1, 7, 500, 65536]) {
      const packed = new HouseStore();
      const parent = interner();
      const municipal = interner();
      const packer = new HousePacker(capacity);
      const flush = () => {
        const batch = packer.take();
        if (batch) packed.addPacked(batch, Int32Array.from(batch.parents, parent), Int32Array.from(batch.municipals, municipal));
      };
      let refused = 0;
      for (const house of data) {
        if (!packer.add(house)) {
          // a house the batch does not carry: the batch goes first, then the house as a record
          flush();
          packed.add(house, parent(house.parent), house.municipal === undefined ? -1 : municipal(house.municipal));
          refused++;
          continue;
        }
        if (packer.full) flush();
      }
      flush();
      expect(refused).toBeGreaterThan(10);
      expect(packed.count).toBe(added.count);
      for (let row = 0; row < data.length; row++) {
        expect(packed.get(row, 0), `row ${row}, batches of ${capacity}`).toEqual(added.get(row, 0));
        expect(packed.parentIdOf(row)).toBe(added.parentIdOf(row));
        expect(packed.municipalOf(row)).toBe(added.municipalOf(row));
      }
      expect(sections(packed)).toEqual(sections(added));
    }
  });

  it('give back the records they were packed from', () => {
    const packer = new HousePacker();
    const packable = houses(500).filter((house) => packer.add(house));
    const batch = packer.take() as PackedHouses;
    expect(batch.count).toBe(packable.length);
    packable.forEach((house, row) => expect(unpackHouse(batch, row)).toEqual(house));
  });
});
