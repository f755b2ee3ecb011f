/**
 * GAR archives into the update store, and the store back out as GAR's records.
 *
 * `ingestGarArchive` reads a `gar_xml.zip` or a `gar_delta_xml.zip` (the same layout: type lists at the
 * root, one folder per region of `AS_*_<date>_<guid>.XML`; a delta holds only the records that changed)
 * entry by entry with the flat-record scanner, each record with its `ID` besides the attributes the reader
 * reads. A record the reader keeps (`GAR_TABLES[table].keep`) replaces the row of its ID; any other removes
 * it. So a renamed object (its old record again, no longer actual; the new one under a new ID), a retired
 * house, a moved hierarchy row and an ended param each change the rows as a full archive of the same date
 * would have them, in time proportional to the records in the archive.
 *
 * `storeRecords` is the `GarRecordSource` of the store: `readGarRecords` (sources/gar.ts) reads it as it
 * reads an archive, table by table in the reader's order, each table's rows in ID order.
 */
import { statSync } from 'node:fs';
import type { Entry } from 'yauzl';
import { streamFlatXml } from '../io/flat-xml.js';
import { defaultScanThreads, groupEntries, type GarRecordSource } from '../sources/gar.js';
import { inlineScan, workerScan, type ScanJob } from '../io/gar-scan.js';
import { GAR_TABLES, idSlot, REGION_TABLES, scanLayout, TYPE_TABLES, type GarTableName, type ScanFilter } from '../io/gar-tables.js';
import { openZip, type ZipArchive } from '../io/zip.js';
import { GarStore, storedValue } from './gar-store.js';

export interface IngestOptions {
  /** the reader's filter (`asOf`: the date params must be valid on; `houseCodes`: keep the houses' OKATO, OKTMO, IFNS) */
  filter: ScanFilter;
  /** the store is empty (a full archive): no row to remove, no date to check */
  fresh?: boolean;
  log?: (line: string) => void;
}

export interface IngestCounts {
  /** the archive's registry date, `YYYYMMDD` (the newest date in its file names) */
  date: string;
  records: number;
  /** rows written (new or replaced) */
  kept: number;
  /** records the reader does not keep, whose rows were removed (when there were any) */
  dropped: number;
}

/** Applies the records of the archive at `zipPath` to `store`; a delta older than the store's records is refused. */
export async function ingestGarArchive(zipPath: string, store: GarStore, options: IngestOptions): Promise<IngestCounts> {
  const zip = await openZip(zipPath);
  try {
    const { root, regions, date } = groupEntries(zip.entries, zipPath);
    if (!options.fresh && date < store.date) {
      throw new Error(`${zipPath}: delta of ${date} is older than the store's records (${store.date}); apply deltas in date order`);
    }
    const counts: IngestCounts = { date, records: 0, kept: 0, dropped: 0 };
    const entries: Array<[string, GarTableName, Entry]> = [];
    for (const table of TYPE_TABLES) if (root.has(table)) entries.push(['', table, root.get(table)!]);
    for (const [region, files] of [...regions].sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (const table of REGION_TABLES) if (files.has(table)) entries.push([region, table, files.get(table)!]);
    }
    if (options.fresh) {
      await ingestKept(zip, zipPath, entries, store, options.filter, counts);
      entries.length = 0;
    }
    for (const [region, table, entry] of entries) {
      const { layout, keep } = GAR_TABLES[table];
      const slots = layout.names.length;
      const scanned = scanLayout(table, true);
      const id = idSlot(table);
      const started = Date.now();
      // the entry's rows by record id, the last record of an id winning (null: the row removed)
      const changes = new Map<number, Buffer | null>();
      const n = await streamFlatXml(await zip.open(entry), `${zipPath}:${entry.fileName}`, scanned, (record) => {
        if (record.element !== layout.element) return;
        const recordId = record.int(id);
        if (!Number.isSafeInteger(recordId) || recordId < 0) throw new Error(`ID="${record.text(id)}" is not a record id`);
        counts.records++;
        if (keep(record, options.filter)) {
          changes.set(recordId, storedValue(record, slots));
          counts.kept++;
        } else {
          changes.set(recordId, null);
          counts.dropped++;
        }
      });
      store.applyRows(region, table, changes);
      if (n > 100_000) options.log?.(`gar store: ${entry.fileName}: ${n} records, ${Date.now() - started} ms`);
    }
    store.setDate(date > store.date || options.fresh ? date : store.date, regions.keys());
    // the pages the writes touched (a delta's: one or two per record) leave the RSS before the rebuild reads
    await store.unmapRead(true);
    return counts;
  } finally {
    zip.close();
  }
}

/**
 * A full archive into an empty store: only the records the reader keeps are wanted (nothing to remove), so the
 * archive reader's scan threads do the scanning (`workerScan`, with each record's ID), as for a build from it.
 */
async function ingestKept(zip: ZipArchive, zipPath: string, entries: Array<[string, GarTableName, Entry]>, store: GarStore, filter: ScanFilter, counts: IngestCounts) {
  const plan: ScanJob[] = entries.map(([, table, entry]) => ({ table, fileName: entry.fileName, bytes: entry.uncompressedSize }));
  const threads = defaultScanThreads(plan.reduce((sum, { bytes }) => sum + bytes, 0));
  const withIds = { ...filter, withIds: true };
  const scan = threads > 0 ? workerScan(zipPath, withIds, plan, threads) : inlineScan(zip, zipPath, withIds);
  try {
    for (let i = 0; i < plan.length; i++) {
      const [region, table] = entries[i];
      const id = idSlot(table);
      const slots = GAR_TABLES[table].layout.names.length;
      const writer = store.tableWriter(region, table);
      counts.records += await scan.read(plan[i], (record) => {
        const recordId = record.int(id);
        if (!Number.isSafeInteger(recordId) || recordId < 0) throw new Error(`ID="${record.text(id)}" is not a record id`);
        writer.add(recordId, storedValue(record, slots));
        counts.kept++;
      });
      await writer.end();
    }
    await store.putsDone();
  } finally {
    await scan.close();
  }
  counts.dropped = counts.records - counts.kept;
}

/**
 * The store's rows as GAR's records (see the module comment): `read` hands them to the reader in this thread;
 * `storedRows` gives them as they are stored, for region workers (sources/gar-regions.ts). Either way the store's
 * mapping is let go every 64 MB of blocks read (`GarStore.unmapRead`).
 */
export function storeRecords(store: GarStore): GarRecordSource {
  const job = (region: string, table: GarTableName): ScanJob => ({ table, fileName: `${region || 'root'}/${table}`, bytes: 0 });
  const tables = (region: string, names: readonly GarTableName[]) => new Map(names.map((table) => [table, job(region, table)]));
  return {
    label: store.path,
    date: store.date,
    root: tables('', TYPE_TABLES),
    regions: new Map(store.regions().map((region) => [region, tables(region, REGION_TABLES)])),
    read: async ({ table, fileName }, handle) => {
      await store.unmapRead();
      return store.readRecords(regionOfJob(fileName), table, GAR_TABLES[table].layout.names.length, handle);
    },
    storedRows: ({ table, fileName }, bytes) => store.rowPieces(regionOfJob(fileName), table, bytes),
    storedBytes: statSync(store.path).size,
  };
}

/** the region folder of a job of `storeRecords` (`''`: the root's type lists) */
export function regionOfJob(fileName: string): string {
  const region = fileName.slice(0, fileName.indexOf('/'));
  return region === 'root' ? '' : region;
}
