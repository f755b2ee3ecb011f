import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

const MOSCOW = '0c5b2444-70a0-4932-980c-b4dc0d3f02b5';

describe('POST /api/v1/idsearch/address', () => {
  it('answers a region-level record for the Moscow region FIAS id', async () => {
    for (const type of ['FIAS', 'UNKNOWN', 'fias']) {
      const reply = await api.post('/api/v1/idsearch/address', { query: MOSCOW, type, countryCode: 'RU' });
      expect(reply.status, type).toBe(200);
      expect(schemaErrors('AddressRecord', reply.body)).toBe('');
      expect(reply.body.address).toBe('г Москва');
      expect(reply.body.addressFull).toBe('г Москва');
      expect(reply.body.postcode).toBe('101000');
      expect(reply.body.quality).toEqual({ unique: 0, actuality: 0, undefined: 0, level: 1, house: 9, geo: 1 });
      expect(reply.body.municipal).toBeNull();
      expect(reply.body.original).toBe(MOSCOW);
      expect(reply.body.metro).toEqual([]);
    }
  });

  it('finds Moscow by its KLADR code, detected from 13 digits', async () => {
    const reply = await api.post('/api/v1/idsearch/address', { query: '7700000000000', type: 'UNKNOWN', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(reply.body.region.codes.fias).toBe(MOSCOW);
  });

  it('reads the 19-digit KLADR code the legacy records write (c_kladr19): a street\'s, or a place\'s with street 0000', async () => {
    const find = async (query: string) => (await api.post('/api/v1/idsearch/address', { query, type: 'UNKNOWN', countryCode: 'RU' })).body;
    // Baikonur's ул Гагарина (KLADR 99000000000000100 → 990000000000001 0000) and г Адыгейск (0100000200000 → …0000 0000)
    const street = (await api.post('/api/v1/clean/address', { query: 'г Байконур, ул Гагарина', countryCode: 'RU' })).body;
    const kladr = street.street.codes.kladr as string;
    expect(kladr).toMatch(/^\d{17}$/);
    expect((await find(`${kladr.slice(0, 15)}0000`)).street.codes.kladr).toBe(kladr);
    const city = await find('0100000200000000000');
    expect(city.city.name).toBe('Адыгейск');
    expect(city.street.fullName).toBe('');
    // and the 17 digits of a street part 0000
    expect((await find('01000002000000000')).city.name).toBe('Адыгейск');
  });

  it('reads the other ways clients write an id: a GUID in braces or without dashes, OSM paths and addresses, KLADR without its actuality', async () => {
    const find = async (query: string, type = 'UNKNOWN') => (await api.post('/api/v1/idsearch/address', { query, type, countryCode: 'RU' }));
    const house = '4abf7720-fa42-482c-a2ec-cd564d9abc96';
    for (const query of [`{${house}}`, house.replace(/-/g, ''), `{${house.toUpperCase()}}`]) {
      const reply = await find(query);
      expect(reply.status, query).toBe(200);
      expect(reply.body.houseDetails.codes.fias, query).toBe(house);
    }
    // an OSM building of Екатеринбург, by the forms of its id
    const osm = (await api.post('/api/v1/clean/address', { query: 'г Екатеринбург, ул Малышева, д 5', countryCode: 'RU' })).body.houseDetails.codes.osm as string;
    expect(osm).toMatch(/^W\d+$/);
    const number = osm.slice(1);
    for (const [query, type] of [[`way/${number}`, 'UNKNOWN'], [`https://www.openstreetmap.org/way/${number}`, 'UNKNOWN'], [`W ${number}`, 'UNKNOWN'], [number, 'OSM']]) {
      const reply = await find(query, type);
      expect(reply.status, query).toBe(200);
      expect(reply.body.houseDetails.codes.osm, query).toBe(osm);
    }
    // an obsolete code's actuality digits: the actual object, answered with actuality 1
    const obsolete = (await find('7700000000051', 'KLADR')).body;
    expect(obsolete.region.codes.fias).toBe(MOSCOW);
    expect(obsolete.quality.actuality).toBe(1);
    expect((await find('7700000000000', 'KLADR')).body.quality.actuality).toBe(0);
    // Moscow's KLADR without its actuality suffix
    expect((await find('77000000000', 'KLADR')).body.region.codes.fias).toBe(MOSCOW);
    expect((await find('77000000000')).body.region.codes.fias).toBe(MOSCOW);
  });

  it('reaches a Baikonur house by FIAS with its street and house number', async () => {
    const reply = await api.post('/api/v1/idsearch/address', { query: '4abf7720-fa42-482c-a2ec-cd564d9abc96', type: 'UNKNOWN', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(reply.body.street.codes.fias).toBe('8bbdbc9c-4435-4c82-8989-0b84d8480866');
    expect(reply.body.houseDetails.codes.fias).toBe('4abf7720-fa42-482c-a2ec-cd564d9abc96');
    expect(reply.body.houseDetails.house).toBe('5');
    expect(reply.body.quality.level).toBe(8);
    expect(reply.body.quality.house).toBe(3);
    expect(reply.body.houseDetails.apartmentCodes).toEqual({ fias: '', ga: '', osm: '', gar: '', kladr: '' });
    expect(reply.body.houseDetails.additional).not.toBeNull();
  });

  it('finds an OSM house by its element id', async () => {
    const reply = await api.post('/api/v1/idsearch/address', { query: 'W108439630', type: 'OSM', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(reply.body.houseDetails.codes.osm).toBe('W108439630');
  });

  it('answers 404 code 5 for an unknown id and for an id of no registry shape', async () => {
    const unknown = await api.post('/api/v1/idsearch/address', { query: 'ffffffff-ffff-4fff-8fff-ffffffffffff', type: 'FIAS', countryCode: 'RU' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(5);
    const shapeless = await api.post('/api/v1/idsearch/address', { query: 'улица Ленина', type: 'UNKNOWN', countryCode: 'RU' });
    expect(shapeless.status).toBe(404);
    expect(shapeless.body.code).toBe(5);
  });

  it('refuses an unknown type with 400 code 3', async () => {
    const reply = await api.post('/api/v1/idsearch/address', { query: MOSCOW, type: 'OKATO', countryCode: 'RU' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ code: 3, message: 'type: недопустимое значение, допустимые: UNKNOWN, GAR, FIAS, KLADR, OSM, GA.', details: [] });
  });
});
