/**
 * Dictionary loading and what it costs in memory. Runs in a fresh child process so the figures are not
 * those of the benches before it: RSS and heap before and after `createEngine()` loads every blob in
 * build/dictionaries (what a server worker holds), then the time of `LoadedDictionary.fromBytes` for
 * ru.dict (msgpack decode, core instance, sections copied in, grid built, host columns) versus the
 * msgpack decode of the same bytes alone, and of the server's load of the file section by section
 * (engine/blob-file.ts) versus reading it whole and loading its bytes; and the sections' checksums
 * (format/blob.ts): the file read through and verified alone, and CRC-32 over the blob's bytes, zlib's (the
 * server's) against the plain JS one (the browser's), whose rate is what a national blob's check costs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { unpack } from 'msgpackr';
import { crc32, nativeCrc32 } from '../format/blob.js';
import { readBlobFile } from '../engine/blob-file.js';
import { blobFile, createEngine, defaultWasmFile, loadDictionaryFile, LoadedDictionary } from '../engine/index.js';
import { BENCH_TIME_MS, consume, isMain, measure, row, ROOT, type BenchContext, type Row } from './harness.js';

const MB = 1024 * 1024;
const DICT_DIR = join(ROOT, 'build', 'dictionaries');

interface ChildReport {
  rows: Row[];
  memory: Record<string, number>;
  blobs: Record<string, number>;
  loadMs: number;
}

/** What the child process measures and prints as JSON. */
async function child(): Promise<ChildReport> {
  const module = await WebAssembly.compile(readFileSync(defaultWasmFile()));
  global.gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const engine = await createEngine({ dir: DICT_DIR });
  const loadMs = performance.now() - t0;
  global.gc?.();
  const after = process.memoryUsage();
  const blobs: Record<string, number> = {};
  let blobBytes = 0;
  for (const country of engine.countries()) {
    const size = statSync(blobFile(DICT_DIR, country)).size;
    blobs[country] = size / MB;
    blobBytes += size;
  }
  let wasmBytes = 0;
  for (const country of engine.countries()) wasmBytes += engine.dictionary(country)!.core.memoryBytes();
  const memory = {
    rss_mb: after.rss / MB,
    blob_mb: blobBytes / MB,
    rss_before_mb: before.rss / MB,
    rss_delta_mb: (after.rss - before.rss) / MB,
    heap_mb: after.heapUsed / MB,
    heap_delta_mb: (after.heapUsed - before.heapUsed) / MB,
    wasm_memory_mb: wasmBytes / MB,
    external_mb: after.external / MB,
  };

  const bytes = readFileSync(blobFile(DICT_DIR, 'ru'));
  const time = Math.max(BENCH_TIME_MS, 1000);
  const load = await measure('load ru', async () => consume((await LoadedDictionary.fromBytes(bytes, module)).houseCount), { time, iterations: 8 });
  const decode = await measure('unpack ru', () => consume(Object.keys(unpack(bytes) as object).length), { time, iterations: 8 });
  // the server's path: the file read section by section, against the same file read whole and loaded from its bytes
  const file = blobFile(DICT_DIR, 'ru');
  const fromFile = await measure('load ru file', async () => consume((await loadDictionaryFile(file, module)).houseCount), { time, iterations: 8 });
  const whole = await measure('load ru whole', async () => consume((await LoadedDictionary.fromBytes(readFileSync(file), module)).houseCount), { time, iterations: 8 });
  // the check alone: every section read through and summed, none kept
  const verify = await measure('verify ru file', () => consume(Object.keys(readBlobFile(file, () => 'skip')).length), { time, iterations: 8 });
  const native = nativeCrc32(zlib.crc32);
  const zlibCrc = await measure('crc32 zlib', () => consume(native(bytes)), { time, iterations: 8 });
  const jsCrc = await measure('crc32 js', () => consume(crc32(bytes)), { time, iterations: 8 });
  const rows = [
    row(`load: ru.dict fromBytes (${(bytes.length / MB).toFixed(1)} MB)`, load, 'msgpackr unpack alone', decode),
    row('load: ru.dict from its file, section by section', fromFile, 'file read whole + fromBytes', whole),
    row('load: ru.dict read through, every section checked', verify, 'load ru.dict from its file', fromFile),
    row(`checksums: CRC-32 of ru.dict's bytes, zlib (${((zlibCrc.hz * bytes.length) / MB).toFixed(0)} MB/s)`, zlibCrc,
      `plain JS (${((jsCrc.hz * bytes.length) / MB).toFixed(0)} MB/s)`, jsCrc),
  ];
  return { rows, memory, blobs, loadMs };
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const file = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', file, '--child'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * MB,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const report = JSON.parse(out.slice(out.indexOf('{'))) as ChildReport;
  ctx.extra.memory = report.memory;
  ctx.extra.blobs_mb = report.blobs;
  const m = report.memory;
  ctx.notes.push(
    `load: createEngine() of ${Object.keys(report.blobs).join(', ')} (${m.blob_mb.toFixed(1)} MB of blobs) in ${report.loadMs.toFixed(0)} ms; ` +
      `RSS ${m.rss_before_mb.toFixed(0)} → ${m.rss_mb.toFixed(0)} MB (+${m.rss_delta_mb.toFixed(0)}), heap +${m.heap_delta_mb.toFixed(1)} MB, ` +
      `WASM memories ${m.wasm_memory_mb.toFixed(1)} MB (fresh child process, after gc)`,
  );
  return report.rows;
}

if (isMain(import.meta.url)) {
  if (process.argv.includes('--child')) {
    process.stdout.write(JSON.stringify(await child()));
  } else {
    const ctx: BenchContext = { engine: null as never, notes: [], extra: {} };
    const { formatTable } = await import('./harness.js');
    console.log(formatTable(await run(ctx)));
    for (const note of ctx.notes) console.log(`- ${note}`);
  }
}

