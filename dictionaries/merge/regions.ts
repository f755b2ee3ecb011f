/**
 * Merge step 1, regions: an object below region level that arrived without a parent (Post, OSM, GeoNames
 * name their region, they do not key it) gets its region by the region's name, in any of the spellings the
 * registries use (`Чувашия Республика`, `Чувашская Республика - Чувашия`: join-keys.ts `regionKeys`), else by
 * the region of the nearest registry city within `NEAREST_CITY_MAX_KM`. What stays without a parent may still
 * be placed by a name join (`join.ts`), else the tree rejects it.
 *
 * The region names (`MergeState.regions`) outlive the step: Post offices (`top-down.ts`) and popular names
 * (`names.ts`) find their region through `findRegion` too.
 */
import { Level } from '../source-model.js';
import { distanceKm, regionKeys } from '../join-keys.js';
import { canonical, type MergeState, type RegionNames } from './state.js';

/** a place farther than this from every known city is not placed in a region by coordinates */
const NEAREST_CITY_MAX_KM = 120;

/** step 1: objects without a parent below region level get one by region name or by coordinates */
export function locateParents(state: MergeState): void {
  const regions = [...state.objects.values()].filter((o) => o.level === Level.region);
  const exact = new Map<string, string>();
  const stems = new Map<string, string | null>();
  for (const region of regions) {
    const names = [region.name, ...(region.aliases ?? [])];
    for (const name of names) {
      const keys = regionKeys(name);
      for (const key of keys.exact) if (!exact.has(key)) exact.set(key, region.key);
      // a stem two regions share (Алтай/Алтайский) names neither
      for (const key of keys.stems) stems.set(key, stems.has(key) && stems.get(key) !== region.key ? null : region.key);
    }
  }
  state.regions = { exact, stems };
  const places = knownPlaces(state);
  for (const object of state.objects.values()) {
    if (object.level === Level.region || object.parent !== null) continue;
    if (object.regionName) {
      const region = findRegion(state.regions, object.regionName);
      if (region) {
        object.parent = region;
        continue;
      }
    }
    if (object.lat !== undefined && object.lon !== undefined) {
      const near = nearest(places, object.lat, object.lon);
      if (near && near.km <= NEAREST_CITY_MAX_KM) {
        object.parent = near.region;
        continue;
      }
    }
    // left without a parent: a name join may still find it (a place named like a unique place), else rejected
  }
}

/** the region key for any spelling of a region name */
export function findRegion(regions: RegionNames, name: string): string | undefined {
  const keys = regionKeys(name);
  for (const key of keys.exact) {
    const region = regions.exact.get(key);
    if (region) return region;
  }
  for (const key of keys.stems) {
    const region = regions.stems.get(key);
    if (region) return region;
  }
  return undefined;
}

/** the region key above `key`, or undefined when the chain breaks */
export function regionOf(state: MergeState, key: string): string | undefined {
  let current = state.objects.get(canonical(state, key));
  for (let depth = 0; current && depth < 16; depth++) {
    if (current.level === Level.region) return current.key;
    if (current.parent === null) return undefined;
    current = state.objects.get(canonical(state, current.parent));
  }
  return undefined;
}

/** cities with coordinates whose region is known (registry objects only), for the nearest-city rule */
function knownPlaces(state: MergeState): Array<{ lat: number; lon: number; region: string }> {
  const places: Array<{ lat: number; lon: number; region: string }> = [];
  for (const object of state.objects.values()) {
    if (object.joinByName || object.lat === undefined || object.lon === undefined) continue;
    if (object.level !== Level.city && object.level !== Level.settlement && object.level !== Level.region) continue;
    const region = regionOf(state, object.key);
    if (region) places.push({ lat: object.lat, lon: object.lon, region });
  }
  return places;
}

function nearest(places: Array<{ lat: number; lon: number; region: string }>, lat: number, lon: number) {
  let best: { km: number; region: string } | undefined;
  for (const place of places) {
    if (Math.abs(place.lat - lat) > 3) continue;
    const km = distanceKm(lat, lon, place.lat, place.lon);
    if (!best || km < best.km) best = { km, region: place.region };
  }
  return best;
}
