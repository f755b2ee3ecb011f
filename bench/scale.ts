/**
 * Scale probe (`npx tsx bench/scale.ts`, or `npm run bench -- --scale`): the ru dictionary replicated
 * synthetically to ≈1 M houses, to see how load time, memory, blob size and query speed grow, and a
 * LINEAR EXTRAPOLATION of the figures to 35 M houses (all of Russia). The extrapolation is arithmetic, not
 * a measurement: real data has a larger vocabulary and other name statistics than copies of one extract.
 *
 * Two synthetic models (SCALE_MODEL), both from the ru model merged from the same sources as ru.dict
 * (dictionaries/countries.ts; aliases and earlier names included), copied with new ids; copy 0 is the real
 * dictionary. In every other copy, places (levels 1–5, region … settlement) get a generated name of their own
 * (`Ровекани`, distinct per object and copy) and lose their aliases, so copies are distinct places that no query
 * names; streets keep their names and aliases, as streets repeat across real cities (`ул Мира` exists in
 * thousands of localities). Coordinates move by whole degrees per copy; FIAS GUIDs get the copy number in their
 * first group.
 *   settled (the default, `settledModel`): the copies hold only the settled places (cities and settlements with
 *     streets or houses, under the real regions and districts), so the national lists stay as they are: 143
 *     places a copy, ≈107 k words at 10 M houses.
 *   lists (`syntheticModel`, the only model until 2026-11-26): the whole dictionary per copy, the national lists of
 *     86 regions, 533 districts and 1,146 cities included: 1,858 places a copy, 1.27 M made-up words at 10 M
 *     houses, a vocabulary a prefix of three letters hits by the thousand (a worst case for hints).
 * It is written by `encodeBlob` (dictionaries/blob-writer.ts) and loaded by `LoadedDictionary.fromBytes`.
 * The queries (bench/fixtures.ts) name real places, so on the synthetic dictionary they find what they find on
 * ru.dict, among every copy's streets of the same name.
 *
 * Three processes, so each memory figure is its own: this one; `--encode <file>` builds the model and
 * writes the blob; `--measure <file>` loads it (time, RSS) and times standardize, suggest and nearest on it
 * and on the real ru.dict. Env: SCALE_HOUSES (default 1 000 000); SCALE_MODEL (settled or lists); SCALE_BLOB=<file>
 * keeps the synthetic blob there and reuses it while it loads and is of that model (a 10 M-house blob takes minutes
 * to encode); SCALE_WASM=<file> times
 * another core build (before/after a change, same blobs); DATA_DIR as for the build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildModels } from '../dictionaries/countries.js';
import { encodeBlob } from '../dictionaries/blob-writer.js';
import { gaOf, type MergedHouse, type MergedModel, type MergedObject } from '../dictionaries/merged-model.js';
import { AddressEngine, blobFile, defaultWasmFile, LoadedDictionary } from '../engine/index.js';
import { cleanQueries, rng, suggestQueries } from './fixtures.js';
import { consume, formatTable, isMain, measure, row, ROOT, type BenchContext, type Row } from './harness.js';

const MB = 1024 * 1024;
const TARGET_HOUSES = Number(process.env.SCALE_HOUSES ?? 1_000_000);
const RUSSIA_HOUSES = 35_000_000;
/** `settled` (settledModel, the default) or `lists` (syntheticModel) */
const MODEL = process.env.SCALE_MODEL ?? 'settled';
if (MODEL !== 'settled' && MODEL !== 'lists') throw new Error(`SCALE_MODEL is settled or lists, not ${MODEL}`);
const SYLLABLES = ['ро', 'ва', 'ке', 'ни', 'ла', 'му', 'ты', 'се', 'да', 'бо', 'ри', 'зо', 'ле', 'ка', 'ну', 'ми'];

/** A made-up place name for the n-th renamed object: `Ровекани`, distinct per n. */
function placeName(n: number): string {
  let word = '';
  let x = n;
  do {
    word += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length);
  } while (x > 0);
  word += SYLLABLES[(n * 7) % SYLLABLES.length] + 'к';
  return word[0].toUpperCase() + word.slice(1);
}

function copyGuid(guid: string, k: number): string {
  return guid && k > 0 ? `${k.toString(16).padStart(8, '0')}${guid.slice(8)}` : guid;
}

