/**
 * Throughput of the GAR reader alone (the build's largest part): `readGar` over a `gar_xml.zip` (a synthetic
 * national-layout archive from bench/synth/gar-scale.ts, or the real region) into a sink that only counts, so the
 * figure is the reader's: inflate + XML + the records it builds, no merge, no blob.
 *
 * Each run is a fresh child process (its own heap and peak RSS: the kernel's `maxRSS` of the child). The
 * machine is shared, so every run also reports its CPU time (all threads: inflate runs in the libuv pool)
 * and the load average; the table gives the median and the spread (min–max) of the runs.
 *
 * MB/s is XML inflated and parsed per second: the uncompressed sizes of the entries the reader opened
 * (`GarCounts.xmlBytes`). Houses are houses + steads, as in bench/build-scale.ts.
 *
 * `--digest` reads once more into a sink that hashes every record (sha256 of `kind<TAB>JSON` lines, in
 * the order the reader emits them, rejects and sources included): two readers agree when their digests
 * do. `--reader <file>` measures another copy of the reader (a checkout of an earlier commit), so
 * before/after runs share the same conditions when interleaved.
 *
 * `--threads N` sets the reader's scan threads (`GarOptions.scanThreads`; 0 scans in the reader's thread; default: the
 * reader's own choice, two on this machine for these archives).
 *
 * `--inflate N` measures the ceiling instead: only inflating the entries the reader opens, N entries at a
 * time (each inflate runs in the libuv pool, so N = 2 uses both cores of this machine), nothing scanned;
 * houses are the archive's (its `.json` sidecar from the generator). No reader can be faster than this on
 * the same machine without a faster inflate.
 *
 * Usage: tsx bench/read-gar.ts [archive ...] [--runs 3] [--digest] [--reader dictionaries/sources/gar.ts]
 *        [--threads 0|1|2] [--inflate 1|2] [--results build/read-gar.json]
 * Default archives: build/synth/gar-250000.zip and gar-1000000.zip (generate them with
 * `tsx bench/synth/gar-scale.ts --houses 250000`, or let bench/build-scale.ts do it).
 */
import { spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ApartmentRecord, AddressObject, HouseRecord, ModelSink, MunicipalObject, SourceInfo } from '../dictionaries/source-model.js';
import { readSocrbase } from '../dictionaries/sources/hflabs.js';
import { typeTable } from '../dictionaries/types.js';
import { REGION_TABLES } from '../dictionaries/io/gar-tables.js';
import { openZip } from '../dictionaries/io/zip.js';
import { tableOf } from '../dictionaries/sources/gar.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SELF = fileURLToPath(import.meta.url);
const DATA_DIR = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
const DEFAULT_READER = join(ROOT, 'dictionaries/sources/gar.ts');
const MB = 2 ** 20;

interface RunReport {
  archive: string;
  reader: string;
  houses: number;
  steads: number;
  objects: number;
  apartments: number;
  xmlBytes: number;
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  loadAverage: number;
  digest?: string;
}

/** Counts, and with `hash` feeds every record to it: the reader's output in order. */
class MeasuringSink implements ModelSink {
  readonly country = 'ru';
  objects = 0;
  houses = 0;
  apartments = 0;
  constructor(private readonly hash?: Hash) {}
  private line(kind: string, record: unknown): void {
    this.hash?.update(`${kind}\t${JSON.stringify(record)}\n`);
  }
  addObject(object: AddressObject): void {
    this.objects++;
    this.line('object', object);
  }
  addHouse(house: HouseRecord): void {
    this.houses++;
    this.line('house', house);
  }
  addMunicipal(municipal: MunicipalObject): void {
    this.line('municipal', municipal);
  }
  addApartment(apartment: ApartmentRecord): void {
    this.apartments++;
    this.line('apartment', apartment);
  }
  addMetro(): void {}
  addPostcode(): void {}
  addSource(info: SourceInfo): void {
    this.line('source', info);
  }
  reject(source: string, reason: string): void {
    this.line('reject', [source, reason]);
  }
}

type ReadGar = (zip: string, sink: ModelSink, options: object) => Promise<{ objects: number; houses: number; steads: number; apartments: number; xmlBytes?: number }>;

