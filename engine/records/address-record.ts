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
  type ApartmentInfo, type CodesOut, type Country, type Dictionary, type HouseInfo, type HouseParts, type LevelKey,
  type MetroHit, type ObjectInfo, type Quality, type Resolution,
} from '../types.js';
import { collapseToWords } from '../engine.js';
import { completeHouseParts, emptyHouseParts, hasHouseParts, houseFullName } from './house-details.js';
import { foldName, shared } from './shared.js';
import { levelFullName } from '../type-placement.js';

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

/** An object's name folded for comparing places (trimmed, lower case, ё as е), kept per object: levels repeat in every record. */
const FOLDED_NAMES = new WeakMap<ObjectInfo, string>();
function foldedName(object: ObjectInfo): string {
  let folded = FOLDED_NAMES.get(object);
  if (folded === undefined) {
    folded = foldName(object.name);
    FOLDED_NAMES.set(object, folded);
  }
  return folded;
}

/** A federal city of Russia (one of FEDERAL_CITIES, by name). */
function isFederalCity(object: ObjectInfo): boolean {
  return FEDERAL_CITIES.has(foldedName(object));
}

/** A Russian federal city (a region) and a city of the same name under it: one place. */
function sameCity(region: ObjectInfo, city: ObjectInfo): boolean {
  return isFederalCity(region) && foldedName(region) === foldedName(city);
}

/** The objects behind a Resolution. */
export interface ResolvedObjects {
  levels: Record<LevelKey, ObjectInfo | null>;
  house: HouseInfo | null;
  apartment: ApartmentInfo | null;
  /** what the levels alone give, kept per place (`resolveObjects`; absent where the levels were put together by hand) */
  place?: Place;
}

/**
 * A place: the objects of a resolution's eight levels and what a record takes from them alone — its level records,
 * whether it has an address, the postcode, point and timezone its levels lend, the registry codes DaData's record
 * shows. The rows of a file, and the requests of a server, come back to the same streets and cities again and again,
 * so `resolveObjects` works each place out once and keeps it (per dictionary, bounded: emptied when full) by the
 * resolution's level ids; only the house and the flat are read per record. Frozen: it is shared by every record of
 * the place, and the answers are those of the same values worked out each time (a unit test holds them equal).
 */
export interface Place {
  /** the resolution's level ids in LEVEL_KEYS order (the key) */
  readonly ids: readonly number[];
  readonly levels: Readonly<Record<LevelKey, ObjectInfo | null>>;
  /** the levels of a clean record (`recordLevels`, the municipal level shown) */
  readonly records: Readonly<RecordLevels>;
  /** a level has a fullName: a record of the place has an address even without a house part */
  readonly named: boolean;
  /** `postcodeOf` without a house, and with a house whose own postcode is not valid */
  readonly postcode: string;
  readonly housePostcode: string;
  /** `coordinatesOf` without a house (or a house without a point) */
  readonly point: Readonly<{ latitude: number; longitude: number; geo: number }>;
  /** `timezoneOf` */
  readonly timezone: string;
  /** OKATO, OKTMO and tax office of the deepest level that has each (dadata-record.ts `registryCodes`) */
  readonly codes: Readonly<RegistryCodes>;
}

export interface RegistryCodes {
  okato?: string;
  oktmo?: string;
  taxOffice?: string;
}

/** Places kept per dictionary, at most this many (then forgotten, and kept anew). */
const PLACE_CACHE_SIZE = 65_536;
const PLACES = new WeakMap<Dictionary, Map<number, Place>>();

/** The resolution's place: kept, or worked out and kept. */
function placeOf(ids: Record<LevelKey, number>, dictionary: Dictionary): Place {
  let places = PLACES.get(dictionary);
  if (!places) PLACES.set(dictionary, (places = new Map()));
  // keyed by the deepest id (mostly the place itself), checked against all eight
  const key = deepestId(ids);
  const known = places.get(key);
  if (known !== undefined && sameIds(known.ids, ids)) return known;
  const place = newPlace(ids, dictionary);
  if (places.size >= PLACE_CACHE_SIZE) places.clear();
  places.set(key, place);
  return place;
}

