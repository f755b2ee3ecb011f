/**
 * Scale check of GAR updates (docs/UPDATES.md): on a synthetic national-size archive (bench/build-scale.ts,
 * bench/synth/gar-scale.ts), the full build of a GAR-only ru dictionary from the archive alone and the
 * one that writes the update store, beside the application of a delta of `--changes` records: a quarter retired houses, half the
 * hierarchy rows of a quarter moved to another street, a quarter new postcodes. Each step runs in a fresh
 * child process; its time and peak RSS (VmHWM, the kernel's own) are printed as a markdown table.
 *
 * The delta is cut from the archive itself (its records, the attributes the reader reads plus ID), every
 * k-th current house, so it applies to the store the build wrote.
 *
 * `--no-plain` leaves out the build from the archive alone (at 10 M houses it takes minutes and measures no update).
 * Each step runs as its command does (`run`); the apply step's line also gives the CPU time of its main thread
 * alone (`mainCpuMs`), what no other thread of it can take, and under a busy machine a steadier figure than the wall time.
 *
 * `--base DIR` starts from the dictionary and store of an earlier run instead of building them: `DIR/dict` (a `--work`
 * directory of a finished run, or a copy of its `dict/` saved before an apply changed it) is copied into the work
 * directory, the delta cut from `--archive` as always, and applied. `--delta-date YYYYMMDD` dates the delta (default
 * 20991231; an update refuses a delta older than the store's records, so a base that took a delta wants a later
 * one) and `--offset N` starts its every-k-th house at the N-th (a base that took the delta of offset 0 takes the
 * same records again, replacing themselves; another offset changes other houses).
 *
 * `--log` prints the steps' progress lines (the update's phases with their times) on stderr.
 *
 * Usage: tsx bench/update-scale.ts --archive build/synth/gar-1000000.zip [--changes 100000] [--work build/update-scale] [--no-plain] [--log]
 *        tsx bench/update-scale.ts --archive build/synth/gar-10000000.zip --base DIR [--delta-date 21000101] [--offset 1]
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { buildDictionaries } from '../dictionaries/build.js';
import { recordLayout, streamFlatXml } from '../dictionaries/io/flat-xml.js';
import { groupEntries } from '../dictionaries/sources/gar.js';
import { openZip } from '../dictionaries/io/zip.js';
import { applyDelta } from '../dictionaries/update/apply-delta.js';
import { BUILD_MALLOC_ENV, UPDATE_V8_FLAGS } from '../dictionaries/countries.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SELF = fileURLToPath(import.meta.url);
const DATA_DIR = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const MB = 2 ** 20;

/** a figure of the child's own /proc/self/status, MB: VmHWM, its peak RSS; RssFile, the mapped file pages (LMDB's) it holds now */
const statusMb = (field: 'VmHWM' | 'RssFile') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

