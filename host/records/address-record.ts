/**
 * AddressRecord (interface.md, conventions.md) from an engine `Resolution` and the country's `Dictionary`.
 * What each method shows differs only in a few members, chosen by `method`:
 *   clean      all members, metro, houseDetails.apartmentCodes and .additional
 *   idsearch   municipal null, apartmentCodes and additional, metro []
 *   center     municipal null, apartmentCodes and additional null, metro []
 *   geosearch  municipal null, apartmentCodes and additional null, metro [], original ""
 *   suggest    no original, postcodeIn, valid, quality, undefinedParts, metro
 */
import { COUNTRY_INFO, type CountryInfo } from '../countries.js';
import {
  LEVEL_KEYS,
  type ApartmentInfo, type CodesOut, type Dictionary, type HouseInfo, type HouseParts, type LevelKey,
  type MetroHit, type ObjectInfo, type Quality, type Resolution,
} from '../engine/types.js';
import { completeHouseParts, emptyHouseParts, houseFullName } from './house-details.js';
import { levelFullName } from './type-placement.js';

export type RecordMethod = 'clean' | 'suggest' | 'idsearch' | 'center' | 'geosearch';

export interface CodesRecord {
  fias: string;
  ga: string;
  osm: string;
  gar: string;
  kladr: string;
}

export interface LevelRecord {
  fullName: string;
  name: string;
  type: string;
  codes: CodesRecord;
}

export interface AdditionalRecord {
  houseIsMultiFlat: boolean;
  houseFlatCount: string;
  houseCadnum: string;
  apartmentCadnum: string;
}

export type HouseDetailsRecord = { fullName: string } & HouseParts & {
  codes: CodesRecord | null;
  apartmentCodes: CodesRecord | null;
  additional: AdditionalRecord | null;
};

export interface MetroRecord {
  name: string;
  line: string;
  city: string;
  distance: number;
}

export interface AddressRecord {
  original?: string;
  address: string;
  addressFull: string;
  postcodeIn?: string;
  postcode: string;
  region: LevelRecord;
  area: LevelRecord;
  municipal: LevelRecord | null;
  city: LevelRecord;
  cityArea: LevelRecord;
  settlement: LevelRecord;
  planStructure: LevelRecord;
  street: LevelRecord;
  houseDetails: HouseDetailsRecord;
  coordinates: { latitude: number; longitude: number };
  country: CountryInfo;
  valid?: boolean;
  quality?: Quality;
  timezone: string;
  undefinedParts?: string;
  metro?: MetroRecord[];
}

/** Quality level numbers of the levels (conventions.md); municipal is a parallel hierarchy, not on the scale. */
export const LEVEL_NUMBER: Record<LevelKey, number> = {
  region: 1, area: 2, municipal: 0, city: 3, cityArea: 4, settlement: 5, planStructure: 6, street: 7,
};
export const HOUSE_LEVEL = 8;

/** Levels from the most precise to the least, for postcode, coordinates and timezone. */
const DEEPEST_FIRST: LevelKey[] = ['street', 'planStructure', 'settlement', 'cityArea', 'city', 'area', 'region'];

export const FEDERAL_CITIES = new Set(['москва', 'санкт-петербург', 'севастополь', 'байконур']);

/** A Russian federal city (a region) and a city of the same name under it: one place. */
function sameCity(region: ObjectInfo, city: ObjectInfo): boolean {
  return FEDERAL_CITIES.has(region.name.toLowerCase())
    && region.name.trim().toLowerCase().replace(/ё/g, 'е') === city.name.trim().toLowerCase().replace(/ё/g, 'е');
}

/** The objects behind a Resolution. */
export interface ResolvedObjects {
  levels: Record<LevelKey, ObjectInfo | null>;
  house: HouseInfo | null;
  apartment: ApartmentInfo | null;
}

function objectOrNull(dictionary: Dictionary, id: number): ObjectInfo | null {
  return Number.isInteger(id) && id >= 0 && id < dictionary.objectCount ? dictionary.object(id) : null;
}

export function resolveObjects(resolution: Resolution, dictionary: Dictionary): ResolvedObjects {
  const levels = {} as Record<LevelKey, ObjectInfo | null>;
  for (const key of LEVEL_KEYS) levels[key] = objectOrNull(dictionary, resolution.levels[key] ?? -1);
  const city = levels.city;
  // Russia's federal cities are the region; `city` stays empty (conventions.md). Elsewhere the dictionary
  // decides: Ukraine's cities of special status are a region and a city (docs/DECISIONS.md).
  if (city && FEDERAL_CITIES.has(city.name.toLowerCase()) && !levels.region) levels.region = city;
  if (city && levels.region && (levels.region.id === city.id || sameCity(levels.region, city))) levels.city = null;
  const house = Number.isInteger(resolution.house) && resolution.house >= 0 && resolution.house < dictionary.houseCount ? dictionary.house(resolution.house) : null;
  const apartment = Number.isInteger(resolution.apartment) && resolution.apartment >= 0 && resolution.apartment < dictionary.apartmentCount
    ? dictionary.apartment(resolution.apartment)
    : null;
  return { levels, house, apartment };
}