/*
 * The ids are read by name, deepest first, in LEVEL_KEYS order: not by keys from that list (`ids[LEVEL_KEYS[i]]`),
 * a keyed read of eight names at one place, V8's slowest kind, which made these two ≈1 % of a file's row.
 */

if (LEVEL_KEYS.join() !== 'region,area,municipal,city,cityArea,settlement,planStructure,street') throw new Error('sameIds reads the levels in an order LEVEL_KEYS no longer has');

const isId = (id: number | undefined): id is number => typeof id === 'number' && id >= 0;

/** The deepest level's id, -1 for none. */
function deepestId(ids: Record<LevelKey, number>): number {
  if (isId(ids.street)) return ids.street;
  if (isId(ids.planStructure)) return ids.planStructure;
  if (isId(ids.settlement)) return ids.settlement;
  if (isId(ids.cityArea)) return ids.cityArea;
  if (isId(ids.city)) return ids.city;
  if (isId(ids.municipal)) return ids.municipal;
  if (isId(ids.area)) return ids.area;
  return isId(ids.region) ? ids.region : -1;
}

/** The kept ids (LEVEL_KEYS order) are the resolution's. */
function sameIds(kept: readonly number[], ids: Record<LevelKey, number>): boolean {
  return kept[0] === (ids.region ?? -1) && kept[1] === (ids.area ?? -1) && kept[2] === (ids.municipal ?? -1) && kept[3] === (ids.city ?? -1) &&
    kept[4] === (ids.cityArea ?? -1) && kept[5] === (ids.settlement ?? -1) && kept[6] === (ids.planStructure ?? -1) && kept[7] === (ids.street ?? -1);
}

function newPlace(ids: Record<LevelKey, number>, dictionary: Dictionary): Place {
  const levels = levelObjects(ids, dictionary);
  const alone: ResolvedObjects = { levels, house: null, apartment: null };
  const records = recordLevels(alone, 'clean');
  let named = false;
  for (const key of LEVEL_KEYS) named ||= (records[key]?.fullName ?? '') !== '';
  const place: Place = {
    ids: LEVEL_KEYS.map((key) => ids[key] ?? -1),
    levels,
    records,
    named,
    postcode: postcodeOf(alone, dictionary.country),
    housePostcode: levelPostcode(levels, dictionary.country, false),
    point: coordinatesOf(alone),
    timezone: timezoneOf(alone),
    codes: levelCodes(levels),
  };
  return Object.freeze(place);
}

/** OKATO, OKTMO and tax office of the deepest level that has each (the municipal level aside). */
export function levelCodes(levels: Readonly<Record<LevelKey, ObjectInfo | null>>): RegistryCodes {
  const codes: RegistryCodes = {};
  for (let i = LEVEL_KEYS.length - 1; i >= 0; i--) {
    const object = levels[LEVEL_KEYS[i]];
    if (!object || LEVEL_KEYS[i] === 'municipal') continue;
    codes.okato ??= object.okato || undefined;
    codes.oktmo ??= object.oktmo || undefined;
    codes.taxOffice ??= object.ifns || undefined;
  }
  return codes;
}

function objectOrNull(dictionary: Dictionary, id: number): ObjectInfo | null {
  return Number.isInteger(id) && id >= 0 && id < dictionary.objectCount ? dictionary.object(id) : null;
}

function municipalOrNull(dictionary: Dictionary, id: number): ObjectInfo | null {
  return Number.isInteger(id) && id >= 0 && id < dictionary.municipalCount ? dictionary.municipal(id) : null;
}

