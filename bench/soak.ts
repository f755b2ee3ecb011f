/**
 * Soak (`npx tsx bench/soak.ts`): the real service in its default configuration (one worker per core) under
 * a steady mixed load (clean, suggest, clean/house, geosearch and some bad bodies) for SOAK_SECONDS (60)
 * on 127.0.0.1. Samples the RSS of every worker from /proc at the start of the load (after a 10 s warm-up),
 * every second during it and at the end, and reports the growth, the error count and the 5xx count. The issue's
 * bar: RSS growth ≤ 5 % and no errors. Growth is judged between the medians of the first and the last WINDOW (10)
 * seconds of samples: two instants 60 s apart catch the heap anywhere between two full collections (a worker's
 * RSS swings by up to a tenth over a collection cycle, session 31), where a leak raises the whole last window. The
 * growth between the two instants is reported beside it. Loopback only, bounded by a watchdog; prints a table and
 * writes bench/soak.json.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cleanQueries, ROOT, suggestQueries } from './fixtures.js';
import { freePort, HOST, sleep } from './net.js';

const SECONDS = Number(process.env.SOAK_SECONDS || 60);
const WARMUP = 10;
/** seconds of RSS samples at each end of the run whose medians are compared */
const WINDOW = 10;
const CONNECTIONS = Number(process.env.CONNECTIONS || 16);
/** RSS in MB of the primary's worker processes (children of `pid`). */
function workerRss(pid: number): Record<number, number> {
  const out: Record<number, number> = {};
  let children: string[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    children = [];
  }
  for (const child of children.length ? children : [String(pid)]) out[Number(child)] = rssMb(Number(child));
  return out;
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
  }, (SECONDS + WARMUP + 120) * 1000);
  watchdog.unref();
  const work = mkdtempSync(join(tmpdir(), 'address-soak-'));
  const port = await freePort();
  const configFile = join(work, 'config.yaml');
  writeFileSync(configFile, `gateway:\n  Listen: "${HOST}:${port}"\ndictionaries:\n  Dir: "${join(ROOT, 'build', 'dictionaries')}"\n`);
  const logFd = openSync(join(work, 'service.log'), 'w');
  service = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts', '--config', configFile], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
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
  await run(WARMUP);
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
    };
  });
  // the malformed body answers 400 on purpose; the 900-letter query is valid (≤ 1000 characters) and answers 200
  // with nothing found, so one request of the mix is expected to fail
  const expectedBad = 1 / requests.length;
  const summary = {
    seconds: SECONDS,
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
  console.log(`| worker | RSS first ${WINDOW} s MB | RSS last ${WINDOW} s MB | growth | RSS start MB | RSS end MB | growth, instants |`);
  console.log('|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) console.log(`| ${r.pid} | ${r.firstWindowMb} | ${r.lastWindowMb} | ${r.windowGrowthPct} % | ${r.startMb} | ${r.endMb} | ${r.growthPct} % |`);
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
