import { describe, expect, it } from 'vitest';
import { buildModels } from '../../../../dictionaries/countries.js';
import { gaOf, type MergedHouse, type MergedModel } from '../../../../dictionaries/merged-model.js';
import { ModelBuilder } from '../../../../dictionaries/merge/sink.js';
import { Level, type AddressObject } from '../../../../dictionaries/source-model.js';
import { DATA_DIR, HAS_DATA } from '../sink.js';

const region = (extra: Partial<AddressObject> = {}): AddressObject => ({
  key: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
  level: Level.region,
  parent: null,
  name: 'Москва',
  type: 'г',
  codes: { fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', kladr: '7700000000000' },
  source: 'gar',
  ...extra,
});

function small(): ModelBuilder {
  const builder = new ModelBuilder('ru');
  builder.addObject(region());
  builder.addObject(region({ key: 'hf:moscow', codes: { fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', okato: '45000000000' }, timezone: 'UTC+3', postcode: '101000', source: 'hflabs' }));
  builder.addObject({ key: 'fias:s1', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Тверская', type: 'ул', codes: { fias: 's1' }, source: 'gar' });
  builder.addObject({ key: 'fias:s2', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Арбат', type: 'ул', codes: {}, source: 'gar' });
  builder.addObject({ key: 'fias:orphan', level: Level.street, parent: 'fias:nowhere', name: 'Нигде', type: 'ул', codes: {}, source: 'gar' });
  // OSM knows Москва as a city and Тверская as «Тверская улица»: both join by name
  builder.addObject({ key: 'osm:city:москва', level: Level.city, parent: null, name: 'Москва', type: 'г', codes: {}, regionName: 'г. Москва', joinByName: true, lat: 55.75, lon: 37.61, source: 'osm' });
  builder.addObject({ key: 'osm:city:москва:тверская улица', level: Level.street, parent: 'osm:city:москва', name: 'Тверская', type: 'ул', codes: { osm: 'W1' }, joinByName: true, source: 'osm' });
  builder.addHouse({ parent: 'fias:s2', number: '1', codes: {}, source: 'gar', postcode: '119002' });
  builder.addHouse({ parent: 'osm:city:москва:тверская улица', number: '7', codes: { osm: 'W7' }, postcode: '125009', lat: 55.76, lon: 37.61, source: 'osm' });
  builder.addHouse({ parent: 'fias:s2', number: '2', codes: {}, source: 'gar', postcode: '119002' });
  builder.addHouse({ parent: 'osm:city:москва:тверская улица', number: '9', codes: { osm: 'W9' }, postcode: '125009', lat: 55.78, lon: 37.63, source: 'osm' });
  builder.addHouse({ parent: 'fias:s2', number: '3', codes: {}, source: 'gar', postcode: '119019' });
  builder.addHouse({ parent: 'fias:orphan', number: '1', codes: {}, source: 'gar' });
  return builder;
}

describe('ModelBuilder.finish()', () => {
  it('joins records of one place by FIAS id and by name, with all their codes', () => {
    const model = small().finish();
    const regions = model.objects.filter((o) => o.level === Level.region);
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ codes: { kladr: '7700000000000', okato: '45000000000' }, postcode: '101000', timezone: 'UTC+3', lat: 55.75 });
    expect(model.objects.filter((o) => o.level === Level.city)).toEqual([]);
    const tverskaya = model.objects.filter((o) => o.name === 'Тверская');
    expect(tverskaya).toHaveLength(1);
    expect(tverskaya[0]).toMatchObject({ codes: { fias: 's1', osm: 'W1' }, timezone: 'UTC+3', source: 'gar' });
  });

  it('rejects an object whose parent never arrived, and its houses', () => {
    const model = small().finish();
    expect(model.objects.some((o) => o.name === 'Нигде')).toBe(false);
    expect(model.summary['rejected gar: parent missing']).toBe(1);
    expect(model.summary['rejected houses: parent object missing']).toBe(1);
    expect(model.houseCount).toBe(5);
  });

  it('yields houses grouped by parent, with postcode and coordinates rolled up', () => {
    const model = small().finish();
    const houses = [...model.houses()];
    const parents = houses.map((h) => h.parent);
    expect(parents).toEqual([...parents].sort((a, b) => a - b));
    expect(houses.filter((h) => model.objects[h.parent].name === 'Арбат').map((h) => h.number)).toEqual(['1', '2', '3']);
    const arbat = model.objects.find((o) => o.name === 'Арбат')!;
    expect(arbat.postcode).toBe('119002');
    const tverskaya = model.objects.find((o) => o.name === 'Тверская')!;
    expect(tverskaya).toMatchObject({ postcode: '125009', geoLevel: Level.street });
    expect(tverskaya.lat).toBeCloseTo(55.77, 5);
    expect(tverskaya.lon).toBeCloseTo(37.62, 5);
  });

  it('gives a place the most common postcode of the houses below it, the least at a tie, and a region only its own', () => {
    const builder = new ModelBuilder('ru');
    builder.addObject(region({ key: 'gar:1', codes: { kladr: '6600000000000' }, name: 'Свердловская', type: 'обл' }));
    builder.addObject({ key: 'gar:2', level: Level.city, parent: 'gar:1', name: 'Березовский', type: 'г', codes: {}, source: 'gar' });
    const street = (key: string, name: string) => builder.addObject({ key, level: Level.street, parent: 'gar:2', name, type: 'ул', codes: {}, source: 'gar' });
    street('gar:3', 'Ленина');
    street('gar:4', 'Мира');
    const house = (parent: string, number: string, postcode: string) => builder.addHouse({ parent, number, codes: {}, source: 'gar', postcode });
    house('gar:3', '1', '623702');
    house('gar:3', '2', '623702');
    house('gar:4', '1', '623701');
    house('gar:4', '2', '623701');
    house('gar:2', '5', '623703');
    house('gar:1', '9', '620000');
    const model = builder.finish();
    const postcodeOf = (name: string) => model.objects.find((o) => o.name === name)!.postcode;
    expect([postcodeOf('Ленина'), postcodeOf('Мира'), postcodeOf('Березовский'), postcodeOf('Свердловская')])
      .toEqual(['623702', '623701', '623701', '620000']);
  });

  it('lends a place\'s postcode to its streets without one only when the place has one postcode', () => {
    const builder = new ModelBuilder('ru');
    builder.addObject(region({ key: 'gar:1', codes: { kladr: '6600000000000' }, name: 'Свердловская', type: 'обл' }));
    builder.addObject({ key: 'gar:2', level: Level.city, parent: 'gar:1', name: 'Екатеринбург', type: 'г', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:3', level: Level.city, parent: 'gar:1', name: 'Березовский', type: 'г', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:4', level: Level.street, parent: 'gar:2', name: 'Ленина', type: 'ул', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:5', level: Level.street, parent: 'gar:3', name: 'Мира', type: 'ул', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:6', level: Level.street, parent: 'gar:1', name: 'Трактовая', type: 'ул', codes: {}, source: 'gar' });
    for (const postcode of ['620000', '620014', '620075']) builder.addPostcode({ postcode, region: 'Свердловская обл', city: 'Екатеринбург' });
    builder.addPostcode({ postcode: '623700', region: 'Свердловская обл', city: 'Березовский' });
    builder.addPostcode({ postcode: '620999', region: 'Свердловская обл' });
    const model = builder.finish();
    const postcodeOf = (name: string) => model.objects.find((o) => o.name === name)!.postcode ?? '';
    // a big city's and a region's postcode is their main office's: no street's in them
    expect([postcodeOf('Екатеринбург'), postcodeOf('Ленина')]).toEqual(['620000', '']);
    expect(postcodeOf('Трактовая')).toBe('');
    // a town of one post office: its streets share its postcode
    expect([postcodeOf('Березовский'), postcodeOf('Мира')]).toEqual(['623700', '623700']);
  });

  it('numbers ga codes by the region KLADR code and children in name order', () => {
    const model = small().finish();
    const ga = (found: (o: MergedModel['objects'][number]) => boolean) => gaOf(model, model.objects.findIndex(found));
    expect(ga((o) => o.level === Level.region)).toBe('RU0770000000000000000000000');
    expect(ga((o) => o.name === 'Арбат')).toBe('RU0770000000000000000000001');
    expect(ga((o) => o.name === 'Тверская')).toBe('RU0770000000000000000000002');
    const again = small().finish();
    expect(again.objects.map((_, i) => gaOf(again, i))).toEqual(model.objects.map((_, i) => gaOf(model, i)));
    // the codes are the model's (one byte array), not strings on its objects
    expect(model.objects.every((o) => o.ga === undefined)).toBe(true);
  });

  it('attaches popular names from aliases.tsv', () => {
    const model = small().finish();
    expect(model.objects[0].aliases).toEqual(expect.arrayContaining(['мск']));
  });

  it('attaches name variants to streets named after people', () => {
    const builder = small();
    builder.addObject({ key: 'fias:s3', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Карла Маркса', type: 'ул', codes: {}, source: 'gar' });
    const model = builder.finish();
    expect(model.objects.find((o) => o.name === 'Карла Маркса')!.aliases).toEqual(['К. Маркса', 'К.Маркса', 'Маркса']);
    expect(model.summary['streets with name variants']).toBe(1);
  });
});

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

describe('ModelBuilder municipal entities', () => {
  const ARBAT = 'fias:s2';
  const entity = (key: string, name: string, codes = {}) => ({ key, name, type: 'вн.тер.г', codes, source: 'gar' });

  it('numbers the entities by name, keeps what objects and the odd house refer to, and counts dangling keys', () => {
    const builder = small();
    builder.addMunicipal(entity('fias:m2', 'Хамовники', { gar: '2' }));
    builder.addMunicipal(entity('fias:m1', 'Арбат', { gar: '1' }));
    builder.addMunicipal(entity('fias:m1', 'Арбат', { oktmo: '45374000' }));
    builder.addObject({ key: ARBAT, level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Арбат', type: 'ул', codes: {}, municipal: 'fias:m1', source: 'gar' });
    builder.addObject({ key: 'fias:s1', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Тверская', type: 'ул', codes: {}, municipal: 'fias:gone', source: 'gar' });
    builder.addHouse({ parent: ARBAT, number: '4', codes: {}, municipal: 'fias:m2', source: 'gar' });
    const model = builder.finish();
    expect(model.municipals).toEqual([
      entity('fias:m1', 'Арбат', { gar: '1', oktmo: '45374000' }),
      entity('fias:m2', 'Хамовники', { gar: '2' }),
    ]);
    const arbat = model.objects.find((o) => o.key === ARBAT)!;
    expect(arbat.municipal).toBe(0);
    // its entity never arrived: none (and counted below)
    expect(model.objects.find((o) => o.key === 'fias:s1')!.municipal).toBeUndefined();
    const houses = [...model.houses()].filter((h) => model.objects[h.parent].key === ARBAT);
    expect(houses.map((h) => [h.number, h.municipal])).toEqual([['1', undefined], ['2', undefined], ['3', undefined], ['4', 1]]);
    expect(model.summary).toMatchObject({ 'municipal entities': 2, 'objects with a municipal entity': 1, 'rejected municipal references: entity missing': 1 });
  });
});
