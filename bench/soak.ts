/**
 * Soak (`npx tsx bench/soak.ts`): the real service in its default configuration (one worker per core) under
 * a steady mixed load (clean, suggest, clean/house, geosearch and some bad bodies) for SOAK_SECONDS (60)
 * on 127.0.0.1. Reports the RSS growth of every worker, the error count and the 5xx count; the bar it is judged by:
 * RSS growth ≤ 5 % and no errors.
 *
 * When the 60 s start: after WARMUP (10) s of the load, and then until every worker has been through a full
 * collection (a V8 mark-compact; the service runs with `--trace-gc` here, which only prints) under the warm
 * load, at most WARMUP_MAX (180) s in all. Until then a worker's RSS is not at its working size yet: its old
 * generation fills with the HTTP stack's short-lived garbage (a bare node:http server's too) up to the limit V8
 * set at start, 8 MB or more above what is live, and the pages it grows by stay with the heap after that
 * collection (docs/DECISIONS.md, "Measuring"). A run that reaches WARMUP_MAX says so.
 *
 * RSS is read from /proc every second; growth is judged between the medians of the first and the last WINDOW (10)
 * seconds of samples, where a leak raises the whole last window. The growth between the two instants is reported
 * beside it, with the full collections each worker went through during the 60 s. Loopback only, bounded by a
 * watchdog; prints a table and writes bench/soak.json.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cleanQueries, ROOT, suggestQueries } from './fixtures.js';
import { freePort, HOST, sleep } from './net.js';

const SECONDS = Number(process.env.SOAK_SECONDS || 60);
const WARMUP = 10;
const WARMUP_MAX = Number(process.env.WARMUP_MAX || 180);
/** seconds of load between two looks at the workers' collections while warming up */
const WARMUP_STEP = 5;
/** seconds of RSS samples at each end of the run whose medians are compared */
const WINDOW = 10;
const CONNECTIONS = Number(process.env.CONNECTIONS || 16);
/** RSS in MB of the primary's worker processes (children of `pid` running the server). */
function workerRss(pid: number): Record<number, number> {
  const out: Record<number, number> = {};
  let children: string[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    children = [];
  }
  // the workers run host/server.ts as the primary does (not so a helper such as tsx's esbuild service)
  const workers = children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('host/server.ts');
    } catch {
      return false;
    }
  });
  for (const child of workers.length ? workers : [String(pid)]) out[Number(child)] = rssMb(Number(child));
  return out;
}

/**
 * The full collections (V8 mark-compacts, not the memory reducer's) each process printed to the service's log
 * since the last `since()`: the log is read on from where the last look stopped, until `close()`.
 */
function fullCollections(logFile: string): { since(): void; count(pid: number): number; close(): void } {
  const fd = openSync(logFile, 'r');
  const counts = new Map<number, number>();
  const chunk = Buffer.alloc(1 << 20);
  let position = 0;
  let rest = '';
  const readOn = () => {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, position)) > 0; position += n) {
      const lines = (rest + chunk.toString('latin1', 0, n)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const gc = /^\[(\d+):[^\]]*\]\s+[\d.]+ ms: Mark-Compact (?!\(reduce\))/.exec(line);
        if (gc) counts.set(Number(gc[1]), (counts.get(Number(gc[1])) ?? 0) + 1);
      }
    }
  };
  return {
    since() {
      readOn();
      counts.clear();
    },
    count(pid) {
      readOn();
      return counts.get(pid) ?? 0;
    },
    close() {
      closeSync(fd);
    },
  };
}

