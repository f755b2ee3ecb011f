/**
 * `address-service clean` / `geocode` against golden files (test/golden/cli/): each input format in, the output and
 * the exceptions file compared byte for byte with `<name>.out.<ext>` and `<name>.errors.tsv` (regenerate on purpose
 * with UPDATE_GOLDEN=1). The jobs run in this process on the real engine (runJob with `engine`); one run goes through
 * the real command (bin/address-service.js, the worker pool) and must write the same bytes.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAN_FIELDS, GEOCODE_FIELDS } from '../../cli/batch/fields.js';
import { runJob, type JobOptions, type JobSummary } from '../../cli/batch/job.js';
import type { Engine } from '../../engine/types.js';
import { DICTIONARIES_DIR, realEngine } from '../helpers/api.js';

const GOLDEN = resolve('test/golden/cli');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
let engine: Engine;
let work: string;

beforeAll(async () => {
  engine = await realEngine();
  work = mkdtempSync(join(tmpdir(), 'address-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Compares a file written by a job with its golden twin (or writes the twin under UPDATE_GOLDEN=1). */
function golden(written: string, name: string): void {
  const actual = readFileSync(written);
  const file = join(GOLDEN, name);
  if (UPDATE || !existsSync(file)) writeFileSync(file, actual);
  expect(actual.toString('utf8')).toBe(readFileSync(file).toString('utf8'));
}

async function job(name: string, options: Partial<JobOptions> & { output: string }): Promise<JobSummary> {
  return runJob({
    op: 'clean',
    input: join(GOLDEN, name),
    country: 'ru',
    fields: [...CLEAN_FIELDS],
    dictionaries: DICTIONARIES_DIR,
    engine,
    progress: 'off',
    ...options,
    output: join(work, options.output),
    errors: options.errors ? join(work, options.errors) : undefined,
  });
}

