/**
 * What a file is, from its first bytes: XLSX (a zip), NDJSON (a JSON object first), or delimited text; the text's
 * encoding (UTF-8 with or without a BOM, else cp1251, as Excel saves "CSV" in a Russian locale) and delimiter (the one
 * of `;` `,` tab `|` most frequent outside quotes in the first line).
 */
import type { InputKind, TextEncoding } from './batch.js';

export const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const CP1251 = new TextDecoder('windows-1251');

/**
 * cp1251 text (Node's own decoder: no module to load in every worker). 0x98, the one byte cp1251 leaves undefined,
 * reads as U+FFFD, as iconv-lite reads it (the WHATWG table passes it through as U+0098).
 */
export function decodeCp1251(bytes: Uint8Array): string {
  const text = CP1251.decode(bytes);
  return text.includes('\u0098') ? text.replace(/\u0098/g, '\ufffd') : text;
}

export type FileKind = InputKind | 'xlsx';

export function sniffKind(head: Uint8Array): Exclude<FileKind, 'rows'> {
  if (Buffer.from(head.buffer, head.byteOffset, Math.min(4, head.byteLength)).equals(ZIP_MAGIC)) return 'xlsx';
  let i = head.subarray(0, 3).every((byte, k) => byte === BOM[k]) && head.length >= 3 ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  return head[i] === 0x7b ? 'ndjson' : 'csv';
}

export function hasBom(head: Uint8Array): boolean {
  return head.length >= 3 && head[0] === BOM[0] && head[1] === BOM[1] && head[2] === BOM[2];
}

/**
 * UTF-8 when more lines of the sample with bytes beyond ASCII decode as UTF-8 than not (a UTF-8 file with a broken line
 * stays UTF-8, and that line is an exception; in cp1251 text hardly a line of Cyrillic is valid UTF-8), else cp1251
 * (any byte sequence is cp1251). The last line of an incomplete sample, perhaps cut inside a character, is left out.
 */
export function sniffEncoding(sample: Uint8Array, complete: boolean): TextEncoding {
  let valid = 0;
  let invalid = 0;
  let start = 0;
  while (start < sample.length) {
    const newline = sample.indexOf(0x0a, start);
    if (newline < 0 && !complete) break;
    const end = newline < 0 ? sample.length : newline;
    const line = sample.subarray(start, end);
    start = end + 1;
    if (line.every((byte) => byte < 0x80)) continue;
    try {
      STRICT_UTF8.decode(line);
      valid++;
    } catch {
      invalid++;
    }
  }
  return invalid === 0 || valid > invalid ? 'utf-8' : 'cp1251';
}

const CANDIDATES = [';', ',', '\t', '|'];

/** The delimiter of a header line: the candidate seen most often outside quotes (`,` when none is). */
export function sniffDelimiter(firstLine: string): string {
  let best = ',';
  let bestCount = 0;
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  for (const candidate of CANDIDATES) {
    const count = unquoted.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}
