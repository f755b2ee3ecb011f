import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

function expectEnvelope(reply: { status: number; body: unknown; headers: Headers }, status: number, code: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(schemaErrors('Error', reply.body)).toBe('');
  expect((reply.body as { code: number }).code).toBe(code);
}

describe('routing errors', () => {
  it('answers 404 code 5 for an unknown route', async () => {
    expectEnvelope(await api.get('/api/v1/nothing'), 404, 5);
    expectEnvelope(await api.post('/api/v2/clean/address', { query: 'x' }), 404, 5);
    expectEnvelope(await api.get('/legacy/nothing'), 404, 5);
  });

  it('answers 405 code 12 with Allow for a wrong method', async () => {
    const reply = await api.get('/api/v1/clean/address');
    expectEnvelope(reply, 405, 12);
    expect(reply.headers.get('allow')).toBe('POST');
    expectEnvelope(await api.request('DELETE', '/v1/suggest/address'), 405, 12);
    expectEnvelope(await api.post('/legacy/selectAddress', {}), 405, 12);
  });
});

describe('request limits', () => {
  it('answers 400 code 3 to malformed JSON, a non-object body and a JSON null', async () => {
    for (const raw of ['{"query":', '[1,2]', '"text"', 'null', '{"query": "a",}']) {
      const reply = await api.request('POST', '/api/v1/suggest/address', { raw });
      expectEnvelope(reply, 400, 3);
      expect(reply.body.message).toMatch(/^тело запроса: /);
    }
    // clean/address also takes an array (DaData's cleaner body): of strings only
    const reply = await api.request('POST', '/api/v1/clean/address', { raw: '[1,2]' });
    expectEnvelope(reply, 400, 3);
    expect(reply.body.message).toBe('[0]: ожидается строка; [1]: ожидается строка.');
  });

  it('treats an empty body as {} and asks for the query', async () => {
    const reply = await api.request('POST', '/api/v1/clean/address', { raw: '' });
    expect(reply.text).toBe('{"code":3,"message":"query: значение не может быть пустым.","details":[]}');
  });

  it('answers 400 code 3 to a body over 1 MB', async () => {
    const raw = JSON.stringify({ query: 'а', padding: 'x'.repeat(1024 * 1024) });
    const reply = await api.request('POST', '/api/v1/clean/address', { raw });
    expectEnvelope(reply, 400, 3);
    expect(reply.body.message).toBe('тело запроса: размер больше 1 МБ.');
  });

  it('answers 400 code 3 to a query string over 8192 characters, and to a field over 1000 once decoded', async () => {
    const reply = await api.get(`/legacy/searchAddressDetail?addr=${'a'.repeat(8193)}`);
    expectEnvelope(reply, 400, 3);
    expect(reply.body.message).toBe('строка запроса: длина больше 8192 символов.');
    const field = await api.get(`/legacy/searchAddressDetail?addr=${'a'.repeat(1001)}`);
    expectEnvelope(field, 400, 3);
    expect(field.body.message).toMatch(/^addr: длина должна быть не больше 1000 символов\.$/);
    // a long Cyrillic address: six characters a letter percent-encoded, within the limit once decoded
    const address = `620078, Екатеринбург, ул. Малышева, д. 5, кв 12, ${'подъезд 2, этаж 3, '.repeat(8)}`;
    const cyrillic = await api.get(`/legacy/searchAddressDetail?addr=${encodeURIComponent(address)}&country=RU`);
    expect(cyrillic.status).toBe(200);
  });

  it('accepts a body without a content type', async () => {
    const reply = await api.request('POST', '/api/v1/clean/house', { raw: '{"query":"д 1"}', headers: { 'content-type': 'text/plain' } });
    expect(reply.status).toBe(200);
  });
});
