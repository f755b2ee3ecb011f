import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLicenseKeyPair, LicenseManager, privateKeyFrom, signLicense } from '../../host/license.js';
import { createLicenseServerApp } from '../../host/license-server.js';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

const DAY = 86_400_000;
const pair = generateLicenseKeyPair();
const privateKey = privateKeyFrom(pair.privateKey);
const issue = (expiresInDays: number, countries: string[] = []) =>
  signLicense({ customer: 'ООО Ромашка', expires: new Date(Date.now() + expiresInDays * DAY).toISOString(), countries }, privateKey);
const BODY = { query: 'д 1', countryCode: 'RU' };
const OPERATOR_KEY = 'operator-key-0123456789';
const AS_OPERATOR = { authorization: `Bearer ${OPERATOR_KEY}` };

const servers: TestServer[] = [];
async function serve(key: string, extra: Record<string, unknown> = {}, auth: Record<string, unknown> = { OperatorKey: OPERATOR_KEY }): Promise<TestServer> {
  const server = await startTestServer({ config: { license: { Key: key, PublicKey: pair.publicKey, ...extra }, auth } });
  servers.push(server);
  return server;
}
afterAll(async () => {
  for (const server of servers) await server.close();
});

describe('license check of data methods', () => {
  it('serves data methods with a valid key and reports it', async () => {
    const api = await serve(issue(30));
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(200);
    const status = await api.get('/api/v1/license');
    expect(schemaErrors('LicenseResponse', status.body)).toBe('');
    expect(status.body).toMatchObject({ status: 'valid', customer: 'ООО Ромашка' });
  });

  it('answers 403 code 7 naming the expiry when the key expired; /version stays open', async () => {
    const key = issue(-2);
    const api = await serve(key);
    const reply = await api.post('/api/v1/clean/house', BODY);
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe(7);
    const expires = JSON.parse(Buffer.from(key.split('.')[0], 'base64url').toString()).expires as string;
    expect(reply.body.message).toContain(expires);
    expect((await api.get('/v1/version')).status).toBe(200);
    expect((await api.get('/legacy/checkAddress?addr=x')).status).toBe(403);
  });

  it('answers 403 code 7 for a forged key and for a country the key does not cover', async () => {
    const forged = await serve(`${issue(30).split('.')[0]}.${'A'.repeat(86)}`);
    expect((await forged.post('/api/v1/clean/house', BODY)).body.code).toBe(7);
    const kzOnly = await serve(issue(30, ['kz']));
    const reply = await kzOnly.post('/api/v1/clean/address', { query: 'Байконур', countryCode: 'RU' });
    expect(reply.status).toBe(403);
    expect(reply.body.message).toContain('RU');
  });

  it('installs a key with PUT /api/v1/license and refuses a bad one with 400', async () => {
    const api = await serve(issue(-1));
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(403);
    const bad = await api.request('PUT', '/api/v1/license', { body: { key: 'abc.def' }, headers: AS_OPERATOR });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(3);
    const put = await api.request('PUT', '/api/v1/license', { body: { key: issue(365) }, headers: AS_OPERATOR });
    expect(put.status).toBe(200);
    expect(put.body.status).toBe('valid');
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(200);
  });

  it('is an open community installation without a key', async () => {
    const api = await startTestServer();
    servers.push(api);
    expect((await api.get('/api/v1/license')).body.status).toBe('community');
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(200);
  });
});

describe('PUT /api/v1/license: the operator key', () => {
  it('is refused with 403 code 7 saying how to configure one when no operator key is configured, auth off', async () => {
    const api = await serve(issue(30), {}, {});
    for (const headers of [{}, AS_OPERATOR]) {
      const reply = await api.request('PUT', '/api/v1/license', { body: { key: issue(365) }, headers });
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe(7);
      expect(reply.body.message).toContain('auth.OperatorKey');
      expect(reply.body.message).toContain('ADDRESS_SERVICE_OPERATOR_KEY');
    }
    const community = await startTestServer();
    servers.push(community);
    const reply = await community.request('PUT', '/api/v1/license', { body: { key: issue(365) } });
    expect(reply.status).toBe(403);
    expect((await community.get('/api/v1/license')).body.status).toBe('community');
  });

  it('answers 401 code 16 without the operator key or with a wrong one, an API key included', async () => {
    const api = await serve(issue(30), {}, { OperatorKey: OPERATOR_KEY, Enabled: true, Keys: ['api-key-1'] });
    const missing = await api.request('PUT', '/api/v1/license', { body: { key: issue(365) } });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe(16);
    expect(missing.body.message).toMatch(/^Ключ оператора обязателен/);
    for (const authorization of ['api-key-1', 'Bearer wrong-operator-key-0000', OPERATOR_KEY.slice(1)]) {
      const wrong = await api.request('PUT', '/api/v1/license', { body: { key: issue(365) }, headers: { authorization } });
      expect(wrong.status, authorization).toBe(401);
      expect(wrong.body).toEqual({ code: 16, message: 'Ошибка авторизации', details: [] });
    }
    for (const authorization of [OPERATOR_KEY, `Token ${OPERATOR_KEY}`, `Bearer ${OPERATOR_KEY}`]) {
      expect((await api.request('PUT', '/api/v1/license', { body: { key: issue(365) }, headers: { authorization } })).status, authorization).toBe(200);
    }
  });
});

