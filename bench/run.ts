/**
 * `npm run bench`: runs every in-process bench (load first, in its own child process; then boundary,
 * tokenize, house, standardize, suggest, nearest, http, and the builder's xml-scan), prints one table and the notes under it, and
 * writes bench/results.json:
 *
 *   { "<case>": { hz, p99_us, peer, peer_hz }, …, "memory": { rss_mb, blob_mb, … }, "meta": { … } }
 *
 * and appends one line a case to bench/history.jsonl, the performance history as data:
 *
 *   { date, commit, machine, case, value, unit, peer, ratio }
 *
 * Options: `--only=suggest,nearest` runs those benches alone; `--scale` adds bench/scale.ts (a synthetic
 * 1 M-house dictionary, a minute or more). BENCH_TIME_MS sets the time per measured function (default 1000).
 * The HTTP load test against a real server is separate: `npx tsx bench/http-load.ts`.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { BENCH_TIME_MS, createContext, formatTable, ROOT, sink, type BenchRun, type Row } from './harness.js';
import { fixtureSource } from './fixtures.js';

const BENCHES: [string, () => Promise<{ run: BenchRun }>][] = [
  ['load', () => import('./load.bench.js')],
  ['boundary', () => import('./boundary.bench.js')],
  ['tokenize', () => import('./tokenize.bench.js')],
  ['house', () => import('./house.bench.js')],
  ['standardize', () => import('./standardize.bench.js')],
  ['suggest', () => import('./suggest.bench.js')],
  ['nearest', () => import('./nearest.bench.js')],
  ['http', () => import('./http.bench.js')],
  ['dadata', () => import('./dadata.bench.js')],
  ['xml-scan', () => import('./xml-scan.bench.js')],
];

const round = (x: number | null | undefined, digits = 3): number | null =>
  x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toPrecision(digits + 3));

/** The commit the bench ran on (with `+` when the tree has changes), or null outside a git checkout. */
function currentCommit(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head}+` : head;
  } catch {
    return null;
  }
}

function appendHistory(rows: Row[], isoDate: string, machine: string): void {
  const date = isoDate.slice(0, 10);
  const commit = currentCommit();
  const lines = rows.map((r) => JSON.stringify({
    date,
    commit,
    machine,
    case: r.case,
    value: round(r.hz),
    unit: 'ops/s',
    peer: r.peer,
    ratio: r.peer_hz ? round(r.hz / r.peer_hz) : null,
  }));
  appendFileSync(join(ROOT, 'bench', 'history.jsonl'), `${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const only = argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
  const withScale = argv.includes('--scale');
  const started = performance.now();
  const load0 = loadavg()[0];
  const ctx = await createContext();
  const rows: Row[] = [];
  const failed: string[] = [];
  const selected = BENCHES.filter(([name]) => !only || only.includes(name));
  if (withScale || only?.includes('scale')) selected.push(['scale', () => import('./scale.js')]);
  for (const [name, load] of selected) {
    const t0 = performance.now();
    process.stderr.write(`bench ${name} … `);
    try {
      const { run } = await load();
      rows.push(...(await run(ctx)));
      process.stderr.write(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    } catch (err) {
      process.stderr.write('FAILED\n');
      failed.push(`${name}: ${err instanceof Error ? err.stack ?? err.message : err}`);
    }
  }

  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpu,
    cores: availableParallelism(),
    loadavg_before: round(load0, 2),
    loadavg_after: round(loadavg()[0], 2),
    bench_time_ms: BENCH_TIME_MS,
    fixtures: fixtureSource(),
    seconds: round((performance.now() - started) / 1000, 2),
  };
  console.log(`\n${cpu}, ${meta.cores} cores, Node ${process.version}; load average ${meta.loadavg_before} → ${meta.loadavg_after}; fixtures: ${meta.fixtures}\n`);
  console.log(formatTable(rows));
  console.log('');
  for (const note of ctx.notes) console.log(`- ${note}`);
  for (const failure of failed) console.log(`- BENCH FAILED ${failure}`);

  const results: Record<string, unknown> = {};
  for (const r of rows) {
    const key = r.case in results ? `${r.case} · ${r.peer}` : r.case;
    results[key] = { hz: round(r.hz), p99_us: round(r.p99_us), peer: r.peer, peer_hz: round(r.peer_hz), peer_p99_us: round(r.peer_p99_us) };
  }
  const memory = ctx.extra.memory as Record<string, number> | undefined;
  if (memory) results.memory = Object.fromEntries(Object.entries(memory).map(([k, v]) => [k, round(v, 2)]));
  if (ctx.extra.scale) results.scale = ctx.extra.scale;
  results.meta = meta;
  if (!only || withScale) {
    writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    appendHistory(rows, meta.date, `${cpu}, ${meta.cores} cores, Node ${process.version}`);
    console.log(`\nwrote bench/results.json and appended to bench/history.jsonl (${meta.seconds} s)`);
  }
  void sink;
  if (failed.length) process.exit(1);
}

await main();
