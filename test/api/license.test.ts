import { createServer, type Server } from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLicenseKeyPair, LicenseManager, privateKeyFrom, signLicense } from '../../host/license.js';
import { createLicenseServerApp } from '../../host/license-server.js';
import { schemaErrors, startTestServer, type TestServer } from './helpers.js';

const DAY = 86_400_000;
const pair = generateLicenseKeyPair();
const privateKey = privateKeyFrom(pair.privateKey);
const issue = (expiresInDays: number, countries: string[] = []) =>
  signLicense({ customer: 'ООО Ромашка', expires: new Date(Date.now() + expiresInDays * DAY).toISOString(), countries }, privateKey);
const BODY = { query: 'д 1', countryCode: 'RU' };

const servers: TestServer[] = [];
async function serve(key: string, extra: Record<string, unknown> = {}): Promise<TestServer> {
  const server = await startTestServer({ config: { license: { Key: key, PublicKey: pair.publicKey, ...extra } } });
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
    const bad = await api.request('PUT', '/api/v1/license', { body: { key: 'abc.def' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(3);
    const put = await api.request('PUT', '/api/v1/license', { body: { key: issue(365) } });
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
