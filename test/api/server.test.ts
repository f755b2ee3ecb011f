/**
 * The listening server: gateway timeouts, graceful shutdown, dictionary reload without dropping a
 * request, and node:cluster (a dead worker replaced, SIGHUP reaching every worker, SIGTERM draining, every
 * worker's thread under SCHED_BATCH on Linux).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromObject } from '../../host/config.js';
import { createHttpServer, loadEngineFactory, responsesInFlight, startServer } from '../../host/server.js';
import { DICTIONARIES_DIR } from '../helpers/api.js';

const silent = pino({ level: 'silent' });
const BODY = JSON.stringify({ query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' });

function rawExchange(port: number, request: string, waitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('close', () => resolve(data));
    socket.on('error', () => resolve(data));
    socket.write(request);
    setTimeout(() => {
      socket.destroy();
      resolve(data);
    }, waitMs);
  });
}

describe('gateway timeouts', () => {
  it('answers 408 to a request body that does not arrive within ReadTimeout', async () => {
    const config = configFromObject({ gateway: { ReadTimeout: 300, WriteTimeout: 5000 } });
    const running = await startServer({ config, logger: silent, createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
    const port = Number(new URL(running.url).port);
    const started = Date.now();
    const reply = await rawExchange(port, 'POST /api/v1/clean/address HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":', 5000);
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ code: 4, message: 'запрос не получен за ReadTimeout.', details: [] });
    expect(Date.now() - started).toBeLessThan(3000);
    await running.close();
  });

  it('answers what node cannot parse (raw UTF-8 in the path, headers too large) in the error envelope', async () => {
    const running = await startServer({ config: configFromObject({}), logger: silent, createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
    const port = Number(new URL(running.url).port);
    const body = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
    const raw = await rawExchange(port, 'GET /legacy/checkAddress?addr=Малышева HTTP/1.1\r\nHost: x\r\n\r\n', 2000);
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/json/);
    expect(body(raw)).toMatchObject({ code: 3, details: [] });
    expect(body(raw).message).toMatch(/^запрос не разобран \(HPE_/);
    const large = await rawExchange(port, `GET /v1/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 2000);
    expect(large).toMatch(/^HTTP\/1\.1 431/);
    expect(body(large)).toEqual({ code: 3, message: 'заголовки запроса слишком велики.', details: [] });
    // and the server still answers
    expect((await fetch(`${running.url}/v1/version`)).status).toBe(200);
    await running.close();
  });

  it('answers 504 code 4 when the response is not written within WriteTimeout', async () => {
    const config = configFromObject({ gateway: { WriteTimeout: 200 } });
    const server = createHttpServer(config, () => undefined);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/version`);
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ code: 4, message: 'ответ не готов за WriteTimeout 200 мс', details: [] });
    server.closeAllConnections();
    server.close();
  });

  it('times out only the responses left unwritten among many in flight, and forgets each once closed', async () => {
    const config = configFromObject({ gateway: { WriteTimeout: 300 } });
    // even paths answer at once, odd ones at different later times, every third never
    const server = createHttpServer(config, (req, res) => {
      const n = Number(req.url?.slice(1));
      if (n % 2 === 0) res.end(`ok ${n}`);
      else if (n % 3 !== 0) setTimeout(() => res.end(`late ${n}`), 10 * n);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const replies = await Promise.all(Array.from({ length: 24 }, async (_, n) => {
      const response = await fetch(`http://127.0.0.1:${port}/${n}`);
      return [response.status, await response.text()] as const;
    }));
    replies.forEach(([status, text], n) => {
      if (n % 2 === 0) expect([status, text], String(n)).toEqual([200, `ok ${n}`]);
      else if (n % 3 !== 0 && 10 * n < 300) expect([status, text], String(n)).toEqual([200, `late ${n}`]);
      else if (n % 3 === 0) expect(status, String(n)).toBe(504);
    });
    await new Promise((done) => setTimeout(done, 100));
    expect([...responsesInFlight(server)]).toHaveLength(0);
    server.closeAllConnections();
    server.close();
  });
});

describe('graceful shutdown and reload', () => {
  it('finishes a request in flight after close() and refuses new connections', async () => {
    const config = configFromObject({ gateway: { ShutdownTimeout: 5000 } });
    const running = await startServer({ config, logger: silent, createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
    const port = Number(new URL(running.url).port);
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString()));
    const ended = new Promise<void>((done) => socket.on('close', () => done()));
    const bytes = Buffer.from(BODY);
    socket.write(`POST /api/v1/clean/address HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`);
    socket.write(bytes.subarray(0, 10));
    await new Promise((r) => setTimeout(r, 100));
    const closed = running.close();
    await new Promise((r) => setTimeout(r, 100));
    socket.write(bytes.subarray(10));
    await closed;
    await ended;
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply).toContain('4abf7720-fa42-482c-a2ec-cd564d9abc96');
    await expect(fetch(`${running.url.replace('0.0.0.0', '127.0.0.1')}/v1/version`)).rejects.toThrow();
  });

  it('swaps the engine on reload() while requests keep being answered', async () => {
    const config = configFromObject({});
    const running = await startServer({ config, logger: silent, createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
    const before = running.app.services.engine;
    const url = `${running.url}/api/v1/clean/address`;
    const requests = Array.from({ length: 200 }, () => fetch(url, { method: 'POST', body: BODY }).then((r) => r.status));
    const reload = running.reload();
    const statuses = await Promise.all([...requests, ...Array.from({ length: 100 }, () => fetch(url, { method: 'POST', body: BODY }).then((r) => r.status))]);
    await reload;
    expect(statuses.every((status) => status === 200)).toBe(true);
    // identity only: a deep comparison of two engines would walk their wasm memories
    expect(running.app.services.engine === before).toBe(false);
    expect((await fetch(url, { method: 'POST', body: BODY })).status).toBe(200);
    await running.close();
  });
});

/** The scheduling policy of every thread of a process (/proc/<pid>/task/<tid>/stat's 41st field; 3 is SCHED_BATCH). */
function threadPolicies(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // the fields after the command name, which is in parentheses and may hold spaces: the 3rd field is the first
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
  });
}