/** RSS in MB of process `pid` from /proc (NaN once it is gone). */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  let service: ChildProcess | undefined;
  const watchdog = setTimeout(() => {
    console.error('soak: watchdog fired, stopping');
    service?.kill('SIGTERM');
    process.exit(2);
  }, (SECONDS + WARMUP_MAX + 120) * 1000);
  watchdog.unref();
  const work = mkdtempSync(join(tmpdir(), 'address-soak-'));
  const port = await freePort();
  const configFile = join(work, 'config.yaml');
  writeFileSync(configFile, `gateway:\n  Listen: "${HOST}:${port}"\ndictionaries:\n  Dir: "${join(ROOT, 'build', 'dictionaries')}"\n`);
  const logFile = join(work, 'service.log');
  const logFd = openSync(logFile, 'w');
  // --trace-gc: the workers inherit it and print a line per collection (and change nothing else)
  service = spawn(process.execPath, ['--trace-gc', '--import', 'tsx', 'host/server.ts', '--config', configFile], {
    cwd: ROOT,
    env: { ...process.env, HOST, PORT: String(port) },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  process.on('exit', () => service?.kill('SIGTERM'));
  const base = `http://${HOST}:${port}`;
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${base}/api/v1/health`).then((r) => r.ok, () => false)) break;
    await sleep(200);
  }
  await sleep(2000);
  const json = { 'content-type': 'application/json' };
  const requests = [
    ...cleanQueries().slice(0, 40).map((c) => ({ method: 'POST' as const, path: '/api/v1/clean/address', headers: json, body: JSON.stringify({ query: c.query, countryCode: c.country.toUpperCase() }) })),
    ...suggestQueries().slice(0, 40).map((c) => ({ method: 'POST' as const, path: '/api/v1/suggest/address', headers: json, body: JSON.stringify({ query: c.query, countryCode: 'RU', count: c.count }) })),
    { method: 'POST' as const, path: '/api/v1/clean/house', headers: json, body: JSON.stringify({ query: 'д 10к2 кв 5', countryCode: 'RU' }) },
    { method: 'POST' as const, path: '/api/v1/geosearch/address', headers: json, body: JSON.stringify({ latitude: 56.8389, longitude: 60.6057, countryCode: 'RU', radius: 1000 }) },
    { method: 'POST' as const, path: '/api/v1/clean/address', headers: json, body: '{"query":' },
    { method: 'POST' as const, path: '/api/v1/clean/address', headers: json, body: JSON.stringify({ query: 'ꙮ'.repeat(900), countryCode: 'RU' }) },
  ];
  const run = (duration: number) => autocannon({ url: base, connections: CONNECTIONS, duration, timeout: 10, requests });
  const collections = fullCollections(logFile);
  await run(WARMUP);
  const warm = workerRss(service.pid!);
  const workers = Object.keys(warm).map(Number);
  collections.since();
  const everyWorkerCollected = () => workers.every((pid) => collections.count(pid) > 0);
  let warmup = WARMUP;
  while (warmup < WARMUP_MAX && !everyWorkerCollected()) {
    await run(WARMUP_STEP);
    warmup += WARMUP_STEP;
  }
  const steady = everyWorkerCollected();
  collections.since();
  const before = workerRss(service.pid!);
  const started = performance.now();
  const samples: { at: number; rss: Record<number, number> }[] = [];
  // the workers sampled at the start, read straight from /proc (no pgrep under load)
  const sampler = setInterval(() => {
    const rss: Record<number, number> = {};
    for (const pid of Object.keys(before)) rss[Number(pid)] = rssMb(Number(pid));
    samples.push({ at: (performance.now() - started) / 1000, rss });
  }, 1000);
  const result = await run(SECONDS);
  clearInterval(sampler);
  const during = Object.fromEntries(workers.map((pid) => [pid, collections.count(pid)]));
  collections.close();
  const after = workerRss(service.pid!);
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;
  const windowMb = (pid: number, from: number, to: number) =>
    median(samples.filter((x) => x.at >= from && x.at < to && !Number.isNaN(x.rss[pid])).map((x) => x.rss[pid]));
  const pct = (from: number, to: number) => +(((to - from) / from) * 100).toFixed(2);
  const rows = Object.keys(before).map((key) => {
    const pid = Number(key);
    const start = before[pid];
    const end = after[pid] ?? NaN;
    const first = windowMb(pid, 0, WINDOW);
    const last = windowMb(pid, SECONDS - WINDOW, SECONDS + 1);
    return {
      pid, startMb: +start.toFixed(1), endMb: +end.toFixed(1), growthPct: pct(start, end),
      firstWindowMb: +first.toFixed(1), lastWindowMb: +last.toFixed(1), windowGrowthPct: pct(first, last),
      fullCollections: during[pid] ?? 0, afterWarmupMb: +(warm[pid] ?? NaN).toFixed(1),
    };
  });
  // the malformed body answers 400 on purpose; the 900-letter query is valid (≤ 1000 characters) and answers 200
  // with nothing found, so one request of the mix is expected to fail
  const expectedBad = 1 / requests.length;
  const summary = {
    seconds: SECONDS,
    warmupSeconds: warmup,
    steadyBeforeRun: steady,
    connections: CONNECTIONS,
    workers: Number(process.env.WORKERS || availableParallelism()),
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    non2xxExpected: Math.round(result.requests.total * expectedBad),
    status5xx: (result as unknown as Record<string, number>)['5xx'] ?? 0,
    workersRss: rows,
    windowSeconds: WINDOW,
    maxWindowGrowthPct: Math.max(...rows.map((r) => r.windowGrowthPct)),
    maxGrowthPct: Math.max(...rows.map((r) => r.growthPct)),
  };
  console.log(
    `warm-up ${warmup} s: ${steady ? 'every worker through a full collection under load' : `WARMUP_MAX reached before every worker went through a full collection`}\n`,
  );
  console.log(
    `| worker | RSS after ${WARMUP} s of load MB | RSS first ${WINDOW} s MB | RSS last ${WINDOW} s MB | growth | RSS start MB | RSS end MB | growth, instants | full collections |`,
  );
  console.log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    console.log(`| ${r.pid} | ${r.afterWarmupMb} | ${r.firstWindowMb} | ${r.lastWindowMb} | ${r.windowGrowthPct} % | ${r.startMb} | ${r.endMb} | ${r.growthPct} % | ${r.fullCollections} |`);
  }
  console.log(
    `\n${summary.requests} requests in ${SECONDS} s (${summary.rps} req/s, p99 ${summary.p99_ms} ms); errors ${summary.errors}; ` +
      `5xx ${summary.status5xx}; non-2xx ${summary.non2xx} (≈${summary.non2xxExpected} expected from the bad bodies); ` +
      `max RSS growth ${summary.maxWindowGrowthPct} % (medians of the first and last ${WINDOW} s; ${summary.maxGrowthPct} % between the two instants)`,
  );
  writeFileSync(join(ROOT, 'bench', 'soak.json'), JSON.stringify(summary, null, 2) + '\n');
  service.kill('SIGTERM');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
