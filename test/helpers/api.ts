/**
 * Starts `createApp()` with the REAL engine and dictionaries (`createEngine({dir})` of engine/, the
 * blobs of `npm run dict:build` in `build/dictionaries`, or DICTIONARIES_DIR) on 127.0.0.1, port 0, and
 * calls it with fetch. The engine is loaded once per test file.
 */
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import pino from 'pino';
import { createApp, type AddressApp } from '../../host/app.js';
import { configFromObject } from '../../host/config.js';
import { requestHandler } from '../../host/fast-path.js';
import type { Engine } from '../../engine/types.js';
import type { LicenseManager } from '../../host/license.js';
import { RESPONSE_SCHEMAS } from '../../host/schemas/responses.js';
import { loadEngineFactory } from '../../host/server.js';

export const DICTIONARIES_DIR = resolve(process.env.DICTIONARIES_DIR ?? 'build/dictionaries');

let engine: Promise<Engine> | null = null;

export function realEngine(): Promise<Engine> {
  engine ??= loadEngineFactory().then((createEngine) => createEngine({ dir: DICTIONARIES_DIR }));
  return engine;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface TestServer {
  app: AddressApp;
  url: string;
  server: Server;
  request<T = any>(method: string, path: string, options?: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string> }): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<Reply<T>>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: { config?: Record<string, unknown>; license?: LicenseManager; engine?: Engine; /** the Koa app alone, without the fast path */ koaOnly?: boolean } = {},
): Promise<TestServer> {
  const config = configFromObject(options.config ?? {});
  const app = createApp({ engine: options.engine ?? (await realEngine()), config, logger: pino({ level: 'silent' }), license: options.license });
  // as host/server.ts serves it: the fast path of the POST routes in front of the Koa app
  const server = createServer(options.koaOnly ? app.callback() : requestHandler(app));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const request = async <T>(method: string, path: string, opts: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Reply<T>> => {
    const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const response = await fetch(url + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed as T };
  };
  return {
    app,
    url,
    server,
    request,
    post: (path, body, headers) => request('POST', path, { body, headers }),
    get: (path, headers) => request('GET', path, { headers }),
    close: () => new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    }),
  };
}

const ajv = new Ajv({ allErrors: true, strict: false });
for (const schema of RESPONSE_SCHEMAS) ajv.addSchema(schema);

/** Validates a response body against a named response schema (the ones the OpenAPI document publishes). */
export function schemaErrors(name: string, body: unknown): string {
  const validate = ajv.getSchema(name) as ValidateFunction | undefined;
  if (!validate) throw new Error(`no schema ${name}`);
  return validate(body) ? '' : ajv.errorsText(validate.errors, { separator: '\n' });
}

export function arraySchemaErrors(name: string, body: unknown): string {
  if (!Array.isArray(body)) return 'not an array';
  return body.map((item) => schemaErrors(name, item)).filter(Boolean).join('\n');
}

export const EMPTY_CODES = { fias: '', ga: '', osm: '', gar: '', kladr: '' };
export const EMPTY_LEVEL = { fullName: '', name: '', type: '', codes: EMPTY_CODES };
