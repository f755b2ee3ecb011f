/**
 * The dictionary blob's shared contract: its magic, its format version, and the check of its section checksums.
 * The writer (dictionaries/blob-writer.ts), the file reader (engine/blob-file.ts) and the bytes reader
 * (engine/dictionary.ts, in the browser too) take these from here; assembly/ reads FORMAT_VERSION from
 * assembly/layout.ts, generated from this file (scripts/assembly-layout.ts, test/unit/assembly/layout.test.ts). No Node API here.
 *
 * A blob is one msgpack map. Every value in it that is not itself a map is a *section*, named by its path
 * (`core.objects`, `host.houses.fias`, `country`); the map's `checksums` entry, written after every section,
 * maps each path to the CRC-32 (ISO-HDLC, zlib's) of that section's msgpack bytes, header included. A reader
 * computes the same sums as it reads and refuses the blob when one differs or a section is missing or extra,
 * naming the file and the section: random bytes written inside a section, same file size, are refused before
 * any of it answers a query. `buildId`, last, is derived from everything before it and has no checksum.
 */

export const BLOB_MAGIC = 'ADDRDICT';
/** 5: the `checksums` entry (4: house sections in the core's reading order) */
export const FORMAT_VERSION = 5;
/** the top-level entry holding the sections' checksums */
export const CHECKSUMS = 'checksums';
/** the top-level entry after the checksums, which they do not cover */
export const BUILD_ID = 'buildId';

export class BlobError extends Error {}

/** The refusal of what is not a dictionary blob (or is cut short), saying what to do. */
export function notABlob(source: string, why: string): BlobError {
  return new BlobError(`${source}: not a dictionary blob (${why}); rebuild it with npm run dict:build`);
}

/** Refuses another magic or format version (the blob's first two entries: a reader checks them before the rest). */
export function checkBlobHeader(magic: unknown, format: unknown, source: string): void {
  if (magic !== BLOB_MAGIC) throw notABlob(source, 'bad magic');
  if (format !== FORMAT_VERSION) {
    throw new BlobError(`${source}: dictionary format ${format}, this service reads format ${FORMAT_VERSION}; rebuild it with npm run dict:build`);
  }
}

/** CRC-32 of `bytes` continuing from `crc` (0 to start), as zlib's `crc32(bytes, crc)`. */
export type Crc32 = (bytes: Uint8Array, crc?: number) => number;

const CRC_TABLE = (() => {
  const table = new Int32Array(256 * 4);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  // slicing by four: table[256 k + n] is n's CRC followed by k zero bytes
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < 4; k++) table[256 * k + n] = (table[256 * (k - 1) + n] >>> 8) ^ table[table[256 * (k - 1) + n] & 0xff];
  }
  return table;
})();

/** CRC-32 in plain JS (the browser's; Node has zlib's, several times faster). */
export const crc32: Crc32 = (bytes, crc = 0) => {
  const t = CRC_TABLE;
  let c = ~crc;
  let i = 0;
  for (const end = bytes.length - 3; i < end; i += 4) {
    c ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    c = t[768 + (c & 0xff)] ^ t[512 + ((c >>> 8) & 0xff)] ^ t[256 + ((c >>> 16) & 0xff)] ^ t[c >>> 24];
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
};

/**
 * A native CRC-32 (Node's `zlib.crc32`, from 20.15) as a `Crc32`, or the JS one without it. Node's answers 0 for
 * an empty array over an empty buffer (`new Uint8Array(0)`) whatever `crc` it is given: empty bytes keep `crc`.
 */
export function nativeCrc32(native: ((bytes: Uint8Array, crc?: number) => number) | undefined): Crc32 {
  return native ? (bytes, crc = 0) => (bytes.length === 0 ? crc : native(bytes, crc)) : crc32;
}

const hex = (crc: number): string => crc.toString(16).padStart(8, '0');

/**
 * Compares the checksums a reader computed (`computed`, path → CRC-32) with the blob's own `checksums` entry,
 * refusing the blob on the first difference with the file and the section named.
 */
export function checkSections(computed: ReadonlyMap<string, number>, stored: unknown, source: string): void {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) throw notABlob(source, `no ${CHECKSUMS} entry`);
  const sums = stored as Record<string, unknown>;
  for (const [path, crc] of computed) {
    if (!(path in sums)) throw damaged(source, path, `a section the checksums do not list`);
    if (sums[path] !== crc) throw damaged(source, path, `CRC-32 ${hex(crc)}, the blob's checksum ${typeof sums[path] === 'number' ? hex(sums[path] as number) : String(sums[path])}`);
  }
  for (const path of Object.keys(sums)) if (!computed.has(path)) throw damaged(source, path, 'listed in the checksums but not in the file');
}

function damaged(source: string, path: string, why: string): BlobError {
  return new BlobError(`${source}: section ${path} is damaged (${why}); copy the file again or rebuild it with npm run dict:build`);
}

/** What a msgpack walker reads from: one byte, a big-endian unsigned integer, or past `count` bytes. */
export interface MsgpackSource {
  byte(): number;
  uint(bytes: 1 | 2 | 4): number;
  skipBytes(count: number): void;
  /** the offset of the next byte */
  readonly offset: number;
  /** the error for what is wrong at byte `at` */
  fail(why: string, at: number): Error;
}

