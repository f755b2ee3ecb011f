/**
 * Reads a dictionary blob file section by section (node only; the browser loads bytes, dictionary.ts).
 *
 * A blob is one msgpack map that dictionaries/blob-writer.ts streams out section by section: maps key by key,
 * binary sections as bin32 followed by their bytes, every other value packed by msgpackr. This reader walks
 * those maps from the file and reads each binary section straight to where it will live: a core section into
 * the room the core makes for it (`place`), any other into a buffer of its own, which the host columns keep
 * as they are (columns.ts `copy` adopts a buffer that is exactly one section), or, for the sections the caller
 * leaves in the file (a national dictionary's house codes), nowhere: they are read a row at a time later, with
 * the file kept open. Any other value (a string, a pool of strings, the summary's numbers) is read as its own
 * bytes and decoded by msgpackr.
 *
 * Reading the whole file first (as `LoadedDictionary.fromBytes` does with bytes) held the blob beside the
 * dictionary made from it: at national scale a 1.7 GB file beside ≈2 GB of dictionary. The magic and format
 * (the map's first two entries) are checked before anything else is read, and a cut file stops the load
 * with the byte where it ends. Every section's CRC-32 is computed as its bytes pass (a section left in the
 * file is read through for it) and checked against the blob's `checksums` (format/blob.ts) before the
 * dictionary is made: a damaged file is refused with the file and the section named.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import * as zlib from 'node:zlib';
import { Unpackr } from 'msgpackr';
import { LoadedDictionary, type BlobFile, type ColdSection, type HouseCodes, type SectionRoom } from './dictionary.js';
import {
  BlobError, BUILD_ID, checkBlobHeader, checkSections, CHECKSUMS, isMapType, mapCount, nativeCrc32, notABlob, skipMsgpack, type MsgpackSource,
} from '../format/blob.js';

/** zlib's CRC-32 (Node 20.15 on): the same sums as format/blob.ts's JS one, several times faster */
const sectionCrc = nativeCrc32(zlib.crc32);

/**
 * where a binary section goes: the core's room for it (filled, then `done`), null: a buffer of its own,
 * 'cold': left in the file and read a row at a time when asked for (a `ColdSection`; the file stays open
 * until the dictionary is closed), or 'skip': not read at all (left out of the result; the caller has its
 * length, for section sizes); `offset` is where the section's bytes start in the file
 */
export type Place = (section: string, byteLength: number, offset: number) => SectionRoom | null | 'cold' | 'skip';

export interface BlobFileOptions {
  /** where the houses' FIAS GUIDs, GAR ids and cadastral numbers live (LoadedDictionary `HouseCodes`) */
  houseCodes?: HouseCodes;
}

/** Loads the blob file `file` section by section (see above); errors name the file. */
export async function loadBlobFile(file: string, wasm: BufferSource | WebAssembly.Module, options: BlobFileOptions = {}): Promise<LoadedDictionary> {
  return LoadedDictionary.fromSections((place) => readBlobFile(file, place), wasm, options.houseCodes);
}

/**
 * The blob of `file` decoded section by section; core sections go where `place` says and are left out of it.
 * When `place` leaves a section in the file, the file stays open for it: `blob.close()` closes it (and the
 * garbage collector does, once nothing reads the blob's cold sections any more).
 */
export function readBlobFile(file: string, place: Place = () => null): BlobFile {
  const fd = openSync(file, 'r');
  const kept: { cold: ColdFile | null } = { cold: null };
  try {
    const reader = new SectionReader(fd, file, fstatSync(fd).size, () => (kept.cold ??= new ColdFile(fd, file)));
    const blob = reader.map('', place) as unknown as BlobFile;
    if (reader.offset !== reader.size) throw notABlob(file, `${reader.size - reader.offset} bytes after the end`);
    checkBlobHeader(blob.magic, blob.format, file);
    checkSections(reader.sums, blob.checksums, file);
    delete blob.checksums;
    const cold = kept.cold;
    if (cold !== null) blob.close = () => cold.close();
    return blob;
  } catch (error) {
    kept.cold?.close();
    // a decoder's own error on damaged bytes (msgpack's `Unknown extension type`) names the file like the others
    const system = (error as NodeJS.ErrnoException).code !== undefined;
    throw error instanceof BlobError || system ? error : notABlob(file, (error as Error).message);
  } finally {
    if (kept.cold === null) closeSync(fd);
  }
}

