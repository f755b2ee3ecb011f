/**
 * Scale probe (`npx tsx bench/scale.ts`, or `npm run bench -- --scale`): the ru dictionary replicated
 * synthetically to ≈1 M houses, to see how load time, memory, blob size and query speed grow, and a
 * LINEAR EXTRAPOLATION of the figures to 35 M houses (all of Russia). The extrapolation is arithmetic, not
 * a measurement: real data has a larger vocabulary and other name statistics than copies of one extract.
 *
 * The synthetic model: the ru model rebuilt from ru.dict (objects and houses through the Dictionary view;
 * aliases and historical names are not in the view and are left out), copied COPIES times with new ids.
 * In every copy but the first, objects of levels 1–5 (region … settlement) get a generated second word
 * (`Майкоп Ровека`), so copies are distinct places; streets keep their names, as streets repeat across
 * real cities. Coordinates move by whole degrees per copy; FIAS GUIDs get the copy number in their first
 * group. It is written by `encodeBlob` (dictionaries/blob-writer.ts) and loaded by `LoadedDictionary.fromBytes`.
 *
 * Three processes, so each memory figure is its own: this one; `--encode <file>` builds the model and
 * writes the blob; `--measure <file>` loads it (time, RSS) and times standardize, suggest and nearest on it
 * and on the real ru.dict. Env: SCALE_HOUSES (default 1 000 000).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeBlob } from '../dictionaries/blob-writer.js';
import type { MergedHouse, MergedModel, MergedObject } from '../dictionaries/merged.js';
import type { LevelNumber } from '../dictionaries/model.js';
import { AddressEngine, blobFile, defaultWasmFile, LoadedDictionary } from '../host/engine/index.js';
import { cleanQueries, rng, suggestQueries } from './fixtures.js';
import { consume, formatTable, isMain, measure, row, ROOT, type BenchContext, type Row } from './harness.js';

const MB = 1024 * 1024;
const TARGET_HOUSES = Number(process.env.SCALE_HOUSES ?? 1_000_000);
const RUSSIA_HOUSES = 35_000_000;
const SYLLABLES = ['ро', 'ва', 'ке', 'ни', 'ла', 'му', 'ты', 'се', 'да', 'бо', 'ри', 'зо', 'ле', 'ка', 'ну', 'ми'];

/** A made-up word for copy k: `ровека`, distinct per k. */
function copyWord(k: number): string {
  let word = '';
  let x = k;
  do {
    word += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length);
  } while (x > 0);
  word += SYLLABLES[(k * 7) % SYLLABLES.length] + 'к';
  return word[0].toUpperCase() + word.slice(1);
}

function copyGuid(guid: string, k: number): string {
  return guid && k > 0 ? `${k.toString(16).padStart(8, '0')}${guid.slice(8)}` : guid;
}