/** Reads past one msgpack value (the formats of the msgpack spec) from `source`. */
export function skipMsgpack(source: MsgpackSource): void {
  const at = source.offset;
  const type = source.byte();
  if (type <= 0x7f || type >= 0xe0 || type === 0xc0 || type === 0xc2 || type === 0xc3) return;
  if (type >= 0x80 && type <= 0x8f) return skipValues(source, 2 * (type & 0x0f));
  if (type >= 0x90 && type <= 0x9f) return skipValues(source, type & 0x0f);
  if (type >= 0xa0 && type <= 0xbf) return source.skipBytes(type & 0x1f);
  switch (type) {
    case 0xc4: case 0xd9: return source.skipBytes(source.uint(1)); // bin8, str8
    case 0xc5: case 0xda: return source.skipBytes(source.uint(2)); // bin16, str16
    case 0xc6: case 0xdb: return source.skipBytes(source.uint(4)); // bin32, str32
    case 0xc7: return source.skipBytes(source.uint(1) + 1); // ext8: length, type, data
    case 0xc8: return source.skipBytes(source.uint(2) + 1);
    case 0xc9: return source.skipBytes(source.uint(4) + 1);
    case 0xcc: case 0xd0: return source.skipBytes(1);
    case 0xcd: case 0xd1: return source.skipBytes(2);
    case 0xca: case 0xce: case 0xd2: return source.skipBytes(4);
    case 0xcb: case 0xcf: case 0xd3: return source.skipBytes(8);
    case 0xd4: return source.skipBytes(2); // fixext 1, 2, 4, 8, 16: type and data
    case 0xd5: return source.skipBytes(3);
    case 0xd6: return source.skipBytes(5);
    case 0xd7: return source.skipBytes(9);
    case 0xd8: return source.skipBytes(17);
    case 0xdc: return skipValues(source, source.uint(2));
    case 0xdd: return skipValues(source, source.uint(4));
    case 0xde: return skipValues(source, 2 * source.uint(2));
    case 0xdf: return skipValues(source, 2 * source.uint(4));
    default: throw source.fail(`byte 0x${type.toString(16)} at ${at} starts no msgpack value`, at);
  }
}

function skipValues(source: MsgpackSource, count: number): void {
  for (let i = 0; i < count; i++) skipMsgpack(source);
}

/** The entry count of a msgpack map whose type byte is `type`, −1 when it is no map. */
export function mapCount(type: number, source: MsgpackSource): number {
  return type >= 0x80 && type <= 0x8f ? type & 0x0f : type === 0xde ? source.uint(2) : type === 0xdf ? source.uint(4) : -1;
}

export const isMapType = (type: number): boolean => (type >= 0x80 && type <= 0x8f) || type === 0xde || type === 0xdf;

/** A msgpack source over bytes in memory. */
class BytesSource implements MsgpackSource {
  offset = 0;
  /** the section being read, for errors */
  path = '';

  constructor(
    readonly bytes: Uint8Array,
    private readonly source: string,
  ) {}

  byte(): number {
    this.need(1);
    return this.bytes[this.offset++];
  }

  uint(bytes: 1 | 2 | 4): number {
    this.need(bytes);
    let value = 0;
    for (let k = 0; k < bytes; k++) value = value * 256 + this.bytes[this.offset++];
    return value;
  }

  skipBytes(count: number): void {
    this.need(count);
    this.offset += count;
  }

  fail(why: string): Error {
    return notABlob(this.source, `${why}${this.path ? `, in section ${this.path}` : ''}`);
  }

  private need(count: number): void {
    if (this.offset + count > this.bytes.length) throw this.fail(`cut short at byte ${this.bytes.length}`);
  }
}

const utf8 = new TextDecoder();

/**
 * Checks a whole blob in memory against its checksums (see above): the sections' CRC-32s computed, then
 * `checkSections`. `decodeValue` decodes the `checksums` entry's bytes (msgpackr's unpack).
 */
export function verifyBlobBytes(bytes: Uint8Array, source: string, decodeValue: (bytes: Uint8Array) => unknown, crc: Crc32 = crc32): void {
  const input = new BytesSource(bytes, source);
  const computed = new Map<string, number>();
  let stored: unknown;
  const walk = (path: string): void => {
    const at = input.offset;
    const count = mapCount(input.byte(), input);
    if (count < 0) throw input.fail(`a map expected at byte ${at}`);
    for (let i = 0; i < count; i++) {
      const keyStart = input.offset;
      input.path = path;
      skipMsgpack(input);
      const keyBytes = bytes.subarray(keyStart, input.offset);
      const key = keyBytes[0] >= 0xa0 && keyBytes[0] <= 0xbf ? utf8.decode(keyBytes.subarray(1)) : String(decodeValue(keyBytes));
      const entry = path ? `${path}.${key}` : key;
      input.path = entry;
      if (isMapType(bytes[input.offset]) && !(path === '' && key === CHECKSUMS)) {
        walk(entry);
        continue;
      }
      const start = input.offset;
      skipMsgpack(input);
      const value = bytes.subarray(start, input.offset);
      if (path === '' && key === CHECKSUMS) stored = decodeValue(value);
      else if (!(path === '' && key === BUILD_ID)) computed.set(entry, crc(value));
    }
  };
  walk('');
  checkSections(computed, stored, source);
}
