/**
 * One batch of rows, in and out: decodes and splits each record of the batch (CSV or NDJSON bytes, or the cell values
 * of an XLSX sheet), standardizes its address (or looks up its point), and writes the output rows as the output
 * format's text: CSV/TSV lines, NDJSON lines or the sheet XML of XLSX rows. Runs in the pool's workers (worker.ts),
 * and in process where a test or a small job wants it. A bad row is never an error of the batch: it gets an empty
 * result, a line in `exceptions`, and the batch goes on.
 */
import { isUtf8 } from 'node:buffer';
import type { Country, Dictionary, Engine, GeoLevel, Resolution } from '../../engine/types.js';
import { buildAddressRecord, type AddressRecord } from '../../engine/records/address-record.js';
import { cleanerExtras, DADATA_PLAIN_MEMBERS, dadataAddress, dadataClean, dadataValue, PLAIN_CHARACTER, type DadataAddress } from '../../engine/records/dadata-record.js';
import { resolutionOfFound } from '../../engine/records/resolution.js';
import { standardizeAddress, standardizeParts } from '../../engine/standardize.js';
import { cellText, dadataField, readPath } from './fields.js';
import { countLines, csvField, NEWLINE, splitRecord, withoutLineEnd } from './records.js';
import { decodeCp1251 } from './sniff.js';
import { xlsxRow } from './xlsx-rows.js';

export type InputKind = 'csv' | 'ndjson' | 'rows';
export type OutputFormat = 'csv' | 'tsv' | 'ndjson' | 'xlsx';
export type TextEncoding = 'utf-8' | 'cp1251';

/** What every batch of one job shares. */
export interface BatchSetup {
  op: 'clean' | 'geocode';
  country: Country;
  input: {
    kind: InputKind;
    /** csv: the field delimiter */
    delimiter: string;
    encoding: TextEncoding;
    /** the input's column names (the header's, else `1`, `2`, …; NDJSON: the first object's keys) */
    columns: string[];
    /** csv: the field count every record should have; 0 = any */
    width: number;
  };
  /** clean: the columns (indexes into `input.columns`) joined into the address */
  address: number[];
  /** geocode: the latitude and longitude columns, the level sought and the radius in metres */
  geo?: { lat: number; lon: number; level?: GeoLevel; radius: number };
  fields: string[];
  output: {
    format: OutputFormat;
    delimiter: string;
    eol: string;
    /** csv in and out with one delimiter: a good record's text is copied as it was, results after it */
    rawCopy: boolean;
  };
}

export interface BatchTask {
  seq: number;
  /** csv, ndjson: the bytes of whole records, with `ends` the end of each (exclusive) */
  bytes?: Uint8Array;
  ends?: number[];
  /** csv, ndjson: the line number of the first record */
  firstLine: number;
  /** rows: each row's cell values, and its row number in the sheet */
  rows?: unknown[][];
  lines?: number[];
  /** xlsx output: the sheet row number of the first row written */
  firstOutputRow: number;
}

