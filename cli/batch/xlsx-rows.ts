/**
 * A sheet's rows as XLSX XML text (inline strings and numbers), which the workers write (batch.ts) and XlsxWriter
 * (xlsx-writer.ts) puts into the zip. Apart from the writer, so that a worker loads no zip library.
 */
/** XML text: `&<>"` escaped, and the characters XML 1.0 cannot hold (controls but tab and line breaks) dropped. */
export function escapeXml(text: string): string {
  if (!/[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(text)) return text;
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const COLUMN_LETTERS: string[] = [];
/** `A`, `B`, …, `Z`, `AA`, … for column index 0, 1, … */
export function columnLetter(index: number): string {
  let letters = COLUMN_LETTERS[index];
  if (letters === undefined) {
    letters = '';
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
    COLUMN_LETTERS[index] = letters;
  }
  return letters;
}

/** `<c r="` and the column's letters, of each column index (the row number follows). */
const CELL_OPENS: string[] = [];
const cellOpen = (index: number): string => (CELL_OPENS[index] ??= `<c r="${columnLetter(index)}`);

/** One cell at column `index` of row `row` (its number as text: made once a row, not once a cell). */
function cell(index: number, row: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return textCell(index, row, value);
  if (typeof value === 'number') return Number.isFinite(value) ? `${cellOpen(index)}${row}"><v>${value}</v></c>` : '';
  if (typeof value === 'boolean') return `${cellOpen(index)}${row}" t="b"><v>${value ? 1 : 0}</v></c>`;
  return textCell(index, row, value instanceof Date ? value.toISOString() : JSON.stringify(value));
}

function textCell(index: number, row: string, text: string): string {
  // xml:space only where it keeps something: white space at either end, which a reader would trim
  return keepsSpace(text)
    ? `${cellOpen(index)}${row}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`
    : `${cellOpen(index)}${row}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`;
}

/** White space (space, tab, line break) at the start or the end of a text. */
function keepsSpace(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return first <= 0x20 || last <= 0x20;
}

/** One sheet row: the input's cells, then the results. */
export function xlsxRow(rowNumber: number, cells: readonly unknown[], results: readonly unknown[]): string {
  const row = String(rowNumber);
  let xml = `<row r="${row}">`;
  for (let i = 0; i < cells.length; i++) xml += cell(i, row, cells[i]);
  for (let i = 0; i < results.length; i++) xml += cell(cells.length + i, row, results[i]);
  return `${xml}</row>`;
}
