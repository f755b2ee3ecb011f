import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

describe('POST /api/v1/clean/address/iqdq', () => {
  it('answers one flat record with the level FIAS codes, the GA code and the country', async () => {
    const reply = await api.post('/api/v1/clean/address/iqdq', { query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('IqdqRecord', reply.body)).toBe('');
    expect(reply.body.c_region_fias).toBe('63ed1a35-4be6-4564-a1ec-0c51f7383314');
    expect(reply.body.c_street_fias).toBe('8bbdbc9c-4435-4c82-8989-0b84d8480866');
    expect(reply.body.c_houseguid).toBe('4abf7720-fa42-482c-a2ec-cd564d9abc96');
    expect(reply.body.c_zipcode).toBe('468325');
    expect(reply.body.c_country).toBe('Россия');
    expect(reply.body.c_country_iso_code).toBe('RU');
    expect(reply.body.c_status_error).toMatch(/^\d\d\d0\d\d$/);
    expect(reply.body.c_json_kvant).toEqual({ house: '5' });
    expect(reply.body.c_ischeck).toBe('1');
  });

  it('validates the body as clean/address does', async () => {
    const reply = await api.post('/v1/clean/address/iqdq', {});
    expect(reply.text).toBe('{"code":3,"message":"query: значение не может быть пустым.","details":[]}');
  });
});