export interface BatchResult {
  seq: number;
  /** the output rows, UTF-8 (written here, not in the main thread; transferred, not copied) */
  bytes: Uint8Array;
  count: number;
  /** `line<TAB>reason<TAB>text` lines */
  exceptions: string;
  exceptionCount: number;
  /** rows by DaData's qc and qc_geo (`-` for rows without a result) */
  qc: Record<string, number>;
  qcGeo: Record<string, number>;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOSSY_UTF8 = new TextDecoder('utf-8');

/** An exception line's text: one line, at most this many characters. */
const SNIPPET_CHARS = 200;

/** A row read from the input: its values aligned with the columns, and what went wrong with it. */
interface InputRow {
  values: unknown[];
  /** NDJSON: the object as read (written back whole) */
  object?: Record<string, unknown>;
  /** the record's text as read, without its line end (csv, ndjson) */
  text: string;
  error?: string;
}

/** A record's text decoded alone, checked: undecodable bytes are this record's error (a byte order mark at its start is dropped). */
function decodeAlone(bytes: Buffer): { text: string; error?: string } {
  try {
    return { text: STRICT_UTF8.decode(bytes) };
  } catch {
    return { text: LOSSY_UTF8.decode(bytes), error: 'undecodable bytes: not UTF-8' };
  }
}

/**
 * Each record of a batch's bytes as text, with its decoding error and its number of lines. The batch is decoded at
 * once when it can be (cp1251, or UTF-8 the batch is checked to be), and each record is a slice of that text,
 * found by its line ends counted in the bytes and in the text alike (a record ends after a line end, but the
 * batch's last may not; a quoted field may hold line ends of its own). Else each record is decoded alone, so that
 * undecodable bytes are that record's error and never its neighbours'. As TextDecoder does, a byte order mark at
 * a record's start is dropped.
 */
export function eachRecord(bytes: Buffer, ends: readonly number[], encoding: TextEncoding, visit: (text: string, error: string | undefined, lines: number) => void): void {
  const whole = encoding === 'cp1251' ? decodeCp1251(bytes) : isUtf8(bytes) ? bytes.toString('utf8') : null;
  let start = 0;
  if (whole === null) {
    for (const end of ends) {
      const record = bytes.subarray(start, end);
      const decoded = decodeAlone(record);
      visit(decoded.text, decoded.error, countLines(record));
      start = end;
    }
    return;
  }
  let newline = bytes.indexOf(NEWLINE);
  for (const end of ends) {
    let lines = 0;
    let to = start;
    while (newline >= 0 && newline < end) {
      lines++;
      to = whole.indexOf('\n', to) + 1;
      newline = bytes.indexOf(NEWLINE, newline + 1);
    }
    if (bytes[end - 1] !== NEWLINE) to = whole.length;
    const text = whole.slice(start, to);
    visit(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, undefined, lines);
    start = to;
  }
}

function readCsv(setup: BatchSetup, record: string, decodeError: string | undefined): InputRow {
  const text = withoutLineEnd(record);
  const split = splitRecord(text, setup.input.delimiter);
  const width = setup.input.width;
  const error = decodeError ?? split.error ?? (text === '' ? 'empty line' : width > 0 && split.fields.length !== width ? `${split.fields.length} fields where the header has ${width}` : undefined);
  return { values: split.fields, text, error };
}

function readNdjson(setup: BatchSetup, line: string, decodeError: string | undefined): InputRow {
  const text = withoutLineEnd(line);
  if (decodeError) return { values: [], text, error: decodeError };
  let object: unknown;
  try {
    object = JSON.parse(text);
  } catch {
    return { values: [], text, error: text.trim() === '' ? 'empty line' : 'not JSON' };
  }
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return { values: [], text, error: 'not a JSON object' };
  const record = object as Record<string, unknown>;
  return { values: setup.input.columns.map((column) => record[column]), object: record, text };
}

/** The row's result (our record only when a result column reads it), or the reason it has none. */
type Outcome = { record: AddressRecord | null; dadata: DadataAddress } | { error: string } | { notFound: true };

/** A character that is not white space (as `trim` sees it): its absence is an empty address, tested without a trimmed copy. */
const NOT_BLANK = /\S/;

/** Whether a result column shows the metro stations (`metro`: DaData's list, or our record's when no DaData field is asked). */
const withMetro = (setup: BatchSetup): boolean => setup.fields.includes('metro');

/** `56,8` as well as `56.8` (spreadsheets in Russian write decimal commas). */
function coordinate(value: unknown): number {
  if (typeof value === 'number') return value;
  const text = cellText(value).trim().replace(',', '.');
  return text === '' || !/^[-+]?\d+(\.\d*)?$/.test(text) ? NaN : Number(text);
}

/** The address of a clean row: one column as written (what POST /clean/address would be sent); several joined, trimmed. */
function addressOf(setup: BatchSetup, row: InputRow): string {
  if (setup.address.length === 1) return cellText(row.values[setup.address[0]]);
  let address = '';
  for (const column of setup.address) {
    const part = cellText(row.values[column]).trim();
    if (part !== '') address = address === '' ? part : `${address}, ${part}`;
  }
  return address;
}

/** The nearest object of a geocode row's point. */
function geocodeResult(engine: Engine, setup: BatchSetup, dictionary: Dictionary, row: InputRow): Outcome {
  const geo = setup.geo!;
  const lat = coordinate(row.values[geo.lat]);
  const lon = coordinate(row.values[geo.lon]);
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) return { error: `no point: latitude ${cellText(row.values[geo.lat]) || '(empty)'}, longitude ${cellText(row.values[geo.lon]) || '(empty)'}` };
  const hit = engine.nearest(setup.country, lat, lon, geo.level, geo.radius);
  if (!hit) return { notFound: true };
  const record = buildAddressRecord(resolutionOfFound(dictionary, hit.found), dictionary, { method: 'geosearch', original: '' });
  const dadata = dadataAddress(record);
  // DaData's geolocate leaves the cleaner's `result` empty: a file's `result` column is the address found
  dadata.result = dadataValue(dadata);
  return { record, dadata };
}

