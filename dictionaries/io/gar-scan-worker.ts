/**
 * The GAR scan worker (started by `workerScan` in gar-scan.ts): inflates and scans the entries of its plan
 * in order, keeps the records `GAR_TABLES` says the reader wants, and posts them packed, at most
 * `BATCHES_AHEAD` batches ahead of the reader. Stops at the first error, posted with the file and record.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { streamFlatXml } from './flat-xml.js';
import { RecordPacker, scanPort, type ScanWorkerData } from './gar-scan.js';
import { GAR_TABLES, scanLayout } from './gar-tables.js';
import { openZip } from './zip.js';

const { zipPath, filter, plan } = workerData as ScanWorkerData;
const port = parentPort!;

const { spare, post, postBatch, wait } = scanPort(port);

const zip = await openZip(zipPath);
const entries = new Map(zip.entries.map((entry) => [entry.fileName, entry]));
for (const { index: job, table, fileName } of plan) {
  const { keep } = GAR_TABLES[table];
  const layout = scanLayout(table, filter.withIds);
  const packer = new RecordPacker(job, layout.names.length, postBatch, spare);
  try {
    const records = await streamFlatXml(
      await zip.open(entries.get(fileName)!),
      `${zipPath}:${fileName}`,
      layout,
      (record) => {
        if (keep(record, filter)) packer.add(record);
      },
      wait,
    );
    packer.flush();
    post({ done: job, records });
  } catch (error) {
    packer.flush();
    post({ job, error: (error as Error).message });
    break;
  }
}
zip.close();
