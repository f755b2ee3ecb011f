import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api.js';

let secured: TestServer;
let open: TestServer;
beforeAll(async () => {
  secured = await startTestServer({ config: { auth: { Enabled: true, Keys: ['k-123', 'k-456'], Users: [{ login: 'olga', pwd: 'p@ss' }] } } });
  open = await startTestServer();
});
afterAll(async () => {
  await secured?.close();
  await open?.close();
});

const BODY = { query: 'д 1', countryCode: 'RU' };

describe('API keys (auth.Enabled)', () => {
  it('answers 401 code 16 "Ключ API обязателен" without a key', async () => {
    const reply = await secured.post('/api/v1/clean/house', BODY);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ code: 16, message: 'Ключ API обязателен', details: [] });
  });

  it('answers 401 code 16 "Ошибка авторизации" for a wrong key', async () => {
    for (const authorization of ['k-999', 'Token k-999', 'Bearer nope']) {
      const reply = await secured.post('/api/v1/clean/house', BODY, { authorization });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ code: 16, message: 'Ошибка авторизации', details: [] });
    }
  });

  it('accepts the key raw, as Token and as Bearer', async () => {
    for (const authorization of ['k-123', 'Token k-456', 'Bearer k-123', 'bearer k-456']) {
      const reply = await secured.post('/api/v1/clean/house', BODY, { authorization });
      expect(reply.status, authorization).toBe(200);
    }
  });

  it('never asks a key for /version, /health and /openapi.json', async () => {
    for (const path of ['/v1/version', '/api/v1/version', '/api/v1/health', '/api/v1/openapi.json']) {
      expect((await secured.get(path)).status, path).toBe(200);
    }
  });

  it('checks login/pwd on the legacy methods that list them', async () => {
    const addr = encodeURIComponent('г Байконур, ул Гагарина, д. 5');
    expect((await secured.get(`/legacy/searchAddressDetail?addr=${addr}&login=olga&pwd=p%40ss`)).status).toBe(200);
    const wrong = await secured.get(`/legacy/searchAddressDetail?addr=${addr}&login=olga&pwd=nope`);
    expect(wrong.body).toEqual({ code: 16, message: 'Ошибка авторизации', details: [] });
    const none = await secured.get(`/legacy/selectAddress?letters=${addr}`);
    expect(none.body).toEqual({ code: 16, message: 'Ключ API обязателен', details: [] });
    expect((await secured.get(`/legacy/selectAddress?letters=${addr}&login=olga&pwd=p%40ss`)).status).toBe(200);
    // checkAddress lists no login/pwd: only a key opens it
    expect((await secured.get(`/legacy/checkAddress?addr=${addr}&login=olga&pwd=p%40ss`)).status).toBe(401);
    expect((await secured.get(`/legacy/checkAddress?addr=${addr}`, { authorization: 'k-123' })).status).toBe(200);
  });
});

describe('auth off (the default)', () => {
  it('serves every method without credentials, ignoring a stray header', async () => {
    expect((await open.post('/api/v1/clean/house', BODY)).status).toBe(200);
    expect((await open.post('/api/v1/clean/house', BODY, { authorization: 'whatever' })).status).toBe(200);
  });
});
