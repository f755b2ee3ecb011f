/**
 * The build per country: runs every reader over the shared data directory (`DATA_DIR`) into one merge per
 * country (merge/) and returns the merged models. Which file feeds which country, and the city each OSM
 * extract covers, is declared here; readers know formats, not deployments. `build.ts` writes the blobs from
 * what this returns.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { ModelBuilder } from './merge/sink.js';
import type { MergedModel } from './merged-model.js';
import { readGar, readGarRecords, type GarOptions } from './sources/gar.js';
import type { GarStore } from './update/gar-store.js';
import type { PreviousGa } from './merge/ga-codes.js';
import { ingestGarArchive, storeRecords } from './update/gar-ingest.js';
import { readHflabs, readSocrbase } from './sources/hflabs.js';
import { readKladrAltnames, readKladrSocrbase } from './sources/kladr-dbf.js';
import { typeTable } from './types.js';
import { readMetro } from './sources/metro.js';
import { readOsmXml, readOverpassGeojson, type OsmCity } from './sources/osm.js';
import { readPost } from './sources/post.js';
import { readKato } from './sources/kz.js';
import { readKatottg } from './sources/ua.js';
import { readGeonamesPostal } from './sources/geonames.js';

/** how the builder reads GAR (bench/build-scale.ts reads it the same way): houses without their own OKATO, OKTMO, IFNS, which the house store does not keep */
export const GAR_BUILD_OPTIONS = { houseCodes: false } as const satisfies GarOptions;

type Country = 'ru' | 'kz' | 'by' | 'ua';

/** OSM extracts: file → its country and city (none: the file's points carry `addr:city` and place nodes) */
const OSM_FILES: Array<{ file: string; country: Country; city?: OsmCity; date: string }> = [
  { file: 'osm/ru-moscow-aeroport.osm', country: 'ru', city: { name: 'Москва', regionName: 'Москва' }, date: '20120101' },
  { file: 'osm/ru-spb-peterhof.osm', country: 'ru', city: { name: 'Санкт-Петербург', regionName: 'Санкт-Петербург' }, date: '20110101' },
  { file: 'osm/ru-spb-vasilyevsky.osm', country: 'ru', city: { name: 'Санкт-Петербург', regionName: 'Санкт-Петербург' }, date: '20240101' },
  { file: 'osm/ru-vladivostok-russky.osm', country: 'ru', city: { name: 'Владивосток', regionName: 'Приморский' }, date: '20180101' },
  { file: 'osm/ru-tatarstan-lenina-osmand.osm', country: 'ru', date: '20200101' },
  { file: 'osm/ru-places-komsomolskaya-osmand.osm', country: 'ru', date: '20200101' },
  { file: 'osm/by-minsk-center.osm', country: 'by', city: { name: 'Мінск', regionName: 'Мінск' }, date: '20240101' },
  { file: 'osm/ua-kyiv-saksahanskoho-osmand.osm', country: 'ua', date: '20200101' },
];

const METRO_CITIES: Record<Country, string[]> = {
  ru: ['Самара', 'Москва', 'Казань', 'Новосибирск', 'Санкт-Петербург', 'Екатеринбург', 'Нижний Новгород'],
  kz: ['Алматы'],
  by: ['Минск'],
  ua: ['Харьков', 'Днепр (Днепропетровск)', 'Киев'],
};

export interface BuildOptions {
  countries?: Country[];
  /**
   * ru's GAR through the update store (docs/UPDATES.md): `ingest`, the archive of DATA_DIR is written into it
   * first (a full build, the store emptied); else the store's records are read as they are (an update)
   */
  garStore?: { store: GarStore; ingest: boolean };
  /** ru from GAR alone (and the type abbreviations): the scale benches and the update tests */
  garOnly?: boolean;
  /** GA codes of an earlier build by object key, kept where the objects stay (merge/ga-codes.ts) */
  previousGa?: PreviousGa;
  /** region workers reading ru's GAR from the store (`GarOptions.regionThreads`; default: by the store's size) */
  regionThreads?: number;
}

/**
 * Lets the build's heap grow only a fifth past what survived the last full collection before V8 collects
 * again (its default lets a large heap grow by half or more). At national scale the merge holds about a
 * gigabyte of live objects, so the default slack is hundreds of megabytes of garbage in the peak RSS; the
 * price is a few more full collections (measured in bench/build-scale.ts).
 */
export function boundHeapGrowth(percent = 20): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * glibc malloc settings for a national build (ignored by other C libraries): buffers of 128 KB and more are
 * mapped for themselves and given back when freed, instead of glibc raising its threshold as they are freed
 * (up to 32 MB, so the house chunks and read buffers came from arenas that rarely shrink), and two arenas
 * rather than one per thread of the inflating pool. Measured on the 10 M-house synthetic archive
 * (bench/build-scale.ts): peak RSS 976 → 857 MB, build time unchanged. They act only when set before the
 * process starts: `inTunedMalloc` runs the build again with them.
 */
export const BUILD_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' } as const;

/**
 * Runs this very command again in a child with `BUILD_MALLOC_ENV` and `v8Flags` (and returns its exit code) unless
 * the malloc settings are set already (this is that child) or `DICT_BUILD_MALLOC=default` says to leave the process
 * alone; returns null when this process is the one to build. By default the flags are `--expose-gc`: the blob writer
 * then collects the model's objects once it has written them, and each column's garbage (less peak RSS, ≈ 5 s more
 * at 10 M houses).
 */
