import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guidInto, guidText } from '../../../format/guid.js';
import { HouseStore, type HouseReferences, type HouseSections, type HouseStoreOptions } from '../../../dictionaries/house-store.js';
import type { HouseRecord } from '../../../dictionaries/source-model.js';
import { BinBlocks, ChunkedColumn, SpillFile } from '../../../dictionaries/spill.js';
import { NumberMap } from '../../../dictionaries/compact-map.js';

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

/** houses with every kind of field, some rows without several of them (seeded, so every run is the same) */
function houses(n: number): Array<{ house: HouseRecord; parent: number }> {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const hex = () => Math.floor(next() * 2 ** 32).toString(16).padStart(8, '0');
  return Array.from({ length: n }, (_, i) => {
    const house: HouseRecord = { parent: '', number: String(1 + Math.floor(next() * 90)), codes: { gar: String(1000 + i) }, source: next() < 0.8 ? 'gar' : 'osm' };
    if (next() < 0.7) house.codes.fias = `${hex()}-${hex().slice(0, 4)}-4${hex().slice(0, 3)}-a${hex().slice(0, 3)}-${hex()}${hex().slice(0, 4)}`;
    if (next() < 0.3) house.block = String(1 + Math.floor(next() * 4));
    if (next() < 0.5) house.postcode = String(468300 + Math.floor(next() * 30));
    if (next() < 0.4) house.cadnum = `99:01:${String(Math.floor(next() * 9999999)).padStart(7, '0')}:${Math.floor(next() * 5000)}`;
    if (next() < 0.2) {
      house.lat = 45 + next();
      house.lon = 63 + next();
      house.codes.osm = `W${Math.floor(next() * 1e9)}`;
    }
    if (next() < 0.1) house.flatCount = Math.floor(next() * 300);
    if (next() < 0.1) house.stead = true;
    return { house, parent: Math.floor(next() * 40) };
  });
}

/** `HouseReferences` of these GAR ids and GUIDs (each once, in the order the type asks for) */
function references(gar: number[], guids: string[]): HouseReferences {
  const bytes = [...new Set(guids)].map((g) => {
    const out = new Uint8Array(16);
    guidInto(g, out, 0);
    return out;
  });
  const key = (b: Uint8Array) => ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  bytes.sort((x, y) => key(x) - key(y));
  const fias = new Uint8Array(bytes.length * 16);
  bytes.forEach((b, k) => fias.set(b, k * 16));
  return { gar: Uint32Array.from(new Set(gar)).sort(), fias, fiasKeys: Uint32Array.from(bytes, key) };
}

/** every section built and read out whole (a streamed one block by block) */
function materialize(sections: HouseSections): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const read = (value: unknown) =>
    value instanceof BinBlocks ? Buffer.concat([...value.blocks()]) : value instanceof Uint8Array ? Buffer.from(value) : value;
  for (const [name, section] of Object.entries(sections.core)) if (section) out[`core.${name}`] = read(section());
  for (const [name, section] of Object.entries(sections.host)) out[`host.${name}`] = read(section());
  return out;
}

