/**
 * Reading a zip entry by entry without extracting it: yauzl reads the central directory (zip64 included,
 * so the 50 GB national GAR archive works) and opens any entry as a stream, in the order the caller wants.
 *
 * Inflating is ours, not yauzl's: yauzl hands out the raw deflate bytes and `zlib.createInflateRaw` runs
 * with 256 KB output chunks instead of zlib's default 16 KB. Each chunk is one round trip between the
 * main thread and the libuv pool, so larger chunks inflate faster (measured on the 2-core build machine,
 * the XML of the 1 M-house synthetic archive inflated and nothing else: ≈ 520 MB/s with 64 KB chunks,
 * ≈ 900 MB/s with 256 KB; 16 KB gave about half of 64 KB). The stored bytes are read in 256 KB pieces too,
 * from where the entry's local header (yauzl) says they start; with yauzl's own 16 KB stream under them the
 * same inflating ran at ≈ 600 MB/s, with both ≈ 840 MB/s on a busier machine. The inflated size is checked
 * against the directory's, as yauzl does.
 */
import yauzl from 'yauzl';
import { createReadStream } from 'node:fs';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

export interface ZipArchive {
  entries: yauzl.Entry[];
  /** the inflated bytes of an entry (chunks of up to 256 KB) */
  open(entry: yauzl.Entry): Promise<Readable>;
  close(): void;
}

const INFLATE_CHUNK = 256 * 1024;
const READ_CHUNK = 256 * 1024;

export async function openZip(path: string): Promise<ZipArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) =>
      error ? reject(new Error(`${path}: not a readable zip: ${error.message}`, { cause: error })) : resolve(file!),
    ),
  );
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (error: Error) => reject(new Error(`${path}: bad zip directory after ${entries.length} entries: ${error.message}`, { cause: error })));
    zip.readEntry();
  });
  // the entry's stored bytes, read in READ_CHUNK pieces from where its local header says they start (yauzl's
  // own stream reads 16 KB at a time: a read and a callback per 16 KB was 6 % of a scan thread)
  const raw = (entry: yauzl.Entry) =>
    new Promise<Readable>((resolve, reject) =>
      zip.readLocalFileHeader(entry, { minimal: true }, (error, header) => {
        if (error) return reject(new Error(`${path}: cannot open ${entry.fileName}: ${error.message}`, { cause: error }));
        if (entry.compressedSize === 0) return resolve(Readable.from([]));
        const start = header.fileDataStart;
        resolve(createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: READ_CHUNK }));
      }),
    );
  return {
    entries,
    open: async (entry) => {
      if (entry.isEncrypted()) throw new Error(`${path}: ${entry.fileName} is encrypted`);
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw new Error(`${path}: ${entry.fileName}: unsupported compression method ${entry.compressionMethod}`);
      const stream = await raw(entry);
      // a failure in any stage destroys `check` with it, so the reader's loop throws
      const check = new ByteCount(entry.uncompressedSize, `${path}: ${entry.fileName}`);
      if (entry.compressionMethod === 8) pipeline(stream, createInflateRaw({ chunkSize: INFLATE_CHUNK }), check, ignore);
      else pipeline(stream, check, ignore);
      return check;
    },
    close: () => zip.close(),
  };
}

function ignore(): void {}

/** Passes chunks through and fails at the end when their total is not the size the directory gives. */
class ByteCount extends Transform {
  private seen = 0;
  constructor(
    private readonly expected: number,
    private readonly name: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.expected) done(new Error(`${this.name}: more than the ${this.expected} bytes the zip directory gives`));
    else done(null, chunk);
  }
  override _flush(done: TransformCallback): void {
    done(this.seen === this.expected ? null : new Error(`${this.name}: ${this.seen} bytes inflated, the zip directory gives ${this.expected}`));
  }
}
