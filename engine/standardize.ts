/** Standardization shared by clean/address, its iqdq form and the legacy detail methods. */
import type { Country, Dictionary, Engine, MetroHit } from './types.js';
import { buildAddressRecord, resolveObjects, type AddressRecord, type ResolvedObjects } from './records/address-record.js';

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

/**
 * The record POST /clean/address answers, and the registry objects it was built from. `metro: false` leaves its
 * metro list empty (the stations' lookup costs as much as the rest of the record: a file's rows ask for it only when
 * a result column shows it).
 */
export function standardizeAddress(
  engine: Engine, country: Country, dictionary: Dictionary, query: string, options: { metro?: boolean } = {},
): { record: AddressRecord; objects: ResolvedObjects | null } {
  const resolution = engine.standardize(country, query);
  const objects = resolution.matched ? resolveObjects(resolution, dictionary) : null;
  const nearestMetro = options.metro === false ? undefined : metroLookup(engine, country);
  const record = buildAddressRecord(resolution, dictionary, { method: 'clean', original: query, nearestMetro }, objects);
  return { record, objects };
}