/** CPU time (user + system) of this process's main thread alone, ms: the part of the work no other thread takes */
function mainThreadCpuMs(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, fields 14 and 15 of stat (12 and 13 after the command), in clock ticks of 10 ms
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function child(step: string, work: string): Promise<void> {
  const started = performance.now();
  // `--log`: the build's and the update's progress lines on stderr (each with the time since the step began)
  const quiet = args.includes('--log') ? (line: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${line}`) : () => {};
  const extra: Record<string, unknown> = {};
  if (step === 'build' || step === 'plain') {
    const outDir = join(work, step === 'build' ? 'dict' : 'plain');
    await buildDictionaries({ dataDir: join(work, 'data'), outDir, countries: ['ru'], garOnly: true, garStore: step === 'build', log: quiet });
  } else {
    const result = await applyDelta({ deltas: [join(work, 'gar_delta_xml.zip')], dir: join(work, 'dict'), dataDir: join(work, 'data'), log: quiet });
    Object.assign(extra, { ingestMs: result.ingestMs, rebuildMs: result.rebuildMs, records: result.deltas[0].records, namesReused: result.namesReused });
  }
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ step, ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, mainCpuMs: mainThreadCpuMs(), peakRssMb: statusMb('VmHWM'), rssFileMb: statusMb('RssFile'), ...extra }));
}

/** the delta: `changes` records cut from the archive (see the module comment) */
async function cutDelta(archive: string, out: string, changes: number, date: string, offset: number): Promise<{ records: number; houses: number }> {
  const zip = await openZip(archive);
  const { regions } = groupEntries(zip.entries, archive);
  const HOUSE = recordLayout('HOUSE', ['ID', 'OBJECTID', 'OBJECTGUID', 'HOUSENUM', 'HOUSETYPE', 'ISACTUAL', 'ISACTIVE']);
  const ITEM = recordLayout('ITEM', ['ID', 'OBJECTID', 'PARENTOBJID', 'ISACTIVE']);
  const quarter = Math.floor(changes / 4);
  let current = 0;
  for (const files of regions.values()) {
    await streamFlatXml(await zip.open(files.get('AS_HOUSES')!), 'houses', HOUSE, (r) => {
      if (r.is(HOUSE.ISACTUAL, '1') && r.is(HOUSE.ISACTIVE, '1')) current++;
    });
  }
  // every `step`-th current house: retired, moved, new postcode in turn
  const step = Math.max(1, Math.floor(current / (3 * quarter)));
  const retired = new Set<number>();
  const moved = new Set<number>();
  const postcode = new Set<number>();
  const entries: Array<{ name: string; text: string }> = [];
  let nextId = 4e12 + offset * 1e9;
  let seen = -offset;
  let records = 0;
  for (const [region, files] of regions) {
    let houses = '';
    await streamFlatXml(await zip.open(files.get('AS_HOUSES')!), 'houses', HOUSE, (r) => {
      if (!(r.is(HOUSE.ISACTUAL, '1') && r.is(HOUSE.ISACTIVE, '1'))) return;
      if (seen++ < 0 || (seen - 1) % step !== 0) return;
      const objectId = r.int(HOUSE.OBJECTID);
      const turn = (seen / step) % 3 | 0;
      if (turn === 0 && retired.size < quarter) {
        retired.add(objectId);
        houses += `<HOUSE ID="${r.text(HOUSE.ID)}" OBJECTID="${objectId}" OBJECTGUID="${r.text(HOUSE.OBJECTGUID)}" HOUSENUM="${r.text(HOUSE.HOUSENUM)}" HOUSETYPE="${r.text(HOUSE.HOUSETYPE)}" ISACTUAL="0" ISACTIVE="0" />`;
        records++;
      } else if (turn === 1 && moved.size < quarter) moved.add(objectId);
      else if (postcode.size < quarter) postcode.add(objectId);
    });
    let items = '';
    let params = '';
    let lastStreet = 0;
    await streamFlatXml(await zip.open(files.get('AS_ADM_HIERARCHY')!), 'hierarchy', ITEM, (r) => {
      if (!r.is(ITEM.ISACTIVE, '1')) return;
      const objectId = r.int(ITEM.OBJECTID);
      if (!moved.has(objectId)) {
        // the street of another house of the delta: where the next moved house goes
        if (retired.has(objectId) || postcode.has(objectId)) lastStreet = r.int(ITEM.PARENTOBJID);
        return;
      }
      const parent = r.int(ITEM.PARENTOBJID);
      items += `<ITEM ID="${r.text(ITEM.ID)}" OBJECTID="${objectId}" PARENTOBJID="${parent}" ISACTIVE="0" />`;
      items += `<ITEM ID="${++nextId}" OBJECTID="${objectId}" PARENTOBJID="${lastStreet || parent}" ISACTIVE="1" />`;
      records += 2;
    });
    for (const objectId of postcode) {
      params += `<PARAM ID="${++nextId}" OBJECTID="${objectId}" CHANGEID="${nextId}" CHANGEIDEND="0" TYPEID="5" VALUE="468399" STARTDATE="2099-12-31" ENDDATE="2100-01-01" />`;
      records++;
    }
    postcode.clear();
    const head = '\uFEFF<?xml version="1.0" encoding="utf-8"?>';
    if (houses) entries.push({ name: `${region}/AS_HOUSES_${date}_00000000-0000-4000-8000-0000000000${region}.XML`, text: `${head}<HOUSES>${houses}</HOUSES>` });
    if (items) entries.push({ name: `${region}/AS_ADM_HIERARCHY_${date}_00000000-0000-4000-8000-0000000001${region}.XML`, text: `${head}<ITEMS>${items}</ITEMS>` });
    if (params) entries.push({ name: `${region}/AS_HOUSES_PARAMS_${date}_00000000-0000-4000-8000-0000000002${region}.XML`, text: `${head}<PARAMS>${params}</PARAMS>` });
  }
  zip.close();
  const out$ = new yazl.ZipFile();
  for (const { name, text } of entries) out$.addBuffer(Buffer.from(text, 'utf8'), name);
  await new Promise<void>((done, fail) => {
    out$.outputStream.pipe(createWriteStream(`${out}.tmp`)).on('finish', done).on('error', fail);
    out$.end();
  });
  await rename(`${out}.tmp`, out);
  return { records, houses: current };
}

/**
 * Runs a step in a child process; the delta's as `dict update` runs (`inTunedMalloc`, countries.ts): glibc malloc
 * tuned and UPDATE_V8_FLAGS, unless `DICT_BUILD_MALLOC=default`. The builds run with the defaults.
 */
function run(step: string, work: string): Record<string, number | string> {
  const tuned = step === 'apply' && process.env.DICT_BUILD_MALLOC !== 'default';
  const flags = tuned ? UPDATE_V8_FLAGS : [];
  const result = spawnSync(process.execPath, [...process.execArgv, ...flags, SELF, '--child', step, '--work', work, ...args.filter((arg) => arg === '--log')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: tuned ? { ...process.env, ...BUILD_MALLOC_ENV } : process.env,
  });
  if (result.status !== 0) throw new Error(`${step} failed (exit ${result.status})`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!);
}

if (option('--child')) {
  await child(option('--child')!, option('--work')!);
} else {
  const archive = resolve(option('--archive', join(ROOT, 'build/synth/gar-1000000.zip'))!);
  const changes = Number(option('--changes', '100000'));
  const work = resolve(option('--work', join(ROOT, 'build/update-scale'))!);
  const base = option('--base') && resolve(option('--base')!);
  if (base === work) throw new Error('--base must not be the --work directory (it is emptied first)');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'data/ru/gar'), { recursive: true });
  symlinkSync(archive, join(work, 'data/ru/gar/gar_xml.zip'));
  symlinkSync(join(DATA_DIR, 'ru/hflabs'), join(work, 'data/ru/hflabs'));
  symlinkSync(join(DATA_DIR, 'ru/kladr'), join(work, 'data/ru/kladr'));
  let plain: Record<string, number | string> | undefined;
  let build: Record<string, number | string> | undefined;
  if (base) {
    const copyStarted = performance.now();
    mkdirSync(join(work, 'dict'));
    for (const file of ['ru.dict', 'ru.gar.mdb']) copyFileSync(join(base, 'dict', file), join(work, 'dict', file));
    console.error(`base: ${base}/dict copied in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`);
  } else {
    plain = args.includes('--no-plain') ? undefined : run('plain', work);
    build = run('build', work);
  }
  const cutStarted = performance.now();
  const delta = await cutDelta(archive, join(work, 'gar_delta_xml.zip'), changes, option('--delta-date', '20991231')!, Number(option('--offset', '0')));
  console.error(`delta: ${delta.records} records of ${delta.houses} current houses, cut in ${((performance.now() - cutStarted) / 1000).toFixed(1)} s`);
  const apply = run('apply', work);
  const storeBytes = statSync(join(work, 'dict/ru.gar.mdb')).size;
  const rows = [
    `| step | time, s | peak RSS, MB |`,
    `|---|---:|---:|`,
    ...(plain ? [`| full build from the archive alone (\`--no-gar-store\`) | ${(Number(plain.ms) / 1000).toFixed(1)} | ${Number(plain.peakRssMb).toFixed(0)} |`] : []),
    ...(build ? [`| full build (GAR → store → dictionary) | ${(Number(build.ms) / 1000).toFixed(1)} | ${Number(build.peakRssMb).toFixed(0)} |`] : [`| (from the base ${base}) | | |`]),
    `| delta of ${apply.records} records: into the store | ${(Number(apply.ingestMs) / 1000).toFixed(1)} | |`,
    `| delta: dictionary rebuilt from the store | ${(Number(apply.rebuildMs) / 1000).toFixed(1)} | |`,
    `| delta in all | ${(Number(apply.ms) / 1000).toFixed(1)} (CPU ${(Number(apply.cpuMs) / 1000).toFixed(1)}, main thread ${(Number(apply.mainCpuMs) / 1000).toFixed(1)}) | ${Number(apply.peakRssMb).toFixed(0)} |`,
  ];
  console.log(`${archive}: ${delta.houses} current houses, store ${(storeBytes / MB).toFixed(0)} MB\n${rows.join('\n')}`);
  writeFileSync(join(work, 'results.json'), JSON.stringify({ date: new Date().toISOString(), archive, base, houses: delta.houses, storeBytes, plain, build, apply }, null, 1));
}
