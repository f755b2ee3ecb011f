/**
 * Slow clients (`npx tsx bench/slow-clients.ts`): the real service (one worker, ReadTimeout = WriteTimeout =
 * SLOW_TIMEOUT_MS, 1000) on 127.0.0.1 against SLOW_CLIENTS (500) connections that each start a POST, send part of
 * its body and then either hang up (half of them) or stall until the server gives up on them, on the fast path
 * (POST clean/address) and the Koa chain (the same with a query string). Prints what the service answered and
 * logged: the log lines by level and status, and how many carried a stack. The bar: hang-ups logged as 499 at
 * info, stalls answered and logged 408, no line at error level, no stack.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './fixtures.js';
import { freePort, HOST, sleep } from './net.js';

const CLIENTS = Number(process.env.SLOW_CLIENTS || 500);
const TIMEOUT_MS = Number(process.env.SLOW_TIMEOUT_MS || 1000);
const PATHS = ['/api/v1/clean/address', '/api/v1/clean/address?via=koa'];

interface Line {
  level: number;
  msg: string;
  status?: number;
  err?: { stack?: string };
}

/** One client: headers and part of the body, then a hang-up 50 ms later, or nothing more; the status it got (0: none). */
function slowClient(port: number, path: string, hangUp: boolean): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    let data = '';
    const finish = () => {
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0));
    };
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('close', finish);
    socket.on('error', finish);
    // the clock starts once the bytes are out: a hang-up before the connection is up would send no request at all
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"query":"г Байконур, `, () => {
      setTimeout(finish, hangUp ? 50 : TIMEOUT_MS * 5);
    });
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slow-clients-'));
  const configPath = join(dir, 'config.yaml');
  const port = await freePort();
  writeFileSync(configPath, `gateway:\n  Listen: "${HOST}:${port}"\n  Workers: 1\n  ReadTimeout: ${TIMEOUT_MS}\n  WriteTimeout: ${TIMEOUT_MS}\n`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts', '--config', configPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORT: '', WORKERS: '' } });
  const lines: Line[] = [];
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((done) => (listening = done));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    try {
      const line = JSON.parse(text) as Line;
      lines.push(line);
      if (line.msg === 'listening') listening();
    } catch {
      // not a log line
    }
  });
  const watchdog = setTimeout(() => {
    child.kill('SIGKILL');
    throw new Error('slow-clients: no answer within 120 s');
  }, 120_000);
  await ready;
  const start = lines.length;
  const statuses = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => slowClient(port, PATHS[i % 2], i % 4 < 2)));
  await sleep(500);
  child.kill('SIGTERM');
  await new Promise((done) => child.on('exit', done));
  clearTimeout(watchdog);
  const count = <T>(items: T[]) => [...items.reduce((map, item) => map.set(String(item), (map.get(String(item)) ?? 0) + 1), new Map<string, number>())].sort();
  const logged = lines.slice(start).filter((line) => line.msg !== 'shutting down: draining requests in flight' && line.msg !== 'stopped');
  console.log(`${CLIENTS} slow clients, ReadTimeout = WriteTimeout = ${TIMEOUT_MS} ms, paths ${PATHS.join(', ')}`);
  console.log('answers the clients read (0: none, they hung up first):', Object.fromEntries(count(statuses)));
  console.log('log lines by level/status:', Object.fromEntries(count(logged.map((line) => `${line.level}/${line.status ?? line.msg}`))));
  console.log('lines with a stack:', logged.filter((line) => line.err?.stack).length);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
