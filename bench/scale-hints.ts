/**
 * Hints at national scale, by query class: what a hint costs as the country grows, on the synthetic archives of
 * both generators (bench/synth/gar-scale.ts: the template region copied; gar-national.ts: the copies' streets
 * and villages named with the country's frequencies). Each archive is built by bench/build-scale.ts's own build child
 * (kept as build/synth/ru-<archive>.dict and reused while newer than its archive), then loaded in a fresh child that
 * times each class of queries, drawn from the blob's own houses with a fixed seed:
 *
 *   town+street      the town and its street's name less two letters (build-scale.ts's suggest queries)
 *   town+numbered    the town and a street named from a number being typed (`кстово 8 мар`)
 *   town+3 letters   the town and the first three letters of one of its streets (`чутево аба`)
 *   town+common      the town and the first three letters of one of the commonest names it has (`ишим сов`)
 *   town+house       the town, the street and the first digit of a house (`кстово ленина 1`)
 *   no place         the first three letters of a street alone (`лен`)
 *   standardize      build-scale.ts's full addresses
 *
 * Per class: p50, p99 and max µs over repeated passes, and the posting entries the core read per query (stats(5), the debug build's test hook, counted on a twin of
 * the blob under the debug core when the timed core is a release build).
 * `--before <core.wasm>` times the same blob with another build of the core in the same child, column beside column.
 *
 * Usage: tsx bench/scale-hints.ts [--houses 1000000] [--generator both|template|national] [--before build/x.wasm]
 *        [--results bench/scale-hints.json]
 * Sizes: a quarter of --houses and --houses.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_MALLOC_ENV } from '../dictionaries/countries.js';
import { randomFrom } from './synth/names.js';
import { existingArchive, generateGarScale, type GarScaleOptions } from './synth/gar-scale.js';
import { existingNational, generateGarNational } from './synth/gar-national.js';
import { AddressEngine } from '../engine/engine.js';
import { defaultWasmFile, loadDictionaryFile } from '../engine/index.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SELF = fileURLToPath(import.meta.url);
const BUILD_SCALE = join(ROOT, 'bench', 'build-scale.ts');
const DATA_DIR = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
const SYNTH_DIR = join(ROOT, 'build', 'synth');
const PER_CLASS = 300;
const PASS_MS = 1500;
/** stats(5): posting entries read since start (assembly/testing.ts, reads.ts) */
const STATS_POSTINGS = 5;

interface ClassFigures {
  queries: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  perSecond: number;
  /** posting entries read per query: mean and most */
  postingsMean: number;
  postingsMax: number;
  /** the slowest query */
  slowest: string;
}

type Classes = Record<string, string[]>;

// ---- child: load one blob, time the classes with each core ----

async function childClasses(dictFile: string, wasmFiles: string[]): Promise<Record<string, Record<string, ClassFigures>>> {
  const out: Record<string, Record<string, ClassFigures>> = {};
  let classes: Classes | undefined;
  let standardize: string[] = [];
  for (const wasmFile of wasmFiles) {
    const module = await WebAssembly.compile(readFileSync(wasmFile));
    const dictionary = await loadDictionaryFile(dictFile, module);
    const engine = new AddressEngine([dictionary]);
    if (!classes) ({ classes, standardize } = drawQueries(dictionary));
    const counting = await countingTwin(dictFile, dictionary, engine);
    const stats = (kind: number) => counting.stats(kind);
    const figures: Record<string, ClassFigures> = {};
    for (const [name, queries] of Object.entries(classes)) {
      figures[name] = timeClass(queries, (q) => engine.suggest('ru', q, 10), (q) => counting.engine.suggest('ru', q, 10), stats);
    }
    figures.standardize = timeClass(standardize, (q) => engine.standardize('ru', q), (q) => counting.engine.standardize('ru', q), stats);
    out[wasmFile] = figures;
    global.gc?.();
  }
  return out;
}

/**
 * The engine whose reads are counted: the timed one when its core exports `stats` (an older release build), else
 * the same blob under the debug build of the same sources (a release core has no test hooks; both read alike).
 */
