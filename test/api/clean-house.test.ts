import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

describe('POST /api/v1/clean/house', () => {
  it('parses the house part of the conventions example', async () => {
    const query = '108811, Москва г, км Киевское шоссе 22-й, двлд. 4, стр. 2, ЭТ 8 БЛОК Г ОФ 839';
    const reply = await api.post('/api/v1/clean/house', { query, countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('CleanHouseResponse', reply.body)).toBe('');
    expect(reply.body.original).toBe(query);
    expect(reply.body.postcodeIn).toBe('108811');
    expect(reply.body.houseDetails.fullName).toBe('дом 4, строение 2, этаж 8, офис 839, блок г');
    expect(reply.body.houseDetails.codes).toBeNull();
  });

  it('splits 10с12 into дом and строение', async () => {
    const reply = await api.post('/api/v1/clean/house', { query: '10с12', countryCode: 'RU' });
    expect(reply.body.houseDetails.fullName).toBe('дом 10, строение 12');
    expect(reply.body.postcodeIn).toBe('');
  });

  it('works for a country without a dictionary', async () => {
    const reply = await api.post('/api/v1/clean/house', { query: 'д 7 кв 3', countryCode: 'DE' });
    expect(reply.status).toBe(200);
    expect(reply.body.houseDetails.fullName).toBe('дом 7, квартира 3');
  });

  it('refuses a missing query', async () => {
    const reply = await api.post('/api/v1/clean/house', { countryCode: 'RU' });
    expect(reply.text).toBe('{"code":3,"message":"query: значение не может быть пустым.","details":[]}');
  });
});
