/**
 * The packed engine of web/engine.ts (`createEngine(wasm, entry, { fetchPack, preload })`, docs/OFFLINE.md) answers a
 * hint as the API does once the packs it needs are loaded: over every hint case of the dev set
 * (../shared/eval/dev.jsonl), with the entry pack and the packs of the place the query settles on and of the places
 * of the API's hints, its records equal the API's but for the houses' registry codes (null: their house codes packs
 * are not loaded), and equal them whole once those are loaded too (the real server in-process, the real packs of the
 * real extracts cut by web/build-packs.ts). Before a place's pack is loaded, a hint shows the place (without the
 * registry codes its pack holds) and says its streets are missing. The engine reads no manifest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobMapBytes } from '../../dictionaries/blob-writer.js';
import { decodeBlob } from '../../engine/dictionary.js';
import { defaultWasmFile } from '../../engine/index.js';
import { codesChunk, codesFile, packFile, type PacksManifest } from '../../engine/packs.js';
import { buildCountryPacks } from '../../web/build-packs.js';
import { webBlob } from '../../web/build-web-dict.js';
import { createEngine, type AddressRecord, type PackKind, type PackedEngine } from '../../web/engine.js';
import { DICTIONARIES_DIR, startServer, type RunningTestServer } from '../helpers/browser-server.js';

const DEV = resolve(process.env.EVAL_DIR ?? '../shared/eval', 'dev.jsonl');

interface HintCase {
  id: string;
  countryCode: string;
  query: string;
  count: number;
}

let server: RunningTestServer;
let wasm: WebAssembly.Module;
let dir: string;
const manifests = new Map<string, PacksManifest>();

const suggestApi = async (query: string, countryCode: string, count: number) =>
  (await server.post<{ suggestions: AddressRecord[] }>('/api/v1/suggest/address', { query, countryCode, count })).suggestions;

const packBytes = (country: string, id: string, kind: PackKind = 'place') => readFile(join(dir, country, kind === 'codes' ? codesFile(id) : packFile(id)));

/** The API's records as the engine gives them before the house codes packs are loaded: a house's codes null. */
const withoutHouseCodes = (records: AddressRecord[]): AddressRecord[] =>
  records.map((r) => (r.houseDetails.fullName ? { ...r, houseDetails: { ...r.houseDetails, codes: null } } : r));

async function packed(country: string, preload: string[] = []): Promise<PackedEngine> {
  const engine = await createEngine(wasm, await readFile(join(dir, country, 'entry.dict')), {
    fetchPack: (id, kind) => packBytes(country, id, kind),
    preload,
  });
  await engine.preloaded;
  return engine;
}

