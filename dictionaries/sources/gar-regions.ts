/**
 * GAR's region folders read side by side: a source that hands out its rows as the update store keeps them
 * (`GarRecordSource.storedRows`: a rebuild, a full build's read after it wrote the store) is read by region
 * workers (gar-region-worker.ts), region i by worker i mod n, while this thread merges what they send, region by
 * region in order. The regions are independent for the reader (its maps are dropped at the end of each), so each
 * worker runs the same `readRegion` as this thread would; what it hands the sink comes here as an ordered list of
 * calls, the houses among them packed (house-pack.ts: the merge appends them without a JS object or a string
 * look-up per house), and the sink sees the very calls, in the very order, of a read in this thread.
 *
 * This thread alone opens the store: LMDB's mapped pages count in the process's RSS until no thread has the file
 * open (gar-store.ts `unmapRead`), so the workers are sent the rows, each table in pieces of ROWS_BYTES, at most
 * AHEAD_BYTES of them not yet read per worker, and no region more than `threads` past the one being merged. The
 * store's reads are made one at a time (`serial`): `unmapRead` closes and reopens it between them.
 *
 * Measured at 10 M houses (docs/UPDATES.md): the read of a rebuild, ≈ 45 s of this thread's time, becomes the
 * store's cursor and the packed houses appended here, the rest of it in the two workers.
 */
import type { Worker } from 'node:worker_threads';
import { moduleBeside, startWorker, type ScanJob } from '../io/gar-scan.js';
import type { AddressObject, ApartmentRecord, HouseRecord, ModelSink, MunicipalObject } from '../source-model.js';
import { unpackHouse, type PackedHouses } from '../house-pack.js';
import { tablePlan, type GarCounts, type GarRecordSource, type RegionOptions, type TypeLists } from './gar.js';

/** a piece of a table's rows sent to a worker, bytes */
const ROWS_BYTES = 4 * 2 ** 20;
/** rows sent to a worker and not yet read by it, bytes at most */
const AHEAD_BYTES = 32 * 2 ** 20;

/** a call of the reader on its sink, as a worker sends it (`h`: the next batch of packed houses) */
export type SinkCall =
  | ['o', AddressObject]
  | ['m', MunicipalObject]
  | ['h']
  | ['r', HouseRecord]
  | ['a', ApartmentRecord]
  | ['j', string, string]
  | ['l', string];

/** what the main thread sends a region worker */
export type ToRegionWorker =
  | { region: number; folder: string; jobs: ScanJob[] }
  | { rows: Buffer | null; fileName: string };

/** what a region worker sends back */
export type FromRegionWorker =
  | { region: number; calls: SinkCall[]; houses: PackedHouses[] }
  | { region: number; done: Omit<GarCounts, 'xmlBytes'> }
  | { consumed: number }
  | { error: string };

export interface RegionWorkerData {
  label: string;
  options: Omit<RegionOptions, 'log' | 'types'> & { types: unknown[] };
  typeLists: TypeLists;
}

const WORKER_FILE = moduleBeside('gar-region-worker', import.meta.url);

interface Reader {
  worker: Worker;
  queue: FromRegionWorker[];
  ahead: number;
  failure?: Error;
}

