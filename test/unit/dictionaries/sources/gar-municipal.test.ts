/**
 * The municipal level read from AS_MUN_HIERARCHY (dictionaries/sources/gar.ts, step 2m): GAR levels 3 and 4
 * become municipal entities, objects and the odd house get the deepest one of their PATH.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { deepestMunicipal, readGar } from '../../../../dictionaries/sources/gar.js';
import { FILES, guidOf, writeMunicipalGar } from '../../../helpers/municipal-gar.js';
import { CollectingSink } from '../../../helpers/model-sink.js';

const key = (id: number) => guidOf(id);

describe('deepestMunicipal(path, count, objectId, municipals)', () => {
  const municipals = new Set([30, 40]);
  const path = (...ids: number[]) => Float64Array.from([...ids, ...new Array(8 - ids.length).fill(0)]);

  it('takes the deepest municipal entity above the object', () => {
    expect(deepestMunicipal(path(10, 30, 40, 50, 70), 5, 70, municipals)).toBe(40);
    expect(deepestMunicipal(path(10, 30, 50), 3, 50, municipals)).toBe(30);
  });

  it('leaves the object itself out (a поселение is under its район)', () => {
    expect(deepestMunicipal(path(10, 30, 40), 3, 40, municipals)).toBe(30);
    expect(deepestMunicipal(path(10, 30), 2, 30, municipals)).toBe(0);
  });

  it('gives 0 without one, for an unreadable PATH, or one that does not end with the object', () => {
    expect(deepestMunicipal(path(10, 50, 70), 3, 70, municipals)).toBe(0);
    expect(deepestMunicipal(path(), -1, 70, municipals)).toBe(0);
    expect(deepestMunicipal(path(10, 30, 40, 50), 4, 70, municipals)).toBe(0);
  });
});

describe('readGar(zip, sink) with a municipal hierarchy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gar-mun-'));
  const sinks: Record<number, CollectingSink> = {};
  beforeAll(async () => {
    for (const scanThreads of [0, 2]) {
      const sink = new CollectingSink();
      await readGar(await writeMunicipalGar(join(dir, `gar-${scanThreads}.zip`)), sink, { asOf: '2024-06-01', scanThreads });
      sinks[scanThreads] = sink;
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sink = () => sinks[0];

  it('emits GAR levels 3 and 4 as municipal entities with their codes, not as areas', () => {
    expect(sink().municipals).toEqual([
      { key: key(30), name: 'Красногорский', type: 'м.р-н', codes: { fias: guidOf(30), gar: '30', oktmo: '46744000' }, source: 'gar' },
      { key: key(40), name: 'Ильинское', type: 'с/п', codes: { fias: guidOf(40), gar: '40', oktmo: '46744412' }, source: 'gar' },
      { key: key(41), name: 'Нахабино', type: 'г.п', codes: { fias: guidOf(41), gar: '41' }, source: 'gar' },
    ]);
    expect(sink().objects.map((o) => o.name)).toEqual(['Московская', 'Красногорский', 'Ильинское', 'Нахабино', 'Центральная', 'Школьная', 'Лесная']);
    expect(sink().object(key(20))).toMatchObject({ level: Level.area, type: 'р-н' });
    expect(sink().rejects).toEqual([]);
  });

  it('gives each object the deepest municipal entity of its active PATH; none without an active row', () => {
    const municipalOf = (id: number) => sink().object(key(id))?.municipal;
    expect(municipalOf(50)).toBe(key(40));
    expect(municipalOf(70)).toBe(key(40));
    expect(municipalOf(60)).toBe(key(41));
    expect(municipalOf(80)).toBe(key(41));
    // the administrative area has no municipal row; Лесная only an inactive one
    expect(municipalOf(20)).toBeUndefined();
    expect(municipalOf(90)).toBeUndefined();
    expect(municipalOf(10)).toBeUndefined();
  });

  it('gives a house its own municipal only when its municipal parent is not its street', () => {
    const house = (id: number) => sink().houses.find((h) => h.codes.gar === String(id))!;
    // under ул Центральная in both hierarchies: the street's (no byte per house)
    expect(house(1000)).not.toHaveProperty('municipal');
    // under ул Центральная administratively, under г.п. Нахабино municipally
    expect(house(1001).municipal).toBe(key(41));
    // the inactive row (under ул Центральная) is ignored; the active one is under its street
    expect(house(1002)).not.toHaveProperty('municipal');
    expect(house(1003)).not.toHaveProperty('municipal');
  });

  it('reads the same with the scan in two worker threads', () => {
    expect(sinks[2].municipals).toEqual(sink().municipals);
    expect(sinks[2].objects).toEqual(sink().objects);
    expect(sinks[2].houses).toEqual(sink().houses);
  });

  it('reads an archive without AS_MUN_HIERARCHY: entities, and no object refers to them', async () => {
    const files = Object.fromEntries(Object.entries(FILES).filter(([name]) => !name.includes('AS_MUN_HIERARCHY')));
    const without = new CollectingSink();
    await readGar(await writeMunicipalGar(join(dir, 'no-mun.zip'), files), without, { asOf: '2024-06-01' });
    expect(without.municipals).toHaveLength(3);
    expect(without.objects.filter((o) => o.municipal !== undefined)).toEqual([]);
    expect(without.houses.filter((h) => h.municipal !== undefined)).toEqual([]);
  });
});