describe('PUT /api/v1/license: no downgrade of the license in force', () => {
  const payloadOf = (key: string) => JSON.parse(Buffer.from(key.split('.')[0], 'base64url').toString()) as { expires: string; countries: string[] };

  it('refuses an expired key over a valid one with 400 code 9, keeping the key in force and the state file', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'license-')), 'license.key');
    const valid = issue(30, ['ru', 'kz']);
    const api = await serve(valid, { StateFile: stateFile });
    const expired = issue(-1, ['ru', 'kz']);
    const reply = await api.request('PUT', '/api/v1/license', { body: { key: expired }, headers: AS_OPERATOR });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(9);
    expect(reply.body.message).toContain(`срок действия ключа истёк ${payloadOf(expired).expires}`);
    expect(reply.body.message).toContain('force=true');
    const status = (await api.get('/api/v1/license')).body;
    expect(status).toMatchObject({ status: 'valid', expires: payloadOf(valid).expires });
    expect(() => readFileSync(stateFile)).toThrow();
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(200);
  });

  it('refuses a key covering fewer countries or ending sooner, naming what would be lost', async () => {
    const api = await serve(issue(300, ['ru', 'kz']));
    const fewer = await api.request('PUT', '/api/v1/license', { body: { key: issue(400, ['ru']) }, headers: AS_OPERATOR });
    expect(fewer.status).toBe(400);
    expect(fewer.body).toMatchObject({ code: 9, details: [] });
    expect(fewer.body.message).toContain('не покрывает KZ');
    const sooner = await api.request('PUT', '/api/v1/license', { body: { key: issue(100, ['ru', 'kz']) }, headers: AS_OPERATOR });
    expect(sooner.status).toBe(400);
    expect(sooner.body.message).toMatch(/^key: ключ действует до .*, а установленный — до /);
    const all = await serve(issue(300));
    const some = await all.request('PUT', '/api/v1/license', { body: { key: issue(400, ['ru', 'kz', 'by']) }, headers: AS_OPERATOR });
    expect(some.status).toBe(400);
    expect(some.body.message).toContain('покрывает только RU, KZ, BY, а установленный — все страны');
    expect((await api.get('/api/v1/license')).body.countries).toEqual(['ru', 'kz']);
  });

  it('installs a key that lasts longer and covers more without force', async () => {
    const api = await serve(issue(30, ['ru']));
    const wider = issue(400, ['ru', 'kz']);
    const reply = await api.request('PUT', '/api/v1/license', { body: { key: wider }, headers: AS_OPERATOR });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'valid', countries: ['ru', 'kz'], expires: payloadOf(wider).expires });
  });

  it('installs a narrower or expired key when the operator forces it (?force=true or "force": true)', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'license-')), 'license.key');
    const api = await serve(issue(300, ['ru', 'kz']), { StateFile: stateFile });
    const narrower = issue(100, ['kz']);
    const byQuery = await api.request('PUT', '/api/v1/license?force=true', { body: { key: narrower }, headers: AS_OPERATOR });
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.countries).toEqual(['kz']);
    expect(readFileSync(stateFile, 'utf8').trim()).toBe(narrower);
    const expired = issue(-1, ['kz']);
    const byBody = await api.request('PUT', '/api/v1/license', { body: { key: expired, force: true }, headers: AS_OPERATOR });
    expect(byBody.status).toBe(200);
    expect(byBody.body.status).toBe('expired');
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(403);
  });

  it('answers 400 code 3 to a force that is not true or false', async () => {
    const api = await serve(issue(30));
    for (const [path, body] of [['/api/v1/license?force=yes', { key: issue(10) }], ['/api/v1/license', { key: issue(10), force: 'true' }]] as const) {
      const reply = await api.request('PUT', path, { body, headers: AS_OPERATOR });
      expect(reply.status, path).toBe(400);
      expect(reply.body.code).toBe(3);
      expect(reply.body.message).toMatch(/^force: ожидается/);
    }
  });
});

