/**
 * requestHandler(app) (host/fast-path.ts) against the Koa app alone: the same requests to both, over raw
 * node:http, must get the same status, the same headers (all but Date, in the same order) and the same
 * body bytes. Valid queries from the golden files, every kind of bad request, both prefixes, auth on and
 * off, an invalid license. A counter in front of the Koa chain shows which requests the fast path
 * answered itself: every valid POST, and none of the others.
 */
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Context, Next } from 'koa';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../host/app.js';
import { configFromObject } from '../../host/config.js';
import { requestHandler } from '../../host/fast-path.js';
import { BODY_LIMIT } from '../../host/middleware/json-body.js';
import { generateLicenseKeyPair } from '../../host/license.js';
import { realEngine } from '../helpers/api.js';

interface Exchange {
  status: number;
  headers: string[];
  body: Buffer;
}

interface Pair {
  fast: number;
  koa: number;
  /** requests the fast path's Koa app saw (handed over, or never fast) */
  koaSaw: { count: number };
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** A server with the fast path and one with Koa alone, over apps built from the same config. */
async function pair(config: Record<string, unknown> = {}): Promise<Pair> {
  const engine = await realEngine();
  const build = () => createApp({ engine, config: configFromObject(config), logger: pino({ level: 'silent' }) });
  const fastApp = build();
  const koaSaw = { count: 0 };
  fastApp.middleware.unshift((_ctx: Context, next: Next) => {
    koaSaw.count++;
    return next();
  });
  const fastServer = createServer(requestHandler(fastApp));
  const koaServer = createServer(build().callback());
  const [fast, koa] = await Promise.all([listen(fastServer), listen(koaServer)]);
  return {
    fast,
    koa,
    koaSaw,
    close: async () => {
      for (const server of [fastServer, koaServer]) {
        server.closeAllConnections();
        await new Promise((done) => server.close(done));
      }
    },
  };
}

interface Call {
  method?: string;
  path: string;
  body?: string | Buffer;
  /** the body in pieces, without Content-Length (chunked) */
  chunks?: Buffer[];
  headers?: Record<string, string>;
}

function exchange(port: number, call: Call): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const body = typeof call.body === 'string' ? Buffer.from(call.body) : call.body;
    const headers: Record<string, string | number> = { 'content-type': 'application/json', ...call.headers };
    if (body) headers['content-length'] = body.length;
    const req = request({ host: '127.0.0.1', port, path: call.path, method: call.method ?? 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() !== 'date') raw.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers: raw, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    // the server may answer a body too large and close before the whole body is written
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    if (call.chunks) {
      for (const chunk of call.chunks) req.write(chunk);
      req.end();
    } else req.end(body);
  });
}

