/**
 * Small merged models written by hand (dictionaries/merged-model.ts), to run the real blob writer and the real
 * core over data whose every value the test knows: a region, a city, two streets with houses of every key
 * shape (10, 10а, 10к2, 9/1, 12с3), an apartment and two metro stations.
 */
import { encodeBlob } from '../../dictionaries/blob-writer.js';
import type { MergedApartment, MergedHouse, MergedModel, MergedObject } from '../../dictionaries/merged-model.js';
import { AddressEngine } from '../../engine/engine.js';
import { LoadedDictionary } from '../../engine/dictionary.js';
import { debugWasm } from './engine.js';

export const REGION = 0;
export const CITY = 1;
export const LENINA = 2;
export const MARTA = 3;

export const SMALL_OBJECTS: MergedObject[] = [
  {
    key: 'fias:92b30014-4d52-4e2e-892d-928142b924bf', level: 1, parent: -1, name: 'Свердловская', type: 'обл',
    codes: { fias: '92b30014-4d52-4e2e-892d-928142b924bf', gar: '1000', kladr: '6600000000000', osm: 'R79379', okato: '65000000000', oktmo: '65000000', ifns: '6600' },
    ga: 'RU0660000000000000000000000', postcode: '620000', timezone: 'UTC+5', lat: 58.6, lon: 61.5, source: 'test',
  },
  {
    key: 'fias:2763c110-cb8b-416a-9dac-ad28a55b4402', level: 3, parent: REGION, name: 'Екатеринбург', type: 'г',
    codes: { fias: '2763c110-cb8b-416a-9dac-ad28a55b4402', gar: '1001', kladr: '6600000100000', osm: 'R6564910' },
    ga: 'RU0660000100000000000000000', postcode: '620014', timezone: 'UTC+5', lat: 56.8385, lon: 60.6055, population: 1_500_000,
    aliases: ['Ебург'], source: 'test',
  },
  {
    key: 'osm:W123456', level: 7, parent: CITY, name: 'Ленина', type: 'пр-кт',
    codes: { fias: '00000000-1111-4222-8333-444444444444', gar: '1002', kladr: '66000001000012300', osm: 'W123456' },
    ga: 'RU0660000100000000000000001', postcode: '620075', lat: 56.8389, lon: 60.6057, source: 'test',
  },
  {
    key: 'osm:W777', level: 7, parent: CITY, name: '8 Марта', type: 'ул',
    codes: { gar: '1003', kladr: '66000001000045600', osm: 'W777' },
    ga: 'RU0660000100000000000000002', postcode: '620144', lat: 56.8270, lon: 60.6000, historicalNames: ['Царская'], source: 'test',
  },
];

export const SMALL_HOUSES: MergedHouse[] = [
  {
    parent: LENINA, number: '10', codes: { fias: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', gar: '5000', osm: 'W5000' },
    postcode: '620075', lat: 56.8390, lon: 60.6100, cadnum: '66:41:0000000:1', multiFlat: true, flatCount: 40, source: 'test',
  },
  { parent: LENINA, number: '10а', codes: { gar: '5001', osm: 'N5001' }, lat: 56.8392, lon: 60.6110, source: 'test' },
  { parent: LENINA, number: '10', block: '2', codes: { osm: 'R5002' }, lat: 56.8394, lon: 60.6120, source: 'test' },
  { parent: LENINA, number: '14', possession: true, codes: {}, source: 'test' },
  { parent: MARTA, number: '9/1', codes: { gar: '5004' }, postcode: '620144', lat: 56.8271, lon: 60.6001, source: 'test' },
  { parent: MARTA, number: '12', building: '3', liter: 'Б', construction: '1', stead: true, codes: { gar: '5005' }, source: 'test' },
];

export const SMALL_APARTMENTS: MergedApartment[] = [
  { house: 0, number: '5', type: 'кв', codes: { fias: '99999999-8888-4777-8666-555555555555', gar: '7000' }, cadnum: '66:41:0000000:55', source: 'test' },
];

export const SMALL_METRO = [
  { name: 'Площадь 1905 года', line: 'Первая', city: 'Екатеринбург', lat: 56.8378, lon: 60.5996 },
  { name: 'Геологическая', line: 'Первая', city: 'Екатеринбург', lat: 56.8265, lon: 60.6035 },
  { name: 'Ботаническая', line: 'Первая', city: 'Екатеринбург', lat: 56.7977, lon: 60.6333 },
];

/** A merged model over the given objects and houses (houses must be grouped by parent). */
export function mergedModel(objects: MergedObject[], houses: MergedHouse[] = [], apartments: MergedApartment[] = [], metro = SMALL_METRO): MergedModel {
  return {
    country: 'ru',
    sourceDate: '20240501',
    sources: [{ name: 'hand-written test model', date: '20240501', licence: 'CC0' }],
    objects,
    houses: () => houses,
    houseCount: houses.length,
    apartments,
    metro,
    summary: {},
  };
}

export function smallModel(): MergedModel {
  return mergedModel(SMALL_OBJECTS, SMALL_HOUSES, SMALL_APARTMENTS, SMALL_METRO);
}

/** Blob bytes → LoadedDictionary on the debug core → an engine over it. */
export async function engineOfModel(model: MergedModel): Promise<{ engine: AddressEngine; dict: LoadedDictionary; bytes: Uint8Array }> {
  const { bytes } = encodeBlob(model);
  const dict = await LoadedDictionary.fromBytes(bytes, await debugWasm(), 'test.dict');
  return { engine: new AddressEngine([dict]), dict, bytes };
}

/** Streets named `names` under one city (for vocabulary tests): object i + 2 is the street of names[i]. */
export function streetsModel(names: string[]): MergedModel {
  const objects: MergedObject[] = [SMALL_OBJECTS[REGION], { ...SMALL_OBJECTS[CITY], aliases: [] }];
  names.forEach((name, i) => {
    objects.push({ key: `test:${i}`, level: 7, parent: CITY, name, type: 'ул', codes: {}, ga: '', source: 'test' });
  });
  return mergedModel(objects, [], [], []);
}
