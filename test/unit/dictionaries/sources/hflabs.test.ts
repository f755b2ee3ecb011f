import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { readHflabs } from '../../../../dictionaries/sources/hflabs.js';
import { CollectingSink, DATA_DIR, FIXTURES, HAS_DATA } from '../../../helpers/model-sink.js';

describe('readHflabs(paths, sink) on fixtures', () => {
  const paths = { region: resolve(FIXTURES, 'region.csv'), city: resolve(FIXTURES, 'city.csv') };

  it('folds a federal city row into its region instead of creating a city', async () => {
    const sink = new CollectingSink();
    await readHflabs(paths, sink);
    const moscow = sink.objects.filter((o) => o.key === '0c5b2444-70a0-4932-980c-b4dc0d3f02b5');
    expect(moscow.every((o) => o.level === Level.region)).toBe(true);
    expect(moscow[0]).toMatchObject({ name: 'Москва', type: 'г', postcode: '101000', timezone: 'UTC+3', iso: 'RU-MOW', codes: { kladr: '7700000000000' } });
    expect(moscow[1]).toMatchObject({ lat: 55.7540471, population: 11514330 });
    expect(sink.objects.some((o) => o.level === Level.city && o.name === 'Москва')).toBe(false);
  });

  it('puts the place the FIAS id names at city level, areas as objects', async () => {
    const sink = new CollectingSink();
    const counts = await readHflabs(paths, sink);
    expect(counts).toEqual({ regions: 3, cities: 4, areas: 1 });
    expect(sink.object('daa6815b-0cf0-44c7-981c-84d72d51f2b1')).toMatchObject({ level: Level.city, name: 'Алупка', type: 'г' });
    const aramil = sink.object('6b0ff2a4-0de1-4ba9-a7e8-b34a4a2fe2c5')!;
    const area = sink.object(aramil.parent!)!;
    expect(area).toMatchObject({ level: Level.area, name: 'Сысертский', type: 'р-н', parent: '92b30014-4d52-4e2e-892d-928142b924bf' });
    // an area written as a city (FIAS level 3) is the city, with no area object
    expect(sink.objects.find((o) => o.name === 'Верхняя Пышма')).toMatchObject({ level: Level.city, type: 'г', parent: '92b30014-4d52-4e2e-892d-928142b924bf' });
  });

  it('names the file and line of a bad FIAS id', async () => {
    await expect(readHflabs({ region: paths.region, city: resolve(FIXTURES, 'city-bad.csv') }, new CollectingSink())).rejects.toThrow(/city-bad\.csv: line 2: bad fias_id "not-a-guid"/);
  });
});

describe.runIf(HAS_DATA)('readHflabs(paths, sink) on the real tables', () => {
  it('reads 86 regions and ≈1100 cities with Москва and Екатеринбург', async () => {
    const sink = new CollectingSink();
    const counts = await readHflabs({ region: resolve(DATA_DIR, 'ru/hflabs/region.csv'), city: resolve(DATA_DIR, 'ru/hflabs/city.csv') }, sink);
    expect(counts.regions).toBe(86);
    expect(counts.cities).toBeGreaterThan(1100);
    expect(sink.object('0c5b2444-70a0-4932-980c-b4dc0d3f02b5')).toMatchObject({ postcode: '101000', codes: { kladr: '7700000000000' } });
    expect(sink.object('2763c110-cb8b-416a-9dac-ad28a55b4402')).toMatchObject({ name: 'Екатеринбург', level: Level.city, timezone: 'UTC+5' });
    expect(sink.object('63ed1a35-4be6-4564-a1ec-0c51f7383314')).toMatchObject({ name: 'Байконур', level: Level.region });
  });
});
