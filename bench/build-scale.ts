/**
 * Scale check of the dictionary build (its throughput and memory at national size): the real GAR reader, merge and blob
 * writer on synthetic national-size archives (bench/synth/gar-scale.ts: region 99 replicated), then
 * the blob loaded by the engine and queried. The ru dictionary is built from the synthetic GAR alone, with
 * the hflabs type abbreviations (socrbase.csv) the real build enriches its type table with.
 *
 * Each build and each load runs in a fresh child process, so one size's heap is not the next one's. The
 * parent samples the child's /proc/<pid>/status every 200 ms (VmRSS, and VmHWM: the kernel's own peak RSS,
 * the figure `/usr/bin/time -v` reports, so a peak inside a synchronous phase is not missed); the child
 * prints a line as it enters each phase (read → merge → write: encoding streamed to the file), which attributes
 * the samples.
 * A parse-cost breakdown (inflate alone, inflate + saxes without handlers, a byte scanner) over the
 * smallest archive says where the reader's time goes.
 *
 * Default: 250 k and 1 M houses (the pair gives the slope of the linear extrapolation to 35 M houses);
 * `--full` adds 10 M (≈ 30 min to generate, longer to build). Archives are kept in build/synth/ and
 * reused when their options match.
 *
 * `--sizes 250000,1000000,4000000` measures those sizes instead; `--generator national` builds the archives of
 * bench/synth/gar-national.ts (streets and villages named with the country's frequencies) instead of identical copies.
 *
 * Usage: tsx bench/build-scale.ts [--houses 1000000] [--full] [--sizes a,b,…] [--generator template|national]
 *        [--regions 85] [--seed 1] [--cadastral 0.6] [--apartments 0] [--results bench/scale-results.json]
 * Writes the results file and prints a markdown table.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { writeBlob } from '../dictionaries/blob-writer.js';
import { boundHeapGrowth, BUILD_MALLOC_ENV, GAR_BUILD_OPTIONS } from '../dictionaries/countries.js';
import { ModelBuilder } from '../dictionaries/merge/sink.js';
import { readGar } from '../dictionaries/sources/gar.js';
import { readSocrbase } from '../dictionaries/sources/hflabs.js';
import { openZip } from '../dictionaries/io/zip.js';
import { randomFrom } from './synth/names.js';
import { existingArchive, generateGarScale, type GarScaleOptions, type GarScaleResult } from './synth/gar-scale.js';
import { existingNational, generateGarNational } from './synth/gar-national.js';
import { typeTable } from '../dictionaries/types.js';
import { AddressEngine } from '../engine/engine.js';
import { readBlobFile } from '../engine/blob-file.js';
import { defaultWasmFile, loadDictionaryFile } from '../engine/index.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SELF = fileURLToPath(import.meta.url);
const DATA_DIR = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
const SYNTH_DIR = join(ROOT, 'build', 'synth');
const RESULTS_FILE = join(ROOT, 'bench', 'scale-results.json');
const MB = 2 ** 20;
const NATIONAL_HOUSES = 35_000_000;
const TARGETS = { housesPerSecond: 200_000, peakRssMb: 2048, bytesPerHouse: 60 };
/** the tables gar.ts opens (the others are in the archive and skipped) */
const READ_TABLES = /^(AS_ADDR_OBJ|AS_ADM_HIERARCHY|AS_MUN_HIERARCHY|AS_ADDR_OBJ_PARAMS|AS_HOUSES|AS_HOUSES_PARAMS|AS_STEADS|AS_STEADS_PARAMS|AS_APARTMENTS|AS_APARTMENTS_PARAMS|AS_ROOMS|AS_CARPLACES|AS_CHANGE_HISTORY)_\d{8}_/;

// ---- child: build ----

interface BuildReport {
  counts: Awaited<ReturnType<typeof readGar>>;
  houses: number;
  objects: number;
  blobBytes: number;
  phasesMs: Record<string, number>;
  /** CPU time (user + system, all threads: inflate runs in the thread pool) per phase */
  phasesCpuMs: Record<string, number>;
  /** after each phase and a full gc: what is still held (heap, and typed arrays/buffers outside it) */
  liveAfterMb: Record<string, { rss: number; heapUsed: number; arrayBuffers: number }>;
  loadAverage: number[];
  summary: Record<string, number | string>;
}