export function resolveObjects(resolution: Resolution, dictionary: Dictionary): ResolvedObjects {
  const place = placeOf(resolution.levels, dictionary);
  const house = Number.isInteger(resolution.house) && resolution.house >= 0 && resolution.house < dictionary.houseCount ? dictionary.house(resolution.house) : null;
  const apartment = Number.isInteger(resolution.apartment) && resolution.apartment >= 0 && resolution.apartment < dictionary.apartmentCount
    ? dictionary.apartment(resolution.apartment)
    : null;
  return { levels: place.levels as Record<LevelKey, ObjectInfo | null>, house, apartment, place };
}

/** The objects of the levels (frozen: a place's are shared by its records). */
function levelObjects(ids: Record<LevelKey, number>, dictionary: Dictionary): Record<LevelKey, ObjectInfo | null> {
  const levels: Record<LevelKey, ObjectInfo | null> = {
    region: objectOrNull(dictionary, ids.region ?? -1),
    area: objectOrNull(dictionary, ids.area ?? -1),
    municipal: municipalOrNull(dictionary, ids.municipal ?? -1),
    city: objectOrNull(dictionary, ids.city ?? -1),
    cityArea: objectOrNull(dictionary, ids.cityArea ?? -1),
    settlement: objectOrNull(dictionary, ids.settlement ?? -1),
    planStructure: objectOrNull(dictionary, ids.planStructure ?? -1),
    street: objectOrNull(dictionary, ids.street ?? -1),
  };
  const city = levels.city;
  // Russia's federal cities are the region; `city` stays empty (conventions.md). Elsewhere the dictionary
  // decides: Ukraine's cities of special status (Київ, and Севастополь in its data) are a region and a city
  // (docs/DECISIONS.md).
  const russia = dictionary.country === 'ru';
  if (city && !levels.region && russia && isFederalCity(city)) levels.region = city;
  if (city && levels.region && (levels.region.id === city.id || (russia && sameCity(levels.region, city)))) levels.city = null;
  return Object.freeze(levels) as Record<LevelKey, ObjectInfo | null>;
}

const EMPTY_CODES: CodesRecord = shared({ fias: '', ga: '', osm: '', gar: '', kladr: '' });
const EMPTY_LEVEL: LevelRecord = shared({ fullName: '', name: '', type: '', codes: EMPTY_CODES });

/** The empty codes (shared and frozen, like every part a record may share with others). */
export function emptyCodes(): CodesRecord {
  return EMPTY_CODES;
}

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '');

export function codesRecord(codes: Partial<CodesOut> | undefined | null): CodesRecord {
  if (!codes) return EMPTY_CODES;
  return {
    fias: str(codes.fias).toLowerCase(),
    ga: str(codes.ga).toUpperCase(),
    osm: str(codes.osm).toUpperCase(),
    gar: str(codes.gar),
    kladr: str(codes.kladr),
  };
}

export function emptyLevel(): LevelRecord {
  return EMPTY_LEVEL;
}

/**
 * Level records of the objects the dictionary keeps (its ObjectInfo are cached and frozen): records repeat
 * the same regions, cities and streets, so each level is built, frozen and serialized once (json.ts).
 */
const LEVEL_OF = new WeakMap<ObjectInfo, LevelRecord>();

export function levelRecord(object: ObjectInfo | null): LevelRecord {
  if (!object) return EMPTY_LEVEL;
  const known = LEVEL_OF.get(object);
  if (known) return known;
  const name = str(object.name);
  const type = str(object.type);
  const level = { fullName: levelFullName(name, type), name, type, codes: codesRecord(object.codes) };
  if (!Object.isFrozen(object)) return level;
  LEVEL_OF.set(object, shared(level));
  return level;
}

/** The `country` member: one shared object per country. */
const COUNTRY_RECORD = Object.fromEntries(
  (Object.entries(COUNTRY_INFO) as [Country, CountryInfo][]).map(([country, info]) => [country, shared({ ...info })]),
) as Record<Country, CountryInfo>;

