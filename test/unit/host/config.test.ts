import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromObject, loadConfig, parseListen } from '../../../host/config.js';

/** The message of the ConfigError loadConfig throws for the file at `path`; '' when it loads. */
function loadError(path: string): string {
  try {
    loadConfig({ path, argv: [], env: {} });
    return '';
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
}

describe('loadConfig()', () => {
  it('reads the shipped config/address-service.yaml with its defaults', () => {
    const config = loadConfig({ path: 'config/address-service.yaml', argv: [], env: {} });
    expect(config.gateway).toMatchObject({ Listen: '0.0.0.0:8080', ReadTimeout: 60000, WriteTimeout: 60000, Balance: 'roundrobin', Scheduling: 'batch' });
    expect(config.auth.Enabled).toBe(false);
    expect(config.dictionaries).toEqual({ Dir: 'build/dictionaries', HouseCodes: 'auto', Countries: [] });
    expect(config.metrics).toEqual({ Enabled: true, Path: '/metrics' });
    expect(config.gateway.RestartLimit).toBe(10);
    expect(config.license.Key).toBe('');
  });

  it('fills every default for an empty document', () => {
    const config = configFromObject(null);
    expect(config.gateway.Listen).toBe('0.0.0.0:8080');
    expect(config.gateway.ReadTimeout).toBe(60000);
    expect(config.gateway.Balance).toBe('roundrobin');
    expect(configFromObject({ gateway: { Balance: 'os' } }).gateway.Balance).toBe('os');
    expect(config.gateway.Scheduling).toBe('batch');
    expect(configFromObject({ gateway: { Scheduling: 'normal' } }).gateway.Scheduling).toBe('normal');
    expect(config.auth).toEqual({ Enabled: false, Keys: [], Users: [], OperatorKey: '' });
  });

  it('lets --port win over PORT and PORT over the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const path = join(dir, 'a.yaml');
    writeFileSync(path, 'gateway:\n  Listen: "127.0.0.1:9000"\n');
    expect(loadConfig({ path, argv: [], env: {} }).gateway.Listen).toBe('127.0.0.1:9000');
    expect(loadConfig({ path, argv: [], env: { PORT: '9100' } }).gateway.Listen).toBe('127.0.0.1:9100');
    expect(loadConfig({ path, argv: ['--port', '9200'], env: { PORT: '9100' } }).gateway.Listen).toBe('127.0.0.1:9200');
    expect(loadConfig({ path, argv: [], env: { WORKERS: '3' } }).gateway.Workers).toBe(3);
  });

  it('lets --host win over HOST and HOST over the file, IPv6 in brackets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const path = join(dir, 'a.yaml');
    writeFileSync(path, 'gateway:\n  Listen: "0.0.0.0:9000"\n');
    expect(loadConfig({ path, argv: [], env: { HOST: '127.0.0.1' } }).gateway.Listen).toBe('127.0.0.1:9000');
    expect(loadConfig({ path, argv: ['--host', '::1'], env: { HOST: '127.0.0.1' } }).gateway.Listen).toBe('[::1]:9000');
    expect(loadConfig({ path, argv: ['--host=localhost', '--port=9300'], env: {} }).gateway.Listen).toBe('localhost:9300');
    expect(parseListen(loadConfig({ path, argv: [], env: { HOST: '[::1]', PORT: '81' } }).gateway.Listen)).toEqual({ host: '::1', port: 81 });
    expect(() => loadConfig({ path, argv: [], env: { HOST: 'a b' } })).toThrow(/^HOST: ожидается имя хоста или IP-адрес/);
  });

  it('refuses a gateway.Listen port out of range', () => {
    expect(() => configFromObject({ gateway: { Listen: '0.0.0.0:99999' } })).toThrow('конфигурация: gateway.Listen: порт 99999 вне диапазона 0–65535.');
  });

  it('turns metrics off or moves them with METRICS_ENABLED and METRICS_PATH', () => {
    const load = (env: Record<string, string>) => loadConfig({ path: 'config/address-service.yaml', argv: [], env }).metrics;
    expect(load({ METRICS_ENABLED: 'false' })).toEqual({ Enabled: false, Path: '/metrics' });
    expect(load({ METRICS_ENABLED: '1', METRICS_PATH: '/internal/metrics' })).toEqual({ Enabled: true, Path: '/internal/metrics' });
    expect(() => load({ METRICS_ENABLED: 'maybe' })).toThrow(/^METRICS_ENABLED: ожидается true или false/);
    expect(() => load({ METRICS_PATH: 'metrics' })).toThrow(/^METRICS_PATH: ожидается путь/);
    expect(() => configFromObject({ metrics: { Path: 'x' } })).toThrow(/metrics\.Path: ожидается путь/);
    expect(() => configFromObject({ dictionaries: { Countries: ['ru', 'de'] } })).toThrow(/dictionaries\.Countries\[1\]/);
  });

  it('throws a message naming the bad key', () => {
    expect(() => configFromObject({ gateway: { ReadTimeout: 'soon' } })).toThrow(/gateway\.ReadTimeout: ожидается целое число/);
    expect(() => configFromObject({ gateway: { Listen: 'localhost' } })).toThrow(/gateway\.Listen: ожидается host:port/);
    expect(() => configFromObject({ auth: { Enabled: 'yes' } })).toThrow(/auth\.Enabled: ожидается логическое значение/);
    expect(() => configFromObject({ gatway: {} })).toThrow(/gatway: неизвестное поле/);
    expect(() => configFromObject({ gateway: { Balance: 'random' } })).toThrow(/gateway\.Balance: недопустимое значение, допустимые: roundrobin, os/);
    expect(() => configFromObject({ gateway: { Scheduling: 'fifo' } })).toThrow(/gateway\.Scheduling: недопустимое значение, допустимые: batch, normal/);
    expect(() => configFromObject({ dictionaries: { HouseCodes: 'disk' } })).toThrow(/dictionaries\.HouseCodes: недопустимое значение, допустимые: memory, file, auto/);
    expect(() => configFromObject({ auth: { Users: [{ login: 'a' }] } })).toThrow(/auth\.Users\[0\]\.pwd/);
    expect(() => configFromObject({ auth: { Enabled: true } })).toThrow(ConfigError);
    expect(() => configFromObject({ license: { Key: 'a.b' } })).toThrow(/license\.PublicKey/);
  });

  it('names the file, not a request body, when the file is not a mapping of sections', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    for (const [text, kind] of [['42\n', 'значение 42'], ['- gateway\n', 'список'], ['gateway\n', 'строка «gateway»']]) {
      const path = join(dir, 'scalar.yaml');
      writeFileSync(path, text);
      const message = loadError(path);
      expect(message.startsWith(`${path}: `), message).toBe(true);
      expect(message).toContain('gateway, license, auth');
      expect(message).toContain(kind);
      expect(message).not.toContain('тело запроса');
    }
  });

  it('names the file and license.PublicKey when the public key does not read as Ed25519', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const path = join(dir, 'key.yaml');
    for (const publicKey of ['not-a-key', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----', rsa]) {
      writeFileSync(path, `license:\n  PublicKey: ${JSON.stringify(publicKey)}\n`);
      const message = loadError(path);
      expect(message.startsWith(`${path}: license.PublicKey: ключ не читается (`), message).toBe(true);
      expect(message).toContain('нужен открытый ключ Ed25519');
    }
  });

  it('takes the operator key from auth.OperatorKey or ADDRESS_SERVICE_OPERATOR_KEY, 16 characters at least', () => {
    expect(configFromObject({}).auth.OperatorKey).toBe('');
    expect(configFromObject({ auth: { OperatorKey: 'o'.repeat(16) } }).auth.OperatorKey).toBe('o'.repeat(16));
    expect(() => configFromObject({ auth: { OperatorKey: 'short' } })).toThrow(/auth\.OperatorKey: ожидается не меньше 16/);
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const path = join(dir, 'a.yaml');
    writeFileSync(path, `auth:\n  OperatorKey: ${'f'.repeat(20)}\n`);
    expect(loadConfig({ path, argv: [], env: {} }).auth.OperatorKey).toBe('f'.repeat(20));
    expect(loadConfig({ path, argv: [], env: { ADDRESS_SERVICE_OPERATOR_KEY: 'e'.repeat(24) } }).auth.OperatorKey).toBe('e'.repeat(24));
    expect(() => loadConfig({ path, argv: [], env: { ADDRESS_SERVICE_OPERATOR_KEY: 'with space in it 123' } })).toThrow(/^ADDRESS_SERVICE_OPERATOR_KEY: ожидается не меньше 16/);
  });

  it('refuses a bad PORT', () => {
    expect(() => loadConfig({ path: 'config/address-service.yaml', argv: [], env: { PORT: 'http' } })).toThrow(/PORT/);
  });
});

describe('parseListen(listen)', () => {
  it('splits host and port, IPv6 in brackets', () => {
    expect(parseListen('0.0.0.0:8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseListen('[::1]:81')).toEqual({ host: '::1', port: 81 });
    expect(parseListen(':82')).toEqual({ host: '0.0.0.0', port: 82 });
  });
});
