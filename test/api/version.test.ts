import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ config: { auth: { Enabled: true, Keys: ['secret'] } } });
});
afterAll(() => api?.close());

const PACKAGE_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('GET /v1/version and /api/v1/version', () => {
  it('answers the service version and ru_<date> for the loaded Russian dictionary, without a key', async () => {
    for (const path of ['/v1/version', '/api/v1/version']) {
      const reply = await api.get(path);
      expect(reply.status, path).toBe(200);
      expect(schemaErrors('VersionResponse', reply.body)).toBe('');
      expect(reply.body.serviceVersion).toBe(PACKAGE_VERSION);
      expect(reply.body.dbVersion.ru.db).toMatch(/^ru_\d{8}$/);
      expect(reply.body.dbVersion.name.db).toBe(reply.body.dbVersion.ru.db.replace('ru_', 'name_'));
      const loaded = api.app.services.engine.countries();
      for (const country of ['kz', 'by', 'ua']) {
        expect(reply.body.dbVersion[country].db).toMatch(loaded.includes(country as never) ? new RegExp(`^${country}_\\d{8}$`) : /^$/);
        expect(reply.body.dbVersion[country].migration).toBe('');
      }
    }
  });

  it('answers 405 code 12 to POST', async () => {
    const reply = await api.post('/v1/version', {}, { authorization: 'secret' });
    expect(reply.status).toBe(405);
    expect(reply.body.code).toBe(12);
    expect(reply.headers.get('allow')).toContain('GET');
  });
});

describe('GET /api/v1/health', () => {
  it('reports the loaded countries without a key', async () => {
    const reply = await api.get('/api/v1/health');
    expect(reply.status).toBe(200);
    expect(schemaErrors('HealthResponse', reply.body)).toBe('');
    expect(reply.body.countries).toContain('ru');
    expect(reply.body.license).toBe('community');
  });
});
