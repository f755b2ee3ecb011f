import { describe, expect, it } from 'vitest';
import { ApartmentStore } from '../../../dictionaries/apartment-store.js';

const guid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const guidBytes = (n: number) => [...Buffer.from(guid(n).replace(/-/g, ''), 'hex')];

describe('ApartmentStore', () => {
  it('places apartments by their house GAR id or GUID, in house order, and counts the unplaced', () => {
    const store = new ApartmentStore();
    const add = (house: string, number: string, gar: number, cadnum?: string) =>
      store.add({ house, number, type: 'кв', codes: { gar: String(gar), fias: guid(gar) }, cadnum, source: 'gar' });
    expect(add('gar:30', '1', 900)).toBe(true);
    expect(add(`fias:${guid(10)}`, '2', 901, '77:01:0001001:5')).toBe(true);
    expect(add('gar:99', '3', 902)).toBe(true); // no such house
    expect(add('gar:20', '4', 903)).toBe(true);
    expect(add('gar:30', '5', 904)).toBe(true);
    expect(add('osm:W1', '6', 905)).toBe(false);
    expect(store.count).toBe(5);
    // houses at positions 0…3: GAR ids 10, 20, 30, 30 (a repeated id: the last position holds it)
    const garAt = [10, 20, 30, 30];
    const fias = new Uint8Array(4 * 16);
    fias.set(guidBytes(10), 0);
    const unplaced: number[] = [];
    const asked: Array<{ gar: number[]; fias: number }> = [];
    const { rows, houses } = store.place((refs) => {
      asked.push({ gar: [...refs.gar], fias: refs.fiasKeys.length });
      const position = (matches: (p: number) => boolean) => garAt.reduce((last, _, p) => (matches(p) ? p : last), -1);
      return {
        gar: Int32Array.from(refs.gar, (id) => position((p) => garAt[p] === id)),
        fias: Int32Array.from(refs.fiasKeys, (_, k) => position((p) => Buffer.from(fias.subarray(p * 16, p * 16 + 16)).equals(Buffer.from(refs.fias.subarray(k * 16, k * 16 + 16))))),
      };
    }, (row) => unplaced.push(row));
    // each house asked for once: GAR ids ascending and distinct, the one GUID
    expect(asked).toEqual([{ gar: [20, 30, 99], fias: 1 }]);
    expect(unplaced).toEqual([2]);
    expect([...houses]).toEqual([0, 1, 3, 3]);
    expect([...rows].map((row, i) => store.get(row, houses[i]))).toEqual([
      { house: 0, number: '2', type: 'кв', codes: { gar: '901', fias: guid(901) }, cadnum: '77:01:0001001:5', source: 'gar' },
      { house: 1, number: '4', type: 'кв', codes: { gar: '903', fias: guid(903) }, source: 'gar' },
      { house: 3, number: '1', type: 'кв', codes: { gar: '900', fias: guid(900) }, source: 'gar' },
      { house: 3, number: '5', type: 'кв', codes: { gar: '904', fias: guid(904) }, source: 'gar' },
    ]);
  });

  it('orders a model\'s apartments, whose house is already a position, by house', () => {
    const store = new ApartmentStore();
    for (const [house, number] of [[2, 'a'], [0, 'b'], [2, 'c'], [1, 'd']] as const) store.add({ house, number, type: '', codes: {}, source: 't' });
    const { rows, houses } = store.positioned();
    expect([...houses]).toEqual([0, 1, 2, 2]);
    expect([...rows].map((row, i) => store.get(row, houses[i]).number)).toEqual(['b', 'd', 'a', 'c']);
  });
});
