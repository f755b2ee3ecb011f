/**
 * A batch job's input: opened (a file or stdin), recognized from its first 64 KiB (sniff.ts: XLSX, NDJSON or
 * delimited text, its encoding and delimiter), its header read, and then cut into batches of whole records
 * (`batches`): for text, the records' bytes with their ends (RecordScanner), decoded and split by the workers; for
 * XLSX, the cells of the sheet's rows as the streaming reader (exceljs) gives them. The input is read a chunk at a
 * time, as the batches are taken.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { BatchTask, TextEncoding } from './batch.js';
import { countLines, RecordScanner, splitRecord, withoutLineEnd } from './records.js';
import { decodeCp1251, hasBom, sniffDelimiter, sniffEncoding, sniffKind, type FileKind } from './sniff.js';

/** A job that cannot start (no such column, an unreadable file…): the CLI prints it and exits 2. */
export class JobError extends Error {}

const READ_CHUNK = 1 << 20;
const SNIFF_BYTES = 64 * 1024;

export interface InputOptions {
  /** a path, or `-` for stdin */
  input: string;
  stdin?: Readable;
  /** the first row names the columns (default true) */
  header?: boolean;
  sheet?: string;
  delimiter?: string;
  encoding?: TextEncoding;
}

/** One batch to send: the task, its rows, and the input bytes it covers (progress; 0 for XLSX). */
export interface InputBatch {
  task: Omit<BatchTask, 'seq' | 'firstOutputRow'>;
  count: number;
  bytes: number;
}

export interface OpenedInput {
  kind: Exclude<FileKind, 'rows'>;
  /** the header's names, else `1`, `2`, … (NDJSON: the first object's keys) */
  columns: string[];
  encoding: TextEncoding;
  delimiter: string;
  /** the line end of the header line */
  eol: string;
  bom: boolean;
  /** XLSX: the sheet read */
  sheetName: string;
  /** the file's size; 0 for stdin */
  totalBytes: number;
  /** the bytes of the input read so far, and of the header */
  bytesRead(): number;
  headerBytes: number;
  /** the data rows passed over so far (`skip`) */
  skipped(): number;
  /** batches of `rows` records after the first `skip` data rows, until the input ends or `stopped()` */
  batches(rows: number, skip: number, stopped: () => boolean): AsyncGenerator<InputBatch>;
  close(): void;
}

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

/** The byte order of UTF-16 text that opens with its mark (FF FE: little-endian, FE FF: big-endian), else null. */
function utf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** UTF-16 text as UTF-8 chunks, its byte order mark written as UTF-8's (a pair split between chunks is kept whole). */
async function* utf16ToUtf8(headBytes: Buffer, rest: AsyncIterator<Buffer>, order: 'utf-16le' | 'utf-16be'): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder(order, { ignoreBOM: true });
  yield Buffer.from(decoder.decode(headBytes, { stream: true }), 'utf8');
  for (;;) {
    const next = await rest.next();
    if (next.done) break;
    yield Buffer.from(decoder.decode(next.value, { stream: true }), 'utf8');
  }
  yield Buffer.from(decoder.decode(), 'utf8');
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

const decodeText = (bytes: Uint8Array, encoding: TextEncoding): string =>
  encoding === 'cp1251' ? decodeCp1251(bytes) : new TextDecoder().decode(bytes);

