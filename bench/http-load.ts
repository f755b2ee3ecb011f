/**
 * HTTP load test (`npx tsx bench/http-load.ts`): starts the real service (`host/server.ts`, WORKERS worker
 * processes, default one per core) as a child process on 127.0.0.1, and beside it the floor
 * (bench/http-floor.ts: bare node:http, same worker count, connection balance and scheduling policy, answering the very bytes
 * the service answered for each request). autocannon drives POST /api/v1/suggest/address and
 * /api/v1/clean/address with CONNECTIONS (32) connections for DURATION (10) seconds against each of the
 * service and the floor, after WARMUP (3) seconds of the same load that are not counted (JIT, the wasm
 * tier-up and the first heap growth are start-up costs, not throughput). The DURATION is cut into SLICES (5)
 * turns that alternate service and floor, so load from outside the bench falls on both alike and the ratio
 * compares like with like; req/s is over all turns, p50/p99 the median of the turns'. It prints requests/s,
 * latency p50/p99, the machine's idle CPU during each target's turns (/proc/stat: a server bound by its round trip
 * leaves the cores idle, one bound by CPU does not) and the ratio to the floor, and writes bench/http-load.json.
 *
 * Loopback only, bounded: a watchdog stops everything after 4 × (WARMUP + DURATION) + 120 s. The service logs at LOG_LEVEL (default info, as shipped: one line per request,
 * written to a temporary file). autocannon runs in this process, on the same cores as the servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AutocannonResult } from 'autocannon';
import { loadConfig } from '../host/config.js';
import { ROOT } from './fixtures.js';
import { armWatchdog, freePort, HOST, loadTargets, postLoad, sleep, startedChild, stopChildren, turnsSummary, type LoadTarget } from './net.js';

const WORKERS = Number(process.env.WORKERS || availableParallelism());
const CONNECTIONS = Number(process.env.CONNECTIONS || 32);
const DURATION = Number(process.env.DURATION || 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const SLICES = Math.max(1, Number(process.env.SLICES || 5));
const LOG_LEVEL = process.env.LOG_LEVEL || 'info';
const BODIES = 50;


async function waitFor(what: string, child: ChildProcess, ready: () => Promise<boolean>, seconds: number, logFile?: string): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = logFile ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it was ready${tail ? `; its last log lines:\n${tail}` : ''}`);
    }
    if (await ready().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${what} not ready after ${seconds} s`);
}

async function get(url: string): Promise<boolean> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.ok;
}

interface Outcome {
  endpoint: string;
  target: 'service' | 'floor';
  rps: number;
  p50_ms: number;
  p99_ms: number;
  mb_per_s: number;
  completed: number;
  non2xx: number;
  errors: number;
  /** the machine's idle CPU over this target's turns, in % of all its cores (null where /proc/stat is not) */
  idle_pct: number | null;
}

/** The machine's idle and total CPU time so far (/proc/stat's first line, in ticks), or null off Linux. */
function cpuTimes(): { idle: number; total: number } | null {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: ticks[3] + ticks[4], total: ticks.reduce((sum, t) => sum + t, 0) };
  } catch {
    return null;
  }
}

const load = (url: string, target: LoadTarget, duration: number): Promise<AutocannonResult> => postLoad(url, target, CONNECTIONS, duration);

