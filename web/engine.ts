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
import { pickHints, type AddressRecord, type HouseDetailsRecord } from '../engine/records/address-record.js';
import { completeHouseParts, houseFullName } from '../engine/records/house-details.js';
import { standardizeAddress } from '../engine/standardize.js';
import { MIN_LETTERS, letterCount } from '../engine/hint-letters.js';
import { decodeBlob } from '../engine/dictionary.js';
import {
  CODES_CHUNK, PACKS_FORMAT, chunkOf, codeHouseCodes, codesChunk, composeBlob, decodeColumn, decodeFragment, i32, indexOf, packId, packIndexOf, placeCodes, u32, type Fragment, type HouseCodesPart, type PackGlobal,
} from '../engine/packs.js';
import { PooledColumn, TextColumn } from '../engine/columns.js';
import { levelFullName } from '../engine/type-placement.js';
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

/** Hints, with the core's resolutions (`found`) and those the records were made of (`picked`, pickHints). */
interface Hints {
  found: Resolution[];
  picked: Resolution[];
  records: AddressRecord[];
}

/** The WebEngine over one loaded dictionary (a blob, or packs put together). */
function engineOver(loaded: LoadedDictionary): WebEngine & { engine: AddressEngine; loaded: LoadedDictionary; hints: (query: string, count?: number) => Hints } {
  const engine = new AddressEngine([loaded]);
  const country = loaded.country;
  /** the suggest route's hints, with the resolutions they were made from */
  const hints = (query: string, count?: number): Hints => {
    if (letterCount(query) < MIN_LETTERS) return { found: [], picked: [], records: [] };
    const want = suggestCount(count);
    const found = engine.suggest(country, query, want);
    return { found, ...pickHints(found, loaded, want, query) };
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
  /** the id of the place pack the query settles on (its top hint's place), null when none (a region, no hint) */
  pack: string | null;
  /** the place's pack is not loaded: its streets and houses are missing from the hints until it is */
  streetsMissing: boolean;
}

/** A place's pack (its streets and houses) or its house codes pack (web/build-packs.ts). */
export type PackKind = 'place' | 'codes';

export interface PackedOptions {
  /** fetches a pack's bytes: `places/<id>.dict`, or `codes/<id>.dict` for `codes` (`id`: `<pack id>-<n>`), beside the entry pack */
  fetchPack?: (id: string, kind: PackKind) => Promise<ArrayBuffer | ArrayBufferView>;
  /** pack ids, or codes of cities, regions and areas (every place pack under them), to load at once */
  preload?: readonly string[];
}

/** An engine over the entry pack and the place packs loaded so far (web/build-packs.ts, docs/OFFLINE.md). */
export interface PackedEngine extends WebEngine {
  /** the number of place packs of the cut (ids `0` … its base-36 predecessor) */
  readonly packs: number;
  /** the place packs loaded, by id */
  readonly loaded: readonly string[];
  /** settles when the `preload` packs are loaded (rejects with the first that failed) */
  readonly preloaded: Promise<void>;
  /** the place pack a query settles on (its top hint's place), or the pack of a chosen record's place; null: none */
  packFor(query: string | AddressRecord): string | null;
  /** the ids of the packs of a city, region or area (by its code; a pack id: itself): every one under it */
  packsWithin(code: string): string[];
  /** the place of a pack with its region and area: `Свердловская обл, г Екатеринбург` (from the entry) */
  packName(id: string): string;
  hasPack(id: string): boolean;
  /** whether a house codes pack (`<id>-<n>`, codesChunk) is loaded */
  hasCodes(chunk: string): boolean;
  /** fetches the pack (`fetchPack`) and adds it; a pack already loaded or on its way is not fetched again */
  loadPack(id: string, kind?: PackKind): Promise<void>;
  /** adds a pack's bytes (a place's pack or its house codes pack, from a cache); refuses one of another cut or place */
  addPack(id: string, bytes: ArrayBuffer | ArrayBufferView): Promise<void>;
  /**
   * A chosen house hint made whole: the house codes pack of its house (one of its place's, CODES_CHUNK houses each)
   * fetched (once) and the record read again with its codes. A house whose codes are not loaded has `houseDetails.codes` null in every hint; when its codes pack cannot
   * be fetched, this rejects and the record stays so.
   */
  complete(record: AddressRecord): Promise<AddressRecord>;
  /** hints and the pack they settle on, whether its streets are loaded */
  hint(query: string, count?: number): PackedHints;
}

interface PackFile {
  packsFormat?: number;
  kind?: string;
  place?: string;
  source?: string;
  country?: string;
  pack?: Fragment;
  codes?: HouseCodesPart;
  global?: PackGlobal;
  places?: { entryPlace: Uint8Array; packs: number };
}

function decodePack(bytes: ArrayBuffer | ArrayBufferView, source: string): PackFile {
  const pack = decodeBlob(asBytes(bytes), source) as unknown as PackFile;
  if (pack.packsFormat !== PACKS_FORMAT || !(pack.pack || pack.codes)) throw new Error(`${source}: not an offline pack of format ${PACKS_FORMAT}; rebuild the packs with web/build-packs.ts`);
  return { ...pack, pack: pack.pack && decodeFragment(pack.pack), codes: pack.codes && codeHouseCodes(pack.codes, false) };
}

/** the deepest object of a hint */
const deepestObject = (levels: Record<LevelKey, number>): number => placeIds(levels).at(-1) ?? -1;

/** The levels of a record that are entry objects (packs.ts ENTRY_LEVELS), outermost first. */
const ENTRY_KEYS = ['region', 'area', 'city', 'cityArea', 'settlement'] as const;

const isHouse = (record: AddressRecord): boolean => record.houseDetails.fullName !== '';

async function createPackedEngine(wasm: BufferSource | WebAssembly.Module, entryBytes: ArrayBuffer | ArrayBufferView, options: PackedOptions): Promise<PackedEngine> {
  const entry = decodePack(entryBytes, 'entry.dict');
  if (entry.kind !== 'entry' || !entry.global || !entry.places || !entry.pack) throw new Error('entry.dict: not an entry pack');
  const entryPack = entry.pack;
  const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
  const global = entry.global;
  const packCount = entry.places.packs;
  const entryIds = u32(entryPack.ids.objects);
  const entryPlace = i32(decodeColumn(entry.places.entryPlace));
  const entryObjects = i32(entryPack.objects);
  // per entry row, its parent's row (−1: a root); the parents of entry objects are entry objects
  const parentRow = Int32Array.from(entryIds, (_, row) => (entryObjects[row * 10] < 0 ? -1 : indexOf(entryIds, entryObjects[row * 10])));
  const names = new TextColumn(entryPack.objectColumns.name);
  const types = new PooledColumn(entryPack.objectColumns.type);
  const fullNameOf = (row: number): string => levelFullName(names.get(row), types.get(row));
  /** the pack of the entry object at `row` of the entry, null when none */
  const packOfRow = (row: number): string | null => (row >= 0 && entryPlace[row] >= 0 ? packId(entryPlace[row]) : null);
  /** per pack, the first entry row whose place it is (−1: none) */
  const packRow = new Int32Array(packCount).fill(-1);
  for (let row = entryPlace.length - 1; row >= 0; row--) if (entryPlace[row] >= 0 && entryPlace[row] < packCount) packRow[entryPlace[row]] = row;
  const fragments = new Map<string, Fragment>();
  /** per place pack added, its houses' ids in the order of its rows (what a house's codes chunk is counted by) */
  const packHouseIds = new Map<string, Uint32Array>();
  const codes = new Map<string, HouseCodesPart>();
  const pending = new Map<string, Promise<void>>();

  type Current = ReturnType<typeof engineOver> & { objectIds: Uint32Array; houseIds: Uint32Array };
  const compose = async (): Promise<Current> => {
    const { blob, objectIds, houseIds } = composeBlob(global, [entryPack, ...fragments.values()], `${entry.source}+${fragments.size}+${codes.size}`, [...codes.values()]);
    return { ...engineOver(await LoadedDictionary.fromBlob(blob, module)), objectIds, houseIds };
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
      if (row >= 0) return packOfRow(row);
    }
    return null;
  };

  // the entry's objects by parent (an entry row, −1 the root) and full name, built at the first record asked about
  let byName: Map<string, number> | null = null;
  /** the entry row of a record's deepest entry level, found by its levels' names from the root down (−1: none) */
  const entryRowOf = (record: AddressRecord): number => {
    if (!byName) {
      byName = new Map();
      for (let row = 0; row < entryIds.length; row++) {
        const key = `${parentRow[row]} ${fullNameOf(row)}`;
        if (!byName.has(key)) byName.set(key, row);
      }
    }
    let row = -1;
    for (const key of ENTRY_KEYS) {
      const fullName = record[key]?.fullName;
      if (!fullName) continue;
      const child = byName.get(`${row} ${fullName}`);
      if (child === undefined) break;
      row = child;
    }
    return row;
  };

  /** the house codes pack (codesChunk) of a house of the current dictionary: its place pack's, by its row there */
  const chunkOfHouse = (resolution: Resolution): string | null => {
    const pack = packOfObject(deepestObject(resolution.levels));
    const houseIds = pack === null ? undefined : packHouseIds.get(pack);
    if (!houseIds || resolution.house < 0) return null;
    const row = indexOf(houseIds, current.houseIds[resolution.house]);
    return row < 0 ? null : codesChunk(pack!, Math.floor(row / CODES_CHUNK));
  };

  /**
   * Per record of a hint list, the house codes pack its house needs (null: no house). A house's record is its
   * resolution's alone (`onePerPlace` leaves houses be), so the houses' records and the houses' resolutions among
   * those the records were made of (`picked`) go in step.
   */
  const houseChunks = (picked: Resolution[], records: AddressRecord[]): Array<string | null> => {
    const houses = picked.filter((r) => r.house >= 0);
    let next = 0;
    return records.map((record) => (isHouse(record) && next < houses.length ? chunkOfHouse(houses[next++]) : null));
  };

  /** hints whose houses' codes are not loaded say so: their codes are null, not blank */
  const hintsSaid = (query: string, count: number | undefined): { found: Resolution[]; records: AddressRecord[]; chunks: Array<string | null> } => {
    const { found, picked, records } = current.hints(query, count);
    const chunks = houseChunks(picked, records);
    const said = records.map((record, k) => {
      const chunk = chunks[k];
      return !isHouse(record) || (chunk !== null && codes.has(chunk)) ? record : { ...record, houseDetails: { ...record.houseDetails, codes: null } };
    });
    return { found, records: said, chunks };
  };

  const addPack = async (id: string, bytes: ArrayBuffer | ArrayBufferView): Promise<void> => {
    const pack = decodePack(bytes, `pack ${id}`);
    if ((pack.kind !== 'place' && pack.kind !== 'codes') || pack.place !== id) throw new Error(`pack ${id}: holds ${pack.kind} ${pack.place ?? ''}`.trim());
    if (pack.source !== entry.source) throw new Error(`pack ${id}: cut from ${pack.source}, the entry pack from ${entry.source}`);
    if (pack.kind === 'codes') {
      if (!pack.codes) throw new Error(`pack ${id}: a house codes pack without its codes`);
      if (codes.has(id)) return;
      codes.set(id, pack.codes);
    } else {
      if (!pack.pack) throw new Error(`pack ${id}: a place pack without its tables`);
      if (fragments.has(id)) return;
      fragments.set(id, pack.pack);
      packHouseIds.set(id, u32(pack.pack.ids.houses));
    }
    await recompose();
  };

  const loadPack = (id: string, kind: PackKind = 'place'): Promise<void> => {
    if ((kind === 'codes' ? codes : fragments).has(id)) return Promise.resolve();
    if (kind === 'codes' ? chunkOf(id, packCount) === null : packIndexOf(id, packCount) < 0) return Promise.reject(new Error(`no offline pack ${id}`));
    const key = `${kind} ${id}`;
    let loading = pending.get(key);
    if (!loading) {
      if (!options.fetchPack) return Promise.reject(new Error('createEngine: no fetchPack to load packs with'));
      loading = options.fetchPack(id, kind).then((bytes) => addPack(id, bytes)).finally(() => pending.delete(key));
      pending.set(key, loading);
    }
    return loading;
  };

  const packsWithin = (code: string): string[] => {
    if (packIndexOf(code, packCount) >= 0) return [code];
    // the entry rows whose codes name it (a region's, an area's, a city's) and every entry row under them (parents first)
    const within = new Uint8Array(entryIds.length);
    const under = new Set<string>();
    for (let row = 0; row < entryIds.length; row++) {
      within[row] = (parentRow[row] >= 0 && within[parentRow[row]]) ||
        placeCodes(current.loaded.object(indexOf(current.objectIds, entryIds[row])).codes).includes(code) ? 1 : 0;
      const pack = packOfRow(row);
      if (within[row] && pack !== null) under.add(pack);
    }
    return [...under];
  };

  const packFor = (query: string | AddressRecord): string | null => {
    // a record (the service's or the engine's): its levels' names read down the entry's places, no engine call
    if (typeof query !== 'string') return packOfRow(entryRowOf(query));
    if (letterCount(query) < MIN_LETTERS) return null;
    const top = current.engine.suggest(current.dictionary.country, query, 1)[0];
    return top ? packOfObject(deepestObject(top.levels)) : null;
  };

  const packName = (id: string): string => {
    const index = packIndexOf(id, packCount);
    const place = index < 0 ? -1 : packRow[index];
    if (place < 0) return id;
    const parts: string[] = [];
    for (let row = place; row >= 0; row = parentRow[row]) parts.unshift(fullNameOf(row));
    return parts.join(', ');
  };

  const preload = [...new Set((options.preload ?? []).flatMap(packsWithin))];
  const preloaded = Promise.all(preload.map((id) => loadPack(id))).then(() => undefined);
  preloaded.catch(() => {});

  return {
    packs: packCount,
    get loaded() {
      return [...fragments.keys()];
    },
    preloaded,
    get dictionary() {
      return current.dictionary;
    },
    suggest: (query, count) => hintsSaid(query, count).records,
    standardize: (query) => current.standardize(query),
    parseHouse: (query) => current.parseHouse(query),
    packFor,
    packsWithin,
    packName,
    hasPack: (id) => fragments.has(id),
    hasCodes: (id) => codes.has(id),
    loadPack,
    addPack,
    async complete(record) {
      if (!isHouse(record)) return record;
      const same = (r: AddressRecord) => r.addressFull === record.addressFull && r.houseDetails.fullName === record.houseDetails.fullName;
      const before = hintsSaid(record.addressFull, SUGGEST_MAX_COUNT);
      const chunk = before.chunks[before.records.findIndex(same)];
      if (!chunk) return record;
      await loadPack(chunk, 'codes');
      return hintsSaid(record.addressFull, SUGGEST_MAX_COUNT).records.find(same) ?? record;
    },
    hint(query, count) {
      // one reading of the query gives the hints and the place they settle on
      const { found, records } = hintsSaid(query, count);
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
