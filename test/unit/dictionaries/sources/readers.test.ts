import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { readGeonamesPostal } from '../../../../dictionaries/sources/geonames.js';
import { parseKatoName, readKato } from '../../../../dictionaries/sources/kz.js';
import { readMetro } from '../../../../dictionaries/sources/metro.js';
import { readPost } from '../../../../dictionaries/sources/post.js';
import { readKatottg } from '../../../../dictionaries/sources/ua.js';
import { CollectingSink, DATA_DIR, FIXTURES, HAS_DATA } from '../../../helpers/model-sink.js';

describe('readPost(path, sink)', () => {
  it('keeps delivery offices with the Post spelling of the region, skips numeric cities', async () => {
    const sink = new CollectingSink();
    const counts = await readPost(resolve(FIXTURES, 'pindx.csv'), sink);
    expect(counts).toEqual({ offices: 3, skipped: 2 });
    expect(sink.postcodes[0]).toEqual({ postcode: '428000', region: 'Чувашия Республика', city: 'Чебоксары' });
    expect(sink.postcodes[2]).toEqual({ postcode: '166000', region: 'Ненецкий автономный округ', city: 'Нарьян-Мар' });
    expect(sink.sources[0].date).toBe('20210101');
  });
});

describe('readMetro(path, sink, {cities})', () => {
  it('keeps the stations of the given cities', async () => {
    const sink = new CollectingSink();
    expect(await readMetro(resolve(FIXTURES, 'metro.json'), sink, { cities: ['Москва'] })).toEqual({ stations: 1, cities: 1 });
    expect(sink.metro).toEqual([{ name: 'Лубянка', line: 'Сокольническая', city: 'Москва', lat: 55.759, lon: 37.626 }]);
  });
});

describe('readKato(path, sink)', () => {
  it('parses KATO names into name and type', () => {
    expect(parseKatoName('область Абай', 'oblast', false)).toEqual({ name: 'Абай', type: 'обл', level: Level.region });
    expect(parseKatoName('г.Алматы', 'oblast', false)).toEqual({ name: 'Алматы', type: 'г', level: Level.region });
    expect(parseKatoName('Карааульский с.о.', 'sub_district', false).level).toBeNull();
    expect(parseKatoName('Алмалинский район', 'district', true)).toEqual({ name: 'Алмалинский', type: 'р-н', level: Level.cityArea });
  });

  it('hangs villages of a rural okrug under the district and city districts under the city-region', async () => {
    const sink = new CollectingSink('kz');
    expect(await readKato(resolve(FIXTURES, 'kato.csv'), sink)).toEqual({ objects: 7, skipped: 1 });
    expect(sink.object('kato:103230100')).toMatchObject({ name: 'Карааул', type: 'с', level: Level.settlement, parent: 'kato:103200000' });
    expect(sink.object('kato:101010000')).toMatchObject({ name: 'Семей', level: Level.city, parent: 'kato:101000000' });
    expect(sink.object('kato:751110000')).toMatchObject({ level: Level.cityArea, parent: 'kato:750000000' });
    expect(sink.object('kato:100000000')).toMatchObject({ aliases: ['Абай облысы'], codes: { okato: '100000000' } });
  });
});

describe('readKatottg(path, sink)', () => {
  it('maps categories to levels and skips hromadas', async () => {
    const sink = new CollectingSink('ua');
    expect(await readKatottg(resolve(FIXTURES, 'katottg.csv'), sink)).toEqual({ objects: 7, skipped: 1 });
    expect(sink.object('katottg:UA32080030010013253')).toMatchObject({ name: 'Буча', type: 'м', level: Level.city, parent: 'katottg:UA32080000000023212' });
    expect(sink.object('katottg:UA80000000000093317')).toMatchObject({ name: 'Київ', level: Level.region, parent: null });
    // a city of special status is a region with the city of the same name in it; its districts are the city's
    expect(sink.object('katottg:UA80000000000093317:city')).toMatchObject({ name: 'Київ', level: Level.city, parent: 'katottg:UA80000000000093317' });
    expect(sink.object('katottg:UA80000000000126643')).toMatchObject({ level: Level.cityArea, parent: 'katottg:UA80000000000093317:city' });
  });
});

describe('readGeonamesPostal(path, sink)', () => {
  it('creates Belarus regions, the capital and places, with postcodes', async () => {
    const sink = new CollectingSink('by');
    await readGeonamesPostal(resolve(FIXTURES, 'geonames-BY.txt'), sink, { createObjects: true, capital: { name: 'Минск', admin1: 'Minsk', aliases: ['Мінск'] } });
    expect(sink.object('geonames:region:минск')).toMatchObject({ level: Level.region, type: 'г', aliases: ['Мінск'] });
    expect(sink.object('geonames:витебская|витебск')).toMatchObject({ level: Level.city, postcode: '210000', lat: 55.1904, parent: 'geonames:region:витебская' });
    expect(sink.object('geonames:витебская|старь')).toMatchObject({ level: Level.settlement });
    expect(sink.postcodes.filter((p) => p.region === 'Минск').map((p) => p.postcode)).toEqual(['220000', '220002']);
    expect(sink.rejects).toEqual(['geonames: region not in geonames-regions.tsv']);
  });

  it('only adds postcodes for Ukraine, with the registry region name', async () => {
    const sink = new CollectingSink('ua');
    await readGeonamesPostal(resolve(FIXTURES, 'geonames-UA.txt'), sink);
    expect(sink.objects).toEqual([]);
    expect(sink.postcodes[1]).toEqual({ postcode: '08292', region: 'Київська', city: 'Буча', lat: 50.5432, lon: 30.2121 });
  });
});

describe.runIf(HAS_DATA)('registry readers on the real files', () => {
  it('reads the whole KATO, KATOTTG and Post files', async () => {
    const kz = new CollectingSink('kz');
    const kato = await readKato(resolve(DATA_DIR, 'kz/kato.csv'), kz);
    expect(kato.objects).toBeGreaterThan(13_000);
    expect(kz.objects.filter((o) => o.level === Level.region)).toHaveLength(20);
    const ua = new CollectingSink('ua');
    const katottg = await readKatottg(resolve(DATA_DIR, 'ua/katottg-2025-05-16.csv'), ua);
    // 31 748 rows, plus the city inside each of the two cities of special status (Київ, Севастополь)
    expect(katottg.objects + katottg.skipped).toBe(31_748 + 2);
    expect(ua.objects.filter((o) => o.level === Level.region)).toHaveLength(27);
    const post = new CollectingSink();
    const offices = await readPost(resolve(DATA_DIR, 'ru/post/pindx.csv'), post);
    expect(offices.offices + offices.skipped).toBe(61_429);
    expect(post.postcodes.find((p) => p.postcode === '620000')).toMatchObject({ city: 'Екатеринбург' });
  });
});
