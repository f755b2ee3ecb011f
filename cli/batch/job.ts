/**
 * A whole file through the engine: reads the input (CSV/TSV, NDJSON, XLSX; a file or stdin), cuts it into batches of
 * whole records, runs them on a pool of worker threads (one engine each, piscina), and writes their output in input
 * order. Memory is bounded whatever the size: the input is read a chunk at a time, at most `inFlight` batches are
 * out at once, and reading waits while they are (and while the output is slow to drain).
 *
 * Stopping (`signal`): no new batch is sent; the batches out are written, the files closed, and the summary says how
 * many data rows are in the output (`--skip` that many to resume).
 */
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { dirname, extname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Piscina } from 'piscina';
import { readFile } from 'node:fs/promises';
import { blobFile, defaultWasmFile } from '../../engine/index.js';
import type { Country, Engine, GeoLevel } from '../../engine/types.js';
import { runBatch, RowWriter, type BatchResult, type BatchSetup, type BatchTask, type OutputFormat } from './batch.js';
import { JobError, openInput, type InputBatch, type InputOptions } from './input.js';
import { Progress } from './progress.js';
import { BOM } from './sniff.js';
import type { WorkerData } from './worker.js';
import { workerModule } from './worker-bundle.js';
import { XlsxWriter } from './xlsx-writer.js';

export { JobError };

/** The input's options (input.ts: the path or `-`, header, sheet, delimiter, encoding), and the job's. */
export interface JobOptions extends InputOptions {
  op: 'clean' | 'geocode';
  /** a path; stdout when absent */
  output?: string;
  /** clean: the address columns (names or 1-based numbers), joined with `, ` */
  columns?: string[];
  /** geocode: the latitude and longitude columns, the level sought, the radius in metres */
  lat?: string;
  lon?: string;
  level?: GeoLevel;
  radius?: number;
  country: Country;
  fields: string[];
  format?: OutputFormat;
  /** the exceptions file (line, reason, text; tab-separated) */
  errors?: string;
  /** data rows to pass over before the first one processed */
  skip?: number;
  threads?: number;
  batchRows?: number;
  /** the dictionaries' folder and the core (worker engines) */
  dictionaries: string;
  wasmFile?: string;
  /** run batches here with this engine instead of a pool (small jobs, tests) */
  engine?: Engine;
  signal?: AbortSignal;
  stdout?: Writable;
  stderr?: Writable & { isTTY?: boolean };
  progress?: 'bar' | 'lines' | 'off';
  /** lines: at most one every this many ms (default 10 s) */
  progressEveryMs?: number;
}

export interface JobSummary {
  /** data rows written by this run */
  rows: number;
  skipped: number;
  exceptions: number;
  qc: Record<string, number>;
  qcGeo: Record<string, number>;
  seconds: number;
  rowsPerSecond: number;
  interrupted: boolean;
  /** the --skip that resumes after the rows written (skipped + rows) */
  resumeAt: number;
  output: string;
  errors?: string;
  format: OutputFormat;
}

const ADDRESS_NAMES = /^(address|addr|query|адрес|адрес доставки|полный адрес|source)$/i;
const LAT_NAMES = /^(lat|latitude|широта|geo_lat|y)$/i;
const LON_NAMES = /^(lon|lng|long|longitude|долгота|geo_lon|x)$/i;

/** A column named or numbered (1-based); throws listing the columns. */
function columnIndex(columns: string[], wanted: string, what: string): number {
  const name = wanted.trim().toLowerCase();
  const byName = columns.findIndex((column) => column.trim().toLowerCase() === name);
  if (byName >= 0) return byName;
  if (/^\d+$/.test(name) && Number(name) >= 1 && Number(name) <= columns.length) return Number(name) - 1;
  throw new JobError(`no ${what} column ${JSON.stringify(wanted)}: the columns are ${columns.map((column, i) => `${i + 1} ${JSON.stringify(column)}`).join(', ')}`);
}

function defaultColumn(columns: string[], pattern: RegExp, what: string, option: string): number {
  const found = columns.findIndex((column) => pattern.test(column.trim()));
  if (found >= 0) return found;
  if (what === 'address' && columns.length === 1) return 0;
  throw new JobError(`which column holds the ${what}? name it with ${option} (the columns are ${columns.map((column, i) => `${i + 1} ${JSON.stringify(column)}`).join(', ')})`);
}

function outputFormatOf(options: JobOptions, kind: string, delimiter: string): OutputFormat {
  if (options.format) return options.format;
  if (options.output) {
    const ext = extname(options.output).toLowerCase();
    if (ext === '.xlsx') return 'xlsx';
    if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
    if (ext === '.tsv') return 'tsv';
    if (ext === '.csv') return 'csv';
  }
  if (kind === 'xlsx') return 'xlsx';
  if (kind === 'ndjson') return 'ndjson';
  return delimiter === '\t' ? 'tsv' : 'csv';
}

const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + count;
};