/** Copy k's coordinates: moved by whole steps, so copies do not stack on one grid cell. */
const dLat = (k: number) => (k % 8) * 0.9;
const shiftLon = (lon: number | undefined, k: number) => (lon === undefined ? undefined : ((lon + Math.floor(k / 8) * 1.3 + 180) % 360) - 180);

/** Object o in copy k under `parent`: renamed when `name` is given (a place: its aliases go), codes and coordinates moved. */
function copyObject(o: MergedObject, k: number, parent: number, name?: string): MergedObject {
  return {
    ...o,
    key: `${o.key}:${k}`,
    parent,
    name: name ?? o.name,
    aliases: name === undefined ? o.aliases : undefined,
    historicalNames: name === undefined ? o.historicalNames : undefined,
    codes: { ...o.codes, fias: o.codes.fias && copyGuid(o.codes.fias, k) },
    lat: o.lat === undefined ? undefined : Math.min(o.lat + dLat(k), 89),
    lon: shiftLon(o.lon, k),
    ga: '',
  };
}

/** House h in copy k under `parent`: codes and coordinates moved as its object's. */
function copyHouse(h: MergedHouse, k: number, parent: number): MergedHouse {
  return {
    ...h,
    parent,
    codes: { ...h.codes, fias: h.codes.fias && copyGuid(h.codes.fias, k) },
    lat: h.lat === undefined ? undefined : Math.min(h.lat + dLat(k), 89),
    lon: shiftLon(h.lon, k),
  };
}

/** The ru model replicated `copies` times (SCALE_MODEL=lists; see the top of the file). */
export function syntheticModel(base: MergedModel, copies: number): MergedModel {
  const houses: MergedHouse[] = [...base.houses()];
  const n = base.objects.length;
  const objects: MergedObject[] = [];
  let renamed = 0;
  for (let k = 0; k < copies; k++) {
    for (const [i, o] of base.objects.entries()) {
      const copy = copyObject(o, k, o.parent >= 0 ? o.parent + k * n : -1, k > 0 && o.level <= 5 ? placeName(renamed++) : undefined);
      objects.push(k > 0 ? copy : { ...copy, ga: gaOf(base, i) });
    }
  }
  return {
    country: 'ru',
    sourceDate: base.sourceDate,
    sources: [{ name: 'synthetic copies of the ru model', date: base.sourceDate, licence: 'as the sources' }],
    objects,
    houseCount: houses.length * copies,
    *houses() {
      for (let k = 0; k < copies; k++) {
        for (const h of houses) yield copyHouse(h, k, h.parent + k * n);
      }
    },
    apartments: [],
    metro: [],
    summary: { copies },
  };
}

/**
 * The national model (SCALE_MODEL=settled, the default): ru.dict once (copy 0: the real lists of regions, districts
 * and cities, and every street and house), then copies 1…copies−1 of its settled places only. A settled place is a
 * city or settlement (levels 3 and 5) with streets or houses under it whose parent is a region or a district: it is
 * copied with its subtree (less the places inside with neither), its places renamed as `syntheticModel` renames them,
 * its streets keeping their names. Copy k of the r-th settled place goes under region (k + r) mod 86, at the end of
 * that region's subtree (the ids stay a depth-first order, subtree.ts), so each region holds ≈1/86 of the copies, as
 * a region holds its share of a country (under its own region, Свердловская would hold 727 copies of Екатеринбург
 * at 10 M houses). So the national lists are not replicated: a national dictionary has 86 regions, not 86 per copy,
 * and ≈155 k settlements (ru.dict: 143 settled places a copy, ≈105 k at 10 M houses), not the 1.27 M place names of
 * `syntheticModel` at 10 M, whose vocabulary a prefix of three letters hits by the thousand. Houses of places a
 * region holds directly (Москва, Санкт-Петербург, Байконур) are not copied.
 */
