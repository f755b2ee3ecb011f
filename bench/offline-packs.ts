/**
 * Offline packs at national size (docs/OFFLINE.md): the entry pack and the place packs of web/build-packs.ts
 * cut from synthetic blobs (bench/build-scale.ts's archives, built by its build child) and from the real extracts
 * of build/dictionaries, with their sizes (bytes and gzip -9), where the bytes go (gzip per section), the manifest's
 * size, the time to cut them, and in Node the time from the entry pack's bytes to the first hint and from a place
 * pack's bytes to its first street hint. The entry's growth is extrapolated to 35 M houses two ways: linearly in
 * houses through the two largest synthetic sizes, and by its bytes per place times the places of a national
 * dictionary.
 *
 *   nice -n 5 npx tsx bench/offline-packs.ts [--sizes 250000,1000000,4000000] [--generator template|national]
 *                                            [--places 160000 [--real-places] | --city 60000]
 *                                            [--no-extracts] [--results bench/offline-packs.json]
 *
 * `--places N`: one dictionary of N places (national names) of HOUSES_PER_PLACE houses each, one in CITY_EVERY a
 * city, the others settlements: the entry pack at a national count of places (`--real-places`: with the records of
 * the ua extract's real places, `withRealPlaces`). `--city H`: one city of H houses (the
 * template's copies' streets under one city, a name each): the pack of a city of a million people.
 *
 * Archives and blobs are kept in build/synth/ (ru-gar-[national-]<houses>.dict) and reused (bench/build-scale.ts's
 * generators: `template` copies region 99 into towns, `national` names streets and villages as the country does);
 * the packs are cut into build/synth/packs-<houses>/.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { pack } from 'msgpackr';
import { decodeBlob } from '../engine/dictionary.js';
import { PooledColumn } from '../engine/columns.js';
import { codesFiles, packFile, type PackEntry, type PacksManifest } from '../engine/packs.js';
import { defaultWasmFile } from '../engine/index.js';
import { buildCountryPacks } from '../web/build-packs.js';
import { webBlob } from '../web/build-web-dict.js';
import { blobMapBytes } from '../dictionaries/blob-writer.js';
import { createEngine } from '../web/engine.js';
import { existingArchive, generateGarScale, type GarScaleOptions } from './synth/gar-scale.js';
import { existingNational, generateGarNational } from './synth/gar-national.js';
import { BUILD_MALLOC_ENV } from '../dictionaries/countries.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DATA_DIR = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
const SYNTH_DIR = join(ROOT, 'build', 'synth');
const BUILD_SCALE = join(ROOT, 'bench', 'build-scale.ts');

const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function runChild(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  return new Promise((done, fail) => child.on('close', (code) => (code === 0 ? done(stdout) : fail(new Error(`${script} ${args[0]} failed (exit ${code})`)))));
}

/**
 * The synthetic server blob of `houses` houses: generated and built once, then reused. `shape`: a national count of
 * places of a few houses each (gar-scale.ts `places`), or one city of all the houses in one region (`oneCity`).
 */
export async function syntheticBlob(houses: number, national = false, shape: Pick<GarScaleOptions, 'places' | 'oneCity'> = {}): Promise<string> {
  await mkdir(SYNTH_DIR, { recursive: true });
  const kind = shape.places ? `places-${shape.places.copies}-` : shape.oneCity ? 'city-' : '';
  const name = `gar-${national ? 'national-' : ''}${kind}${houses}`;
  const options: GarScaleOptions = {
    source: join(DATA_DIR, 'ru/gar/gar_xml.zip'), seed: 1, regions: shape.oneCity ? 1 : 85, cadastralShare: 0.6, houses, out: join(SYNTH_DIR, `${name}.zip`), log, ...shape,
  };
  const archive = national
    ? (await existingNational(options)) ?? (await generateGarNational(options))
    : (await existingArchive(options)) ?? (await generateGarScale(options));
  const dictFile = join(SYNTH_DIR, `ru-${name}.dict`);
  if (!existsSync(dictFile) || statSync(dictFile).mtimeMs < statSync(archive.out).mtimeMs) {
    log(`${name}: building ${dictFile}`);
    await runChild(BUILD_SCALE, ['--child-build', archive.out, dictFile], BUILD_MALLOC_ENV);
  }
  return dictFile;
}


