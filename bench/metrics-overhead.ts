/**
 * What the metrics cost (`npx tsx bench/metrics-overhead.ts`), two ways.
 *
 * Side by side: four copies of the real service (`host/server.ts`, WORKERS workers each, default 1) on 127.0.0.1,
 * two with `metrics.Enabled` true (as shipped) and two with it false, driven in the same run by autocannon with
 * POST /api/v1/suggest/address (the fast path's cheapest request, so the one where counting weighs most; TARGETS=
 * suggest,clean adds /clean/address): CONNECTIONS (16) connections, WARMUP (1) s per copy not counted, then DURATION
 * (4) s per copy cut into SLICES (12) turns, each turn's order rotated, so that load from outside the bench falls on
 * all alike. Two copies of one state measure the same thing: how far apart they land is the run's noise, the
 * floor under which on ÷ off says nothing; on ÷ off is over both copies of each. Besides req/s and p50/p99 it prints the CPU time the copy's
 * processes spent per request (the median of its turns'), which swings less than req/s on a machine shared with
 * other work.
 *
 * In process: the counting alone, what the fast path adds per request with metrics on (one clock read and
 * `RouteStats.observe`), timed over a few million calls, beside the CPU time a request costs.
 *
 * About 20 s of load; loopback only, bounded by a watchdog. The copies log at LOG_LEVEL (info), to files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AutocannonResult } from 'autocannon';
import { ServiceMetrics } from '../host/metrics.js';
import { ROOT } from './fixtures.js';
import { armWatchdog, freePort, HOST, loadTargets, postLoad, sleep, startedChild, stopChildren, turnsSummary, type LoadTarget } from './net.js';

const WORKERS = Number(process.env.WORKERS || 1);
const CONNECTIONS = Number(process.env.CONNECTIONS || 16);
const DURATION = Number(process.env.DURATION || 4);
const WARMUP = Number(process.env.WARMUP ?? 1);
const SLICES = Math.max(1, Number(process.env.SLICES || 12));
const TARGETS = (process.env.TARGETS || 'suggest').split(',');
const LOG_LEVEL = process.env.LOG_LEVEL || 'info';
const BODIES = 50;


/**
 * CPU time in ns of a process (every thread: /proc/<pid>/task/<tid>/schedstat, whose first field is the time on a
 * core; `stat`'s ticks of 10 ms are too coarse for a turn) and of its children (a cluster's workers) so far.
 */
function cpuNs(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return ns + children.reduce((sum, child) => sum + cpuNs(child), 0);
  } catch {
    return 0;
  }
}

/** One copy of the service, metrics on or off, logging to a file in `work`: its URL and its process. */
async function startCopy(work: string, name: string, metrics: boolean): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const logFile = join(work, `service-${name}.log`);
  const logFd = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, WORKERS: String(WORKERS), HOST, PORT: String(port), METRICS_ENABLED: String(metrics), ADDRESS_SERVICE_CONFIG: '' },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  startedChild(child);
  const url = `http://${HOST}:${port}`;
  const listening = () => (readFileSync(logFile, 'utf8').match(/"msg":"listening"/g) ?? []).length;
  const deadline = Date.now() + 120_000;
  while (listening() < WORKERS) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`service ${name} did not start: ${readFileSync(logFile, 'utf8').slice(-1000)}`);
    await sleep(200);
  }
  return { url, pid: child.pid! };
}

const load = (url: string, target: LoadTarget, duration: number): Promise<AutocannonResult> => postLoad(url, target, CONNECTIONS, duration);

/**
 * Started in this order (FIRST=on: on, off, off again, on again). Where a copy stands in the order weighs on what
 * it measures (runs with every copy off saw the first started slower by up to 13 %): run both orders and take
 * the mean of the two ratios.
 */
const COPIES =
  process.env.FIRST === 'on' ? (['on', 'off', 'off again', 'on again'] as const) : (['off', 'on', 'on again', 'off again'] as const);
const METRICS_ON = new Set<string>(['on', 'on again']);
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
type Copy = 'on' | 'off' | 'on again' | 'off again';

/** ns per request the fast path adds with metrics on: a clock read and `observe`, over `calls` calls. */
function countingNs(calls: number): number {
  const stats = new ServiceMetrics({ defaultMetrics: false }).route('POST', '/api/v1/suggest/address');
  let clock = performance.now();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const begun = clock;
    clock = performance.now();
    stats.observe(200, 0.4 + (i & 7) * 0.1, clock - begun, 90 + (i & 15), 2_500 + (i & 1_023));
  }
  return ((performance.now() - t0) * 1e6) / calls;
}