export function settledModel(base: MergedModel, target: number): MergedModel {
  const source = base.objects;
  const n = source.length;
  const houses: MergedHouse[] = [...base.houses()];
  const houseStart = new Int32Array(n + 1);
  for (const h of houses) houseStart[h.parent + 1]++;
  for (let i = 0; i < n; i++) houseStart[i + 1] += houseStart[i];
  const houseCount = (i: number) => houseStart[i + 1] - houseStart[i];
  const settled = new Uint8Array(n);
  const end = Int32Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i >= 0; i--) {
    const p = source[i].parent;
    if (p >= i) throw new Error('settledModel: the objects are not in depth-first order');
    if (source[i].level >= 6 || houseCount(i) > 0) settled[i] = 1;
    if (p >= 0) {
      settled[p] |= settled[i];
      end[p] = Math.max(end[p], end[i]);
    }
  }
  // the settled places a region or a district holds
  const roots: number[] = [];
  let copiedHouses = 0;
  for (let i = 0; i < n; i++) {
    const o = source[i];
    if (!settled[i] || (o.level !== 3 && o.level !== 5) || (o.parent >= 0 && source[o.parent].level > 2)) continue;
    roots.push(i);
    for (let j = i; j < end[i]; j++) if (settled[j]) copiedHouses += houseCount(j);
    i = end[i] - 1;
  }
  const copies = 1 + Math.max(0, Math.ceil((target - houses.length) / copiedHouses));
  // the copies each region receives, by the last object of the region's subtree
  const regions = source.flatMap((o, i) => (o.parent < 0 ? [i] : []));
  const copiesEndingAt = new Map<number, { root: number; k: number; region: number }[]>();
  for (let k = 1; k < copies; k++) {
    roots.forEach((root, r) => {
      const region = regions[(k + r) % regions.length];
      const at = end[region] - 1;
      if (!copiesEndingAt.has(at)) copiesEndingAt.set(at, []);
      copiesEndingAt.get(at)!.push({ root, k, region });
    });
  }
  const objects: MergedObject[] = [];
  /** each new object's base object and copy, in new order (houses follow it) */
  const origin: { base: number; copy: number }[] = [];
  const newId = new Int32Array(n);
  let renamed = 0;
  for (let i = 0; i < n; i++) {
    newId[i] = objects.length;
    objects.push({ ...source[i], parent: source[i].parent >= 0 ? newId[source[i].parent] : -1, ga: gaOf(base, i) });
    origin.push({ base: i, copy: 0 });
    for (const { root, k, region } of copiesEndingAt.get(i) ?? []) {
      const inCopy = new Map<number, number>();
      for (let j = root; j < end[root]; j++) {
        if (!settled[j]) continue;
        const o = source[j];
        inCopy.set(j, objects.length);
        objects.push(copyObject(o, k, j === root ? newId[region] : inCopy.get(o.parent)!, o.level <= 5 ? placeName(renamed++) : undefined));
        origin.push({ base: j, copy: k });
      }
    }
  }
  return {
    country: 'ru',
    sourceDate: base.sourceDate,
    sources: [{ name: 'synthetic copies of the settled places of the ru model', date: base.sourceDate, licence: 'as the sources' }],
    objects,
    houseCount: origin.reduce((sum, { base: i }) => sum + houseCount(i), 0),
    *houses() {
      for (const [id, { base: i, copy: k }] of origin.entries()) {
        for (let h = houseStart[i]; h < houseStart[i + 1]; h++) {
          const house = houses[h];
          yield k === 0 ? { ...house, parent: id } : copyHouse(house, k, id);
        }
      }
    },
    apartments: [],
    metro: [],
    summary: { copies },
  };
}

interface EncodeReport {
  model: string;
  copies: number;
  objects: number;
  houses: number;
  words: number;
  blob_bytes: number;
  model_ms: number;
  encode_ms: number;
}

async function encodeChild(file: string): Promise<EncodeReport> {
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
  const [base] = await buildModels(dataDir, () => {}, { countries: ['ru'] });
  let t0 = performance.now();
  const model = MODEL === 'lists' ? syntheticModel(base, Math.max(1, Math.ceil(TARGET_HOUSES / base.houseCount))) : settledModel(base, TARGET_HOUSES);
  const modelMs = performance.now() - t0;
  const copies = Number(model.summary.copies);
  t0 = performance.now();
  const { bytes, stats } = encodeBlob(model);
  const encodeMs = performance.now() - t0;
  writeFileSync(file, bytes);
  return { model: MODEL, copies, objects: stats.objects, houses: stats.houses, words: stats.words, blob_bytes: stats.bytes, model_ms: modelMs, encode_ms: encodeMs };
}

interface SizeFigures {
  houses: number;
  load_ms: number;
  rss_delta_mb: number;
  standardize_hz: number;
  standardize_p99_us: number;
  suggest_hz: number;
  suggest_p99_us: number;
  nearest_hz: number;
}

