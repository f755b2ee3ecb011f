import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

describe('POST /api/v1/idsearch/address/center', () => {
  it('answers a house-level record near the centre of Moscow', async () => {
    const reply = await api.post('/api/v1/idsearch/address/center', { query: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    expect(reply.body.region.name).toBe('Москва');
    expect(reply.body.quality.level).toBe(8);
    expect(reply.body.quality.house).toBe(3);
    expect(reply.body.houseDetails.house).not.toBe('');
    expect(reply.body.municipal).toBeNull();
    expect(reply.body.metro).toEqual([]);
    expect(reply.body.houseDetails.apartmentCodes).toBeNull();
    expect(reply.body.houseDetails.additional).toBeNull();
    expect(reply.body.original).toBe('0c5b2444-70a0-4932-980c-b4dc0d3f02b5');
  });

  it('answers a house of the locality itself, or 404 when it has none, never a nearer town\'s', async () => {
    const city = await api.post('/api/v1/idsearch/address/center', { query: '2763c110-cb8b-416a-9dac-ad28a55b4402', countryCode: 'RU' });
    expect(city.body.city.name).toBe('Екатеринбург');
    expect(city.body.quality.level).toBe(8);
    // Химки has no house in the data; Москва's lie within 50 km of its centre
    const khimki = await api.post('/api/v1/idsearch/address/center', { query: 'd76255c8-3173-4db5-a39b-badd3ebdf851', countryCode: 'RU' });
    expect(khimki.status).toBe(404);
    expect(khimki.body.code).toBe(5);
  });

  it('answers 404 code 5 for an unknown locality and 400 for a missing query', async () => {
    const unknown = await api.post('/api/v1/idsearch/address/center', { query: 'ffffffff-ffff-4fff-8fff-ffffffffffff', countryCode: 'RU' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(5);
    const missing = await api.post('/api/v1/idsearch/address/center', { countryCode: 'RU' });
    expect(missing.text).toBe('{"code":3,"message":"query: значение не может быть пустым.","details":[]}');
  });
});
