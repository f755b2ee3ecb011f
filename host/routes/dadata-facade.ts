/**
 * What the DaData facade's routes share: the countries a request reaches, DaData's `locations` read as our scopes
 * (to narrow the engine's reading) and then checked on each record exactly as DaData states them, and the
 * suggestion of one engine resolution (records/dadata-record.ts).
 */
import { COUNTRY_INFO } from '../../engine/countries.js';
import { COUNTRIES, LEVEL_KEYS, type Country, type Dictionary, type Engine, type Resolution, type Scope } from '../../engine/types.js';
import { buildAddressRecord, onePerPlace, resolveObjects, type AddressRecord, type BuildOptions, type ResolvedObjects } from '../../engine/records/address-record.js';
import {
  dadataSuggestion, DADATA_BOUNDS, registryCodes, type DadataAddress, type DadataBound, type DadataExtras, type DadataLevel, type DadataSuggestion, type SuggestionView,
} from '../../engine/records/dadata-record.js';
import { foldName, shared } from '../../engine/records/shared.js';
import type { DadataGeoLocation, DadataLocation } from '../schemas/dadata.js';


type Suggested = { record: AddressRecord; suggestion: DadataSuggestion };

/**
 * Hints as DaData's widgets ask for them (Russian, no bounds, no restriction, administrative division) are the same
 * suggestion whenever the same hint comes up: kept beside the engine's frozen hint (engine.ts `hint`), frozen and
 * shared, so its JSON bytes are written once (records/json.ts), as the native hints' records are.
 */
const PLAIN_HINTS = new WeakMap<Resolution, Suggested>();

const plainView = (view: SuggestionView, division: DadataExtras['division']): boolean =>
  (view.language ?? 'ru') === 'ru' && !view.from && !view.to && !view.restrictTo && (division ?? 'administrative') === 'administrative';

/** A resolution's AddressRecord (built as `method` builds it) and its DaData suggestion. */
export function suggestionOf(
  resolution: Resolution, dictionary: Dictionary, options: BuildOptions, view: SuggestionView, division?: DadataExtras['division'],
): Suggested {
  const kept = options.method === 'suggest' && Object.isFrozen(resolution) && plainView(view, division);
  if (kept) {
    const known = PLAIN_HINTS.get(resolution);
    if (known) return known;
  }
  const objects = resolution.matched ? resolveObjects(resolution, dictionary) : null;
  const record = buildAddressRecord(resolution, dictionary, options, objects);
  const extras: DadataExtras = { ...registryCodes(objects), geo: resolution.quality.geo, division };
  const suggested = { record, suggestion: dadataSuggestion(record, extras, view) };
  if (kept) {
    shared(suggested.suggestion);
    PLAIN_HINTS.set(resolution, suggested);
  }
  return suggested;
}

/** Country names and codes a location may give (`Россия`, `RU`, `Казахстан` …), lower case. */
const COUNTRY_BY_WORD = new Map<string, Country>();
for (const country of COUNTRIES) {
  const info = COUNTRY_INFO[country];
  for (const word of [info.name, info.alpha2, info.alpha3, country, ...(country === 'by' ? ['Белоруссия'] : [])]) COUNTRY_BY_WORD.set(foldName(word), country);
}

/**
 * The installed countries a request reaches: Russia unless its locations name others (`country_iso_code: "KZ"`,
 * `country: "Казахстан"`), every installed one for `country: "*"`. A country it names that is not installed: none.
 */
export function requestCountries(engine: Engine, locations: DadataLocation[] | undefined): Country[] {
  const installed = engine.countries();
  const named = new Set<Country>();
  let any = false;
  for (const location of locations ?? []) {
    for (const member of ['country', 'country_iso_code'] as const) {
      const value = location[member]?.trim();
      if (!value) continue;
      if (value === '*') any = true;
      else {
        const country = COUNTRY_BY_WORD.get(foldName(value));
        if (country) named.add(country);
        else named.add('unknown' as Country);
      }
    }
  }
  if (any) return installed;
  if (named.size === 0) return installed.includes('ru') ? ['ru'] : [];
  return installed.filter((country) => named.has(country));
}