describe('clean <input>: golden files', () => {
  it('reads the cp1251 ";" CSV Excel writes: the same rows and columns back (UTF-8 with BOM), bad rows as exceptions', async () => {
    const summary = await job('excel-cp1251.csv', { output: 'excel.csv', errors: 'excel.errors.tsv', fields: ['result', 'postal_code', 'house_fias_id', 'qc', 'qc_geo'] });
    golden(join(work, 'excel.csv'), 'excel-cp1251.out.csv');
    golden(join(work, 'excel.errors.tsv'), 'excel-cp1251.errors.tsv');
    const text = readFileSync(join(work, 'excel.csv'), 'utf8');
    expect(text.startsWith('\ufeffКод;Клиент;Адрес доставки;Примечание;result;')).toBe(true);
    // the quoted note with a line break inside and the quoted address with `;` inside are one row each
    expect(text).toContain('2;ИП Иванов;"г Байконур; ул Гагарина; д 5";"звонить\r\nза час";г Байконур, ул Гагарина, д 5;');
    expect(text.split('\r\n').filter((line) => /^\d;/.test(line))).toHaveLength(6);
    expect(summary).toMatchObject({ rows: 6, exceptions: 2, interrupted: false });
  });

  it('joins several columns into one address (UTF-8 with BOM, default result columns)', async () => {
    await job('utf8-bom.csv', { output: 'utf8.csv', errors: 'utf8.errors.tsv', columns: ['city', 'street', 'house'] });
    golden(join(work, 'utf8.csv'), 'utf8-bom.out.csv');
    const lines = readFileSync(join(work, 'utf8.csv'), 'utf8').split('\n');
    expect(lines[0]).toBe(`\ufeffid,city,street,house,${CLEAN_FIELDS.join(',')}`);
    expect(lines[2]).toMatch(/^2,г\. Байконур,ул\. Гагарина,"5, кв\. 7","г Байконур, ул Гагарина, д 5, кв 7",/);
    expect(readFileSync(join(work, 'utf8.errors.tsv'), 'utf8')).toBe('line\treason\ttext\n4\tempty address\t3,,,\n');
  });

  it('writes every broken row to the exceptions file with its line and reason, and an empty result row', async () => {
    const summary = await job('broken.csv', { output: 'broken.csv', errors: 'broken.errors.tsv', fields: ['result', 'qc'] });
    golden(join(work, 'broken.csv'), 'broken.out.csv');
    golden(join(work, 'broken.errors.tsv'), 'broken.errors.tsv');
    const reasons = readFileSync(join(work, 'broken.errors.tsv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t').slice(0, 2).join(' '));
    expect(reasons).toEqual([
      '2 undecodable bytes: not UTF-8',
      '3 text after a closing quote',
      '4 3 fields where the header has 2',
      '5 empty line',
      '7 1 fields where the header has 2',
      '8 unclosed quote',
    ]);
    // every input record has its output row, in order: the good one (line 6) among them
    const rows = readFileSync(join(work, 'broken.csv'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(8);
    expect(rows[5]).toBe('5,"Байконур, Гагарина 5","г Байконур, ул Гагарина, д 5",0');
    expect(summary.qc).toEqual({ exception: 6, 0: 1 });
  });

  it('reads and writes TSV', async () => {
    await job('list.tsv', { output: 'list.tsv', fields: ['result', 'qc'] });
    golden(join(work, 'list.tsv'), 'list.out.tsv');
  });

  it('reads and writes NDJSON: each object whole, the results after its members; a line that is no object is kept as _input', async () => {
    const summary = await job('list.ndjson', { output: 'list.ndjson', errors: 'list.errors.tsv', columns: ['query'], fields: ['result', 'house_fias_id', 'qc'] });
    golden(join(work, 'list.ndjson'), 'list.out.ndjson');
    const lines = readFileSync(join(work, 'list.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ id: 1, tags: ['a'], result: 'г Екатеринбург, ул Малышева, д 5', qc: 0 });
    expect(lines[2]).toEqual({ _input: 'это не JSON', result: null, house_fias_id: null, qc: null });
    expect(summary.exceptions).toBe(2);
  });

  it('reads an XLSX made by exceljs (the sheet named), writes an XLSX a reader opens with the same cells and the results', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Пусто').addRow(['ничего']);
    const sheet = book.addWorksheet('Клиенты');
    sheet.addRow(['№', 'Город', 'Улица', 'Дом']);
    sheet.addRow([1, 'Екатеринбург', 'Малышева', '5']);
    sheet.addRow([2, 'г Байконур', 'ул Гагарина', 5]);
    sheet.addRow([3, { richText: [{ text: 'Екатерин' }, { text: 'бург' }] }, 'пр-кт Ленина', { formula: '20+4', result: 24 }]);
    sheet.addRow([4, '', '', '']);
    const input = join(work, 'book.xlsx');
    await book.xlsx.writeFile(input);
    const summary = await runJob({
      op: 'clean', input, output: join(work, 'book.out.xlsx'), sheet: 'Клиенты', columns: ['Город', 'Улица', 'Дом'], country: 'ru',
      fields: ['result', 'house', 'qc'], dictionaries: DICTIONARIES_DIR, engine, progress: 'off', errors: join(work, 'book.errors.tsv'),
    });
    expect(summary).toMatchObject({ rows: 4, exceptions: 1, format: 'xlsx' });
    const out = new ExcelJS.Workbook();
    await out.xlsx.readFile(join(work, 'book.out.xlsx'));
    const cells: unknown[][] = [];
    out.worksheets[0].eachRow({ includeEmpty: true }, (row) => cells.push((row.values as unknown[]).slice(1)));
    expect(out.worksheets[0].name).toBe('Клиенты');
    writeFileSync(join(work, 'book.out.json'), `${cells.map((row) => JSON.stringify(row)).join('\n')}\n`);
    golden(join(work, 'book.out.json'), 'book.out.json');
    expect(cells[1]).toEqual([1, 'Екатеринбург', 'Малышева', '5', 'г Екатеринбург, ул Малышева, д 5', '5', 0]);
    expect(readFileSync(join(work, 'book.errors.tsv'), 'utf8')).toContain('5\tempty address');
  });

  it('converts formats on request (CSV in, NDJSON out)', async () => {
    await job('utf8-bom.csv', { output: 'utf8.ndjson', columns: ['city', 'street', 'house'], fields: ['result', 'qc'], format: 'ndjson' });
    const first = JSON.parse(readFileSync(join(work, 'utf8.ndjson'), 'utf8').split('\n')[0]);
    expect(first).toEqual({ id: '1', city: 'Екатеринбург', street: 'Малышева', house: '5', result: 'г Екатеринбург, ул Малышева, д 5', qc: 0 });
  });

  it('refuses an empty input, and a country whose dictionary is not built, before any row', async () => {
    writeFileSync(join(work, 'empty.csv'), '');
    await expect(runJob({ op: 'clean', input: join(work, 'empty.csv'), country: 'ru', fields: ['qc'], dictionaries: DICTIONARIES_DIR, engine, output: join(work, 'e.csv') }))
      .rejects.toThrow(/empty\.csv is empty/);
    await expect(runJob({ op: 'clean', input: join(GOLDEN, 'list.tsv'), country: 'kz', fields: ['qc'], dictionaries: work, output: join(work, 'e.csv') }))
      .rejects.toThrow(/no kz dictionary in .*: build it with `address-service dict build kz`/);
  });

  it('stops with an error when the output cannot be written (a closed pipe), not a crash', async () => {
    const stdout = new Writable({ write(_chunk, _encoding, done) { done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })); } });
    await expect(runJob({ op: 'clean', input: join(GOLDEN, 'list.tsv'), country: 'ru', fields: ['qc'], dictionaries: DICTIONARIES_DIR, engine, stdout, progress: 'off' }))
      .rejects.toThrow('cannot write the output: write EPIPE');
  });

  it('refuses a column the input does not have, naming the columns it has', async () => {
    await expect(job('utf8-bom.csv', { output: 'x.csv', columns: ['addr'] })).rejects.toThrow(/no address column "addr": the columns are 1 "id", 2 "city", 3 "street", 4 "house"/);
  });
});