async function countingTwin(
  dictFile: string, dictionary: Awaited<ReturnType<typeof loadDictionaryFile>>, engine: AddressEngine,
): Promise<{ engine: AddressEngine; stats: (kind: number) => number }> {
  const own = (dictionary.core.exports as unknown as { stats?: (kind: number) => number }).stats;
  if (own) return { engine, stats: own };
  const debug = await loadDictionaryFile(dictFile, await WebAssembly.compile(readFileSync(join(ROOT, 'build', 'wasm', 'core.debug.wasm'))));
  return { engine: new AddressEngine([debug]), stats: (kind) => debug.core.hooks.stats(kind) };
}

function timeClass(
  queries: string[], run: (q: string) => unknown, runCounted: (q: string) => unknown, stats: (kind: number) => number,
): ClassFigures {
  let postings = 0;
  let postingsMax = 0;
  for (const q of queries) {
    const before = stats(STATS_POSTINGS);
    runCounted(q);
    const read = (stats(STATS_POSTINGS) - before) >>> 0;
    postings += read;
    postingsMax = Math.max(postingsMax, read);
  }
  const times: number[] = [];
  const worst = new Map<string, number>();
  const started = performance.now();
  while (performance.now() - started < PASS_MS) {
    for (const q of queries) {
      const t0 = performance.now();
      run(q);
      const us = (performance.now() - t0) * 1000;
      times.push(us);
      if (us > (worst.get(q) ?? 0)) worst.set(q, us);
    }
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  let slowest = '';
  let slowestUs = 0;
  for (const [q, us] of worst) if (us > slowestUs) [slowest, slowestUs] = [q, us];
  return {
    queries: queries.length,
    p50Us: times[times.length >> 1],
    p99Us: times[Math.floor(times.length * 0.99)],
    maxUs: times[times.length - 1],
    perSecond: times.length / (total / 1000),
    postingsMean: postings / queries.length,
    postingsMax,
    slowest: `${slowest} (${slowestUs.toFixed(0)} µs)`,
  };
}

/** the query classes, from houses drawn with a fixed seed */
function drawQueries(dictionary: Awaited<ReturnType<typeof loadDictionaryFile>>): { classes: Classes; standardize: string[] } {
  const random = randomFrom(20240611);
  const classes: Classes = { 'town+street': [], 'town+numbered': [], 'town+3 letters': [], 'town+common': [], 'town+house': [], 'no place': [] };
  const standardize: string[] = [];
  const common = /^(Центральная|Молодежная|Школьная|Лесная|Садовая|Советская|Новая|Набережная|Ленина|Мира|Октябрьская|Гагарина)$/;
  for (let i = 0; i < 40 * PER_CLASS && Object.values(classes).some((list) => list.length < PER_CLASS); i++) {
    const houseId = Math.floor(random() * dictionary.houseCount);
    const house = dictionary.house(houseId);
    const chain = dictionary.chain(house.parent).map((id) => dictionary.object(id));
    if (chain.length < 2) continue;
    const street = chain[chain.length - 1];
    // the place the street is in: the nearest above it that is not the region
    const place = chain[chain.length - 2];
    if (place.level === 1) continue;
    const town = place.name.toLowerCase();
    const name = street.name.toLowerCase();
    const add = (cls: string, q: string) => classes[cls].length < PER_CLASS && classes[cls].push(q);
    if (standardize.length < 2000) standardize.push(`${chain.filter((o) => o.level !== 1).map((o) => `${o.type} ${o.name}`).join(', ')}, ${house.number}`);
    add('town+street', `${town} ${name.slice(0, Math.max(3, name.length - 2))}`);
    const numbered = /^(\d+)-?\S*\s+(\S{3})/.exec(name);
    if (numbered) add('town+numbered', `${town} ${numbered[1]} ${numbered[2]}`);
    if (/^\p{L}{3}/u.test(name)) add('town+3 letters', `${town} ${name.slice(0, 3)}`);
    if (common.test(street.name)) add('town+common', `${town} ${name.slice(0, 3)}`);
    if (/^\d/.test(house.number)) add('town+house', `${town} ${name} ${house.number[0]}`);
    if (/^\p{L}{3}/u.test(name)) add('no place', name.slice(0, 3));
  }
  return { classes, standardize };
}

// ---- parent ----

function runChild(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.on('close', (code) => (code === 0 ? done(stdout.trim().split('\n').pop()!) : fail(new Error(`${script} ${args[0]} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.indexOf(`--${name}`) >= 0 ? args[args.indexOf(`--${name}`) + 1] : undefined);
  const largest = Number(option('houses') ?? 1_000_000);
  const sizes = [Math.round(largest / 4), largest];
  const generator = option('generator') ?? 'both';
  if (!['both', 'template', 'national'].includes(generator)) throw new Error(`--generator must be both, template or national (got ${generator})`);
  const generators = generator === 'both' ? ['template', 'national'] : [generator];
  const wasmFiles = [...(option('before') ? [resolve(option('before')!)] : []), defaultWasmFile()];
  for (const file of wasmFiles) if (!existsSync(file)) throw new Error(`${file} missing: run npx tsx scripts/prepare.ts first`);
  const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  await mkdir(SYNTH_DIR, { recursive: true });
  const rows: Array<{ generator: string; houses: number; copies: number; figures: Record<string, Record<string, ClassFigures>> }> = [];
  for (const gen of generators) {
    for (const houses of sizes) {
      const name = gen === 'national' ? `gar-national-${houses}` : `gar-${houses}`;
      const options: GarScaleOptions = { source: join(DATA_DIR, 'ru/gar/gar_xml.zip'), seed: 1, regions: 85, cadastralShare: 0.6, houses, out: join(SYNTH_DIR, `${name}.zip`), log };
      const archive = (gen === 'national' ? await existingNational(options) : await existingArchive(options)) ??
        (gen === 'national' ? await generateGarNational(options) : await generateGarScale(options));
      const dictFile = join(SYNTH_DIR, `ru-${name}.dict`);
      if (!existsSync(dictFile) || statSync(dictFile).mtimeMs < statSync(archive.out).mtimeMs) {
        log(`${name}: building ${dictFile}`);
        await runChild(BUILD_SCALE, ['--child-build', archive.out, dictFile], BUILD_MALLOC_ENV);
      }
      log(`${name}: timing the classes`);
      const figures = JSON.parse(await runChild(SELF, ['--child-classes', dictFile, ...wasmFiles]));
      rows.push({ generator: gen, houses: archive.houses, copies: archive.copies, figures });
    }
  }
  const output = {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus().length },
    command: `tsx bench/scale-hints.ts ${args.join(' ')}`.trim(),
    wasm: wasmFiles,
    rows,
  };
  const resultsFile = resolve(option('results') ?? join(ROOT, 'bench', 'scale-hints.json'));
  await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
  console.log(formatTable(output.rows, wasmFiles));
  console.log(`\nwritten ${resultsFile}`);
}

function formatTable(rows: Array<{ generator: string; houses: number; copies: number; figures: Record<string, Record<string, ClassFigures>> }>, wasmFiles: string[]): string {
  const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
  const cores = wasmFiles.length > 1 ? ['before', 'after'] : [''];
  const lines = [
    `| generator | houses | towns | class | ${cores.map((c) => `${c} p50 / p99 / max µs | ${c} postings mean / max`.trim()).join(' | ')} | slowest |`,
    `|---|--:|--:|---|${cores.map(() => '--:|--:|').join('')}---|`,
  ];
  for (const row of rows) {
    const classes = Object.keys(row.figures[wasmFiles[0]]);
    for (const cls of classes) {
      const cells = wasmFiles.map((w) => {
        const c = row.figures[w][cls];
        return `${f0(c.p50Us)} / ${f0(c.p99Us)} / ${f0(c.maxUs)} | ${f0(c.postingsMean)} / ${f0(c.postingsMax)}`;
      });
      lines.push(`| ${row.generator} | ${f0(row.houses)} | ${f0(row.copies)} | ${cls} | ${cells.join(' | ')} | ${row.figures[wasmFiles[wasmFiles.length - 1]][cls].slowest} |`);
    }
  }
  return lines.join('\n');
}

if (process.argv.includes('--child-classes')) {
  const at = process.argv.indexOf('--child-classes');
  const report = await childClasses(process.argv[at + 1], process.argv.slice(at + 2));
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else if (process.argv[1] && resolve(process.argv[1]) === SELF) {
  main().catch((error) => {
    console.error(`scale-hints failed: ${error instanceof Error ? error.stack : error}`);
    process.exit(1);
  });
}
