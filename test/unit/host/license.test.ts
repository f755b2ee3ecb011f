import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PermissionDeniedError, InvalidArgumentError } from '../../../host/errors.js';
import { decodeLicense, generateLicenseKeyPair, LicenseManager, privateKeyFrom, publicKeyFrom, signLicense } from '../../../host/license.js';

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

  it('is due for renewal RenewBeforeDays before expiry', () => {
    const manager = new LicenseManager({
      key: issue(new Date(now + 10 * DAY).toISOString()), publicKey: pair.publicKey, prolongationServer: 'http://127.0.0.1:1', renewBeforeDays: 7, now: () => now,
    });
    expect(manager.renewalDueIn()).toBe(3 * DAY);
  });
});
