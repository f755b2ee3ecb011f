/** XlsxWriter (cli/batch/xlsx-writer.ts): a sheet written row by row reads back, cell for cell, as written. */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XlsxWriter, xlsxRow } from '../../../../cli/batch/xlsx-writer.js';

async function roundTrip(rows: unknown[][]): Promise<unknown[][]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new XlsxWriter(out, 'Лист');
  for (let i = 0; i < rows.length; i++) await writer.write(xlsxRow(i + 1, rows[i], []));
  await writer.end();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('Лист')!;
  const read: unknown[][] = [];
  sheet.eachRow((row) => read.push((row.values as unknown[]).slice(1)));
  return read;
}

describe('XlsxWriter', () => {
  it('keeps the white space at the ends of a text, and the text between', async () => {
    const rows = [
      [' ведущий пробел', 'конечный пробел ', '\tтабуляция', 'перенос\n', 'г Москва, ул Тверская, д 1'],
      ['a & b < c > "d"', '  ', 'ё', 42, 'x'],
    ];
    expect(await roundTrip(rows)).toEqual(rows);
  });

  it('marks a text xml:space="preserve" only when white space at an end needs it (Excel trims it elsewhere)', () => {
    const xml = xlsxRow(2, [' ведущий', 'г Москва', 'конечный\t'], ['д 1']);
    expect(xml.match(/<t[^>]*>[^<]*<\/t>/g)).toEqual([
      '<t xml:space="preserve"> ведущий</t>', '<t>г Москва</t>', '<t xml:space="preserve">конечный\t</t>', '<t>д 1</t>',
    ]);
  });
});