async function main(): Promise<void> {
  armWatchdog('metrics-overhead', 4 * COPIES.length * (WARMUP + DURATION) * TARGETS.length + 240);
  const work = mkdtempSync(join(tmpdir(), 'address-metrics-overhead-'));
  const copies = {} as Record<Copy, { url: string; pid: number }>;
  for (const copy of COPIES) copies[copy] = await startCopy(work, copy.replace(' ', '-'), METRICS_ON.has(copy));
  const targets = loadTargets(BODIES).filter((target) => TARGETS.some((name) => target.name.startsWith(name)));
  const load0 = loadavg()[0];
  const rows: ({ endpoint: string; copy: Copy; cpu_us_per_request: number } & ReturnType<typeof turnsSummary>)[] = [];
  /** per endpoint, metrics on ÷ off: req/s over both copies of each state, CPU the median of all their turns */
  const pooled: { endpoint: string; rps: number; cpu: number }[] = [];
  for (const target of targets) {
    process.stderr.write(`${target.name}: ${WARMUP} s warm-up each, then ${SLICES} × ${DURATION / SLICES} s per copy, rotating … `);
    const runs = Object.fromEntries(COPIES.map((copy) => [copy, [] as AutocannonResult[]])) as Record<Copy, AutocannonResult[]>;
    /** each turn's CPU µs a request */
    const cpu = Object.fromEntries(COPIES.map((copy) => [copy, [] as number[]])) as Record<Copy, number[]>;
    if (WARMUP > 0) for (const copy of COPIES) await load(copies[copy].url, target, WARMUP);
    for (let slice = 0; slice < SLICES; slice++) {
      for (let k = 0; k < COPIES.length; k++) {
        const copy = COPIES[(slice + k) % COPIES.length];
        const before = cpuNs(copies[copy].pid);
        const run = await load(copies[copy].url, target, DURATION / SLICES);
        runs[copy].push(run);
        cpu[copy].push((cpuNs(copies[copy].pid) - before) / 1000 / Math.max(1, run.requests.total));
      }
    }
    for (const copy of COPIES) {
      const summary = turnsSummary(runs[copy]);
      rows.push({ endpoint: target.name, copy, ...summary, cpu_us_per_request: median(cpu[copy]) });
    }
    const state = (on: boolean) => COPIES.filter((copy) => METRICS_ON.has(copy) === on);
    const both = (on: boolean) => ({ rps: turnsSummary(state(on).flatMap((copy) => runs[copy])).rps, cpu: median(state(on).flatMap((copy) => cpu[copy])) });
    const [on, off] = [both(true), both(false)];
    pooled.push({ endpoint: target.name, rps: on.rps / off.rps, cpu: on.cpu / off.cpu });
    process.stderr.write(`${rows.slice(-COPIES.length).map((row) => `${row.copy} ${row.rps.toFixed(0)} req/s`).join(', ')}\n`);
  }
  const scrape = await (await fetch(`${copies.on.url}/metrics`)).text();
  const counted = scrape.split('\n').filter((line) => line.startsWith('address_http_requests_total{')).map((line) => line.replace(/^address_http_requests_total/, ''));
  stopChildren();
  countingNs(1_000_000);
  const ns = countingNs(5_000_000);

  console.log(`\n${cpus()[0]?.model ?? ''}, ${availableParallelism()} cores; each copy ${WORKERS} worker(s), log level ${LOG_LEVEL}; autocannon in this process; ` +
    `${CONNECTIONS} connections, ${DURATION} s per copy in ${SLICES} rotating turns after ${WARMUP} s of warm-up; started ${COPIES.join(', ')}; load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}\n`);
  console.log('| endpoint | metrics | req/s | p50 ms | p99 ms | non-2xx | errors | CPU µs/request | req/s ÷ off | CPU ÷ off |');
  console.log('|:--|:--|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const row of rows) {
    const off = rows.find((r) => r.endpoint === row.endpoint && r.copy === 'off')!;
    const ratio = (x: number, y: number) => (row.copy === 'off' ? '—' : `×${(x / y).toFixed(3)}`);
    console.log(
      `| ${row.endpoint} | ${row.copy} | ${row.rps.toFixed(0)} | ${row.p50_ms.toFixed(1)} | ${row.p99_ms.toFixed(1)} | ${row.non2xx} | ${row.errors} | ${row.cpu_us_per_request.toFixed(1)} | ` +
        `${ratio(row.rps, off.rps)} | ${ratio(row.cpu_us_per_request, off.cpu_us_per_request)} |`,
    );
  }
  for (const { endpoint, rps, cpu } of pooled) {
    console.log(`\n${endpoint}, metrics on ÷ off over both copies of each: req/s ×${rps.toFixed(3)}, CPU a request ×${cpu.toFixed(3)} (the copies of one state apart: the rows' "again" beside their first)`);
  }
  const offCpu = rows.find((row) => row.copy === 'off')!.cpu_us_per_request;
  console.log(`counting alone (in process): ${ns.toFixed(0)} ns a request, ${((100 * ns) / 1000 / offCpu).toFixed(2)} % of the ${offCpu.toFixed(1)} µs of CPU a ${rows[0].endpoint} request costs with metrics off`);
  console.log(`counted by the first copy with metrics on: ${counted.join(', ')}`);
  writeFileSync(
    join(ROOT, 'bench', 'metrics-overhead.json'),
    `${JSON.stringify({ date: new Date().toISOString(), workers: WORKERS, connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP, slices: SLICES, log_level: LOG_LEVEL, cores: availableParallelism(), order: COPIES, counting_ns: ns, pooled, rows }, null, 2)}\n`,
  );
  console.log('wrote bench/metrics-overhead.json');
  rmSync(work, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(`metrics-overhead failed: ${err instanceof Error ? err.message : err}`);
  stopChildren();
  process.exit(1);
});