async function childRun(archive: string, reader: string, digest: boolean, scanThreads: number | undefined): Promise<RunReport> {
  const { readGar } = (await import(pathToFileURL(reader).href)) as { readGar: ReadGar };
  // the type table as the build has it (hflabs abbreviations added), given to either reader
  const types = typeTable();
  types.enrich(await readSocrbase(join(DATA_DIR, 'ru/hflabs/socrbase.csv')));
  const hash = digest ? createHash('sha256') : undefined;
  const sink = new MeasuringSink(hash);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const counts = await readGar(archive, sink, { asOf: '2024-06-01', types, scanThreads });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (hash) hash.update(`counts\t${JSON.stringify([counts.objects, counts.houses, counts.steads, counts.apartments])}\n`);
  return {
    archive,
    reader,
    houses: counts.houses + counts.steads,
    steads: counts.steads,
    objects: counts.objects,
    apartments: counts.apartments,
    xmlBytes: counts.xmlBytes ?? NaN,
    ms,
    cpuMs: (used.user + used.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    loadAverage: loadavg()[0],
    digest: hash?.digest('hex'),
  };
}

/** inflates every entry the reader opens (REGION_TABLES of every region folder), `lanes` at a time */
async function childInflate(archive: string, lanes: number): Promise<RunReport> {
  const zip = await openZip(archive);
  const tables = new Set<string>(REGION_TABLES);
  const entries = zip.entries.filter((entry) => tables.has(tableOf(entry.fileName) ?? ''));
  const cpu = process.cpuUsage();
  const started = performance.now();
  let xmlBytes = 0;
  let next = 0;
  const lane = async () => {
    while (next < entries.length) {
      const stream = await zip.open(entries[next++]);
      for await (const chunk of stream) xmlBytes += (chunk as Buffer).length;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  zip.close();
  const sidecar = JSON.parse(readFileSync(`${archive}.json`, 'utf8')) as { houses: number };
  return {
    archive, reader: `inflate only, ${lanes} lane(s)`, houses: sidecar.houses, steads: 0, objects: 0, apartments: 0, xmlBytes, ms,
    cpuMs: (used.user + used.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024, loadAverage: loadavg()[0],
  };
}

async function runChild(args: string[]): Promise<RunReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--child', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`read-gar child ${args.join(' ')} failed (exit ${code})`);
  return JSON.parse(stdout.trim().split('\n').pop()!) as RunReport;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const runs = Number(option(args, 'runs') ?? 3);
  const reader = resolve(option(args, 'reader') ?? DEFAULT_READER);
  const threads = option(args, 'threads');
  const inflate = option(args, 'inflate');
  const valued = new Set(['runs', 'reader', 'results', 'threads', 'inflate'].flatMap((name) => [`--${name}`, option(args, name)]));
  const named = args.filter((arg) => !arg.startsWith('--') && !valued.has(arg)).map((arg) => resolve(arg));
  const archives = named.length > 0 ? named : ['gar-250000.zip', 'gar-1000000.zip'].map((name) => join(ROOT, 'build/synth', name));
  for (const archive of archives) if (!existsSync(archive)) throw new Error(`${archive} missing: generate it with tsx bench/synth/gar-scale.ts --houses N`);

  const reports: RunReport[] = [];
  const lines = [
    `${inflate ? `inflate only, ${inflate} lane(s)` : `reader ${reader}`}${threads === undefined ? '' : `, ${threads} scan thread(s)`}, ${runs} run(s) per archive, each in a fresh process`,
    '',
    '| archive | houses | XML MB | houses/s median (min–max) | MB/s median (min–max) | houses/CPU-s | peak RSS MB (max) | load avg |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const archive of archives) {
    const mine: RunReport[] = [];
    for (let run = 0; run < runs; run++) {
      const report = await runChild(inflate ? [archive, '--inflate', inflate] : [archive, reader, ...(threads === undefined ? [] : ['--threads', threads])]);
      console.error(`${archive}: ${Math.round(report.houses / (report.ms / 1000))} houses/s, ${(report.ms / 1000).toFixed(2)} s, CPU ${(report.cpuMs / 1000).toFixed(2)} s, peak RSS ${report.peakRssMb.toFixed(0)} MB, load ${report.loadAverage.toFixed(1)}`);
      mine.push(report);
    }
    if (args.includes('--digest')) {
      const hashed = await runChild([archive, reader, '--digest', ...(threads === undefined ? [] : ['--threads', threads])]);
      console.error(`${archive}: digest ${hashed.digest}`);
      mine.forEach((report) => (report.digest = hashed.digest));
    }
    reports.push(...mine);
    const rate = mine.map((r) => r.houses / (r.ms / 1000));
    const mbps = mine.map((r) => r.xmlBytes / MB / (r.ms / 1000));
    const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
    lines.push(
      `| ${archive.split('/').pop()} | ${f0(mine[0].houses)} | ${f0(mine[0].xmlBytes / MB)} | ${f0(median(rate))} (${f0(Math.min(...rate))}–${f0(Math.max(...rate))}) | ` +
        `${f0(median(mbps))} (${f0(Math.min(...mbps))}–${f0(Math.max(...mbps))}) | ${f0(median(mine.map((r) => r.houses / (r.cpuMs / 1000))))} | ` +
        `${f0(Math.max(...mine.map((r) => r.peakRssMb)))} | ${mine.map((r) => r.loadAverage.toFixed(1)).join(' ')} |`,
    );
    if (mine[0].digest) lines.push(`|  digest ${mine[0].digest} | | | | | | | |`);
  }
  console.log(lines.join('\n'));
  const results = option(args, 'results');
  if (results) await writeFile(resolve(results), `${JSON.stringify({ date: new Date().toISOString(), command: `tsx bench/read-gar.ts ${args.join(' ')}`, reports }, null, 2)}\n`);
}

if (process.argv.includes('--child') && process.argv.includes('--inflate')) {
  const [archive] = process.argv.slice(process.argv.indexOf('--child') + 1);
  process.stdout.write(`${JSON.stringify(await childInflate(archive, Number(option(process.argv, 'inflate'))))}\n`);
} else if (process.argv.includes('--child')) {
  const [archive, reader] = process.argv.slice(process.argv.indexOf('--child') + 1);
  const threads = option(process.argv, 'threads');
  const report = await childRun(archive, reader, process.argv.includes('--digest'), threads === undefined ? undefined : Number(threads));
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else if (process.argv[1] && resolve(process.argv[1]) === SELF) {
  main().catch((error) => {
    console.error(`read-gar failed: ${error instanceof Error ? error.stack : error}`);
    process.exit(1);
  });
}