describe('geocode <input>: golden file', () => {
  it('writes the address at each point (decimal commas read), a point that is no number as an exception', async () => {
    const summary = await job('points.csv', { op: 'geocode', output: 'points.csv', errors: 'points.errors.tsv', fields: [...GEOCODE_FIELDS], level: 'house', radius: 100 });
    golden(join(work, 'points.csv'), 'points.out.csv');
    // `result` (the first default column) is the address found, as the record's other columns say it
    expect(readFileSync(join(work, 'points.csv'), 'utf8').split('\n')[1]).toMatch(/^A;56,7239124;60,5769899;г Екатеринбург, ул Перспективная, д 9;;Свердловская обл;/);
    expect(summary.qc).toEqual({ found: 2, 'not found': 1, exception: 1 });
    expect(summary.exceptions).toBe(1);
    expect(readFileSync(join(work, 'points.errors.tsv'), 'utf8')).toContain('5\tno point: latitude north, longitude 60.6');
  });
});

describe('resuming with --skip', () => {
  it('a stopped job says where to resume; the resumed job appends the rest: the output is the uninterrupted one', async () => {
    const fields = ['result', 'qc'];
    await job('excel-cp1251.csv', { output: 'whole.csv', fields });
    const before = new AbortController();
    before.abort();
    expect(await job('excel-cp1251.csv', { output: 'none.csv', fields, signal: before.signal })).toMatchObject({ interrupted: true, rows: 0, resumeAt: 0 });
    // stopped while the first batch runs: the batches already out are written, no more are read
    const midway = new AbortController();
    const summary = await job('excel-cp1251.csv', {
      output: 'resumed.csv', fields, engine: engineProxy(engine, () => midway.abort()), threads: 1, batchRows: 1, signal: midway.signal,
    });
    expect(summary.interrupted).toBe(true);
    expect(summary.resumeAt).toBe(summary.rows);
    expect(summary.rows).toBeGreaterThan(0);
    expect(summary.rows).toBeLessThan(6);
    const rest = await job('excel-cp1251.csv', { output: 'resumed.csv', fields, skip: summary.resumeAt });
    expect(rest).toMatchObject({ skipped: summary.resumeAt, rows: 6 - summary.resumeAt, interrupted: false });
    expect(readFileSync(join(work, 'resumed.csv'), 'utf8')).toBe(readFileSync(join(work, 'whole.csv'), 'utf8'));
  });
});

/** The engine, calling `onFirst` at its first standardization (a stop arriving while a batch runs). */
function engineProxy(target: Engine, onFirst: () => void): Engine {
  let called = false;
  return new Proxy(target, {
    get(object, key, receiver) {
      if (key === 'standardize') {
        return (...args: Parameters<Engine['standardize']>) => {
          if (!called) {
            called = true;
            onFirst();
          }
          return object.standardize(...args);
        };
      }
      const value = Reflect.get(object, key, receiver);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

describe('progress lines (stderr not a terminal)', () => {
  it('count the rows written and the share of the input they cover, up to 100 %, with the worker pool', async () => {
    let text = '';
    const stderr = new Writable({ write(chunk, _encoding, done) { text += chunk; done(); } });
    const summary = await runJob({
      op: 'clean', input: join(GOLDEN, 'excel-cp1251.csv'), output: join(work, 'progress.csv'), country: 'ru', fields: ['qc'],
      dictionaries: DICTIONARIES_DIR, threads: 1, batchRows: 1, stderr, progress: 'lines', progressEveryMs: 0,
    });
    expect(summary.rows).toBe(6);
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^clean 1 rows \| \d+ rows\/s \| \d+% \| ETA \d+ s$/);
    expect(lines[5]).toMatch(/^clean 6 rows \| \d+ rows\/s \| 100% \| ETA 0 s$/);
  });
});

describe('bin/address-service.js clean (worker pool)', () => {
  it('writes the same bytes as the job in process', async () => {
    const output = join(work, 'bin.csv');
    const errors = join(work, 'bin.errors.tsv');
    const { stderr } = await promisify(execFile)(process.execPath, [
      'bin/address-service.js', 'clean', join(GOLDEN, 'excel-cp1251.csv'), '-o', output, '--errors', errors,
      '--fields', 'result,postal_code,house_fias_id', '--fields', 'qc,qc_geo', '--threads', '2', '--batch', '2', '--dictionaries', DICTIONARIES_DIR,
    ], { timeout: 60_000 });
    expect(readFileSync(output, 'utf8')).toBe(readFileSync(join(GOLDEN, 'excel-cp1251.out.csv'), 'utf8'));
    expect(readFileSync(errors, 'utf8')).toBe(readFileSync(join(GOLDEN, 'excel-cp1251.errors.tsv'), 'utf8'));
    expect(stderr).toMatch(/^clean: 6 rows in [\d.]+ s \(\d+ rows\/s\) → .*bin\.csv\n {2}qc: 0 \(sure\) \d, .*exception \(bad row\) 2/m);
    expect(stderr).toContain('  exceptions: 2 → ');
  });
});
