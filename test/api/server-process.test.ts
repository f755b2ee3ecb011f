/**
 * The service as a supervisor sees it (host/server.ts, host/restart-policy.ts, host/log-destination.ts): workers
 * that all die are started again and the service keeps answering; what cannot serve exits non-zero with a fatal
 * line (port taken: 3, workers crash-looping: 4); HOST binds the address it names; SIGTERM ends it with 0 even
 * when the reader of its stdout has gone away (`… | head -n 2`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../host/restart-policy.js';
import { DICTIONARIES_DIR } from '../helpers/api.js';
import { configFile, freePort, startService, stopService, type ServiceProcess } from '../helpers/service-process.js';

const BODY = JSON.stringify({ query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' });

let service: ServiceProcess | null = null;
afterEach(() => stopService(service));

const clean = (url: string) => fetch(`${url}/api/v1/clean/address`, { method: 'POST', body: BODY }).then((r) => r.status);

describe('worker restarts', () => {
  it('starts new workers when every worker died at once, listening on HOST only, and exits 0 on SIGTERM', async () => {
    // a fixed port: port 0 would be chosen anew once no worker holds the listening socket
    service = startService({ env: { HOST: '127.0.0.1', PORT: String(await freePort()) }, args: [] });
    await service.until(() => service!.count('listening') >= 2);
    const first = service.events.filter((event) => event.msg === 'listening');
    // HOST names the address: not 0.0.0.0
    for (const { url } of first) expect(new URL(url!).hostname).toBe('127.0.0.1');
    const url = service.url();
    expect(await clean(url)).toBe(200);

    for (const { pid } of first) process.kill(pid, 'SIGKILL');
    await Promise.race([
      service.until(() => service!.count('listening') >= 4),
      service.exited.then((code) => Promise.reject(new Error(`the service exited (${code}) when its workers died`))),
    ]);
    expect(service.count('worker died: starting a new one')).toBe(2);
    expect(await Promise.all(Array.from({ length: 10 }, () => clean(url)))).toEqual(Array(10).fill(200));

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(EXIT.STOPPED);
  }, 300_000);

  it('gives up with exit code 4 when workers die past gateway.RestartLimit', async () => {
    // a dictionary that does not load: every worker dies as it starts
    const dir = mkdtempSync(join(tmpdir(), 'broken-dictionaries-'));
    writeFileSync(join(dir, 'ru.dict'), 'not a dictionary');
    const config = configFile(`gateway:\n  RestartLimit: 2\ndictionaries:\n  Dir: "${dir}"\n`);
    service = startService({ args: ['--config', config, '--port', '0'] });
    expect(await service.exited).toBe(EXIT.CRASH_LOOP);
    expect(service.count('worker died: starting a new one')).toBe(2);
    const fatal = service.events.find((event) => event.level === 60);
    expect(fatal?.msg).toMatch(/^cannot serve: workers died 3 times in a row \(gateway\.RestartLimit 2\): exiting 4$/);
  }, 120_000);
});

describe('what cannot serve', () => {
  let taken: Server | null = null;
  afterEach(() => {
    taken?.close();
  });

  it.each([['2 workers', '2'], ['1 process', '1']])('exits 3 with a fatal line when the port is taken (%s)', async (_, workers) => {
    taken = createServer();
    await new Promise<void>((done) => taken!.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    service = startService({ env: { WORKERS: workers, HOST: '127.0.0.1', PORT: String(port) }, args: [] });
    expect(await service.exited).toBe(EXIT.CANNOT_LISTEN);
    const fatal = service.events.filter((event) => event.level === 60).map((event) => event.msg);
    expect(fatal[0]).toMatch(new RegExp(`^cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
    expect(service.count('listening')).toBe(0);
  }, 120_000);

  it('exits 1 naming gateway.Listen when its port is out of range', async () => {
    service = startService({ args: ['--config', configFile('gateway:\n  Listen: "127.0.0.1:99999"\n')] });
    expect(await service.exited).toBe(EXIT.FAILED);
    expect(service.stderr()).toContain('gateway.Listen: порт 99999 вне диапазона 0–65535.');
  }, 60_000);
});

describe('SIGTERM', () => {
  let server: ChildProcess | null = null;
  afterEach(() => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  });

  it('exits 0 with two workers whose stdout goes to a reader that exits early (| head -n 2)', async () => {
    // a short ShutdownTimeout: a drain that hangs would end in the forced exit (5) within 5.5 s, not in 0
    const dir = mkdtempSync(join(tmpdir(), 'dictionaries-'));
    copyFileSync(join(DICTIONARIES_DIR, 'by.dict'), join(dir, 'by.dict'));
    const config = configFile(`gateway:\n  ShutdownTimeout: 500\ndictionaries:\n  Dir: "${dir}"\n`);
    const port = await freePort();
    // `… | head -n 2` as a shell writes it (a pipe, not the socket node gives a child), with the service's primary as
    // the process spawned: bash execs it with its stdout going to head, which exits after two lines
    server = spawn('bash', ['-c', `exec "$0" --import tsx host/server.ts --config "$1" > >(head -n 2 > /dev/null)`, process.execPath, config], {
      env: { ...process.env, WORKERS: '2', HOST: '127.0.0.1', PORT: String(port), ADDRESS_SERVICE_CONFIG: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    server.stderr!.on('data', (chunk) => (stderr += chunk.toString()));
    const exited = new Promise<number | string>((done) => server!.on('exit', (code, signal) => done(code ?? signal ?? -1)));
    // each request on a connection of its own, closed after it: at SIGTERM no connection is left for the workers to
    // drain, they exit at once, and the primary's last lines meet the closed pipe in its exit, not in a timed write
    const call = (path: string, body?: string) =>
      new Promise<number>((done) => {
        const req = request({ host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', agent: false }, (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        });
        req.on('error', () => done(0));
        req.end(body);
      });
    const health = () => call('/api/v1/health');
    for (let tries = 0; (await health()) !== 200; tries++) {
      if (tries > 600 || server.exitCode !== null) throw new Error(`the service did not answer: ${stderr.slice(-2000)}`);
      await new Promise((done) => setTimeout(done, 200));
    }
    // both workers up: the primary starts them together, and health answered from one
    await new Promise((done) => setTimeout(done, 2_000));
    const body = JSON.stringify({ query: 'Минск', countryCode: 'BY' });
    const statuses = await Promise.all(Array.from({ length: 40 }, () => call('/api/v1/suggest/address', body)));
    expect(statuses).toEqual(Array(40).fill(200));
    // the batched lines reach the pipe (LOG_FLUSH_MS) and fail; the service still answers
    await new Promise((done) => setTimeout(done, 1_000));
    expect(await health()).toBe(200);
    expect(stderr).toContain('log output on fd 1 failed (EPIPE): logging stops, the service goes on');

    server.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((done) => setTimeout(() => done('still running 30 s after SIGTERM'), 30_000))]);
    expect(code).toBe(EXIT.STOPPED);
  }, 180_000);
});