/** the build as dictionaries/build.ts runs it for ru, GAR only; phase lines on stderr for the parent */
async function childBuild(zipPath: string, outFile: string): Promise<BuildReport> {
  const phasesMs: Record<string, number> = {};
  const phasesCpuMs: Record<string, number> = {};
  const liveAfterMb: BuildReport['liveAfterMb'] = {};
  let phase = '';
  let phaseStart = performance.now();
  let cpuStart = process.cpuUsage();
  // the model and the blob stay referenced while the next phases run, as in dictionaries/build.ts
  const enter = (name: string) => {
    if (phase) {
      phasesMs[phase] = performance.now() - phaseStart;
      const cpu = process.cpuUsage(cpuStart);
      phasesCpuMs[phase] = (cpu.user + cpu.system) / 1000;
      process.stderr.write(`@phase gc-after-${phase}\n`);
      global.gc?.();
      const memory = process.memoryUsage();
      liveAfterMb[phase] = { rss: memory.rss / MB, heapUsed: memory.heapUsed / MB, arrayBuffers: memory.arrayBuffers / MB };
    }
    phase = name;
    process.stderr.write(`@phase ${name}\n`);
    phaseStart = performance.now();
    cpuStart = process.cpuUsage();
  };
  boundHeapGrowth();
  enter('types');
  typeTable().enrich(await readSocrbase(join(DATA_DIR, 'ru/hflabs/socrbase.csv')));
  enter('read');
  const builder = new ModelBuilder('ru');
  const counts = await readGar(zipPath, builder, GAR_BUILD_OPTIONS);
  enter('merge');
  const model = builder.finish();
  // encoding and writing are one streamed pass (dictionaries/build.ts does the same)
  enter('write');
  const stats = await writeBlob(model, outFile);
  enter('done');
  return {
    counts, houses: stats.houses, objects: stats.objects, blobBytes: stats.bytes, phasesMs, phasesCpuMs, liveAfterMb,
    loadAverage: (await import('node:os')).loadavg(), summary: model.summary,
  };
}

// ---- child: load and query ----

interface LoadReport {
  loadMs: number;
  /** where the house codes were (the server's default, HouseCodes `auto`: in the file from 1 M houses on) */
  houseCodes: 'memory' | 'file';
  rssBeforeMb: number;
  rssAfterLoadMb: number;
  heapAfterLoadMb: number;
  wasmMemoryMb: number;
  /** names in the longest posting list of the blob (blob-writer spreads each list into one push call) */
  longestPostingList: number;
  longestPostingWord: string;
  houses: number;
  sections: Record<string, number>;
  standardize: QueryFigures;
  suggest: QueryFigures;
  samples: { standardize: string[]; suggest: string[] };
}

interface QueryFigures {
  queries: number;
  perSecond: number;
  p50Us: number;
  p99Us: number;
  /** standardize: share resolved to the very house the query was made from (a sanity check, not accuracy) */
  sameHouse?: number;
  /** suggest: share with at least one suggestion */
  answered?: number;
}

const rssMb = () => process.memoryUsage().rss / MB;

/**
 * A full GC, a pause, another: V8 frees the backing stores of dead ArrayBuffers (the blob file read at load)
 * after the collection that found them dead, so RSS read right after one gc() can still hold them.
 */
async function settle(): Promise<void> {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 250));
  global.gc?.();
}

