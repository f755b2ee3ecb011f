/**
 * eachRecord (cli/batch/batch.ts): a batch decoded at once gives each record the text, the error and the line count
 * that decoding the record alone gives (TextDecoder, which drops a byte order mark at its start), in UTF-8 and cp1251,
 * with line ends inside quoted fields, CRLF, and a last record without a line end; a batch with undecodable bytes
 * is read record by record, the bad record alone getting the error. RowWriter (the same file): a CSV line's result
 * columns, written by the expression made for the job's columns, are what quoting each value by csvField gives,
 * whatever the delimiter, on real records (the engine over build/dictionaries).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachRecord, RowWriter, type BatchSetup } from '../../../../cli/batch/batch.js';
import { CLEAN_FIELDS } from '../../../../cli/batch/fields.js';
import { countLines, csvField, RecordScanner } from '../../../../cli/batch/records.js';
import { cleanerExtras, DADATA_ADDRESS_FIELDS, DADATA_PLAIN_MEMBERS, dadataClean } from '../../../../engine/records/dadata-record.js';
import { standardizeParts } from '../../../../engine/standardize.js';
import { realEngine } from '../../../helpers/api.js';

const UTF8 = new TextDecoder('utf-8');
const CP1251 = new TextDecoder('windows-1251');

/** cp1251 bytes of text in ASCII and Russian letters (А…я, Ё, ё): the letters are the code page's own */
function cp1251(text: string): Buffer {
  return Buffer.from([...text].map((char) => {
    const code = char.charCodeAt(0);
    if (code < 0x80) return code;
    if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
    if (char === 'Ё') return 0xa8;
    if (char === 'ё') return 0xb8;
    throw new Error(`not in the test's alphabet: ${char}`);
  }));
}

/** What eachRecord visits, in order. */
function visited(bytes: Buffer, encoding: 'utf-8' | 'cp1251'): { text: string; error?: string; lines: number }[] {
  const ends = new RecordScanner(0x2c).scan(bytes, true);
  const out: { text: string; error?: string; lines: number }[] = [];
  eachRecord(bytes, ends, encoding, (text, error, lines) => out.push(error === undefined ? { text, lines } : { text, error, lines }));
  return out;
}

/** The same, each record decoded alone. */
function alone(bytes: Buffer, encoding: 'utf-8' | 'cp1251'): { text: string; lines: number }[] {
  const ends = new RecordScanner(0x2c).scan(bytes, true);
  let start = 0;
  return ends.map((end) => {
    const record = bytes.subarray(start, end);
    start = end;
    return { text: (encoding === 'cp1251' ? CP1251 : UTF8).decode(record), lines: countLines(record) };
  });
}

const field = fc.string({ unit: fc.constantFrom('а', 'Ё', 'b', ' ', '"', ',', '\n', '\r\n', '5', 'я') });
const csv = fc
  .tuple(fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), fc.boolean())
  .map(([rows, crlf, lastEnded, bom]) => {
    const text = rows.map((row) => row.map((value) => csvField(value, ',')).join(',')).join(crlf ? '\r\n' : '\n');
    return { text: (bom ? '\ufeff' : '') + text + (lastEnded ? '\n' : ''), bom };
  });

describe('eachRecord(bytes, ends, encoding, visit)', () => {
  it('gives each record of a UTF-8 batch the text and lines it has decoded alone', () => {
    fc.assert(fc.property(csv, ({ text }) => {
      const bytes = Buffer.from(text);
      expect(visited(bytes, 'utf-8')).toEqual(alone(bytes, 'utf-8'));
    }), { numRuns: 1000 });
  });

  it('gives each record of a cp1251 batch the text and lines it has decoded alone', () => {
    fc.assert(fc.property(csv.filter(({ bom }) => !bom), ({ text }) => {
      const bytes = cp1251(text);
      expect(visited(bytes, 'cp1251')).toEqual(alone(bytes, 'cp1251'));
    }), { numRuns: 1000 });
  });

  it('reads a batch with undecodable bytes record by record: the bad record alone has the error', () => {
    const bytes = Buffer.concat([Buffer.from('1,москва\n2,'), Buffer.from([0xff, 0xfe]), Buffer.from('тверская\n3,"a\nb"\n4,c')]);
    expect(visited(bytes, 'utf-8')).toEqual([
      { text: '1,москва\n', lines: 1 },
      { text: '2,\ufffd\ufffdтверская\n', error: 'undecodable bytes: not UTF-8', lines: 1 },
      { text: '3,"a\nb"\n', lines: 2 },
      { text: '4,c', lines: 0 },
    ]);
  });
});

describe('RowWriter: the result columns of a CSV line', () => {
  const ADDRESSES = [
    'екатеринбург вокзальная 15 кв 3', 'г Москва, ул Тверская, д 7, стр 1', 'москва спартаковская 10с12', 'г Байконур, ул Гагарина, д. 5',
    'свердловская', 'ааааа ббббб', '"кавычки", и; разделители|\t', 'Санкт-Петербург Невский 28 лит А',
  ];
  // the delimiters a file has, and ones a plain member's text may hold (`.`, `-`, a digit, a letter)
  const DELIMITERS = [',', ';', '\t', '|', '.', '-', '+', '1', 'д', 'e'];

  it('writes what csvField writes of each value, for every delimiter (the default columns and every DaData field)', async () => {
    const engine = await realEngine();
    const dictionary = engine.dictionary('ru')!;
    const found = ADDRESSES.map((address) => {
      const { parts, objects } = standardizeParts(engine, 'ru', dictionary, address, { metro: false });
      return { record: null, dadata: dadataClean(parts, cleanerExtras(objects, address)) };
    });
    for (const delimiter of DELIMITERS) {
      for (const fields of [[...CLEAN_FIELDS], [...DADATA_ADDRESS_FIELDS].filter((field) => field !== 'metro' && field !== 'divisions' && field !== 'history_values')]) {
        const setup: BatchSetup = {
          op: 'clean', country: 'ru', input: { kind: 'csv', delimiter, encoding: 'utf-8', columns: ['address'], width: 1 }, address: [0], fields,
          output: { format: 'csv', delimiter, eol: '\n', rawCopy: false },
        };
        const writer = new RowWriter(setup);
        found.forEach((outcome, i) => {
          const row = { values: [ADDRESSES[i]], text: ADDRESSES[i] };
          const expected = csvField(ADDRESSES[i], delimiter) + fields.map((field) => {
            const value = outcome.dadata[field as keyof typeof outcome.dadata];
            return delimiter + (value === null ? '' : csvField(String(value), delimiter));
          }).join('') + '\n';
          expect(writer.row(row, outcome, i + 2), `${JSON.stringify(delimiter)} ${ADDRESSES[i]}`).toBe(expected);
        });
      }
    }
  });

  it('finds only letters, digits, `.`, `+` and `-` in the plain members of real records', async () => {
    const engine = await realEngine();
    const dictionary = engine.dictionary('ru')!;
    for (const address of ADDRESSES) {
      const { parts, objects } = standardizeParts(engine, 'ru', dictionary, address, { metro: false });
      const data = dadataClean(parts, cleanerExtras(objects, address));
      for (const member of DADATA_PLAIN_MEMBERS) {
        const value = data[member];
        if (value !== null) expect(String(value), `${address}: ${member}`).toMatch(/^[\p{L}\p{N}.+-]+$/u);
      }
    }
  });
});
