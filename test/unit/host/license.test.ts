import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FailedPreconditionError, PermissionDeniedError, InvalidArgumentError } from '../../../host/errors.js';
import { decodeLicense, generateLicenseKeyPair, LicenseManager, narrowing, privateKeyFrom, publicKeyFrom, signLicense, type LicenseState } from '../../../host/license.js';

const pair = generateLicenseKeyPair();
const privateKey = privateKeyFrom(pair.privateKey);
const DAY = 86_400_000;
const issue = (expires: string, countries: string[] = []) => signLicense({ customer: 'ООО Ромашка', expires, countries }, privateKey);

describe('signLicense / decodeLicense', () => {
  it('round-trips the payload', () => {
    const key = issue('2030-01-01', ['ru']);
    expect(decodeLicense(key, publicKeyFrom(pair.publicKey))).toEqual({ customer: 'ООО Ромашка', expires: '2030-01-01', countries: ['ru'] });
  });

  it('refuses a tampered payload and a key of another signer', () => {
    const key = issue('2030-01-01');
    const [payload, signature] = key.split('.');
    const forged = Buffer.from(Buffer.from(payload, 'base64url').toString().replace('2030', '2099')).toString('base64url');
    expect(() => decodeLicense(`${forged}.${signature}`, publicKeyFrom(pair.publicKey))).toThrow(/подпись/);
    const other = generateLicenseKeyPair();
    expect(() => decodeLicense(key, publicKeyFrom(other.publicKey))).toThrow(/подпись/);
  });

  it('refuses a public key that is not Ed25519', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => publicKeyFrom(rsa)).toThrow(/rsa вместо Ed25519/);
    expect(() => publicKeyFrom('AAAA')).toThrow(/не PEM и не 32 байта/);
  });

  it('accepts a raw 32-byte public key in base64url', () => {
    const jwk = publicKeyFrom(pair.publicKey).export({ format: 'jwk' });
    expect(decodeLicense(issue('2030-01-01'), publicKeyFrom(jwk.x as string)).customer).toBe('ООО Ромашка');
  });
});

