/**
 * Batch files (`npx tsx bench/batch.bench.ts [rows…]`, default 100000 1000000): rows/s and peak RSS of
 * `address-service clean` (bin/address-service.js, a child process, every core) on CSV and XLSX files of messy
 * addresses (messy-addresses.ts: dev's clean addresses repeated with variation), beside two references:
 * - the ceilings: the same rows on as many threads as cores, no file (batch-ceiling.ts): through the core alone
 *   (`engine.standardize`, the in-process core rate), and through the core and the records a default row needs (no
 *   metro stations), measured just before and just after each run, under the load the run had (a shared machine's
 *   load moves); each file is run ROUNDS times (default 3), each run's ratio taken to the mean of the ceilings on
 *   either side of it, and the median run reported with every run's ratio beside it; also, once, one thread of this
 *   process: `standardize` alone and with a default row's DaData record;
 * - the HTTP API on the same rows: POST /api/v1/clean/address to host/server.ts (one worker per core), CONNECTIONS
 *   keep-alive connections, at most HTTP_ROWS rows or 20 s (loopback only, bounded).
 * FORMATS=csv or xlsx measures one format alone, HTTP=0 leaves the HTTP API out.
 * rows/s is over the job's own time (its summary line: from reading the input to the last row written, the workers'
 * start and engine loading included); the wall time with the process start (tsx) is printed beside it. The child
 * runs under /usr/bin/time: its CPU time (every thread) and peak RSS (the main thread and the workers together).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { createEngine } from '../engine/index.js';
import { dadataClean } from '../engine/records/dadata-record.js';
import { standardizeParts } from '../engine/standardize.js';
import { ROOT } from './fixtures.js';
import { messyRows } from './messy-addresses.js';
import { freePort, HOST, sleep } from './net.js';
import { XlsxWriter } from '../cli/batch/xlsx-writer.js';
import { xlsxRow } from '../cli/batch/xlsx-writer.js';
import { csvField } from '../cli/batch/records.js';

const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
const ROWS = SIZES.length ? SIZES : [100_000, 1_000_000];
const CORES = availableParallelism();
const CONNECTIONS = Number(process.env.CONNECTIONS || 32);
const HTTP_ROWS = Number(process.env.HTTP_ROWS || 100_000);
const HTTP_SECONDS = 20;
/** runs of each file, each between two measures of the ceiling */
const ROUNDS_EACH = Math.max(1, Number(process.env.ROUNDS || 3));
/** the file formats measured (FORMATS=csv,xlsx, the default) */
const FORMATS = (process.env.FORMATS || 'csv,xlsx').split(',').map((format) => format.trim()).filter((format): format is 'csv' | 'xlsx' => {
  if (format !== 'csv' && format !== 'xlsx') throw new Error(`FORMATS: csv and xlsx, not ${format}`);
  return true;
});