/** Sections of a pack and their gzip bytes each, largest first (where a pack's bytes go). */
function sectionSizes(bytes: Uint8Array): Array<{ section: string; bytes: number; gzipBytes: number }> {
  const out: Array<{ section: string; bytes: number; gzipBytes: number }> = [];
  const walk = (value: unknown, path: string) => {
    if (value === null || value === undefined) return;
    if (value instanceof Uint8Array || Array.isArray(value) || typeof value !== 'object') {
      const raw = value instanceof Uint8Array ? value : pack(value);
      if (raw.byteLength >= 64) out.push({ section: path, bytes: raw.byteLength, gzipBytes: gzipSync(raw, { level: 9 }).length });
      return;
    }
    for (const [key, v] of Object.entries(value)) walk(v, path ? `${path}.${key}` : key);
  };
  const blob = decodeBlob(bytes) as unknown as { pack: unknown; places?: unknown };
  walk(blob.pack, '');
  walk(blob.places, 'places');
  return out.sort((a, b) => b.gzipBytes - a.gzipBytes);
}

interface PackFigures {
  label: string;
  houses: number;
  places: number;
  cutSeconds: number;
  entry: PacksManifest['entry'];
  packs: number;
  largest: { name: string; houses: number; bytes: number; gzipBytes: number; codes: { chunks: number; bytes: number; gzipBytes: number; largestChunkGzipBytes: number } | null };
  median: { bytes: number; gzipBytes: number; houses: number };
  /** the smallest pack with houses: a village's */
  village: { name: string; houses: number; bytes: number; gzipBytes: number } | null;
  total: { bytes: number; gzipBytes: number };
  manifest: { bytes: number; gzipBytes: number };
  entrySections: ReturnType<typeof sectionSizes>;
  largestSections: ReturnType<typeof sectionSizes>;
  /** Node, one run: entry bytes → engine → first hint; then the largest pack's bytes → its first street hint */
  timings: { entryToFirstHintMs: number; packToStreetHintMs: number; hint: string };
  ekaterinburg?: { houses: number; bytes: number; gzipBytes: number; codes: PackEntry['codes'] };
}

/**
 * The web dictionary with its houses' coordinates taken from the real extract's houses (build/dictionaries/ru.dict,
 * mostly Екатеринбург's, in their order: a street's houses after one another), cycled, cycle k stretched by k × 7 %
 * about the first house and moved 0.05° north, so no cycle repeats another's steps (gzip would take a repeat to
 * nothing): GAR has no coordinates, so a synthetic city's houses have none, while a real city's have.
 */
async function withRealCoordinates(web: Uint8Array): Promise<Uint8Array> {
  const extract = decodeBlob(await readFile(join(ROOT, 'build', 'dictionaries', 'ru.dict')));
  const real = new Int32Array(new Uint8Array(extract.core.houseCoords!).buffer);
  const blob = decodeBlob(web) as ReturnType<typeof decodeBlob> & Record<string, unknown>;
  const houses = (blob.core.houses?.byteLength ?? 0) / 4;
  const pairs = real.length / 2;
  const coords = new Int32Array(houses * 2);
  for (let h = 0; h < houses; h++) {
    const cycle = Math.floor(h / pairs);
    const stretch = 1 + cycle * 0.07;
    const at = (h % pairs) * 2;
    coords[h * 2] = real[0] + Math.round((real[at] - real[0]) * stretch) + cycle * 50_000;
    coords[h * 2 + 1] = real[1] + Math.round((real[at + 1] - real[1]) * stretch);
  }
  return blobMapBytes({ ...blob, core: { ...blob.core, houseCoords: new Uint8Array(coords.buffer) } });
}

/**
 * The web dictionary with its places' records taken from the real places of an extract (build/dictionaries/ua.dict,
 * 29,978 places with coordinates, populations and postcodes, in its order: an area's places after one another):
 * the k-th entry object below the regions gets the k-th real place's coordinates (cycled, stretched and moved as
 * `withRealCoordinates` does), weight and postcode. GAR has no coordinates, and the generator's copies repeat one
 * record, which gzip takes to nothing; a real place's record is ≈6 bytes gzip, its postcode ≈2.6.
 */
