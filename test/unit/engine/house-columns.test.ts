import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FixedRows, guidText, orderBy, type ColdSection } from '../../../engine/columns.js';
import { HouseIdIndex, houseColumns } from '../../../engine/house-columns.js';

const guidBytes = (guid: string): number[] => [...Buffer.from(guid.replace(/-/g, ''), 'hex')];

describe('orderBy(keys)', () => {
  it('orders rows by key, stable for equal keys, like a sort', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 300 }), fc.boolean(), (values, narrow) => {
        const keys = Uint32Array.from(values, (v) => (narrow ? v % 5 : v));
        const expected = [...keys.keys()].sort((a, b) => keys[a] - keys[b] || a - b);
        expect([...orderBy(keys)]).toEqual(expected);
      }),
    );
  });
});

describe('FixedRows', () => {
  it('reads the same rows from memory and from a cold section, zeros past the end', () => {
    const words = Uint32Array.from({ length: 12 }, (_, i) => (i * 0x01020304 + 7) >>> 0);
    const bytes = new Uint8Array(words.buffer);
    let reads = 0;
    const cold: ColdSection = { byteLength: bytes.byteLength, read: (into, position) => (reads++, into.set(bytes.subarray(position, position + into.length))) };
    const copies = (rows: FixedRows) => ({
      words: [0, 1, 5, 6, -1].map((row) => [...rows.words(row).subarray(rows.at, rows.at + 2)]),
      bytes: [0, 3, 6].map((row) => [...rows.bytes(row).subarray(rows.at, rows.at + 8)]),
      first: [0, 2, 5, 6].map((row) => rows.u32(row)),
      block: [...rows.block(4, 4, new Uint8Array(32))],
    });
    const memory = new FixedRows(bytes, 8);
    const file = new FixedRows(cold, 8);
    expect([memory.count, file.count, memory.isCold, file.isCold]).toEqual([6, 6, false, true]);
    expect(copies(file)).toEqual(copies(memory));
    expect(copies(memory).words).toEqual([[words[0], words[1]], [words[2], words[3]], [words[10], words[11]], [0, 0], [0, 0]]);
    expect(copies(memory).block).toEqual([...bytes.subarray(32, 48)]);
    // a row is one read; rows past the end are not read
    expect(reads).toBe(3 + 2 + 3 + 1);
  });
});

describe('HouseIdIndex', () => {
  it('finds houses by GAR id, FIAS GUID (any dashes) and OSM id as a Map of the last (first for OSM) would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ gar: fc.integer({ min: 0, max: 50 }), guid: fc.constantFrom(...Array.from({ length: 8 }, (_, i) => i)), osm: fc.integer({ min: 0, max: 9 }) }), { minLength: 1, maxLength: 60 }),
        (rows) => {
          // GUIDs sharing their first four bytes (prefix collisions) and an all-zero GUID (none)
          const guids = Array.from({ length: 8 }, (_, i) => (i === 0 ? '' : `0badcafe-0000-4000-8000-${String(i).padStart(12, '0')}`));
          const n = rows.length;
          const fias = new Uint8Array(n * 16);
          rows.forEach((r, i) => { if (guids[r.guid]) fias.set(guidBytes(guids[r.guid]), i * 16); });
          const garBytes = Buffer.from(Uint32Array.from(rows, (r) => r.gar).buffer);
          // the codes in memory, and left in a file (read a few bytes at a time, as blob-file.ts reads them)
          for (const cold of [false, true]) {
            const section = (bytes: Uint8Array): Uint8Array | ColdSection =>
              cold ? { byteLength: bytes.byteLength, read: (into, position) => into.set(bytes.subarray(position, position + into.length)) } : bytes;
            const columns = houseColumns({
              gar: section(garBytes),
              fias: section(Buffer.from(fias)),
              osmType: Buffer.from(Uint8Array.from(rows, (r) => (r.osm ? 2 : 0))),
              osmId: Buffer.from(Float64Array.from(rows, (r) => r.osm).buffer),
            }, n);
            expect(columns.fias.isCold).toBe(cold);
            const index = new HouseIdIndex(columns, n);
            const expected = new Map<string, number>();
            rows.forEach((r, i) => {
              if (r.gar) expected.set(`gar:${r.gar}`, i);
              if (guids[r.guid]) expected.set(`fias:${guids[r.guid]}`, i);
              if (r.osm && !expected.has(`osm:W${r.osm}`)) expected.set(`osm:W${r.osm}`, i);
            });
            for (const [key, row] of expected) expect(index.find(key)).toBe(row);
            for (let i = 0; i <= 50; i++) if (!expected.has(`gar:${i}`)) expect(index.find(`gar:${i}`)).toBe(-1);
            expect(index.find('fias:0badcafe-0000-4000-8000-000000000099')).toBe(-1);
            for (let i = 1; i < 8; i++) {
              const row = expected.get(`fias:${guids[i]}`);
              if (row !== undefined) expect(index.find(`fias:${guids[i].replace(/-/g, '')}`)).toBe(row);
              if (row !== undefined) expect(guidText(columns.fias.bytes(row), columns.fias.at / 16)).toBe(guids[i]);
            }
          }
        },
      ),
    );
  });

  it('answers −1 for ids of another shape and for a dictionary without the column', () => {
    const index = new HouseIdIndex(houseColumns({}, 3), 3);
    for (const key of ['gar:1', 'gar:-1', 'gar:99999999999', 'fias:nope', 'fias:0badcafe-0000-4000-8000-000000000001', 'osm:W1', 'ga:RU1']) {
      expect(index.find(key)).toBe(-1);
    }
  });
});