/** The ru model rebuilt from a loaded dictionary, replicated `copies` times. */
export function syntheticModel(dict: LoadedDictionary, copies: number): MergedModel {
  const base: MergedObject[] = [];
  for (let id = 0; id < dict.objectCount; id++) {
    const o = dict.object(id);
    base.push({
      key: `synthetic:${id}`,
      level: o.level as LevelNumber,
      parent: o.parent,
      name: o.name,
      type: o.type,
      codes: { fias: o.codes.fias || undefined, gar: o.codes.gar || undefined, kladr: o.codes.kladr || undefined, okato: o.okato || undefined, oktmo: o.oktmo || undefined, ifns: o.ifns || undefined },
      postcode: o.postcode || undefined,
      timezone: o.timezone || undefined,
      lat: o.lat || undefined,
      lon: o.lon || undefined,
      source: 'synthetic',
      ga: o.codes.ga,
    });
  }
  const houses: MergedHouse[] = [];
  for (let id = 0; id < dict.houseCount; id++) {
    const h = dict.house(id);
    houses.push({
      parent: h.parent,
      number: h.number,
      block: h.block || undefined,
      building: h.building || undefined,
      liter: h.liter || undefined,
      construction: h.construction || undefined,
      possession: h.possession,
      stead: h.stead,
      codes: { fias: h.codes.fias || undefined, gar: h.codes.gar || undefined, osm: h.codes.osm || undefined },
      postcode: h.postcode || undefined,
      lat: h.lat || undefined,
      lon: h.lon || undefined,
      cadnum: h.cadnum || undefined,
      multiFlat: h.multiFlat,
      flatCount: h.flatCount,
      source: 'synthetic',
    });
  }
  const n = base.length;
  const dLat = (k: number) => (k % 8) * 0.9;
  const dLon = (k: number) => Math.floor(k / 8) * 1.3;
  const shift = (lon: number | undefined, k: number) => (lon === undefined ? undefined : ((lon + dLon(k) + 180) % 360) - 180);
  const objects: MergedObject[] = [];
  for (let k = 0; k < copies; k++) {
    for (const o of base) {
      objects.push({
        ...o,
        key: `${o.key}:${k}`,
        parent: o.parent >= 0 ? o.parent + k * n : -1,
        name: k > 0 && o.level <= 5 ? `${o.name} ${copyWord(k)}` : o.name,
        codes: { ...o.codes, fias: o.codes.fias && copyGuid(o.codes.fias, k) },
        lat: o.lat === undefined ? undefined : Math.min(o.lat + dLat(k), 89),
        lon: shift(o.lon, k),
        ga: k > 0 ? '' : o.ga,
      });
    }
  }
  return {
    country: 'ru',
    sourceDate: dict.sourceDate,
    sources: [{ name: 'synthetic copies of ru.dict', date: dict.sourceDate, licence: 'as the source' }],
    objects,
    houseCount: houses.length * copies,
    *houses() {
      for (let k = 0; k < copies; k++) {
        for (const h of houses) {
          yield {
            ...h,
            parent: h.parent + k * n,
            codes: { ...h.codes, fias: h.codes.fias && copyGuid(h.codes.fias, k) },
            lat: h.lat === undefined ? undefined : Math.min(h.lat + dLat(k), 89),
            lon: shift(h.lon, k),
          };
        }
      }
    },
    apartments: [],
    metro: [],
    summary: { copies },
  };
}

interface EncodeReport {
  copies: number;
  objects: number;
  houses: number;
  words: number;
  blob_bytes: number;
  model_ms: number;
  encode_ms: number;
}

async function encodeChild(file: string): Promise<EncodeReport> {
  const module = await WebAssembly.compile(readFileSync(defaultWasmFile()));
  const ruFile = blobFile(join(ROOT, 'build', 'dictionaries'), 'ru');
  const dict = await LoadedDictionary.fromBytes(readFileSync(ruFile), module, ruFile);
  const copies = Math.max(1, Math.ceil(TARGET_HOUSES / dict.houseCount));
  let t0 = performance.now();
  const model = syntheticModel(dict, copies);
  const modelMs = performance.now() - t0;
  t0 = performance.now();
  const { bytes, stats } = encodeBlob(model);
  const encodeMs = performance.now() - t0;
  writeFileSync(file, bytes);
  return { copies, objects: stats.objects, houses: stats.houses, words: stats.words, blob_bytes: stats.bytes, model_ms: modelMs, encode_ms: encodeMs };
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
  const module = await WebAssembly.compile(readFileSync(defaultWasmFile()));
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

export async function run(ctx: BenchContext): Promise<Row[]> {
  const work = mkdtempSync(join(tmpdir(), 'address-scale-'));
  const file = join(work, 'ru-synthetic.dict');
  try {
    const encoded = runChild<EncodeReport>(['--encode', file]);
    const { synthetic, real } = runChild<{ synthetic: SizeFigures; real: SizeFigures }>(['--measure', file]);
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
      `scale: synthetic ru ×${encoded.copies} = ${synthetic.houses} houses, ${encoded.objects} objects, ${encoded.words} words; model built in ` +
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
    rmSync(work, { recursive: true, force: true });
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
