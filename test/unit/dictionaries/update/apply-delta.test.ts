import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDictionaries } from '../../../../dictionaries/build.js';
import { readGar } from '../../../../dictionaries/sources/gar.js';
import { generateGarDelta, type GarDeltaResult } from '../../../../bench/synth/gar-delta.js';
import { applyDelta } from '../../../../dictionaries/update/apply-delta.js';
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