async function childLoad(dictFile: string): Promise<LoadReport> {
  const module = await WebAssembly.compile(readFileSync(defaultWasmFile()));
  global.gc?.();
  const rssBeforeMb = rssMb();
  const started = performance.now();
  // the server's own path (engine/index.ts): the file read section by section, never whole
  const dictionary = await loadDictionaryFile(dictFile, module);
  const loadMs = performance.now() - started;
  await settle();
  const rssAfterLoadMb = rssMb();
  const heapAfterLoadMb = process.memoryUsage().heapUsed / MB;
  const engine = new AddressEngine([dictionary]);

  // queries from the synthetic names: 'г Бенполь, ул Абая, 5' for houses drawn with a fixed seed
  const random = randomFrom(20240611);
  const standardizeQueries: Array<{ text: string; house: number }> = [];
  const suggestQueries: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const houseId = Math.floor(random() * dictionary.houseCount);
    const house = dictionary.house(houseId);
    const chain = dictionary.chain(house.parent).map((id) => dictionary.object(id));
    const parts = chain.filter((o) => o.level !== 1).map((o) => `${o.type} ${o.name}`);
    const number = house.number + (house.block ? ` к${house.block}` : '') + (house.building ? ` стр${house.building}` : '');
    standardizeQueries.push({ text: `${parts.join(', ')}, ${number}`, house: houseId });
    const city = chain.find((o) => o.level === 3);
    const street = chain[chain.length - 1];
    const typed = street.name.slice(0, Math.max(3, street.name.length - 2));
    suggestQueries.push(`${city ? city.name + ' ' : ''}${typed}`);
  }
  const timed = (run: (i: number) => void, count: number, minMs: number) => {
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; performance.now() - started < minMs || i < count; i++) {
      const t0 = performance.now();
      run(i % count);
      times.push(performance.now() - t0);
    }
    const total = performance.now() - started;
    times.sort((a, b) => a - b);
    return { queries: times.length, perSecond: times.length / (total / 1000), p50Us: times[times.length >> 1] * 1000, p99Us: times[Math.floor(times.length * 0.99)] * 1000 };
  };
  let sameHouse = 0;
  standardizeQueries.forEach((q) => (sameHouse += engine.standardize('ru', q.text).house === q.house ? 1 : 0));
  let answered = 0;
  suggestQueries.forEach((q) => (answered += engine.suggest('ru', q, 10).length > 0 ? 1 : 0));
  const standardize = { ...timed((i) => engine.standardize('ru', standardizeQueries[i].text), standardizeQueries.length, 3000), sameHouse: sameHouse / standardizeQueries.length };
  const suggest = { ...timed((i) => engine.suggest('ru', suggestQueries[i], 10), suggestQueries.length, 3000), answered: answered / suggestQueries.length };
  const wasmMemoryMb = dictionary.core.memoryBytes() / MB;

  // section sizes, for bytes per house: read from the file's section headers, no section read again (a
  // blob read whole here would be this child's peak), and the posting lists from the core's own sections
  const sections: Record<string, number> = {};
  const host = readBlobFile(dictFile, (path, byteLength) => {
    if (path.startsWith('core.') || path.startsWith('host.houses.')) sections[path] = byteLength;
    return 'skip';
  }).host;
  for (const [name, column] of Object.entries(host.houses)) {
    if (Array.isArray(column)) sections[`host.houses.${name}`] = column.reduce((n, s) => n + Buffer.byteLength(s) + 1, 0);
  }
  let longestPostingList = 0;
  let longestWordId = 0;
  const wordsAt = dictionary.core.sectionIndex('words');
  const trieAt = dictionary.core.sectionIndex('trie');
  for (let w = 0; w < dictionary.core.sectionLength('words') / 16; w++) {
    const count = dictionary.core.i32At(wordsAt + w * 4 + 1);
    if (count > longestPostingList) [longestPostingList, longestWordId] = [count, w];
  }
  const trie = Int32Array.from({ length: dictionary.core.sectionLength('trie') / 4 }, (_, i) => dictionary.core.i32At(trieAt + i));
  const longestPostingWord = wordOf(trie, longestWordId);
  return {
    loadMs, houseCodes: dictionary.coldHouseCodes ? 'file' : 'memory', rssBeforeMb, rssAfterLoadMb, heapAfterLoadMb, wasmMemoryMb, longestPostingList, longestPostingWord,
    houses: dictionary.houseCount, sections, standardize, suggest,
    samples: { standardize: standardizeQueries.slice(0, 3).map((q) => q.text), suggest: suggestQueries.slice(0, 3) },
  };
}

/**
 * The first idsearch of each kind (FIAS, then GAR) builds its index (4 bytes per house, radix-sorted): its own
 * child, so its peak is its own. Then 2,000 houses drawn with a fixed seed are found by FIAS GUID and by GAR id: the mean
 * time of one lookup (the house codes read from the file, as the server's default reads them at this size).
 */
async function childFind(dictFile: string): Promise<{ firstFindByIdMs: number; findByIdUs: number; rssBeforeMb: number; rssAfterMb: number; heapAfterMb: number }> {
  const module = await WebAssembly.compile(readFileSync(defaultWasmFile()));
  // the server's own path (engine/index.ts): the file read section by section, never whole
  const dictionary = await loadDictionaryFile(dictFile, module);
  global.gc?.();
  const rssBeforeMb = rssMb();
  // a house from the middle on with both ids (a synthetic archive's all have them; OSM houses have neither)
  let middle = Math.floor(dictionary.houseCount / 2);
  while (middle < dictionary.houseCount - 1 && !(dictionary.house(middle).codes.fias && dictionary.house(middle).codes.gar)) middle++;
  const someHouse = dictionary.house(middle).codes;
  process.stderr.write('@phase findById\n');
  // the first lookup of each kind builds that kind's index: both, as a server asked by FIAS and GAR ids holds them
  const started = performance.now();
  if (dictionary.findById('FIAS', someHouse.fias)?.kind !== 'house') throw new Error(`findById did not find house ${someHouse.fias}`);
  if (dictionary.findById('GAR', someHouse.gar)?.kind !== 'house') throw new Error(`findById did not find house ${someHouse.gar}`);
  const firstFindByIdMs = performance.now() - started;
  const random = randomFrom(20241125);
  const ids: Array<['FIAS' | 'GAR', string]> = [];
  for (let i = 0; ids.length < 2000 && i < 20000; i++) {
    const codes = dictionary.house(Math.floor(random() * dictionary.houseCount)).codes;
    if (codes.fias && i % 2 === 0) ids.push(['FIAS', codes.fias]);
    else if (codes.gar) ids.push(['GAR', codes.gar]);
  }
  const t0 = performance.now();
  for (const [kind, id] of ids) if (dictionary.findById(kind, id)?.kind !== 'house') throw new Error(`findById did not find house ${kind} ${id}`);
  const findByIdUs = ((performance.now() - t0) * 1000) / ids.length;
  global.gc?.();
  return { firstFindByIdMs, findByIdUs, rssBeforeMb, rssAfterMb: rssMb(), heapAfterMb: process.memoryUsage().heapUsed / MB };
}