describe('license renewal through the license server on loopback', () => {
  let licenseServer: Server;
  let licenseUrl = '';
  beforeAll(async () => {
    licenseServer = createServer(createLicenseServerApp({ privateKey, validityDays: 365, logger: pino({ level: 'silent' }) }).callback());
    await new Promise<void>((done) => licenseServer.listen(0, '127.0.0.1', done));
    const address = licenseServer.address();
    licenseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((done) => licenseServer.close(() => done())));

  it('renews a key that expires within RenewBeforeDays and installs the new one', async () => {
    const oldKey = issue(2, ['ru']);
    const license = new LicenseManager({ key: oldKey, publicKey: pair.publicKey, prolongationServer: licenseUrl, renewBeforeDays: 7, logger: pino({ level: 'silent' }) });
    const api = await startTestServer({ config: { license: { Key: oldKey, PublicKey: pair.publicKey, ProlongationServer: licenseUrl } }, license });
    servers.push(api);
    const before = (await api.get('/api/v1/license')).body.expires as string;
    expect(license.renewalDueIn()).toBeLessThanOrEqual(0);
    license.startRenewal(50);
    for (let i = 0; i < 100 && license.currentKey === oldKey; i++) await new Promise((r) => setTimeout(r, 20));
    license.stopRenewal();
    const after = await api.get('/api/v1/license');
    expect(after.body.status).toBe('valid');
    expect(Date.parse(after.body.expires)).toBeGreaterThan(Date.parse(before) + 300 * DAY);
    expect(after.body.countries).toEqual(['ru']);
    expect(after.body.lastRenewal.ok).toBe(true);
    expect(license.renewalDueIn()).toBeGreaterThan(0);
  });

  it('brings an expired installation back to service', async () => {
    const expired = issue(-3);
    const license = new LicenseManager({ key: expired, publicKey: pair.publicKey, prolongationServer: licenseUrl, logger: pino({ level: 'silent' }) });
    const api = await startTestServer({ config: {}, license });
    servers.push(api);
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(403);
    await license.renew();
    expect((await api.post('/api/v1/clean/house', BODY)).status).toBe(200);
  });

  it('refuses to renew a key it did not sign, and the installation keeps its key', async () => {
    const stranger = generateLicenseKeyPair();
    const foreignKey = signLicense({ customer: 'x', expires: new Date(Date.now() + DAY).toISOString(), countries: [] }, privateKeyFrom(stranger.privateKey));
    const license = new LicenseManager({ key: foreignKey, publicKey: stranger.publicKey, prolongationServer: licenseUrl, logger: pino({ level: 'silent' }) });
    await expect(license.renew()).rejects.toThrow(/400/);
    expect(license.currentKey).toBe(foreignKey);
    expect(license.lastRenewal?.ok).toBe(false);
  });
});

/** One request on a connection of its own (so that a cluster's primary hands each to the next worker): status and body. */
function onNewConnection(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(url, { method, agent: false, headers: { ...headers, ...(data ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

describe('PUT /api/v1/license in a cluster of two workers', () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('spreads a forced key to every worker and a refused one to none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'license-cluster-'));
    const config = join(dir, 'config.yaml');
    const inForce = issue(300, ['ru', 'kz']);
    writeFileSync(config, `license:\n  Key: ${inForce}\n  PublicKey: ${JSON.stringify(pair.publicKey)}\n  StateFile: ${join(dir, 'license.key')}\n`);
    child = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts', '--config', config, '--port', '0'], {
      env: { ...process.env, WORKERS: '2', PORT: '', ADDRESS_SERVICE_OPERATOR_KEY: OPERATOR_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const events: { msg: string; url?: string }[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        events.push(JSON.parse(line));
      } catch {
        // not a log line
      }
    });
    for (let waited = 0; events.filter((event) => event.msg === 'listening').length < 2; waited += 100) {
      if (waited > 120_000) throw new Error(`no two workers listening: ${JSON.stringify(events.map((event) => event.msg))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const base = events.find((event) => event.msg === 'listening')!.url!.replace('0.0.0.0', '127.0.0.1');
    const expiresSeen = async () => new Set(await Promise.all(Array.from({ length: 6 }, async () => (await onNewConnection(`${base}/api/v1/license`, 'GET')).body.expires as string)));
    const expiresOf = (key: string) => JSON.parse(Buffer.from(key.split('.')[0], 'base64url').toString()).expires as string;

    const refused = await onNewConnection(`${base}/api/v1/license`, 'PUT', { key: issue(-1, ['ru', 'kz']) }, AS_OPERATOR);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(9);
    await new Promise((r) => setTimeout(r, 200));
    expect(await expiresSeen()).toEqual(new Set([expiresOf(inForce)]));

    const narrower = issue(100, ['kz']);
    const forced = await onNewConnection(`${base}/api/v1/license?force=true`, 'PUT', { key: narrower }, AS_OPERATOR);
    expect(forced.status).toBe(200);
    let seen = await expiresSeen();
    for (let i = 0; i < 50 && !(seen.size === 1 && seen.has(expiresOf(narrower))); i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await expiresSeen();
    }
    expect(seen).toEqual(new Set([expiresOf(narrower)]));
    expect(events.filter((event) => /refused/.test(event.msg))).toEqual([]);
    const exited = new Promise<number | null>((done) => child!.on('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 200_000);
});
