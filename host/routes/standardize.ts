/** Standardization shared by clean/address, its iqdq form and the legacy detail methods. */
import type { Country, Dictionary, Engine } from '../engine/types.js';
import { buildAddressRecord, resolveObjects, type AddressRecord, type ResolvedObjects } from '../records/address-record.js';

export const METRO_MAX = 3;
export const METRO_RADIUS = 5000;

export function standardizeAddress(engine: Engine, country: Country, dictionary: Dictionary, query: string): { record: AddressRecord; objects: ResolvedObjects | null } {
  const resolution = engine.standardize(country, query);
  const record = buildAddressRecord(resolution, dictionary, {
    method: 'clean',
    original: query,
    nearestMetro: (latitude, longitude) => engine.nearestMetro(country, latitude, longitude, METRO_MAX, METRO_RADIUS),
  });
  return { record, objects: resolution.matched ? resolveObjects(resolution, dictionary) : null };
}
