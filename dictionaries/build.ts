/**
 * `npm run dict:build`: reads every source under DATA_DIR (default ../shared/data), merges one model per
 * country and writes build/dictionaries/<country>.dict. Prints each country's summary and blob size.
 * Usage: tsx dictionaries/build.ts [--out DIR] [country…]
 */
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildModels, inTunedMalloc } from './build-model.js';
import { writeBlob } from './blob-writer.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export async function buildDictionaries(options: { dataDir?: string; outDir?: string; countries?: ('ru' | 'kz' | 'by' | 'ua')[]; log?: (s: string) => void } = {}) {
  const dataDir = resolve(ROOT, options.dataDir ?? process.env.DATA_DIR ?? '../shared/data');
  const outDir = options.outDir ?? join(ROOT, 'build', 'dictionaries');
  const log = options.log ?? ((s: string) => console.log(s));
  const started = Date.now();
  const models = await buildModels(dataDir, (line) => log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`), { countries: options.countries });
  const results = [];
  for (const model of models) {
    const file = join(outDir, `${model.country}.dict`);
    const stats = await writeBlob(model, file);
    log(`${model.country}: ${stats.objects} objects, ${stats.houses} houses, ${stats.words} words, ${stats.names} names → ${file} (${(stats.bytes / 1024).toFixed(0)} KiB)`);
    for (const [key, value] of Object.entries(model.summary)) log(`  ${key}: ${value}`);
    results.push({ country: model.country, file, stats });
  }
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // a national build runs with glibc's malloc tuned (build-model.ts BUILD_MALLOC_ENV): this process waits for it
  const status = inTunedMalloc();
  if (status !== null) process.exit(status);
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const outDir = outAt >= 0 ? resolve(args.splice(outAt, 2)[1]) : undefined;
  const countries = args.length ? (args as ('ru' | 'kz' | 'by' | 'ua')[]) : undefined;
  buildDictionaries({ outDir, countries }).catch((err) => {
    console.error(`dictionary build failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
