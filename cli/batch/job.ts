/**
 * A whole file through the engine: reads the input (CSV/TSV, NDJSON, XLSX; a file or stdin), cuts it into batches of
 * whole records, runs them on a pool of worker threads (one engine each, piscina), and writes their output in input
 * order. Memory is bounded whatever the size: the input is read a chunk at a time, at most `inFlight` batches are
 * out at once, and reading waits while they are (and while the output is slow to drain).
 *
 * Stopping (`signal`): no new batch is sent; the batches out are written, the files closed, and the summary says how
 * many data rows are in the output (`--skip` that many to resume).
 */
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { Piscina } from 'piscina';
import { blobFile } from '../../host/engine/index.js';
import type { Country, Engine, GeoLevel } from '../../host/engine/types.js';
import { runBatch, RowWriter, type BatchResult, type BatchSetup, type BatchTask, type OutputFormat, type TextEncoding } from './batch.js';
import { Progress } from './progress.js';
import { countLines, RecordScanner, splitRecord, withoutLineEnd } from './records.js';
import { BOM, hasBom, sniffDelimiter, sniffEncoding, sniffKind } from './sniff.js';
import type { WorkerData } from './worker.js';
import { XlsxWriter } from './xlsx-writer.js';

export interface JobOptions {
  op: 'clean' | 'geocode';
  /** a path, or `-` for stdin */
  input: string;
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
  /** the first row names the columns (default true) */
  header?: boolean;
  sheet?: string;
  delimiter?: string;
  encoding?: TextEncoding;
  threads?: number;
  batchRows?: number;
  /** the dictionaries' folder and the core (worker engines) */
  dictionaries: string;
  wasmFile?: string;
  /** run batches here with this engine instead of a pool (small jobs, tests) */
  engine?: Engine;
  signal?: AbortSignal;
  stdin?: Readable;
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

/** A job that cannot start (no such column, an unreadable file…): the CLI prints it and exits 2. */
export class JobError extends Error {}

const READ_CHUNK = 1 << 20;
const SNIFF_BYTES = 64 * 1024;

/** The first chunks of a stream gathered to `bytes` (or its end), and an iterator of the rest. */
async function head(stream: Readable, bytes: number): Promise<{ head: Buffer; rest: AsyncIterator<Buffer>; ended: boolean }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < bytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(chunk);
    size += chunk.length;
  }
  return { head: Buffer.concat(chunks), rest: iterator, ended };
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

/** An XLSX cell's value as a plain value: rich text and hyperlinks as their text, formulas as their result. */
function cellValue(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' || value instanceof Date) return value;
  const cell = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
  if (cell.richText) return cell.richText.map((run) => run.text).join('');
  if ('result' in cell) return cellValue(cell.result);
  if (cell.text !== undefined) return cellValue(cell.text);
  if (cell.error) return cell.error;
  return JSON.stringify(value);
}