beforeAll(async () => {
  server = await startServer();
  wasm = await WebAssembly.compile(await readFile(defaultWasmFile()));
  dir = await mkdtemp(join(tmpdir(), 'packs-parity-'));
  for (const country of ['ru', 'ua']) {
    const file = join(DICTIONARIES_DIR, `${country}.dict`);
    if (existsSync(file)) manifests.set(country, await buildCountryPacks(webBlob(await readFile(file), file).bytes, dir));
  }
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const EKATERINBURG = '2763c110-cb8b-416a-9dac-ad28a55b4402';
/** Екатеринбург's pack id, as the manifest lists it for tools */
const ekbId = () => manifests.get('ru')!.packs.find((p) => p.code === EKATERINBURG)!.id;

describe('createEngine(wasm, entry, { fetchPack, preload })', () => {
  it('answers every dev hint case as the API does, once the packs of its places are loaded', async () => {
    const cases = readFileSync(DEV, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
      .filter((c) => c.endpoint === 'suggest') as HintCase[];
    expect(cases.length).toBeGreaterThan(100);
    // the packs each case needs: where its query settles with the entry pack alone, and the places of the API's hints
    const entryOnly = new Map<string, PackedEngine>();
    const groups = new Map<string, { country: string; packs: string[]; cases: Array<HintCase & { api: AddressRecord[] }> }>();
    for (const c of cases) {
      const country = c.countryCode.toLowerCase();
      if (!manifests.has(country)) continue;
      if (!entryOnly.has(country)) entryOnly.set(country, await packed(country));
      const engine = entryOnly.get(country)!;
      const api = await suggestApi(c.query, c.countryCode, c.count);
      const needed = new Set<string>();
      const settled = engine.packFor(c.query);
      if (settled) needed.add(settled);
      for (const record of api) {
        const pack = engine.packFor(record);
        if (pack) needed.add(pack);
      }
      const packs = [...needed].sort();
      const key = `${country} ${packs.join(' ')}`;
      if (!groups.has(key)) groups.set(key, { country, packs, cases: [] });
      groups.get(key)!.cases.push({ ...c, api });
    }
    let compared = 0;
    let withStreets = 0;
    let withHouses = 0;
    for (const group of groups.values()) {
      const engine = await packed(group.country, group.packs);
      expect([...engine.loaded].sort()).toEqual(group.packs);
      const label = (c: HintCase) => `${c.id} "${c.query}" with ${group.packs.join(', ') || 'the entry pack alone'}`;
      for (const c of group.cases) expect(engine.suggest(c.query, c.count), label(c)).toEqual(withoutHouseCodes(c.api));
      const listed = manifests.get(group.country)!.packs;
      const chunks = group.packs.flatMap((id) => Array.from({ length: listed.find((p) => p.id === id)!.codes?.chunks ?? 0 }, (_, j) => codesChunk(id, j)));
      await Promise.all(chunks.map((chunk) => engine.loadPack(chunk, 'codes')));
      for (const c of group.cases) {
        expect(engine.suggest(c.query, c.count), `${label(c)} and their house codes`).toEqual(c.api);
        compared++;
        if (c.api.some((r) => r.street?.name)) withStreets++;
        if (c.api.some((r) => r.houseDetails.codes?.fias || r.houseDetails.codes?.osm)) withHouses++;
      }
    }
    expect(compared).toBe(cases.length);
    // the cases are hints of streets and houses, read from the place packs, with houses' codes from the codes packs
    expect(withStreets).toBeGreaterThan(cases.length / 2);
    expect(withHouses).toBeGreaterThan(10);
  }, 600_000);

  it('shows the place before its pack is loaded, says its streets are missing, and fetches the pack once', async () => {
    const fetched: string[] = [];
    const EKB = ekbId();
    const engine = await createEngine(wasm, await readFile(join(dir, 'ru', 'entry.dict')), {
      fetchPack: (id, kind) => {
        fetched.push(`${kind} ${id}`);
        return packBytes('ru', id, kind);
      },
    });
    expect(engine.packs).toBe(manifests.get('ru')!.packs.length);
    const before = engine.hint('екатеринбург вокзальная 14', 5);
    expect(before.pack).toBe(EKB);
    expect(engine.packName(EKB)).toBe('Свердловская обл, г Екатеринбург');
    expect(before.streetsMissing).toBe(true);
    expect(before.records[0].addressFull).toBe('Свердловская обл, г Екатеринбург');
    expect(before.records.some((r) => r.street.name)).toBe(false);
    // a city's registry codes are in the entry (a settlement's come with its pack); a place picked names its pack
    expect(before.records[0].city.codes.fias).toBe(EKATERINBURG);
    expect(engine.packFor(before.records[0])).toBe(EKB);
    expect(engine.packsWithin(EKATERINBURG)).toEqual([EKB]);

    await Promise.all([engine.loadPack(EKB), engine.loadPack(EKB)]);
    expect(fetched).toEqual([`place ${EKB}`]);
    expect(engine.hasPack(EKB)).toBe(true);
    const after = engine.hint('екатеринбург вокзальная 14', 5);
    expect(after.streetsMissing).toBe(false);
    const api = await suggestApi('екатеринбург вокзальная 14', 'RU', 5);
    expect(api[0].houseDetails.codes?.fias || api[0].houseDetails.codes?.osm).toBeTruthy();
    // the house is listed and ranked as the API's, its registry codes not loaded yet (null, not blank)
    expect(after.records).toEqual(withoutHouseCodes(api));
    expect(after.records[0].houseDetails.house).toBe('14');
    expect(after.records[0].houseDetails.codes).toBeNull();
    // the house picked: the one house codes pack of its house fetched once (of the city's four), the record made whole
    const [whole] = await Promise.all([engine.complete(after.records[0]), engine.complete(after.records[0])]);
    expect(whole).toEqual(api[0]);
    expect(fetched.length).toBe(2);
    expect(fetched[1]).toMatch(new RegExp(`^codes ${EKB}-[0-3]$`));
    expect(engine.hasCodes(fetched[1].slice('codes '.length))).toBe(true);
    const again = engine.hint('екатеринбург вокзальная 14', 5).records;
    expect(again[0]).toEqual(api[0]);
    // the other houses keep their codes null or have them as their chunk is loaded or not
    for (const [k, record] of again.entries()) expect(record.houseDetails.codes === null ? withoutHouseCodes([api[k]])[0] : api[k]).toEqual(record);
  });

  it('says a picked house has no codes when its house codes pack cannot be fetched', async () => {
    const engine = await createEngine(wasm, await readFile(join(dir, 'ru', 'entry.dict')), {
      fetchPack: (id, kind) => (kind === 'codes' ? Promise.reject(new TypeError('Failed to fetch')) : packBytes('ru', id, kind)),
      preload: [ekbId()],
    });
    await engine.preloaded;
    const [house] = engine.suggest('екатеринбург вокзальная 14', 1);
    await expect(engine.complete(house)).rejects.toThrow(/Failed to fetch/);
    expect(engine.suggest('екатеринбург вокзальная 14', 1)[0].houseDetails.codes).toBeNull();
  });

  it('preloads every place pack of a region by its code, and a place picked from a hint', async () => {
    const region = (await suggestApi('свердловская обл', 'RU', 1))[0].region.codes.fias;
    const manifest = manifests.get('ru')!;
    const engine = await packed('ru', [region]);
    const underRegion = manifest.packs.filter((p) => p.fullName.startsWith('Свердловская обл,')).map((p) => p.id).sort();
    expect(underRegion).toContain(ekbId());
    expect([...engine.loaded].sort()).toEqual(underRegion);

    // a record of the service names its place's pack by its levels (no codes needed: the entry has none of a city's)
    const picked = (await suggestApi('екатеринбург', 'RU', 1))[0];
    expect(engine.packFor(picked)).toBe(ekbId());
    const street = (await suggestApi('екатеринбург вокзальная', 'RU', 1))[0];
    expect(engine.packFor(street)).toBe(ekbId());
  });

  it('refuses a pack of another place or of another cut, and an id the entry does not give', async () => {
    const engine = await packed('ru');
    const ekb = await packBytes('ru', ekbId());
    const other = manifests.get('ru')!.packs.find((p) => p.code !== EKATERINBURG)!.id;
    await expect(engine.addPack(other, ekb)).rejects.toThrow(/holds place/);
    await expect(engine.loadPack('../entry')).rejects.toThrow(/no offline pack/);
    await expect(engine.loadPack(EKATERINBURG)).rejects.toThrow(/no offline pack/);
    await expect(engine.loadPack(manifests.get('ru')!.packs.length.toString(36))).rejects.toThrow(/no offline pack/);
    const ua = manifests.get('ua');
    if (ua && ua.packs.length > 0) await expect(engine.addPack(ua.packs[0].id, await packBytes('ua', ua.packs[0].id))).rejects.toThrow(/cut from/);
    expect(engine.loaded).toEqual([]);
  });

  it('refuses a pack without the tables of its kind', async () => {
    const engine = await packed('ru');
    const chunk = codesChunk(ekbId(), 0);
    // a house codes pack's file that says it is a place pack: its codes, no place tables
    const raw = decodeBlob(await packBytes('ru', chunk, 'codes')) as unknown as Record<string, unknown>;
    await expect(engine.addPack(chunk, blobMapBytes({ ...raw, kind: 'place' }))).rejects.toThrow(/a place pack without its tables/);
    expect(engine.loaded).toEqual([]);
    expect(engine.hasCodes(chunk)).toBe(false);
  });
});
