/** Standardization shared by clean/address, its iqdq form and the legacy detail methods. */
import type { Country, Dictionary, Engine, MetroHit, Resolution } from './types.js';
import {
  buildAddressRecord, cleanParts, resolveObjects, type AddressRecord, type BuildOptions, type CleanParts, type ResolvedObjects,
} from './records/address-record.js';

export const METRO_MAX = 3;
export const METRO_RADIUS = 5000;

type NearestMetro = (latitude: number, longitude: number) => MetroHit[];

/** One metro lookup function per engine and country, not a closure per request. */
const METRO_LOOKUPS = new WeakMap<Engine, Map<Country, NearestMetro>>();

function metroLookup(engine: Engine, country: Country): NearestMetro {
  let byCountry = METRO_LOOKUPS.get(engine);
  if (!byCountry) METRO_LOOKUPS.set(engine, (byCountry = new Map()));
  let lookup = byCountry.get(country);
  if (!lookup) {
    lookup = (latitude, longitude) => engine.nearestMetro(country, latitude, longitude, METRO_MAX, METRO_RADIUS);
    byCountry.set(country, lookup);
  }
  return lookup;
}

/** The engine's reading of `query`, its registry objects, and the options a clean record is built with. */
function standardized(engine: Engine, country: Country, dictionary: Dictionary, query: string, metro: boolean | undefined, resolution = engine.standardize(country, query)) {
  const objects = resolution.matched ? resolveObjects(resolution, dictionary) : null;
  const options: BuildOptions = { method: 'clean', original: query, nearestMetro: metro === false ? undefined : metroLookup(engine, country) };
  return { resolution, objects, options };
}

/**
 * The record POST /clean/address answers, and the registry objects it was built from. `metro: false` leaves its
 * metro list empty (the stations' lookup costs as much as the rest of the record: a file's rows ask for it only when
 * a result column shows it). `resolution`: the engine's reading of `query` made beforehand, as `standardizeParts`
 * takes it.
 */
export function standardizeAddress(
  engine: Engine, country: Country, dictionary: Dictionary, query: string, options: { metro?: boolean; resolution?: Resolution } = {},
): { record: AddressRecord; objects: ResolvedObjects | null } {
  const { resolution, objects, options: build } = standardized(engine, country, dictionary, query, options.metro, options.resolution);
  return { record: buildAddressRecord(resolution, dictionary, build, objects), objects };
}

/**
 * What `standardizeAddress` answers without its record's lines of text (records/address-record.ts `cleanParts`):
 * what DaData's cleaner and a file's rows map to DaData's record (records/dadata-record.ts `dadataClean`). `resolution`:
 * the engine's reading of `query` made beforehand (`engine.standardize`), as a file's batch makes them, all at once.
 */
export function standardizeParts(
  engine: Engine, country: Country, dictionary: Dictionary, query: string, options: { metro?: boolean; resolution?: Resolution } = {},
): { parts: CleanParts; objects: ResolvedObjects | null } {
  const { resolution, objects, options: build } = standardized(engine, country, dictionary, query, options.metro, options.resolution);
  return { parts: cleanParts(resolution, dictionary, build, objects), objects };
}
