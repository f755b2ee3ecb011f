/**
 * `address-service clean` / `geocode` given what a user should not give them: each is refused with one line that says
 * what is wrong and a non-zero exit (2: the job could not start), never a stack trace, a hang or a silent success.
 * Through the real command (bin/address-service.js) where the exit code and stderr are the point; else runJob on the
 * real engine.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICTIONARIES_DIR } from '../helpers/api.js';

const GOLDEN = resolve('test/golden/cli');
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'address-cli-bad-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The command's exit code, stdout and stderr. */
async function command(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/address-service.js', ...args, '--dictionaries', DICTIONARIES_DIR], { timeout: 30_000, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string; killed?: boolean };
    if (failed.killed) throw new Error(`address-service ${args.join(' ')} did not end`);
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('address-service clean: options refused', () => {
  it('an unknown --fields name: one line naming it, exit 2, no stack trace', async () => {
    const { code, stdout, stderr } = await command('clean', join(GOLDEN, 'list.tsv'), '--fields', 'result,bogus');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^clean: unknown field bogus: use DaData's names/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('address-service clean: options refused (2)', () => {
  it('--batch 0 is refused, exit 2, instead of a job that never ends', async () => {
    const { code, stderr } = await command('clean', join(GOLDEN, 'list.tsv'), '--fields', 'qc', '--batch', '0');
    expect(code).toBe(2);
    expect(stderr).toBe('clean: --batch is the rows sent to a worker at once: at least 1, not 0\n');
  });
});

describe('address-service clean: inputs refused', () => {
  it('-o or --errors in a folder that is not there: refused before anything is written, exit 2', async () => {
    const missing = join(work, 'no-such-folder');
    const output = await command('clean', join(GOLDEN, 'list.tsv'), '--fields', 'qc', '-o', join(missing, 'out.csv'));
    expect(output.code).toBe(2);
    expect(output.stderr).toBe(`clean: -o ${join(missing, 'out.csv')}: there is no folder ${missing}\n`);
    const errors = await command('clean', join(GOLDEN, 'list.tsv'), '--fields', 'qc', '--errors', join(missing, 'bad.tsv'));
    expect(errors.code).toBe(2);
    expect(errors.stdout).toBe('');
    expect(errors.stderr).toBe(`clean: --errors ${join(missing, 'bad.tsv')}: there is no folder ${missing}\n`);
    const folder = await command('clean', join(GOLDEN, 'list.tsv'), '--fields', 'qc', '-o', work);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(`clean: -o ${work} is a folder: name a file in it\n`);
  });

  it('a folder as the input: named as a folder, exit 2', async () => {
    const { code, stderr } = await command('clean', work, '--fields', 'qc');
    expect(code).toBe(2);
    expect(stderr).toBe(`clean: ${work} is a folder: name a file in it\n`);
  });
});

describe('address-service clean: binary input refused', () => {
  it('binary bytes, or text in UTF-16 without its byte order mark, are refused as not text, exit 2, not cleaned as rows of garbage', async () => {
    const binary = join(work, 'binary.csv');
    writeFileSync(binary, Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37 + 11) % 256)));
    const utf16 = join(work, 'utf16.csv');
    writeFileSync(utf16, Buffer.from('id;address\n1;г Екатеринбург, ул Малышева, д 5\n', 'utf16le'));
    for (const input of [binary, utf16]) {
      const { code, stdout, stderr } = await command('clean', input, '--fields', 'qc');
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(`clean: ${input} is not text (it has NUL bytes): give a CSV, TSV or NDJSON file in UTF-8 or cp1251, or an XLSX file\n`);
    }
  });
});

describe('address-service clean: UTF-16 with its byte order mark', () => {
  it('is read as the same text in UTF-8 is (Excel\'s "Unicode text": tab-separated, CRLF), little- and big-endian', async () => {
    const text = 'id\taddress\r\n1\tг Екатеринбург, ул Малышева, д 5\r\n2\tмосква спартаковская 10с12 ёлка 😀\r\n';
    const utf8 = join(work, 'unicode-utf8.txt');
    writeFileSync(utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    const le = join(work, 'unicode-le.txt');
    writeFileSync(le, Buffer.from(`\ufeff${text}`, 'utf16le'));
    const be = join(work, 'unicode-be.txt');
    writeFileSync(be, Buffer.from(`\ufeff${text}`, 'utf16le').swap16());
    const expected = await command('clean', utf8, '--fields', 'result,qc', '-o', join(work, 'unicode-utf8.out.tsv'));
    expect(expected.code).toBe(0);
    const want = readFileSync(join(work, 'unicode-utf8.out.tsv'));
    expect(want.toString('utf8')).toContain('г Екатеринбург, ул Малышева');
    for (const input of [le, be]) {
      const out = `${input}.out.tsv`;
      const run = await command('clean', input, '--fields', 'result,qc', '-o', out);
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(out)).toEqual(want);
    }
  });
});

describe('address-service clean: outputs refused', () => {
  it('-o or --errors naming the input: refused before the input is touched, exit 2', async () => {
    const input = join(work, 'same.csv');
    const rows = ['id;address', ...Array.from({ length: 30_000 }, (_, i) => `${i};г Екатеринбург, ул Малышева, д ${(i % 120) + 1}`)].join('\n') + '\n';
    writeFileSync(input, rows);
    const output = await command('clean', input, '-o', input, '--fields', 'qc');
    expect(output.code).toBe(2);
    expect(output.stderr).toBe(`clean: -o ${input} is the input file: write the output to another file\n`);
    const errors = await command('clean', input, '-o', join(work, 'same.out.csv'), '--errors', input, '--fields', 'qc');
    expect(errors.code).toBe(2);
    expect(errors.stderr).toBe(`clean: --errors ${input} is the input file: write the exceptions to another file\n`);
    expect(readFileSync(input, 'utf8')).toBe(rows);
  });
});

describe('address-service clean: XLSX cut short', () => {
  it('a truncated XLSX is named as not whole, exit non-zero, not a bare FILE_ENDED', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Адреса');
    sheet.addRow(['id', 'address']);
    for (let i = 0; i < 2000; i++) sheet.addRow([i, `г Екатеринбург, ул Малышева, д ${(i % 100) + 1}, кв ${i}`]);
    const whole = Buffer.from(await book.xlsx.writeBuffer());
    for (const size of [100, Math.floor(whole.length / 2)]) {
      const input = join(work, `cut-${size}.xlsx`);
      writeFileSync(input, whole.subarray(0, size));
      const { code, stderr } = await command('clean', input, '--fields', 'qc', '-o', join(work, `cut-${size}.out.xlsx`));
      expect(code).not.toBe(0);
      expect(stderr).toMatch(new RegExp(`^clean: ${input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a whole XLSX file \\(FILE_ENDED\\): it may be cut short or damaged`));
    }
  });
});

describe('address-service clean: a header line longer than the sample read to sniff the file', () => {
  it('a CSV header of 3 MB (past the first read) is read whole: its columns named, the rows after it cleaned', async () => {
    const input = join(work, 'wide.csv');
    const wide = 'x'.repeat(3_000_000);
    writeFileSync(input, `address;${wide}\nг Екатеринбург, ул Малышева, д 5;1\n`);
    const { code, stdout } = await command('clean', input, '--fields', 'result');
    expect(code).toBe(0);
    expect(stdout).toBe(`address;${wide};result\nг Екатеринбург, ул Малышева, д 5;1;г Екатеринбург, ул Малышева, д 5\n`);
  });
});