/**
 * A clean row's records from the engine's reading of its address: the record DaData's cleaner answers (POST
 * /api/v1/clean/address with an array: the same mapping), the metro stations looked up only when a result column
 * shows them; our record (POST /clean/address) only when one reads it.
 */
function cleanResult(engine: Engine, setup: BatchSetup, dictionary: Dictionary, metro: boolean, withRecord: boolean, address: string, resolution: Resolution): Outcome {
  if (!withRecord) {
    const { parts, objects } = standardizeParts(engine, setup.country, dictionary, address, { metro, resolution });
    return { record: null, dadata: dadataClean(parts, cleanerExtras(objects, address)) };
  }
  const { record, objects } = standardizeAddress(engine, setup.country, dictionary, address, { metro, resolution });
  return { record, dadata: dadataAddress(record, cleanerExtras(objects, address)) };
}

/** A result column's reader: a member of DaData's record, or a path into our record. */
type ColumnReader = (found: { record: AddressRecord | null; dadata: DadataAddress }) => unknown;

/** A member of DaData's record read in generated code: a plain identifier, one of DADATA_ADDRESS_FIELDS. */
function memberName(member: keyof DadataAddress): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(member)) throw new Error(`not a member of DaData's record: ${JSON.stringify(member)}`);
  return member;
}

/**
 * A reader of DaData's member `member`: a function of its own, made once per job, whose one member read V8 keeps
 * monomorphic (every record has the one shape of `dadataRecord`'s literal). A member read by name from a list
 * (`dadata[field]`) is a keyed read of many names at one place, V8's slowest kind: ≈3 % of a row's CPU for the
 * default columns.
 */
function memberReader(member: keyof DadataAddress): ColumnReader {
  return new Function('found', `return found.dadata.${memberName(member)};`) as ColumnReader;
}

/** The result columns of a CSV or TSV line, each after the delimiter, from the row's result. */
type ResultsText = (found: { record: AddressRecord | null; dadata: DadataAddress }) => string;

/**
 * The result columns' text as one function made for the job's columns: one expression of member reads and fields
 * (`,` + csvField(found.dadata.result) + `,` + …), no list of values and no call through a list of readers between
 * (this runs for every row of most files). A column of our record is read by its path reader. A plain member of
 * DaData's record (a number or a fixed word: DADATA_PLAIN_MEMBERS) is written as it is, without looking for what
 * would need quotes, unless the delimiter is a character such text may hold.
 */
function resultsText(members: (keyof DadataAddress | null)[], readers: ColumnReader[], delimiter: string): ResultsText {
  const field = (value: unknown): string =>
    value === null || value === undefined ? '' : csvField(typeof value === 'string' ? value : cellText(value), delimiter);
  // a number's text as cellText writes it (String(value)), and nothing for null
  const plain = (value: string | number | null | undefined): string | number => (value === null || value === undefined ? '' : value);
  const plainSafe = !PLAIN_CHARACTER.test(delimiter);
  const terms = members.map((member, i) => {
    if (member === null) return `field(readers[${i}](found))`;
    return plainSafe && DADATA_PLAIN_MEMBERS.has(member) ? `plain(found.dadata.${memberName(member)})` : `field(found.dadata.${memberName(member)})`;
  });
  const body = terms.length === 0 ? 'return "";' : `return delimiter + ${terms.join(' + delimiter + ')};`;
  return new Function('field', 'plain', 'readers', 'delimiter', `return (found) => { ${body} };`)(field, plain, readers, delimiter) as ResultsText;
}

/** Writes rows in the output format. */
export class RowWriter {
  /** each result column's reader */
  private readonly readers: ColumnReader[];
  /** whether a result column reads our record (else only DaData's is made) */
  readonly withRecord: boolean;
  /** csv, tsv: the result columns' text of a row with a result, and of one without */
  private readonly resultsText: ResultsText;
  private readonly noResults: string;

