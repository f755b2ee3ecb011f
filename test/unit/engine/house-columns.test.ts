import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guidText, orderBy } from '../../../host/engine/columns.js';
import { HouseIdIndex, houseColumns } from '../../../host/engine/house-columns.js';

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
          const columns = houseColumns({
            gar: Buffer.from(Uint32Array.from(rows, (r) => r.gar).buffer),
            fias: Buffer.from(fias),
            osmType: Buffer.from(Uint8Array.from(rows, (r) => (r.osm ? 2 : 0))),
            osmId: Buffer.from(Float64Array.from(rows, (r) => r.osm).buffer),
          }, n);
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
            if (row !== undefined) expect(guidText(columns.fias, row)).toBe(guids[i]);
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
