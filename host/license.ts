/**
 * License keys: `base64url(JSON {customer, expires, countries}) + "." + base64url(Ed25519 signature of
 * that JSON)`, verified with the public key of the config. `LicenseManager` holds the installed key,
 * answers whether data methods may run, installs new keys (PUT /license, renewal) and renews the key
 * before it expires by POSTing it to `<ProlongationServer>/api/v1/license/renew`.
 * No key configured: an open community installation.
 * A new key never quietly narrows the license in force: an expired key, or one ending sooner or covering fewer
 * countries than the valid key installed, is refused unless the install is forced (docs/SECURITY.md).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { FailedPreconditionError, InvalidArgumentError, PermissionDeniedError } from './errors.js';
import type { Country } from '../engine/types.js';

export interface LicensePayload {
  customer: string;
  /** ISO date or date-time; the license is valid up to this instant (a bare date: through that day, UTC) */
  expires: string;
  /** dictionary slots the license covers (`ru`, `kz`, …); empty or absent: all */
  countries: string[];
}

export type LicenseStatus = 'community' | 'valid' | 'expired' | 'invalid';

export interface LicenseState {
  status: LicenseStatus;
  customer: string;
  expires: string;
  countries: string[];
  /** why the key is invalid or expired */
  message: string;
}

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function rawKey(text: string, what: string): Buffer {
  const raw = Buffer.from(text, 'base64url');
  if (raw.length !== 32) throw new Error(`${what} Ed25519: не PEM и не 32 байта в base64url (${raw.length} байт)`);
  return raw;
}

/** PEM (SPKI), or the 32 raw key bytes in base64url; an Ed25519 key, else it throws. */
export function publicKeyFrom(text: string): KeyObject {
  const trimmed = text.trim();
  if (!trimmed.startsWith('-----BEGIN')) {
    const der = Buffer.concat([SPKI_ED25519_PREFIX, rawKey(trimmed, 'открытый ключ')]);
    return createPublicKey({ key: der, format: 'der', type: 'spki' });
  }
  const key = createPublicKey(trimmed);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`ключ ${key.asymmetricKeyType ?? ''} вместо Ed25519`);
  return key;
}

/** PEM (PKCS8), or the 32-byte seed in base64url. */
export function privateKeyFrom(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPrivateKey(trimmed);
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, rawKey(trimmed, 'закрытый ключ')]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}

export function generateLicenseKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export function signLicense(payload: LicensePayload, privateKey: KeyObject): string {
  const json = Buffer.from(JSON.stringify({ customer: payload.customer, expires: payload.expires, countries: payload.countries }), 'utf8');
  return `${b64url(json)}.${b64url(sign(null, json, privateKey))}`;
}

export class LicenseKeyError extends Error {}

/** How to install a key the checks refuse, for their messages. */
export const FORCE_HINT = 'Чтобы установить его всё же, повторите PUT /api/v1/license с ?force=true или с "force": true в теле.';

const upper = (countries: string[]): string => countries.map((c) => c.toUpperCase()).join(', ');

/**
 * Why installing `next` would narrow what `current` allows at `now`, or '' when it would not: `next` expired,
 * or, while `current` is in force, ending sooner or covering fewer countries (an empty list covers all).
 */
export function narrowing(next: LicensePayload, current: LicenseState, now: number): string {
  if (expiryTime(next.expires) < now) return `срок действия ключа истёк ${next.expires}`;
  if (current.status !== 'valid') return '';
  if (expiryTime(next.expires) < expiryTime(current.expires)) {
    return `ключ действует до ${next.expires}, а установленный — до ${current.expires}`;
  }
  if (next.countries.length === 0) return '';
  const lost = current.countries.length === 0 ? null : current.countries.filter((c) => !next.countries.includes(c));
  if (lost === null) return `ключ покрывает только ${upper(next.countries)}, а установленный — все страны`;
  return lost.length > 0 ? `ключ не покрывает ${upper(lost)}, которые покрывает установленный` : '';
}