  constructor(private readonly setup: BatchSetup) {
    const members = setup.fields.map(dadataField);
    this.readers = setup.fields.map((field, i) => {
      const member = members[i];
      if (member !== null) return memberReader(member);
      const path = field.split('.');
      return (found) => readPath(found.record, path);
    });
    this.withRecord = members.some((member) => member === null);
    this.resultsText = resultsText(members, this.readers, setup.output.delimiter);
    this.noResults = setup.output.delimiter.repeat(setup.fields.length);
  }

  /** The header row: the input's columns, then the result fields. */
  header(): string {
    return this.line({ values: this.setup.input.columns, text: '' }, this.setup.fields, 1, true);
  }

  results(outcome: Outcome | null): unknown[] {
    const readers = this.readers;
    const values = new Array<unknown>(readers.length);
    const found = outcome && 'dadata' in outcome ? outcome : null;
    // a plain loop of member reads: this runs for every row
    for (let i = 0; i < readers.length; i++) values[i] = found === null ? null : readers[i](found);
    return values;
  }

  /** A row's output line: its cells, then the outcome's result columns (empty when there is none). */
  row(row: InputRow, outcome: Outcome | null, rowNumber: number): string {
    const format = this.setup.output.format;
    if (format === 'csv' || format === 'tsv') return this.csvLine(row, outcome && 'dadata' in outcome ? outcome : null);
    return this.line(row, this.results(outcome), rowNumber);
  }

  /** A CSV or TSV line: what `line` writes of `results(outcome)`, read straight from the record. */
  private csvLine(row: InputRow, found: { record: AddressRecord | null; dadata: DadataAddress } | null): string {
    return this.inputText(row, false) + (found === null ? this.noResults : this.resultsText(found)) + this.setup.output.eol;
  }

  /** The input's part of a CSV or TSV line: a good record as read (`rawCopy`), else its cells written anew. */
  private inputText(row: InputRow, header: boolean): string {
    const { output } = this.setup;
    if (output.rawCopy && !row.error && !header && !row.object) return row.text;
    const delimiter = output.delimiter;
    const cells = this.cells(row, header);
    let text = '';
    for (let i = 0; i < cells.length; i++) text += i === 0 ? csvField(cellText(cells[i]), delimiter) : delimiter + csvField(cellText(cells[i]), delimiter);
    return text;
  }

  line(row: InputRow, results: unknown[], rowNumber: number, header = false): string {
    const { output, input } = this.setup;
    switch (output.format) {
      case 'ndjson': {
        const object: Record<string, unknown> = row.object ? { ...row.object } : {};
        if (!row.object && input.kind === 'ndjson' && !header) object._input = row.text; // a line that is not an object, as read
        else if (!row.object) input.columns.forEach((column, i) => (object[column] = row.values[i] ?? null));
        this.setup.fields.forEach((field, i) => (object[field] = results[i] ?? null));
        return `${JSON.stringify(object)}\n`;
      }
      case 'xlsx':
        return xlsxRow(rowNumber, this.cells(row, header), results);
      default: {
        const delimiter = output.delimiter;
        let text = this.inputText(row, header);
        for (const value of results) text += delimiter + csvField(cellText(value), delimiter);
        return text + output.eol;
      }
    }
  }

  /** The input cells of a row, as many as the columns (a short row padded; a long one kept whole). */
  private cells(row: InputRow, header: boolean): unknown[] {
    const width = this.setup.input.columns.length;
    if (header || row.object) return row.object ? this.setup.input.columns.map((column) => row.object![column]) : row.values;
    if (row.values.length >= width) return row.values;
    return [...row.values, ...new Array<string>(width - row.values.length).fill('')];
  }
}

/**
 * The output of a batch as UTF-8 bytes, each line encoded as it is made: no string of the whole batch lives on
 * through the batch's collections (it would be promoted and collected as old space). The lines go into one buffer
 * per thread, kept from batch to batch (grown, never shrunk), and `bytes()` copies them out once into a buffer of
 * their own size, which the worker hands over to the main thread without a copy.
 */
class ByteSink {
  private static scratch = Buffer.allocUnsafeSlow(1 << 20);
  length = 0;

  write(text: string): void {
    let buffer = ByteSink.scratch;
    if (this.length + text.length * 3 > buffer.length) {
      const next = Buffer.allocUnsafeSlow(Math.max(buffer.length * 2, this.length + text.length * 3));
      buffer.copy(next, 0, 0, this.length);
      ByteSink.scratch = buffer = next;
    }
    this.length += buffer.write(text, this.length);
  }