describe('node:cluster', () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('replaces a dead worker, reloads every worker on SIGHUP and exits 0 on SIGTERM', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts', '--port', '0'], {
      env: { ...process.env, WORKERS: '2', ADDRESS_SERVICE_CONFIG: '', PORT: '', HOST: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const events: { msg: string; pid: number; url?: string }[] = [];
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk.toString()));
    const waiters: { test: () => boolean; done: () => void }[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        events.push(JSON.parse(line));
      } catch {
        return;
      }
      for (const waiter of [...waiters]) if (waiter.test()) { waiters.splice(waiters.indexOf(waiter), 1); waiter.done(); }
    });
    // generous: two workers load every dictionary, maybe beside other test files on few cores
    const until = (test: () => boolean, ms = 120_000) => new Promise<void>((done, fail) => {
      if (test()) return done();
      const timer = setTimeout(() => fail(new Error(`timeout; events: ${JSON.stringify(events.map((e) => e.msg))}; stderr: ${stderr.slice(-2000)}`)), ms);
      waiters.push({ test, done: () => { clearTimeout(timer); done(); } });
    });
    const count = (msg: string) => events.filter((event) => event.msg === msg).length;

    await until(() => count('listening') >= 2);
    const listening = events.filter((event) => event.msg === 'listening');
    const port = new URL(listening[0].url!).port;
    expect(new URL(listening[1].url!).port).toBe(port);
    const url = `http://127.0.0.1:${port}/api/v1/clean/address`;
    const call = () => fetch(url, { method: 'POST', body: BODY }).then((r) => r.status);
    expect(await Promise.all(Array.from({ length: 20 }, call))).toEqual(Array(20).fill(200));
    const SCHED_BATCH = 3;
    if (process.platform === 'linux') {
      expect(count('scheduling policy set')).toBe(1);
      for (const { pid } of listening) expect(new Set(threadPolicies(pid))).toEqual(new Set([SCHED_BATCH]));
    }

    process.kill(listening[0].pid, 'SIGKILL');
    await until(() => count('worker died: starting a new one') === 1 && count('listening') >= 3);
    expect(await Promise.all(Array.from({ length: 20 }, call))).toEqual(Array(20).fill(200));
    // the worker started in place of the dead one inherits the policy too
    if (process.platform === 'linux') expect(new Set(threadPolicies(events.filter((e) => e.msg === 'listening')[2].pid))).toEqual(new Set([SCHED_BATCH]));

    child.kill('SIGHUP');
    await until(() => count('dictionaries reloaded') >= 2);
    expect(await call()).toBe(200);

    const exited = new Promise<number | null>((done) => child!.on('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(count('worker died: starting a new one')).toBe(1);
  }, 400_000);
});
