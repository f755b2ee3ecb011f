/**
 * `applyDelta`: GAR delta archives (`gar_delta_xml.zip`, in date order) applied to the dictionaries of a
 * directory, without the full archive: each delta's records go into the update store the full build wrote
 * (gar-ingest.ts), then ru's model is merged again from the store's records and the other sources of
 * DATA_DIR and its blob rewritten beside the old one and renamed over it. Objects keep their GA codes; the
 * dictionary's version becomes the newest delta's date. A running server takes the new file on SIGHUP.
 */
import { join, resolve } from 'node:path';
import { buildModels, GAR_BUILD_OPTIONS } from '../countries.js';
import { GAR_STORE_FILE, writeModel } from '../build.js';
import { GarStore } from './gar-store.js';
import { ingestGarArchive, type IngestCounts } from './gar-ingest.js';

export interface ApplyDeltaOptions {
  /** delta archives, oldest first */
  deltas: string[];
  /** the dictionaries' directory: `ru.dict` and the store `ru.gar.mdb` of the last build */
  dir: string;
  /** the other sources of the ru dictionary (default `DATA_DIR`, else ../shared/data) */
  dataDir: string;
  /** the date params must be valid on, `YYYY-MM-DD` (default: today, as the full build) */
  asOf?: string;
  log?: (line: string) => void;
  /** region workers reading the store (`GarOptions.regionThreads`; default: two for a store of 1 GB or more) */
  regionThreads?: number;
}

export interface ApplyDeltaResult {
  /** the dictionary's registry date after the update, `YYYYMMDD` */
  date: string;
  deltas: Array<IngestCounts & { file: string; ms: number }>;
  /** the rewritten blob */
  file: string;
  /** the name sections were copied from the blob replaced (its objects' names unchanged: blob-writer.ts `ReusedNames`) */
  namesReused: boolean;
  /** time to apply the records to the store, and to rebuild the blob from it */
  ingestMs: number;
  rebuildMs: number;
}

export async function applyDelta(options: ApplyDeltaOptions): Promise<ApplyDeltaResult> {
  if (options.deltas.length === 0) throw new Error('no delta archive given (--delta gar_delta_xml.zip)');
  const log = options.log ?? (() => {});
  const store = GarStore.open(join(options.dir, GAR_STORE_FILE));
  try {
    const started = Date.now();
    const filter = { asOf: options.asOf ?? new Date().toISOString().slice(0, 10), houseCodes: GAR_BUILD_OPTIONS.houseCodes };
    const deltas: ApplyDeltaResult['deltas'] = [];
    for (const file of options.deltas) {
      const at = Date.now();
      const counts = await ingestGarArchive(resolve(file), store, { filter, log });
      deltas.push({ ...counts, file, ms: Date.now() - at });
      log(`${file}: ${counts.records} records of ${counts.date} (${counts.kept} kept, ${counts.dropped} dropped) in ${Date.now() - at} ms`);
    }
    const ingestMs = Date.now() - started;
    const [model] = await buildModels(options.dataDir, log, {
      countries: ['ru'],
      garStore: { store, ingest: false },
      garOnly: store.sources === 'gar',
      previousGa: store.gaCodes(),
      regionThreads: options.regionThreads,
    });
    const { file, stats } = await writeModel(model, options.dir, log, store);
    return { date: store.date, deltas, file, namesReused: stats.namesReused, ingestMs, rebuildMs: Date.now() - started - ingestMs };
  } finally {
    await store.close();
  }
}
