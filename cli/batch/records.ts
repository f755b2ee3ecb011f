/**
 * Finding records in raw bytes and reading their fields, without decoding the whole file in one place: the main
 * thread cuts the input into batches of whole records (`RecordScanner`, a byte-level state machine that knows CSV
 * quoting: a newline inside a quoted field is part of the field), and the workers decode and split each record on
 * its own (`splitRecord`), so a broken record is that record's error and never its neighbours'.
 *
 * Every byte the scanner looks at is ASCII (`"`, `\n`, the delimiter): the same in UTF-8 and in cp1251.
 */

const QUOTE = 0x22;
export const NEWLINE = 0x0a;
const CR = 0x0d;

/** A record longer than this with its quote still open is cut at its first newline (and fails as an unclosed quote). */
export const MAX_RECORD_BYTES = 1 << 20;

/**
 * Record ends in a byte buffer: `scan(bytes)` returns the end (exclusive, after the `\n`) of each whole record in
 * `bytes`, which must begin at a record's start. What follows the last end is an incomplete record: the caller
 * keeps it and scans it again with the next bytes (records are short; the rescan is cheap).
 */
export class RecordScanner {
  constructor(
    /** the field delimiter's byte; -1 for line-delimited input (NDJSON), where quotes mean nothing */
    private readonly delimiter: number,
  ) {}

  scan(bytes: Uint8Array, final: boolean): number[] {
    const ends: number[] = [];
    const delimiter = this.delimiter;
    const length = bytes.length;
    let recordStart = 0;
    let i = 0;
    if (delimiter < 0) {
      for (;;) {
        const at = bytes.indexOf(NEWLINE, i);
        if (at < 0) break;
        ends.push(at + 1);
        i = at + 1;
      }
      if (final && i < length) ends.push(length);
      return ends;
    }
    let fieldStart = true;
    let quoted = false;
    while (i < length) {
      const byte = bytes[i];
      if (quoted) {
        if (byte === QUOTE) {
          if (i + 1 < length && bytes[i + 1] === QUOTE) i += 2;
          else if (i + 1 >= length && !final) break; // `"` or `""`: the next bytes tell
          else {
            quoted = false;
            i++;
          }
          continue;
        }
        const next = bytes.indexOf(QUOTE, i);
        if (next < 0 || next - recordStart > MAX_RECORD_BYTES) {
          if (!final && length - recordStart <= MAX_RECORD_BYTES) break;
          // an unclosed quote: the record ends at its first newline
          const newline = bytes.indexOf(NEWLINE, recordStart);
          const end = newline < 0 ? length : newline + 1;
          ends.push(end);
          recordStart = i = end;
          fieldStart = true;
          quoted = false;
          continue;
        }
        i = next;
        continue;
      }
      if (byte === NEWLINE) {
        ends.push(i + 1);
        recordStart = ++i;
        fieldStart = true;
        continue;
      }
      if (byte === delimiter) fieldStart = true;
      else if (byte === QUOTE && fieldStart) {
        quoted = true;
        fieldStart = false;
      } else if (byte !== CR) fieldStart = false;
      i++;
    }
    if (final && recordStart < length) ends.push(length);
    return ends;
  }
}

/** The number of `\n` in `bytes` (a record's lines, for the line numbers of the next records). */
export function countLines(bytes: Uint8Array): number {
  let count = 0;
  let at = bytes.indexOf(NEWLINE);
  while (at >= 0) {
    count++;
    at = bytes.indexOf(NEWLINE, at + 1);
  }
  return count;
}

/** A record's text without its line ending. */
export function withoutLineEnd(text: string): string {
  let end = text.length;
  if (end > 0 && text.charCodeAt(end - 1) === NEWLINE) end--;
  if (end > 0 && text.charCodeAt(end - 1) === CR) end--;
  return end === text.length ? text : text.slice(0, end);
}

export type SplitRecord = { fields: string[]; error?: undefined } | { fields: string[]; error: string };

/**
 * The fields of one CSV record (line end removed): RFC 4180 quoting (`"a ""b"""` is `a "b"`), a quote inside an
 * unquoted field is a character. A quoted field left open, or text after a closing quote, is an error (the fields
 * read so far are returned with it).
 */
export function splitRecord(text: string, delimiter: string): SplitRecord {
  const fields: string[] = [];
  if (!text.includes('"')) {
    return { fields: text.split(delimiter) };
  }
  const length = text.length;
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      let value = '';
      let from = ++i;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) {
          fields.push(value + text.slice(from));
          return { fields, error: 'unclosed quote' };
        }
        if (text.charCodeAt(quote + 1) === QUOTE) {
          value += text.slice(from, quote + 1);
          from = i = quote + 2;
          continue;
        }
        value += text.slice(from, quote);
        i = quote + 1;
        break;
      }
      fields.push(value);
      if (i >= length) return { fields };
      if (text.startsWith(delimiter, i)) {
        i += delimiter.length;
        continue;
      }
      // text after the closing quote: kept as written, and reported
      const next = text.indexOf(delimiter, i);
      fields[fields.length - 1] += next < 0 ? text.slice(i) : text.slice(i, next);
      if (next < 0) return { fields, error: 'text after a closing quote' };
      const rest = splitRecord(text.slice(next + delimiter.length), delimiter);
      return { fields: fields.concat(rest.fields), error: 'text after a closing quote' };
    }
    const next = text.indexOf(delimiter, i);
    if (next < 0) {
      fields.push(text.slice(i));
      return { fields };
    }
    fields.push(text.slice(i, next));
    i = next + delimiter.length;
  }
}

/** One field as CSV writes it: quoted when it holds the delimiter, a quote, a line break, or spaces at its ends. */
export function csvField(value: string, delimiter: string): string {
  if (value === '') return value;
  const length = value.length;
  if (value.charCodeAt(0) !== 0x20 && value.charCodeAt(length - 1) !== 0x20 && !quotedBy(delimiter).test(value)) return value;
  return value.includes('"') ? `"${value.replace(/"/g, '""')}"` : `"${value}"`;
}

/**
 * What makes a field quoted besides spaces at its ends: the delimiter, a quote, a line break. A regular expression,
 * kept for the last delimiter asked: V8's compiled character class scans a field in a fraction of the time a
 * `charCodeAt` loop takes over strings of both widths (this runs for every field of every row written).
 */
let quoted = { delimiter: ',', pattern: /[,"\r\n]/ };

function quotedBy(delimiter: string): RegExp {
  if (delimiter !== quoted.delimiter) {
    const escaped = delimiter.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    quoted = { delimiter, pattern: new RegExp(`["\\r\\n]|${escaped}`) };
  }
  return quoted.pattern;
}
