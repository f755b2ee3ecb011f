/**
 * The merge's state, one object per country, made by the sink (`sink.ts`) and passed to every step of
 * `finish()`: what the readers streamed in (objects by key, the houses' interned parent and municipal keys,
 * the house and apartment stores, post offices, sources), what one step leaves for a later one (the region
 * names of `regions.ts`, the key aliases of the joins), and what the report prints (rejects and the steps'
 * counts). No step keeps state of its own: what a step reads or leaves is here, by name.
 */
import type { PreviousGa } from './ga-codes.js';
import type { HouseStore, HouseStoreOptions } from '../house-store.js';
import type { ApartmentStore } from '../apartment-store.js';
import { LEVEL_NAMES, type AddressObject, type MetroStation, type ModelSink, type MunicipalObject, type SourceInfo } from '../source-model.js';

export type Country = ModelSink['country'];

export interface PostOffice {
  postcode: string;
  region?: string;
  area?: string;
  city?: string;
  lat?: number;
  lon?: number;
}

export interface ModelBuilderOptions {
  aliasesFile?: string;
  nameVariantsFile?: string;
  log?: (line: string) => void;
  /** when the house store spills to disk, and where (house-store.ts) */
  houses?: HouseStoreOptions;
  /**
   * the GA codes of an earlier build by object key (the update store's): an object keeps its code while it
   * sits in the same slot under a parent of the same code; new objects take the numbers after its siblings'
   */
  previousGa?: PreviousGa;
}

/** Region names to region keys (`regions.ts` fills them; the later steps look names up in them). */
export interface RegionNames {
  /** every exact name form of a region (`regionKeys().exact`) → its key */
  exact: Map<string, string>;
  /** a stem → the one region it names; null when two regions share it (Алтай/Алтайский) */
  stems: Map<string, string | null>;
}

/** What the steps count for the report (`report.ts`). */
export interface MergeCounts {
  joinedByName: number;
  /** references to a municipal entity that never arrived (objects, and distinct keys of houses) */
  municipalMissing: number;
  postcodesFromPost: number;
  coordinatesFromPost: number;
  popularNamesApplied: number;
  kladrAliasesApplied: number;
  nameVariantsApplied: number;
}

export interface MergeState {
  readonly country: Country;
  readonly options: ModelBuilderOptions;
  readonly log: (line: string) => void;
  /** objects by key, until the tree is numbered (`tree.ts` empties it) */
  readonly objects: Map<string, AddressObject>;
  /** key of a folded-in record → key of the object it was folded into */
  readonly keyAlias: Map<string, string>;
  /** FIAS code → key, only for objects whose FIAS code is not their key (an OSM or name-joined object given one) */
  readonly byFias: Map<string, string>;
  /** the parent keys houses name, interned: the HouseStore keeps the id */
  readonly houseParentIds: Map<string, number>;
  readonly houseParentKeys: string[];
  readonly municipals: Map<string, MunicipalObject>;
  /** municipal keys houses refer to, interned: the HouseStore keeps the id */
  readonly houseMunicipalIds: Map<string, number>;
  readonly houseMunicipalKeys: string[];
  readonly houseStore: HouseStore;
  readonly apartmentStore: ApartmentStore;
  readonly metro: MetroStation[];
  readonly postOffices: PostOffice[];
  readonly sources: SourceInfo[];
  /** KLADR code → the old codes of that object (KLADR ALTNAMES) */
  readonly kladrAliases: Map<string, string[]>;
  /** `<source>: <reason>` → records rejected */
  readonly rejects: Map<string, number>;
  /** a few rejected objects per reason, for the build log */
  readonly rejectSamples: Map<string, string[]>;
  readonly objectsPerSource: Map<string, number>;
  regions: RegionNames;
  readonly counts: MergeCounts;
}

export function newMergeState(country: Country, options: ModelBuilderOptions, houseStore: HouseStore, apartmentStore: ApartmentStore): MergeState {
  return {
    country,
    options,
    log: options.log ?? (() => {}),
    objects: new Map(),
    keyAlias: new Map(),
    byFias: new Map(),
    houseParentIds: new Map(),
    houseParentKeys: [],
    municipals: new Map(),
    houseMunicipalIds: new Map(),
    houseMunicipalKeys: [],
    houseStore,
    apartmentStore,
    metro: [],
    postOffices: [],
    sources: [],
    kladrAliases: new Map(),
    rejects: new Map(),
    rejectSamples: new Map(),
    objectsPerSource: new Map(),
    regions: { exact: new Map(), stems: new Map() },
    counts: {
      joinedByName: 0,
      municipalMissing: 0,
      postcodesFromPost: 0,
      coordinatesFromPost: 0,
      popularNamesApplied: 0,
      kladrAliasesApplied: 0,
      nameVariantsApplied: 0,
    },
  };
}

/** the key `key` was folded into, following aliases (a key folded into one later folded in itself) */
export function canonical(state: MergeState, key: string): string {
  let current = key;
  for (let depth = 0; depth < 32; depth++) {
    const next = state.keyAlias.get(current);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

export function countInto(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function reject(state: MergeState, source: string, reason: string): void {
  countInto(state.rejects, `${source}: ${reason}`);
}

/** rejects `object`, keeping a few samples per reason */
export function rejectObject(state: MergeState, object: AddressObject, reason: string): void {
  reject(state, object.source, reason);
  const key = `${object.source}: ${reason}`;
  const samples = state.rejectSamples.get(key) ?? [];
  if (samples.length < 8) samples.push(`${LEVEL_NAMES[object.level]} ${object.type} ${object.name} (${object.key})`);
  state.rejectSamples.set(key, samples);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