async function writeCsv(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('id,address,kind\n');
  for (const [id, address, kind] of messyRows(count)) {
    if (!out.write(`${id},${csvField(address, ',')},${kind}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function writeXlsx(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  const writer = new XlsxWriter(out, 'addresses');
  await writer.write(xlsxRow(1, ['id', 'address', 'kind'], []));
  let xml = '';
  for (const [id, address, kind] of messyRows(count)) {
    xml += xlsxRow(id + 1, [id, address, kind], []);
    if (xml.length > 1 << 16) {
      await writer.write(xml);
      xml = '';
    }
  }
  await writer.write(xml);
  await writer.end();
  await once(out, 'close');
}

/** The parallel ceilings (bench/batch-ceiling.ts): CORES threads running the rows through the core, and with the records. */
async function parallelCeiling(): Promise<{ core: number; records: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'batch-ceiling.ts'), String(CORES), '3'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`batch-ceiling exited ${code}`);
  return JSON.parse(out) as { core: number; records: number };
}

let benchEngine: ReturnType<typeof createEngine> | null = null;

/**
 * The ceiling: the engine and the record builders in this thread, over the same rows, for ≈3 s each: rows per second
 * of wall time, and per second of this process's CPU time (what the load of a shared machine moves least).
 */
async function ceiling(rows: string[][]): Promise<{ standardize: number; standardizeCpu: number; pipeline: number; pipelineCpu: number }> {
  const engine = await (benchEngine ??= createEngine({ countries: ['ru'] }));
  const dictionary = engine.dictionary('ru')!;
  const measure = (fn: (query: string) => unknown): { wall: number; cpu: number } => {
    for (let i = 0; i < 5000; i++) fn(rows[i % rows.length][1]);
    const started = performance.now();
    const cpu = process.cpuUsage();
    let n = 0;
    while (performance.now() - started < 3000) {
      for (let k = 0; k < 1000; k++, n++) fn(rows[n % rows.length][1]);
    }
    const used = process.cpuUsage(cpu);
    return { wall: n / ((performance.now() - started) / 1000), cpu: n / ((used.user + used.system) / 1e6) };
  };
  const pipeline = measure((query) => dadataClean(standardizeParts(engine, 'ru', dictionary, query, { metro: false }).parts, { source: query }));
  const standardize = measure((query) => engine.standardize('ru', query));
  return { standardize: standardize.wall, standardizeCpu: standardize.cpu, pipeline: pipeline.wall, pipelineCpu: pipeline.cpu };
}

/** Runs the CLI on a file under /usr/bin/time: wall time, CPU time (every thread) and peak RSS. */
async function runCli(args: string[]): Promise<{ seconds: number; cpuSeconds: number; peakMb: number; summary: string }> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'TIME %U %S %M', process.execPath, join(ROOT, 'bin', 'address-service.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`address-service ${args.join(' ')} exited ${code}:\n${stderr}`);
  const [, user, system, maxKb] = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr) ?? [];
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: Number(user) + Number(system), peakMb: Number(maxKb) / 1024, summary: stderr.trim() };
}

/** POST /api/v1/clean/address for the rows, CONNECTIONS at a time, against host/server.ts on every core. */
async function http(rows: string[][]): Promise<number> {
  const port = await freePort();
  const work = mkdtempSync(join(tmpdir(), 'address-batch-http-'));
  const config = join(work, 'config.yaml');
  writeFileSync(config, `gateway:\n  Listen: "${HOST}:${port}"\n  Workers: ${CORES}\ndictionaries:\n  Dir: "${join(ROOT, 'build', 'dictionaries')}"\nlog:\n  Level: warn\n`);
  const server = spawn(process.execPath, ['--import', 'tsx', 'host/server.ts', '--config', config], { cwd: ROOT, stdio: 'ignore' });
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error('server not up in 120 s');
      const up = await fetch(`http://${HOST}:${port}/api/v1/health`).then((r) => r.ok, () => false);
      if (up) break;
      await sleep(200);
    }
    await sleep(1000);
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const post = (query: string) => new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ query, countryCode: 'RU' });
      const req = request({ host: HOST, port, path: '/api/v1/clean/address', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
    const count = Math.min(HTTP_ROWS, rows.length);
    let next = 0;
    const started = performance.now();
    const stopAt = started + HTTP_SECONDS * 1000;
    const lane = async () => {
      while (next < count && performance.now() < stopAt) await post(rows[next++][1]);
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, lane));
    const rate = next / ((performance.now() - started) / 1000);
    agent.destroy();
    return rate;
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  })();
  console.log(`batch bench: ${cpus()[0]?.model ?? 'cpu'} × ${CORES}, node ${process.version}, ${new Date().toISOString()} ${commit}`);
  const sample = [...messyRows(20_000)].map(([id, address, kind]) => [String(id), address, kind]);
  const single = await ceiling(sample);
  console.log(
    `ceiling, one thread: standardize ${Math.round(single.standardize)} rows/s (${Math.round(single.standardizeCpu)} per CPU second), ` +
      `standardize + DaData record (a default row) ${Math.round(single.pipeline)} rows/s ` +
      `(${Math.round(single.pipelineCpu)} per CPU second); × ${CORES} cores = ${Math.round(single.pipeline * CORES)} rows/s; load ${loadavg()[0].toFixed(1)}`,
  );
  const work = mkdtempSync(join(tmpdir(), 'address-batch-'));
  const results: Record<string, unknown>[] = [];
  try {
    for (const count of ROWS) {
      for (const format of FORMATS) {
        const input = join(work, `rows-${count}.${format}`);
        if (format === 'csv') await writeCsv(input, count);
        else await writeXlsx(input, count);
        // ROUNDS runs, each between two measures of the ceiling (under the load it had: a shared machine's load moves
        // within seconds); each run's ratio is to the mean of its two, and the median run is reported
        const ceilings = [await parallelCeiling()];
        const runs: { run: Awaited<ReturnType<typeof runCli>>; jobSeconds: number; rate: number; core: number; records: number }[] = [];
        for (let round = 0; round < ROUNDS_EACH; round++) {
          const run = await runCli(['clean', input, '-o', join(work, `out-${count}.${format}`), '--quiet']);
          ceilings.push(await parallelCeiling());
          const [before, after] = ceilings.slice(-2);
          const jobSeconds = Number(/ in ([\d.]+) s /.exec(run.summary)?.[1] ?? run.seconds);
          runs.push({ run, jobSeconds, rate: count / jobSeconds, core: (before.core + after.core) / 2, records: (before.records + after.records) / 2 });
        }
        const ofCore = runs.map((r) => r.rate / r.core);
        const { run, jobSeconds, rate, core, records } = [...runs].sort((a, b) => a.rate / a.core - b.rate / b.core)[runs.length >> 1];
        const row = {
          rows: count, format, jobSeconds, wallSeconds: +run.seconds.toFixed(1), rowsPerSecond: Math.round(rate),
          core: Math.round(core), ofCore: +(rate / core).toFixed(2), records: Math.round(records), ofRecords: +(rate / records).toFixed(2),
          ofCoreRuns: ofCore.map((r) => +r.toFixed(2)),
          rowsPerCpuSecond: Math.round(count / run.cpuSeconds), peakRssMb: Math.round(Math.max(...runs.map((r) => r.run.peakMb))), load: +loadavg()[0].toFixed(1),
          // the job's rows per CPU second against the core's in one thread: the ratio a job that keeps every core
          // busy reaches on an idle machine, and the one other load moves least
          ofCoreCpu: +(count / run.cpuSeconds / single.standardizeCpu).toFixed(2),
        };
        results.push(row);
        console.log(
          `${format} ${count} rows: ${row.rowsPerSecond} rows/s in the job, ${row.jobSeconds} s (${row.wallSeconds} s with the process start); ` +
            `core on ${CORES} threads ${Math.round(core)} rows/s → ${row.ofCore} (the median of ${ROUNDS_EACH} runs: ${row.ofCoreRuns.join(', ')}); ` +
            `core + records ${Math.round(records)} → ${row.ofRecords}; ` +
            `${row.rowsPerCpuSecond} rows per CPU second (of the core's in one thread: ${row.ofCoreCpu}); peak RSS ${row.peakRssMb} MB; load ${row.load}`,
        );
        rmSync(input, { force: true });
        rmSync(join(work, `out-${count}.${format}`), { force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (process.env.HTTP !== '0') {
    const before = await parallelCeiling();
    const rate = await http(sample);
    const after = await parallelCeiling();
    console.log(
      `HTTP POST /api/v1/clean/address, ${CONNECTIONS} connections, ${CORES} workers: ${Math.round(rate)} rows/s; ` +
        `core on ${CORES} threads ${before.core}…${after.core} rows/s → ${(rate / ((before.core + after.core) / 2)).toFixed(2)}; load ${loadavg()[0].toFixed(1)}`,
    );
  }
}

await main();
