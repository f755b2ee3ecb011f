/**
 * engine/packs.ts: a web dictionary cut into the entry pack and the place packs (web/build-packs.ts) and put back
 * together. All the packs together give the whole dictionary's sections byte for byte; the entry pack alone
 * holds the regions, areas, cities and settlements and no street or house; a place's pack adds its streets and
 * houses and nothing else. Over the real extracts of build/dictionaries.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlob, type BlobFile } from '../../../engine/dictionary.js';
import { CODES_CHUNK, codeHouseCodes, codesFiles, composeBlob, decodeFragment, ENTRY_LEVELS, HOUSE_CODE_COLUMNS, packFile, packId, type Fragment, type HouseCodesPart, type PackGlobal, type PacksManifest } from '../../../engine/packs.js';
import { buildCountryPacks } from '../../../web/build-packs.js';
import { webBlob } from '../../../web/build-web-dict.js';
import { DICTIONARIES_DIR } from '../../helpers/engine.js';

const SERVER_BLOB = join(DICTIONARIES_DIR, 'ru.dict');
let dir: string;
let whole: BlobFile;
let manifest: PacksManifest;
let entry: { pack: Fragment; global: PackGlobal };
const fragmentOf = async (file: string) => decodeFragment((decodeBlob(await readFile(join(dir, 'ru', file)), file) as unknown as { pack: Fragment }).pack);
const codesOf = async (file: string) => codeHouseCodes((decodeBlob(await readFile(join(dir, 'ru', file)), file) as unknown as { codes: HouseCodesPart }).codes, false);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'packs-'));
  const { bytes } = webBlob(await readFile(SERVER_BLOB), SERVER_BLOB);
  whole = decodeBlob(bytes);
  manifest = await buildCountryPacks(bytes, dir);
  const entryFile = decodeBlob(await readFile(join(dir, 'ru', 'entry.dict'))) as unknown as { pack: Fragment; global: PackGlobal };
  entry = { pack: decodeFragment(entryFile.pack), global: entryFile.global };
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const levels = (blob: BlobFile): Int32Array => {
  const objects = new Int32Array(new Uint8Array(blob.core.objects).buffer);
  return Int32Array.from({ length: objects.length / 10 }, (_, id) => objects[id * 10 + 1]);
};

describe('buildCountryPacks(webBlob, to)', () => {
  it('lists every pack in the manifest with its file, sizes and houses', () => {
    expect(manifest.country).toBe('ru');
    expect(manifest.buildId).toBe(whole.buildId);
    expect(manifest.packs.length).toBeGreaterThan(10);
    manifest.packs.forEach((pack, k) => {
      // the pack's id is its index in base 36: the entry pack names it so
      expect(pack.id).toBe(packId(k));
      expect(pack.file).toBe(packFile(pack.id));
      expect(existsSync(join(dir, 'ru', packFile(pack.id)))).toBe(true);
      expect(existsSync(join(dir, 'ru', `${packFile(pack.id)}.gz`))).toBe(true);
      expect(pack.bytes).toBeGreaterThan(pack.gzipBytes);
      // a place with houses has its house codes packs, CODES_CHUNK houses each
      expect(pack.codes?.chunks ?? 0).toBe(Math.ceil(pack.houses / CODES_CHUNK));
      for (const file of codesFiles(pack)) expect(existsSync(join(dir, 'ru', file))).toBe(true);
    });
    // every house is in exactly one pack
    expect(manifest.totals.houses).toBe(whole.counts.houses);
    const ekb = manifest.packs.find((p) => p.fullName === 'Свердловская обл, г Екатеринбург')!;
    expect(ekb.code).toBe('2763c110-cb8b-416a-9dac-ad28a55b4402');
    expect(ekb.houses).toBeGreaterThan(10_000);
  });

  it('puts the whole dictionary back together from the entry and every place pack and house codes pack, section for section', async () => {
    const packs = await Promise.all(manifest.packs.map((p) => fragmentOf(p.file)));
    const chunks = manifest.packs.flatMap((p) => codesFiles(p));
    const codes = await Promise.all(chunks.map(codesOf));
    const { blob } = composeBlob(entry.global, [entry.pack, ...packs], whole.buildId, codes);
    for (const [name, section] of Object.entries(whole.core)) {
      expect(Buffer.from(blob.core[name] ?? []).equals(Buffer.from(section)), `core.${name}`).toBe(true);
    }
    expect(blob.host.houses.pool).toEqual(whole.host.houses.pool);
    expect(blob.host.houses.postcodes).toEqual(whole.host.houses.postcodes);
    for (const name of ['fias', 'gar', 'osmType', 'osmId', 'flags', 'postcode', 'labels'] as const) {
      const column = whole.host.houses[name] as Uint8Array | undefined;
      if (column) expect(Buffer.from(blob.host.houses[name] as Uint8Array).equals(Buffer.from(column)), `houses.${name}`).toBe(true);
    }
    const fias = whole.host.objects.fias as Uint8Array;
    expect(Buffer.from(blob.host.objects.fias as Uint8Array).equals(Buffer.from(fias))).toBe(true);
  });

  it('gives the entry pack the places alone and a place pack its streets and houses', async () => {
    const alone = composeBlob(entry.global, [entry.pack], 'entry').blob;
    expect(alone.counts.houses).toBe(0);
    expect(Math.max(...levels(alone))).toBeLessThanOrEqual(ENTRY_LEVELS);
    expect(levels(alone).length).toBe(levels(whole).filter((level) => level <= ENTRY_LEVELS).length);

    const ekb = manifest.packs.find((p) => p.fullName === 'Свердловская обл, г Екатеринбург')!;
    const withEkb = composeBlob(entry.global, [entry.pack, await fragmentOf(ekb.file)], 'ekb').blob;
    expect(withEkb.counts.houses).toBe(ekb.houses);
    expect(levels(withEkb).length).toBe(levels(alone).length + ekb.objects);
  });

  it('keeps the houses\' registry codes out of a place pack, in its house codes pack', async () => {
    const ekb = manifest.packs.find((p) => p.fullName === 'Свердловская обл, г Екатеринбург')!;
    const pack = await fragmentOf(ekb.file);
    for (const name of HOUSE_CODE_COLUMNS) expect(pack.houseColumns[name], name).toBeUndefined();
    // in the place pack's house order, CODES_CHUNK houses a pack: Екатеринбург's 13,026 in four
    expect(ekb.codes!.chunks).toBe(4);
    const codes = await Promise.all(codesFiles(ekb).map(codesOf));
    expect(codes.map((c) => c.houses.byteLength / 4)).toEqual([CODES_CHUNK, CODES_CHUNK, CODES_CHUNK, ekb.houses - 3 * CODES_CHUNK]);
    expect(Buffer.concat(codes.map((c) => Buffer.from(c.houses))).equals(Buffer.from(pack.ids.houses))).toBe(true);
    expect(codes.reduce((sum, c) => sum + (c.columns.fias as Uint8Array).byteLength, 0)).toBe(ekb.houses * 16);
  });
});