export function emptyCodes(): CodesRecord {
  return { fias: '', ga: '', osm: '', gar: '', kladr: '' };
}

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '');

export function codesRecord(codes: Partial<CodesOut> | undefined | null): CodesRecord {
  if (!codes) return emptyCodes();
  return {
    fias: str(codes.fias).toLowerCase(),
    ga: str(codes.ga).toUpperCase(),
    osm: str(codes.osm).toUpperCase(),
    gar: str(codes.gar),
    kladr: str(codes.kladr),
  };
}

export function emptyLevel(): LevelRecord {
  return { fullName: '', name: '', type: '', codes: emptyCodes() };
}

export function levelRecord(object: ObjectInfo | null): LevelRecord {
  if (!object) return emptyLevel();
  const name = str(object.name);
  const type = str(object.type);
  return { fullName: levelFullName(name, type), name, type, codes: codesRecord(object.codes) };
}

const POSTCODE = /^\d{6}$/;

export function postcodeOf(objects: ResolvedObjects): string {
  if (objects.house && POSTCODE.test(str(objects.house.postcode))) return str(objects.house.postcode);
  for (const key of DEEPEST_FIRST) {
    const postcode = str(objects.levels[key]?.postcode);
    if (POSTCODE.test(postcode)) return postcode;
  }
  return '';
}

const hasPoint = (lat: number, lon: number): boolean =>
  Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/** Coordinates of the most precise object that has them, and that object's level (quality.geo). */
export function coordinatesOf(objects: ResolvedObjects): { latitude: number; longitude: number; geo: number } {
  const house = objects.house;
  if (house && hasPoint(house.lat, house.lon)) return { latitude: house.lat, longitude: house.lon, geo: HOUSE_LEVEL };
  for (const key of DEEPEST_FIRST) {
    const object = objects.levels[key];
    if (object && hasPoint(object.lat, object.lon)) return { latitude: object.lat, longitude: object.lon, geo: LEVEL_NUMBER[key] };
  }
  return { latitude: 0, longitude: 0, geo: 0 };
}

/** `UTC+3`; `+03:00`, `3`, `UTC+03` are normalized; anything else → "". */
export function normalizeTimezone(value: string): string {
  const match = /^(?:UTC|GMT)?\s*([+-−])?\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(value.trim());
  if (!match) return '';
  const sign = match[1] === '-' || match[1] === '−' ? '-' : '+';
  const hours = Number(match[2]);
  const minutes = match[3] && match[3] !== '00' ? `:${match[3]}` : '';
  return `UTC${sign}${hours}${minutes}`;
}

export function timezoneOf(objects: ResolvedObjects): string {
  for (const key of DEEPEST_FIRST) {
    const timezone = normalizeTimezone(str(objects.levels[key]?.timezone));
    if (timezone) return timezone;
  }
  return '';
}

export function joinAddress(levels: Record<LevelKey, LevelRecord | null>): string {
  const names: string[] = [];
  for (const key of LEVEL_KEYS) {
    const fullName = levels[key]?.fullName;
    if (fullName) names.push(fullName);
  }
  return names.join(', ');
}

function additionalRecord(house: HouseInfo | null, apartment: ApartmentInfo | null): AdditionalRecord {
  return {
    houseIsMultiFlat: Boolean(house?.multiFlat),
    houseFlatCount: house && house.flatCount > 0 ? String(Math.trunc(house.flatCount)) : '',
    houseCadnum: str(house?.cadnum),
    apartmentCadnum: str(apartment?.cadnum),
  };
}

export interface BuildOptions {
  method: RecordMethod;
  /** the input string (clean), the queried id (idsearch, center); ignored for geosearch and suggest */
  original: string;
  /** clean only: the nearest stations of a point, nearest first; asked when the address is located to the street or house */
  nearestMetro?: (latitude: number, longitude: number) => MetroHit[];
}

const WITH_APARTMENT = new Set<RecordMethod>(['clean', 'idsearch']);
const MUNICIPAL_NULL = new Set<RecordMethod>(['idsearch', 'center', 'geosearch']);

