import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { readGar, type GarCounts } from '../../../../dictionaries/sources/gar.js';
import { openZip } from '../../../../dictionaries/io/zip.js';
import { generateGarScale, syntheticGuid, type GarScaleResult } from '../../../../bench/synth/gar-scale.js';
import { CollectingSink, DATA_DIR, HAS_DATA } from '../../../helpers/model-sink.js';

const SOURCE = resolve(DATA_DIR, 'ru/gar/gar_xml.zip');

describe('syntheticGuid(seed, copy, index)', () => {
  it('is deterministic, GUID-shaped and distinct across copies and indexes', () => {
    expect(syntheticGuid(1, 2, 3)).toBe(syntheticGuid(1, 2, 3));
    expect(syntheticGuid(1, 2, 3)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const seen = new Set<string>();
    for (let copy = 0; copy < 50; copy++) for (let index = 0; index < 50; index++) seen.add(syntheticGuid(7, copy, index));
    expect(seen.size).toBe(2500);
    expect(syntheticGuid(1, 2, 3)).not.toBe(syntheticGuid(2, 2, 3));
  });
});

describe.runIf(HAS_DATA)('generateGarScale({ houses }) from the real region 99 archive', () => {
  let dir: string;
  let twice: GarScaleResult;
  let original: { counts: GarCounts; sink: CollectingSink };
  let copied: { counts: GarCounts; sink: CollectingSink };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gar-scale-'));
    const sink = new CollectingSink();
    original = { counts: await readGar(SOURCE, sink, { asOf: '2024-06-01' }), sink };
    const housesPerCopy = original.counts.houses + original.counts.steads;
    twice = await generateGarScale({ source: SOURCE, out: join(dir, 'gar_xml.zip'), houses: housesPerCopy * 2, regions: 2, seed: 42 });
    const copiedSink = new CollectingSink();
    copied = { counts: await readGar(twice.out, copiedSink, { asOf: '2024-06-01' }), sink: copiedSink };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the layout: type lists at the root, one folder per region of AS_* files', async () => {
    const zip = await openZip(twice.out);
    const names = zip.entries.map((e) => e.fileName);
    zip.close();
    expect(names).toContain('01/');
    expect(names).toContain('02/');
    expect(names.filter((n) => /^AS_HOUSE_TYPES_\d{8}_[0-9a-f-]{36}\.XML$/i.test(n))).toHaveLength(1);
    expect(names.filter((n) => /^01\/AS_HOUSES_\d{8}_[0-9a-f-]{36}\.XML$/i.test(n))).toHaveLength(1);
    expect(names.filter((n) => /^02\/AS_ADM_HIERARCHY_\d{8}_[0-9a-f-]{36}\.XML$/i.test(n))).toHaveLength(1);
  });

  it('reads back through the real GAR reader with twice the houses, steads and street objects', () => {
    expect(twice.copies).toBe(2);
    expect(copied.counts.houses).toBe(2 * original.counts.houses);
    expect(copied.counts.steads).toBe(2 * original.counts.steads);
    expect(copied.counts.houses + copied.counts.steads).toBe(twice.houses);
    expect(copied.sink.rejects).toEqual(original.sink.rejects.flatMap((r) => [r, r]));
    const streets = (sink: CollectingSink) => sink.objects.filter((o) => o.level === Level.street).length;
    expect(streets(copied.sink)).toBe(2 * streets(original.sink));
  });

  it('gives every house and object new unique ids and GUIDs', () => {
    const houses = copied.sink.houses;
    expect(new Set(houses.map((h) => h.codes.gar)).size).toBe(houses.length);
    expect(new Set(houses.map((h) => h.codes.fias)).size).toBe(houses.length);
    const objects = copied.sink.objects;
    expect(new Set(objects.map((o) => o.codes.gar)).size).toBe(objects.length);
    expect(new Set(objects.map((o) => o.codes.fias)).size).toBe(objects.length);
    const originalIds = new Set([...original.sink.houses.map((h) => h.codes.fias), ...original.sink.objects.map((o) => o.codes.fias)]);
    expect([...houses, ...objects].filter((r) => originalIds.has(r.codes.fias))).toEqual([]);
  });

  it('makes each copy a named city under its folder\'s region, parents resolved', () => {
    const regions = copied.sink.objects.filter((o) => o.level === Level.region);
    expect(regions.map((r) => [r.type, r.codes.kladr])).toEqual([
      ['обл', '0100000000000'],
      ['обл', '0200000000000'],
    ]);
    const cities = copied.sink.objects.filter((o) => o.level === Level.city);
    expect(cities).toHaveLength(2);
    expect(new Set(cities.map((c) => c.name)).size).toBe(2);
    expect(cities.map((c) => c.parent).sort()).toEqual(regions.map((r) => r.key).sort());
    const keys = new Set(copied.sink.objects.map((o) => o.key));
    expect(copied.sink.houses.filter((h) => !keys.has(h.parent))).toEqual([]);
  });

  it('adds unique cadastral numbers to about the requested share of houses', () => {
    const houses = copied.sink.houses.filter((h) => !h.stead);
    const withNumber = houses.filter((h) => h.cadnum);
    expect(withNumber.length / houses.length).toBeGreaterThan(0.5);
    expect(withNumber.length / houses.length).toBeLessThan(0.7);
    expect(new Set(withNumber.map((h) => h.cadnum)).size).toBe(withNumber.length);
  });

  it('adds flats under every current house when asked', async () => {
    const withFlats = await generateGarScale({ source: SOURCE, out: join(dir, 'flats.zip'), houses: 1, regions: 1, seed: 42, apartmentsPerHouse: 2 });
    const sink = new CollectingSink();
    const counts = await readGar(withFlats.out, sink, { asOf: '2024-06-01' });
    expect(withFlats.apartmentsPerHouse).toBe(2);
    expect(counts.apartments).toBe(original.counts.apartments + 2 * original.counts.houses);
    expect(new Set(sink.apartments.map((a) => a.codes.fias)).size).toBe(sink.apartments.length);
    const houseIds = new Set(sink.houses.map((h) => `gar:${h.codes.gar}`));
    expect(sink.apartments.filter((a) => !houseIds.has(a.house))).toEqual([]);
    expect(sink.apartments.filter((a) => a.type === 'кв')).toHaveLength(2 * original.counts.houses);
  });

  it('writes the same archive for the same seed', async () => {
    const again = await generateGarScale({ source: SOURCE, out: join(dir, 'again.zip'), houses: twice.houses, regions: 2, seed: 42 });
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(again.out)).equals(await readFile(twice.out))).toBe(true);
  });
});