/** A whole POST of a JSON body as raw HTTP/1.1 bytes, for requests written straight to a socket. */
function rawPost(path: string, body: string): string {
  return `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Both servers answer `call` alike; returns the fast path's answer and whether Koa saw it. */
async function same(servers: Pair, call: Call): Promise<Exchange & { viaKoa: boolean }> {
  const before = servers.koaSaw.count;
  const fast = await exchange(servers.fast, call);
  const viaKoa = servers.koaSaw.count > before;
  const koa = await exchange(servers.koa, call);
  const label = `${call.method ?? 'POST'} ${call.path} ${String(call.body ?? '').slice(0, 80)}`;
  expect(fast.status, label).toBe(koa.status);
  expect(fast.headers, label).toEqual(koa.headers);
  expect(fast.body.toString('utf8'), label).toBe(koa.body.toString('utf8'));
  expect(fast.body.equals(koa.body), label).toBe(true);
  return { ...fast, viaKoa };
}

const golden = (file: string, limit: number) =>
  readFileSync(`test/golden/${file}.jsonl`, 'utf8').split('\n').filter(Boolean).slice(0, limit)
    .map((line) => (JSON.parse(line) as { input: Record<string, unknown>; gap?: string }))
    .filter((line) => !line.gap)
    .map((line) => JSON.stringify(line.input));

const PREFIXES = ['/api/v1', '/v1'];
const CLEAN = '/clean/address';
const SUGGEST = '/suggest/address';

/** Bad requests: each must be handed to Koa and answered as Koa answers it. */
const BAD_BODIES: Record<string, string> = {
  'empty query': '{"query":""}',
  'no query': '{}',
  'blank body': '',
  'malformed JSON': '{"query":',
  'an array': '[1]',
  'a number': '42',
  'wrong type': '{"query":5}',
  'wrong count type': '{"query":"Москва Тверская","count":"ten"}',
  'wrong country type': '{"query":"Москва","countryCode":5}',
  'unknown country': '{"query":"Москва","countryCode":"XX"}',
  'country not installed': '{"query":"Москва","countryCode":"US"}',
};

describe('requestHandler(app): fast path and Koa answer alike', () => {
  let open: Pair;
  beforeAll(async () => {
    open = await pair();
  });
  afterAll(() => open?.close());

  it('answers valid clean and suggest queries from the golden files itself, byte for byte as Koa', async () => {
    const cases: [string, string[]][] = [
      [CLEAN, golden('clean-address', 25)],
      [SUGGEST, golden('suggest-address', 25)],
      ['/clean/house', golden('clean-house', 5)],
      ['/geosearch/address', golden('geosearch-address', 5)],
      ['/idsearch/address', golden('idsearch-address', 5)],
    ];
    let fastAnswered = 0;
    for (const [path, bodies] of cases) {
      expect(bodies.length, path).toBeGreaterThan(0);
      for (const prefix of PREFIXES) {
        for (const body of bodies) {
          const reply = await same(open, { path: prefix + path, body });
          if (reply.status === 200) {
            expect(reply.viaKoa, `${prefix}${path} ${body}`).toBe(false);
            expect(reply.headers).toContain('Content-Type: application/json; charset=utf-8');
            expect(reply.headers).toContain(`Content-Length: ${reply.body.length}`);
            fastAnswered++;
          } else expect(reply.viaKoa).toBe(true);
        }
      }
    }
    expect(fastAnswered).toBeGreaterThan(50);
  });

  it('gives each of many requests in flight at once its own answer (the requests of one loop turn answered together, their answers written together)', async () => {
    const bodies = [...golden('clean-address', 20).map((body) => [CLEAN, body]), ...golden('suggest-address', 20).map((body) => [SUGGEST, body])];
    const alone = await Promise.all(bodies.map(([path, body]) => exchange(open.koa, { path: `/v1${path}`, body })));
    // every request on its own connection, all sent before the first answer: one turn reads several of them
    const together = await Promise.all(bodies.map(([path, body]) => exchange(open.fast, { path: `/v1${path}`, body })));
    expect(together.filter((reply) => reply.status === 200).length).toBeGreaterThan(15);
    together.forEach((reply, i) => {
      expect(reply.status, bodies[i][1]).toBe(alone[i].status);
      expect(reply.body.toString('utf8'), bodies[i][1]).toBe(alone[i].body.toString('utf8'));
    });
  });

  it('answers requests pipelined on one connection in their order', async () => {
    const bodies = golden('suggest-address', 6).slice(0, 3);
    const expected = await Promise.all(bodies.map((body) => exchange(open.koa, { path: `/v1${SUGGEST}`, body })));
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(open.fast, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString('utf8');
        if ((data.match(/HTTP\/1\.1 /g) ?? []).length === bodies.length && expected.every((e) => data.includes(e.body.toString('utf8')))) socket.end();
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      // all three requests in one write: node reads them in one turn
      socket.write(bodies.map((body) => rawPost(`/v1${SUGGEST}`, body)).join(''));
    });
    const positions = expected.map((e) => raw.indexOf(e.body.toString('utf8')));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('keeps answering when clients hang up before their answers are written', async () => {
    const body = golden('suggest-address', 1)[0];
    const request = rawPost(`/v1${SUGGEST}`, body);
    // 30 clients send a whole request and go at once, some before, some after the server has read it
    await Promise.all(Array.from({ length: 30 }, (_, i) => new Promise<void>((resolve) => {
      const socket = connect(open.fast, '127.0.0.1', () => {
        socket.write(request);
        if (i % 2 === 0) socket.destroy();
        else setImmediate(() => socket.destroy());
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    })));
    const after = await same(open, { path: `/v1${SUGGEST}`, body });
    expect(after.status).toBe(200);
    expect(after.viaKoa).toBe(false);
  });

  it('hands bad bodies to Koa, which answers the error envelope', async () => {
    for (const prefix of PREFIXES) {
      for (const path of [CLEAN, SUGGEST]) {
        for (const [what, body] of Object.entries(BAD_BODIES)) {
          const reply = await same(open, { path: prefix + path, body });
          // (clean/address has no count: the wrong count type is no error there)
          if (what === 'wrong count type' && path === CLEAN) continue;
          expect(reply.status, what).toBeGreaterThanOrEqual(400);
          expect(reply.viaKoa, what).toBe(true);
          expect(JSON.parse(reply.body.toString()), what).toEqual({ code: expect.any(Number), message: expect.any(String), details: [] });
        }
      }
    }
  });

  it('answers a JSON body with a byte order mark, and queries under 3 letters, as Koa', async () => {
    expect((await same(open, { path: `/v1${CLEAN}`, body: `\ufeff{"query":"Москва, Тверская 1"}` })).status).toBe(200);
    expect((await same(open, { path: `/api/v1${SUGGEST}`, body: '{"query":"мо"}' })).body.toString()).toBe('{"suggestions":[]}');
  });

  it('refuses a body over the limit alike, declared or streamed, and closes the connection', async () => {
    const big = Buffer.from(JSON.stringify({ query: 'а'.repeat(BODY_LIMIT) }));
    const declared = await same(open, { path: `/api/v1${CLEAN}`, body: big });
    expect(declared.status).toBe(400);
    expect(declared.headers).toContain('Connection: close');
    const streamed = await same(open, { path: `/api/v1${SUGGEST}`, chunks: [big.subarray(0, 600_000), big.subarray(600_000)] });
    expect(streamed.status).toBe(400);
    expect(streamed.viaKoa).toBe(true);
    expect(streamed.headers).toContain('Connection: close');
  });

  it('leaves other methods, query strings and other paths to Koa', async () => {
    for (const call of [
      { method: 'GET', path: `/api/v1${CLEAN}` },
      { method: 'PUT', path: `/v1${SUGGEST}`, body: '{"query":"Москва"}' },
      { method: 'HEAD', path: `/api/v1${CLEAN}` },
      { method: 'OPTIONS', path: `/api/v1${SUGGEST}` },
      { path: `/api/v1${CLEAN}?x=1`, body: '{"query":"Москва"}' },
      { path: `/api/v1${CLEAN}/`, body: '{"query":"Москва"}' },
      { path: '/api/v2/clean/address', body: '{"query":"Москва"}' },
      { method: 'GET', path: '/api/v1/health' },
      { method: 'GET', path: '/v1/version' },
    ]) {
      const reply = await same(open, call);
      expect(reply.viaKoa, `${call.method} ${call.path}`).toBe(true);
    }
  });
});

describe('requestHandler(app) access log', () => {
  it('writes one line per request, as the Koa access log does, for answers of both paths', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = createApp({ engine: await realEngine(), config: configFromObject({}), logger });
    const server = createServer(requestHandler(app));
    const port = await listen(server);
    try {
      await exchange(port, { path: `/v1${SUGGEST}`, body: '{"query":"Москва Тверская"}' });
      await exchange(port, { path: `/api/v1${CLEAN}`, body: '{"query":""}' });
      const requests = lines.filter((line) => line.msg === 'request');
      expect(requests).toEqual([
        expect.objectContaining({ level: 30, method: 'POST', url: `/v1${SUGGEST}`, status: 200, ms: expect.any(Number) }),
        expect.objectContaining({ level: 30, method: 'POST', url: `/api/v1${CLEAN}`, status: 400, ms: expect.any(Number), code: 3, message: 'query: значение не может быть пустым.' }),
      ]);
      expect(Object.keys(requests[0]).sort()).toEqual(['hostname', 'level', 'method', 'ms', 'msg', 'pid', 'status', 'time', 'url']);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});

describe('requestHandler(app) with auth on', () => {
  let secured: Pair;
  beforeAll(async () => {
    secured = await pair({ auth: { Enabled: true, Keys: ['k-123'], Users: [{ login: 'olga', pwd: 'p@ss' }] } });
  });
  afterAll(() => secured?.close());

  it('answers a good key itself and leaves missing or wrong keys to Koa (401 code 16)', async () => {
    const body = '{"query":"Москва, Тверская 1"}';
    for (const prefix of PREFIXES) {
      for (const authorization of ['k-123', 'Token k-123', 'Bearer k-123']) {
        const ok = await same(secured, { path: prefix + CLEAN, body, headers: { authorization } });
        expect(ok.status).toBe(200);
        expect(ok.viaKoa).toBe(false);
      }
      for (const headers of [{}, { authorization: 'k-999' }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
        const refused = await same(secured, { path: prefix + SUGGEST, body, headers });
        expect(refused.status).toBe(401);
        expect(refused.viaKoa).toBe(true);
      }
      const bad = await same(secured, { path: prefix + SUGGEST, body: '{"query":', headers: { authorization: 'k-123' } });
      expect(bad.status).toBe(400);
    }
  });
});

describe('requestHandler(app) with an invalid license', () => {
  let unlicensed: Pair;
  beforeAll(async () => {
    unlicensed = await pair({ license: { Key: 'abc.def', PublicKey: generateLicenseKeyPair().publicKey } });
  });
  afterAll(() => unlicensed?.close());

  it('leaves data methods to Koa, which answers 403 code 7', async () => {
    for (const path of [`/api/v1${CLEAN}`, `/v1${SUGGEST}`]) {
      const reply = await same(unlicensed, { path, body: '{"query":"Москва, Тверская 1"}' });
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body.toString()).code).toBe(7);
      expect(reply.viaKoa).toBe(true);
    }
  });
});
