/**
 * The update store's scan worker (started by `storeRecords` in gar-ingest.ts): reads the blocks of the tables of
 * its plan in order, cuts their rows into values (`StoredRecord`) and posts them packed as the archive's scan
 * worker does (io/gar-scan-worker.ts), at most `BATCHES_AHEAD / SCALE` batches (of SCALE times the size) ahead of the reader. It lets the store's
 * mapping go every 64 MB of blocks read (`GarStore.unmapRead`), and closes the store before it posts the end of
 * the plan's last table, so the reader's thread opens it again on a file no other thread holds.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BATCHES_AHEAD, RecordPacker, scanPort, type ScanMessage } from '../io/gar-scan.js';
import { GAR_TABLES } from '../io/gar-tables.js';
import { GarStore, StoredRecord } from './gar-store.js';
import { regionOfJob, type StoreScanData } from './gar-ingest.js';

const { path, plan, last } = workerData as StoreScanData;
/**
 * batches four times the archive scan's, a quarter as many ahead (as many bytes): the rows come cut already, so a
 * batch is quick to fill and the messages, one each way per batch, were ≈ 2 % of the reader's thread at 10 M houses
 */
const SCALE = 4;
const { spare, post, postBatch, wait } = scanPort(parentPort!, BATCHES_AHEAD / SCALE);

const store = GarStore.open(path);
let final: ScanMessage | undefined;
for (const { index: job, table, fileName } of plan) {
  const slots = GAR_TABLES[table].layout.names.length;
  const packer = new RecordPacker(job, slots, postBatch, spare, SCALE);
  const record = new StoredRecord(slots);
  try {
    await store.unmapRead();
    let records = 0;
    for (const block of store.blocks(regionOfJob(fileName), table)) {
      records = record.rows(block, records, (row) => packer.add(row));
      const paused = wait();
      if (paused) await paused;
    }
    packer.flush();
    if (job === last) final = { done: job, records };
    else post({ done: job, records });
  } catch (error) {
    packer.flush();
    final = { job, error: `${path}: ${fileName}: ${(error as Error).message}` };
    break;
  }
}
await store.close();
if (final) post(final);