/** The core compiled once here and shared by the workers (engine/index.ts `wasmModule`): V8 optimizes its code once. */
async function compileCore(wasmFile: string | undefined): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await readFile(wasmFile ?? defaultWasmFile()));
}

/** Whether two paths name one file (the second perhaps not there yet). */
function sameFile(path: string, other: string | undefined): boolean {
  if (other === undefined || !existsSync(path) || !existsSync(other)) return false;
  const a = statSync(path);
  const b = statSync(other);
  return a.dev === b.dev && a.ino === b.ino;
}

/** `-o` or `--errors` naming the input (or each other) would truncate a file before it is read: refused. */
function refuseOverwritingInput(options: JobOptions): void {
  if (options.input !== '-') {
    if (sameFile(options.input, options.output)) throw new JobError(`-o ${options.output} is the input file: write the output to another file`);
    if (sameFile(options.input, options.errors)) throw new JobError(`--errors ${options.errors} is the input file: write the exceptions to another file`);
  }
  if (options.output !== undefined && sameFile(options.output, options.errors)) throw new JobError(`--errors ${options.errors} is the output file: write the exceptions to another file`);
}

/** An output whose folder is missing (or is a file) is refused before the job starts, not once rows are written. */
function refuseMissingFolder(path: string | undefined, option: string): void {
  if (path === undefined) return;
  const folder = dirname(resolve(path));
  if (!existsSync(folder)) throw new JobError(`${option} ${path}: there is no folder ${folder}`);
  if (!statSync(folder).isDirectory()) throw new JobError(`${option} ${path}: ${folder} is not a folder`);
  if (existsSync(path) && statSync(path).isDirectory()) throw new JobError(`${option} ${path} is a folder: name a file in it`);
}