/** Checks the signature and the shape; does not look at the expiry. */
export function decodeLicense(key: string, publicKey: KeyObject): LicensePayload {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(key.trim());
  if (!match) throw new LicenseKeyError('ключ лицензии должен иметь вид <payload>.<signature> (base64url)');
  const json = Buffer.from(match[1], 'base64url');
  const signature = Buffer.from(match[2], 'base64url');
  let valid = false;
  try {
    valid = verify(null, json, publicKey, signature);
  } catch {
    valid = false;
  }
  if (!valid) throw new LicenseKeyError('подпись ключа лицензии неверна');
  let payload: Partial<LicensePayload>;
  try {
    payload = JSON.parse(json.toString('utf8')) as Partial<LicensePayload>;
  } catch {
    throw new LicenseKeyError('содержимое ключа лицензии не JSON');
  }
  if (typeof payload.customer !== 'string' || typeof payload.expires !== 'string' || Number.isNaN(expiryTime(payload.expires))) {
    throw new LicenseKeyError('в ключе лицензии нет customer или даты expires');
  }
  const countries = Array.isArray(payload.countries) ? payload.countries.filter((c): c is string => typeof c === 'string').map((c) => c.toLowerCase()) : [];
  return { customer: payload.customer, expires: payload.expires, countries };
}

/** A bare date is valid through the end of that day (UTC). */
export function expiryTime(expires: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(expires)) return Date.parse(`${expires}T23:59:59.999Z`);
  return Date.parse(expires);
}

export interface LicenseManagerOptions {
  key: string;
  publicKey: string;
  prolongationServer?: string;
  renewBeforeDays?: number;
  stateFile?: string;
  logger?: Logger;
  now?: () => number;
  fetch?: typeof fetch;
}

export class LicenseManager {
  private key = '';
  private payload: LicensePayload | null = null;
  private invalidMessage = '';
  private readonly publicKey: KeyObject | null;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private listeners: ((key: string) => void)[] = [];
  lastRenewal: { at: string; ok: boolean; message: string } | null = null;

  constructor(private readonly options: LicenseManagerOptions) {
    this.now = options.now ?? Date.now;
    this.publicKey = options.publicKey ? publicKeyFrom(options.publicKey) : null;
    const stored = options.stateFile && existsSync(options.stateFile) ? readFileSync(options.stateFile, 'utf8').trim() : '';
    const initial = options.key.trim();
    this.load(initial);
    // a key kept by an earlier renewal or PUT wins when it is valid and lasts longer
    if (stored && stored !== initial) {
      try {
        const payload = this.decode(stored);
        if (!this.payload || expiryTime(payload.expires) > expiryTime(this.payload.expires)) this.load(stored);
      } catch (err) {
        options.logger?.warn({ file: options.stateFile, err: (err as Error).message }, 'stored license key ignored');
      }
    }
  }

  private decode(key: string): LicensePayload {
    if (!this.publicKey) throw new LicenseKeyError('license.PublicKey не задан: ключ лицензии нечем проверить');
    return decodeLicense(key, this.publicKey);
  }

  private load(key: string): void {
    this.key = key;
    this.payload = null;
    this.invalidMessage = '';
    if (!key) return;
    try {
      this.payload = this.decode(key);
    } catch (err) {
      this.invalidMessage = (err as Error).message;
    }
  }

  get currentKey(): string {
    return this.key;
  }

  state(): LicenseState {
    if (!this.key) return { status: 'community', customer: '', expires: '', countries: [], message: 'ключ лицензии не задан: открытая установка' };
    if (!this.payload) return { status: 'invalid', customer: '', expires: '', countries: [], message: this.invalidMessage };
    const expired = expiryTime(this.payload.expires) < this.now();
    return {
      status: expired ? 'expired' : 'valid',
      customer: this.payload.customer,
      expires: this.payload.expires,
      countries: this.payload.countries,
      message: expired ? `срок действия лицензии истёк ${this.payload.expires}` : '',
    };
  }