async function withRealPlaces(web: Uint8Array): Promise<Uint8Array> {
  const extract = decodeBlob(webBlob(await readFile(join(ROOT, 'build', 'dictionaries', 'ua.dict'))).bytes);
  const real = new Int32Array(new Uint8Array(extract.core.objects).buffer);
  const realPostcodes = new PooledColumn(extract.host.objects.postcode);
  const donors: number[] = [];
  for (let id = 0; id < real.length / 10; id++) if (real[id * 10 + 1] > 1 && real[id * 10 + 1] <= 5 && real[id * 10 + 3] !== 0x7fffffff) donors.push(id);
  const blob = decodeBlob(web) as ReturnType<typeof decodeBlob> & Record<string, unknown>;
  const objects = new Int32Array(new Uint8Array(blob.core.objects).slice().buffer);
  const count = objects.length / 10;
  const lat = new Float64Array(count);
  const lon = new Float64Array(count);
  const postcodes = [''];
  const postcodeIds = new Uint32Array(count);
  const pooled = new Map<string, number>([['', 0]]);
  let k = 0;
  for (let id = 0; id < count; id++) {
    const level = objects[id * 10 + 1];
    if (level > 1 && level <= 5) {
      const cycle = Math.floor(k / donors.length);
      const donor = donors[k % donors.length] * 10;
      const stretch = 1 + cycle * 0.07;
      objects[id * 10 + 3] = real[donors[0] * 10 + 3] + Math.round((real[donor + 3] - real[donors[0] * 10 + 3]) * stretch) + cycle * 50_000;
      objects[id * 10 + 4] = real[donors[0] * 10 + 4] + Math.round((real[donor + 4] - real[donors[0] * 10 + 4]) * stretch);
      objects[id * 10 + 5] = real[donor + 5];
      const postcode = realPostcodes.get(donor / 10);
      if (!pooled.has(postcode)) {
        pooled.set(postcode, postcodes.length);
        postcodes.push(postcode);
      }
      postcodeIds[id] = pooled.get(postcode)!;
      k++;
    }
    if (objects[id * 10 + 3] !== 0x7fffffff) {
      lat[id] = objects[id * 10 + 3] / 1e6;
      lon[id] = objects[id * 10 + 4] / 1e6;
    }
  }
  const ids = postcodes.length > 0x10000 ? new Uint8Array(postcodeIds.buffer) : new Uint8Array(Uint16Array.from(postcodeIds).buffer);
  return blobMapBytes({
    ...blob,
    core: { ...blob.core, objects: new Uint8Array(objects.buffer) },
    host: { ...blob.host, objects: { ...blob.host.objects, lat: new Uint8Array(lat.buffer), lon: new Uint8Array(lon.buffer), postcode: { pool: postcodes, ids } } },
  });
}

async function measure(label: string, serverBlob: string, out: string, houses: number, real: 'coordinates' | 'places' | null = null): Promise<PackFigures> {
  const started = performance.now();
  const plain = webBlob(await readFile(serverBlob), serverBlob).bytes;
  const web = real === 'coordinates' ? await withRealCoordinates(plain) : real === 'places' ? await withRealPlaces(plain) : plain;
  await rm(out, { recursive: true, force: true });
  const manifest = await buildCountryPacks(web, out, serverBlob);
  const cutSeconds = (performance.now() - started) / 1000;
  const dir = join(out, manifest.country);
  const bySize = [...manifest.packs].sort((a, b) => a.gzipBytes - b.gzipBytes);
  const largest = bySize[bySize.length - 1];
  const median = bySize[Math.floor(bySize.length / 2)];
  const village = bySize.find((p) => p.houses > 0 && p.level === 5) ?? null;
  const manifestBytes = await readFile(join(dir, 'manifest.json'));
  const entryBytes = await readFile(join(dir, 'entry.dict'));
  const largestBytes = await readFile(join(dir, packFile(largest.id)));

  // in Node: the entry pack's bytes to the first hint of its place, then the place's pack to a street hint
  const wasm = await WebAssembly.compile(await readFile(defaultWasmFile()));
  const placeName = largest.name.toLowerCase();
  let t = performance.now();
  const engine = await createEngine(wasm, entryBytes, {});
  const first = engine.suggest(placeName, 5);
  const entryToFirstHintMs = performance.now() - t;
  t = performance.now();
  await engine.addPack(largest.id, largestBytes);
  const streets = engine.suggest(`${placeName} ${firstStreetWord(engine.suggest(placeName, 20))}`, 5);
  const packToStreetHintMs = performance.now() - t;
  if (first.length === 0) throw new Error(`no hint for ${placeName} from the entry pack`);
  const ekb = manifest.packs.find((p) => p.fullName === 'Свердловская обл, г Екатеринбург');
  return {
    label,
    houses,
    places: manifest.entry.objects,
    cutSeconds,
    entry: manifest.entry,
    packs: manifest.packs.length,
    largest: {
      name: largest.fullName, houses: largest.houses, bytes: largest.bytes, gzipBytes: largest.gzipBytes,
      codes: largest.codes && { ...largest.codes, largestChunkGzipBytes: Math.max(...await Promise.all(codesFiles(largest).map(async (file) => (await stat(join(dir, `${file}.gz`))).size))) },
    },
    median: { bytes: median.bytes, gzipBytes: median.gzipBytes, houses: median.houses },
    village: village && { name: village.fullName, houses: village.houses, bytes: village.bytes, gzipBytes: village.gzipBytes },
    total: { bytes: manifest.totals.bytes, gzipBytes: manifest.totals.gzipBytes },
    manifest: { bytes: manifestBytes.length, gzipBytes: gzipSync(manifestBytes, { level: 9 }).length },
    entrySections: sectionSizes(entryBytes).slice(0, 12),
    largestSections: sectionSizes(largestBytes).slice(0, 12),
    timings: { entryToFirstHintMs, packToStreetHintMs, hint: streets[0]?.addressFull ?? '' },
    ...(ekb ? { ekaterinburg: { houses: ekb.houses, bytes: ekb.bytes, gzipBytes: ekb.gzipBytes, codes: ekb.codes } } : {}),
  };
}