/** the word a trie node id spells (trie records: first child, next sibling, char, word id; root 0) */
function wordOf(trie: Int32Array, wordId: number): string {
  const walk = (node: number, prefix: string): string | undefined => {
    for (let child = trie[node * 4]; child >= 0; child = trie[child * 4 + 1]) {
      const text = prefix + String.fromCharCode(trie[child * 4 + 2]);
      if (trie[child * 4 + 3] === wordId) return text;
      const found = walk(child, text);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(0, '') ?? `#${wordId}`;
}

// ---- parent: child processes sampled through /proc ----

interface Sampled<T> {
  report: T;
  /** VmHWM: the kernel's peak RSS of the child */
  peakRssMb: number;
  /** the highest VmRSS sample seen in each phase */
  phasePeakMb: Record<string, number>;
  wallMs: number;
}

function procMemory(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

async function runChild<T>(args: string[], nodeFlags: string[] = [], env: Record<string, string> = {}): Promise<Sampled<T>> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', SELF, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  let phase = 'start';
  let peak = 0;
  const phasePeakMb: Record<string, number> = {};
  const sample = () => {
    const memory = child.pid ? procMemory(child.pid) : undefined;
    if (!memory || !Number.isFinite(memory.rss) || !Number.isFinite(memory.hwm)) return;
    peak = Math.max(peak, memory.hwm);
    phasePeakMb[phase] = Math.max(phasePeakMb[phase] ?? 0, memory.rss);
  };
  const timer = setInterval(sample, 200);
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
    for (const match of chunk.toString().matchAll(/^@phase (\S+)$/gm)) {
      sample();
      phase = match[1];
    }
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearInterval(timer);
  if (code !== 0) {
    throw Object.assign(new Error(`child ${args[0]} failed (exit ${code}) in phase ${phase}:\n${stderr.split('\n').slice(-12).join('\n')}`), {
      failure: { phase, exitCode: code, peakRssMb: peak, phasePeakMb, wallMs: performance.now() - started },
    });
  }
  const last = stdout.trim().split('\n').pop()!;
  return { report: JSON.parse(last) as T, peakRssMb: peak, phasePeakMb, wallMs: performance.now() - started };
}

// ---- parent: where the reader's time goes ----

interface ParseBreakdown {
  archive: string;
  xmlMb: number;
  inflateMs: number;
  saxesMs: number;
  scannerMs: number;
  /** elements saxes saw (the roots included) and records the scanner saw (self-closing only) */
  records: number;
  scannerRecords: number;
  byTable: Record<string, { mb: number; saxesMs: number }>;
}

/**
 * A hand-written scanner of GAR's flat `<TAG A="v" …/>` records over decoded text (indexOf and slices, no
 * per-character state machine): what a reader without saxes could cost. Not used by the build; measured
 * here beside saxes. Returns the unfinished tail to prepend to the next chunk.
 */
function scanRecords(text: string, onRecord: (attributes: Record<string, string>) => void): string {
  let at = 0;
  for (;;) {
    const open = text.indexOf('<', at);
    if (open < 0) return '';
    const close = text.indexOf('>', open);
    if (close < 0) return text.slice(open);
    if (text.charCodeAt(close - 1) === 47 && text.charCodeAt(open + 1) !== 63) {
      const attributes: Record<string, string> = {};
      let p = text.indexOf(' ', open);
      while (p > 0 && p < close) {
        const eq = text.indexOf('="', p);
        if (eq < 0 || eq > close) break;
        const end = text.indexOf('"', eq + 2);
        attributes[text.slice(p + 1, eq)] = text.slice(eq + 2, end);
        p = end + 1;
      }
      onRecord(attributes);
    }
    at = close + 1;
  }
}

async function parseBreakdown(archive: string): Promise<ParseBreakdown> {
  const zip = await openZip(archive);
  const entries = zip.entries.filter((e) => e.fileName.includes('/') && READ_TABLES.test(e.fileName.split('/').pop()!));
  const result: ParseBreakdown = { archive, xmlMb: 0, inflateMs: 0, saxesMs: 0, scannerMs: 0, records: 0, scannerRecords: 0, byTable: {} };
  try {
    let started = performance.now();
    for (const entry of entries) for await (const chunk of await zip.open(entry)) result.xmlMb += (chunk as Buffer).length / MB;
    result.inflateMs = performance.now() - started;
    for (const entry of entries) {
      const table = READ_TABLES.exec(entry.fileName.split('/').pop()!)![1];
      const byTable = (result.byTable[table] ??= { mb: 0, saxesMs: 0 });
      const tableStart = performance.now();
      const parser = new SaxesParser({ xmlns: false, position: true });
      parser.on('opentag', () => result.records++);
      const decoder = new StringDecoder('utf8');
      for await (const chunk of await zip.open(entry)) {
        byTable.mb += (chunk as Buffer).length / MB;
        parser.write(decoder.write(chunk as Buffer));
      }
      parser.close();
      byTable.saxesMs += performance.now() - tableStart;
      result.saxesMs += performance.now() - tableStart;
    }
    started = performance.now();
    let scanned = 0;
    for (const entry of entries) {
      const decoder = new StringDecoder('utf8');
      let carry = '';
      for await (const chunk of await zip.open(entry)) carry = scanRecords(carry + decoder.write(chunk as Buffer), () => scanned++);
    }
    result.scannerMs = performance.now() - started;
    result.scannerRecords = scanned;
  } finally {
    zip.close();
  }
  return result;
}

// ---- parent: the run ----

interface SizeResult {
  requestedHouses: number;
  archive: GarScaleResult & { generatedNow: boolean };
  build: {
    houses: number;
    objects: number;
    counts: BuildReport['counts'];
    buildMs: number;
    phasesMs: Record<string, number>;
    housesPerSecond: number;
    readHousesPerSecond: number;
    /** houses per CPU second (all threads): less sensitive to other processes on the machine than wall time */
    housesPerCpuSecond: number;
    phasesCpuMs: Record<string, number>;
    liveAfterMb: BuildReport['liveAfterMb'];
    loadAverage: number[];
    peakRssMb: number;
    phasePeakRssMb: Record<string, number>;
    blobBytes: number;
    bytesPerHouse: number;
    housePoolStrings: number | string;
  };
  load: LoadReport & { peakRssMb: number };
  /** the first findById: indexes built on demand (or how it failed) */
  idsearch: { firstFindByIdMs: number; findByIdUs: number; rssBeforeMb: number; rssAfterMb: number; heapAfterMb: number; peakRssMb: number } | { failed: string; phase: unknown; peakRssMb: unknown };
}

const fit = (points: Array<[number, number]>, x: number) => {
  const [[x0, y0], [x1, y1]] = points.slice(-2);
  const slope = (y1 - y0) / (x1 - x0);
  return { value: y1 + slope * (x - x1), slope, intercept: y1 - slope * x1 };
};

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const largest = Number(option(args, 'houses') ?? 1_000_000);
  const listed = option(args, 'sizes')?.split(',').map(Number);
  const sizes = (listed ?? [Math.round(largest / 4), largest, ...(args.includes('--full') ? [10_000_000] : [])])
    .filter((n, i, all) => all.indexOf(n) === i).sort((a, b) => a - b);
  const national = option(args, 'generator') === 'national';
  const base: Omit<GarScaleOptions, 'out' | 'houses'> = {
    source: join(DATA_DIR, 'ru/gar/gar_xml.zip'),
    seed: option(args, 'seed') === undefined ? 1 : Number(option(args, 'seed')),
    regions: option(args, 'regions') === undefined ? 85 : Number(option(args, 'regions')),
    cadastralShare: option(args, 'cadastral') === undefined ? 0.6 : Number(option(args, 'cadastral')),
    apartmentsPerHouse: option(args, 'apartments') === undefined ? 0 : Number(option(args, 'apartments')),
  };
  const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  await mkdir(SYNTH_DIR, { recursive: true });
  const wasm = defaultWasmFile();
  if (!existsSync(wasm)) throw new Error(`${wasm} missing: run npm run asbuild:release first`);

  const results: SizeResult[] = [];
  const failures: Array<{ requestedHouses: number; error: string; failure?: unknown }> = [];
  for (const houses of sizes) {
    try {
      results.push(await measureSize(houses));
    } catch (error) {
      // a size that fails (a heap or buffer limit) is a result too: record where, go on with the others
      log(`${houses}: FAILED: ${(error as Error).message}`);
      failures.push({ requestedHouses: houses, error: (error as Error).message, failure: (error as { failure?: unknown }).failure });
    }
  }
  if (results.length === 0) throw new Error('no size could be measured');

  async function measureSize(houses: number): Promise<SizeResult> {
    const name = `gar-${national ? 'national-' : ''}${houses}${base.apartmentsPerHouse ? `-a${base.apartmentsPerHouse}` : ''}`;
    const options = { ...base, houses, out: join(SYNTH_DIR, `${name}.zip`), log };
    const reused = national ? await existingNational(options) : await existingArchive(options);
    const generate = national ? generateGarNational : generateGarScale;
    const archive = reused ? { ...reused, generatedNow: false } : { ...(await generate(options)), generatedNow: true };
    log(`${houses}: archive ${archive.out} (${(archive.zipBytes / MB).toFixed(0)} MB, ${archive.houses} houses, ${archive.copies} copies${reused ? ', reused' : ''})`);
    const dictFile = join(SYNTH_DIR, `ru-${name}.dict`);
    // with malloc tuned as `npm run dict:build` runs it (dictionaries/countries.ts BUILD_MALLOC_ENV)
    const build = await runChild<BuildReport>(['--child-build', archive.out, dictFile], ['--expose-gc'], BUILD_MALLOC_ENV);
    const b = build.report;
    const buildMs = Object.entries(b.phasesMs).reduce((sum, [name, ms]) => sum + (name === 'types' ? 0 : ms), 0);
    log(`${houses}: built in ${(buildMs / 1000).toFixed(1)} s, peak RSS ${build.peakRssMb.toFixed(0)} MB, blob ${(b.blobBytes / MB).toFixed(1)} MB`);
    const load = await runChild<LoadReport>(['--child-load', dictFile], ['--expose-gc']);
    log(`${houses}: loaded in ${load.report.loadMs.toFixed(0)} ms, RSS ${load.report.rssAfterLoadMb.toFixed(0)} MB`);
    let idsearch: SizeResult['idsearch'];
    try {
      const find = await runChild<Awaited<ReturnType<typeof childFind>>>(['--child-find', dictFile], ['--expose-gc']);
      idsearch = { ...find.report, peakRssMb: find.peakRssMb };
    } catch (error) {
      const failure = (error as { failure?: { phase: string; peakRssMb: number } }).failure;
      const message = (error as Error).message;
      idsearch = { failed: /heap out of memory|Allocation failed/i.test(message) ? 'JS heap out of memory' : message.split('\n')[0], phase: failure?.phase, peakRssMb: failure?.peakRssMb };
    }
    log(`${houses}: first idsearch ${'failed' in idsearch ? `failed: ${idsearch.failed}` : `${idsearch.firstFindByIdMs.toFixed(0)} ms`}`);
    const result: SizeResult = {
      requestedHouses: houses,
      archive,
      build: {
        houses: b.houses,
        objects: b.objects,
        counts: b.counts,
        buildMs,
        phasesMs: b.phasesMs,
        housesPerSecond: b.houses / (buildMs / 1000),
        readHousesPerSecond: b.houses / (b.phasesMs.read / 1000),
        housesPerCpuSecond: b.houses / (Object.entries(b.phasesCpuMs).reduce((sum, [name, ms]) => sum + (name === 'types' ? 0 : ms), 0) / 1000),
        phasesCpuMs: b.phasesCpuMs,
        liveAfterMb: b.liveAfterMb,
        loadAverage: b.loadAverage,
        peakRssMb: build.peakRssMb,
        phasePeakRssMb: build.phasePeakMb,
        blobBytes: b.blobBytes,
        bytesPerHouse: b.blobBytes / b.houses,
        housePoolStrings: b.summary['house string pool'],
      },
      load: { ...load.report, peakRssMb: load.peakRssMb },
      idsearch,
    };
    await rm(dictFile, { force: true });
    return result;
  }

  log(`parse breakdown over ${results[0].archive.out}`);
  const breakdown = await parseBreakdown(results[0].archive.out);

  const points = (f: (r: SizeResult) => number) => results.map((r) => [r.build.houses, f(r)] as [number, number]);
  const extrapolated = {
    houses: NATIONAL_HOUSES,
    method: `linear through the two largest measured sizes (${results.slice(-2).map((r) => r.build.houses).join(' and ')} houses); an extrapolation, not a measurement`,
    buildSeconds: fit(points((r) => r.build.buildMs / 1000), NATIONAL_HOUSES).value,
    peakBuildRssMb: fit(points((r) => r.build.peakRssMb), NATIONAL_HOUSES).value,
    blobMb: fit(points((r) => r.build.blobBytes / MB), NATIONAL_HOUSES).value,
    loadSeconds: fit(points((r) => r.load.loadMs / 1000), NATIONAL_HOUSES).value,
    rssAfterLoadMb: fit(points((r) => r.load.rssAfterLoadMb), NATIONAL_HOUSES).value,
    peakLoadRssMb: fit(points((r) => r.load.peakRssMb), NATIONAL_HOUSES).value,
    /** a server that has answered an idsearch: its id indexes built (NaN when an idsearch child failed) */
    rssAfterIdsearchMb: fit(points((r) => ('failed' in r.idsearch ? NaN : r.idsearch.rssAfterMb)), NATIONAL_HOUSES).value,
    peakIdsearchRssMb: fit(points((r) => ('failed' in r.idsearch ? NaN : r.idsearch.peakRssMb)), NATIONAL_HOUSES).value,
    /** queries per second, from the time per query (µs) extrapolated linearly: the wall clock of one process */
    standardizePerSecond: 1e6 / fit(points((r) => 1e6 / r.load.standardize.perSecond), NATIONAL_HOUSES).value,
    suggestPerSecond: 1e6 / fit(points((r) => 1e6 / r.load.suggest.perSecond), NATIONAL_HOUSES).value,
    /** MB of build peak per extra million houses */
    buildRssMbPerMillionHouses: fit(points((r) => r.build.peakRssMb), NATIONAL_HOUSES).slope * 1e6,
  };
  const last = results[results.length - 1];
  const targets = {
    housesPerSecond: { target: TARGETS.housesPerSecond, measured: last.build.housesPerSecond, met: results.every((r) => r.build.housesPerSecond >= TARGETS.housesPerSecond) },
    peakRssMb: {
      target: TARGETS.peakRssMb,
      measured: Math.max(...results.map((r) => Math.max(r.build.peakRssMb, r.load.peakRssMb))),
      extrapolated: Math.max(extrapolated.peakBuildRssMb, extrapolated.peakLoadRssMb, extrapolated.peakIdsearchRssMb),
      met: results.every((r) => r.build.peakRssMb <= TARGETS.peakRssMb && r.load.peakRssMb <= TARGETS.peakRssMb && !('failed' in r.idsearch) && r.idsearch.peakRssMb <= TARGETS.peakRssMb) &&
        Math.max(extrapolated.peakBuildRssMb, extrapolated.peakLoadRssMb, extrapolated.peakIdsearchRssMb) <= TARGETS.peakRssMb,
    },
    bytesPerHouse: { target: TARGETS.bytesPerHouse, measured: last.build.bytesPerHouse, met: results.every((r) => r.build.bytesPerHouse <= TARGETS.bytesPerHouse) },
  };
  const output = {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: (await import('node:os')).cpus().length, memoryGb: Math.round((await import('node:os')).totalmem() / 2 ** 30) },
    command: `tsx bench/build-scale.ts ${args.join(' ')}`.trim(),
    options: base,
    targets,
    sizes: results,
    failures,
    extrapolated,
    parseBreakdown: breakdown,
  };
  const resultsFile = option(args, 'results') === undefined ? RESULTS_FILE : resolve(option(args, 'results')!);
  await writeFile(resultsFile, `${JSON.stringify(output, null, 2)}\n`);
  console.log(formatReport(output));
  for (const failure of failures) console.log(`\n**${failure.requestedHouses} houses failed**: ${failure.error}`);
  console.log(`\nwritten ${resultsFile}`);
}

