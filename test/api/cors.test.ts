/**
 * CORS (host/middleware/cors.ts): preflights answered 204 on every path, by the fast path and by the Koa app alike,
 * without reaching the engine; every answer (200s, errors, GET routes) carries the origin header; an allow-list
 * echoes an allowed origin with `Vary: Origin` and grants nothing to the others; CORS_ORIGINS replaces the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../host/config.js';
import type { Engine } from '../../engine/types.js';
import { realEngine, startTestServer, type TestServer } from '../helpers/api.js';

const PAGE = 'http://127.0.0.1:9';
const PREFLIGHT = {
  origin: PAGE,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization, content-type, x-secret, x-version',
};

/** The real engine behind a counter of the calls made to it. */
function counted(engine: Engine): { engine: Engine; calls: () => number } {
  let calls = 0;
  const wrapped = new Proxy(engine, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { engine: wrapped, calls: () => calls };
}

describe('CORS, default config (any origin)', () => {
  const servers: { name: string; server: TestServer; calls: () => number }[] = [];

  beforeAll(async () => {
    for (const koaOnly of [false, true]) {
      const { engine, calls } = counted(await realEngine());
      servers.push({ name: koaOnly ? 'koa' : 'fast path', server: await startTestServer({ engine, koaOnly }), calls });
    }
  });
  afterAll(async () => {
    for (const { server } of servers) await server.close();
  });

  it('answers a preflight 204 with the methods, headers and max age, on API, DaData and unknown paths, engine untouched', async () => {
    for (const { name, server, calls } of servers) {
      const before = calls();
      for (const path of ['/api/v1/suggest/address', '/v1/clean/address', '/suggestions/api/4_1/rs/suggest/address', '/no/such/path']) {
        const reply = await server.request('OPTIONS', path, { headers: PREFLIGHT });
        expect(reply.status, `${name} ${path}`).toBe(204);
        expect(reply.text).toBe('');
        expect(reply.headers.get('access-control-allow-origin')).toBe('*');
        expect(reply.headers.get('access-control-allow-methods')).toContain('POST');
        const allowed = (reply.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
        expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-secret', 'x-version']));
        expect(Number(reply.headers.get('access-control-max-age'))).toBeGreaterThan(0);
        expect(reply.headers.get('vary')).toBeNull();
      }
      expect(calls(), name).toBe(before);
    }
  });

  it('puts Access-Control-Allow-Origin on answers of POST, GET and errors', async () => {
    for (const { name, server } of servers) {
      const hints = await server.request('POST', '/api/v1/suggest/address', { body: { query: 'екатеринбург вокз' }, headers: { origin: PAGE } });
      expect(hints.status, name).toBe(200);
      expect(hints.body.suggestions.length).toBeGreaterThan(0);
      expect(hints.headers.get('access-control-allow-origin')).toBe('*');
      const version = await server.get('/api/v1/version', { origin: PAGE });
      expect(version.status).toBe(200);
      expect(version.headers.get('access-control-allow-origin')).toBe('*');
      const bad = await server.request('POST', '/api/v1/clean/address', { body: { query: '' }, headers: { origin: PAGE } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(3);
      expect(bad.headers.get('access-control-allow-origin')).toBe('*');
      const missing = await server.get('/api/v1/nothing', { origin: PAGE });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('leaves an OPTIONS that is no preflight to the router (Allow)', async () => {
    for (const { name, server } of servers) {
      const reply = await server.request('OPTIONS', '/api/v1/suggest/address');
      expect(reply.status, name).toBe(200);
      expect(reply.headers.get('allow')).toContain('POST');
    }
  });
});

describe('CORS, an allow-list', () => {
  const ALLOWED = 'http://127.0.0.1:5173';
  const servers: TestServer[] = [];

  beforeAll(async () => {
    for (const koaOnly of [false, true]) servers.push(await startTestServer({ config: { cors: { AllowedOrigins: [ALLOWED, 'https://shop.example'] } }, koaOnly }));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('echoes an allowed origin with Vary: Origin, on preflights and answers', async () => {
    for (const server of servers) {
      const preflight = await server.request('OPTIONS', '/api/v1/suggest/address', { headers: { ...PREFLIGHT, origin: ALLOWED } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(preflight.headers.get('vary')).toBe('Origin');
      const reply = await server.request('POST', '/api/v1/suggest/address', { body: { query: 'екатеринбург вокз' }, headers: { origin: ALLOWED } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(reply.headers.get('vary')).toBe('Origin');
    }
  });

  it('grants nothing to another origin (the browser refuses), and the request itself is still served', async () => {
    for (const server of servers) {
      const preflight = await server.request('OPTIONS', '/api/v1/suggest/address', { headers: { ...PREFLIGHT, origin: 'http://evil.example' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
      const reply = await server.request('POST', '/api/v1/suggest/address', { body: { query: 'екатеринбург вокз' }, headers: { origin: 'http://evil.example' } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      expect(reply.headers.get('vary')).toBe('Origin');
    }
  });
});

describe('cors.AllowedOrigins from the environment', () => {
  it('CORS_ORIGINS (comma-separated) replaces the list; absent, the default is *', () => {
    const none = loadConfig({ argv: [], env: {} });
    expect(none.cors.AllowedOrigins).toEqual(['*']);
    const env = loadConfig({ argv: [], env: { CORS_ORIGINS: 'https://a.example, http://127.0.0.1:3000' } });
    expect(env.cors.AllowedOrigins).toEqual(['https://a.example', 'http://127.0.0.1:3000']);
  });

  it('refuses an origin that is no origin, naming the key', () => {
    expect(() => loadConfig({ argv: [], env: { CORS_ORIGINS: 'https://a.example/path' } })).toThrow(ConfigError);
    expect(() => loadConfig({ argv: [], env: { CORS_ORIGINS: 'shop.example' } })).toThrow(/cors\.AllowedOrigins\[0\]/);
  });
});