export async function runJob(options: JobOptions): Promise<JobSummary> {
  const started = performance.now();
  const skip = options.skip ?? 0;
  const header = options.header ?? true;
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const batchRows = options.batchRows ?? 1000;
  if (!(batchRows >= 1)) throw new JobError(`--batch is the rows sent to a worker at once: at least 1, not ${batchRows}`);
  const stderr = options.stderr ?? process.stderr;

  if (options.engine ? !options.engine.dictionary(options.country) : !existsSync(blobFile(options.dictionaries, options.country))) {
    throw new JobError(`no ${options.country} dictionary in ${options.dictionaries}: build it with \`address-service dict build ${options.country}\` (or npx tsx scripts/prepare.ts)`);
  }

  refuseOverwritingInput(options);
  refuseMissingFolder(options.output, '-o');
  refuseMissingFolder(options.errors, '--errors');
  const input = await openInput(options);
  const { kind, columns, encoding, delimiter } = input;

  // the columns read
  let address: number[] = [];
  let geo: BatchSetup['geo'];
  if (options.op === 'clean') {
    address = options.columns?.length ? options.columns.map((column) => columnIndex(columns, column, 'address')) : [defaultColumn(columns, ADDRESS_NAMES, 'address', '--column')];
  } else {
    geo = {
      lat: options.lat ? columnIndex(columns, options.lat, 'latitude') : defaultColumn(columns, LAT_NAMES, 'latitude', '--lat'),
      lon: options.lon ? columnIndex(columns, options.lon, 'longitude') : defaultColumn(columns, LON_NAMES, 'longitude', '--lon'),
      level: options.level,
      radius: options.radius ?? 100,
    };
  }

  const format = outputFormatOf(options, kind, delimiter);
  const { eol, bom, sheetName } = input;
  const outDelimiter = format === 'tsv' ? '\t' : kind === 'csv' && delimiter !== '\t' ? delimiter : ',';
  const setup: BatchSetup = {
    op: options.op,
    country: options.country,
    input: { kind: kind === 'xlsx' ? 'rows' : kind, delimiter, encoding, columns, width: kind === 'csv' && header ? columns.length : 0 },
    address,
    geo,
    fields: options.fields,
    output: { format, delimiter: outDelimiter, eol, rawCopy: kind === 'csv' && (format === 'csv' || format === 'tsv') && outDelimiter === delimiter },
  };
  const writer = new RowWriter(setup);

  // the outputs: a resumed run (--skip) appends to what an earlier run wrote
  const appendTo = (path: string | undefined) => skip > 0 && path !== undefined && existsSync(path) && statSync(path).size > 0;
  const appending = format !== 'xlsx' && appendTo(options.output);
  const out: Writable = options.output ? createWriteStream(options.output, { flags: appending ? 'a' : 'w' }) : (options.stdout ?? process.stdout);
  const errorsAppending = appendTo(options.errors);
  const errorsOut = options.errors ? createWriteStream(options.errors, { flags: errorsAppending ? 'a' : 'w' }) : null;
  if (errorsOut && !errorsAppending) errorsOut.write('line\treason\ttext\n');
  const xlsx = format === 'xlsx' ? new XlsxWriter(out, sheetName) : null;
  // an output that fails (a full disk, a closed pipe: `… | head`) stops the job, which then fails with its error
  let outputError: Error | null = null;
  const onOutputError = (err: Error) => (outputError ??= new Error(`cannot write the output: ${err.message}`));
  out.on('error', onOutputError);
  errorsOut?.on('error', onOutputError);
  const write = async (data: string | Uint8Array) => {
    if (data.length === 0 || outputError) return;
    try {
      if (xlsx) await xlsx.write(data);
      else if (!out.write(data)) await once(out, 'drain');
    } catch (err) {
      onOutputError(err as Error);
    }
  };
  let outputRow = 1;
  if (!appending) {
    if ((format === 'csv' || format === 'tsv') && (bom || encoding === 'cp1251')) out.write(BOM);
    if (header && format !== 'ndjson') {
      await write(writer.header());
      outputRow++;
    }
  }

  // the pool (or this thread)
  const pool = options.engine
    ? null
    : new Piscina<BatchTask, BatchResult>({
        filename: await workerModule(),
        minThreads: threads,
        maxThreads: threads,
        idleTimeout: 60_000,
        // a worker holds its next batch while it runs one, and takes it up without waiting for the main thread to
        // hand it over (which shares the two cores with the workers): the cores' use went from ≈1.88 to ≈1.92 of 2
        concurrentTasksPerWorker: 2,
        workerData: { setup, dictionaries: options.dictionaries, wasmFile: options.wasmFile, wasmModule: await compileCore(options.wasmFile) } satisfies WorkerData,
      });
  const run = (task: BatchTask): Promise<BatchResult> => {
    if (pool) return pool.run(task, { transferList: task.bytes ? [task.bytes.buffer as ArrayBuffer] : undefined });
    return new Promise((resolve) => setImmediate(() => resolve(runBatch(options.engine!, setup, task, writer))));
  };

  const summary = { rows: 0, exceptions: 0, qc: {} as Record<string, number>, qcGeo: {} as Record<string, number> };
  const progress = new Progress({
    stream: stderr,
    label: options.op,
    totalBytes: input.totalBytes,
    mode: options.progress ?? (stderr.isTTY ? 'bar' : 'lines'),
    everyMs: options.progressEveryMs,
  });
  const inFlight = threads * 2 + 1;
  /** the batches out, in order, with the input bytes each covers (progress: what is done, not what is read ahead) */
  const pending: { result: Promise<BatchResult>; bytes: number }[] = [];
  let bytesDone = input.headerBytes;
  let seq = 0;
  const writeOne = async () => {
    const batch = pending.shift()!;
    const result = await batch.result;
    bytesDone += batch.bytes;
    await write(result.bytes);
    if (errorsOut && result.exceptions && !errorsOut.write(result.exceptions)) await once(errorsOut, 'drain');
    summary.rows += result.count;
    summary.exceptions += result.exceptionCount;
    add(summary.qc, result.qc);
    add(summary.qcGeo, result.qcGeo);
    // XLSX: the bytes the reader took (it reads as it parses); else the bytes of the rows written
    progress.update(summary.rows, kind === 'xlsx' ? input.bytesRead() : bytesDone);
  };
  const submit = async ({ task, count, bytes }: InputBatch) => {
    if (count === 0) {
      bytesDone += bytes; // rows passed over (--skip)
      return;
    }
    const result = run({ ...task, seq: seq++, firstOutputRow: outputRow });
    result.catch(() => {}); // awaited in order by writeOne
    pending.push({ result, bytes });
    outputRow += count;
    while (pending.length >= inFlight) await writeOne();
  };
  const stopped = () => options.signal?.aborted === true || outputError !== null;

  let failure: unknown = null;
  try {
    for await (const batch of input.batches(batchRows, skip, stopped)) await submit(batch);
    while (pending.length > 0 && outputError === null) await writeOne();
  } catch (err) {
    failure = err;
  } finally {
    progress.stop();
    input.close();
    // what is out is written (a failure leaves what was written before it)
    for (const batch of pending.splice(0)) await batch.result.catch(() => null);
    await pool?.destroy();
    try {
      if (xlsx && outputError === null) await xlsx.end();
      if (options.output) {
        if (!xlsx) out.end();
        await finished(out);
      }
      if (errorsOut) {
        errorsOut.end();
        await finished(errorsOut);
      }
    } catch (err) {
      onOutputError(err as Error);
    }
  }
  if (outputError) throw outputError;
  if (failure) throw failure;
  const seconds = (performance.now() - started) / 1000;
  return {
    rows: summary.rows,
    skipped: input.skipped(),
    exceptions: summary.exceptions,
    qc: summary.qc,
    qcGeo: summary.qcGeo,
    seconds,
    rowsPerSecond: seconds > 0 ? summary.rows / seconds : 0,
    interrupted: options.signal?.aborted === true,
    resumeAt: input.skipped() + summary.rows,
    output: options.output ?? '(stdout)',
    errors: options.errors,
    format,
  };
}