/** A blob file kept open for its cold sections: closed by `close()`, or when collected. */
class ColdFile {
  private static readonly closer = new FinalizationRegistry<number>((fd) => {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
  });
  private open = true;

  constructor(
    private readonly fd: number,
    private readonly file: string,
  ) {
    ColdFile.closer.register(this, fd, this);
  }

  /** `length` bytes of the file from `offset` as a section read a row at a time */
  section(offset: number, length: number): ColdSection {
    const read = (into: Uint8Array, position: number) => {
      if (!this.open) throw new Error(`${this.file}: read after the dictionary was closed`);
      if (position < 0 || position + into.length > length) throw new RangeError(`${this.file}: bytes ${position}…${position + into.length} outside a section of ${length}`);
      for (let filled = 0; filled < into.length; ) {
        const n = readSync(this.fd, into, filled, into.length - filled, offset + position + filled);
        if (n === 0) throw notABlob(this.file, `cut short at byte ${offset + position + filled} (changed since it was loaded?)`);
        filled += n;
      }
    };
    return { byteLength: length, read };
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    ColdFile.closer.unregister(this);
    closeSync(this.fd);
  }
}

const BUFFER_BYTES = 1 << 16;
/** msgpackr's defaults (no records, maps as objects), but a bin inside a value is copied: the window is reused */
const values = new Unpackr({ useRecords: false, copyBuffers: true });

/** A forward reader of msgpack from a file: a window of buffered bytes, sections read around it. */
class SectionReader implements MsgpackSource {
  /** each section's CRC-32 by path, as read */
  readonly sums = new Map<string, number>();
  /** the section being read, for errors */
  private path = '';
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  /** buffered bytes are buffer[start, end); `start` is the reader's position */
  private start = 0;
  private end = 0;
  /** file offset of buffer[0] */
  private base = 0;
  /** while a value is measured, the buffer keeps its bytes from here */
  private pinned = -1;

  constructor(
    private readonly fd: number,
    private readonly file: string,
    readonly size: number,
    private readonly coldFile: () => ColdFile,
  ) {}

  /** the file offset of the reader's position */
  get offset(): number {
    return this.base + this.start;
  }

  peek(): number {
    this.ensure(1);
    return this.buffer[this.start];
  }