/** The record for an input nothing matched (conventions.md, ours): levels empty, quality {0,0,2,0,0,0}. */
function nothingMatched(resolution: Resolution, dictionary: Dictionary, options: BuildOptions): AddressRecord {
  const empty = {} as Record<LevelKey, LevelRecord | null>;
  for (const key of LEVEL_KEYS) empty[key] = emptyLevel();
  if (MUNICIPAL_NULL.has(options.method)) empty.municipal = null;
  const cleaned = str(resolution.undefinedParts) || options.original.replace(/\s+/g, ' ').trim();
  return assemble(options, {
    address: '',
    addressFull: '',
    postcodeIn: str(resolution.postcodeIn),
    postcode: '',
    levels: empty,
    houseDetails: {
      fullName: '', ...emptyHouseParts(), codes: emptyCodes(),
      apartmentCodes: WITH_APARTMENT.has(options.method) ? emptyCodes() : null,
      additional: WITH_APARTMENT.has(options.method) ? additionalRecord(null, null) : null,
    },
    coordinates: { latitude: 0, longitude: 0 },
    country: COUNTRY_INFO[dictionary.country],
    valid: false,
    quality: { unique: 0, actuality: 0, undefined: 2, level: 0, house: 0, geo: 0 },
    timezone: '',
    undefinedParts: cleaned,
    metro: [],
  });
}

type RecordBody = Omit<AddressRecord, 'original' | LevelKey> & { levels: Record<LevelKey, LevelRecord | null> } & Required<Pick<AddressRecord, 'postcodeIn' | 'valid' | 'quality' | 'undefinedParts' | 'metro'>>;

/**
 * Orders the members as interface.md lists them and drops what the method does not show. Two plain
 * literals, not conditional spreads: this runs once per record and spreads cost more than the engine call.
 */
function assemble(options: BuildOptions, body: RecordBody): AddressRecord {
  const { levels } = body;
  const municipal = MUNICIPAL_NULL.has(options.method) ? null : (levels.municipal ?? emptyLevel());
  // the eight levels in interface order, shared by both shapes (key order is part of the golden answers)
  const levelObjects = {
    region: levels.region ?? emptyLevel(),
    area: levels.area ?? emptyLevel(),
    municipal,
    city: levels.city ?? emptyLevel(),
    cityArea: levels.cityArea ?? emptyLevel(),
    settlement: levels.settlement ?? emptyLevel(),
    planStructure: levels.planStructure ?? emptyLevel(),
    street: levels.street ?? emptyLevel(),
  };
  if (options.method === 'suggest') {
    return {
      address: body.address,
      addressFull: body.addressFull,
      postcode: body.postcode,
      ...levelObjects,
      houseDetails: body.houseDetails,
      coordinates: body.coordinates,
      country: body.country,
      timezone: body.timezone,
    };
  }
  return {
    original: options.method === 'geosearch' ? '' : options.original,
    address: body.address,
    addressFull: body.addressFull,
    postcodeIn: body.postcodeIn,
    postcode: body.postcode,
    ...levelObjects,
    houseDetails: body.houseDetails,
    coordinates: body.coordinates,
    country: body.country,
    valid: body.valid,
    quality: body.quality,
    timezone: body.timezone,
    undefinedParts: body.undefinedParts,
    metro: body.metro,
  };
}

export function buildAddressRecord(resolution: Resolution, dictionary: Dictionary, options: BuildOptions): AddressRecord {
  if (!resolution.matched) return nothingMatched(resolution, dictionary, options);
  const objects = resolveObjects(resolution, dictionary);
  const levels = {} as Record<LevelKey, LevelRecord | null>;
  for (const key of LEVEL_KEYS) levels[key] = levelRecord(objects.levels[key]);
  if (MUNICIPAL_NULL.has(options.method)) levels.municipal = null;

  const parts = completeHouseParts(resolution.parts, objects.house, objects.apartment);
  const houseLine = houseFullName(parts);
  const withApartment = WITH_APARTMENT.has(options.method);
  const houseDetails: HouseDetailsRecord = {
    fullName: houseLine,
    ...parts,
    codes: codesRecord(objects.house?.codes),
    apartmentCodes: withApartment ? codesRecord(objects.apartment?.codes) : null,
    additional: withApartment ? additionalRecord(objects.house, objects.apartment) : null,
  };

  const address = joinAddress(levels);
  const point = coordinatesOf(objects);
  const quality: Quality = { ...resolution.quality, geo: point.geo };
  const metro = options.method === 'clean' && options.nearestMetro && point.geo >= LEVEL_NUMBER.street
    ? options.nearestMetro(point.latitude, point.longitude).slice(0, 3).map((hit) => ({
      name: str(hit.name), line: str(hit.line), city: str(hit.city), distance: Math.round(hit.distance),
    }))
    : [];
  return assemble(options, {
    address,
    addressFull: address && houseLine ? `${address}, ${houseLine}` : address || houseLine,
    postcodeIn: POSTCODE.test(str(resolution.postcodeIn)) ? str(resolution.postcodeIn) : '',
    postcode: postcodeOf(objects),
    levels,
    houseDetails,
    coordinates: { latitude: point.latitude, longitude: point.longitude },
    country: COUNTRY_INFO[dictionary.country],
    valid: quality.unique < 2 && quality.undefined < 2,
    quality,
    timezone: timezoneOf(objects),
    undefinedParts: str(resolution.undefinedParts),
    metro,
  });
}
