/**
 * The listening gateway (`startServer`) at the edges of HTTP: bodies that come late or never, clients that hang up
 * in the middle of an upload, requests without `Host`, and what node's parser refuses. Every answer is the error
 * envelope; the access log tells the client's doing (499, 408, 400) from the service's (5xx).
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromObject } from '../../host/config.js';
import { loadEngineFactory, startServer, type RunningServer } from '../../host/server.js';

const BODY = JSON.stringify({ query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' });
/** PUT /license reads its body only after the operator key is checked */
const OPERATOR_KEY = 'operator-key-0123456789';

interface LogLine {
  level: number;
  msg: string;
  status?: number;
  code?: number;
  url?: string;
  err?: unknown;
}

/** A gateway on 127.0.0.1 whose log lines are kept, parsed. */
async function gateway(settings: Record<string, unknown> = {}): Promise<{ running: RunningServer; port: number; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const running = await startServer({ config: configFromObject({ ...settings, auth: { OperatorKey: OPERATOR_KEY } }), logger, createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
  return { running, port: Number(new URL(running.url).port), lines };
}

/**
 * Writes `parts` on one connection, `pauseMs` apart, and resolves with all it read once the server closes the
 * connection, or after `waitMs` (then closing it, as a client that gives up; `hangUpMs` closes it earlier).
 */
function exchange(port: number, parts: string[], options: { pauseMs?: number; waitMs: number; hangUpMs?: number }): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const finish = () => {
      socket.destroy();
      resolve(data);
    };
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('close', finish);
    socket.on('error', finish);
    parts.forEach((part, index) => setTimeout(() => socket.writable && socket.write(part), index * (options.pauseMs ?? 0)));
    if (options.hangUpMs !== undefined) setTimeout(finish, options.hangUpMs);
    setTimeout(finish, options.waitMs);
  });
}

const statusOf = (reply: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(reply)?.[1] ?? 0);
const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { code: number; message: string; details: unknown[] };
const postHead = (path: string, length: number, method = 'POST') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
const settle = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('a request body that comes late', () => {
  it('answers 408 code 4, not 504, to a body that does not arrive when ReadTimeout equals WriteTimeout', async () => {
    const { running, port, lines } = await gateway({ gateway: { ReadTimeout: 300, WriteTimeout: 300 } });
    // the fast path (POST clean) and the Koa chain (PUT license) read bodies each their way
    for (const [path, method] of [['/api/v1/clean/address', 'POST'], ['/api/v1/license', 'PUT']]) {
      const reply = await exchange(port, [`${postHead(path, 100, method)}{"query":`], { waitMs: 5000 });
      expect(statusOf(reply), path).toBe(408);
      expect(bodyOf(reply)).toEqual({ code: 4, message: 'запрос не получен за ReadTimeout.', details: [] });
    }
    await settle(100);
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.url, line.status, line.code])).toEqual([['/api/v1/clean/address', 408, 4], ['/api/v1/license', 408, 4]]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    await running.close();
  });

  it('answers 408, not 504, when WriteTimeout is shorter and the body never comes', async () => {
    const { running, port } = await gateway({ gateway: { ReadTimeout: 900, WriteTimeout: 200 } });
    const reply = await exchange(port, [`${postHead('/api/v1/clean/address', 100)}{"query":`], { waitMs: 5000 });
    expect(statusOf(reply)).toBe(408);
    expect(bodyOf(reply).code).toBe(4);
    await running.close();
  });

  it('answers a body that comes after WriteTimeout but within ReadTimeout: WriteTimeout counts from its end', async () => {
    const { running, port } = await gateway({ gateway: { ReadTimeout: 4000, WriteTimeout: 200 } });
    const bytes = Buffer.from(BODY);
    const head = postHead('/api/v1/clean/address', bytes.length).replace('Host: x\r\n', 'Host: x\r\nConnection: close\r\n');
    const reply = await exchange(port, [head + BODY.slice(0, 10), BODY.slice(10)], { pauseMs: 700, waitMs: 5000 });
    expect(statusOf(reply)).toBe(200);
    expect(reply).toContain('4abf7720-fa42-482c-a2ec-cd564d9abc96');
    await running.close();
  });
});

describe('a client that hangs up in the middle of its upload', () => {
  it('is logged as the client closing the request (499 code 1, info, no stack), not as a 500, on both paths', async () => {
    const { running, port, lines } = await gateway();
    const paths = [
      ['/api/v1/clean/address', 'POST'], // the fast path
      ['/api/v1/clean/address?x=1', 'POST'], // a query string: the Koa chain
      ['/api/v1/license', 'PUT'], // the Koa chain
    ];
    for (let i = 0; i < 5; i++) {
      await Promise.all(paths.map(([path, method]) => exchange(port, [`${postHead(path, 200, method)}{"query":"г Байк`], { waitMs: 2000, hangUpMs: 50 })));
    }
    await settle(200);
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(15);
    for (const line of requests) {
      expect([line.status, line.code, line.level], JSON.stringify(line)).toEqual([499, 1, 30]);
      expect(line.err).toBeUndefined();
    }
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    // and the server answers the next client
    expect((await fetch(`${running.url}/api/v1/clean/address`, { method: 'POST', body: BODY })).status).toBe(200);
    await running.close();
  });
});

describe('requests node does not hand to a handler as they are', () => {
  let server: Awaited<ReturnType<typeof gateway>>;
  beforeAll(async () => {
    server = await gateway();
  });
  afterAll(() => server?.running.close());

  it('answers an HTTP/1.1 request without Host 400 code 3 in the envelope, and logs it; HTTP/1.0 needs none', async () => {
    server.lines.length = 0;
    const reply = await exchange(server.port, ['GET /v1/version HTTP/1.1\r\n\r\n'], { waitMs: 3000 });
    expect(statusOf(reply)).toBe(400);
    expect(reply).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(bodyOf(reply)).toEqual({ code: 3, message: 'заголовок Host обязателен в запросе HTTP/1.1.', details: [] });
    const post = await exchange(server.port, [`POST /api/v1/clean/address HTTP/1.1\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`], { waitMs: 3000 });
    expect(statusOf(post)).toBe(400);
    const old = await exchange(server.port, ['GET /v1/version HTTP/1.0\r\n\r\n'], { waitMs: 3000 });
    expect(statusOf(old)).toBe(200);
    await settle(50);
    const requests = server.lines.filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.url, line.status, line.code ?? 0])).toEqual([['/v1/version', 400, 3], ['/api/v1/clean/address', 400, 3], ['/v1/version', 200, 0]]);
  });

  it('answers malformed requests 400 code 3 in the envelope, naming the parser error, logs each once, and keeps serving', async () => {
    server.lines.length = 0;
    const malformed = [
      'GET /v1/version HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      'G@T /v1/version HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /v1/version HTTP/7.1\r\nHost: x\r\n\r\n',
      'GET /v1/version HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n',
      'GET /v1/version HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
      'POST /api/v1/clean/address HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /api/v1/clean/address HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}',
    ];
    for (const request of malformed) {
      const reply = await exchange(server.port, [request], { waitMs: 3000 });
      expect(statusOf(reply), request).toBe(400);
      const body = bodyOf(reply);
      expect(body.code).toBe(3);
      expect(body.message).toMatch(/^запрос не разобран \(HPE_[A-Z_]+\): .+\.$/);
    }
    await settle(50);
    const requests = server.lines.filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.status, line.code])).toEqual(malformed.map(() => [400, 3]));
    expect((await fetch(`${server.running.url}/v1/version`)).status).toBe(200);
    expect(server.lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
