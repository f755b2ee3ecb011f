/**
 * Where the GAR reader's records come from. The reader's work splits in two: inflating and scanning the
 * XML (most of it: ≈ 2.2 KB of XML per house), and turning the records it keeps into maps and model
 * records. `inlineScan` does both in this thread. `workerScan` runs the first part in worker threads, each
 * through its share of the plan of entries (entry i to thread i mod n) and ahead of the reader by a bounded
 * number of batches, so inflating and scanning run beside the records' processing and beside each other
 * (`GarOptions.scanThreads`). Measured on this 2-core machine, full build at 1 M houses: the read takes
 * ≈ 21 s scanned here, ≈ 13 s with two threads; one thread alone is no faster than none (packing, a second
 * heap, ≈ 0.4 s to start it).
 *
 * A batch carries the kept records of one entry packed for transfer (no copy between threads): the raw
 * bytes of the layout's values, back to back, and per record and slot their start, end and flags, plus
 * each record's number and byte offset in its file (for errors). The reader sees each packed record
 * through the same `FlatRecord` accessors as a scanned one, so its code is the same on both paths.
 */
import { Worker, type MessagePort } from 'node:worker_threads';
import { FlatRecord, recordError, streamFlatXml } from './flat-xml.js';
import { GAR_TABLES, scanLayout, type GarTableName, type ScanFilter } from './gar-tables.js';
import type { ZipArchive } from './zip.js';

/** one entry of the archive to scan */
export interface ScanJob {
  table: GarTableName;
  fileName: string;
  /** its XML bytes (the entry's uncompressed size): what it costs to scan */
  bytes: number;
}

export interface GarScan {
  /**
   * The kept records of `job`, the next entry of the plan, in file order (each valid only during the
   * call); resolves with the number of records in the file.
   */
  read(job: ScanJob, handle: (record: FlatRecord) => void): Promise<number>;
  close(): Promise<void>;
}

/** the entry's name in errors, as the scanner gives it */
const fileLabel = (zipPath: string, job: ScanJob) => `${zipPath}:${job.fileName}`;

/** scanning in this thread */
export function inlineScan(zip: ZipArchive, zipPath: string, filter: ScanFilter): GarScan {
  const entries = new Map(zip.entries.map((entry) => [entry.fileName, entry]));
  return {
    async read(job, handle) {
      const { keep } = GAR_TABLES[job.table];
      const layout = scanLayout(job.table, filter.withIds);
      const stream = await zip.open(entries.get(job.fileName)!);
      return streamFlatXml(stream, fileLabel(zipPath, job), layout, (record) => {
        if (keep(record, filter)) handle(record);
      });
    },
    close: async () => {},
  };
}

// ---- packed batches ----

/** a batch is posted when its values reach this many bytes or it holds this many records */
const BATCH_BYTES = 256 * 1024;
const BATCH_RECORDS = 4096;
/**
 * batches the worker may post before the reader has taken them (≈ 12 MB of values ahead at most). While the
 * reader takes a large entry (a region's house params) from one thread, the other works this far into its next
 * entries: 16 left it idle for most of such an entry (10 M houses: read 73.5 s at 16, 66.5 s at 48, 66.1 s at
 * 128; peak RSS 738, 773 and 860 MB)
 */
export const BATCHES_AHEAD = 48;

/** The views of one batch share one buffer (`bytes.buffer`), transferred whole. */
export interface PackedBatch {
  job: number;
  count: number;
  bytes: Uint8Array;
  /** per record and slot: value start and end in `bytes` (start −1: absent) and flags */
  starts: Int32Array;
  ends: Int32Array;
  flags: Uint8Array;
  /** per record: its number in the file, then its byte offset */
  places: Float64Array;
}

/** a batch's buffer is at least this big, so that one buffer serves any batch after it (a full batch of 7 slots ≈ 640 KB) */
const BATCH_BUFFER_BYTES = 1024 * 1024;

/** Collects kept records of one entry into batches. */
export class RecordPacker {
  private bytes = new Uint8Array(BATCH_BYTES + 64 * 1024);
  private used = 0;
  private count = 0;
  private starts: Int32Array;
  private ends: Int32Array;
  private flags: Uint8Array;
  private places = new Float64Array(BATCH_RECORDS * 2);

  constructor(
    private readonly job: number,
    private readonly slots: number,
    private readonly post: (batch: PackedBatch) => void,
    /** buffers of batches the reader has handed back, to use again (no buffer made per batch) */
    private readonly spare: ArrayBuffer[] = [],
  ) {
    this.starts = new Int32Array(BATCH_RECORDS * slots);
    this.ends = new Int32Array(BATCH_RECORDS * slots);
    this.flags = new Uint8Array(BATCH_RECORDS * slots);
  }

