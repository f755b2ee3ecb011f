import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { unpack } from 'msgpackr';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDictionaries } from '../../../../dictionaries/build.js';
import { readGar, readGarRecords } from '../../../../dictionaries/sources/gar.js';
import { storeRecords } from '../../../../dictionaries/update/gar-ingest.js';
import { generateGarDelta, type GarDeltaResult } from '../../../../bench/synth/gar-delta.js';
import { applyDelta } from '../../../../dictionaries/update/apply-delta.js';
import { BLOCK_BYTES, GarStore } from '../../../../dictionaries/update/gar-store.js';
import { GAR_TABLES, REGION_TABLES } from '../../../../dictionaries/io/gar-tables.js';
import { readBlobSections } from '../../../../dictionaries/update/blob-sections.js';
import { NAME_SECTIONS } from '../../../../dictionaries/blob-writer.js';
import { createEngine, type AddressEngine } from '../../../../engine/index.js';
import { LEVEL_KEYS, type Resolution } from '../../../../engine/types.js';
import { DEBUG_WASM, viewOf } from '../../../helpers/engine.js';
import { CollectingSink, DATA_DIR, HAS_DATA, REPO_ROOT } from '../../../helpers/model-sink.js';

/** what an answer says, without the dictionary's internal ids and the GA codes (a full build numbers them afresh) */
function answerOf(engine: AddressEngine, res: Resolution | null) {
  if (res === null) return null;
  const dict = engine.dictionary('ru')!;
  const objects = LEVEL_KEYS.filter((key) => key !== 'municipal' && res.levels[key] >= 0).map((key) => {
    const { id: _id, parent: _parent, codes, ...rest } = dict.object(res.levels[key]);
    return { ...rest, codes: { ...codes, ga: undefined } };
  });
  const house = res.house >= 0 ? (({ id: _id, parent: _parent, codes, ...rest }) => ({ ...rest, codes: { ...codes, ga: undefined } }))(dict.house(res.house)) : null;
  return { view: viewOf(dict, res), objects, house };
}

function byFias(engine: AddressEngine, guid: string) {
  const dict = engine.dictionary('ru')!;
  const found = dict.findById('FIAS', guid);
  return found ? engine.resolutionOf(dict, found) : null;
}

function gaOfObject(engine: AddressEngine, guid: string): string {
  const dict = engine.dictionary('ru')!;
  const found = dict.findById('FIAS', guid);
  if (!found || found.kind !== 'object') throw new Error(`${guid}: no such object`);
  return dict.object(found.id).codes.ga;
}

/** the rows of a table of `store` as [id, value] (a row's first slot is its id, the second its value) */
function storedRows(store: GarStore, region: string): Array<[number, string]> {
  const rows: Array<[number, string]> = [];
  store.readRecords(region, 'AS_HOUSES', 2, (record) => rows.push([record.int(0), record.text(1)]));
  return rows;
}