export async function readRegionsInWorkers(run: {
  source: GarRecordSource;
  regions: Array<[string, Map<string, ScanJob>]>;
  sink: ModelSink;
  options: RegionOptions;
  typeLists: TypeLists;
  counts: GarCounts;
  threads: number;
}): Promise<void> {
  const { source, regions, sink, options, typeLists, counts } = run;
  const storedRows = source.storedRows!;
  const { log, types, ...plain } = options;
  const data: RegionWorkerData = { label: source.label, options: { ...plain, types: types.types }, typeLists };
  const readers: Reader[] = [];
  // the senders and the merge wait here for a worker's message (or a failure)
  const waiting = new Set<() => void>();
  const notify = () => {
    const woken = [...waiting];
    waiting.clear();
    for (const wake of woken) wake();
  };
  const until = async (ready: () => boolean) => {
    while (!ready()) await new Promise<void>((resolve) => waiting.add(resolve));
  };
  let failure: Error | undefined;
  for (let t = 0; t < Math.min(run.threads, regions.length); t++) {
    const reader: Reader = { worker: startWorker(WORKER_FILE, data), queue: [], ahead: 0 };
    reader.worker.on('message', (message: FromRegionWorker) => {
      if ('consumed' in message) reader.ahead -= message.consumed;
      else if ('error' in message) failure ??= new Error(message.error);
      else reader.queue.push(message);
      notify();
    });
    reader.worker.on('error', (error) => {
      failure ??= new Error(`${source.label}: a region worker failed: ${error.message}`, { cause: error });
      notify();
    });
    reader.worker.on('exit', (code) => {
      failure ??= new Error(`${source.label}: a region worker stopped (exit ${code}) before the read was done`);
      notify();
    });
    readers.push(reader);
  }
  const check = () => {
    if (failure) throw failure;
    return true;
  };
  // the store's reads one at a time (its `unmapRead` closes and reopens it between them)
  let serial: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(step: () => Promise<T>): Promise<T> => {
    const next = serial.then(step);
    serial = next.catch(() => {});
    return next;
  };
  let merging = 0;
  const send = async (t: number) => {
    const reader = readers[t];
    for (let r = t; r < regions.length; r += readers.length) {
      await until(() => check() && r <= merging + readers.length);
      const [folder, files] = regions[r];
      const jobs = tablePlan(files, options);
      reader.worker.postMessage({ region: r, folder, jobs } satisfies ToRegionWorker);
      for (const job of jobs) {
        const pieces = storedRows(job, ROWS_BYTES);
        for (;;) {
          await until(() => check() && reader.ahead < AHEAD_BYTES);
          const piece = await inTurn(() => pieces.next());
          if (piece.done) break;
          reader.ahead += piece.value.length;
          reader.worker.postMessage({ rows: piece.value, fileName: job.fileName } satisfies ToRegionWorker, [piece.value.buffer as ArrayBuffer]);
        }
        reader.worker.postMessage({ rows: null, fileName: job.fileName } satisfies ToRegionWorker);
      }
    }
  };
  const senders = readers.map((_, t) =>
    send(t).catch((error: Error) => {
      failure ??= error;
      notify();
    }),
  );
  try {
    for (; merging < regions.length; merging++) {
      notify();
      const started = Date.now();
      const reader = readers[merging % readers.length];
      for (let done = false; !done; ) {
        await until(() => check() && reader.queue.length > 0);
        const message = reader.queue.shift()!;
        if ('done' in message) {
          counts.objects += message.done.objects;
          counts.houses += message.done.houses;
          counts.steads += message.done.steads;
          counts.apartments += message.done.apartments;
          done = true;
        } else if ('calls' in message) replay(message.calls, message.houses, sink, log);
      }
      log(`gar: region ${regions[merging][0]} done in ${Date.now() - started} ms (${counts.objects} objects, ${counts.houses} houses so far)`);
    }
    await Promise.all(senders);
    check();
  } finally {
    failure ??= new Error('the read was stopped');
    notify();
    // a sender may be reading a piece of the store (which `unmapRead` closes and reopens): done before the caller
    // may close it; each stops at its next check
    await Promise.all(senders);
    await Promise.all(readers.map(({ worker }) => worker.terminate()));
  }
}

/** a worker's calls on the sink made here, in their order */
function replay(calls: SinkCall[], houses: PackedHouses[], sink: ModelSink, log: (line: string) => void): void {
  let batch = 0;
  for (const call of calls) {
    switch (call[0]) {
      case 'o':
        sink.addObject(call[1]);
        break;
      case 'm':
        sink.addMunicipal(call[1]);
        break;
      case 'h': {
        const packed = houses[batch++];
        if (sink.addPackedHouses) sink.addPackedHouses(packed);
        else for (let i = 0; i < packed.count; i++) sink.addHouse(unpackHouse(packed, i));
        break;
      }
      case 'r':
        sink.addHouse(call[1]);
        break;
      case 'a':
        sink.addApartment(call[1]);
        break;
      case 'j':
        sink.reject(call[1], call[2]);
        break;
      case 'l':
        log(call[1]);
        break;
    }
  }
}
