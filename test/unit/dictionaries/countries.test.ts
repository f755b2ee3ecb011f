import { describe, expect, it } from 'vitest';
import { buildModels } from '../../../dictionaries/countries.js';
import { gaOf, type MergedHouse, type MergedModel } from '../../../dictionaries/merged-model.js';
import { Level } from '../../../dictionaries/source-model.js';
import { DATA_DIR, HAS_DATA } from '../../helpers/model-sink.js';

describe.runIf(HAS_DATA)('buildModels(dataDir) on the shared data', () => {
  let models: MergedModel[];
  const model = (country: string) => models.find((m) => m.country === country)!;
  const housesOf = (m: MergedModel, predicate: (h: MergedHouse) => boolean) => [...m.houses()].filter(predicate);

  it('builds four countries in well under a minute', async () => {
    const started = Date.now();
    models = await buildModels(DATA_DIR, () => {});
    expect(models.map((m) => m.country)).toEqual(['ru', 'kz', 'by', 'ua']);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('hangs thousands of Екатеринбург OSM houses under the FIAS city 2763c110…', () => {
    const ru = model('ru');
    const index = ru.objects.findIndex((o) => o.codes.fias === '2763c110-cb8b-416a-9dac-ad28a55b4402');
    expect(ru.objects[index]).toMatchObject({ name: 'Екатеринбург', level: Level.city, postcode: '620000', timezone: 'UTC+5' });
    expect(ru.objects[index].aliases).toEqual(expect.arrayContaining(['екб', 'ебург']));
    const streets = new Set(ru.objects.map((o, i) => (o.parent === index && o.level === Level.street ? i : -1)).filter((i) => i >= 0));
    expect(streets.size).toBeGreaterThan(700);
    const houses = housesOf(ru, (h) => streets.has(h.parent));
    expect(houses.length).toBeGreaterThan(10_000);
    const chelyuskintsev = ru.objects.findIndex((o) => o.parent === index && o.name === 'Челюскинцев');
    expect(ru.objects[chelyuskintsev].type).toBe('ул');
    expect(housesOf(ru, (h) => h.parent === chelyuskintsev && h.number === '11')[0]).toMatchObject({ postcode: '620027' });
  });

  it('joins GAR and hflabs Байконур and keeps the GAR house 4abf7720… with its postcode', () => {
    const ru = model('ru');
    const baikonur = ru.objects.findIndex((o) => o.codes.fias === '63ed1a35-4be6-4564-a1ec-0c51f7383314');
    expect(ru.objects[baikonur]).toMatchObject({ level: Level.region, codes: { gar: '1460768', kladr: '9900000000000' }, timezone: 'UTC+5' });
    const house = housesOf(ru, (h) => h.codes.fias === '4abf7720-fa42-482c-a2ec-cd564d9abc96')[0];
    expect(house).toMatchObject({ number: '5', postcode: '468325' });
    expect(ru.objects[house.parent]).toMatchObject({ name: 'Гагарина', codes: { fias: '8bbdbc9c-4435-4c82-8989-0b84d8480866' }, parent: baikonur });
    expect(ru.objects.filter((o) => o.source === 'gar')).toHaveLength(48);
  });

  it('gives the places of Kazakhstan, Belarus and Ukraine their time zone, the Crimea and Sevastopol theirs', () => {
    const zones = (country: string) => new Set(model(country).objects.map((o) => o.timezone));
    expect(zones('kz')).toEqual(new Set(['UTC+5']));
    expect(zones('by')).toEqual(new Set(['UTC+3']));
    const ua = model('ua');
    expect(zones('ua')).toEqual(new Set(['UTC+2', 'UTC+3']));
    const zoneOf = (name: string) => ua.objects.find((o) => o.level === Level.city && o.name === name)?.timezone;
    expect(zoneOf('Київ')).toBe('UTC+2');
    expect(zoneOf('Сімферополь')).toBe('UTC+3');
    expect(zoneOf('Севастополь')).toBe('UTC+3');
  });

  it('keeps Москва a region with its hflabs codes and the OSM streets under it', () => {
    const ru = model('ru');
    const moscow = ru.objects.findIndex((o) => o.codes.fias === '0c5b2444-70a0-4932-980c-b4dc0d3f02b5');
    expect(ru.objects[moscow]).toMatchObject({ level: Level.region, postcode: '101000', codes: { kladr: '7700000000000' } });
    expect(gaOf(ru, moscow)).toBe('RU0770000000000000000000000');
    expect(ru.objects.some((o) => o.level === Level.city && o.name === 'Москва')).toBe(false);
    expect(ru.objects.find((o) => o.parent === moscow && o.name === 'Ленинградский')).toMatchObject({ type: 'пр-кт' });
  });

  it('gives every Tatarstan town its own «улица Ленина» under the registry town', () => {
    const ru = model('ru');
    const almetyevsk = ru.objects.findIndex((o) => o.name === 'Альметьевск' && o.level === Level.city);
    expect(ru.objects[almetyevsk].codes.fias).toBeTruthy();
    const lenina = ru.objects.findIndex((o) => o.parent === almetyevsk && o.name === 'Ленина');
    expect(housesOf(ru, (h) => h.parent === lenina).length).toBeGreaterThan(100);
    const tatarstan = ru.objects[ru.objects.findIndex((o) => o.name === 'Татарстан')];
    const villages = ru.objects.filter((o) => o.source === 'osm' && o.level === Level.settlement && ru.objects[o.parent] === tatarstan);
    expect(villages.length).toBeGreaterThan(10);
  });

  it('makes ga codes unique and well-formed', () => {
    for (const m of models) {
      const codes = m.objects.map((_, i) => gaOf(m, i));
      expect(new Set(codes).size).toBe(codes.length);
      expect(codes.every((c) => new RegExp(`^${m.country.toUpperCase()}\\d{25}$`).test(c))).toBe(true);
    }
  });

  it('makes OSM Київ and KATOTTG Київ one object, called Киев too', () => {
    const ua = model('ua');
    const region = ua.objects.findIndex((o) => o.name === 'Київ' && o.level === Level.region);
    expect(ua.objects[region].codes.okato).toBe('UA80000000000093317');
    // the city of special status holds the city of Київ, which OSM's place Київ joined
    const kyiv = ua.objects.filter((o) => o.name === 'Київ' && o.level === Level.city);
    expect(kyiv).toHaveLength(1);
    expect(kyiv[0].parent).toBe(region);
    expect(kyiv[0].aliases).toEqual(expect.arrayContaining(['Киев']));
    const index = ua.objects.indexOf(kyiv[0]);
    expect(housesOf(ua, (h) => ua.objects[h.parent].parent === index).length).toBeGreaterThan(150);
  });

  it('puts the Minsk OSM houses under the Belarus capital', () => {
    const by = model('by');
    const minsk = by.objects.findIndex((o) => o.name === 'Минск' && o.level === Level.region);
    expect(by.objects[minsk].postcode).toBe('220000');
    expect(housesOf(by, (h) => by.objects[h.parent].parent === minsk).length).toBeGreaterThan(100);
  });
});
