import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

describe('POST /api/v1/geosearch/address', () => {
  it('finds the Ekaterinburg house at a point (OSM W108439630, ул Базовый)', async () => {
    const reply = await api.post('/api/v1/geosearch/address', { latitude: 56.8046291, longitude: 60.6476828, countryCode: 'RU', addresslevel: 'house', radius: 100 });
    expect(reply.status).toBe(200);
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    expect(reply.body.houseDetails.codes.osm).toBe('W108439630');
    expect(reply.body.street.name).toContain('Базовый');
    expect(reply.body.municipal).toBeNull();
    expect(reply.body.metro).toEqual([]);
    expect(reply.body.original).toBe('');
    expect(reply.body.quality.level).toBe(8);
  });

  it('finds a street when asked for the street level', async () => {
    const reply = await api.post('/api/v1/geosearch/address', { latitude: 56.8046291, longitude: 60.6476828, countryCode: 'RU', addresslevel: 'street', radius: 1000 });
    expect(reply.status).toBe(200);
    expect(reply.body.street.name).not.toBe('');
    expect(reply.body.houseDetails.fullName).toBe('');
  });

  it('answers 404 code 5 when nothing lies within the radius', async () => {
    const reply = await api.post('/api/v1/geosearch/address', { latitude: 0.5, longitude: -30.5, countryCode: 'RU' });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe(5);
    expect(reply.body.details).toEqual([]);
  });

  it('refuses out-of-range coordinates, radius over 1000 and an unknown level', async () => {
    const reply = await api.post('/api/v1/geosearch/address', { latitude: -91, longitude: 181, radius: 1001, addresslevel: 'country', countryCode: 'RU' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(
      'addresslevel: недопустимое значение, допустимые: region, area, city, settlement, planStructure, street, house; '
      + 'latitude: значение должно быть не меньше -90; longitude: значение должно быть не больше 180; radius: значение должно быть не больше 1000.',
    );
    const missing = await api.post('/api/v1/geosearch/address', { countryCode: 'RU' });
    expect(missing.body.message).toBe('latitude: значение не может быть пустым; longitude: значение не может быть пустым.');
  });
});
