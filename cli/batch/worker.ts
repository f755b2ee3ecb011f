/**
 * A pool worker: loads the engine once (the job's country alone) and runs batches (batch.ts) for the job whose setup
 * came in `workerData`. Started through worker.mjs, which makes TypeScript loadable in the thread.
 */
import { workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { createEngine } from '../../engine/index.js';
import { runBatch, RowWriter, type BatchResult, type BatchSetup, type BatchTask } from './batch.js';

export interface WorkerData {
  setup: BatchSetup;
  dictionaries: string;
  wasmFile?: string;
  /** the core compiled once by the main thread (job.ts), shared by every worker */
  wasmModule?: WebAssembly.Module;
}

const data = workerData as WorkerData;
const engine = await createEngine({ dir: data.dictionaries, wasmFile: data.wasmFile, wasmModule: data.wasmModule, countries: [data.setup.country] });
if (!engine.dictionary(data.setup.country)) throw new Error(`no ${data.setup.country} dictionary in ${data.dictionaries}`);
const writer = new RowWriter(data.setup);

/** The batch's result, its output bytes moved to the main thread (transferred: not copied, not cloned). */
export default function run(task: BatchTask): { [transferableSymbol]: ArrayBuffer; [valueSymbol]: BatchResult } {
  const result = runBatch(engine, data.setup, task, writer);
  return move({ [transferableSymbol]: result.bytes.buffer as ArrayBuffer, [valueSymbol]: result }) as ReturnType<typeof run>;
}
