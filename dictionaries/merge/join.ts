/**
 * Joining records of the same place into one object. Two moments use it:
 *  - while reading (`sink.ts`): a record with the key, or the FIAS GUID, of an object already held is folded
 *    into it at once (`foldInto`);
 *  - merge step 2 (`joinByName`): records a source marks `joinByName` (OSM, GeoNames: no registry key) join,
 *    lowest level first, the same-named place of their region (or the region itself: Москва, Київ) or the
 *    same-named street of the same parent. A record that finds none stays an object of its own and is a
 *    target for the records after it.
 * Folding fills in what the target lacks (codes, coordinates, postcode, …); a different name becomes an
 * alias, and the folded key an alias of the target's key (`MergeState.keyAlias`), so houses and children
 * naming it still find it. A registry record wins over a name-joined one: it keeps the official name and parent.
 */
import { Level, type AddressObject, type LevelNumber } from '../source-model.js';
import { nameKey } from '../join-keys.js';
import { regionOf } from './regions.js';
import { canonical, type MergeState } from './state.js';

/** step 2: name joins, lowest level first */
export function joinByName(state: MergeState): void {
  const pending = [...state.objects.values()].filter((o) => o.joinByName);
  if (pending.length === 0) return;
  pending.sort((a, b) => a.level - b.level);
  const pendingKeys = new Set(pending.map((o) => o.key));
  // places by region and name; children by parent, level, name
  const places = new Map<string, AddressObject[]>();
  const children = new Map<string, AddressObject[]>();
  const addPlace = (object: AddressObject, region: string | undefined) => {
    const names = new Set([nameKey(object.name), ...(object.aliases ?? []).map(nameKey)]);
    for (const name of names) {
      for (const key of [`${region ?? ''}|${name}`, `*|${name}`]) {
        const list = places.get(key) ?? [];
        list.push(object);
        places.set(key, list);
      }
    }
  };
  const addChild = (object: AddressObject) => {
    if (object.parent === null) return;
    const key = `${canonical(state, object.parent)}|${object.level}|${nameKey(object.name)}`;
    const list = children.get(key) ?? [];
    list.push(object);
    children.set(key, list);
  };
  for (const object of state.objects.values()) {
    if (pendingKeys.has(object.key)) continue;
    if (isPlaceLevel(object.level)) addPlace(object, object.level === Level.region ? object.key : regionOf(state, object.key));
    else addChild(object);
  }
  let joined = 0;
  for (const object of pending) {
    let target: AddressObject | undefined;
    if (isPlaceLevel(object.level)) {
      const region = object.parent === null ? undefined : regionOf(state, object.parent);
      const candidates = places.get(`${region ?? '*'}|${nameKey(object.name)}`) ?? [];
      // outside any region only a unique name is trusted
      const usable = region === undefined ? uniquePlace(candidates) : candidates;
      target = bestPlace(usable, object);
    } else if (object.parent !== null) {
      const candidates = children.get(`${canonical(state, object.parent)}|${object.level}|${nameKey(object.name)}`) ?? [];
      target = candidates.find((c) => c.type === object.type || c.type === '' || object.type === '');
    }
    if (target && target.key !== object.key) {
      state.objects.delete(object.key);
      state.keyAlias.set(object.key, target.key);
      foldInto(target, object);
      joined++;
    } else if (isPlaceLevel(object.level)) {
      addPlace(object, object.parent === null ? undefined : regionOf(state, object.parent));
    } else {
      addChild(object);
    }
  }
  state.counts.joinedByName = joined;
}

/** fill what `target` lacks from `other`; a different name of the same object becomes an alias */
export function foldInto(target: AddressObject, other: AddressObject): void {
  for (const [code, value] of Object.entries(other.codes) as Array<[keyof AddressObject['codes'], string | undefined]>) {
    if (value && !target.codes[code]) target.codes[code] = value;
  }
  if (target.parent === null && other.parent !== null && target.level !== Level.region) target.parent = other.parent;
  if (target.lat === undefined && other.lat !== undefined) {
    target.lat = other.lat;
    target.lon = other.lon;
  }
  target.postcode ||= other.postcode;
  target.timezone ||= other.timezone;
  target.municipal ??= other.municipal;
  target.iso ||= other.iso;
  if (other.population !== undefined && (target.population ?? 0) < other.population) target.population = other.population;
  if (!target.type && other.type) target.type = other.type;
  const aliases = new Set([...(target.aliases ?? []), ...(other.aliases ?? [])]);
  if (nameKey(other.name) !== nameKey(target.name)) aliases.add(other.name);
  aliases.delete(target.name);
  if (aliases.size > 0) target.aliases = [...aliases];
  if (other.historicalNames) target.historicalNames = [...new Set([...(target.historicalNames ?? []), ...other.historicalNames])];
  // a registry record wins over a name-joined one: it keeps the official name and parent
  if (target.joinByName && !other.joinByName) {
    target.joinByName = false;
    if (nameKey(target.name) !== nameKey(other.name)) target.aliases = [...new Set([...(target.aliases ?? []), target.name])];
    target.name = other.name;
    target.type = other.type || target.type;
    target.level = other.level;
    if (other.parent !== null) target.parent = other.parent;
    target.source = other.source;
  }
}

function isPlaceLevel(level: LevelNumber): boolean {
  return level === Level.region || level === Level.city || level === Level.settlement;
}

function uniquePlace(candidates: AddressObject[]): AddressObject[] {
  const regions = candidates.filter((c) => c.level === Level.region);
  if (regions.length === 1) {
    // a city of special status that is also its own city (Київ): the city holds the streets
    const city = candidates.find((c) => c.level === Level.city && c.parent === regions[0].key);
    return [city ?? regions[0]];
  }
  return candidates.length === 1 ? candidates : [];
}

/** the same level first, then a region (a federal city), then the most populous */
function bestPlace(candidates: AddressObject[], object: AddressObject): AddressObject | undefined {
  if (candidates.length === 0) return undefined;
  const score = (c: AddressObject) =>
    (c.level === object.level ? 4 : 0) + (c.level === Level.region ? 2 : 0) + (c.level === Level.city ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a) || (b.population ?? 0) - (a.population ?? 0))[0];
}