describe('GarStore: rows in blocks', () => {
  const work = mkdtempSync(join(tmpdir(), 'gar-store-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const row = (id: number, text: string) => Buffer.from(`${id}\u0001${text}`);
  const expected = (rows: Map<number, string>) => [...rows].sort(([a], [b]) => a - b);

  it('reads back what was written and changed, in id order, whatever blocks the rows fell in', async () => {
    const store = GarStore.open(join(work, 'blocks.mdb'), { create: true });
    try {
      const rows = new Map<number, string>();
      // 3,000 rows of a few dozen bytes: many blocks; a few out of order, as a file need not be sorted
      const writer = store.tableWriter('77', 'AS_HOUSES');
      for (let id = 10; id < 30_010; id += 10) {
        const text = `house ${id} ${'x'.repeat(id % 70)}`;
        rows.set(id, text);
        writer.add(id, row(id, text));
        if (id === 15_000) for (const early of [5, 12_345, 25]) (rows.set(early, `early ${early}`), writer.add(early, row(early, `early ${early}`)));
      }
      await writer.end();
      // another region's table beside it stays apart
      const other = store.tableWriter('78', 'AS_HOUSES');
      other.add(1, row(1, 'other'));
      await other.end();
      await store.flushed;
      expect(storedRows(store, '77')).toEqual(expected(rows));
      // a delta: replaced, removed, new ones before the first, between and after the last, a row longer than a block
      let seed = 1;
      const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      for (let round = 0; round < 3; round++) {
        const changes = new Map<number, Buffer | null>();
        for (let k = 0; k < 400; k++) {
          const id = 1 + Math.floor(random() * 40_000);
          if (random() < 0.4) {
            changes.set(id, null);
            rows.delete(id);
          } else {
            const text = `round ${round} ${'y'.repeat(Math.floor(random() * 120))}`;
            changes.set(id, row(id, text));
            rows.set(id, text);
          }
        }
        const long = 'z'.repeat(BLOCK_BYTES * 2);
        changes.set(20_000 + round, row(20_000 + round, long));
        rows.set(20_000 + round, long);
        store.applyRows('77', 'AS_HOUSES', changes);
        expect(storedRows(store, '77')).toEqual(expected(rows));
      }
      // ids before the first block's, with others further on, in one delta
      const first = storedRows(store, '77')[0][0];
      const before = new Map<number, Buffer | null>([[0, row(0, 'zero')], [first - 1, row(first - 1, 'before')], [first, null], [39_999, row(39_999, 'last')]]);
      for (const [id, value] of before) value === null ? rows.delete(id) : rows.set(id, value.toString().split('\u0001')[1]);
      store.applyRows('77', 'AS_HOUSES', before);
      expect(storedRows(store, '77')).toEqual(expected(rows));
      // every row of a table removed, then one back
      store.applyRows('78', 'AS_HOUSES', new Map([[1, null], [2, null]]));
      expect(storedRows(store, '78')).toEqual([]);
      store.applyRows('78', 'AS_HOUSES', new Map([[3, row(3, 'back')]]));
      expect(storedRows(store, '78')).toEqual([[3, 'back']]);
      expect(storedRows(store, '77')).toEqual(expected(rows));
    } finally {
      await store.close();
    }
  });
});

describe('GarStore: GA codes', () => {
  const work = mkdtempSync(join(tmpdir(), 'gar-ga-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const code = (n: number) => `RU${String(n).padStart(25, '0')}`;

  it('keeps the codes of the last build by object key, and reads a store of one meta row per object', async () => {
    const path = join(work, 'ga.mdb');
    const legacy = open({ path, maxDbs: 4 });
    const meta = legacy.openDB<string, string>({ name: 'meta', encoding: 'string' });
    await meta.put('ga:old-a', code(1));
    await meta.put('ga:old-b', code(2));
    await legacy.close();
    const store = GarStore.open(path);
    try {
      const before = store.gaCodes();
      expect(before.size).toBe(2);
      expect(Buffer.from(before.codes.subarray(before.indexOf('old-b') * 27, before.indexOf('old-b') * 27 + 27)).toString()).toBe(code(2));
      const keys = ['a', 'gar:12', 'é-ключ', ''];
      await store.setGaCodes(keys, Buffer.from(keys.map((_, i) => code(100 + i)).join(''), 'latin1'));
      const after = store.gaCodes();
      expect(after.size).toBe(4);
      expect(after.indexOf('old-a')).toBe(-1);
      for (const [i, key] of keys.entries()) expect(Buffer.from(after.codes.subarray(after.indexOf(key) * 27, after.indexOf(key) * 27 + 27)).toString(), key).toBe(code(100 + i));
      await store.setGaCodes([], new Uint8Array(0));
      expect(store.gaCodes().size).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe.runIf(HAS_DATA)('applyDelta(deltas) on the region 99 archive', () => {
  const work = mkdtempSync(join(tmpdir(), 'gar-delta-'));
  const updatedDir = join(work, 'updated');
  const afterDir = join(work, 'after');
  const baseDir = join(work, 'base');
  const deltaFile = join(work, 'gar_delta_xml.zip');
  let change: GarDeltaResult;
  let updated: AddressEngine;
  let after: AddressEngine;
  let base: AddressEngine;
  let untouchedObjects: string[];
  let untouchedHouses: string[];

  beforeAll(async () => {
    const source = join(DATA_DIR, 'ru/gar/gar_xml.zip');
    // the "after" data: the full archive of the delta's date beside the same type abbreviations
    const afterData = join(work, 'after-data');
    mkdirSync(join(afterData, 'ru/gar'), { recursive: true });
    symlinkSync(join(DATA_DIR, 'ru/hflabs'), join(afterData, 'ru/hflabs'));
    symlinkSync(join(DATA_DIR, 'ru/kladr'), join(afterData, 'ru/kladr'));
    change = await generateGarDelta({ source, delta: deltaFile, after: join(afterData, 'ru/gar/gar_xml.zip'), date: '20230703', seed: 7, changes: 5 });
    const quiet = () => {};
    await buildDictionaries({ dataDir: DATA_DIR, outDir: updatedDir, countries: ['ru'], garOnly: true, log: quiet });
    mkdirSync(baseDir);
    copyFileSync(join(updatedDir, 'ru.dict'), join(baseDir, 'ru.dict'));
    // through the command line a user runs: address-service dict update
    const cli = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/address-service.js'), 'dict', 'update', '--delta', deltaFile, '--dir', updatedDir, '--data-dir', DATA_DIR], { encoding: 'utf8' });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/ru dictionary now of 20230703/);
    await buildDictionaries({ dataDir: afterData, outDir: afterDir, countries: ['ru'], garOnly: true, log: quiet });
    [updated, after, base] = await Promise.all([updatedDir, afterDir, baseDir].map((dir) => createEngine({ dir, wasmFile: DEBUG_WASM, countries: ['ru'] })));

    // untouched records: every object and every fifth house of the base archive that no change names
    const touched = new Set([
      ...change.renamed.map((c) => c.guid),
      ...change.retired,
      ...change.moved.flatMap((c) => [c.guid, c.to]),
      ...change.postcodes.map((c) => c.guid),
      ...change.oktmo.map((c) => c.guid),
      ...change.cadastral.map((c) => c.guid),
      ...change.added.map((c) => c.street),
    ]);
    const sink = new CollectingSink();
    await readGar(source, sink);
    untouchedObjects = sink.objects.map((o) => o.codes.fias!).filter((guid) => !touched.has(guid));
    untouchedHouses = sink.houses.map((h) => h.codes.fias!).filter((guid, i) => guid && i % 5 === 0 && !touched.has(guid));
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('reports the delta date as the dictionary version', () => {
    expect(base.dictionary('ru')!.sourceDate).toBe('20230626');
    expect(updated.dictionary('ru')!.sourceDate).toBe('20230703');
    expect(after.dictionary('ru')!.sourceDate).toBe('20230703');
  });

  it('finds every touched object and house by FIAS as the full build of the changed data does', () => {
    const guids = [
      ...change.renamed.map((c) => c.guid),
      ...change.added.flatMap((c) => [c.guid, c.street]),
      ...change.retired,
      ...change.moved.flatMap((c) => [c.guid, c.to]),
      ...change.postcodes.map((c) => c.guid),
      ...change.oktmo.map((c) => c.guid),
      ...change.cadastral.map((c) => c.guid),
    ];
    expect(guids.length).toBeGreaterThanOrEqual(40);
    for (const guid of guids) expect(answerOf(updated, byFias(updated, guid)), guid).toEqual(answerOf(after, byFias(after, guid)));
  });

  it('applies each kind of change', () => {
    for (const { guid, to } of change.renamed) expect(answerOf(updated, byFias(updated, guid))!.objects.at(-1)!.name).toBe(to);
    for (const { guid, number } of change.added) expect(answerOf(updated, byFias(updated, guid))!.house!.number).toBe(number);
    for (const guid of change.retired) {
      expect(byFias(base, guid)).not.toBeNull();
      expect(byFias(updated, guid)).toBeNull();
    }
    for (const { guid, to } of change.moved) expect(answerOf(updated, byFias(updated, guid))!.objects.at(-1)!.codes.fias).toBe(to);
    for (const { guid, postcode } of change.postcodes) expect(answerOf(updated, byFias(updated, guid))!.house!.postcode).toBe(postcode);
    for (const { guid, oktmo } of change.oktmo) expect(answerOf(updated, byFias(updated, guid))!.objects.at(-1)!.oktmo).toBe(oktmo);
    for (const { guid, cadnum } of change.cadastral) expect(answerOf(updated, byFias(updated, guid))!.house!.cadnum).toBe(cadnum);
  });

  it('standardizes each changed address as the full build of the changed data does', () => {
    const queries: string[] = [];
    for (const { from, to } of change.renamed) queries.push(`г Байконур, ул ${to}`, `Байконур ${from} улица`);
    const street = (guid: string) => answerOf(updated, byFias(updated, guid))!.objects.at(-1)!.fullName;
    for (const { street: parent, number } of change.added) queries.push(`Байконур, ${street(parent)}, д ${number}`);
    for (const { guid, to } of change.moved) queries.push(`Байконур, ${street(to)}, ${answerOf(updated, byFias(updated, guid))!.house!.number}`);
    for (const guid of change.retired) {
      const house = answerOf(base, byFias(base, guid))!;
      queries.push(`Байконур, ${house.objects.at(-1)!.fullName}, дом ${house.house!.number}`);
    }
    for (const query of queries) {
      expect(answerOf(updated, updated.standardize('ru', query)), query).toEqual(answerOf(after, after.standardize('ru', query)));
    }
    // and they read the change: the new name is the street's
    for (const { guid, to } of change.renamed) expect(updated.standardize('ru', `г Байконур, ул ${to}`).levels.street).toBe(updated.dictionary('ru')!.findById('FIAS', guid)!.id);
  });

  it('answers for untouched objects and houses as the full build does', () => {
    expect(untouchedObjects.length).toBeGreaterThan(20);
    expect(untouchedHouses.length).toBeGreaterThan(50);
    for (const guid of [...untouchedObjects, ...untouchedHouses]) expect(answerOf(updated, byFias(updated, guid)), guid).toEqual(answerOf(after, byFias(after, guid)));
  });

  it('keeps the GA code of every object that stays, renamed ones included', () => {
    for (const guid of [...untouchedObjects, ...change.renamed.map((c) => c.guid)]) expect(gaOfObject(updated, guid), guid).toBe(gaOfObject(base, guid));
    // a rename moves the street among its siblings' names: a fresh numbering would give some other codes
    const moved = [...untouchedObjects, ...change.renamed.map((c) => c.guid)].filter((guid) => gaOfObject(after, guid) !== gaOfObject(base, guid));
    expect(moved.length).toBeGreaterThan(0);
  });

  it('copies the name sections of the blob it replaces when no name changed, and answers as the full build', async () => {
    // the first update renamed streets: its names were built afresh
    const sections = (dir: string) => readBlobSections(join(dir, 'ru.dict'), NAME_SECTIONS);
    const first = sections(updatedDir);
    expect(first.size).toBe(NAME_SECTIONS.length);
    const firstBlob = unpack(readFileSync(join(updatedDir, 'ru.dict'))) as Record<string, unknown>;
    // the same delta again changes no name (every record replaces itself); the store read by a region worker this
    // time (one this small is read in this thread by default), the houses packed: the same blob
    const again = await applyDelta({ deltas: [deltaFile], dir: updatedDir, dataDir: DATA_DIR, regionThreads: 1 });
    expect(again.namesReused).toBe(true);
    const againBlob = unpack(readFileSync(join(updatedDir, 'ru.dict'))) as Record<string, unknown>;
    for (const part of ['core', 'host']) expect(againBlob[part], part).toEqual(firstBlob[part]);
    const second = sections(updatedDir);
    for (const path of NAME_SECTIONS) expect(second.get(path)!.equals(first.get(path)!), path).toBe(true);
    const reloaded = await createEngine({ dir: updatedDir, wasmFile: DEBUG_WASM, countries: ['ru'] });
    for (const { from, to } of change.renamed) {
      for (const query of [`г Байконур, ул ${to}`, `Байконур ${from} улица`]) expect(answerOf(reloaded, reloaded.standardize('ru', query)), query).toEqual(answerOf(after, after.standardize('ru', query)));
    }
    for (const guid of [...untouchedObjects, ...untouchedHouses.slice(0, 50), ...change.added.map((c) => c.guid)]) {
      expect(answerOf(reloaded, byFias(reloaded, guid)), guid).toEqual(answerOf(after, byFias(after, guid)));
    }
  });

  it('reads the store in region workers as in the reader\'s own thread', async () => {
    const store = GarStore.open(join(updatedDir, 'ru.gar.mdb'));
    try {
      const sinks = [];
      for (const regionThreads of [0, 1, 2]) {
        const sink = new CollectingSink();
        const counts = await readGarRecords(storeRecords(store), sink, { houseCodes: false, asOf: '2026-01-01', regionThreads });
        sinks.push({ counts, sink });
        expect(store.date).toBe('20230703');
      }
      expect(sinks[0].counts.houses).toBeGreaterThan(500);
      expect(sinks[1]).toEqual(sinks[0]);
      expect(sinks[2]).toEqual(sinks[0]);
    } finally {
      await store.close();
    }
  });

  it('stops with the reader\'s error when a region worker fails, the store left usable', async () => {
    const store = GarStore.open(join(updatedDir, 'ru.gar.mdb'));
    try {
      const source = storeRecords(store);
      // a house row whose every value, OBJECTID included, is not a number
      const slots = GAR_TABLES.AS_HOUSES.layout.names.length;
      const value = Buffer.from(Array.from({ length: slots }, () => 'abc').join('\u0001'));
      const row = Buffer.alloc(10 + value.length);
      row.writeUIntBE(1, 0, 6);
      row.writeUInt32BE(value.length, 6);
      value.copy(row, 10);
      // the tables after it read slowly: a piece of the store still being read when the worker fails
      const after = (table: string) => REGION_TABLES.indexOf(table as (typeof REGION_TABLES)[number]) > REGION_TABLES.indexOf('AS_HOUSES');
      let reading = 0;
      const broken = {
        ...source,
        storedRows: async function* (job: Parameters<NonNullable<typeof source.storedRows>>[0], bytes: number) {
          if (job.table === 'AS_HOUSES') {
            yield row;
            return;
          }
          for await (const piece of source.storedRows!(job, bytes)) {
            reading++;
            if (after(job.table)) await new Promise((resolve) => setTimeout(resolve, 200));
            reading--;
            yield piece;
          }
        },
      };
      await expect(readGarRecords(broken, new CollectingSink(), { houseCodes: false, asOf: '2026-01-01', regionThreads: 1 })).rejects.toThrow(/OBJECTID="abc" is not a positive integer/);
      // no read of the store goes on once the read has failed (the caller may close the store)
      expect(reading).toBe(0);
      const counts = await readGarRecords(source, new CollectingSink(), { houseCodes: false, asOf: '2026-01-01', regionThreads: 1 });
      expect(counts.houses).toBeGreaterThan(500);
    } finally {
      await store.close();
    }
  });

  it('refuses a delta older than the dictionary, and a directory without the update store', async () => {
    const older = join(work, 'older.zip');
    await generateGarDelta({ source: join(DATA_DIR, 'ru/gar/gar_xml.zip'), delta: older, date: '20230601', seed: 3, changes: 1 });
    await expect(applyDelta({ deltas: [older], dir: updatedDir, dataDir: DATA_DIR })).rejects.toThrow(/20230601 is older than the store's records \(20230703\)/);
    await expect(applyDelta({ deltas: [deltaFile], dir: baseDir, dataDir: DATA_DIR })).rejects.toThrow(/no GAR update store here/);
  });

  it('exits non-zero from the command line with the reason', () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/address-service.js'), 'dict', 'update', '--delta', deltaFile, '--dir', baseDir], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/dict-update failed: .*no GAR update store here/);
  });

  it('drops the store when a build goes without it, so that no delta applies to a dictionary it does not match', async () => {
    expect(existsSync(join(updatedDir, 'ru.gar.mdb'))).toBe(true);
    await buildDictionaries({ dataDir: DATA_DIR, outDir: updatedDir, countries: ['ru'], garOnly: true, garStore: false, log: () => {} });
    expect(existsSync(join(updatedDir, 'ru.gar.mdb'))).toBe(false);
    await expect(applyDelta({ deltas: [deltaFile], dir: updatedDir, dataDir: DATA_DIR })).rejects.toThrow(/no GAR update store here/);
  });
});
