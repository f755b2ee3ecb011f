/**
 * web/engine.ts gives the server's answers: its records for the same queries equal those of the HTTP API
 * (the real server in-process), both over a web dictionary (build-web-dict.ts: hints identical, clean
 * records identical but for what the web dictionary leaves out) and over the server's own blob (identical).
 * Queries: hand-picked ones, and prefixes of object names taken across each country's dictionary.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWasmFile } from '../../engine/index.js';
import { COUNTRIES, type Country } from '../../engine/types.js';
import { webBlob } from '../../web/build-web-dict.js';
import { createEngine, type AddressRecord } from '../../web/engine.js';
import { DICTIONARIES_DIR, startServer, type RunningTestServer } from '../helpers/browser-server.js';

const HAND_PICKED: Partial<Record<Country, string[]>> = {
  ru: [
    'екатеринбург вокз', 'Свердловская обл, г Екатеринбург, ул Вокзальная 1', 'Свердловская обл, г Екатеринбург, ул Вокзальная 14',
    'екб вокзальная 22/1', 'москва тверская 7', 'санкт-петербург невский', 'ekaterinburg', 'trfnthby,ehu djrp', 'ёлки',
    'ек', '620000 екатеринбург вокзальная 14 кв 5', '&quot;екатеринбург&quot; вокзальная',
  ],
};

let server: RunningTestServer;
let wasm: Uint8Array;

/** Prefixes of object names spread over the dictionary: 3 letters, a whole word, the name and a house number. */
function sampleQueries(names: string[]): string[] {
  const queries = new Set<string>();
  const step = Math.max(1, Math.floor(names.length / 12));
  for (let i = 0; i < names.length; i += step) {
    const name = names[i];
    if (!name) continue;
    queries.add(name.slice(0, 3));
    queries.add(name.split(/\s+/)[0]);
    queries.add(`${name} 1`);
  }
  return [...queries];
}

/** What a web dictionary leaves out of a clean record: metro, cadastral numbers, flat counts, apartments. */
function withoutServerOnly(record: AddressRecord): AddressRecord {
  const copy = structuredClone(record);
  delete copy.metro;
  copy.houseDetails.additional = null;
  copy.houseDetails.apartmentCodes = null;
  return copy;
}

beforeAll(async () => {
  server = await startServer();
  wasm = await readFile(defaultWasmFile());
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('createEngine(wasmBytes, dictionaryBytes)', () => {
  for (const country of COUNTRIES) {
    it(`answers as the API does for ${country}`, async () => {
      const serverBlob = await readFile(join(DICTIONARIES_DIR, `${country}.dict`)).catch(() => null);
      if (!serverBlob) return; // no blob for this country in this build
      const web = await createEngine(wasm, webBlob(serverBlob).bytes);
      const full = await createEngine(wasm, serverBlob);
      expect(web.dictionary.variant).toBe('web');
      expect(full.dictionary.variant).toBe('server');

      const names: string[] = [];
      for (const record of full.suggest(country === 'ru' ? 'екатеринбург' : 'обл', 20)) names.push(record.addressFull);
      const dict = server.app.services.engine.dictionary(country)!;
      for (let id = 0; id < dict.objectCount; id += Math.max(1, Math.floor(dict.objectCount / 40))) names.push(dict.object(id).name);
      const queries = [...(HAND_PICKED[country] ?? []), ...sampleQueries(names)];

      let hints = 0;
      for (const query of queries) {
        const api = await server.post<{ suggestions: AddressRecord[] }>('/api/v1/suggest/address', { query, countryCode: country, count: 10 });
        expect(web.suggest(query, 10), `suggest ${country} "${query}" (web dictionary)`).toEqual(api.suggestions);
        expect(full.suggest(query, 10), `suggest ${country} "${query}" (server blob)`).toEqual(api.suggestions);
        hints += api.suggestions.length;

        const clean = await server.post<AddressRecord>('/api/v1/clean/address', { query, countryCode: country });
        expect(full.standardize(query), `standardize ${country} "${query}" (server blob)`).toEqual(clean);
        expect(withoutServerOnly(web.standardize(query)), `standardize ${country} "${query}" (web dictionary)`).toEqual(withoutServerOnly(clean));

        const house = await server.post<unknown>('/api/v1/clean/house', { query, countryCode: country });
        expect(web.parseHouse(query), `parseHouse "${query}"`).toEqual(house);
      }
      expect(hints, `no hints at all for ${country}: the sample queries are wrong`).toBeGreaterThan(0);
    });
  }

  it('gives no hints under 3 letters and clamps count as the API does', async () => {
    const web = await createEngine(wasm, webBlob(await readFile(join(DICTIONARIES_DIR, 'ru.dict'))).bytes);
    expect(web.suggest('ек')).toEqual([]);
    for (const count of [0, 1, 25]) {
      const api = await server.post<{ suggestions: AddressRecord[] }>('/api/v1/suggest/address', { query: 'екатеринбург', count });
      expect(web.suggest('екатеринбург', count)).toEqual(api.suggestions);
    }
  });

  it('refuses bytes that are not a dictionary blob with the loader\'s message', async () => {
    await expect(createEngine(wasm, new Uint8Array([1, 2, 3]))).rejects.toThrow(/not a dictionary blob/);
  });
});
