/**
 * Columns too big to hold at national scale (≈35 M houses × ≈45 bytes): rows are kept in chunks of
 * `CHUNK_ROWS`, and once a store says so its full chunks go to a spill file on disk and leave memory. The
 * merge then reads them in store order, a chunk at a time (`chunkAt`), and the writer gathers a column into
 * dictionary order block by block (`gatherBlocks`): for each block of output rows it streams every chunk of
 * the column once, so the build holds one chunk and one output block of a column, not the column.
 *
 * The spill file is unlinked as soon as it is open (POSIX keeps it readable through the descriptor), so a
 * build that dies leaves nothing behind; where unlinking an open file fails (Windows) it is removed on close.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedArray, TypedArrayConstructor } from './house-store.js';

/** rows per chunk, as a power of two: 1 Mi (a GUID column's chunk is 16 MB) */
export const CHUNK_SHIFT = 20;
/** rows per block of a gathered column (64 MB of GUIDs) */
export const BLOCK_ROWS = 1 << 22;

/**
 * A binary section written as a stream of blocks: the blob writer puts one msgpack bin header of
 * `byteLength` and then each block as it is made (blob-writer.ts `writeMsgpack`).
 */
export class BinBlocks {
  constructor(
    readonly byteLength: number,
    readonly blocks: () => Iterable<Uint8Array>,
  ) {}
}

/** An append-only temporary file of chunks, read back by offset. */
export class SpillFile {
  private fd: number;
  private size = 0;
  private readonly leftover: string | null;

  constructor(dir = tmpdir()) {
    const path = join(dir, `dictionary-spill-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.tmp`);
    this.fd = openSync(path, 'w+');
    let leftover: string | null = null;
    try {
      unlinkSync(path);
    } catch {
      leftover = path;
    }
    this.leftover = leftover;
  }

  /** appends the bytes of `view`; returns where they start */
  write(view: ArrayBufferView): number {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    const at = this.size;
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, at + done);
    this.size += bytes.length;
    return at;
  }

  /** fills `view` with the bytes written at `offset` */
  read(offset: number, view: ArrayBufferView): void {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let done = 0; done < bytes.length; ) {
      const n = readSync(this.fd, bytes, done, bytes.length - done, offset + done);
      if (n === 0) throw new Error(`spill file: ${bytes.length - done} bytes missing at ${offset + done}`);
      done += n;
    }
  }

  get bytes(): number {
    return this.size;
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
    if (this.leftover) unlinkSync(this.leftover);
  }
}

/**
 * A column of `width` values per row in chunks. A chunk exists only once a non-default value was written
 * into it, so a column no row fills costs nothing (`used` is false). Rows are written in increasing order.
 */
export class ChunkedColumn<T extends TypedArray> {
  private readonly rowsPerChunk: number;
  private readonly mask: number;
  private readonly chunks: Array<T | null> = [];
  /** per chunk: where it is in the spill file, −1 while in memory (or never made) */
  private readonly spilledAt: number[] = [];
  private spillFile: SpillFile | null = null;
  /** the last chunk read back from the spill file */
  private loaded: { index: number; chunk: T } | null = null;
  used = false;

  constructor(
    private readonly make: TypedArrayConstructor<T>,
    readonly width = 1,
    readonly fill?: number,
    readonly shift = CHUNK_SHIFT,
  ) {
    this.rowsPerChunk = 2 ** shift;
    this.mask = this.rowsPerChunk - 1;
  }

  /** the chunk holding `row`, made when missing (only the chunk being written to may be made) */
  chunkFor(row: number): T {
    const index = row >>> this.shift;
    let chunk = this.chunks[index];
    if (chunk === undefined || chunk === null) {
      if (this.spilledAt[index] !== undefined && this.spilledAt[index] >= 0) throw new Error('chunked column: write to a spilled chunk');
      chunk = new this.make(this.rowsPerChunk * this.width);
      if (this.fill !== undefined && this.fill !== 0) chunk.fill(this.fill);
      while (this.chunks.length < index) this.chunks.push(null);
      this.chunks[index] = chunk;
      this.used = true;
    }
    return chunk;
  }

  /** where `row`'s first value sits in `chunkFor(row)` / `chunkAt(chunkOf(row))` */
  offset(row: number): number {
    return (row & this.mask) * this.width;
  }

  /** the chunk index of `row` */
  chunkOf(row: number): number {
    return row >>> this.shift;
  }

  set(row: number, value: number): void {
    this.chunkFor(row)[(row & this.mask) * this.width] = value;
  }

  get(row: number, offset = 0): number {
    const chunk = this.chunkAt(row >>> this.shift);
    return chunk === null ? (this.fill ?? 0) : chunk[(row & this.mask) * this.width + offset];
  }