  /** Throws 403 code 7 when a data method may not run for `country`. */
  assertAllows(country?: Country): void {
    const state = this.state();
    if (state.status === 'community') return;
    if (state.status === 'invalid') throw new PermissionDeniedError(`лицензия недействительна: ${state.message}; установите ключ через PUT /api/v1/license`);
    if (state.status === 'expired') throw new PermissionDeniedError(`срок действия лицензии истёк ${state.expires}; продлите лицензию`);
    if (country && state.countries.length > 0 && !state.countries.includes(country)) {
      throw new PermissionDeniedError(`лицензия не распространяется на страну ${country.toUpperCase()}`);
    }
  }

  onInstall(listener: (key: string) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Verifies and installs `key`: a key with a bad signature is refused with 400 code 3; one that would narrow the
   * license in force (`narrowing`) with 400 code 9, unless `force` (an operator's explicit choice, or a key another
   * process of this installation has checked already).
   */
  install(key: string, options: { notify?: boolean; force?: boolean } = {}): LicenseState {
    let payload: LicensePayload;
    try {
      payload = this.decode(key);
    } catch (err) {
      throw new InvalidArgumentError(`key: ${(err as Error).message}.`);
    }
    const narrower = options.force ? '' : narrowing(payload, this.state(), this.now());
    if (narrower) throw new FailedPreconditionError(`key: ${narrower}; ключ не установлен, действует прежний. ${FORCE_HINT}`);
    this.key = key.trim();
    this.payload = payload;
    this.invalidMessage = '';
    if (this.options.stateFile) {
      mkdirSync(dirname(this.options.stateFile), { recursive: true });
      const temporary = `${this.options.stateFile}.${process.pid}.tmp`;
      writeFileSync(temporary, `${this.key}\n`, { mode: 0o600 });
      renameSync(temporary, this.options.stateFile);
    }
    this.options.logger?.info({ customer: payload.customer, expires: payload.expires, countries: payload.countries }, 'license installed');
    if (options.notify !== false) for (const listener of this.listeners) listener(this.key);
    return this.state();
  }

  /** Milliseconds until renewal is due (≤ 0: now); null when renewal is off or there is no key. */
  renewalDueIn(): number | null {
    if (!this.options.prolongationServer || !this.key || !this.payload) return null;
    const before = (this.options.renewBeforeDays ?? 7) * 86_400_000;
    return expiryTime(this.payload.expires) - before - this.now();
  }

  /** POSTs the current key to the prolongation server and installs the key it returns. */
  async renew(): Promise<LicenseState> {
    const server = this.options.prolongationServer?.replace(/\/+$/, '');
    if (!server) throw new Error('license.ProlongationServer не задан');
    const doFetch = this.options.fetch ?? fetch;
    const at = new Date(this.now()).toISOString();
    try {
      const response = await doFetch(`${server}/api/v1/license/renew`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: this.key }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      let body: { key?: unknown; message?: unknown } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        /* reported below */
      }
      if (!response.ok || typeof body.key !== 'string') {
        throw new Error(`сервер продления ответил ${response.status}: ${typeof body.message === 'string' ? body.message : text.slice(0, 200)}`);
      }
      const state = this.install(body.key);
      this.lastRenewal = { at, ok: true, message: `продлено до ${state.expires}` };
      return state;
    } catch (err) {
      this.lastRenewal = { at, ok: false, message: (err as Error).message };
      this.options.logger?.warn({ err: (err as Error).message, server }, 'license renewal failed');
      throw err;
    }
  }

  /** Checks every `intervalMs` whether renewal is due and renews; failures are retried at the next check. */
  startRenewal(intervalMs = 3_600_000): void {
    if (!this.options.prolongationServer || this.timer) return;
    const tick = async (): Promise<void> => {
      const due = this.renewalDueIn();
      if (due !== null && due <= 0) await this.renew().catch(() => undefined);
    };
    void tick();
    this.timer = setInterval(() => void tick(), intervalMs);
    this.timer.unref();
  }

  stopRenewal(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