async function main(): Promise<void> {
  armWatchdog('http-load', 4 * (WARMUP + DURATION) + 120);

  const work = mkdtempSync(join(tmpdir(), 'address-http-load-'));
  const servicePort = await freePort();
  const floorPort = await freePort();
  const configFile = join(work, 'config.yaml');
  writeFileSync(
    configFile,
    [
      'gateway:',
      `  Listen: "${HOST}:${servicePort}"`,
      `  Workers: ${WORKERS}`,
      'dictionaries:',
      `  Dir: "${join(ROOT, 'build', 'dictionaries')}"`,
      'log:',
      `  Level: ${LOG_LEVEL}`,
      '',
    ].join('\n'),
  );
  const serviceConfig = loadConfig({ path: configFile, argv: [], env: {} });
  const logFile = join(work, 'service.log');
  const logFd = openSync(logFile, 'w');
  const service = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts', '--config', configFile], {
    cwd: ROOT,
    env: { ...process.env, WORKERS: String(WORKERS), HOST, PORT: String(servicePort) },
    stdio: ['ignore', logFd, logFd],
  });
  startedChild(service);
  closeSync(logFd);
  const serviceUrl = `http://${HOST}:${servicePort}`;
  const t0 = performance.now();
  const listening = () => (readFileSync(logFile, 'utf8').match(/"msg":"listening"/g) ?? []).length;
  await waitFor('service', service, async () => (await get(`${serviceUrl}/api/v1/health`)) && (LOG_LEVEL !== 'info' || listening() >= WORKERS), 120, logFile);
  if (LOG_LEVEL !== 'info') await sleep(2000); // no log lines to count: give the other workers time
  console.log(`service up in ${((performance.now() - t0) / 1000).toFixed(1)} s (${WORKERS} workers, log level ${LOG_LEVEL})`);

  const targets = loadTargets(BODIES);
  // record the service's reply to every body: the floor answers the same bytes
  const recorded: { key: string; status: number; type: string; body: string }[] = [];
  for (const target of targets) {
    for (const body of target.bodies) {
      const response = await fetch(serviceUrl + target.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const bytes = Buffer.from(await response.arrayBuffer());
      if (!response.ok) throw new Error(`service answered ${response.status} to ${target.path} ${body}: ${bytes.toString().slice(0, 200)}`);
      recorded.push({ key: `${target.path}\n${body}`, status: response.status, type: response.headers.get('content-type') ?? '', body: bytes.toString('base64') });
    }
  }
  const repliesFile = join(work, 'replies.json');
  writeFileSync(repliesFile, JSON.stringify(recorded));
  const floorCommand = [process.execPath, '--import', 'tsx', 'bench/http-floor.ts'];
  // the floor runs under the service's scheduling policy too (gateway.Scheduling; `chrt`, as host/scheduling.ts
  // sets it), so that the ratio measures the answer, not the policy
  const scheduling = serviceConfig.gateway.Scheduling;
  if (scheduling === 'batch' && process.platform === 'linux') floorCommand.unshift('chrt', '--batch', '0');
  const floor = spawn(floorCommand[0], floorCommand.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env, REPLIES_FILE: repliesFile, HOST, PORT: String(floorPort), WORKERS: String(WORKERS),
      // the floor hands connections to its workers as the service does (gateway.Balance of its configuration)
      BALANCE: serviceConfig.gateway.Balance,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  startedChild(floor);
  const floorUrl = `http://${HOST}:${floorPort}`;
  await waitFor('floor', floor, () => get(`${floorUrl}/ready`), 60);
  await sleep(1000);

  const outcomes: Outcome[] = [];
  const load0 = loadavg()[0];
  for (const target of targets) {
    const runs: Record<'service' | 'floor', AutocannonResult[]> = { service: [], floor: [] };
    // where the two cores' time goes during each target's turns: a service bound by its round trip leaves them idle
    const idle = { service: { idle: 0, total: 0 }, floor: { idle: 0, total: 0 } };
    const urls = { service: serviceUrl, floor: floorUrl };
    process.stderr.write(`${target.name}: ${CONNECTIONS} connections, ${WARMUP} s warm-up each, then ${SLICES} × ${DURATION / SLICES} s per target, alternating … `);
    if (WARMUP > 0) for (const kind of ['service', 'floor'] as const) await load(urls[kind], target, WARMUP);
    for (let slice = 0; slice < SLICES; slice++) {
      for (const kind of slice % 2 === 0 ? (['service', 'floor'] as const) : (['floor', 'service'] as const)) {
        const before = cpuTimes();
        runs[kind].push(await load(urls[kind], target, DURATION / SLICES));
        const after = cpuTimes();
        if (before && after) {
          idle[kind].idle += after.idle - before.idle;
          idle[kind].total += after.total - before.total;
        }
      }
    }
    for (const kind of ['service', 'floor'] as const) {
      outcomes.push({
        endpoint: target.name,
        target: kind,
        ...turnsSummary(runs[kind]),
        idle_pct: idle[kind].total > 0 ? (100 * idle[kind].idle) / idle[kind].total : null,
      });
    }
    const [service, floorOutcome] = outcomes.slice(-2);
    process.stderr.write(`service ${service.rps.toFixed(0)} req/s, floor ${floorOutcome.rps.toFixed(0)} req/s\n`);
  }
  stopChildren();

  const header = ['endpoint', 'target', 'req/s', 'p50 ms', 'p99 ms', 'MB/s', 'non-2xx', 'errors', 'idle %', 'vs floor'];
  const rows = outcomes.map((o) => {
    const floorRun = outcomes.find((f) => f.endpoint === o.endpoint && f.target === 'floor')!;
    return [
      o.endpoint, o.target, o.rps.toFixed(0), o.p50_ms.toFixed(1), o.p99_ms.toFixed(1), o.mb_per_s.toFixed(1), String(o.non2xx), String(o.errors),
      o.idle_pct === null ? '—' : o.idle_pct.toFixed(1),
      o.target === 'floor' ? '—' : `×${(o.rps / floorRun.rps).toFixed(3)}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`\n${cpus()[0]?.model ?? ''}, ${availableParallelism()} cores; service and floor: ${WORKERS} workers each, scheduling ${scheduling}; autocannon in this process; ` +
    `${CONNECTIONS} connections, ${DURATION} s per target in ${SLICES} alternating turns after ${WARMUP} s of warm-up; load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}\n`);
  console.log([line(header), `|${widths.map((w, i) => (i < 2 ? ':' : '-') + '-'.repeat(w) + (i < 2 ? '-' : ':')).join('|')}|`, ...rows.map(line)].join('\n'));
  writeFileSync(
    join(ROOT, 'bench', 'http-load.json'),
    `${JSON.stringify({ date: new Date().toISOString(), workers: WORKERS, connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP, slices: SLICES, log_level: LOG_LEVEL, scheduling, cores: availableParallelism(), outcomes }, null, 2)}\n`,
  );
  console.log('\nwrote bench/http-load.json');
  rmSync(work, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(`http-load failed: ${err instanceof Error ? err.message : err}`);
  stopChildren();
  process.exit(1);
});
