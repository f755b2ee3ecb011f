/**
 * The batch bench's ceiling (`node --import tsx bench/batch-ceiling.ts THREADS SECONDS`): THREADS worker threads,
 * each with its own engine, run the messy addresses through the engine and the record builders (what a row of
 * `address-service clean` needs, without reading or writing a file) for SECONDS; prints the rows/s of all together
 * as JSON. Run as a child of bench/batch.bench.ts, next to each measured command, under the same load.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createEngine } from '../host/engine/index.js';
import { dadataAddress } from '../host/records/dadata-record.js';
import { standardizeAddress } from '../host/routes/standardize.js';
import { messyRows } from './messy-addresses.js';

const SAMPLE = 20_000;

if (isMainThread) {
  const threads = Number(process.argv[2] || 2);
  const seconds = Number(process.argv[3] || 4);
  // a worker thread loads TypeScript once tsx is registered in it
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const workers = Array.from({ length: threads }, () => new Worker(boot, { eval: true, workerData: { seconds } }));
  const results = await Promise.all(workers.map((worker) => new Promise<{ rows: number; seconds: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  })));
  const rate = results.reduce((sum, r) => sum + r.rows / r.seconds, 0);
  console.log(JSON.stringify({ threads, rowsPerSecond: Math.round(rate) }));
  for (const worker of workers) await worker.terminate();
} else {
  const engine = await createEngine({ countries: ['ru'] });
  const dictionary = engine.dictionary('ru')!;
  const rows = [...messyRows(SAMPLE)].map((row) => row[1]);
  for (let i = 0; i < 5000; i++) dadataAddress(standardizeAddress(engine, 'ru', dictionary, rows[i % rows.length]).record);
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < (workerData as { seconds: number }).seconds * 1000) {
    for (let k = 0; k < 500; k++, n++) dadataAddress(standardizeAddress(engine, 'ru', dictionary, rows[n % rows.length]).record);
  }
  parentPort!.postMessage({ rows: n, seconds: (performance.now() - started) / 1000 });
}
