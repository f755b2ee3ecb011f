/**
 * The address core as a library, for the browser and Node alike: `createEngine(wasmBytes, dictionaryBytes)`
 * loads one country's blob (a web dictionary of build-web-dict.ts or a server blob) into its own core
 * instance and answers with the server's records. No I/O and no Node API: the caller brings the bytes.
 *
 * It is the server's code, not a copy of it: AddressEngine (engine/engine.ts) turns the core's result
 * records into Resolutions, buildAddressRecord (engine/records/address-record.ts) turns those into
 * AddressRecords, and standardize is the clean route's own `standardizeAddress`. The hints' letter rule is the routes' own (engine/hint-letters.ts); what
 * is repeated here is the suggest route's count rule (absent or 0 → 10, over 20 → 20), because the route's module
 * also compiles the request schemas; test/browser/parity.test.ts holds both sides to the same answers.
 */
import { AddressEngine } from '../engine/engine.js';
import { LoadedDictionary } from '../engine/dictionary.js';
import type { Country } from '../engine/types.js';
import { hintRecords, type AddressRecord, type HouseDetailsRecord } from '../engine/records/address-record.js';
import { completeHouseParts, houseFullName } from '../engine/records/house-details.js';
import { standardizeAddress } from '../engine/standardize.js';
import { MIN_LETTERS, letterCount } from '../engine/hint-letters.js';

export type { AddressRecord, HouseDetailsRecord } from '../engine/records/address-record.js';
export type { Country } from '../engine/types.js';

/** The suggest route's rules (host/routes/suggest-address.ts, conventions.md). */
export { MIN_LETTERS };
export const SUGGEST_DEFAULT_COUNT = 10;
export const SUGGEST_MAX_COUNT = 20;

/** POST /clean/house's answer: the house part of a string alone. */
export interface HouseRecord {
  original: string;
  postcodeIn: string;
  houseDetails: HouseDetailsRecord;
}

export interface DictionaryInfo {
  country: Country;
  sourceDate: string;
  buildId: string;
  objects: number;
  houses: number;
  /** 'web' for a web dictionary, 'server' for a full blob */
  variant: 'web' | 'server';
}

export interface WebEngine {
  readonly dictionary: DictionaryInfo;
  /** Hints for a partial address, best first, as POST /suggest/address answers them. */
  suggest(query: string, count?: number): AddressRecord[];
  /** One address, as POST /clean/address answers it (offline: no metro, cadastral numbers or apartments). */
  standardize(query: string): AddressRecord;
  /** The house part alone, as POST /clean/house answers it. */
  parseHouse(query: string): HouseRecord;
}

const suggestCount = (count: number | undefined): number =>
  !count || !Number.isFinite(count) ? SUGGEST_DEFAULT_COUNT : Math.min(Math.max(Math.trunc(count), 1), SUGGEST_MAX_COUNT);

const asBytes = (bytes: ArrayBuffer | ArrayBufferView): Uint8Array =>
  bytes instanceof Uint8Array ? bytes : ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);

/**
 * Loads the core and one country's dictionary. `wasm` is core.wasm's bytes or its compiled module (one
 * module serves several engines); `dictionary` the blob's bytes. Rejects a blob of another format with
 * the loader's message.
 */
export async function createEngine(wasm: BufferSource | WebAssembly.Module, dictionary: ArrayBuffer | ArrayBufferView): Promise<WebEngine> {
  const loaded = await LoadedDictionary.fromBytes(asBytes(dictionary), wasm, 'dictionary');
  const engine = new AddressEngine([loaded]);
  const country = loaded.country;
  return {
    dictionary: {
      country,
      sourceDate: loaded.sourceDate,
      buildId: loaded.buildId,
      objects: loaded.objectCount,
      houses: loaded.houseCount,
      variant: loaded.variant,
    },
    suggest(query, count) {
      if (letterCount(query) < MIN_LETTERS) return [];
      const want = suggestCount(count);
      return hintRecords(engine.suggest(country, query, want), loaded, want, query);
    },
    standardize(query) {
      return standardizeAddress(engine, country, loaded, query).record;
    },
    parseHouse(query) {
      const parsed = engine.parseHouse(query);
      const parts = completeHouseParts(parsed.parts, null, null);
      return {
        original: query,
        postcodeIn: /^\d{6}$/.test(parsed.postcodeIn) ? parsed.postcodeIn : '',
        houseDetails: { fullName: houseFullName(parts), ...parts, codes: null, apartmentCodes: null, additional: null },
      };
    },
  };
}
