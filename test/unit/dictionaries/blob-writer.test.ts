/**
 * Blob round trip: a merged model written by hand → encodeBlob → LoadedDictionary.fromBytes (debug core)
 * → every section read back, through the host columns and through the core (house keys, names, grid,
 * metro). And the loader's refusal of a blob it cannot read.
 */
import { pack, unpack } from 'msgpackr';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOB_MAGIC, FORMAT_VERSION, byTrieReading, encodeBlob, flattenTrie, genitiveName, initialName, isSpelling, loadTypeTable, renumberWords, typeWordsIn, wordWeight, writeBlob } from '../../../dictionaries/blob-writer.js';
import { BlobError, LoadedDictionary, decodeBlob } from '../../../engine/dictionary.js';
import { HouseStore, Int32Builder } from '../../../dictionaries/house-store.js';
import type { AddressEngine } from '../../../engine/engine.js';
import { debugWasm, houseOf, viewOf } from '../../helpers/engine.js';
import {
  CITY, LENINA, MARTA, REGION, SMALL_APARTMENTS, SMALL_HOUSES, SMALL_METRO, SMALL_OBJECTS, engineOfModel, mergedModel, smallModel, streetsModel,
} from '../../helpers/model.js';

describe('encodeBlob(model) → LoadedDictionary.fromBytes', () => {
  let engine: AddressEngine;
  let dict: LoadedDictionary;
  let bytes: Uint8Array;

  beforeAll(async () => {
    ({ engine, dict, bytes } = await engineOfModel(smallModel()));
  });

  describe('header', () => {
    it('starts with the magic and the format version the loader reads', () => {
      const blob = unpack(bytes) as { magic: string; format: number };
      expect(blob.magic).toBe(BLOB_MAGIC);
      expect(blob.format).toBe(FORMAT_VERSION);
      expect(decodeBlob(bytes).format).toBe(FORMAT_VERSION);
    });

    it('carries the country, the source date, the sources and the counts', () => {
      expect(dict.country).toBe('ru');
      expect(dict.sourceDate).toBe('20240501');
      expect(dict.sources).toEqual([{ name: 'hand-written test model', date: '20240501', licence: 'CC0' }]);
      expect(dict.counts).toMatchObject({ objects: 4, houses: SMALL_HOUSES.length, apartments: 1, metro: 3 });
      expect(dict.buildId).toMatch(/^[0-9a-f]{16}$/);
    });

    it('reports what it wrote in stats', () => {
      const { stats } = encodeBlob(smallModel());
      expect(stats).toMatchObject({ objects: 4, houses: SMALL_HOUSES.length });
      // one name per object, plus the alias Ебург, the historical name Царская and the region's genitive Свердловской
      expect(stats.names).toBe(7);
      expect(stats.bytes).toBeGreaterThan(0);
    });
  });

  describe('objects', () => {
    it('reads back every object with its level, parent, type and codes', () => {
      expect(dict.objectCount).toBe(SMALL_OBJECTS.length);
      SMALL_OBJECTS.forEach((o, id) => {
        const info = dict.object(id);
        expect(info).toMatchObject({
          id, level: o.level, parent: o.parent, name: o.name, type: o.type,
          postcode: o.postcode ?? '', timezone: o.timezone ?? '', lat: o.lat, lon: o.lon,
        });
        expect(info.codes).toEqual({
          fias: o.codes.fias ?? '', ga: o.ga, osm: o.codes.osm ?? '', gar: o.codes.gar ?? '', kladr: o.codes.kladr ?? '',
        });
      });
      expect(dict.object(REGION)).toMatchObject({ okato: '65000000000', oktmo: '65000000', ifns: '6600' });
    });

    it('builds fullName on the side conventions.md gives each type', () => {
      expect(dict.object(REGION).fullName).toBe('Свердловская обл');
      expect(dict.object(CITY).fullName).toBe('г Екатеринбург');
      expect(dict.object(LENINA).fullName).toBe('пр-кт Ленина');
      expect(dict.object(MARTA).fullName).toBe('ул 8 Марта');
    });

    it('chains an object up to its region', () => {
      expect(dict.chain(LENINA)).toEqual([REGION, CITY, LENINA]);
      expect(dict.chain(REGION)).toEqual([REGION]);
    });
  });

  describe('houses', () => {
    it('reads back every house column', () => {
      expect(dict.houseCount).toBe(SMALL_HOUSES.length);
      SMALL_HOUSES.forEach((h, id) => {
        const info = dict.house(id);
        expect(info).toMatchObject({
          id, parent: h.parent, number: h.number, block: h.block ?? '', building: h.building ?? '', liter: h.liter ?? '',
          construction: h.construction ?? '', possession: !!h.possession, stead: !!h.stead, multiFlat: !!h.multiFlat,
          postcode: h.postcode ?? '', lat: h.lat ?? 0, lon: h.lon ?? 0, cadnum: h.cadnum ?? '', flatCount: h.flatCount ?? 0,
        });
        expect(info.codes).toEqual({ fias: h.codes.fias ?? '', ga: '', osm: h.codes.osm ?? '', gar: h.codes.gar ?? '', kladr: '' });
      });
    });

    it('finds each house\'s parent without storing it, objects without houses in between', async () => {
      // the city and region own no houses; Ленина (before) and 8 Марта (after) do
      const { dict: d } = await engineOfModel(smallModel());
      SMALL_HOUSES.forEach((h, id) => expect(d.house(id).parent).toBe(h.parent));
    });

    it('writes the same houses from a house store with rows (the merge) as from house objects', async () => {
      const store = new HouseStore();
      for (const i of [3, 0, 5, 1, 4, 2]) store.add(SMALL_HOUSES[i], SMALL_HOUSES[i].parent);
      const { rows, counts } = store.order((parent) => parent, SMALL_OBJECTS.length);
      const listed = [...rows].map((row) => store.get(row, store.parentIdOf(row)));
      const { dict: fromRows, engine: rowsEngine } = await engineOfModel({ ...mergedModel(SMALL_OBJECTS, listed), houseRows: { store, rows, counts } });
      const { dict: fromObjects, engine: objectsEngine } = await engineOfModel(mergedModel(SMALL_OBJECTS, listed));
      expect(fromRows.houseCount).toBe(SMALL_HOUSES.length);
      for (let id = 0; id < SMALL_HOUSES.length; id++) expect(fromRows.house(id)).toEqual(fromObjects.house(id));
      for (const q of ['екатеринбург ленина 10 к2', 'екатеринбург 8 марта 12 с3']) {
        expect(rowsEngine.standardize('ru', q)).toEqual(objectsEngine.standardize('ru', q));
      }
    });

    it('refuses houses that are not grouped by parent in object order', () => {
      const shuffled = [SMALL_HOUSES[4], ...SMALL_HOUSES.slice(0, 4)];
      expect(() => encodeBlob(mergedModel(SMALL_OBJECTS, shuffled))).toThrow(/grouped by parent in object order/);
    });

    it('leaves out house columns no house fills (no coordinates, no cadastral numbers, no OSM ids)', async () => {
      const bare = SMALL_HOUSES.map(({ lat: _lat, lon: _lon, cadnum: _cadnum, flatCount: _flats, ...h }) => ({ ...h, codes: { gar: h.codes.gar } }));
      const { bytes: b, dict: d } = await engineOfModel(mergedModel(SMALL_OBJECTS, bare));
      const blob = decodeBlob(b);
      expect(Object.keys(blob.core)).not.toContain('houseCoords');
      for (const name of ['cadnum', 'flatCount', 'osmType', 'osmId', 'fias']) expect(Object.keys(blob.host.houses)).not.toContain(name);
      expect(d.house(0)).toMatchObject({ lat: 0, lon: 0, cadnum: '', flatCount: 0, codes: { fias: '', osm: '', gar: '5000' } });
      expect(d.houseHasCoordinates(0)).toBe(false);
      expect(d.findById('GAR', '5005')).toEqual({ kind: 'house', id: 5 });
    });

    it('keeps microdegree precision of coordinates', () => {
      expect(dict.house(0).lat).toBeCloseTo(56.839, 6);
      expect(dict.house(0).lon).toBeCloseTo(60.61, 6);
    });
  });

  describe('apartments', () => {
    it('reads back the apartment and its house', () => {
      expect(dict.apartmentCount).toBe(1);
      expect(dict.apartment(0)).toEqual({
        id: 0, house: 0, number: '5', type: 'кв', cadnum: SMALL_APARTMENTS[0].cadnum,
        codes: { fias: SMALL_APARTMENTS[0].codes.fias, ga: '', osm: '', gar: '7000', kladr: '' },
      });
    });

    it('lists each house\'s apartments in order and finds them by id, whatever order the model gives', async () => {
      const flat = (house: number, number: string, gar: number, cadnum?: string) =>
        ({ house, number, type: number.startsWith('оф') ? 'оф' : 'кв', codes: { gar: String(gar), fias: `00000000-0000-4000-8000-${String(gar).padStart(12, '0')}` }, cadnum, source: 'test' });
      const given = [flat(4, '2', 8002), flat(0, '1', 8000), flat(4, '3', 8003, '66:41:0000000:77'), flat(0, 'оф 2', 8001), flat(5, '1', 8004)];
      const { dict: d } = await engineOfModel(mergedModel(SMALL_OBJECTS, SMALL_HOUSES, given));
      expect(d.apartmentCount).toBe(5);
      expect(d.apartmentsOf(0).map((id) => d.apartment(id).number)).toEqual(['1', 'оф 2']);
      expect(d.apartmentsOf(4).map((id) => d.apartment(id).number)).toEqual(['2', '3']);
      expect(d.apartmentsOf(5).map((id) => d.apartment(id).codes.gar)).toEqual(['8004']);
      expect(d.apartmentsOf(1)).toEqual([]);
      expect(d.apartmentsOf(9)).toEqual([]);
      const found = d.findById('GAR', '8003');
      expect(found?.kind).toBe('apartment');
      expect(d.apartment(found!.id)).toMatchObject({ house: 4, number: '3', type: 'кв', cadnum: '66:41:0000000:77' });
      expect(d.findById('FIAS', '00000000-0000-4000-8000-000000008001')).toMatchObject({ kind: 'apartment' });
      expect(d.findById('GAR', '8009')).toBeNull();
    });
  });

  describe('findById(kind, id)', () => {
    it('finds objects by FIAS (any case), GAR, KLADR, OSM and GA', () => {
      expect(dict.findById('FIAS', '2763C110-CB8B-416A-9DAC-AD28A55B4402')).toEqual({ kind: 'object', id: CITY });
      expect(dict.findById('GAR', '1002')).toEqual({ kind: 'object', id: LENINA });
      expect(dict.findById('KLADR', '6600000100000')).toEqual({ kind: 'object', id: CITY });
      expect(dict.findById('KLADR', '66000001000045600')).toEqual({ kind: 'object', id: MARTA });
      expect(dict.findById('OSM', 'r79379')).toEqual({ kind: 'object', id: REGION });
      expect(dict.findById('GA', 'RU0660000100000000000000001')).toEqual({ kind: 'object', id: LENINA });
    });

    it('reads a KLADR code with an actuality suffix as its current record', () => {
      // (found by an obsolete code: quality.actuality 1 in idsearch)
      expect(dict.findById('KLADR', '6600000100051')).toEqual({ kind: 'object', id: CITY, obsolete: true });
      expect(dict.findById('KLADR', '6600000100000')).toEqual({ kind: 'object', id: CITY });
      expect(dict.findById('KLADR', '6600000100001234500')).toEqual({ kind: 'object', id: LENINA });
    });

    it('finds houses by FIAS, GAR and OSM and apartments by FIAS and GAR', () => {
      expect(dict.findById('FIAS', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee')).toEqual({ kind: 'house', id: 0 });
      expect(dict.findById('GAR', '5004')).toEqual({ kind: 'house', id: 4 });
      expect(dict.findById('OSM', 'R5002')).toEqual({ kind: 'house', id: 2 });
      expect(dict.findById('FIAS', '99999999-8888-4777-8666-555555555555')).toEqual({ kind: 'apartment', id: 0 });
      expect(dict.findById('GAR', '7000')).toEqual({ kind: 'apartment', id: 0 });
    });

    it('detects the registry from the id shape for UNKNOWN', () => {
      expect(dict.findById('UNKNOWN', '92b30014-4d52-4e2e-892d-928142b924bf')).toEqual({ kind: 'object', id: REGION });
      expect(dict.findById('UNKNOWN', 'W777')).toEqual({ kind: 'object', id: MARTA });
      expect(dict.findById('UNKNOWN', 'w777')).toEqual({ kind: 'object', id: MARTA });
      expect(dict.findById('UNKNOWN', 'RU0660000000000000000000000')).toEqual({ kind: 'object', id: REGION });
      expect(dict.findById('UNKNOWN', '66000001000012300')).toEqual({ kind: 'object', id: LENINA });
      expect(dict.findById('UNKNOWN', '5001')).toEqual({ kind: 'house', id: 1 });
    });

    it('returns null for an id it does not hold', () => {
      expect(dict.findById('GAR', '424242')).toBeNull();
      expect(dict.findById('FIAS', '12345678-1234-4234-8234-123456789012')).toBeNull();
      expect(dict.findById('UNKNOWN', 'not an id')).toBeNull();
    });
  });

  describe('core sections', () => {
    it('finds every house key shape the writer folded: 10, 10а, 10к2, 9/1, 12с3 with a liter', () => {
      const house = (q: string) => houseOf(dict, engine.standardize('ru', q));
      expect(house('Екатеринбург, пр-кт Ленина, д 10')).toBe('10');
      expect(house('Екатеринбург, пр-кт Ленина, д 10а')).toBe('10а');
      expect(house('Екатеринбург, пр-кт Ленина, д 10 корп 2')).toBe('10к2');
      expect(house('Екатеринбург, пр-кт Ленина, 10к2')).toBe('10к2');
      expect(house('Екатеринбург, ул 8 Марта, 9/1')).toBe('9/1');
      expect(house('Екатеринбург, ул 8 Марта, д 12 стр 3 лит Б')).toBe('12с3литБ');
    });

    it('finds names, aliases and historical names, and marks a historical one in actuality', () => {
      const q = (s: string) => viewOf(dict, engine.standardize('ru', s));
      expect(q('Свердловская область').levels).toEqual({ region: 'Свердловская обл' });
      expect(q('Ебург').levels).toEqual({ region: 'Свердловская обл', city: 'г Екатеринбург' });
      const old = q('Екатеринбург, ул Царская, 9/1');
      expect(old.levels.street).toBe('ул 8 Марта');
      expect(old.quality.actuality).toBe(1);
      expect(q('Екатеринбург, ул 8 Марта, 9/1').quality.actuality).toBe(0);
    });

    it('finds the apartment of a house with its flat', () => {
      const res = engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, д 10, кв 5');
      expect(res.apartment).toBe(0);
      expect(dict.apartment(res.apartment).number).toBe('5');
    });

    it('indexes every point with coordinates in the grid', () => {
      expect(engine.nearest('ru', 56.839, 60.61, 'house', 50)).toEqual({ found: { kind: 'house', id: 0 }, distance: 0 });
      expect(engine.nearest('ru', 56.8385, 60.6055, 'city', 50)).toEqual({ found: { kind: 'object', id: CITY }, distance: 0 });
      // house 14 has no coordinates: it is never an answer
      for (let i = 0; i < 20; i++) {
        const hit = engine.nearest('ru', 56.83 + i * 0.001, 60.60 + i * 0.001, 'house', 5000);
        expect(hit?.found.id).not.toBe(3);
      }
    });

    it('answers metro queries nearest first, in whole meters, within the radius', () => {
      const hits = engine.nearestMetro('ru', 56.8385, 60.6055, 3, 5000);
      expect(hits.map((m) => m.name)).toEqual(['Площадь 1905 года', 'Геологическая', 'Ботаническая']);
      expect(hits.every((m) => Number.isInteger(m.distance))).toBe(true);
      expect(hits[0]).toMatchObject({ line: 'Первая', city: 'Екатеринбург' });
      expect(hits[0].distance).toBeLessThan(hits[1].distance);
      expect(engine.nearestMetro('ru', 56.8385, 60.6055, 3, 1000).map((m) => m.name)).toEqual(['Площадь 1905 года']);
      expect(engine.nearestMetro('ru', 56.8385, 60.6055, 1, 5000)).toHaveLength(1);
      expect(engine.nearestMetro('ru', SMALL_METRO[1].lat, SMALL_METRO[1].lon, 3, 5000)[0]).toMatchObject({ name: 'Геологическая', distance: 0 });
    });
  });

  describe('type table', () => {
    it('reads canonical types and folds their synonyms', () => {
      const types = loadTypeTable();
      const street = types.canonical.indexOf('ул');
      const avenue = types.canonical.indexOf('пр-кт');
      expect(street).toBeGreaterThanOrEqual(0);
      expect(types.synonyms.get('улица')).toContain(street);
      expect(types.synonyms.get('пркт')).toContain(avenue);
      expect(types.levelMask[street] & (1 << 7)).not.toBe(0);
    });

    it('finds the type words inside a name, alone or as a run that spells one type (`автономный округ`)', () => {
      const types = loadTypeTable();
      expect(typeWordsIn(['ханты', 'мансийский', 'автономный', 'округ', 'югра'], types)).toEqual([false, false, true, true, false]);
      expect(typeWordsIn(['сибирский', 'тракт', '7', 'километр'], types)).toEqual([false, true, false, true]);
      // initials and numbers start no run
      expect(typeWordsIn(['об', 'ласть', 'пушкина'], types)).toEqual([false, false, false]);
    });

    it('tells a spelling of the official name (a slip or a part) from another name', () => {
      for (const other of ['масква', 'тольяти', 'Петерсбург', 'ростов', 'саинт петерсбург']) {
        const official = { масква: 'Москва', тольяти: 'Тольятти', Петерсбург: 'Санкт-Петербург', ростов: 'Ростов-на-Дону', 'саинт петерсбург': 'Санкт-Петербург' }[other]!;
        expect(isSpelling(other, official), other).toBe(true);
      }
      for (const [other, official] of [['мск', 'Москва'], ['спб', 'Санкт-Петербург'], ['питер', 'Санкт-Петербург'], ['свердловск', 'Екатеринбург'], ['наб челны', 'Набережные Челны']]) {
        expect(isSpelling(other, official), other).toBe(false);
      }
    });

    it('writes the genitive of a region\'s or district\'s adjective name, none of a noun\'s', () => {
      const cases: [string, string][] = [
        ['Кировская', 'Кировской'], ['Красноярский', 'Красноярского'], ['Слободской', 'Слободского'],
        ['Ивано-Франковская', 'Ивано-Франковской'], ['Верхний', 'Верхнего'], ['Татарстан', ''], ['Ханты-Мансийский Автономный округ - Югра', ''],
      ];
      for (const [name, genitive] of cases) expect(genitiveName(name), name).toBe(genitive);
    });

    it('writes a town\'s two-word name with its first word cut to the initial, none of other names', () => {
      expect(initialName('Нижний Тагил')).toBe('Н. Тагил');
      expect(initialName('Екатеринбург')).toBe('');
      expect(initialName('Ханты-Мансийск')).toBe('');
      expect(initialName('Ростов-на-Дону')).toBe('');
    });

    it('weighs stop words, single letters and titles below a name word', () => {
      expect(wordWeight('ленина')).toBe(100);
      expect(wordWeight('им')).toBeLessThan(wordWeight('а'));
      expect(wordWeight('а')).toBeLessThan(wordWeight('академика'));
      expect(wordWeight('академика')).toBeLessThan(100);
      expect(wordWeight('летия')).toBeLessThan(100);
    });
  });
});

describe('writeBlob(model, file)', () => {
  it('writes what encodeBlob encodes, and lets the model\'s objects go', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'write-blob-'));
    try {
      const model = smallModel();
      const inMemory = unpack(encodeBlob(smallModel()).bytes) as Record<string, unknown>;
      const stats = await writeBlob(model, join(dir, 'ru.dict'));
      const written = unpack(readFileSync(join(dir, 'ru.dict'))) as Record<string, unknown>;
      for (const blob of [inMemory, written]) {
        for (const volatile of ['createdAt', 'buildId']) delete blob[volatile];
        delete (blob.checksums as Record<string, number>).createdAt;
      }
      expect(written).toEqual(inMemory);
      expect(stats.objects).toBe(SMALL_OBJECTS.length);
      // the house sections come after the object columns; the objects were let go before them
      expect(model.objects).toEqual([]);
      expect(model.country).toBe('ru');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('decodeBlob(bytes)', () => {
  const good = () => unpack(encodeBlob(smallModel()).bytes) as Record<string, unknown>;

  it('refuses a blob with another magic, saying how to fix it', () => {
    const bytes = pack({ ...good(), magic: 'NOTADICT' });
    expect(() => decodeBlob(bytes, 'ru.dict')).toThrow(BlobError);
    expect(() => decodeBlob(bytes, 'ru.dict')).toThrow('ru.dict: not a dictionary blob (bad magic); rebuild it with npm run dict:build');
  });

  it('refuses a blob of another format version, naming both versions', () => {
    const bytes = pack({ ...good(), format: FORMAT_VERSION + 1 });
    expect(() => decodeBlob(bytes, 'ru.dict')).toThrow(
      `ru.dict: dictionary format ${FORMAT_VERSION + 1}, this service reads format ${FORMAT_VERSION}; rebuild it with npm run dict:build`,
    );
  });

  it('refuses bytes that are not a blob at all', () => {
    expect(() => decodeBlob(new TextEncoder().encode('hello, world'), 'x.dict')).toThrow(/^x\.dict: not a dictionary blob/);
    expect(() => decodeBlob(new Uint8Array([0xc1]), 'x.dict')).toThrow(BlobError);
    expect(() => decodeBlob(pack(null), 'x.dict')).toThrow(/bad magic/);
  });

  it('is what LoadedDictionary.fromBytes runs before it touches the core', async () => {
    const bytes = pack({ ...good(), format: 0 });
    await expect(LoadedDictionary.fromBytes(bytes, await debugWasm(), 'old.dict')).rejects.toThrow(/^old\.dict: dictionary format 0/);
  });
});

describe('encodeBlob(model) with municipal entities → LoadedDictionary', () => {
  const MUNICIPALS = [
    { key: 'fias:6f1d0c9a-0000-4000-8000-000000000001', name: 'Екатеринбург', type: 'г.о', codes: { fias: '6f1d0c9a-0000-4000-8000-000000000001', gar: '900', oktmo: '65701000' }, source: 'test' },
    { key: 'fias:6f1d0c9a-0000-4000-8000-000000000002', name: 'Верх-Исетский', type: 'вн.р-н', codes: { gar: '901' }, source: 'test' },
  ];

  it('keeps the entities host-side, the objects’ reference and the few houses that have their own', async () => {
    // the city and its streets are in entity 0; house 8 Марта 9/1 alone in entity 1
    const objects = SMALL_OBJECTS.map((o, i) => (i === 0 ? o : { ...o, municipal: 0 }));
    const houses = SMALL_HOUSES.map((h) => (h.number === '9/1' ? { ...h, municipal: 1 } : h));
    const model = { ...mergedModel(objects, houses, SMALL_APARTMENTS), municipals: MUNICIPALS };
    const { dict } = await engineOfModel(model);
    expect(dict.municipalCount).toBe(2);
    expect(dict.municipal(0)).toMatchObject({
      level: 0, parent: -1, name: 'Екатеринбург', type: 'г.о', fullName: 'г.о Екатеринбург', oktmo: '65701000',
      codes: { fias: '6f1d0c9a-0000-4000-8000-000000000001', ga: '', osm: '', gar: '900', kladr: '' },
    });
    expect(dict.municipal(1)).toMatchObject({ fullName: 'вн.р-н Верх-Исетский', codes: { fias: '', gar: '901' } });
    expect(dict.municipalOf(REGION)).toBe(-1);
    expect(dict.municipalOf(LENINA)).toBe(0);
    const houseAt = (number: string) => SMALL_HOUSES.findIndex((h) => h.number === number);
    expect(dict.municipalOf(MARTA, houseAt('9/1'))).toBe(1);
    expect(dict.municipalOf(MARTA, houseAt('12'))).toBe(0);
    expect(dict.municipalOf(LENINA, houseAt('14'))).toBe(0);
  });

  it('reads a blob without them (the region 99 build) as no municipal level', async () => {
    const { dict } = await engineOfModel(smallModel());
    expect(dict.municipalCount).toBe(0);
    expect(dict.municipalOf(LENINA, 0)).toBe(-1);
  });
});

/** The trie builder as it was (a node object and a map per node, a breadth-first queue): the reference. */
function referenceTrie(words: string[]): number[] {
  type Node = { children: Map<number, Node>; word: number };
  const root: Node = { children: new Map(), word: -1 };
  words.forEach((w, id) => {
    let node = root;
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      let next = node.children.get(c);
      if (!next) node.children.set(c, (next = { children: new Map(), word: -1 }));
      node = next;
    }
    node.word = id;
  });
  const out = [-1, -1, 0, -1];
  const queue: [Node, number][] = [[root, 0]];
  for (let next = 0; next < queue.length; next++) {
    const [node, id] = queue[next];
    let prev = -1;
    for (const [c, kid] of [...node.children.entries()].sort((a, b) => a[0] - b[0])) {
      const kidId = out.length / 4;
      out.push(-1, -1, c, kid.word);
      if (prev < 0) out[id * 4] = kidId;
      else out[prev * 4 + 1] = kidId;
      prev = kidId;
      queue.push([kid, kidId]);
    }
  }
  return out;
}

describe('flattenTrie(words)', () => {
  const records = (words: string[]) => [...flattenTrie(words)];

  it('lays out nodes breadth first, children by char, with first-child and next-sibling links', () => {
    // root; depth 1: а(1) б(2); depth 2: аб(3) ав(4) бв(5); depth 3: абв(6)
    expect(records(['аб', 'б', 'бв', 'ав', 'абв'])).toEqual([
      1, -1, 0, -1,
      3, 2, 'а'.charCodeAt(0), -1,
      5, -1, 'б'.charCodeAt(0), 1,
      6, 4, 'б'.charCodeAt(0), 0,
      -1, -1, 'в'.charCodeAt(0), 3,
      -1, -1, 'в'.charCodeAt(0), 2,
      -1, -1, 'в'.charCodeAt(0), 4,
    ]);
    expect(records([])).toEqual([-1, -1, 0, -1]);
  });

  it('gives what the node-object trie gave, for any vocabulary', () => {
    const word = fc.string({ unit: fc.constantFrom('а', 'б', 'в', 'ё', '1', '-', 'z', '\u{1F600}'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 60 }), (words) => {
        expect(records(words)).toEqual(referenceTrie(words));
      }),
      { numRuns: 300 },
    );
  });
});

describe('renumberWords(words, ids, nameWords)', () => {
  const word = fc.string({ unit: fc.constantFrom('а', 'б', 'в', 'ё', '1', '-', 'z'), minLength: 1, maxLength: 6 });

  /** The trie section of a blob as its i32 records (first child, next sibling, char, word id). */
  function trieRecords(bytes: Uint8Array): Int32Array {
    const { trie } = unpack(bytes).core as { trie: Uint8Array };
    return new Int32Array(trie.buffer.slice(trie.byteOffset, trie.byteOffset + trie.byteLength));
  }

  /**
   * The word ids of the trie's words in the core's reading order (assembly/trie.ts collectSubtree): a node's word, then
   * its children's, the last child's first. A prefix's words are one stretch of it.
   */
  function trieReading(records: Int32Array, from = 0): number[] {
    const ids: number[] = [];
    const visit = (node: number) => {
      if (records[node * 4 + 3] >= 0) ids.push(records[node * 4 + 3]);
      const children: number[] = [];
      for (let child = records[node * 4]; child >= 0; child = records[child * 4 + 1]) children.push(child);
      for (const child of children.reverse()) visit(child);
    };
    visit(from);
    return ids;
  }

  it('orders a word before the words it begins, and at the first character that differs the greater first', () => {
    expect(['б', 'ав', 'а', 'абв', 'аб', 'в'].sort(byTrieReading)).toEqual(['в', 'б', 'а', 'ав', 'аб', 'абв']);
  });

  it('gives the words ids in the core\'s reading order, so the words under any prefix are one run of ids read in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 40 }), (vocabulary, picks) => {
        const words = [...vocabulary];
        const ids = new Map(words.map((w, id) => [w, id]));
        const nameWords = new Int32Builder();
        const named = picks.map((k) => words[k % words.length]);
        for (const w of named) nameWords.push(ids.get(w)!, 100);
        renumberWords(words, ids, nameWords);
        expect(words).toEqual([...vocabulary].sort(byTrieReading));
        for (const [w, id] of ids) expect(words[id]).toBe(w);
        // the names still hold their words (weights untouched)
        expect(named.map((_, k) => words[nameWords.data[k * 2]])).toEqual(named);
        expect(trieReading(flattenTrie(words))).toEqual(words.map((_, id) => id));
      }),
      { numRuns: 200 },
    );
  });

  it('lets the core read a prefix\'s words as one run of ids: what a walk of the trie in its reading order finds', async () => {
    // streets enough for prefixes of many words, nested (`мир`, `мира`, `мирная`) and sharing letters at each depth
    const streets = [...'абвгдежзиклмнопрст'].flatMap((a, i) => ['ир', 'ирная', 'ира', 'ал', 'алая', 'о'].map((tail) => `${a}${'мнкр'[i % 4]}${tail}`));
    const { dict, bytes } = await engineOfModel(streetsModel(streets));
    const records = trieRecords(bytes);
    const core = dict.core;
    let prefixes = 0;
    // every node down to depth 3, by the path of its chars
    const visit = (node: number, path: string) => {
      if (path.length > 0) {
        const expected = trieReading(records, node);
        const count = core.hooks.lookupWord(core.write(path), 0, 0, 1, 0);
        const hits = Array.from(core.result().subarray(1, 1 + 2 * count));
        expect({ path, hits }).toEqual({ path, hits: expected.flatMap((id) => [id, 0]) });
        prefixes++;
      }
      if (path.length < 3) for (let child = records[node * 4]; child >= 0; child = records[child * 4 + 1]) visit(child, path + String.fromCharCode(records[child * 4 + 2]));
    };
    visit(0, '');
    expect(prefixes).toBeGreaterThan(50);
  });

  it('is how encodeBlob numbers the vocabulary: the core\'s reading of the trie meets the word ids in order', () => {
    const records = trieRecords(encodeBlob(smallModel()).bytes);
    const ids = trieReading(records);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});
