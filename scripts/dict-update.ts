/**
 * Applies GAR delta archives to the built ru dictionary (dictionaries/update/apply-delta.ts, docs/UPDATES.md).
 * Exits non-zero with the reason when an archive is missing or unreadable, is older than the dictionary, or
 * no full build wrote the update store yet.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { applyDelta } from '../dictionaries/update/apply-delta.js';
import { inTunedMalloc, UPDATE_V8_FLAGS } from '../dictionaries/countries.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

// run with glibc malloc tuned and the update's V8 flags (countries.ts): this process waits for that child
const status = inTunedMalloc(UPDATE_V8_FLAGS);
if (status !== null) process.exit(status);

const program = new Command('dict-update')
  .description('apply GAR delta archives (gar_delta_xml.zip) to the built ru dictionary, without the full archive')
  .requiredOption('--delta <file>', 'a delta archive; repeat for several, oldest first', (file: string, files: string[]) => [...files, file], [] as string[])
  .option('--dir <dir>', 'the dictionaries directory (ru.dict and its update store ru.gar.mdb)', resolve(ROOT, 'build', 'dictionaries'))
  .option('--data-dir <dir>', 'the other sources of the dictionary (DATA_DIR)', resolve(ROOT, process.env.DATA_DIR ?? '../shared/data'))
  .option('--as-of <date>', 'the date params must be valid on, YYYY-MM-DD (default: today)')
  .action(async (options: { delta: string[]; dir: string; dataDir: string; asOf?: string }) => {
    const started = Date.now();
    const result = await applyDelta({ deltas: options.delta, dir: resolve(options.dir), dataDir: resolve(options.dataDir), asOf: options.asOf, log: (line) => console.log(line) });
    console.log(`ru dictionary now of ${result.date}: ${result.file} (store ${result.ingestMs} ms, rebuild ${result.rebuildMs} ms${result.namesReused ? ', names as they were' : ''}, ${Date.now() - started} ms in all)`);
    console.log('a running server takes it on SIGHUP');
  });

program.parseAsync().catch((error: unknown) => {
  console.error(`dict-update failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