/** Query speed on one dictionary: the same fixtures as the standardize, suggest and nearest benches. */
async function speeds(dict: LoadedDictionary): Promise<Pick<SizeFigures, 'standardize_hz' | 'standardize_p99_us' | 'suggest_hz' | 'suggest_p99_us' | 'nearest_hz'>> {
  const engine = new AddressEngine([dict]);
  const clean = cleanQueries().filter((q) => q.country === 'ru').map((q) => q.query);
  const hints = suggestQueries();
  let i = 0;
  const standardize = await measure('scale standardize', () => consume(engine.standardize('ru', clean[i++ % clean.length]).house), { time: 1500 });
  let j = 0;
  const suggest = await measure('scale suggest', () => {
    const q = hints[j++ % hints.length];
    consume(engine.suggest('ru', q.query, q.count).length);
  }, { time: 1500 });
  const random = rng(7);
  const points: { lat: number; lon: number }[] = [];
  for (let k = 0; k < 500; k++) {
    const h = dict.house(Math.floor(random() * dict.houseCount));
    if (h.lat) points.push({ lat: h.lat + (random() - 0.5) * 0.001, lon: h.lon + (random() - 0.5) * 0.001 });
  }
  let p = 0;
  const nearest = await measure('scale nearest', () => {
    const at = points[p++ % points.length];
    consume(engine.nearest('ru', at.lat, at.lon, 'house', 100)?.distance ?? -1);
  }, { time: 1000 });
  return { standardize_hz: standardize.hz, standardize_p99_us: standardize.p99_us, suggest_hz: suggest.hz, suggest_p99_us: suggest.p99_us, nearest_hz: nearest.hz };
}

async function measureChild(file: string): Promise<{ synthetic: SizeFigures; real: SizeFigures }> {
  const module = await WebAssembly.compile(readFileSync(process.env.SCALE_WASM ?? defaultWasmFile()));
  const load = async (path: string) => {
    const bytes = readFileSync(path);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const t0 = performance.now();
    const dict = await LoadedDictionary.fromBytes(bytes, module, path);
    const loadMs = performance.now() - t0;
    global.gc?.();
    return { dict, loadMs, rssDelta: (process.memoryUsage().rss - before) / MB };
  };
  // the real one first: its RSS delta would be lost in the big one's garbage otherwise
  const small = await load(blobFile(join(ROOT, 'build', 'dictionaries'), 'ru'));
  const big = await load(file);
  const real: SizeFigures = { houses: small.dict.houseCount, load_ms: small.loadMs, rss_delta_mb: small.rssDelta, ...(await speeds(small.dict)) };
  const synthetic: SizeFigures = { houses: big.dict.houseCount, load_ms: big.loadMs, rss_delta_mb: big.rssDelta, ...(await speeds(big.dict)) };
  return { synthetic, real };
}

function runChild<T>(args: string[]): T {
  const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=6144', '--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * MB,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.slice(out.indexOf('{'))) as T;
}

/** Linear through two points (x = houses), evaluated at x. */
const linear = (x0: number, y0: number, x1: number, y1: number, x: number) => y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);