/** KLADR code groups: region 2, area 3, city 3, settlement 3, street 4. */
const KLADR_GROUPS = [2, 3, 3, 3, 4];
/** The DaData level the n-th significant KLADR group ends on. */
const KLADR_LEVEL: DadataLevel[] = ['region', 'area', 'city', 'settlement', 'street'];

/**
 * A `kladr_id` of a location as the prefix of the codes under it: its actuality digits dropped (13 → 11, 17 → 15),
 * then its trailing groups of zeros (`6600000100000` → `66000001`, Екатеринбург's; `77` → `77`). Null when it is
 * no KLADR code.
 */
export function kladrPrefix(code: string): { prefix: string; level: DadataLevel } | null {
  const digits = code.trim();
  if (!/^\d{2,19}$/.test(digits)) return null;
  const bare = digits.length === 13 || digits.length === 17 ? digits.slice(0, -2) : digits.length === 19 ? digits.slice(0, 15) : digits;
  const groups: string[] = [];
  let at = 0;
  for (const size of KLADR_GROUPS) {
    if (at >= bare.length) break;
    groups.push(bare.slice(at, at + size));
    at += size;
  }
  while (groups.length > 1 && /^0+$/.test(groups[groups.length - 1])) groups.pop();
  return { prefix: groups.join(''), level: KLADR_LEVEL[groups.length - 1] };
}

/** The full KLADR code (13 digits, 17 for a street) of a prefix, as the registry keys its places. */
function kladrCode(prefix: string): string {
  return prefix.length > 11 ? prefix.padEnd(15, '0') + '00' : prefix.padEnd(11, '0') + '00';
}

const FIAS_MEMBERS: [string, DadataLevel][] = [
  ['region_fias_id', 'region'], ['area_fias_id', 'area'], ['sub_area_fias_id', 'sub_area'], ['city_fias_id', 'city'],
  ['city_district_fias_id', 'city_district'], ['settlement_fias_id', 'settlement'], ['street_fias_id', 'street'],
];
const NAME_MEMBERS: DadataLevel[] = ['region', 'area', 'city', 'city_district', 'settlement', 'street'];

/** Our scope for one location and one geo circle: what narrows the engine's reading (the check is `inLocation`). */
export function scopeOf(location: DadataLocation | null, geo: DadataGeoLocation | null): Scope {
  const scope: Scope = {};
  if (location) {
    const kladr = location.kladr_id ? kladrPrefix(location.kladr_id) : null;
    if (kladr) scope.kladr = kladrCode(kladr.prefix);
    // the deepest FIAS id given: the place the hints must lie in
    for (let i = FIAS_MEMBERS.length - 1; i >= 0; i--) {
      const value = location[FIAS_MEMBERS[i][0]]?.trim();
      if (value) {
        scope.fias = value.toLowerCase();
        break;
      }
    }
    if (location.region) scope.regionName = location.region;
    const place = location.city || location.settlement;
    if (place) scope.name = place;
    if (location.street) scope.streetName = location.street;
    if (location.postal_code) scope.postcode = location.postal_code.trim();
  }
  if (geo) scope.coordinates = { latitude: geo.lat, longitude: geo.lon, radius: geo.radius_meters ?? 100 };
  return scope;
}

/** Scopes of a request: each location with each geo circle (members ANDed within one, scopes ORed). */
export function scopesOf(locations: DadataLocation[] | undefined, geos: DadataGeoLocation[] | undefined): Scope[] | undefined {
  const places = (locations ?? []).filter((location) => Object.entries(location).some(([key, value]) => value && value.trim() !== '' && !(key.startsWith('country') && value.trim() === '*')));
  const circles = geos ?? [];
  if (places.length === 0 && circles.length === 0) return undefined;
  const scopes: Scope[] = [];
  for (const place of places.length ? places : [null]) {
    for (const circle of circles.length ? circles : [null]) scopes.push(scopeOf(place, circle));
  }
  return scopes.filter((scope) => Object.keys(scope).length > 0);
}