export async function openInput(options: InputOptions): Promise<OpenedInput> {
  const header = options.header ?? true;
  let totalBytes = 0;
  /** the input as messages name it */
  const name = options.input === '-' ? 'stdin' : options.input;
  let stream: Readable;
  if (options.input === '-') stream = options.stdin ?? process.stdin;
  else {
    if (!existsSync(options.input)) throw new JobError(`no file ${options.input}`);
    if (statSync(options.input).isDirectory()) throw new JobError(`${options.input} is a folder: name a file in it`);
    totalBytes = statSync(options.input).size;
    stream = createReadStream(options.input, { highWaterMark: READ_CHUNK });
  }
  let bytesRead = 0;
  stream.on('data', (chunk: Buffer) => (bytesRead += chunk.length));
  // a file that cannot be read (no permission) fails on the first read
  const readHead = (from: Readable) => head(from, SNIFF_BYTES).catch((err: Error) => {
    throw new JobError(`cannot read ${name}: ${err.message}`);
  });
  let first = await readHead(stream);
  const utf16 = utf16Order(first.head);
  if (utf16) {
    // UTF-16 with its byte order mark (Excel's "Unicode text"): read on as UTF-8 with a mark, every step after the same
    const decoded = Readable.from(utf16ToUtf8(first.head, first.rest, utf16));
    const utf16Head = first.head.length;
    first = await readHead(decoded);
    // progress counts the UTF-8 bytes of the rows done: the file's size scaled as its first part was
    totalBytes = Math.round((totalBytes * first.head.length) / utf16Head);
  }
  if (first.head.length === 0) throw new JobError(`${name} is empty`);
  const kind = sniffKind(first.head);
  // text never holds a NUL byte: a binary file, or UTF-16 without its mark, would be read as rows of garbage
  if (kind !== 'xlsx' && first.head.includes(0)) {
    throw new JobError(`${name} is not text (it has NUL bytes): give a CSV, TSV or NDJSON file in UTF-8 or cp1251, or an XLSX file`);
  }
  const rest = async function* (): AsyncGenerator<Buffer> {
    for (;;) {
      const next = await first.rest.next();
      if (next.done) return;
      yield next.value;
    }
  };
  let skipped = 0;
  const opened = {
    kind, columns: [] as string[], encoding: 'utf-8' as TextEncoding, delimiter: ',', eol: '\n', bom: false, sheetName: 'result', totalBytes,
    bytesRead: () => bytesRead, headerBytes: 0, skipped: () => skipped,
    close: () => {
      if (options.input !== '-' && !stream.destroyed) stream.destroy();
    },
  };

  if (kind === 'xlsx') {
    // loaded here, not with the module: a CSV job's start spent a quarter of a second loading the XLSX reader
    const { default: Excel } = await import('exceljs');
    const source = Readable.from((async function* () {
      yield first.head;
      yield* rest();
    })());
    const reader = new Excel.stream.xlsx.WorkbookReader(source, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore', entries: 'ignore' } as ExcelJS.stream.xlsx.WorkbookStreamReaderOptions);
    const sheets = reader[Symbol.asyncIterator]();
    let rows!: AsyncIterator<ExcelJS.Row>;
    // the zip reader's errors (`FILE_ENDED`: a file cut short) said as what they mean
    const damaged = (err: unknown) =>
      `${name} is not a whole XLSX file (${err instanceof Error ? err.message : String(err)}): it may be cut short or damaged; open it in Excel and save it anew`;
    // a JobError (the job cannot start) while the header row is read, a failure of the job after it
    const nextRow = (Failure: new (message: string) => Error = Error) => rows.next().catch((err: unknown) => {
      throw new Failure(damaged(err));
    });
    for (;;) {
      const next = await sheets.next().catch((err: unknown) => {
        throw new JobError(damaged(err));
      });
      if (next.done) throw new JobError(options.sheet ? `no sheet ${JSON.stringify(options.sheet)} in ${options.input}` : `no sheet in ${options.input}`);
      const sheet = next.value as unknown as AsyncIterable<ExcelJS.Row> & { name?: string; id?: number };
      if (options.sheet && sheet.name !== options.sheet && String(sheet.id) !== options.sheet) {
        // the reader moves on only once a sheet is read through
        try {
          for await (const _row of sheet) void _row;
        } catch (err) {
          throw new JobError(damaged(err));
        }
        continue;
      }
      opened.sheetName = sheet.name || opened.sheetName;
      rows = sheet[Symbol.asyncIterator]();
      break;
    }
    let pendingRow: ExcelJS.Row | null = null;
    const firstRow = await nextRow(JobError);
    if (!firstRow.done) {
      const values = rowValues(firstRow.value).map((value) => String(value));
      if (header) opened.columns = values;
      else {
        opened.columns = values.map((_, i) => String(i + 1));
        pendingRow = firstRow.value;
      }
    }
    return {
      ...opened,
      async *batches(size, skip, stopped) {
        let values: unknown[][] = [];
        let lines: number[] = [];
        for (;;) {
          if (stopped()) return;
          let row: ExcelJS.Row;
          if (pendingRow) {
            row = pendingRow;
            pendingRow = null;
          } else {
            const next = await nextRow();
            if (next.done) break;
            row = next.value;
          }
          if (skipped < skip) {
            skipped++;
            continue;
          }
          values.push(rowValues(row));
          lines.push(row.number);
          if (values.length >= size) {
            yield { task: { rows: values, lines, firstLine: lines[0] }, count: values.length, bytes: 0 };
            values = [];
            lines = [];
          }
        }
        if (values.length > 0) yield { task: { rows: values, lines, firstLine: lines[0] }, count: values.length, bytes: 0 };
      },
    };
  }

  /** The sample and the input's next chunk (the body, past the BOM, grown with it). */
  const readMore = async (body: Buffer): Promise<Buffer> => {
    const next = await first.rest.next();
    if (next.done) {
      first.ended = true;
      return body;
    }
    first.head = Buffer.concat([first.head, next.value]);
    return first.head.subarray(first.head.length - body.length - next.value.length);
  };
  let body = first.head;
  opened.bom = hasBom(body);
  if (opened.bom) body = body.subarray(3);
  let firstLine = 1;
  if (kind === 'ndjson') {
    while (body.indexOf(0x0a) < 0 && !first.ended) body = await readMore(body);
    const newline = body.indexOf(0x0a);
    try {
      opened.columns = Object.keys(JSON.parse(decodeText(newline < 0 ? body : body.subarray(0, newline), 'utf-8')) as object);
    } catch {
      throw new JobError(`${options.input}: the first line is not a JSON object`);
    }
  } else {
    opened.encoding = options.encoding ?? (opened.bom ? 'utf-8' : sniffEncoding(body, first.ended));
    // a header line longer than the sample: read on to its end
    while (body.indexOf(0x0a) < 0 && !first.ended) body = await readMore(body);
    const newline = body.indexOf(0x0a);
    const firstText = decodeText(newline < 0 ? body : body.subarray(0, newline + 1), opened.encoding);
    opened.delimiter = options.delimiter ?? (extname(options.input).toLowerCase() === '.tsv' ? '\t' : sniffDelimiter(firstText));
    opened.eol = firstText.endsWith('\r\n') ? '\r\n' : '\n';
    // the first record, read on until it is whole (a quoted field may hold line ends)
    const headScanner = new RecordScanner(opened.delimiter.charCodeAt(0));
    let records = headScanner.scan(body, first.ended);
    while (records.length === 0 && !first.ended) {
      body = await readMore(body);
      records = headScanner.scan(body, first.ended);
    }
    if (records.length > 0) {
      const record = body.subarray(0, records[0]);
      const fields = splitRecord(withoutLineEnd(decodeText(record, opened.encoding)), opened.delimiter).fields;
      if (header) {
        opened.columns = fields;
        body = body.subarray(records[0]);
        firstLine += countLines(record);
      } else opened.columns = fields.map((_, i) => String(i + 1));
    }
  }
  opened.headerBytes = first.head.length - body.length;
  const scanner = new RecordScanner(kind === 'ndjson' ? -1 : opened.delimiter.charCodeAt(0));
  return {
    ...opened,
    async *batches(size, skip, stopped) {
      let carry: Buffer = body;
      let line = firstLine;
      let ended = first.ended;
      const chunks = rest();
      for (;;) {
        if (stopped()) return;
        const ends = scanner.scan(carry, ended);
        let start = 0;
        let i = 0;
        let passed = 0;
        for (; i < ends.length && skipped < skip; i++, skipped++) {
          line += countLines(carry.subarray(start, ends[i]));
          passed += ends[i] - start;
          start = ends[i];
        }
        // the rows passed over count as done (progress)
        if (passed > 0) yield { task: { firstLine: line }, count: 0, bytes: passed };
        while (i < ends.length) {
          if (stopped()) return;
          const last = Math.min(ends.length, i + size);
          const bytes = new Uint8Array(carry.subarray(start, ends[last - 1]));
          const batchEnds = ends.slice(i, last).map((end) => end - start);
          const batchLine = line;
          line += countLines(bytes);
          start = ends[last - 1];
          yield { task: { bytes, ends: batchEnds, firstLine: batchLine }, count: last - i, bytes: bytes.length };
          i = last;
        }
        if (ended) return;
        const next = await chunks.next();
        const left = carry.subarray(start);
        if (next.done) {
          ended = true;
          carry = left;
        } else carry = left.length ? Buffer.concat([left, next.value]) : next.value;
      }
    },
  };
}
