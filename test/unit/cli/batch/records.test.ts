/** RecordScanner and splitRecord (cli/batch/records.ts): records cut where CSV says, however the bytes arrive. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, RecordScanner, splitRecord } from '../../../../cli/batch/records.js';

/** Scans `text` fed in pieces of the given sizes, as the job does (an incomplete tail scanned again with the next bytes). */
function recordsOf(text: string, delimiter: string, pieces: number[]): string[] {
  const bytes = Buffer.from(text);
  const scanner = new RecordScanner(delimiter.charCodeAt(0));
  const records: string[] = [];
  let carry = Buffer.alloc(0);
  let at = 0;
  for (let p = 0; at < bytes.length || p === 0; p++) {
    const size = pieces[p % pieces.length] || 1;
    const next = bytes.subarray(at, at + size);
    at += size;
    const buffer = Buffer.concat([carry, next]);
    const final = at >= bytes.length;
    const ends = scanner.scan(buffer, final);
    let start = 0;
    for (const end of ends) {
      records.push(buffer.subarray(start, end).toString());
      start = end;
    }
    carry = buffer.subarray(start);
    if (final) break;
  }
  return records;
}

describe('RecordScanner.scan(bytes, final)', () => {
  it('ends a record at a newline outside quotes, not inside a quoted field', () => {
    expect(recordsOf('a;"b\r\nc";d\r\ne;f\r\n', ';', [1000])).toEqual(['a;"b\r\nc";d\r\n', 'e;f\r\n']);
  });

  it('reads a quote inside an unquoted field as a character', () => {
    expect(recordsOf('1,ул "Ленина 5\n2,x\n', ',', [1000])).toEqual(['1,ул "Ленина 5\n', '2,x\n']);
  });

  it('ends a record whose quote never closes at its first newline (at the end of the input)', () => {
    expect(recordsOf('1,"open\n2,x\n', ',', [1000])).toEqual(['1,"open\n', '2,x\n']);
  });

  it('keeps the last record without a newline', () => {
    expect(recordsOf('a\nb', ',', [1000])).toEqual(['a\n', 'b']);
  });

  it('finds the same records whatever pieces the bytes come in', () => {
    const field = fc.oneof(fc.string({ unit: fc.constantFrom('а', 'b', ' ', '"', ',', '\n', '5') }), fc.constant(''));
    const csv = fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 })
      .map((rows) => rows.map((row) => row.map((value) => csvField(value, ',')).join(',')).join('\n') + '\n');
    fc.assert(fc.property(csv, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }), (text, pieces) => {
      expect(recordsOf(text, ',', pieces)).toEqual(recordsOf(text, ',', [text.length * 4]));
    }));
  });
});

describe('splitRecord(text, delimiter)', () => {
  it('reads quoted fields with delimiters, doubled quotes and line breaks', () => {
    expect(splitRecord('1;"a; ""b""";"x\r\ny";', ';')).toEqual({ fields: ['1', 'a; "b"', 'x\r\ny', ''] });
  });

  it('reports an unclosed quote and text after a closing quote', () => {
    expect(splitRecord('1,"abc', ',').error).toBe('unclosed quote');
    expect(splitRecord('1,"abc" d,2', ',')).toEqual({ fields: ['1', 'abc d', '2'], error: 'text after a closing quote' });
  });

  it('reads back what csvField wrote', () => {
    fc.assert(fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), fc.constantFrom(',', ';', '\t', '|', '.', '\\', '^', ']', '-'), (values, delimiter) => {
      expect(splitRecord(values.map((value) => csvField(value, delimiter)).join(delimiter), delimiter)).toEqual({ fields: values });
    }));
  });
});

describe('csvField(value, delimiter)', () => {
  it('quotes exactly a field with the delimiter, a quote, a line break or a space at either end, doubling its quotes', () => {
    const text = fc.string({ unit: fc.constantFrom('а', 'b', ' ', '"', ',', ';', '|', '.', '\\', '^', '\n', '\r', '\t', '5') });
    fc.assert(fc.property(text, fc.constantFrom(',', ';', '\t', '|', '.', '\\', '^', '||'), (value, delimiter) => {
      const quoted = value.includes(delimiter) || /["\r\n]/.test(value) || value.startsWith(' ') || value.endsWith(' ');
      expect(csvField(value, delimiter)).toBe(quoted ? `"${value.replaceAll('"', '""')}"` : value);
    }), { numRuns: 2000 });
  });
});
