/**
 * Binary sections of a dictionary blob file read back as they were written, so that a rebuild copies the
 * sections its model would give the same bytes instead of building them again (blob-writer.ts `ReusedNames`).
 * The file is walked (format/blob.ts) through a window of it, never read whole; a section is taken only when
 * its CRC-32 is the blob's checksum for it: a damaged section is built again, not copied with a fresh sum.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { unpack } from 'msgpackr';
import { BUILD_ID, CHECKSUMS, isMapType, mapCount, nativeCrc32, notABlob, skipMsgpack, type MsgpackSource } from '../../format/blob.js';

const sectionCrc = nativeCrc32(zlib.crc32);
const WINDOW_BYTES = 1 << 16;

/** A forward reader of a file through a window of it. */
class FileSource implements MsgpackSource {
  offset = 0;
  private window = Buffer.allocUnsafe(WINDOW_BYTES);
  /** file offset of window[0], and the bytes in it */
  private base = 0;
  private filled = 0;

  constructor(
    private readonly fd: number,
    private readonly file: string,
  ) {}

  /** `count` bytes from `at` (copied) */
  bytes(at: number, count: number): Buffer {
    const out = Buffer.allocUnsafe(count);
    for (let done = 0; done < count; ) {
      const n = readSync(this.fd, out, done, count - done, at + done);
      if (n === 0) throw this.fail(`cut short at byte ${at + done}`);
      done += n;
    }
    return out;
  }

  byte(): number {
    if (this.offset < this.base || this.offset >= this.base + this.filled) {
      this.base = this.offset;
      this.filled = readSync(this.fd, this.window, 0, WINDOW_BYTES, this.base);
      if (this.filled === 0) throw this.fail(`cut short at byte ${this.offset}`);
    }
    return this.window[this.offset++ - this.base];
  }

  uint(bytes: 1 | 2 | 4): number {
    let value = 0;
    for (let k = 0; k < bytes; k++) value = value * 256 + this.byte();
    return value;
  }

  skipBytes(count: number): void {
    this.offset += count;
  }

  fail(why: string): Error {
    return notABlob(this.file, why);
  }
}

/**
 * The binary sections of `paths` (`core.trie`, …) of the blob `file`, each its bytes without the msgpack header;
 * a path missing, not binary, or whose CRC-32 (header included, as the checksums cover) is not the blob's is
 * left out.
 */
export function readBlobSections(file: string, paths: readonly string[]): Map<string, Buffer> {
  const wanted = new Set(paths);
  const found = new Map<string, Buffer>();
  let checksums: Record<string, number> = {};
  const fd = openSync(file, 'r');
  try {
    const input = new FileSource(fd, file);
    const walk = (path: string): void => {
      const count = mapCount(input.byte(), input);
      if (count < 0) throw input.fail(`a map expected at byte ${input.offset - 1}`);
      for (let i = 0; i < count; i++) {
        const keyStart = input.offset;
        skipMsgpack(input);
        const key = String(unpack(input.bytes(keyStart, input.offset - keyStart)));
        const entry = path ? `${path}.${key}` : key;
        const valueStart = input.offset;
        const type = input.byte();
        input.offset = valueStart;
        if (isMapType(type) && !(path === '' && key === CHECKSUMS)) {
          walk(entry);
          continue;
        }
        skipMsgpack(input);
        if (path === '' && key === CHECKSUMS) checksums = unpack(input.bytes(valueStart, input.offset - valueStart)) as Record<string, number>;
        else if (wanted.has(entry) && !(path === '' && key === BUILD_ID)) found.set(entry, input.bytes(valueStart, input.offset - valueStart));
      }
    };
    walk('');
  } finally {
    closeSync(fd);
  }
  const sections = new Map<string, Buffer>();
  for (const [path, packed] of found) {
    if (checksums[path] !== sectionCrc(packed)) continue;
    // a binary section: bin8/16/32 header, then its bytes
    const width = packed[0] === 0xc4 ? 1 : packed[0] === 0xc5 ? 2 : packed[0] === 0xc6 ? 4 : 0;
    if (width === 0) continue;
    sections.set(path, packed.subarray(1 + width));
  }
  return sections;
}