/** a street's first word among the hints of a place (after its pack is in, the place's streets show) */
function firstStreetWord(records: Array<{ street: { name: string } }>): string {
  return records.find((r) => r.street.name)?.street.name.split(/\s+/)[0]?.slice(0, 4).toLowerCase() ?? 'лен';
}

const NATIONAL_HOUSES = 35_000_000;
/** the places mode's houses a place (the template's first ones) and its share of cities (≈1,100 of ≈160,000 places) */
const HOUSES_PER_PLACE = 3;
const CITY_EVERY = 140;
/** entry objects of a national dictionary: ≈ 85 regions, 2,300 areas, 1,100 cities, 155,000 settlements (Rosstat 2021) */
const NATIONAL_PLACES = 160_000;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.indexOf(`--${name}`) >= 0 ? args[args.indexOf(`--${name}`) + 1] : undefined);
  const sizes = (option('sizes') ?? '250000,1000000,4000000').split(',').map(Number);
  const results: PackFigures[] = [];
  const national = option('generator') === 'national' || option('places') !== undefined || option('city') !== undefined;
  // --places N: N places of HOUSES_PER_PLACE houses (one in CITY_EVERY a city); --city H: one city of H houses
  const places = option('places') === undefined ? undefined : { copies: Number(option('places')), houses: HOUSES_PER_PLACE, cityEvery: CITY_EVERY };
  const oneCity = option('city') !== undefined;
  const runs = places ? [places.copies * HOUSES_PER_PLACE] : oneCity ? [Number(option('city'))] : sizes;
  for (const houses of runs) {
    const blob = await syntheticBlob(houses, national, { places, oneCity });
    log(`${houses}: cutting packs of ${blob}`);
    const kind = places ? ` places ${places.copies.toLocaleString('en-US')},` : oneCity ? ' one city,' : '';
    const label = `synthetic${national ? ' national' : ''}${kind} ${houses.toLocaleString('en-US')}`;
    const realPlaces = places && args.includes('--real-places');
    const figures = await measure(`${label}${realPlaces ? ', real place records' : ''}`, blob, join(SYNTH_DIR, `packs-${national ? 'national-' : ''}${places ? 'places-' : oneCity ? 'city-' : ''}${houses}`), houses, realPlaces ? 'places' : null);
    if (oneCity) {
      // the same city with real coordinates on its houses (withRealCoordinates)
      const real = await measure(`${label}, real coordinates`, blob, join(SYNTH_DIR, `packs-national-city-coords-${houses}`), houses, 'coordinates');
      results.push(figures);
      results.push(real);
      continue;
    }
    log(`${houses}: entry ${(figures.entry.gzipBytes / 1024).toFixed(1)} KB gzip, largest ${(figures.largest.gzipBytes / 1024).toFixed(1)} KB gzip`);
    results.push(figures);
  }
  const real: PackFigures[] = [];
  for (const country of args.includes('--no-extracts') ? [] : ['ru', 'ua', 'by', 'kz']) {
    const file = join(ROOT, 'build', 'dictionaries', `${country}.dict`);
    if (!existsSync(file)) continue;
    const houses = decodeBlob(await readFile(file)).counts.houses ?? 0;
    log(`${country}: cutting the packs of the extract`);
    if (houses === 0) continue;
    real.push(await measure(`extract ${country}`, file, join(SYNTH_DIR, `packs-${country}`), houses));
  }
  const [a, b] = results.slice(-2);
  const slope = b && a ? (b.entry.gzipBytes - a.entry.gzipBytes) / (b.houses - a.houses) : NaN;
  const perPlace = [...real, ...results].map((r) => ({ label: r.label, gzipBytesPerPlace: r.entry.gzipBytes / r.places }));
  const extrapolated = {
    byHouses: { method: `linear in houses through ${a?.houses} and ${b?.houses} synthetic houses`, gzipBytes: b ? b.entry.gzipBytes + slope * (NATIONAL_HOUSES - b.houses) : NaN, gzipBytesPerMillionHouses: slope * 1e6 },
    byPlaces: { method: `gzip bytes per entry place of each measured dictionary × ${NATIONAL_PLACES.toLocaleString('en-US')} places`, places: NATIONAL_PLACES, perPlace, gzipBytes: Math.max(...perPlace.map((p) => p.gzipBytesPerPlace)) * NATIONAL_PLACES, lowGzipBytes: Math.min(...perPlace.map((p) => p.gzipBytesPerPlace)) * NATIONAL_PLACES },
  };
  const output = {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length },
    command: `nice -n 5 npx tsx bench/offline-packs.ts ${args.join(' ')}`.trim(),
    synthetic: results,
    real,
    extrapolated,
  };
  const resultsFile = resolve(option('results') ?? join(ROOT, 'bench', 'offline-packs.json'));
  await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
  console.log(formatTable(output));
  console.log(`\nwritten ${resultsFile}`);
}

