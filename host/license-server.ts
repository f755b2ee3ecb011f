/**
 * The license server: a small mode of the same program (`tsx host/server.ts --license-server` or
 * `tsx host/license-server.ts`). POST /api/v1/license/renew `{key}` verifies a key it signed and answers
 * `{key}`: the same customer and countries, valid `ValidityDays` past the later of now and the old expiry.
 * Config (YAML `--config`, or env): `PrivateKey` (LICENSE_PRIVATE_KEY), `Listen` (LICENSE_LISTEN),
 * `ValidityDays` (LICENSE_VALIDITY_DAYS, 365), `GraceDays` (how long after expiry a key may still be
 * renewed, 365), `Revoked` (customers refused). CLI: `keygen`, `issue --customer X --days N [--countries ru,kz]`.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createPublicKey, type KeyObject } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import pino, { type Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { NotFoundError, PermissionDeniedError } from './errors.js';
import { decodeLicense, expiryTime, generateLicenseKeyPair, LicenseKeyError, privateKeyFrom, signLicense } from './license.js';
import { accessLog } from './middleware/access-log.js';
import { errorMiddleware, JSON_TYPE } from './middleware/errors.js';
import { jsonBody } from './middleware/json-body.js';
import { parseListen } from './config.js';
import { licenseKeyRequest } from './schemas/license.js';
import { InvalidArgumentError } from './errors.js';

export interface LicenseServerOptions {
  privateKey: KeyObject;
  validityDays?: number;
  graceDays?: number;
  revoked?: string[];
  logger?: Logger;
  now?: () => number;
}

const DAY = 86_400_000;

export function createLicenseServerApp(options: LicenseServerOptions): Koa {
  const logger = options.logger ?? pino({ level: 'info' });
  const now = options.now ?? Date.now;
  const publicKey = createPublicKey(options.privateKey);
  const validity = (options.validityDays ?? 365) * DAY;
  const grace = (options.graceDays ?? 365) * DAY;
  const revoked = new Set(options.revoked ?? []);
  const app = new Koa();
  app.silent = true;
  const router = new Router();
  router.post('/api/v1/license/renew', jsonBody, (ctx) => {
    const { key } = licenseKeyRequest.parse(ctx.request.body);
    let payload;
    try {
      payload = decodeLicense(key, publicKey);
    } catch (err) {
      if (err instanceof LicenseKeyError) throw new InvalidArgumentError(`key: ${err.message}.`);
      throw err;
    }
    if (revoked.has(payload.customer)) throw new PermissionDeniedError(`лицензия клиента «${payload.customer}» отозвана`);
    const expires = expiryTime(payload.expires);
    if (expires + grace < now()) throw new PermissionDeniedError(`лицензия истекла ${payload.expires}, срок продления прошёл`);
    const renewed = { ...payload, expires: new Date(Math.max(now(), expires) + validity).toISOString() };
    logger.info({ customer: renewed.customer, expires: renewed.expires }, 'license renewed');
    ctx.type = JSON_TYPE;
    ctx.body = { key: signLicense(renewed, options.privateKey), expires: renewed.expires };
  });
  app.use(accessLog(logger));
  app.use(errorMiddleware(logger));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body === undefined && ctx.status === 404) throw new NotFoundError(`метод ${ctx.method} ${ctx.path} не найден`);
  });
  app.use(router.routes());
  return app;
}

function argValue(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  if (argv[0] === 'keygen') {
    const pair = generateLicenseKeyPair();
    process.stdout.write(`${pair.privateKey}\n${pair.publicKey}`);
    return;
  }
  const configPath = argValue(argv, '--config');
  const file = (configPath ? parseYaml(readFileSync(configPath, 'utf8')) : {}) as Record<string, unknown>;
  const privateText = String(file.PrivateKey ?? process.env.LICENSE_PRIVATE_KEY ?? '');
  if (!privateText) throw new Error('license server: PrivateKey (or LICENSE_PRIVATE_KEY) is required');
  const privateKey = privateKeyFrom(privateText);
  if (argv[0] === 'issue') {
    const customer = argValue(argv, '--customer');
    const days = Number(argValue(argv, '--days') ?? '365');
    if (!customer || !Number.isFinite(days)) throw new Error('usage: issue --customer NAME --days N [--countries ru,kz]');
    const countries = (argValue(argv, '--countries') ?? '').split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
    process.stdout.write(`${signLicense({ customer, expires: new Date(Date.now() + days * DAY).toISOString(), countries }, privateKey)}\n`);
    return;
  }
  const logger = pino({ level: 'info', base: { pid: process.pid, role: 'license-server' } });
  const app = createLicenseServerApp({
    privateKey,
    validityDays: Number(file.ValidityDays ?? process.env.LICENSE_VALIDITY_DAYS ?? 365),
    graceDays: Number(file.GraceDays ?? 365),
    revoked: Array.isArray(file.Revoked) ? file.Revoked.map(String) : [],
    logger,
  });
  const { host, port } = parseListen(String(file.Listen ?? process.env.LICENSE_LISTEN ?? '0.0.0.0:8090'));
  const server = createServer(app.callback());
  server.listen(port, host, () => logger.info({ host, port }, 'license server listening'));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1]?.endsWith('host/license-server.ts')) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