describe('LicenseManager', () => {
  const now = Date.parse('2025-06-01T00:00:00Z');

  it('is an open community installation without a key', () => {
    const manager = new LicenseManager({ key: '', publicKey: '' });
    expect(manager.state().status).toBe('community');
    expect(() => manager.assertAllows('ru')).not.toThrow();
  });

  it('refuses data methods with 403 naming the expiry when expired', () => {
    const manager = new LicenseManager({ key: issue('2025-05-01'), publicKey: pair.publicKey, now: () => now });
    expect(manager.state().status).toBe('expired');
    expect(() => manager.assertAllows('ru')).toThrow(PermissionDeniedError);
    expect(() => manager.assertAllows('ru')).toThrow(/2025-05-01/);
  });

  it('refuses a country the license does not cover', () => {
    const manager = new LicenseManager({ key: issue('2026-01-01', ['ru']), publicKey: pair.publicKey, now: () => now });
    expect(() => manager.assertAllows('ru')).not.toThrow();
    expect(() => manager.assertAllows('kz')).toThrow(/KZ/);
  });

  it('marks a forged key invalid', () => {
    const manager = new LicenseManager({ key: 'abc.def', publicKey: pair.publicKey, now: () => now });
    expect(manager.state().status).toBe('invalid');
    expect(() => manager.assertAllows()).toThrow(PermissionDeniedError);
  });

  it('installs a new key, keeps it in the state file and refuses a bad one with 400', () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'lic-')), 'license.key');
    const manager = new LicenseManager({ key: issue('2025-05-01'), publicKey: pair.publicKey, stateFile, now: () => now });
    const fresh = issue('2026-06-01');
    expect(manager.install(fresh).status).toBe('valid');
    expect(readFileSync(stateFile, 'utf8').trim()).toBe(fresh);
    expect(() => manager.install('x.y')).toThrow(InvalidArgumentError);
    const restarted = new LicenseManager({ key: issue('2025-05-01'), publicKey: pair.publicKey, stateFile, now: () => now });
    expect(restarted.state().expires).toBe('2026-06-01');
  });

  it('refuses with 400 code 9 a key that would narrow the valid one, keeps the old key and file, tells no process', () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'lic-')), 'license.key');
    const current = issue('2026-01-01', ['ru', 'kz']);
    const manager = new LicenseManager({ key: current, publicKey: pair.publicKey, stateFile, now: () => now });
    const told: string[] = [];
    manager.onInstall((key) => told.push(key));
    for (const [key, why] of [
      [issue('2025-05-31', ['ru', 'kz']), /срок действия ключа истёк 2025-05-31/],
      [issue('2027-01-01', ['ru']), /не покрывает KZ/],
      [issue('2025-12-01', ['ru', 'kz']), /действует до 2025-12-01, а установленный — до 2026-01-01/],
    ] as const) {
      expect(() => manager.install(key)).toThrow(FailedPreconditionError);
      expect(() => manager.install(key)).toThrow(why);
    }
    expect(manager.currentKey).toBe(current);
    expect(told).toEqual([]);
    expect(() => readFileSync(stateFile)).toThrow();
    const forced = issue('2025-12-01', ['kz']);
    expect(manager.install(forced, { force: true }).countries).toEqual(['kz']);
    expect(told).toEqual([forced]);
    expect(readFileSync(stateFile, 'utf8').trim()).toBe(forced);
  });

  it('refuses a narrowed key from the renewal server: the renewal fails, says why, and the key stays', async () => {
    const current = issue('2025-06-05', ['ru', 'kz']);
    const narrowed = issue('2026-06-05', ['ru']);
    const fetchNarrowed = (async () => new Response(JSON.stringify({ key: narrowed }), { status: 200 })) as typeof fetch;
    const manager = new LicenseManager({ key: current, publicKey: pair.publicKey, prolongationServer: 'http://127.0.0.1:1', now: () => now, fetch: fetchNarrowed });
    await expect(manager.renew()).rejects.toThrow(/не покрывает KZ/);
    expect(manager.currentKey).toBe(current);
    expect(manager.lastRenewal).toMatchObject({ ok: false });
  });

  it('is due for renewal RenewBeforeDays before expiry', () => {
    const manager = new LicenseManager({
      key: issue(new Date(now + 10 * DAY).toISOString()), publicKey: pair.publicKey, prolongationServer: 'http://127.0.0.1:1', renewBeforeDays: 7, now: () => now,
    });
    expect(manager.renewalDueIn()).toBe(3 * DAY);
  });
});

describe('narrowing(next, current, now)', () => {
  const now = Date.parse('2025-06-01T00:00:00Z');
  const state = (status: LicenseState['status'], expires: string, countries: string[]): LicenseState => ({ status, customer: 'c', expires, countries, message: '' });
  const payload = (expires: string, countries: string[]) => ({ customer: 'c', expires, countries });

  it('says nothing against a key as long and as wide, or wider, or over a key not in force', () => {
    expect(narrowing(payload('2026-01-01', ['ru']), state('valid', '2026-01-01', ['ru']), now)).toBe('');
    expect(narrowing(payload('2026-02-01', []), state('valid', '2026-01-01', ['ru']), now)).toBe('');
    expect(narrowing(payload('2026-02-01', ['kz', 'ru']), state('valid', '2026-01-01', ['ru']), now)).toBe('');
    for (const status of ['community', 'expired', 'invalid'] as const) expect(narrowing(payload('2025-07-01', ['kz']), state(status, '2026-01-01', []), now)).toBe('');
  });

  it('names an expired key, a sooner end and the countries lost', () => {
    expect(narrowing(payload('2025-05-31', []), state('community', '', []), now)).toBe('срок действия ключа истёк 2025-05-31');
    expect(narrowing(payload('2025-12-31', []), state('valid', '2026-01-01', []), now)).toBe('ключ действует до 2025-12-31, а установленный — до 2026-01-01');
    expect(narrowing(payload('2026-01-01', ['ru']), state('valid', '2026-01-01', ['ru', 'kz', 'by']), now)).toBe('ключ не покрывает KZ, BY, которые покрывает установленный');
    expect(narrowing(payload('2026-01-01', ['ru']), state('valid', '2026-01-01', []), now)).toBe('ключ покрывает только RU, а установленный — все страны');
  });
});
