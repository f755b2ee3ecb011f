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
import { composeBlob, decodeFragment, ENTRY_LEVELS, packFile, type Fragment, type PackGlobal, type PacksManifest } from '../../../engine/packs.js';
import { buildCountryPacks } from '../../../web/build-packs.js';
import { webBlob } from '../../../web/build-web-dict.js';
import { DICTIONARIES_DIR } from '../../helpers/engine.js';

const SERVER_BLOB = join(DICTIONARIES_DIR, 'ru.dict');
let dir: string;
let whole: BlobFile;
let manifest: PacksManifest;
let entry: { pack: Fragment; global: PackGlobal };
const fragmentOf = async (file: string) => decodeFragment((decodeBlob(await readFile(join(dir, 'ru', file)), file) as unknown as { pack: Fragment }).pack);

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
    for (const pack of manifest.packs) {
      expect(existsSync(join(dir, 'ru', packFile(pack.code)))).toBe(true);
      expect(existsSync(join(dir, 'ru', `${packFile(pack.code)}.gz`))).toBe(true);
      expect(pack.bytes).toBeGreaterThan(pack.gzipBytes);
    }
    // every house is in exactly one pack
    expect(manifest.totals.houses).toBe(whole.counts.houses);
    const ekb = manifest.packs.find((p) => p.fullName === 'Свердловская обл, г Екатеринбург')!;
    expect(ekb.code).toBe('2763c110-cb8b-416a-9dac-ad28a55b4402');
    expect(ekb.houses).toBeGreaterThan(10_000);
  });

  it('puts the whole dictionary back together from the entry and every place pack, section for section', async () => {
    const packs = await Promise.all(manifest.packs.map((p) => fragmentOf(packFile(p.code))));
    const { blob } = composeBlob(entry.global, [entry.pack, ...packs], whole.buildId);
    for (const [name, section] of Object.entries(whole.core)) {
      expect(Buffer.from(blob.core[name] ?? []).equals(Buffer.from(section)), `core.${name}`).toBe(true);
    }
    expect(blob.host.houses.pool).toEqual(whole.host.houses.pool);
    expect(blob.host.houses.postcodes).toEqual(whole.host.houses.postcodes);
    for (const name of ['fias', 'gar', 'flags', 'postcode', 'labels'] as const) {
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
    const withEkb = composeBlob(entry.global, [entry.pack, await fragmentOf(packFile(ekb.code))], 'ekb').blob;
    expect(withEkb.counts.houses).toBe(ekb.houses);
    expect(levels(withEkb).length).toBe(levels(alone).length + ekb.objects);
  });
});