/** A postcode as each country writes it: six digits, five in Ukraine. */
const POSTCODE: Record<Country, RegExp> = { ru: /^\d{6}$/, kz: /^\d{6}$/, by: /^\d{6}$/, ua: /^\d{5}$/ };

/** Levels whose postcode a house or street below them without one takes: places small enough to have one. */
const POSTCODE_SHARED_BY: ReadonlySet<LevelKey> = new Set<LevelKey>(['street', 'planStructure', 'settlement']);

/**
 * The answer's postcode: the house's, else its street's, plan structure's or settlement's; the answer's own when
 * the answer is a place. A city's, district's or region's postcode (their main post office: Moscow's 101000) is
 * never lent to a house or street below them, where it would be wrong.
 */
export function postcodeOf(objects: ResolvedObjects, country: Country): string {
  const valid = POSTCODE[country];
  if (objects.house && valid.test(str(objects.house.postcode))) return str(objects.house.postcode);
  const place = objects.place;
  if (place) return objects.house ? place.housePostcode : place.postcode;
  return levelPostcode(objects.levels, country, !objects.house);
}

/** The postcode the levels give: the deepest level's when it is the answer, else the one of a small place. */
function levelPostcode(levels: Readonly<Record<LevelKey, ObjectInfo | null>>, country: Country, answer: boolean): string {
  const valid = POSTCODE[country];
  for (const key of DEEPEST_FIRST) {
    const level = levels[key];
    if (!level) continue;
    const postcode = str(level.postcode);
    if ((answer || POSTCODE_SHARED_BY.has(key)) && valid.test(postcode)) return postcode;
    answer = false;
  }
  return '';
}

const hasPoint = (lat: number, lon: number): boolean =>
  Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/** Coordinates of the most precise object that has them, and that object's level (quality.geo). */
export function coordinatesOf(objects: ResolvedObjects): { latitude: number; longitude: number; geo: number } {
  const house = objects.house;
  if (house && hasPoint(house.lat, house.lon)) return { latitude: house.lat, longitude: house.lon, geo: HOUSE_LEVEL };
  if (objects.place) return objects.place.point;
  for (const key of DEEPEST_FIRST) {
    const object = objects.levels[key];
    if (object && hasPoint(object.lat, object.lon)) return { latitude: object.lat, longitude: object.lon, geo: LEVEL_NUMBER[key] };
  }
  return { latitude: 0, longitude: 0, geo: 0 };
}

const TIMEZONES = new Map<string, string>();

/** `UTC+3`; `+03:00`, `3`, `UTC+03` are normalized; anything else → "". (A dictionary has a few distinct values: kept.) */
export function normalizeTimezone(value: string): string {
  let normalized = TIMEZONES.get(value);
  if (normalized === undefined) {
    normalized = parseTimezone(value);
    if (TIMEZONES.size < 1000) TIMEZONES.set(value, normalized);
  }
  return normalized;
}

function parseTimezone(value: string): string {
  const match = /^(?:UTC|GMT)?\s*([+-−])?\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(value.trim());
  if (!match) return '';
  const sign = match[1] === '-' || match[1] === '−' ? '-' : '+';
  const hours = Number(match[2]);
  const minutes = match[3] && match[3] !== '00' ? `:${match[3]}` : '';
  return `UTC${sign}${hours}${minutes}`;
}

export function timezoneOf(objects: ResolvedObjects): string {
  if (objects.place) return objects.place.timezone;
  for (const key of DEEPEST_FIRST) {
    const timezone = normalizeTimezone(str(objects.levels[key]?.timezone));
    if (timezone) return timezone;
  }
  return '';
}

/**
 * The records of a hint list, as POST /suggest/address and the browser engine answer it: the first `count` matched
 * resolutions (`picked`), one per place (`onePerPlace`).
 */
