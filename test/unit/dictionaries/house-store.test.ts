import { describe, expect, it } from 'vitest';
import { HouseStore } from '../../../dictionaries/house-store.js';
import { NumberMap } from '../../../dictionaries/sources/compact-map.js';

describe('HouseStore', () => {
  it('round-trips every field of a house', () => {
    const store = new HouseStore();
    const house = {
      parent: 'x',
      number: '10',
      block: '2',
      building: '1',
      liter: 'а',
      construction: '3',
      possession: true,
      stead: true,
      multiFlat: false,
      codes: { fias: '4abf7720-fa42-482c-a2ec-cd564d9abc96', gar: '5392775', osm: 'W123' },
      postcode: '468325',
      lat: 45.62,
      lon: 63.31,
      cadnum: '99:01:0000000:123',
      flatCount: 40,
      source: 'gar',
    };
    const row = store.add(house, 7);
    const { parent: _parent, ...rest } = house;
    expect(store.get(row, 3)).toEqual({ ...rest, parent: 3 });
  });

  it('grows past its initial capacity and sorts rows by parent, stable within a parent', () => {
    const store = new HouseStore();
    for (let i = 0; i < 5000; i++) store.add({ parent: '', number: String(i), codes: {}, source: 's' }, i % 3);
    const { rows } = store.order((id) => (id === 1 ? -1 : 2 - id), 3);
    expect(rows.length).toBe(5000 - 1667);
    const numbers = [...rows].map((row) => Number(store.get(row, 0).number));
    expect(numbers[0]).toBe(2);
    expect(numbers.slice(0, 1666).every((n) => n % 3 === 2)).toBe(true);
    expect(numbers.slice(1666).every((n) => n % 3 === 0)).toBe(true);
    expect(numbers.slice(1666)).toEqual([...numbers.slice(1666)].sort((a, b) => a - b));
  });

  it('leaves columns a source never fills unallocated', () => {
    const store = new HouseStore();
    store.add({ parent: '', number: '1', codes: {}, source: 's' }, 0);
    expect(store.get(0, 0)).toEqual({ parent: 0, number: '1', codes: {}, source: 's' });
  });
});

describe('NumberMap', () => {
  it('agrees with a Map over many keys', () => {
    const map = new NumberMap(4);
    const reference = new Map<number, number>();
    for (let i = 1; i < 50_000; i++) {
      const key = (i * 2654435761) % 4294967291 || 1;
      map.set(key, i * 1.5);
      reference.set(key, i * 1.5);
    }
    expect(map.size).toBe(reference.size);
    for (const [key, value] of reference) expect(map.get(key)).toBe(value);
    expect(map.get(3)).toBe(reference.get(3));
  });
});
