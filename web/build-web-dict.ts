/**
 * Web dictionaries: each country blob of build/dictionaries with what hints do not show left out, for the
 * in-browser engine (web/engine.ts). The format is the blob's own (magic, format version, sections, their
 * checksums), so LoadedDictionary reads it unchanged; a host column left out reads as empty.
 *
 *   kept     every core section but metro; object names, types, hierarchy, levels, codes (fias, gar,
 *            kladr, osm, ga), postcodes, timezones, coordinates; house labels (number and parts), flags,
 *            postcodes, house codes, coordinates (core sections)
 *   dropped  okato, oktmo, ifns; house cadastral numbers and flat counts; apartments; metro
 *
 * Hints (`method: 'suggest'` records) come out the same as the server's; `standardize` offline lacks only
 * houseDetails.additional (cadastral number, flat count), apartments and metro.
 *
 *   tsx web/build-web-dict.ts [--from build/dictionaries] [--to build/web] [ru kz …]
 *
 * writes <to>/<country>.dict and <country>.dict.gz and prints each one's size per 1,000 houses.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { pack } from 'msgpackr';
import { decodeBlob } from '../engine/dictionary.js';
import { blobMapBytes } from '../dictionaries/blob-writer.js';
import { COUNTRIES, type Country } from '../engine/types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const DROPPED_OBJECT_COLUMNS = ['okato', 'oktmo', 'ifns'];
const DROPPED_HOUSE_COLUMNS = ['cadnum', 'cadnumOther', 'flatCount'];

export interface WebDictionaryStats {
  country: Country;
  /** YYYYMMDD of the source data */
  sourceDate: string;
  objects: number;
  houses: number;
  /** the server blob it came from */
  sourceBytes: number;
  bytes: number;
  gzipBytes: number;
  /** the web blob's bytes that grow with houses (core house records and keys, host house columns) */
  houseBytes: number;
  dropped: string[];
}

/** The web blob of a server blob's bytes. */
export function webBlob(sourceBytes: Uint8Array, source = 'blob'): { bytes: Uint8Array; stats: WebDictionaryStats } {
  const blob = decodeBlob(sourceBytes, source) as ReturnType<typeof decodeBlob> & Record<string, unknown>;
  const dropped: string[] = [];

  const objects: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(blob.host.objects)) {
    if (DROPPED_OBJECT_COLUMNS.includes(name)) dropped.push(`objects.${name}`);
    else objects[name] = values;
  }

  // municipal entities: hints show the municipal level; their OKATO/OKTMO go as the objects' do
  const municipal: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(blob.host.municipal ?? {})) {
    if (values === null || values === undefined) continue;
    if (DROPPED_OBJECT_COLUMNS.includes(name)) dropped.push(`municipal.${name}`);
    else municipal[name] = values;
  }

  // house columns no house fills are already absent from the server's blob (house-store.ts)
  const houses: Record<string, Uint8Array | string[]> = {};
  for (const [name, value] of Object.entries(blob.host.houses)) {
    if (DROPPED_HOUSE_COLUMNS.includes(name)) dropped.push(`houses.${name}`);
    // decoded from bytes: no section is left in a file (a `ColdSection` comes only from engine/blob-file.ts)
    else houses[name] = value as Uint8Array | string[];
  }
  const apartmentCount = blob.counts.apartments ?? 0;
  const metroCount = blob.counts.metro ?? 0;
  if (apartmentCount) dropped.push('apartments');
  if (metroCount) dropped.push('metro');

  const { metro: _metro, ...core } = blob.core;
  const web = {
    ...blob,
    counts: { ...blob.counts, apartments: 0, metro: 0 },
    variant: 'web',
    dropped,
    core,
    host: { types: blob.host.types, objects, municipal, houses, apartments: {}, metro: {} },
  };
  // written as the builder writes a blob: its own section checksums and build id
  const bytes = blobMapBytes(web);
  const houseCount = (core.houses?.byteLength ?? 0) / 4;
  const houseBytes = (core.houses?.byteLength ?? 0) + (core.houseLabels?.byteLength ?? 0) + (core.houseKeys?.byteLength ?? 0) +
    (core.houseCoords?.byteLength ?? 0) + pack(houses).length;
  return {
    bytes,
    stats: {
      country: blob.country,
      sourceDate: blob.sourceDate,
      objects: (core.objects?.byteLength ?? 0) / 40,
      houses: houseCount,
      sourceBytes: sourceBytes.byteLength,
      bytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
      houseBytes,
      dropped,
    },
  };
}

export interface BuildOptions {
  /** folder of the server blobs (default build/dictionaries) */
  from?: string;
  /** output folder (default build/web) */
  to?: string;
  countries?: readonly Country[];
  log?: (line: string) => void;
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** One line per country: sizes, and the size per 1,000 houses (whole blob, and the house-borne part alone). */
export function describe(stats: WebDictionaryStats): string {
  const perThousand = stats.houses > 0
    ? `${kb((stats.bytes / stats.houses) * 1000)} per 1,000 houses (${kb((stats.gzipBytes / stats.houses) * 1000)} gzip; ` +
      `house records alone ${kb((stats.houseBytes / stats.houses) * 1000)})`
    : 'no houses';
  return `web dictionary ${stats.country}: ${kb(stats.bytes)} (${kb(stats.gzipBytes)} gzip; server blob ${kb(stats.sourceBytes)}), ` +
    `${stats.objects} objects, ${stats.houses} houses, ${perThousand}`;
}

export async function writeAtomically(file: string, bytes: Uint8Array | string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
}

/** Writes <to>/<country>.dict (and .dict.gz) for every country blob found in <from>. */
export async function buildWebDictionaries(options: BuildOptions = {}): Promise<WebDictionaryStats[]> {
  const from = resolve(options.from ?? join(ROOT, 'build', 'dictionaries'));
  const to = resolve(options.to ?? join(ROOT, 'build', 'web'));
  await mkdir(to, { recursive: true });
  const out: WebDictionaryStats[] = [];
  for (const country of options.countries ?? COUNTRIES) {
    const file = join(from, `${country}.dict`);
    if (!existsSync(file)) continue;
    const { bytes, stats } = webBlob(await readFile(file), file);
    await writeAtomically(join(to, `${country}.dict`), bytes);
    await writeAtomically(join(to, `${country}.dict.gz`), gzipSync(bytes, { level: 9 }));
    options.log?.(describe(stats));
    out.push(stats);
  }
  if (out.length === 0) throw new Error(`no dictionary blobs in ${from}: build them first with npm run dict:build`);
  return out;
}

/** The command line of this script and build-packs.ts: `[--from dir] [--to dir] [country …]`, then `build` runs. */
export async function runCountriesCli(name: string, build: (options: BuildOptions) => Promise<unknown>): Promise<void> {
  const args = process.argv.slice(2);
  const option = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const from = option('--from');
  const to = option('--to');
  const countries = args.filter((a) => (COUNTRIES as readonly string[]).includes(a)) as Country[];
  try {
    await build({ from, to, countries: countries.length ? countries : undefined, log: (line) => console.log(line) });
  } catch (err) {
    console.error(`${name} failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCountriesCli('build-web-dict', buildWebDictionaries);
}