/** A record's KLADR codes without their actuality digits, deepest last. */
function kladrCodes(data: DadataAddress): string[] {
  const codes = [data.region_kladr_id, data.area_kladr_id, data.city_kladr_id, data.settlement_kladr_id, data.street_kladr_id, data.kladr_id];
  return codes.filter((code): code is string => Boolean(code)).map((code) => (code.length === 13 || code.length === 17 ? code.slice(0, -2) : code));
}

/** Does the record lie in the location, as DaData states it: every member given holds (names compared without case). */
export function inLocation(data: DadataAddress, location: DadataLocation): boolean {
  for (const [member, raw] of Object.entries(location)) {
    const value = raw?.trim();
    if (!value) continue;
    if (member === 'country' || member === 'country_iso_code') {
      if (value === '*') continue;
      const country = COUNTRY_BY_WORD.get(foldName(value));
      if (!country || COUNTRY_INFO[country].alpha2 !== data.country_iso_code) return false;
    } else if (member === 'kladr_id') {
      const kladr = kladrPrefix(value);
      if (!kladr || !kladrCodes(data).some((code) => code.startsWith(kladr.prefix))) return false;
    } else if (member.endsWith('_fias_id')) {
      if (foldName(String(data[member as keyof DadataAddress] ?? '')) !== foldName(value)) return false;
    } else if (member === 'postal_code' || member === 'region_iso_code' || member.endsWith('_type_full') || NAME_MEMBERS.includes(member as DadataLevel)) {
      if (foldName(String(data[member as keyof DadataAddress] ?? '')) !== foldName(value)) return false;
    }
  }
  return true;
}

/** The deepest level a location pins (what restrict_value leaves out of the value), or null. */
export function pinnedLevel(location: DadataLocation): DadataLevel | null {
  let deepest = -1;
  const order: DadataLevel[] = ['region', 'area', 'sub_area', 'city', 'city_district', 'settlement', 'street'];
  const pin = (level: DadataLevel): void => {
    deepest = Math.max(deepest, order.indexOf(level));
  };
  const kladr = location.kladr_id ? kladrPrefix(location.kladr_id) : null;
  if (kladr) pin(kladr.level);
  for (const [member, level] of FIAS_MEMBERS) if (location[member]?.trim()) pin(level);
  for (const level of NAME_MEMBERS) if (location[level]?.trim() || location[`${level}_type_full`]?.trim()) pin(level);
  if (location.region_iso_code?.trim()) pin('region');
  return deepest < 0 ? null : order[deepest];
}

/** fias_level values each bound covers. */
const BOUND_LEVELS: Record<DadataBound, number[]> = {
  country: [0], region: [1], area: [3], city: [4, 5], settlement: [6, 65], street: [7], house: [8, 75], flat: [9],
};

/** Is the record's level within from_bound … to_bound? */
export function withinBounds(data: DadataAddress, from: DadataBound | undefined, to: DadataBound | undefined): boolean {
  if (!from && !to) return true;
  const level = Number(data.fias_level);
  const bound = DADATA_BOUNDS.find((name) => BOUND_LEVELS[name].includes(level));
  if (!bound) return false;
  const at = DADATA_BOUNDS.indexOf(bound);
  return (!from || at >= DADATA_BOUNDS.indexOf(from)) && (!to || at <= DADATA_BOUNDS.indexOf(to));
}

/** Hints of one record each (places written alike as one, as the native hints list them). */
export function uniqueHints(items: { record: AddressRecord; suggestion: DadataSuggestion }[]): DadataSuggestion[] {
  const kept = new Set(onePerPlace(items.map((item) => item.record)));
  return items.filter((item) => kept.has(item.record)).map((item) => item.suggestion);
}

/** Lists of several countries, one from each in turn (each list keeps its order). */
export function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((list) => i < list.length); i++) for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}
