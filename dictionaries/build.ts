/**
 * The dictionary build command, `npm run dict:build`: reads every source under DATA_DIR (default ../shared/data), merges one model per
 * country and writes build/dictionaries/<country>.dict. Prints each country's summary and blob size.
 * Usage: tsx dictionaries/build.ts [--out DIR] [--no-gar-store] [country…]
 * `--no-gar-store`: ru's GAR read from the archive alone, without writing the update store (≈10 % less peak RSS at
 * 1 M houses; no delta can apply to the result: docs/UPDATES.md).
 */
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { buildModels, inTunedMalloc } from './countries.js';
import { writeBlob } from './blob-writer.js';
import { GA_LENGTH, gaOf, type MergedModel } from './merged-model.js';
import { GarStore } from './update/gar-store.js';
import { readBlobSections } from './update/blob-sections.js';

/** the update store of ru's GAR records beside the dictionaries (docs/UPDATES.md) */
export const GAR_STORE_FILE = 'ru.gar.mdb';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export async function buildDictionaries(
  options: { dataDir?: string; outDir?: string; countries?: ('ru' | 'kz' | 'by' | 'ua')[]; log?: (s: string) => void; garStore?: boolean; garOnly?: boolean } = {},
) {
  const dataDir = resolve(ROOT, options.dataDir ?? process.env.DATA_DIR ?? '../shared/data');
  const outDir = options.outDir ?? join(ROOT, 'build', 'dictionaries');
  const log = options.log ?? ((s: string) => console.log(s));
  const started = Date.now();
  const countries = options.countries ?? ['ru', 'kz', 'by', 'ua'];
  mkdirSync(outDir, { recursive: true });
  // ru's GAR records go through the update store, which a delta applies to later (update/apply-delta.ts)
  const store = countries.includes('ru') && options.garStore !== false ? GarStore.open(join(outDir, GAR_STORE_FILE), { create: true }) : undefined;
  // a store of an earlier build no longer matches a ru dictionary built without it: a delta must refuse, not apply to it
  if (countries.includes('ru') && !store) for (const file of [GAR_STORE_FILE, `${GAR_STORE_FILE}-lock`]) rmSync(join(outDir, file), { force: true });
  try {
    const stamp = (line: string) => log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);
    const models = await buildModels(dataDir, stamp, { countries, garStore: store && { store, ingest: true }, garOnly: options.garOnly });
    store?.setSources(options.garOnly ? 'gar' : 'all');
    const results = [];
    for (const model of models) results.push(await writeModel(model, outDir, log, model.country === 'ru' ? store : undefined));
    log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return results;
  } finally {
    await store?.close();
  }
}

/**
 * Writes `model` to `<outDir>/<country>.dict` (a temporary file renamed over it: a server reloading it never
 * reads half a file) and prints its summary; with a `store`, first keeps the objects' GA codes there for the
 * next update.
 */
export async function writeModel(model: MergedModel, outDir: string, log: (s: string) => void, store?: GarStore) {
  if (store) await store.setGaCodes(model.objects.map((object) => object.key), model.gaCodes ?? packedGa(model));
  const file = join(outDir, `${model.country}.dict`);
  // an update: the name sections of the blob it replaces are copied when the names are the same (`ReusedNames`)
  const digest = store?.namesDigest;
  const reuse = digest && existsSync(file) ? { digest, sections: (paths: readonly string[]) => readBlobSections(file, paths) } : undefined;
  const stats = await writeBlob(model, file, undefined, reuse);
  store?.setNamesDigest(stats.namesDigest);
  log(`${model.country}: ${stats.objects} objects, ${stats.houses} houses, ${stats.words} words, ${stats.names} names → ${file} (${(stats.bytes / 1024).toFixed(0)} KiB)`);
  for (const [key, value] of Object.entries(model.summary)) log(`  ${key}: ${value}`);
  return { country: model.country, file, stats };
}

/** the GA codes of a model without `gaCodes`, packed (a code of another length as spaces: none to keep) */
function packedGa(model: MergedModel): Uint8Array {
  const blank = ' '.repeat(GA_LENGTH);
  return Buffer.from(model.objects.map((_, index) => {
    const ga = gaOf(model, index);
    return ga.length === GA_LENGTH ? ga : blank;
  }).join(''), 'latin1');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // a national build runs with glibc's malloc tuned (countries.ts BUILD_MALLOC_ENV): this process waits for it
  const status = inTunedMalloc();
  if (status !== null) process.exit(status);
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const outDir = outAt >= 0 ? resolve(args.splice(outAt, 2)[1]) : undefined;
  const noStoreAt = args.indexOf('--no-gar-store');
  if (noStoreAt >= 0) args.splice(noStoreAt, 1);
  const countries = args.length ? (args as ('ru' | 'kz' | 'by' | 'ua')[]) : undefined;
  buildDictionaries({ outDir, countries, garStore: noStoreAt < 0 }).catch((err) => {
    console.error(`dictionary build failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