  add(record: FlatRecord): void {
    const { slots } = this;
    const base = this.count * slots;
    const source = record.bytes;
    const { starts, ends, flags, base: from } = record;
    for (let slot = 0; slot < slots; slot++) {
      const start = starts[from + slot];
      if (start < 0) {
        this.starts[base + slot] = -1;
        continue;
      }
      const length = ends[from + slot] - start;
      if (this.used + length > this.bytes.length) this.grow(length);
      const bytes = this.bytes;
      let at = this.used;
      this.starts[base + slot] = at;
      if (length < 32) for (let i = 0; i < length; i++) bytes[at++] = source[start + i];
      else {
        bytes.set(source.subarray(start, start + length), at);
        at += length;
      }
      this.ends[base + slot] = at;
      this.flags[base + slot] = flags[from + slot];
      this.used = at;
    }
    this.places[this.count * 2] = record.index;
    this.places[this.count * 2 + 1] = record.offset;
    if (++this.count === BATCH_RECORDS || this.used >= BATCH_BYTES) this.flush();
  }

  /** posts what is collected (nothing when empty) */
  flush(): void {
    if (this.count === 0) return;
    const n = this.count * this.slots;
    // one buffer for the whole batch, transferred as one, and back once read: the reader's and this thread's
    // collectors then see no new external memory per batch (a new buffer each time had both run a full
    // collection every few batches, ≈ 0.8 s of each thread's time at 1 M houses); five smaller buffers a batch
    // had stayed in glibc's malloc arenas after the threads were done (≈ 60 MB at 1 M houses)
    const size = this.count * 16 + n * 9 + this.used;
    let buffer = this.spare.pop();
    if (buffer === undefined || buffer.byteLength < size) buffer = new ArrayBuffer(Math.max(size, BATCH_BUFFER_BYTES));
    const places = new Float64Array(buffer, 0, this.count * 2);
    const starts = new Int32Array(buffer, this.count * 16, n);
    const ends = new Int32Array(buffer, this.count * 16 + n * 4, n);
    const flags = new Uint8Array(buffer, this.count * 16 + n * 8, n);
    const bytes = new Uint8Array(buffer, this.count * 16 + n * 9, this.used);
    places.set(this.places.subarray(0, this.count * 2));
    starts.set(this.starts.subarray(0, n));
    ends.set(this.ends.subarray(0, n));
    flags.set(this.flags.subarray(0, n));
    bytes.set(this.bytes.subarray(0, this.used));
    this.post({ job: this.job, count: this.count, bytes, starts, ends, flags, places });
    this.used = 0;
    this.count = 0;
  }

  private grow(length: number): void {
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.used + length));
    bigger.set(this.bytes.subarray(0, this.used));
    this.bytes = bigger;
  }
}

/** Hands each packed record of `batch` to `handle` through `record` (which steps through the batch's arrays). */
function unpack(batch: PackedBatch, slots: number, element: string, record: FlatRecord, handle: (record: FlatRecord) => void, file: string): void {
  const { places } = batch;
  record.bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  record.element = element;
  record.starts = batch.starts;
  record.ends = batch.ends;
  record.flags = batch.flags;
  for (let i = 0; i < batch.count; i++) {
    record.base = i * slots;
    record.index = places[i * 2];
    record.offset = places[i * 2 + 1];
    try {
      handle(record);
    } catch (error) {
      throw recordError(file, record, error);
    }
  }
}

// ---- the worker ----

export interface ScanWorkerData {
  zipPath: string;
  filter: ScanFilter;
  /** this worker's entries, each with its index in the whole plan */
  plan: (ScanJob & { index: number })[];
}

/** messages of the worker: a batch, the end of an entry (its record count), or the error that stopped it */
export type ScanMessage = { batch: PackedBatch } | { done: number; records: number } | { job: number; error: string };

const TSX_API = import.meta.resolve('tsx/esm/api');
/** the URL of the module `name` beside the module of URL `base`, as this build runs (TypeScript through tsx, or compiled) */
export const moduleBeside = (name: string, base: string) => new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base).href;
const WORKER_FILE = moduleBeside('gar-scan-worker', import.meta.url);