describe('HouseStore spilling to disk', () => {
  const filled = (options: HouseStoreOptions, rows: ReturnType<typeof houses>) => {
    const store = new HouseStore(options);
    for (const { house, parent } of rows) store.add(house, parent);
    return store;
  };

  it('gives the same houses, order, positions and sections as a store held in memory', () => {
    const data = houses(1000);
    // a GAR id and a GUID held by a second house too: the later position answers
    data.push({ house: { ...data[4].house, codes: { gar: data[4].house.codes.gar } }, parent: 2 });
    data.push({ house: { ...data[500].house, codes: { gar: '7000', fias: data[4 + 97 * 2].house.codes.fias } }, parent: 39 });
    const memory = filled({}, data);
    const dir = mkdtempSync(join(tmpdir(), 'spill-test-'));
    try {
      // 16 rows per chunk, spilling from row 64: most chunks go to disk
      const spilled = filled({ chunkShift: 4, spillAfterRows: 64, spillDir: dir }, data);
      expect(spilled.spilledBytes).toBeGreaterThan(0);
      // the spill file is unlinked once open: nothing is left in its directory
      expect(readdirSync(dir)).toEqual([]);
      const parentOf = (id: number) => (id % 7 === 3 ? -1 : 39 - id);
      const a = memory.order(parentOf, 40);
      const b = spilled.order(parentOf, 40);
      expect([...b.rows]).toEqual([...a.rows]);
      expect([...b.counts]).toEqual([...a.counts]);
      // rows come grouped by parent in index order, each parent's in source order, `counts` houses each
      let at = 0;
      a.counts.forEach((count, parent) => {
        const group = [...a.rows.subarray(at, at + count)];
        expect(group.map((row) => parentOf(memory.parentIdOf(row)))).toEqual(group.map(() => parent));
        expect(group).toEqual([...group].sort((x, y) => x - y));
        at += count;
      });
      expect(at).toBe(a.rows.length);
      for (let row = 0; row < data.length; row += 37) expect(spilled.get(row, 1)).toEqual(memory.get(row, 1));
      // the positions of referred houses (apartments'): the last position holding each id, −1 for none
      const refs = references(
        [1003, 1004, 1500, 1999, 5000],
        [...data.filter((_, i) => i % 97 === 4).map((d) => d.house.codes.fias).filter((g): g is string => !!g), '00000000-0000-4000-8000-000000000001'],
      );
      const expected = (store: HouseStore, rows: Uint32Array) => ({
        gar: [...refs.gar].map((id) => [...rows].reduce((last, row, p) => (store.garOf(row) === id ? p : last), -1)),
        fias: refs.fiasKeys.length === 0 ? [] : [...refs.fiasKeys].map((_, k) => [...rows].reduce((last, row, p) => (store.fiasOf(row) === guidText(refs.fias, k) ? p : last), -1)),
      });
      const want = expected(memory, a.rows);
      expect(want.gar.filter((p) => p >= 0)).toHaveLength(4);
      expect(want.fias.filter((p) => p >= 0).length).toBe(refs.fiasKeys.length - 1);
      for (const [store, rows] of [[memory, a.rows], [spilled, b.rows]] as const) {
        const found = store.positionsOf(rows, refs);
        expect({ gar: [...found.gar], fias: [...found.fias] }).toEqual(want);
      }
      expect(materialize(spilled.sections(b.rows))).toEqual(materialize(memory.sections(a.rows)));
      spilled.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gathers a column in blocks that cover every row once, in the order asked', () => {
    const column = new ChunkedColumn(Uint32Array, 2, undefined, 3);
    const file = new SpillFile();
    for (let row = 0; row < 100; row++) {
      if (row % 5 === 0) continue; // rows never written read as 0
      column.set(row, row * 10);
      column.chunkFor(row)[column.offset(row) + 1] = row;
      if (row % 8 === 7) column.spillBefore(column.chunkOf(row), file);
    }
    const rows = Uint32Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
    const inverse = new Int32Array(100).fill(-1);
    rows.forEach((row, i) => (inverse[row] = i));
    // blocks of 16 rows: each block reads every chunk, spilled or not
    const gathered = column.gather(rows, undefined, () => inverse, 16);
    expect([...column.gatherBlocks(rows, undefined, () => inverse, 16)].map((block) => block.length)).toEqual([...Array(6).fill(32), 8]);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      expect([gathered[i * 2], gathered[i * 2 + 1]]).toEqual(row % 5 === 0 ? [0, 0] : [row * 10, row]);
    }
    // one buffer for every block (as the blob writer streams them; larger than a block, as the widest column's)
    // gives the same values, block by block: the rows a block leaves unwritten read 0 again, not what the block
    // before put there
    const copies: number[] = [];
    const into = new ArrayBuffer(16 * 2 * 4 * 3);
    for (const block of column.gatherBlocks(rows, undefined, () => inverse, 16, into)) {
      expect(block.buffer).toBe(into);
      copies.push(...block);
    }
    expect(copies).toEqual([...gathered]);
    file.close();
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
