/**
 * The batch bench's ceilings (`node --import tsx bench/batch-ceiling.ts THREADS SECONDS`): THREADS worker threads,
 * each with its own engine, run the messy addresses for SECONDS through the core alone (`engine.standardize`), then
 * through what a row of `address-service clean` with the default columns needs besides reading and writing the file
 * (the core and DaData's record from the clean record's parts, without metro stations: `dadataClean`); prints the rows/s of all threads together as JSON.
 * Run as a child of bench/batch.bench.ts, next to each measured command, under the same load.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createEngine } from '../engine/index.js';
import { dadataClean } from '../engine/records/dadata-record.js';
import { standardizeParts } from '../engine/standardize.js';
import { messyRows } from './messy-addresses.js';

const SAMPLE = 20_000;

if (isMainThread) {
  const threads = Number(process.argv[2] || 2);
  const seconds = Number(process.argv[3] || 3);
  // a worker thread loads TypeScript once tsx is registered in it
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const rates: Record<string, number> = {};
  for (const mode of ['core', 'records']) {
    const workers = Array.from({ length: threads }, () => new Worker(boot, { eval: true, workerData: { seconds, mode } }));
    const results = await Promise.all(workers.map((worker) => new Promise<{ rows: number; seconds: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    })));
    rates[mode] = Math.round(results.reduce((sum, r) => sum + r.rows / r.seconds, 0));
    for (const worker of workers) await worker.terminate();
  }
  console.log(JSON.stringify({ threads, ...rates }));
} else {
  const { seconds, mode } = workerData as { seconds: number; mode: 'core' | 'records' };
  const engine = await createEngine({ countries: ['ru'] });
  const dictionary = engine.dictionary('ru')!;
  const rows = [...messyRows(SAMPLE)].map((row) => row[1]);
  const work = mode === 'core'
    ? (query: string) => engine.standardize('ru', query)
    : (query: string) => dadataClean(standardizeParts(engine, 'ru', dictionary, query, { metro: false }).parts, { source: query });
  for (let i = 0; i < 5000; i++) work(rows[i % rows.length]);
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < seconds * 1000) {
    for (let k = 0; k < 500; k++, n++) work(rows[n % rows.length]);
  }
  parentPort!.postMessage({ rows: n, seconds: (performance.now() - started) / 1000 });
}