export function pickHints(resolutions: Resolution[], dictionary: Dictionary, count: number, original: string): { picked: Resolution[]; records: AddressRecord[] } {
  const picked = resolutions.filter((resolution) => resolution.matched).slice(0, count);
  return { picked, records: onePerPlace(picked.map((resolution) => buildAddressRecord(resolution, dictionary, { method: 'suggest', original }))) };
}

/** The records of a hint list (`pickHints`) alone. */
export const hintRecords = (resolutions: Resolution[], dictionary: Dictionary, count: number, original: string): AddressRecord[] =>
  pickHints(resolutions, dictionary, count, original).records;

/**
 * Hints of places written alike where one stands above the other (`joinAddress`: Ukraine's region м Київ and its city
 * м Київ are both `м Київ`) are one hint: the deeper (the city, with its levels) in the place the first had. Places
 * of one name side by side (two villages of a district) stay two; hints of houses are left alone.
 */
export function onePerPlace(records: AddressRecord[]): AddressRecord[] {
  if (records.length < 2) return records;
  const out: AddressRecord[] = [];
  for (const record of records) {
    const at = record.houseDetails.fullName ? -1 : out.findIndex((other) => !other.houseDetails.fullName && other.address === record.address);
    if (at < 0) out.push(record);
    else if (levelsWithin(out[at], record)) out[at] = record;
    else if (!levelsWithin(record, out[at])) out.push(record);
  }
  return out;
}

/** Every level `outer` has, `inner` has too, with the same code: `outer` is a place on `inner`'s way up. */
function levelsWithin(outer: AddressRecord, inner: AddressRecord): boolean {
  return LEVEL_KEYS.every((key) => !outer[key]?.fullName || outer[key]?.codes.ga === inner[key]?.codes.ga);
}

/**
 * The levels' fullNames joined by `, `, a level spelled as the one before it written once (Ukraine's Київ is a region
 * and a city of one name: `м Київ, вул Саксаганського`, not `м Київ, м Київ, …`; docs/DECISIONS.md).
 */
export function joinAddress(levels: Record<LevelKey, LevelRecord | null>): string {
  let address = '';
  let last = '';
  for (const key of LEVEL_KEYS) {
    const fullName = levels[key]?.fullName;
    if (!fullName || fullName === last) continue;
    address = address ? `${address}, ${fullName}` : fullName;
    last = fullName;
  }
  return address;
}

