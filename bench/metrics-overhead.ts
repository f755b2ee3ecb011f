/**
 * What the metrics cost (`npx tsx bench/metrics-overhead.ts`): two copies of the real service (`host/server.ts`,
 * WORKERS workers each, default 1) side by side on 127.0.0.1, one with `metrics.Enabled` true (as shipped), one
 * with it false, driven in the same run by autocannon with POST /api/v1/suggest/address and /api/v1/clean/address
 * (the fast path): CONNECTIONS (16) connections, after WARMUP (1) s per copy not counted, DURATION (4) s per copy
 * cut into SLICES (4) turns that alternate on and off, so that load from outside the bench falls on both alike.
 * Prints req/s, p50/p99, the CPU time the copy's processes spent per request (/proc/<pid>/stat: on a machine shared
 * with other work, req/s swings with what else runs, the CPU a request costs much less) and the ratios on ÷ off per
 * endpoint, and scrapes /metrics once at the end to show the counters kept up. About 20 s of load; loopback only, bounded by a watchdog. Logs at LOG_LEVEL (info), to a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AutocannonResult } from 'autocannon';
import { ROOT } from './fixtures.js';
import { armWatchdog, freePort, HOST, loadTargets, postLoad, sleep, startedChild, stopChildren, turnsSummary, type LoadTarget } from './net.js';

const WORKERS = Number(process.env.WORKERS || 1);
const CONNECTIONS = Number(process.env.CONNECTIONS || 16);
const DURATION = Number(process.env.DURATION || 4);
const WARMUP = Number(process.env.WARMUP ?? 1);
const SLICES = Math.max(1, Number(process.env.SLICES || 4));
const LOG_LEVEL = process.env.LOG_LEVEL || 'info';
const BODIES = 50;


/** CPU time (user + system, in ticks of 1/100 s) of a process and its children's live processes so far. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 14 and 15 of stat (utime, stime), counted from the state, the 3rd
    const own = Number(fields[14 - 3]) + Number(fields[15 - 3]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return own + children.reduce((sum, child) => sum + cpuTicks(child), 0);
  } catch {
    return 0;
  }
}

/** One copy of the service, metrics on or off, logging to a file in `work`: its URL and its process. */
async function startCopy(work: string, metrics: boolean): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const logFile = join(work, `service-${metrics ? 'on' : 'off'}.log`);
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
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`service (metrics ${metrics}) did not start: ${readFileSync(logFile, 'utf8').slice(-1000)}`);
    await sleep(200);
  }
  return { url, pid: child.pid! };
}

const load = (url: string, target: LoadTarget, duration: number): Promise<AutocannonResult> => postLoad(url, target, CONNECTIONS, duration);

async function main(): Promise<void> {
  armWatchdog('metrics-overhead', 4 * (WARMUP + DURATION) + 240);
  const work = mkdtempSync(join(tmpdir(), 'address-metrics-overhead-'));
  const copies = { on: await startCopy(work, true), off: await startCopy(work, false) };
  const urls = { on: copies.on.url, off: copies.off.url };
  const targets = loadTargets(BODIES);
  const load0 = loadavg()[0];
  const rows: ({ endpoint: string; metrics: 'on' | 'off'; cpu_us_per_request: number } & ReturnType<typeof turnsSummary>)[] = [];
  for (const target of targets) {
    process.stderr.write(`${target.name}: ${WARMUP} s warm-up each, then ${SLICES} × ${DURATION / SLICES} s per copy, alternating … `);
    const runs: Record<'on' | 'off', AutocannonResult[]> = { on: [], off: [] };
    const ticks = { on: 0, off: 0 };
    if (WARMUP > 0) for (const kind of ['on', 'off'] as const) await load(urls[kind], target, WARMUP);
    for (let slice = 0; slice < SLICES; slice++) {
      for (const kind of slice % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const before = cpuTicks(copies[kind].pid);
        runs[kind].push(await load(urls[kind], target, DURATION / SLICES));
        ticks[kind] += cpuTicks(copies[kind].pid) - before;
      }
    }
    for (const kind of ['on', 'off'] as const) {
      const summary = turnsSummary(runs[kind]);
      rows.push({ endpoint: target.name, metrics: kind, ...summary, cpu_us_per_request: (ticks[kind] * 10_000) / summary.completed });
    }
    const [on, off] = rows.slice(-2);
    process.stderr.write(`on ${on.rps.toFixed(0)} req/s ${on.cpu_us_per_request.toFixed(1)} µs CPU, off ${off.rps.toFixed(0)} req/s ${off.cpu_us_per_request.toFixed(1)} µs CPU\n`);
  }
  const scrape = await (await fetch(`${urls.on}/metrics`)).text();
  const counted = scrape.split('\n').filter((line) => line.startsWith('address_http_requests_total{')).map((line) => line.replace(/^address_http_requests_total/, ''));
  stopChildren();

  console.log(`\n${cpus()[0]?.model ?? ''}, ${availableParallelism()} cores; each copy ${WORKERS} worker(s), log level ${LOG_LEVEL}; autocannon in this process; ` +
    `${CONNECTIONS} connections, ${DURATION} s per copy in ${SLICES} alternating turns after ${WARMUP} s of warm-up; load average ${load0.toFixed(2)} → ${loadavg()[0].toFixed(2)}\n`);
  console.log('| endpoint | metrics | req/s | p50 ms | p99 ms | non-2xx | errors | CPU µs/request | req/s on ÷ off | CPU on ÷ off |');
  console.log('|:--|:--|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const row of rows) {
    const off = rows.find((r) => r.endpoint === row.endpoint && r.metrics === 'off')!;
    const on = row.metrics === 'on';
    console.log(
      `| ${row.endpoint} | ${row.metrics} | ${row.rps.toFixed(0)} | ${row.p50_ms.toFixed(1)} | ${row.p99_ms.toFixed(1)} | ${row.non2xx} | ${row.errors} | ${row.cpu_us_per_request.toFixed(1)} | ` +
        `${on ? `×${(row.rps / off.rps).toFixed(3)}` : '—'} | ${on ? `×${(row.cpu_us_per_request / off.cpu_us_per_request).toFixed(3)}` : '—'} |`,
    );
  }
  console.log(`\ncounted by the copy with metrics on: ${counted.join(', ')}`);
  writeFileSync(
    join(ROOT, 'bench', 'metrics-overhead.json'),
    `${JSON.stringify({ date: new Date().toISOString(), workers: WORKERS, connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP, slices: SLICES, log_level: LOG_LEVEL, cores: availableParallelism(), rows }, null, 2)}\n`,
  );
  console.log('wrote bench/metrics-overhead.json');
  rmSync(work, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(`metrics-overhead failed: ${err instanceof Error ? err.message : err}`);
  stopChildren();
  process.exit(1);
});