function formatTable(output: { synthetic: PackFigures[]; real: PackFigures[]; extrapolated: { byHouses: { gzipBytes: number; method: string }; byPlaces: { gzipBytes: number; lowGzipBytes: number; method: string } } }): string {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
  const lines = [
    '| dictionary | houses | entry places | entry KB (gzip) | packs | largest pack KB (gzip), houses | its house codes KB (gzip) | median pack KB (gzip) | village pack KB (gzip) | manifest KB (gzip) | cut s | entry → first hint ms | pack → street hint ms |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of [...output.synthetic, ...output.real]) {
    lines.push(`| ${r.label} | ${f0(r.houses)} | ${f0(r.places)} | ${kb(r.entry.bytes)} (${kb(r.entry.gzipBytes)}) | ${f0(r.packs)} | ${kb(r.largest.bytes)} (${kb(r.largest.gzipBytes)}), ${f0(r.largest.houses)} ${r.largest.name} | ${r.largest.codes ? `${kb(r.largest.codes.bytes)} (${kb(r.largest.codes.gzipBytes)}) in ${r.largest.codes.chunks}, the largest ${kb(r.largest.codes.largestChunkGzipBytes)}` : '–'} | ${kb(r.median.bytes)} (${kb(r.median.gzipBytes)}) | ${r.village ? `${kb(r.village.bytes)} (${kb(r.village.gzipBytes)})` : '–'} | ${kb(r.manifest.bytes)} (${kb(r.manifest.gzipBytes)}) | ${r.cutSeconds.toFixed(1)} | ${f0(r.timings.entryToFirstHintMs)} | ${f0(r.timings.packToStreetHintMs)} |`);
  }
  const e = output.extrapolated;
  lines.push('', `Entry pack at 35 M houses: ${kb(e.byHouses.gzipBytes)} KB gzip (${e.byHouses.method}); ${kb(e.byPlaces.lowGzipBytes)}–${kb(e.byPlaces.gzipBytes)} KB gzip (${e.byPlaces.method}).`);
  for (const r of [...output.real.slice(0, 1), ...output.synthetic.slice(-1)]) {
    lines.push('', `${r.label}: entry gzip by section: ${r.entrySections.slice(0, 8).map((s) => `${s.section} ${kb(s.gzipBytes)}`).join(', ')}`);
    lines.push(`${r.label}: largest pack gzip by section: ${r.largestSections.slice(0, 8).map((s) => `${s.section} ${kb(s.gzipBytes)}`).join(', ')}`);
  }
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--blobs-only')) {
    const sizes = (args.includes('--sizes') ? args[args.indexOf('--sizes') + 1] : '250000,1000000,4000000').split(',').map(Number);
    for (const houses of sizes) log(`blob ${await syntheticBlob(houses, args.includes('national'))}`);
  } else {
    main().catch((error) => {
      console.error(`offline-packs failed: ${error instanceof Error ? error.stack : error}`);
      process.exit(1);
    });
  }
}