  /**
   * chunk `index` (read back from the spill file when it was spilled), or null when no row in it has a value.
   * A chunk read back is valid until the next `chunkAt` of this column: each is read into the same array
   * (a gather reads every chunk once per block, so a fresh array per read made gigabytes of garbage at
   * national scale, ≈ 5 GB for the GUID column of 35 M houses, which the peak RSS paid for until collected).
   */
  chunkAt(index: number): T | null {
    const chunk = this.chunks[index];
    if (chunk) return chunk;
    const at = this.spilledAt[index];
    if (at === undefined || at < 0) return null;
    if (this.loaded?.index === index) return this.loaded.chunk;
    const back = this.loaded?.chunk ?? new this.make(this.rowsPerChunk * this.width);
    this.spillFile!.read(at, back);
    this.loaded = { index, chunk: back };
    return back;
  }

  /**
   * Each chunk that holds values, in row order, with its first row: the column streamed in store order (a
   * chunk read back from the spill file is valid until the next one is asked for). Rows past the store's last
   * in the final chunk read as the fill.
   */
  *chunksInOrder(): Generator<{ first: number; chunk: T }> {
    const count = Math.max(this.chunks.length, this.spilledAt.length);
    for (let c = 0; c < count; c++) {
      const chunk = this.chunkAt(c);
      if (chunk !== null) yield { first: c * this.rowsPerChunk, chunk };
    }
    this.loaded = null;
  }

  /** moves the chunks before `index` to `file` */
  spillBefore(index: number, file: SpillFile): void {
    this.spillFile = file;
    for (let i = 0; i < index && i < this.chunks.length; i++) {
      const chunk = this.chunks[i];
      if (!chunk) continue;
      this.spilledAt[i] = file.write(chunk);
      this.chunks[i] = null;
    }
  }

  /** bytes a gathered row takes as `make` (the column's own type by default) */
  bytesPerRow(make: TypedArrayConstructor<TypedArray> = this.make): number {
    return make.BYTES_PER_ELEMENT * this.width;
  }

  get spilled(): boolean {
    return this.spillFile !== null;
  }

  /**
   * The values of `rows` in that order, as arrays of `make` (the column's own type by default) of at most
   * `BLOCK_ROWS` rows each. `inverse[row]` is the row's position in `rows` (−1 when absent): with it every
   * block reads the column's chunks in order once; without it (nothing spilled) rows are read directly.
   * `into`: every block is written into this buffer (at least a block's bytes), valid until the next block is asked
   * for (a consumer that writes each block out before the next: the blob writer). A fresh array per block left
   * each one, up to 64 MB of GUIDs, for the collector while the next was made.
   */
  *gatherBlocks(
    rows: Uint32Array,
    make: TypedArrayConstructor<TypedArray> = this.make,
    inverse?: () => Int32Array,
    blockRows = BLOCK_ROWS,
    into?: ArrayBuffer,
  ): Generator<TypedArray> {
    const width = this.width;
    const fill = this.fill ?? 0;
    const shared = into ? new make(into, 0, Math.min(rows.length, blockRows) * width) : null;
    for (let start = 0; start < rows.length || start === 0; start += blockRows) {
      const end = Math.min(rows.length, start + blockRows);
      const out = shared === null ? new make((end - start) * width) : shared.subarray(0, (end - start) * width);
      if (fill !== 0 || shared !== null) out.fill(fill);
      if (!this.spilled) {
        for (let i = start; i < end; i++) {
          const row = rows[i];
          const chunk = this.chunks[row >>> this.shift];
          if (!chunk) continue;
          const from = (row & this.mask) * width;
          for (let k = 0; k < width; k++) out[(i - start) * width + k] = chunk[from + k];
        }
      } else {
        const positions = inverse!();
        const chunkCount = Math.max(this.chunks.length, this.spilledAt.length);
        for (let c = 0; c < chunkCount; c++) {
          const chunk = this.chunkAt(c);
          if (chunk === null) continue;
          const first = c * this.rowsPerChunk;
          const last = Math.min(first + this.rowsPerChunk, positions.length);
          for (let row = first; row < last; row++) {
            const at = positions[row];
            if (at < start || at >= end) continue;
            const from = (row - first) * width;
            for (let k = 0; k < width; k++) out[(at - start) * width + k] = chunk[from + k];
          }
        }
      }
      yield out;
      if (end >= rows.length) break;
    }
    // the chunk read back last is not needed once the column is gathered
    this.loaded = null;
  }

  /** `gatherBlocks` as one array (small stores, and sections the writer needs whole) */
  gather(rows: Uint32Array, make: TypedArrayConstructor<TypedArray> = this.make, inverse?: () => Int32Array, blockRows = BLOCK_ROWS): TypedArray {
    const blocks = [...this.gatherBlocks(rows, make, inverse, blockRows)];
    if (blocks.length === 1) return blocks[0];
    const out = new make(rows.length * this.width);
    let at = 0;
    for (const block of blocks) {
      out.set(block as never, at);
      at += block.length;
    }
    return out;
  }
}