  bytes(): Uint8Array {
    const bytes = new Uint8Array(this.length);
    bytes.set(ByteSink.scratch.subarray(0, this.length));
    return bytes;
  }
}

/**
 * Rows counted by a value, kept by the value itself (no text made for each row's count), as text only at the end
 * (values with one text, `0` and `'0'`, counted together).
 */
class Tally {
  private readonly counts = new Map<unknown, number>();

  add(value: unknown): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
  }

  byText(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [value, count] of this.counts) out[String(value)] = (out[String(value)] ?? 0) + count;
    return out;
  }
}

const engineError = (err: unknown): Outcome => ({ error: `engine error: ${err instanceof Error ? err.message : String(err)}` });

/**
 * One batch: every row read, resolved and written, a phase at a time over the whole batch: its records read, then
 * the engine's readings of its addresses (the core's code and tables stay in the caches through the run of them, not
 * evicted by the records' code between two rows: 9–11 % less CPU a row in paired two-worker jobs of a million rows,
 * ≈4 % in one thread), then each row's records and output line.
 */
export function runBatch(engine: Engine, setup: BatchSetup, task: BatchTask, writer = new RowWriter(setup)): BatchResult {
  const rows: InputRow[] = [];
  const lines: number[] = [];
  if (task.rows) {
    task.rows.forEach((values, i) => {
      rows.push({ values, text: '' });
      lines.push(task.lines?.[i] ?? task.firstLine + i);
    });
  } else if (task.bytes && task.ends) {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    const ndjson = setup.input.kind === 'ndjson';
    let line = task.firstLine;
    eachRecord(bytes, task.ends, ndjson ? 'utf-8' : setup.input.encoding, (text, decodeError, count) => {
      rows.push(ndjson ? readNdjson(setup, text, decodeError) : readCsv(setup, text, decodeError));
      lines.push(line);
      line += count;
    });
  }

  const dictionary = engine.dictionary(setup.country)!;
  const outcomes = new Array<Outcome | null>(rows.length).fill(null);
  // clean: each address and its reading (an outcome where there is none to read)
  const addresses = new Array<string>(rows.length).fill('');
  const readings = new Array<Resolution | null>(rows.length).fill(null);
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].error !== undefined) continue;
    if (setup.op === 'geocode') {
      try {
        outcomes[i] = geocodeResult(engine, setup, dictionary, rows[i]);
      } catch (err) {
        outcomes[i] = engineError(err);
      }
      continue;
    }
    const address = (addresses[i] = addressOf(setup, rows[i]));
    if (!NOT_BLANK.test(address)) outcomes[i] = { error: 'empty address' };
    else {
      try {
        readings[i] = engine.standardize(setup.country, address);
      } catch (err) {
        outcomes[i] = engineError(err);
      }
    }
  }

  const qc = new Tally();
  const qcGeo = new Tally();
  const out = new ByteSink();
  let exceptions = '';
  let exceptionCount = 0;
  const metro = withMetro(setup);
  const withRecord = writer.withRecord || setup.op === 'geocode';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    let outcome = outcomes[i];
    const reading = readings[i];
    if (reading !== null) {
      try {
        outcome = cleanResult(engine, setup, dictionary, metro, withRecord, addresses[i], reading);
      } catch (err) {
        outcome = engineError(err);
      }
    }
    const error = row.error ?? (outcome && 'error' in outcome ? outcome.error : undefined);
    if (error !== undefined) {
      exceptionCount++;
      const snippet = (row.text || row.values.map(cellText).join(' ')).replace(/[\t\r\n]+/g, ' ').slice(0, SNIPPET_CHARS);
      exceptions += `${lines[i]}\t${error}\t${snippet}\n`;
    }
    const found = outcome && 'dadata' in outcome ? outcome.dadata : null;
    // geocode has no qc (DaData's geolocate gives none): its rows are counted as found or not
    qc.add(found ? (setup.op === 'geocode' ? 'found' : found.qc) : error !== undefined ? 'exception' : 'not found');
    qcGeo.add(found ? found.qc_geo : '-');
    out.write(writer.row(row, outcome, task.firstOutputRow + i));
  }
  return { seq: task.seq, bytes: out.bytes(), count: rows.length, exceptions, exceptionCount, qc: qc.byText(), qcGeo: qcGeo.byText() };
}