/** a worker thread running the module of URL `workerFile` with `workerData` */
export function startWorker(workerFile: string, workerData: unknown): Worker {
  // the worker loads TypeScript through tsx's loader, registered in the worker before its module; both by
  // absolute URL, as an evaluated worker resolves a bare name from the working directory, not from here
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then(({ register }) => { register(); return import(${JSON.stringify(workerFile)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * A scan worker's side of its port: `postBatch` posts a batch (counted until the reader hands its buffer back,
 * into `spare`), `wait` is a promise while `BATCHES_AHEAD` batches are not taken yet (else undefined).
 */
export function scanPort(port: MessagePort) {
  let ahead = 0;
  let resume: (() => void) | undefined;
  /** the buffers of batches the reader has taken, handed back to use again */
  const spare: ArrayBuffer[] = [];
  port.on('message', (buffer: ArrayBuffer) => {
    spare.push(buffer);
    ahead--;
    if (ahead < BATCHES_AHEAD && resume) {
      resume();
      resume = undefined;
    }
  });
  const post = (message: ScanMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  return {
    spare,
    post,
    postBatch: (batch: PackedBatch) => {
      ahead++;
      post({ batch }, [batch.bytes.buffer as ArrayBuffer]);
    },
    wait: () => (ahead >= BATCHES_AHEAD ? new Promise<void>((resolve) => (resume = resolve)) : undefined),
  };
}

/** One scan worker: the entries of the plan it works through, and the messages it has posted not yet taken. */
interface ScanThread {
  worker: Worker;
  queue: ScanMessage[];
  /** why it stopped, when it did: seen once its queue is empty (an entry's error is a message before it) */
  failure?: Error;
}

/**
 * The thread of each entry of `plan`: the one with the fewest bytes so far (the first at a tie), so that at every
 * point of the plan the threads have as much to scan behind them. Entry i to thread i mod n gave one of two
 * threads 70 % of the XML: a region's tables come in a fixed order, and the even ones hold the house params.
 */
export function assignThreads(plan: readonly ScanJob[], threads: number): number[] {
  const load = new Array<number>(threads).fill(0);
  return plan.map(({ bytes }) => {
    let least = 0;
    for (let t = 1; t < threads; t++) if (load[t] < load[least]) least = t;
    load[least] += bytes;
    return least;
  });
}

/**
 * Scanning in `threads` worker threads (default 1): each entry of `plan` goes to one thread (`assignThreads`),
 * each works through its entries in order, so the threads inflate and scan entries side by side while this thread
 * handles the records. `read` must be called for the plan's entries in the plan's order.
 */
export function workerScan(zipPath: string, filter: ScanFilter, plan: ScanJob[], threads = 1): GarScan {
  return threadScan(zipPath, WORKER_FILE, plan, threads, (jobs) => ({ zipPath, filter, plan: jobs }) satisfies ScanWorkerData, (job) => scanLayout(job.table, filter.withIds));
}

/**
 * The reader's side of scan workers of any source (`workerScan`: an archive; the update store's:
 * update/gar-ingest.ts `storeRecords`): `threads` workers of `workerFile` (an absolute URL), each given `workerData(its jobs)`,
 * posting `ScanMessage`s through `scanPort`, the records of each job packed in `layoutOf(job)`'s slots.
 */
export function threadScan(
  label: string,
  workerFile: string,
  plan: ScanJob[],
  threads: number,
  workerData: (jobs: (ScanJob & { index: number })[]) => object,
  layoutOf: (job: ScanJob) => { names: readonly string[]; element: string },
): GarScan {
  const count = Math.max(1, Math.min(threads, plan.length));
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const scanners: ScanThread[] = [];
  const indexed = plan.map((job, index) => ({ ...job, index }));
  const threadOf = assignThreads(plan, count);
  for (let t = 0; t < count; t++) {
    const jobs = indexed.filter(({ index }) => threadOf[index] === t);
    const worker = startWorker(workerFile, workerData(jobs));
    const scanner: ScanThread = { worker, queue: [] };
    worker.on('message', (message: ScanMessage) => {
      scanner.queue.push(message);
      notify();
    });
    worker.on('error', (error) => {
      scanner.failure ??= new Error(`${label}: the scan worker failed: ${error.message}`, { cause: error });
      notify();
    });
    worker.on('exit', (code) => {
      scanner.failure ??= new Error(`${label}: the scan worker stopped (exit ${code}) before the reader was done`);
      notify();
    });
    scanners.push(scanner);
  }
  const next = async (scanner: ScanThread): Promise<ScanMessage> => {
    while (scanner.queue.length === 0) {
      if (scanner.failure) throw scanner.failure;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return scanner.queue.shift()!;
  };
  let position = 0;
  const record = new FlatRecord(Math.max(...Object.values(GAR_TABLES).map((table) => table.layout.names.length)) + 1);
  return {
    async read(job, handle) {
      const index = position++;
      if (plan[index]?.fileName !== job.fileName) throw new Error(`gar-scan: read ${job.fileName} out of plan order (expected ${plan[index]?.fileName})`);
      const layout = layoutOf(job);
      const file = fileLabel(label, job);
      const scanner = scanners[threadOf[index]];
      for (;;) {
        const message = await next(scanner);
        if ('batch' in message) {
          const { buffer } = message.batch.bytes;
          try {
            unpack(message.batch, layout.names.length, layout.element, record, handle, file);
          } finally {
            // taken: the worker may post one more batch, in this buffer
            scanner.worker.postMessage(buffer, [buffer as ArrayBuffer]);
          }
        } else if ('error' in message) throw new Error(message.error);
        else return message.records;
      }
    },
    async close() {
      for (const { worker } of scanners) worker.removeAllListeners('exit');
      await Promise.all(scanners.map(({ worker }) => worker.terminate()));
    },
  };
}