function additionalRecord(house: HouseInfo | null, apartment: ApartmentInfo | null): AdditionalRecord {
  if (!house && !apartment) return EMPTY_ADDITIONAL;
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

/** HouseDetails in interface order; one literal, not a spread of the parts (it runs for every record). */
function houseDetailsLiteral(
  fullName: string, p: HouseParts, codes: CodesRecord | null, apartmentCodes: CodesRecord | null, additional: AdditionalRecord | null,
): HouseDetailsRecord {
  return {
    fullName, house: p.house, case: p.case, build: p.build, liter: p.liter, lend: p.lend, constr: p.constr, stead: p.stead,
    entr: p.entr, floor: p.floor, flat: p.flat, office: p.office, room: p.room, kab: p.kab, place: p.place, block: p.block,
    pav: p.pav, sek: p.sek, abon: p.abon, munit: p.munit, codes, apartmentCodes, additional,
  };
}

const EMPTY_ADDITIONAL: AdditionalRecord = shared({ houseIsMultiFlat: false, houseFlatCount: '', houseCadnum: '', apartmentCadnum: '' });
const EMPTY_HOUSE_DETAILS = shared(houseDetailsLiteral('', emptyHouseParts(), EMPTY_CODES, null, null));
const EMPTY_HOUSE_DETAILS_WITH_APARTMENT = shared(houseDetailsLiteral('', emptyHouseParts(), EMPTY_CODES, EMPTY_CODES, EMPTY_ADDITIONAL));

/** A record without a house part (most hints are streets and places) gets a shared empty one. */
function houseDetailsRecord(
  fullName: string, parts: HouseParts, codes: CodesRecord | null, apartmentCodes: CodesRecord | null, additional: AdditionalRecord | null,
): HouseDetailsRecord {
  if (fullName === '' && codes === EMPTY_CODES) {
    if (apartmentCodes === null && additional === null) return EMPTY_HOUSE_DETAILS;
    if (apartmentCodes === EMPTY_CODES && additional === EMPTY_ADDITIONAL) return EMPTY_HOUSE_DETAILS_WITH_APARTMENT;
  }
  return houseDetailsLiteral(fullName, parts, codes, apartmentCodes, additional);
}

/** The eight levels of a record, in interface order (key order is part of the golden answers). */
type RecordLevels = Pick<AddressRecord, LevelKey>;

function recordLevels(objects: ResolvedObjects | null, method: RecordMethod): RecordLevels {
  if (objects?.place && !MUNICIPAL_NULL.has(method)) return objects.place.records;
  const levels = objects?.levels;
  return {
    region: levelRecord(levels?.region ?? null),
    area: levelRecord(levels?.area ?? null),
    municipal: MUNICIPAL_NULL.has(method) ? null : levelRecord(levels?.municipal ?? null),
    city: levelRecord(levels?.city ?? null),
    cityArea: levelRecord(levels?.cityArea ?? null),
    settlement: levelRecord(levels?.settlement ?? null),
    planStructure: levelRecord(levels?.planStructure ?? null),
    street: levelRecord(levels?.street ?? null),
  };
}

/** The quality of an input nothing matched (conventions.md, ours): {0,0,2,0,0,0}, a new object each time. */
const nothingQuality = (): Quality => ({ unique: 0, actuality: 0, undefined: 2, level: 0, house: 0, geo: 0 });

/** What is left of an input nothing matched: the engine's cleaned input (punctuation alone is none: `!!!` leaves nothing). */
const cleanedInput = (resolution: Resolution, options: BuildOptions): string => str(resolution.undefinedParts) || collapseToWords(options.original);

/** The record for an input nothing matched (conventions.md, ours): levels empty, quality {0,0,2,0,0,0}. */
function nothingMatched(resolution: Resolution, dictionary: Dictionary, options: BuildOptions): AddressRecord {
  const withApartment = WITH_APARTMENT.has(options.method);
  return assemble(options, recordLevels(null, options.method), {
    address: '',
    addressFull: '',
    postcodeIn: str(resolution.postcodeIn),
    postcode: '',
    houseDetails: houseDetailsRecord('', emptyHouseParts(), EMPTY_CODES, withApartment ? EMPTY_CODES : null, withApartment ? additionalRecord(null, null) : null),
    coordinates: { latitude: 0, longitude: 0 },
    country: COUNTRY_RECORD[dictionary.country],
    valid: false,
    quality: nothingQuality(),
    timezone: '',
    undefinedParts: cleanedInput(resolution, options),
    metro: [],
  });
}

type RecordBody = Omit<AddressRecord, 'original' | LevelKey> & Required<Pick<AddressRecord, 'postcodeIn' | 'valid' | 'quality' | 'undefinedParts' | 'metro'>>;

/**
 * Orders the members as interface.md lists them and drops what the method does not show. Members are
 * assigned one by one in that order (one path for both shapes, two fast hidden classes), not spread:
 * this runs once per record and spreads cost more than the engine call.
 */
function assemble(options: BuildOptions, levels: RecordLevels, body: RecordBody): AddressRecord {
  const full = options.method !== 'suggest';
  const record = {} as AddressRecord;
  if (full) record.original = options.method === 'geosearch' ? '' : options.original;
  record.address = body.address;
  record.addressFull = body.addressFull;
  if (full) record.postcodeIn = body.postcodeIn;
  record.postcode = body.postcode;
  for (const key of LEVEL_KEYS) (record as RecordLevels)[key] = levels[key] as LevelRecord;
  record.houseDetails = body.houseDetails;
  record.coordinates = body.coordinates;
  record.country = body.country;
  if (full) {
    record.valid = body.valid;
    record.quality = body.quality;
  }
  record.timezone = body.timezone;
  if (full) {
    record.undefinedParts = body.undefinedParts;
    record.metro = body.metro;
  }
  return record;
}

function metroRecords(hits: MetroHit[]): MetroRecord[] {
  const records: MetroRecord[] = [];
  for (let i = 0; i < hits.length && i < 3; i++) {
    const hit = hits[i];
    records.push({ name: str(hit.name), line: str(hit.line), city: str(hit.city), distance: Math.round(hit.distance) });
  }
  return records;
}

/**
 * A hint is the same record whenever the same hint comes up: the engine hands out the same frozen Resolution for
 * the same house or object (engine.ts `hint`), and its record, frozen and shared (json.ts keeps its bytes too), is
 * kept beside it for as long as the engine keeps the hint.
 */
const HINT_RECORDS = new WeakMap<Resolution, AddressRecord>();

/** `objects`: the resolution's objects when the caller has them already (`resolveObjects`). */
export function buildAddressRecord(resolution: Resolution, dictionary: Dictionary, options: BuildOptions, objects?: ResolvedObjects | null): AddressRecord {
  if (!resolution.matched) return nothingMatched(resolution, dictionary, options);
  const kept = options.method === 'suggest' && Object.isFrozen(resolution);
  if (kept) {
    const known = HINT_RECORDS.get(resolution);
    if (known) return known;
  }
  const record = buildFromParts(resolution, dictionary, options, objects ?? resolveObjects(resolution, dictionary));
  if (kept) HINT_RECORDS.set(resolution, shared(record));
  return record;
}

function buildFromParts(resolution: Resolution, dictionary: Dictionary, options: BuildOptions, resolved: ResolvedObjects): AddressRecord {
  const parts = partsOf(resolution, resolved);
  const houseLine = houseFullName(parts);
  const levels = recordLevels(resolved, options.method);
  const withApartment = WITH_APARTMENT.has(options.method);
  const houseDetails = houseDetailsRecord(
    houseLine,
    parts,
    codesRecord(resolved.house?.codes),
    withApartment ? codesRecord(resolved.apartment?.codes) : null,
    withApartment ? additionalRecord(resolved.house, resolved.apartment) : null,
  );

  const address = joinAddress(levels);
  const point = coordinatesOf(resolved);
  const quality = qualityOf(resolution, point.geo);
  const postcodeIn = str(resolution.postcodeIn);
  return assemble(options, levels, {
    address,
    addressFull: address && houseLine ? `${address}, ${houseLine}` : address || houseLine,
    postcodeIn: POSTCODE[dictionary.country].test(postcodeIn) ? postcodeIn : '',
    postcode: postcodeOf(resolved, dictionary.country),
    houseDetails,
    coordinates: { latitude: point.latitude, longitude: point.longitude },
    country: COUNTRY_RECORD[dictionary.country],
    valid: quality.unique < 2 && quality.undefined < 2,
    quality,
    timezone: timezoneOf(resolved),
    undefinedParts: str(resolution.undefinedParts),
    metro: metroOf(options, point),
  });
}

/** The house part to show: the parsed parts completed from the registry house and apartment. */
function partsOf(resolution: Resolution, resolved: ResolvedObjects): HouseParts {
  return completeHouseParts(resolution.parts, resolved.house, resolved.apartment, resolution.quality.house === 4);
}

/** The engine's quality with `geo` the level of the object whose coordinates the record has. */
function qualityOf(resolution: Resolution, geo: number): Quality {
  const given = resolution.quality;
  return { unique: given.unique, actuality: given.actuality, undefined: given.undefined, level: given.level, house: given.house, geo };
}

/** clean: the nearest stations, when the address is located to the street or house and the caller asked for them. */
function metroOf(options: BuildOptions, point: { latitude: number; longitude: number; geo: number }): MetroRecord[] {
  return options.method === 'clean' && options.nearestMetro && point.geo >= LEVEL_NUMBER.street
    ? metroRecords(options.nearestMetro(point.latitude, point.longitude))
    : [];
}

/**
 * What a clean record is made of besides its lines of text (`address`, `addressFull`, the house part's `fullName`)
 * and the input's echo: the members DaData's record is mapped from (dadata-record.ts `dadataClean`), for a file's
 * rows and DaData's cleaner, which never show our record. Each member is the one `buildAddressRecord` with method
 * `clean` gives; `found`: its address or addressFull would not be empty.
 */
export type CleanParts = Pick<AddressRecord, LevelKey | 'country' | 'postcode' | 'coordinates' | 'timezone'> & {
  houseDetails: HouseParts & Pick<HouseDetailsRecord, 'codes' | 'apartmentCodes' | 'additional'>;
  quality: Quality;
  undefinedParts: string;
  metro: MetroRecord[];
  found: boolean;
  /** the place of the levels (`resolveObjects`), null when nothing matched */
  place: Place | null;
};

export function cleanParts(resolution: Resolution, dictionary: Dictionary, options: BuildOptions, objects?: ResolvedObjects | null): CleanParts {
  const country = COUNTRY_RECORD[dictionary.country];
  if (!resolution.matched) {
    const houseDetails = emptyHouseParts() as CleanParts['houseDetails'];
    houseDetails.codes = EMPTY_CODES;
    houseDetails.apartmentCodes = EMPTY_CODES;
    houseDetails.additional = EMPTY_ADDITIONAL;
    return partsLiteral(
      recordLevels(null, 'clean'), houseDetails, country, '', 0, 0, '', nothingQuality(), cleanedInput(resolution, options), [], false, null,
    );
  }
  const resolved = objects ?? resolveObjects(resolution, dictionary);
  const houseDetails = partsOf(resolution, resolved) as CleanParts['houseDetails'];
  const levels = recordLevels(resolved, 'clean');
  let found = resolved.place ? resolved.place.named || hasHouseParts(houseDetails) : hasHouseParts(houseDetails);
  // a loop, not a closure per call: this runs for every row of a file
  for (let i = 0; i < LEVEL_KEYS.length && !found && !resolved.place; i++) found = (levels[LEVEL_KEYS[i]]?.fullName ?? '') !== '';
  houseDetails.codes = codesRecord(resolved.house?.codes);
  houseDetails.apartmentCodes = codesRecord(resolved.apartment?.codes);
  houseDetails.additional = additionalRecord(resolved.house, resolved.apartment);
  const point = coordinatesOf(resolved);
  return partsLiteral(
    levels, houseDetails, country, postcodeOf(resolved, dictionary.country), point.latitude, point.longitude, timezoneOf(resolved),
    qualityOf(resolution, point.geo), str(resolution.undefinedParts), metroOf(options, point), found, resolved.place ?? null,
  );
}

/**
 * Clean parts, matched or not, made by this one literal: every CleanParts object has the one shape (V8's map), so the
 * code reading them (DaData's mapping, for every row of a file) stays monomorphic. A second literal for the rows
 * nothing matched (a spread of the empty levels) made a new shape for each such row, and turned every read of the
 * parts megamorphic after a few of them.
 */
function partsLiteral(
  levels: RecordLevels, houseDetails: CleanParts['houseDetails'], country: CleanParts['country'], postcode: string, latitude: number,
  longitude: number, timezone: string, quality: Quality, undefinedParts: string, metro: MetroRecord[], found: boolean, place: Place | null,
): CleanParts {
  return {
    region: levels.region, area: levels.area, municipal: levels.municipal, city: levels.city,
    cityArea: levels.cityArea, settlement: levels.settlement, planStructure: levels.planStructure, street: levels.street,
    houseDetails, country, postcode, coordinates: { latitude, longitude }, timezone, quality, undefinedParts, metro, found, place,
  };
}