function formatReport(output: {
  sizes: SizeResult[];
  extrapolated: Record<string, number | string>;
  targets: Record<string, { target: number; measured: number; met: boolean; extrapolated?: number }>;
  parseBreakdown: ParseBreakdown;
}): string {
  const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
  const f1 = (n: number) => n.toFixed(1);
  const lines = [
    '| houses | build s | houses/s (build) | houses/CPU-s (build) | houses/s (read) | read / merge / write s | peak RSS build MB | blob MB | B/house | load s | RSS after load MB | standardize/s (p99 µs) | suggest/s (p99 µs) |',
    '|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of output.sizes) {
    const p = r.build.phasesMs;
    lines.push(
      `| ${f0(r.build.houses)} | ${f1(r.build.buildMs / 1000)} | ${f0(r.build.housesPerSecond)} | ${f0(r.build.housesPerCpuSecond)} | ${f0(r.build.readHousesPerSecond)} | ${[p.read, p.merge, p.write].map((ms) => f1(ms / 1000)).join(' / ')} | ${f0(r.build.peakRssMb)} | ${f1(r.build.blobBytes / MB)} | ${f1(r.build.bytesPerHouse)} | ${f1(r.load.loadMs / 1000)} | ${f0(r.load.rssAfterLoadMb)} | ${f0(r.load.standardize.perSecond)} (${f0(r.load.standardize.p99Us)}) | ${f0(r.load.suggest.perSecond)} (${f0(r.load.suggest.p99Us)}) |`,
    );
  }
  const e = output.extrapolated as Record<string, number>;
  lines.push(
    `| **35,000,000 (extrapolated)** | ${f0(e.buildSeconds)} | | | | | ${f0(e.peakBuildRssMb)} | ${f0(e.blobMb)} | | ${f1(e.loadSeconds)} | ${f0(e.rssAfterLoadMb)} | ${f0(e.standardizePerSecond)} | ${f0(e.suggestPerSecond)} |`,
  );
  lines.push(
    '',
    `After the first idsearch (id indexes built), 35 M extrapolated: RSS ${f0(e.rssAfterIdsearchMb)} MB, peak ${f0(e.peakIdsearchRssMb)} MB.`,
  );
  lines.push('', `Extrapolation: ${output.extrapolated.method}.`, '', '| target | goal | measured (largest size) | met |', '|---|---:|---:|---|');
  for (const [name, t] of Object.entries(output.targets)) {
    lines.push(`| ${name} | ${f0(t.target)} | ${f1(t.measured)}${t.extrapolated !== undefined ? ` (35 M extrapolated: ${f0(t.extrapolated)})` : ''} | ${t.met ? 'yes' : '**no**'} |`);
  }
  lines.push('', '| houses | phase | wall s | CPU s | peak RSS in phase MB | live after phase (gc): heap / buffers MB |', '|---:|---|---:|---:|---:|---|');
  for (const r of output.sizes) {
    for (const phase of ['read', 'merge', 'write']) {
      const live = r.build.liveAfterMb[phase];
      lines.push(
        `| ${f0(r.build.houses)} | ${phase} | ${f1(r.build.phasesMs[phase] / 1000)} | ${f1(r.build.phasesCpuMs[phase] / 1000)} | ${f0(r.build.phasePeakRssMb[phase] ?? NaN)} | ${f0(live.heapUsed)} / ${f0(live.arrayBuffers)} |`,
      );
    }
  }
  lines.push(
    '',
    ...output.sizes.map(
      (r) =>
        `${f0(r.build.houses)} houses: load average ${r.build.loadAverage.map((x) => x.toFixed(1)).join(' / ')} at the end of the build (2 cores; other processes share them); ` +
        ('failed' in r.idsearch
          ? `first idsearch FAILED (${r.idsearch.failed}, peak RSS ${f0(Number(r.idsearch.peakRssMb))} MB); `
          : `first idsearch ${f0(r.idsearch.firstFindByIdMs)} ms, then ${f1(r.idsearch.findByIdUs)} µs a lookup; RSS ${f0(r.idsearch.rssBeforeMb)} → ${f0(r.idsearch.rssAfterMb)} MB (peak ${f0(r.idsearch.peakRssMb)}, heap ${f0(r.idsearch.heapAfterMb)} MB); `) +
        `house codes ${r.load.houseCodes === 'file' ? 'read from the file' : 'in memory'}; ` +
        `standardize resolves ${(100 * (r.load.standardize.sameHouse ?? 0)).toFixed(1)} % of its queries to the house they were made from (sanity only); ` +
        `longest posting list ${f0(r.load.longestPostingList)} names («${r.load.longestPostingWord}»).`,
    ),
  );
  const largest = output.sizes[output.sizes.length - 1];
  const perHouse = Object.entries(largest.load.sections)
    .map(([name, bytes]) => [name, bytes / largest.build.houses] as const)
    .filter(([, bytes]) => bytes >= 0.5)
    .sort((x, y) => y[1] - x[1]);
  lines.push(
    '',
    `Blob bytes per house by section at ${f0(largest.build.houses)} houses (sections ≥ 0.5 B/house; the rest is objects, names and msgpack framing): ` +
      perHouse.map(([name, bytes]) => `${name} ${f1(bytes)}`).join(', ') + '.',
  );
  const b = output.parseBreakdown;
  lines.push(
    '',
    `Reader breakdown over ${b.archive} (${f0(b.xmlMb)} MB of XML in the tables gar.ts opens, ${f0(b.records)} elements): ` +
      `inflate alone ${f1(b.inflateMs / 1000)} s (${f0(b.xmlMb / (b.inflateMs / 1000))} MB/s), inflate + saxes without handlers ${f1(b.saxesMs / 1000)} s ` +
      `(${f0(b.xmlMb / (b.saxesMs / 1000))} MB/s), inflate + byte scanner building the same attribute objects ${f1(b.scannerMs / 1000)} s (${f0(b.xmlMb / (b.scannerMs / 1000))} MB/s). ` +
      `${f0((b.xmlMb * MB) / output.sizes[0].build.houses)} bytes of XML per house: inflate alone caps one reader thread at ${f0(output.sizes[0].build.houses / (b.inflateMs / 1000))} houses/s.`,
    '',
    '| table | MB | share of saxes time |',
    '|---|---:|---:|',
    ...Object.entries(b.byTable)
      .sort((x, y) => y[1].saxesMs - x[1].saxesMs)
      .map(([table, t]) => `| ${table} | ${f0(t.mb)} | ${((100 * t.saxesMs) / b.saxesMs).toFixed(0)} % |`),
  );
  return lines.join('\n');
}

if (process.argv.includes('--child-build')) {
  const at = process.argv.indexOf('--child-build');
  const report = await childBuild(process.argv[at + 1], process.argv[at + 2]);
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else if (process.argv.includes('--child-find')) {
  const report = await childFind(process.argv[process.argv.indexOf('--child-find') + 1]);
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else if (process.argv.includes('--child-load')) {
  const report = await childLoad(process.argv[process.argv.indexOf('--child-load') + 1]);
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else if (process.argv[1] && resolve(process.argv[1]) === SELF) {
  main().catch((error) => {
    console.error(`build-scale failed: ${error instanceof Error ? error.stack : error}`);
    process.exit(1);
  });
}
