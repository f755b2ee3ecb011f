/**
 * eachRecord (cli/batch/batch.ts): a batch decoded at once gives each record the text, the error and the line count
 * that decoding the record alone gives (TextDecoder, which drops a byte order mark at its start), in UTF-8 and cp1251,
 * with line ends inside quoted fields, CRLF, and a last record without a line end; a batch with undecodable bytes
 * is read record by record, the bad record alone getting the error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachRecord } from '../../../../cli/batch/batch.js';
import { countLines, csvField, RecordScanner } from '../../../../cli/batch/records.js';

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