function rowValues(row: ExcelJS.Row): unknown[] {
  const values = row.values as unknown[];
  const out: unknown[] = [];
  for (let i = 1; i < values.length; i++) out.push(cellValue(values[i]));
  return out;
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

export async function runJob(options: JobOptions): Promise<JobSummary> {
  const started = performance.now();
  const skip = options.skip ?? 0;
  const header = options.header ?? true;
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const batchRows = options.batchRows ?? 1000;
  const stderr = options.stderr ?? process.stderr;

  if (options.engine ? !options.engine.dictionary(options.country) : !existsSync(blobFile(options.dictionaries, options.country))) {
    throw new JobError(`no ${options.country} dictionary in ${options.dictionaries}: build it with \`address-service dict build ${options.country}\` (or npx tsx scripts/prepare.ts)`);
  }

  // the input, its size, and the bytes read so far (progress)
  let totalBytes = 0;
  let inputStream: Readable;
  if (options.input === '-') inputStream = options.stdin ?? process.stdin;
  else {
    if (!existsSync(options.input)) throw new JobError(`no file ${options.input}`);
    totalBytes = statSync(options.input).size;
    inputStream = createReadStream(options.input, { highWaterMark: READ_CHUNK });
  }
  let bytesRead = 0;
  inputStream.on('data', (chunk: Buffer) => (bytesRead += chunk.length));
  const first = await head(inputStream, SNIFF_BYTES);
  if (first.head.length === 0) throw new JobError(`${options.input === '-' ? 'stdin' : options.input} is empty`);
  const kind = sniffKind(first.head);

  // what the input is: columns, encoding, delimiter
  let columns: string[] = [];
  let encoding: TextEncoding = 'utf-8';
  let delimiter = ',';
  let eol = '\n';
  let bom = false;
  let body = first.head;
  let firstLine = 1;
  let sheetName = 'result';
  let xlsxRows: AsyncIterator<ExcelJS.Row> | null = null;
  let pendingRow: ExcelJS.Row | null = null;
  const rest = async function* (): AsyncGenerator<Buffer> {
    for (;;) {
      const next = await first.rest.next();
      if (next.done) return;
      yield next.value;
    }
  };

  if (kind === 'xlsx') {
    const source = Readable.from((async function* () {
      yield first.head;
      yield* rest();
    })());
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore', entries: 'ignore' } as ExcelJS.stream.xlsx.WorkbookStreamReaderOptions);
    const sheets = reader[Symbol.asyncIterator]();
    for (;;) {
      const next = await sheets.next();
      if (next.done) throw new JobError(options.sheet ? `no sheet ${JSON.stringify(options.sheet)} in ${options.input}` : `no sheet in ${options.input}`);
      const sheet = next.value as unknown as ExcelJS.Worksheet & AsyncIterable<ExcelJS.Row> & { name?: string };
      const name = sheet.name ?? '';
      if (options.sheet && name !== options.sheet && String((sheet as { id?: number }).id) !== options.sheet) {
        for await (const _row of sheet) void _row; // the reader moves on only once a sheet is read through
        continue;
      }
      sheetName = name || sheetName;
      xlsxRows = sheet[Symbol.asyncIterator]();
      break;
    }
    const firstRow = await xlsxRows.next();
    if (!firstRow.done) {
      const values = rowValues(firstRow.value).map((value) => String(cellValue(value)));
      if (header) columns = values;
      else {
        columns = values.map((_, i) => String(i + 1));
        pendingRow = firstRow.value;
      }
    }
  } else if (kind === 'ndjson') {
    bom = hasBom(body);
    if (bom) body = body.subarray(3);
    const newline = body.indexOf(0x0a);
    const line = new TextDecoder().decode(newline < 0 ? body : body.subarray(0, newline));
    try {
      columns = Object.keys(JSON.parse(line) as object);
    } catch {
      throw new JobError(`${options.input}: the first line is not a JSON object`);
    }
  } else {
    bom = hasBom(body);
    if (bom) body = body.subarray(3);
    encoding = options.encoding ?? (bom ? 'utf-8' : sniffEncoding(body, first.ended));
    const newline = body.indexOf(0x0a);
    const firstText = encoding === 'cp1251' ? iconv.decode(newline < 0 ? body : body.subarray(0, newline + 1), 'win1251') : new TextDecoder().decode(newline < 0 ? body : body.subarray(0, newline + 1));
    delimiter = options.delimiter ?? (extname(options.input).toLowerCase() === '.tsv' ? '\t' : sniffDelimiter(firstText));
    eol = firstText.endsWith('\r\n') ? '\r\n' : '\n';
    const records = new RecordScanner(delimiter.charCodeAt(0)).scan(body, first.ended);
    if (records.length > 0) {
      const record = body.subarray(0, records[0]);
      const text = withoutLineEnd(encoding === 'cp1251' ? iconv.decode(record, 'win1251') : new TextDecoder().decode(record));
      const fields = splitRecord(text, delimiter).fields;
      if (header) {
        columns = fields;
        body = body.subarray(records[0]);
        firstLine += countLines(record);
      } else columns = fields.map((_, i) => String(i + 1));
    }
  }

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
  const write = async (data: string | Uint8Array) => {
    if (data.length === 0) return;
    if (xlsx) await xlsx.write(data);
    else if (!out.write(data)) await once(out, 'drain');
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
        filename: new URL('./worker.mjs', import.meta.url).href,
        minThreads: threads,
        maxThreads: threads,
        idleTimeout: 60_000,
        workerData: { setup, dictionaries: options.dictionaries, wasmFile: options.wasmFile } satisfies WorkerData,
      });
  const run = (task: BatchTask): Promise<BatchResult> => {
    if (pool) return pool.run(task, { transferList: task.bytes ? [task.bytes.buffer as ArrayBuffer] : undefined });
    return new Promise((resolve) => setImmediate(() => resolve(runBatch(options.engine!, setup, task, writer))));
  };

  const summary = { rows: 0, exceptions: 0, qc: {} as Record<string, number>, qcGeo: {} as Record<string, number> };
  const progress = new Progress({
    stream: stderr,
    label: options.op,
    totalBytes,
    mode: options.progress ?? (stderr.isTTY ? 'bar' : 'lines'),
    everyMs: options.progressEveryMs,
  });
  const inFlight = threads * 2 + 1;
  /** the batches out, in order, with the input bytes each covers (progress: what is done, not what is read ahead) */
  const pending: { result: Promise<BatchResult>; bytes: number }[] = [];
  let bytesDone = kind === 'xlsx' ? 0 : first.head.length - body.length;
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
    progress.update(summary.rows, kind === 'xlsx' ? bytesRead : bytesDone);
  };
  const submit = async (task: Omit<BatchTask, 'seq' | 'firstOutputRow'>, count: number) => {
    const bytes = task.bytes?.length ?? 0; // (read before the bytes are transferred to a worker)
    const result = run({ ...task, seq: seq++, firstOutputRow: outputRow });
    result.catch(() => {}); // awaited in order by writeOne
    pending.push({ result, bytes });
    outputRow += count;
    while (pending.length >= inFlight) await writeOne();
  };
  const stopped = () => options.signal?.aborted === true;

  let toSkip = skip;
  let failure: unknown = null;
  try {
    if (xlsxRows) {
      let rows: unknown[][] = [];
      let lines: number[] = [];
      const flush = async () => {
        if (rows.length === 0) return;
        await submit({ rows, lines, firstLine: lines[0] }, rows.length);
        rows = [];
        lines = [];
      };
      for (;;) {
        if (stopped()) break;
        let row: ExcelJS.Row;
        if (pendingRow) {
          row = pendingRow;
          pendingRow = null;
        } else {
          const next = await xlsxRows.next();
          if (next.done) break;
          row = next.value;
        }
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        rows.push(rowValues(row));
        lines.push(row.number);
        if (rows.length >= batchRows) await flush();
      }
      if (!stopped()) await flush();
    } else {
      const scanner = new RecordScanner(kind === 'ndjson' ? -1 : delimiter.charCodeAt(0));
      let carry: Buffer = body;
      let line = firstLine;
      let ended = first.ended;
      const chunks = rest();
      for (;;) {
        if (stopped()) break;
        const ends = scanner.scan(carry, ended);
        let start = 0;
        let i = 0;
        for (; i < ends.length && toSkip > 0; i++, toSkip--) {
          line += countLines(carry.subarray(start, ends[i]));
          bytesDone += ends[i] - start;
          start = ends[i];
        }
        while (i < ends.length && !stopped()) {
          const last = Math.min(ends.length, i + batchRows);
          const bytes = new Uint8Array(carry.subarray(start, ends[last - 1]));
          const batchEnds = ends.slice(i, last).map((end) => end - start);
          const batchLine = line;
          line += countLines(bytes);
          start = ends[last - 1];
          await submit({ bytes, ends: batchEnds, firstLine: batchLine }, last - i);
          i = last;
        }
        if (ended || stopped()) break;
        const next = await chunks.next();
        const left = carry.subarray(start);
        if (next.done) {
          ended = true;
          carry = left;
        } else carry = left.length ? Buffer.concat([left, next.value]) : next.value;
      }
    }
    while (pending.length > 0) await writeOne();
  } catch (err) {
    failure = err;
  } finally {
    progress.stop();
    if (!(inputStream as Readable).destroyed && options.input !== '-') inputStream.destroy();
    // what is out is written (a failure leaves what was written before it)
    for (const batch of pending.splice(0)) await batch.result.catch(() => null);
    await pool?.destroy();
    if (xlsx) await xlsx.end();
    if (options.output) {
      if (!xlsx) out.end();
      await finished(out);
    }
    if (errorsOut) {
      errorsOut.end();
      await finished(errorsOut);
    }
  }
  if (failure) throw failure;
  const seconds = (performance.now() - started) / 1000;
  return {
    rows: summary.rows,
    skipped: skip - toSkip,
    exceptions: summary.exceptions,
    qc: summary.qc,
    qcGeo: summary.qcGeo,
    seconds,
    rowsPerSecond: seconds > 0 ? summary.rows / seconds : 0,
    interrupted: stopped(),
    resumeAt: skip - toSkip + summary.rows,
    output: options.output ?? '(stdout)',
    errors: options.errors,
    format,
  };
}
