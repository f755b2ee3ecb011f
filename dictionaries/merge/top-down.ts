/**
 * Merge step 7, top-down: what an object takes from above or from outside its houses, parents first (the
 * depth-first order). A region or area whose coordinates are not a registry's takes its most populous city's;
 * an object from region down to settlement level (not a city district) without a postcode or coordinates
 * takes the post offices' of its name in its region (Russian Post, GeoNames: `addPostcode`), preferring
 * those of its area; else a parent lends its postcode only when it has exactly one (a village, a street; not
 * a region or a big city, whose main office's code is wrong for most of it). The timezone is the parent's;
 * a region's is its registry's, else its country's (timezones.ts).
 */
import { Level } from '../source-model.js';
import type { MergedObject } from '../merged-model.js';
import { nameKey } from '../join-keys.js';
import { regionTimezone } from '../timezones.js';
import { findRegion } from './regions.js';
import { round6, type MergeState } from './state.js';

type PostEntry = { area: string; postcode: string; lat?: number; lon?: number };
/** region key → place name key → offices */
type PostIndex = Map<string, Map<string, PostEntry[]>>;

/**
 * Step 7: region coordinates from its largest city, Post postcodes by name, inheritance of timezone/postcode (a region
 * its registry gives no zone has its country's: timezones.ts)
 */
export function fillTopDown(state: MergeState, objects: MergedObject[]): void {
  // region/area coordinates: the most populous city (the capital in practice) beats the mean of houses
  const largest = new Map<number, MergedObject>();
  for (const object of objects) {
    if (object.level !== Level.city || object.lat === undefined) continue;
    for (let p = object.parent; p >= 0; p = objects[p].parent) {
      const ancestor = objects[p];
      if (ancestor.level !== Level.region && ancestor.level !== Level.area) continue;
      const best = largest.get(p);
      if (!best || (object.population ?? 0) > (best.population ?? 0)) largest.set(p, object);
    }
  }
  for (const [index, city] of largest) {
    const object = objects[index];
    if (object.geoLevel !== undefined && object.geoLevel !== object.level) continue;
    if (object.lat !== undefined && object.geoLevel === undefined) continue; // own coordinates from a registry
    object.lat = city.lat;
    object.lon = city.lon;
    object.geoLevel = Level.city;
  }
  const post = postIndex(state);
  let fromPost = 0;
  let coordinatesFromPost = 0;
  // a place lends its postcode to what lies in it without one only when the place has one postcode (a village, a
  // small town: one post office, or a settlement's, a plan structure's or a street's own); a region's, a
  // district's or a big city's (its main office: Moscow's 101000) would be wrong for most streets in it
  const lends = new Uint8Array(objects.length);
  const single = (entries: PostEntry[] | undefined): boolean => entries !== undefined && new Set(entries.map((e) => e.postcode)).size === 1;
  objects.forEach((object, index) => {
    const parent = object.parent >= 0 ? objects[object.parent] : undefined;
    const entries = !object.postcode || object.lat === undefined || object.level === Level.city ? postEntries(post, object, objects) : undefined;
    if (!object.postcode) {
      if (entries) {
        object.postcode = entries.map((e) => e.postcode).sort()[0];
        fromPost++;
        lends[index] = single(entries) ? 1 : 0;
      } else if (parent?.postcode && lends[object.parent]) {
        object.postcode = parent.postcode;
        lends[index] = 1;
      }
    } else {
      lends[index] = object.level >= Level.settlement || (object.level === Level.city && single(entries)) ? 1 : 0;
    }
    if (object.lat === undefined && entries) {
      const located = entries.filter((e) => e.lat !== undefined);
      if (located.length > 0) {
        object.lat = round6(located.reduce((s, e) => s + e.lat!, 0) / located.length);
        object.lon = round6(located.reduce((s, e) => s + e.lon!, 0) / located.length);
        object.geoLevel = object.level;
        coordinatesFromPost++;
      }
    }
    if (!object.timezone) object.timezone = parent ? parent.timezone : regionTimezone(state.country, object.name);
    if (object.lat !== undefined && object.geoLevel === undefined) object.geoLevel = object.level;
  });
  state.counts.postcodesFromPost = fromPost;
  state.counts.coordinatesFromPost = coordinatesFromPost;
}

/** Post offices by region key → place name key → lowest postcode; area kept for disambiguation */
function postIndex(state: MergeState): PostIndex {
  const index: PostIndex = new Map();
  let unmatched = 0;
  for (const office of state.postOffices) {
    const region = office.region ? findRegion(state.regions, office.region) : undefined;
    if (!region) {
      unmatched++;
      continue;
    }
    const place = nameKey(office.city || office.area || office.region || '');
    let byPlace = index.get(region);
    if (!byPlace) index.set(region, (byPlace = new Map()));
    const list = byPlace.get(place) ?? [];
    list.push({ area: nameKey(office.area ?? ''), postcode: office.postcode, lat: office.lat, lon: office.lon });
    byPlace.set(place, list);
  }
  if (unmatched > 0) state.rejects.set('post: region not matched', unmatched);
  return index;
}

function postEntries(index: PostIndex, object: MergedObject, objects: MergedObject[]): PostEntry[] | undefined {
  if (object.level > Level.settlement || object.level === Level.cityArea) return undefined;
  let regionIndex = object.parent;
  let region: MergedObject = object;
  let area = '';
  for (let p = object.parent; p >= 0; p = objects[p].parent) {
    if (objects[p].level === Level.area) area = nameKey(objects[p].name);
    region = objects[p];
    regionIndex = p;
  }
  void regionIndex;
  const byPlace = index.get(region.key);
  if (!byPlace) return undefined;
  const entries = byPlace.get(nameKey(object.name));
  if (!entries || entries.length === 0) return undefined;
  const inArea = area ? entries.filter((e) => e.area === '' || e.area.includes(area) || area.includes(e.area)) : entries;
  return inArea.length > 0 ? inArea : entries;
}