  /**
   * A map of the container: its keys decoded, map values read as maps (sections inside), bin values as
   * sections, anything else decoded as a value. The blob's magic and format are checked as soon as read.
   */
  map(path: string, place: Place): Record<string, unknown> {
    const start = this.offset;
    const count = mapCount(this.byte(), this);
    if (count < 0) throw this.fail(`a map expected at byte ${start}`);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      const keyAt = this.offset;
      this.path = path;
      const key = this.value();
      if (typeof key !== 'string') throw this.fail(`a key that is not a string at byte ${keyAt}`);
      const at = path ? `${path}.${key}` : key;
      this.path = at;
      const next = this.peek();
      if (path === '' && (key === CHECKSUMS || key === BUILD_ID)) out[key] = this.value();
      else if (next === 0xc4 || next === 0xc5 || next === 0xc6) out[key] = this.section(at, place);
      else if (isMapType(next)) out[key] = this.map(at, place);
      else {
        const bytes = this.valueBytes();
        this.sums.set(at, sectionCrc(bytes));
        out[key] = this.decode(bytes);
      }
      // the first two entries decide whether the rest is read at all
      if (path === '' && i === 1) checkBlobHeader(out.magic, out.format, this.file);
    }
    return out;
  }

  /** a bin: read into the core's room for it (and left out of the result), into a buffer of its own, or left in the file */
  private section(path: string, place: Place): Uint8Array | ColdSection | undefined {
    const type = this.byte();
    const width = type === 0xc4 ? 1 : type === 0xc5 ? 2 : 4;
    const length = this.uint(width);
    if (this.offset + length > this.size) throw this.cut(this.size);
    const header = Buffer.alloc(1 + width);
    header[0] = type;
    header.writeUIntBE(length, 1, width);
    let crc = sectionCrc(header);
    const room = place(path, length, this.offset);
    if (room === 'skip' || room === 'cold') {
      const at = this.offset;
      // read through for the checksum, a block at a time
      const buffered = Math.min(length, this.end - this.start);
      crc = sectionCrc(this.buffer.subarray(this.start, this.start + buffered), crc);
      this.start += buffered;
      const block = Buffer.allocUnsafe(Math.min(length - buffered, 1 << 20));
      for (let filled = buffered; filled < length; ) {
        const read = readSync(this.fd, block, 0, Math.min(block.length, length - filled), at + filled);
        if (read === 0) throw this.cut(at + filled);
        crc = sectionCrc(block.subarray(0, read), crc);
        filled += read;
      }
      this.base += length - buffered;
      this.sums.set(path, crc);
      return room === 'cold' ? this.coldFile().section(at, length) : undefined;
    }
    const into = room ? room.into : new Uint8Array(length);
    // what is buffered first, then straight from the file
    const buffered = Math.min(length, this.end - this.start);
    into.set(this.buffer.subarray(this.start, this.start + buffered));
    this.start += buffered;
    for (let filled = buffered; filled < length; ) {
      const read = readSync(this.fd, into, filled, length - filled, this.offset);
      if (read === 0) throw this.cut(this.offset);
      filled += read;
      this.base += read;
    }
    this.sums.set(path, sectionCrc(into, crc));
    room?.done();
    return room ? undefined : into;
  }

  /** any value: its bytes measured in place, then decoded by msgpackr */
  private value(): unknown {
    return this.decode(this.valueBytes());
  }

  /** msgpackr's value of well-formed bytes; damaged ones may still hold what it refuses (an unknown extension) */
  private decode(bytes: Buffer): unknown {
    try {
      return values.unpack(bytes);
    } catch (err) {
      throw this.fail((err as Error).message);
    }
  }

  /** the bytes of the next value, measured in place (valid until the reader moves on) */
  private valueBytes(): Buffer {
    this.pinned = this.start;
    skipMsgpack(this);
    const bytes = this.buffer.subarray(this.pinned, this.start);
    this.pinned = -1;
    return bytes;
  }

  fail(why: string): Error {
    return notABlob(this.file, `${why}${this.path ? `, in section ${this.path}` : ''}`);
  }

  skipBytes(count: number): void {
    this.ensure(count);
    this.start += count;
  }

  byte(): number {
    this.ensure(1);
    return this.buffer[this.start++];
  }

  /** a big-endian unsigned integer of 1, 2 or 4 bytes */
  uint(bytes: 1 | 2 | 4): number {
    this.ensure(bytes);
    const at = this.start;
    this.start += bytes;
    return bytes === 1 ? this.buffer[at] : bytes === 2 ? this.buffer.readUInt16BE(at) : this.buffer.readUInt32BE(at);
  }

  /** `count` bytes buffered from the reader's position on (and those of a value being measured) */
  private ensure(count: number): void {
    if (this.end - this.start >= count) return;
    if (this.offset + count > this.size) throw this.cut(this.size);
    const keep = this.pinned >= 0 ? this.pinned : this.start;
    const needed = this.end - keep + count;
    if (needed > this.buffer.length || keep > 0) {
      const next = needed > this.buffer.length ? Buffer.allocUnsafe(Math.max(needed, 2 * this.buffer.length)) : this.buffer;
      this.buffer.copy(next, 0, keep, this.end);
      this.buffer = next;
      this.base += keep;
      this.start -= keep;
      this.end -= keep;
      if (this.pinned >= 0) this.pinned = 0;
    }
    while (this.end - this.start < count) {
      const read = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, this.base + this.end);
      if (read === 0) throw this.cut(this.base + this.end);
      this.end += read;
    }
  }

  private cut(at: number): Error {
    return notABlob(this.file, `cut short at byte ${at} of ${this.size}`);
  }
}
