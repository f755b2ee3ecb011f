/**
 * A region worker (started by `readRegionsInWorkers`, gar-regions.ts): runs the GAR reader (`readRegion`) over
 * each region folder it is given, on the rows the main thread sends it as the update store keeps them
 * (`StoredRecord`), and sends back what the reader hands its sink: the calls in order, the houses packed
 * (house-pack.ts). A batch of houses is sent once full, and before a call that is not a house, so that the
 * sink sees the houses and the other calls in the order the reader made them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { GAR_TABLES } from '../io/gar-tables.js';
import type { ScanJob } from '../io/gar-scan.js';
import { TypeTable, type AddressType } from '../types.js';
import { StoredRecord } from '../update/gar-store.js';
import { HousePacker, HOUSE_WITHOUT_NUMBER, hasHouseNumber, packedBuffers, type PackedHouses } from '../house-pack.js';
import type { ModelSink } from '../source-model.js';
import { readRegion, type GarCounts, type RegionOptions } from './gar.js';
import type { FromRegionWorker, RegionWorkerData, SinkCall, ToRegionWorker } from './gar-regions.js';

const { label, options, typeLists } = workerData as RegionWorkerData;
const port = parentPort!;
// the main thread's type table: the file's, enriched as the build enriched it (types.ts `enrich`)
const types = TypeTable.load();
types.enrich(options.types as AddressType[]);

/** the pieces of rows received, by entry, in order (null: the entry's end) */
const rows = new Map<string, Array<Buffer | null>>();
const regions: Array<{ region: number; folder: string; jobs: ScanJob[] }> = [];
let wake: (() => void) | undefined;
port.on('message', (message: ToRegionWorker) => {
  if ('jobs' in message) regions.push(message);
  else {
    const list = rows.get(message.fileName) ?? [];
    list.push(message.rows === null ? null : Buffer.from(message.rows.buffer, message.rows.byteOffset, message.rows.byteLength));
    rows.set(message.fileName, list);
  }
  const woken = wake;
  wake = undefined;
  woken?.();
});
const next = async <T>(take: () => T | undefined): Promise<T> => {
  for (;;) {
    const value = take();
    if (value !== undefined) return value;
    await new Promise<void>((resolve) => (wake = resolve));
  }
};

const post = (message: FromRegionWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function readOne(region: number, folder: string, jobs: ScanJob[]): Promise<void> {
  const calls: SinkCall[] = [];
  const houses: PackedHouses[] = [];
  const packer = new HousePacker();
  /** the batch of houses packed so far into the calls, in its place */
  const close = () => {
    const batch = packer.take();
    if (batch) {
      calls.push(['h']);
      houses.push(batch);
    }
  };
  const send = () => {
    close();
    const transfer = houses.flatMap(packedBuffers);
    post({ region, calls: calls.splice(0), houses: houses.splice(0) }, transfer);
  };
  const call = (entry: SinkCall) => {
    close();
    calls.push(entry);
    if (calls.length >= 4096) send();
  };
  const sink: ModelSink = {
    country: 'ru',
    addObject: (object) => call(['o', object]),
    addMunicipal: (municipal) => call(['m', municipal]),
    addHouse: (house) => {
      if (!hasHouseNumber(house)) return call(['j', house.source, HOUSE_WITHOUT_NUMBER]);
      if (!packer.add(house)) return call(['r', house]);
      if (packer.full) send();
    },
    addApartment: (apartment) => call(['a', apartment]),
    addMetro: () => {
      throw new Error('GAR has no metro stations');
    },
    addPostcode: () => {
      throw new Error('GAR has no post offices');
    },
    addSource: () => {},
    reject: (source, reason) => call(['j', source, reason]),
  };
  const counts: GarCounts = { objects: 0, houses: 0, steads: 0, apartments: 0, xmlBytes: 0 };
  const files = new Map(jobs.map((job) => [job.table as string, job]));
  const regionOptions: RegionOptions = { ...options, types, log: (line) => call(['l', line]) };
  await readRegion(label, folder, files, async (job, handle) => {
    const record = new StoredRecord(GAR_TABLES[job.table].layout.names.length);
    let index = 0;
    for (;;) {
      const piece = await next(() => rows.get(job.fileName)?.shift());
      if (piece === null) break;
      index = record.rows(piece, index, handle);
      post({ consumed: piece.length });
    }
    rows.delete(job.fileName);
    return index;
  }, sink, regionOptions, typeLists, counts);
  send();
  post({ region, done: { objects: counts.objects, houses: counts.houses, steads: counts.steads, apartments: counts.apartments } });
}

try {
  for (;;) {
    const { region, folder, jobs } = await next(() => regions.shift());
    await readOne(region, folder, jobs);
  }
} catch (error) {
  post({ error: `${label}: ${(error as Error).message}` });
}
