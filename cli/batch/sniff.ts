/**
 * What a file is, from its first bytes: XLSX (a zip), NDJSON (a JSON object first), or delimited text; the text's
 * encoding (UTF-8 with or without a BOM, else cp1251, as Excel saves "CSV" in a Russian locale) and delimiter (the one
 * of `;` `,` tab `|` most frequent outside quotes in the first line).
 */
import type { InputKind, TextEncoding } from './batch.js';

export const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

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
 * UTF-8 when the sample decodes as UTF-8 (its last line, perhaps cut in the middle of a character, aside), else
 * cp1251 (any byte sequence is cp1251).
 */
export function sniffEncoding(sample: Uint8Array, complete: boolean): TextEncoding {
  let end = sample.length;
  if (!complete) {
    const newline = sample.lastIndexOf(0x0a);
    if (newline > 0) end = newline + 1;
  }
  try {
    STRICT_UTF8.decode(sample.subarray(0, end));
    return 'utf-8';
  } catch {
    return 'cp1251';
  }
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
