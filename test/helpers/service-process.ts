/**
 * The real service as a child process (`host/server.ts`, its primary and workers), for the tests of what only a
 * process shows: exit codes, signals, worker restarts, the log on stdout. Its JSON log lines are collected as
 * they come; `until` waits for a condition on them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

export interface LogEvent {
  msg: string;
  pid: number;
  level: number;
  url?: string;
  [key: string]: unknown;
}

export interface ServiceProcess {
  child: ChildProcess;
  events: LogEvent[];
  stderr(): string;
  count(msg: string): number;
  /** resolves once `test()` holds over the log lines (checked on each line), fails after `ms` */
  until(test: () => boolean, ms?: number): Promise<void>;
  /** the exit code (or the signal's name) */
  exited: Promise<number | string>;
  /** the first worker's `listening` URL, with 127.0.0.1 for an address listening on every interface */
  url(): string;
}

/** A TCP port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A YAML config in a fresh temporary directory. */
export function configFile(yaml: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'address-service-')), 'config.yaml');
  writeFileSync(path, yaml);
  return path;
}

export function startService(options: { env?: Record<string, string>; args?: string[] } = {}): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts', ...(options.args ?? ['--port', '0'])], {
    env: { ...process.env, ADDRESS_SERVICE_CONFIG: '', PORT: '', HOST: '', WORKERS: '2', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: LogEvent[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk.toString()));
  const waiters: { test: () => boolean; done: () => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.test()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done();
      }
    }
  };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line));
    } catch {
      return;
    }
    check();
  });
  const exited = new Promise<number | string>((done) => child.on('exit', (code, signal) => done(code ?? signal ?? -1)));
  void exited.then(check);
  return {
    child,
    events,
    exited,
    stderr: () => stderr,
    count: (msg) => events.filter((event) => event.msg === msg).length,
    // generous: workers load every dictionary, maybe beside other test files on few cores
    until: (test, ms = 120_000) =>
      new Promise<void>((done, fail) => {
        if (test()) return done();
        const timer = setTimeout(() => fail(new Error(`timeout; events: ${JSON.stringify(events.map((e) => e.msg))}; stderr: ${stderr.slice(-2000)}`)), ms);
        waiters.push({ test, done: () => { clearTimeout(timer); done(); } });
      }),
    url() {
      const listening = events.find((event) => event.msg === 'listening');
      if (!listening?.url) throw new Error('not listening yet');
      return listening.url.replace('0.0.0.0', '127.0.0.1');
    },
  };
}

/** Kills what is left of a service a test started (its workers follow the primary). */
export function stopService(service: ServiceProcess | null): void {
  if (service && service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
}