export function inTunedMalloc(v8Flags: readonly string[] = ['--expose-gc']): number | null {
  if (process.env.DICT_BUILD_MALLOC === 'default') return null;
  if (Object.entries(BUILD_MALLOC_ENV).every(([name, value]) => process.env[name] === value)) return null;
  const execArgv = [...process.execArgv, ...v8Flags.filter((flag) => !process.execArgv.includes(flag))];
  const child = spawnSync(process.execPath, [...execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, ...BUILD_MALLOC_ENV },
  });
  if (child.error) throw child.error;
  return child.status ?? 1;
}

/**
 * V8 flags of an update (scripts/dict-update.ts): young generation semi-spaces of 64 MB instead of 16, the
 * collector not exposed. The reader makes small objects and strings per record that die young; with small
 * semi-spaces the scavenges promote much of them, for the old generation's full collections to find. Measured at
 * 10 M houses (bench/update-scale.ts, the store read in the reader's thread): 86.5 → 74.9 s, CPU 79.6 → 73.0 s,
 * peak RSS 1,460 → 1,493 MB. The blob writer's own collections (`--expose-gc`) would add ≈ 5 s there, and the
 * update is within its memory.
 */
export const UPDATE_V8_FLAGS = ['--max-semi-space-size=64'] as const;

export async function buildModels(dataDir: string, log: (line: string) => void, options: BuildOptions = {}): Promise<MergedModel[]> {
  boundHeapGrowth();
  const countries = options.countries ?? (['ru', 'kz', 'by', 'ua'] as Country[]);
  const models: MergedModel[] = [];
  for (const country of countries) {
    const started = Date.now();
    const builder = new ModelBuilder(country, { log, previousGa: options.previousGa });
    await readCountry(country, dataDir, builder, log, options);
    log(`${country}: sources read in ${Date.now() - started} ms, merging`);
    const model = builder.finish();
    log(`${country}: ${model.objects.length} objects, ${model.houseCount} houses in ${Date.now() - started} ms`);
    models.push(model);
  }
  return models;
}

async function readCountry(country: Country, dataDir: string, builder: ModelBuilder, log: (line: string) => void, options: BuildOptions): Promise<void> {
  const path = (relative: string) => {
    const full = join(dataDir, relative);
    if (!existsSync(full)) throw new Error(`source file missing: ${full} (DATA_DIR=${dataDir})`);
    return full;
  };
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await run();
    log(`${country}: ${name}: ${JSON.stringify(result)} in ${Date.now() - started} ms`);
    return result;
  };
  if (country === 'ru') {
    await step('types', async () => ({
      added: typeTable().enrich([...(await readSocrbase(path('ru/hflabs/socrbase.csv'))), ...(await readKladrSocrbase(path('ru/kladr/SOCRBASE.DBF')))]),
    }));
    const garStore = options.garStore;
    if (garStore?.ingest) {
      const store = garStore.store;
      await store.clear();
      const filter = { asOf: new Date().toISOString().slice(0, 10), houseCodes: GAR_BUILD_OPTIONS.houseCodes };
      await step('gar store', () => ingestGarArchive(path('ru/gar/gar_xml.zip'), store, { filter, fresh: true, log }));
    }
    await step('gar', () =>
      garStore ? readGarRecords(storeRecords(garStore.store), builder, { ...GAR_BUILD_OPTIONS, log, regionThreads: options.regionThreads }) : readGar(path('ru/gar/gar_xml.zip'), builder, { ...GAR_BUILD_OPTIONS, log }),
    );
    if (options.garOnly) return;
    await step('hflabs', () => readHflabs({ region: path('ru/hflabs/region.csv'), city: path('ru/hflabs/city.csv') }, builder));
    const ekaterinburg = path('osm/ru-ekaterinburg');
    const files = readdirSync(ekaterinburg)
      .filter((f) => f.endsWith('.geojson'))
      .sort()
      .map((f) => join(ekaterinburg, f));
    await step('osm Екатеринбург', () =>
      readOverpassGeojson(files, builder, { city: { name: 'Екатеринбург', regionName: 'Свердловская' }, date: '20200517', log }),
    );
    await step('post', () => readPost(path('ru/post/pindx.csv'), builder));
    await step('kladr altnames', () => readKladrAltnames(path('ru/kladr/ALTNAMES.DBF'), builder));
  }
  if (country === 'kz') await step('kato', () => readKato(path('kz/kato.csv'), builder));
  if (country === 'ua') {
    await step('katottg', () => readKatottg(path('ua/katottg-2025-05-16.csv'), builder));
    await step('geonames', () => readGeonamesPostal(path('ua/geonames-postal-UA.txt'), builder));
  }
  if (country === 'by') {
    await step('geonames', () =>
      readGeonamesPostal(path('by/geonames-postal-BY.txt'), builder, { createObjects: true, capital: { name: 'Минск', admin1: 'Minsk', aliases: ['Мінск', 'Minsk'] } }),
    );
  }
  for (const osm of OSM_FILES.filter((f) => f.country === country)) {
    await step(`osm ${osm.file}`, () => readOsmXml(path(osm.file), builder, { city: osm.city, date: osm.date, log }));
  }
  await step('metro', () => readMetro(path('ru/metro/hh-metro.json'), builder, { cities: METRO_CITIES[country], date: '20210101' }));
}
