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
import { AddressEngine, placeIds } from '../engine/engine.js';
import { LoadedDictionary } from '../engine/dictionary.js';
import type { Country, Resolution } from '../engine/types.js';
import { hintRecords, type AddressRecord, type HouseDetailsRecord } from '../engine/records/address-record.js';
import { completeHouseParts, houseFullName } from '../engine/records/house-details.js';
import { standardizeAddress } from '../engine/standardize.js';
import { MIN_LETTERS, letterCount } from '../engine/hint-letters.js';
import { decodeBlob } from '../engine/dictionary.js';
import { PACK_CODE, PACKS_FORMAT, composeBlob, decodeColumn, decodeFragment, indexOf, placeCodes, type Fragment, type PackGlobal, type PackEntry, type PacksManifest } from '../engine/packs.js';
import { LEVEL_KEYS, type LevelKey } from '../engine/types.js';

export type { AddressRecord, HouseDetailsRecord } from '../engine/records/address-record.js';
export type { Country } from '../engine/types.js';
export type { PackEntry, PacksManifest } from '../engine/packs.js';

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

/** The WebEngine over one loaded dictionary (a blob, or packs put together). */
function engineOver(loaded: LoadedDictionary): WebEngine & { engine: AddressEngine; loaded: LoadedDictionary; hints: (query: string, count?: number) => { found: Resolution[]; records: AddressRecord[] } } {
  const engine = new AddressEngine([loaded]);
  const country = loaded.country;
  /** the suggest route's hints, with the resolutions they were made from */
  const hints = (query: string, count?: number): { found: Resolution[]; records: AddressRecord[] } => {
    if (letterCount(query) < MIN_LETTERS) return { found: [], records: [] };
    const want = suggestCount(count);
    const found = engine.suggest(country, query, want);
    return { found, records: hintRecords(found, loaded, want, query) };
  };
  return {
    engine,
    loaded,
    hints,
    dictionary: {
      country,
      sourceDate: loaded.sourceDate,
      buildId: loaded.buildId,
      objects: loaded.objectCount,
      houses: loaded.houseCount,
      variant: loaded.variant,
    },
    suggest: (query, count) => hints(query, count).records,
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

/** Hints with the place pack they settle on. */
export interface PackedHints {
  records: AddressRecord[];
  /** the code of the place pack the query settles on (its top hint's place), null when none (a region, no hint) */
  pack: string | null;
  /** the place's pack is not loaded: its streets and houses are missing from the hints until it is */
  streetsMissing: boolean;
}

export interface PackedOptions {
  /** the country's manifest.json (web/build-packs.ts) */
  manifest: PacksManifest;
  /** fetches a place pack's bytes (`places/<code>.dict` beside the manifest); loadPack calls it */
  fetchPack?: (code: string) => Promise<ArrayBuffer | ArrayBufferView>;
  /** place codes, or codes of regions and areas (every place pack under them), to load at once */
  preload?: readonly string[];
}

/** An engine over the entry pack and the place packs loaded so far (web/build-packs.ts, docs/OFFLINE.md). */
export interface PackedEngine extends WebEngine {
  readonly manifest: PacksManifest;
  /** the place packs loaded, by code */
  readonly loaded: readonly string[];
  /** settles when the `preload` packs are loaded (rejects with the first that failed) */
  readonly preloaded: Promise<void>;
  /** the place pack a query settles on (its top hint's place), or the pack of a chosen record's place; null: none */
  packFor(query: string | AddressRecord): string | null;
  /** the codes of the packs of a place, region or area (by its code): the place's own, or every one under it */
  packsWithin(code: string): string[];
  hasPack(code: string): boolean;
  /** fetches the pack (`fetchPack`) and adds it; a pack already loaded or on its way is not fetched again */
  loadPack(code: string): Promise<void>;
  /** adds a pack's bytes (from a cache); refuses a pack of another cut or another place */
  addPack(code: string, bytes: ArrayBuffer | ArrayBufferView): Promise<void>;
  /** hints and the pack they settle on, whether its streets are loaded */
  hint(query: string, count?: number): PackedHints;
}

interface PackFile {
  packsFormat?: number;
  kind?: string;
  place?: string;
  source?: string;
  country?: string;
  pack: Fragment;
  global?: PackGlobal;
  places?: { entryPlace: Uint8Array };
}

function decodePack(bytes: ArrayBuffer | ArrayBufferView, source: string): PackFile {
  const pack = decodeBlob(asBytes(bytes), source) as unknown as PackFile;
  if (pack.packsFormat !== PACKS_FORMAT || !pack.pack) throw new Error(`${source}: not an offline pack of format ${PACKS_FORMAT}; rebuild the packs with web/build-packs.ts`);
  return { ...pack, pack: decodeFragment(pack.pack) };
}

/** the deepest object of a hint */
const deepestObject = (levels: Record<LevelKey, number>): number => placeIds(levels).at(-1) ?? -1;

async function createPackedEngine(wasm: BufferSource | WebAssembly.Module, entryBytes: ArrayBuffer | ArrayBufferView, options: PackedOptions): Promise<PackedEngine> {
  const { manifest } = options;
  const entry = decodePack(entryBytes, 'entry.dict');
  if (entry.kind !== 'entry' || !entry.global || !entry.places) throw new Error('entry.dict: not an entry pack');
  if (entry.source !== manifest.buildId) throw new Error(`entry.dict: cut from ${entry.source}, the manifest lists ${manifest.buildId}`);
  const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
  const global = entry.global;
  const packIndex = new Set(manifest.packs.map((p) => p.code));
  const entryIds = new Uint32Array(new Uint8Array(entry.pack.ids.objects).buffer);
  const entryPlace = new Int32Array(decodeColumn(new Uint8Array(entry.places.entryPlace)).slice().buffer);
  const fragments = new Map<string, Fragment>();
  const pending = new Map<string, Promise<void>>();

  type Current = ReturnType<typeof engineOver> & { objectIds: Uint32Array };
  const compose = async (): Promise<Current> => {
    const { blob, objectIds } = composeBlob(global, [entry.pack, ...fragments.values()], `${entry.source}+${fragments.size}`);
    return { ...engineOver(await LoadedDictionary.fromBlob(blob, module)), objectIds };
  };
  let current = await compose();
  // one composition at a time; packs added while one runs go into the next, one for all of them
  let running: Promise<void> = Promise.resolve();
  let next: Promise<void> | null = null;
  const recompose = (): Promise<void> => {
    next ??= running.then(async () => {
      next = null;
      current = await compose();
    });
    running = next;
    return next;
  };

  /** the pack of an object of the current dictionary: the nearest entry object's at or above it */
  const packOfObject = (id: number): string | null => {
    for (let at = id; at >= 0; at = current.loaded.object(at).parent) {
      const row = indexOf(entryIds, current.objectIds[at]);
      if (row >= 0) return entryPlace[row] >= 0 ? manifest.packs[entryPlace[row]].code : null;
    }
    return null;
  };

  const addPack = async (code: string, bytes: ArrayBuffer | ArrayBufferView): Promise<void> => {
    const pack = decodePack(bytes, `places/${code}.dict`);
    if (pack.kind !== 'place' || pack.place !== code) throw new Error(`places/${code}.dict: holds ${pack.kind} ${pack.place ?? ''}`.trim());
    if (pack.source !== entry.source) throw new Error(`places/${code}.dict: cut from ${pack.source}, the entry pack from ${entry.source}`);
    if (fragments.has(code)) return;
    fragments.set(code, pack.pack);
    await recompose();
  };

  const loadPack = (code: string): Promise<void> => {
    if (fragments.has(code)) return Promise.resolve();
    if (!packIndex.has(code) || !PACK_CODE.test(code)) return Promise.reject(new Error(`no offline pack ${code}`));
    let loading = pending.get(code);
    if (!loading) {
      if (!options.fetchPack) return Promise.reject(new Error('createEngine: no fetchPack to load packs with'));
      loading = options.fetchPack(code).then((bytes) => addPack(code, bytes)).finally(() => pending.delete(code));
      pending.set(code, loading);
    }
    return loading;
  };

  const packsWithin = (code: string): string[] => {
    if (packIndex.has(code)) return [code];
    const under: string[] = [];
    const { loaded } = current;
    for (let id = 0; id < loaded.objectCount; id++) {
      const row = indexOf(entryIds, current.objectIds[id]);
      if (row < 0 || entryPlace[row] < 0) continue;
      for (let at = loaded.object(id).parent; at >= 0; at = loaded.object(at).parent) {
        if (placeCodes(loaded.object(at).codes).includes(code)) {
          under.push(manifest.packs[entryPlace[row]].code);
          break;
        }
      }
    }
    return [...new Set(under)];
  };

  const packFor = (query: string | AddressRecord): string | null => {
    if (typeof query !== 'string') {
      for (let k = LEVEL_KEYS.length - 1; k >= 0; k--) {
        const level = (query as unknown as Record<string, { codes?: Record<string, string> } | null>)[LEVEL_KEYS[k]];
        const code = level?.codes ? placeCodes(level.codes).find((c) => packIndex.has(c)) : undefined;
        if (code) return code;
      }
      // a place picked before its pack was loaded has no codes yet: its own text settles on it
      return query.addressFull ? packFor(query.addressFull) : null;
    }
    if (letterCount(query) < MIN_LETTERS) return null;
    const top = current.engine.suggest(current.dictionary.country, query, 1)[0];
    return top ? packOfObject(deepestObject(top.levels)) : null;
  };

  const preload = [...new Set((options.preload ?? []).flatMap(packsWithin))];
  const preloaded = Promise.all(preload.map(loadPack)).then(() => undefined);
  preloaded.catch(() => {});

  return {
    manifest,
    get loaded() {
      return [...fragments.keys()];
    },
    preloaded,
    get dictionary() {
      return current.dictionary;
    },
    suggest: (query, count) => current.suggest(query, count),
    standardize: (query) => current.standardize(query),
    parseHouse: (query) => current.parseHouse(query),
    packFor,
    packsWithin,
    hasPack: (code) => fragments.has(code),
    loadPack,
    addPack,
    hint(query, count) {
      // one reading of the query gives the hints and the place they settle on
      const { found, records } = current.hints(query, count);
      const pack = found[0] ? packOfObject(deepestObject(found[0].levels)) : null;
      return { records, pack, streetsMissing: pack !== null && !fragments.has(pack) };
    },
  };
}

/**
 * Loads the core and one country's dictionary. `wasm` is core.wasm's bytes or its compiled module (one
 * module serves several engines); `dictionary` the blob's bytes. Rejects a blob of another format with
 * the loader's message.
 *
 * With `options` (offline packs, docs/OFFLINE.md), `dictionary` is the country's entry pack (`entry.dict`) and the
 * engine a PackedEngine: hints from the entry pack and the place packs loaded (`loadPack`, `addPack`, `preload`).
 */
export async function createEngine(wasm: BufferSource | WebAssembly.Module, dictionary: ArrayBuffer | ArrayBufferView): Promise<WebEngine>;
export async function createEngine(wasm: BufferSource | WebAssembly.Module, entry: ArrayBuffer | ArrayBufferView, options: PackedOptions): Promise<PackedEngine>;
export async function createEngine(wasm: BufferSource | WebAssembly.Module, dictionary: ArrayBuffer | ArrayBufferView, options?: PackedOptions): Promise<WebEngine | PackedEngine> {
  if (options) return createPackedEngine(wasm, dictionary, options);
  const { engine: _engine, loaded: _loaded, ...web } = engineOver(await LoadedDictionary.fromBytes(asBytes(dictionary), wasm, 'dictionary'));
  return web;
}