/** The synthetic blob: reused from SCALE_BLOB while it loads (its encode report beside it), encoded otherwise. */
function syntheticBlob(file: string, keep: boolean): { encoded: EncodeReport; figures: { synthetic: SizeFigures; real: SizeFigures } } {
  const reportFile = `${file}.json`;
  const reported = keep && existsSync(file) && existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as EncodeReport) : undefined;
  // a blob of the other model is encoded again (a report without a model is of the lists model, before settledModel)
  if (reported && (reported.model ?? 'lists') === MODEL) {
    try {
      const figures = runChild<{ synthetic: SizeFigures; real: SizeFigures }>(['--measure', file]);
      return { encoded: reported, figures };
    } catch {
      console.error(`scale: ${file} does not load (another format?), encoding it again`);
    }
  }
  const encoded = runChild<EncodeReport>(['--encode', file]);
  if (keep) writeFileSync(reportFile, JSON.stringify(encoded));
  return { encoded, figures: runChild<{ synthetic: SizeFigures; real: SizeFigures }>(['--measure', file]) };
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const keep = Boolean(process.env.SCALE_BLOB);
  const work = keep ? '' : mkdtempSync(join(tmpdir(), 'address-scale-'));
  const file = keep ? resolve(process.env.SCALE_BLOB!) : join(work, 'ru-synthetic.dict');
  try {
    const { encoded, figures } = syntheticBlob(file, keep);
    const { synthetic, real } = figures;
    const blobBytes = statSync(file).size;
    const perHouse = blobBytes / synthetic.houses;
    const at = (y0: number, y1: number) => linear(real.houses, y0, synthetic.houses, y1, RUSSIA_HOUSES);
    const extrapolated = {
      note: `LINEAR EXTRAPOLATION from ${real.houses} and ${synthetic.houses} houses to ${RUSSIA_HOUSES}; not a measurement`,
      blob_gb: (perHouse * RUSSIA_HOUSES) / 1024 ** 3,
      load_s: at(real.load_ms, synthetic.load_ms) / 1000,
      rss_gb: at(real.rss_delta_mb, synthetic.rss_delta_mb) / 1024,
      standardize_hz: 1e6 / at(1e6 / real.standardize_hz, 1e6 / synthetic.standardize_hz),
      suggest_hz: 1e6 / at(1e6 / real.suggest_hz, 1e6 / synthetic.suggest_hz),
    };
    ctx.extra.scale = { encoded, synthetic, real, blob_bytes_per_house: perHouse, extrapolated_35m: extrapolated };
    ctx.notes.push(
      `scale: synthetic ru (${encoded.model ?? 'lists'} model) ×${encoded.copies} = ${synthetic.houses} houses, ${encoded.objects} objects, ${encoded.words} words; model built in ` +
        `${(encoded.model_ms / 1000).toFixed(1)} s (the vocabulary barely grows: copies reuse the words), encodeBlob ${(encoded.encode_ms / 1000).toFixed(1)} s; blob ${(blobBytes / MB).toFixed(0)} MB ` +
        `(${perHouse.toFixed(0)} bytes/house); load ${synthetic.load_ms.toFixed(0)} ms (real ru: ${real.load_ms.toFixed(0)} ms), ` +
        `RSS +${synthetic.rss_delta_mb.toFixed(0)} MB (real ru: +${real.rss_delta_mb.toFixed(0)} MB)`,
      `scale: standardize ${synthetic.standardize_hz.toFixed(0)}/s at ${synthetic.houses} houses vs ${real.standardize_hz.toFixed(0)}/s at ${real.houses}; ` +
        `suggest ${synthetic.suggest_hz.toFixed(0)}/s vs ${real.suggest_hz.toFixed(0)}/s; nearest ${synthetic.nearest_hz.toFixed(0)}/s vs ${real.nearest_hz.toFixed(0)}/s`,
      `scale: ${extrapolated.note}: blob ≈${extrapolated.blob_gb.toFixed(1)} GB, load ≈${extrapolated.load_s.toFixed(0)} s, ` +
        `RSS ≈+${extrapolated.rss_gb.toFixed(1)} GB per worker, standardize ≈${extrapolated.standardize_hz.toFixed(0)}/s, suggest ≈${extrapolated.suggest_hz.toFixed(0)}/s per core`,
    );
    const m = (hz: number, p99: number) => ({ hz, p99_us: p99, samples: 0 });
    return [
      row(`scale: standardize @${(synthetic.houses / 1e6).toFixed(2)} M houses`, m(synthetic.standardize_hz, synthetic.standardize_p99_us), `same @${real.houses} houses`, m(real.standardize_hz, 0)),
      row(`scale: suggest @${(synthetic.houses / 1e6).toFixed(2)} M houses`, m(synthetic.suggest_hz, synthetic.suggest_p99_us), `same @${real.houses} houses`, m(real.suggest_hz, 0)),
    ];
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
  if (process.argv.includes('--encode')) process.stdout.write(JSON.stringify(await encodeChild(arg('--encode'))));
  else if (process.argv.includes('--measure')) process.stdout.write(JSON.stringify(await measureChild(arg('--measure'))));
  else {
    const ctx: BenchContext = { engine: null as never, notes: [], extra: {} };
    console.log(formatTable(await run(ctx)));
    for (const note of ctx.notes) console.log(`- ${note}`);
    console.log(JSON.stringify(ctx.extra.scale, null, 2));
  }
}
