/**
 * The address record of DaData's API (`data` of a suggestion, an item of the cleaner's answer) from our
 * AddressRecord: `dadataAddress(record, extras)`, a pure function; `dadataClean(parts, extras)` the same from the parts
 * of a clean record (address-record.ts `cleanParts`: the record without its lines of text, for the cleaner and files);
 * `dadataSuggestion` wraps it as
 * `{value, unrestricted_value, data}`. One mapping for every output that speaks DaData (the facade's routes,
 * files written for DaData's tools). What we do not know is null, never made up; docs/DADATA.md lists each field,
 * where it comes from, and the qc* and fias_level scales.
 *
 * Levels: region, area, city, city_district (our cityArea), settlement (our settlement, else our plan structure),
 * street (our street, else a plan structure under a settlement). `*_with_type` is our level's fullName,
 * `*_type_full` the type written out (dadata-types.json, from the dictionaries' types.tsv). The municipal level is
 * area or sub_area when `division` is `municipal`.
 */
import { readFileSync } from 'node:fs';
import type { LevelKey, Quality } from '../types.js';
import { levelCodes, type AddressRecord, type CleanParts, type LevelRecord, type MetroRecord, type Place, type ResolvedObjects } from './address-record.js';
import TYPES from './dadata-types.json' with { type: 'json' };
import { stringText } from './json.js';
import { foldName, writesJson, type JsonOut } from './shared.js';
import { transliterate } from './transliterate.js';

/** The levels of DaData's record that carry `*_fias_id, *_kladr_id, *_with_type, *_type, *_type_full, *` */
export const DADATA_LEVELS = ['region', 'area', 'sub_area', 'city', 'city_district', 'settlement', 'street'] as const;
export type DadataLevel = (typeof DADATA_LEVELS)[number];

/** Bounds of from_bound/to_bound, shallow to deep. */
export const DADATA_BOUNDS = ['country', 'region', 'area', 'city', 'settlement', 'street', 'house', 'flat'] as const;
export type DadataBound = (typeof DADATA_BOUNDS)[number];

type Text = string | null;

export interface DadataMetro {
  name: string;
  line: string;
  /** kilometres, to 0.1 */
  distance: number;
}

/** Every field of DaData's address record, in the order DaData documents them. */
export interface DadataAddress {
  source: Text;
  result: Text;
  postal_code: Text;
  country: Text;
  country_iso_code: Text;
  federal_district: Text;
  region_fias_id: Text; region_kladr_id: Text; region_iso_code: Text; region_with_type: Text; region_type: Text; region_type_full: Text; region: Text;
  area_fias_id: Text; area_kladr_id: Text; area_with_type: Text; area_type: Text; area_type_full: Text; area: Text;
  sub_area_fias_id: Text; sub_area_kladr_id: Text; sub_area_with_type: Text; sub_area_type: Text; sub_area_type_full: Text; sub_area: Text;
  city_fias_id: Text; city_kladr_id: Text; city_with_type: Text; city_type: Text; city_type_full: Text; city: Text;
  city_area: Text;
  city_district_fias_id: Text; city_district_kladr_id: Text; city_district_with_type: Text; city_district_type: Text; city_district_type_full: Text; city_district: Text;
  settlement_fias_id: Text; settlement_kladr_id: Text; settlement_with_type: Text; settlement_type: Text; settlement_type_full: Text; settlement: Text;
  street_fias_id: Text; street_kladr_id: Text; street_with_type: Text; street_type: Text; street_type_full: Text; street: Text;
  stead_fias_id: Text; stead_cadnum: Text; stead_type: Text; stead_type_full: Text; stead: Text;
  house_fias_id: Text; house_kladr_id: Text; house_cadnum: Text; house_type: Text; house_type_full: Text; house: Text;
  block_type: Text; block_type_full: Text; block: Text;
  entrance: Text;
  floor: Text;
  flat_fias_id: Text; flat_cadnum: Text; flat_type: Text; flat_type_full: Text; flat: Text;
  flat_area: Text; square_meter_price: Text; flat_price: Text;
  room_fias_id: Text; room_cadnum: Text; room_type: Text; room_type_full: Text; room: Text;
  postal_box: Text;
  fias_id: Text;
  fias_code: Text;
  fias_level: Text;
  fias_actuality_state: Text;
  kladr_id: Text;
  geoname_id: Text;
  capital_marker: Text;
  okato: Text;
  oktmo: Text;
  tax_office: Text;
  tax_office_legal: Text;
  timezone: Text;
  geo_lat: Text;
  geo_lon: Text;
  beltway_hit: Text;
  beltway_distance: Text;
  metro: DadataMetro[] | null;
  divisions: null;
  /** suggestions: a string ('0'…'5'); the cleaner: a number */
  qc_geo: string | number | null;
  qc_complete: number | null;
  qc_house: number | null;
  history_values: string[] | null;
  unparsed_parts: Text;
  qc: number | null;
}

/** The record's fields in DaData's order (the order `dadataAddress` writes them; the response schema lists them). */
export const DADATA_ADDRESS_FIELDS: readonly (keyof DadataAddress)[] = [
  'source', 'result', 'postal_code', 'country', 'country_iso_code', 'federal_district',
  ...DADATA_LEVELS.flatMap((level) => [
    `${level}_fias_id`, `${level}_kladr_id`, ...(level === 'region' ? ['region_iso_code'] : []), `${level}_with_type`, `${level}_type`,
    `${level}_type_full`, level, ...(level === 'city' ? ['city_area'] : []),
  ] as (keyof DadataAddress)[]),
  'stead_fias_id', 'stead_cadnum', 'stead_type', 'stead_type_full', 'stead',
  'house_fias_id', 'house_kladr_id', 'house_cadnum', 'house_type', 'house_type_full', 'house',
  'block_type', 'block_type_full', 'block', 'entrance', 'floor',
  'flat_fias_id', 'flat_cadnum', 'flat_type', 'flat_type_full', 'flat', 'flat_area', 'square_meter_price', 'flat_price',
  'room_fias_id', 'room_cadnum', 'room_type', 'room_type_full', 'room', 'postal_box',
  'fias_id', 'fias_code', 'fias_level', 'fias_actuality_state', 'kladr_id', 'geoname_id', 'capital_marker',
  'okato', 'oktmo', 'tax_office', 'tax_office_legal', 'timezone', 'geo_lat', 'geo_lon', 'beltway_hit', 'beltway_distance',
  'metro', 'divisions', 'qc_geo', 'qc_complete', 'qc_house', 'history_values', 'unparsed_parts', 'qc',
];

/**
 * Members whose text the mapping makes itself: numbers (`fias_level`, the qc codes, the point's coordinates as
 * `String(number)`) and the fixed words of HOUSE_TYPES. Their text holds letters, digits, `.`, `+` and `-` alone
 * (PLAIN_CHARACTER): never a quote, a line break, a space or any other character a CSV writer must quote, so one may
 * write them as they are (cli/batch/batch.ts) when its delimiter is not among those characters.
 */
export const DADATA_PLAIN_MEMBERS: ReadonlySet<keyof DadataAddress> = new Set<keyof DadataAddress>([
  'fias_level', 'fias_actuality_state', 'capital_marker', 'geo_lat', 'geo_lon', 'qc', 'qc_geo', 'qc_complete', 'qc_house',
  'stead_type', 'stead_type_full', 'house_type', 'house_type_full', 'block_type', 'block_type_full', 'flat_type', 'flat_type_full',
  'room_type', 'room_type_full',
]);

/** A character the text of a plain member (DADATA_PLAIN_MEMBERS) may hold. */
export const PLAIN_CHARACTER = /^[\p{L}\p{N}.+-]$/u;

/** What an AddressRecord does not carry and a caller may know. All optional; absent means null. */
export interface DadataExtras {
  /** OKATO, OKTMO and tax office (IFNS) of the address: its deepest level that has them */
  okato?: string;
  oktmo?: string;
  taxOffice?: string;
  /** quality.geo when the record has no quality (a hint) */
  geo?: number;
  /** cleaner: the input string (`source`); also fills `result` and the qc* codes */
  source?: string;
  /** `municipal`: the municipal entity is the area (or sub_area for a settlement-level one) */
  division?: 'administrative' | 'municipal';
}

export interface DadataSuggestion {
  value: string;
  unrestricted_value: string;
  data: DadataAddress;
}

export interface SuggestionView {
  /** `en`: names and types transliterated (transliterate.ts) */
  language?: 'ru' | 'en';
  /** value shows only the parts from `from` to `to` (from_bound/to_bound) */
  from?: DadataBound;
  to?: DadataBound;
  /** value leaves out the levels up to this one (restrict_value under locations) */
  restrictTo?: DadataLevel | null;
}

/** A value trimmed, null when empty. */
function nonEmpty(value: string | undefined | null): Text {
  if (!value) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Region facts by country and key (dadata-regions.tsv). */
interface RegionFacts {
  iso: Text;
  federalDistrict: Text;
  capital: Text;
  capitalFolded: string;
}


const REGIONS: Map<string, RegionFacts> = (() => {
  const table = new Map<string, RegionFacts>();
  const tsv = readFileSync(new URL('./dadata-regions.tsv', import.meta.url), 'utf8');
  for (const line of tsv.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [country, key, iso, federalDistrict, capital] = line.split('\t');
    table.set(`${country}:${foldName(key)}`, { iso: nonEmpty(iso), federalDistrict: nonEmpty(federalDistrict), capital: nonEmpty(capital), capitalFolded: foldName(capital ?? '') });
  }
  return table;
})();

/** The region's facts, kept beside a shared region level (the same few regions come up in every record). */
const FACTS_OF = new WeakMap<LevelRecord, { country: string; facts: RegionFacts | null }>();

function regionFacts(record: DadataSource): RegionFacts | null {
  const region = record.region;
  const country = record.country.alpha2;
  const known = FACTS_OF.get(region);
  if (known && known.country === country) return known.facts;
  const lower = country.toLowerCase();
  const key = lower === 'ru' ? region.codes.kladr.slice(0, 2) : region.name;
  const facts = key ? (REGIONS.get(`${lower}:${foldName(key)}`) ?? null) : null;
  if (Object.isFrozen(region)) FACTS_OF.set(region, { country, facts });
  return facts;
}

const TYPE_TABLES = TYPES as Record<string, Record<string, string>>;

/** `обл` → `область`; a type the table does not hold: null. */
export function typeFull(type: string, country: string): Text {
  if (!type) return null;
  const own = TYPE_TABLES[country.toLowerCase()];
  if (own && Object.hasOwn(own, type)) return own[type];
  return Object.hasOwn(TYPE_TABLES['*'], type) ? TYPE_TABLES['*'][type] : null;
}

interface LevelFields {
  fias_id: Text; kladr_id: Text; with_type: Text; type: Text; type_full: Text; name: Text;
  /** the name folded (foldName), for comparing with the region's centre */
  folded: string;
  country: string;
}

const NO_LEVEL: LevelFields = Object.freeze({ fias_id: null, kladr_id: null, with_type: null, type: null, type_full: null, name: null, folded: '', country: '' });

/**
 * A level's fields, kept beside a shared level (address-record.ts `levelRecord`: one per registry object), as the
 * same regions, cities and streets come up in record after record.
 */
const FIELDS_OF = new WeakMap<LevelRecord, LevelFields>();

function levelFields(level: LevelRecord | null | undefined, country: string): LevelFields {
  if (!level || !level.name) return NO_LEVEL;
  const known = FIELDS_OF.get(level);
  if (known && known.country === country) return known;
  const fields: LevelFields = {
    fias_id: nonEmpty(level.codes.fias),
    kladr_id: nonEmpty(level.codes.kladr),
    with_type: nonEmpty(level.fullName),
    type: nonEmpty(level.type),
    type_full: typeFull(level.type, country),
    name: nonEmpty(level.name),
    folded: '',
    country,
  };
  fields.folded = fields.name === null ? '' : foldName(fields.name);
  if (Object.isFrozen(level)) FIELDS_OF.set(level, Object.freeze(fields));
  return fields;
}

/** Municipal types that name a settlement-level municipality (sub_area); the others (м.р-н, г.о, м.о) are an area. */
const SUB_AREA_TYPES = new Set(['г.п', 'с.п', 'с/п', 'межсел.тер', 'вн.тер.г', 'вн.тер. г']);

/** Our levels in DaData's places. */
function dadataLevels(record: DadataSource, division: DadataExtras['division']): Record<DadataLevel, LevelFields> {
  const country = record.country.alpha2;
  const planStructure = record.planStructure?.name ? record.planStructure : null;
  const settlement = record.settlement?.name ? record.settlement : planStructure;
  const street = record.street?.name ? record.street : settlement === planStructure ? null : planStructure;
  const levels: Record<DadataLevel, LevelFields> = {
    region: levelFields(record.region, country),
    area: levelFields(record.area, country),
    sub_area: NO_LEVEL,
    city: levelFields(record.city, country),
    city_district: levelFields(record.cityArea, country),
    settlement: levelFields(settlement, country),
    street: levelFields(street, country),
  };
  if (division === 'municipal' && record.municipal?.name) {
    const municipal = levelFields(record.municipal, country);
    if (SUB_AREA_TYPES.has(record.municipal.type)) levels.sub_area = municipal;
    else levels.area = municipal;
  }
  return levels;
}

/** DaData's levels, the region's facts and the point's text of a place (address-record.ts `Place`), kept beside it. */
interface PlaceFields {
  country: string;
  levels: Record<DadataLevel, LevelFields>;
  facts: RegionFacts | null;
  /** `geo_lat`, `geo_lon` of the place's point (a number's shortest text is dear to make: kept) */
  latitude: Text;
  longitude: Text;
}
const PLACE_FIELDS = new WeakMap<Place, PlaceFields>();

/** `record`'s levels are `place`'s (clean parts: `cleanParts` takes them from the place). */
function placeFields(place: Place, record: DadataSource): PlaceFields {
  const country = record.country.alpha2;
  let known = PLACE_FIELDS.get(place);
  if (known === undefined || known.country !== country) {
    known = {
      country, levels: Object.freeze(dadataLevels(record, undefined)), facts: regionFacts(record),
      latitude: coordinate(place.point.latitude), longitude: coordinate(place.point.longitude),
    };
    PLACE_FIELDS.set(place, known);
  }
  return known;
}

/** A coordinate's text: the place's kept one when the record's point is the place's (no house point), else made. */
function coordinateText(value: number, placeValue: number | undefined, placeText: Text | undefined): Text {
  return placeText !== undefined && value === placeValue ? placeText : coordinate(value);
}

/** A designation's type as DaData writes it, and written out. */
const HOUSE_TYPES = {
  house: ['д', 'дом'], lend: ['влд', 'владение'], constr: ['соор', 'сооружение'],
  case: ['к', 'корпус'], build: ['стр', 'строение'], liter: ['лит', 'литера'],
  stead: ['уч', 'участок'],
  flat: ['кв', 'квартира'], office: ['офис', 'офис'], place: ['пом', 'помещение'], kab: ['каб', 'кабинет'],
  pav: ['пав', 'павильон'], block: ['блок', 'блок'], sek: ['секция', 'секция'],
  room: ['ком', 'комната'],
} as const;

const upper = (value: string): string => value.toUpperCase();

interface HouseFields {
  stead_type: Text; stead_type_full: Text; stead: Text;
  house_type: Text; house_type_full: Text; house: Text;
  block_type: Text; block_type_full: Text; block: Text;
  flat_type: Text; flat_type_full: Text; flat: Text;
  room_type: Text; room_type_full: Text; room: Text;
}

/** The house part in DaData's fields: дом (or владение, сооружение), корпус/строение/литера as the block, the flat, the room. */
function houseFields(record: DadataSource): HouseFields {
  const p = record.houseDetails;
  const fields: HouseFields = {
    stead_type: null, stead_type_full: null, stead: null, house_type: null, house_type_full: null, house: null,
    block_type: null, block_type_full: null, block: null, flat_type: null, flat_type_full: null, flat: null,
    room_type: null, room_type_full: null, room: null,
  };
  // plain reads by name, no loops over lists of names: this runs for every record (a read by a name taken from a
  // list, `p[key]`, is a keyed read of many names at one place; a destructured array, a closure per call cost more)
  if (p.stead) {
    fields.stead_type = HOUSE_TYPES.stead[0];
    fields.stead_type_full = HOUSE_TYPES.stead[1];
    fields.stead = upper(p.stead);
  }
  // the house: the first the address has of these
  if (p.house) setHouse(fields, HOUSE_TYPES.house, p.house);
  else if (p.lend) setHouse(fields, HOUSE_TYPES.lend, p.lend);
  else if (p.constr) setHouse(fields, HOUSE_TYPES.constr, p.constr);
  // after the house, in this order, into `block`: корпус, строение, литера, a сооружение when it is not the house
  addBlock(fields, HOUSE_TYPES.case, p.case);
  addBlock(fields, HOUSE_TYPES.build, p.build);
  addBlock(fields, HOUSE_TYPES.liter, p.liter);
  if (fields.house_type !== HOUSE_TYPES.constr[0]) addBlock(fields, HOUSE_TYPES.constr, p.constr);
  // the flat: the first the address has of these
  if (p.flat) setFlat(fields, HOUSE_TYPES.flat, p.flat);
  else if (p.office) setFlat(fields, HOUSE_TYPES.office, p.office);
  else if (p.place) setFlat(fields, HOUSE_TYPES.place, p.place);
  else if (p.kab) setFlat(fields, HOUSE_TYPES.kab, p.kab);
  else if (p.pav) setFlat(fields, HOUSE_TYPES.pav, p.pav);
  else if (p.block) setFlat(fields, HOUSE_TYPES.block, p.block);
  else if (p.sek) setFlat(fields, HOUSE_TYPES.sek, p.sek);
  if (p.room) {
    fields.room_type = HOUSE_TYPES.room[0];
    fields.room_type_full = HOUSE_TYPES.room[1];
    fields.room = upper(p.room);
  }
  return fields;
}

/** The house (дом, владение or сооружение) with its type. */
function setHouse(fields: HouseFields, type: readonly [string, string], value: string): void {
  fields.house_type = type[0];
  fields.house_type_full = type[1];
  fields.house = upper(value);
}

/** The flat (квартира, офис, помещение, …) with its type. */
function setFlat(fields: HouseFields, type: readonly [string, string], value: string): void {
  fields.flat_type = type[0];
  fields.flat_type_full = type[1];
  fields.flat = upper(value);
}

/** A корпус, строение, литера or сооружение into `block`: the first with its type, the next after it. */
function addBlock(fields: HouseFields, type: readonly [string, string], value: string): void {
  if (!value) return;
  if (fields.block === null) {
    fields.block_type = type[0];
    fields.block_type_full = type[1];
    fields.block = upper(value);
  } else fields.block += ` ${type[0]} ${upper(value)}`;
}

/**
 * fias_level (DaData: 0 country, 1 region, 3 area, 4 city, 5 city district, 6 settlement, 7 street, 8 house,
 * 9 flat, 65 plan structure, 75 land plot, -1 nothing): the deepest part found in the registry.
 */
export function fiasLevel(record: DadataSource): number {
  const details = record.houseDetails;
  const apartment = details.apartmentCodes;
  if (apartment && (apartment.fias || apartment.gar || apartment.ga)) return 9;
  if (houseFound(record)) return details.stead && !details.house ? 75 : 8;
  if (record.street?.name) return 7;
  if (record.planStructure?.name) return 65;
  if (record.settlement?.name) return 6;
  if (record.cityArea?.name) return 5;
  if (record.city?.name) return 4;
  if (record.area?.name) return 3;
  if (record.region?.name) return 1;
  return -1;
}

/** The registry's house is the record's: quality.house 3 (exact) when the record has quality, else a house part at all (hints are registry houses). */
function houseFound(record: DadataSource): boolean {
  const details = record.houseDetails;
  if (record.quality) return record.quality.house === 3;
  return Boolean(details.house || details.stead || details.lend || details.constr);
}

/** qc_geo (DaData: 0 house, 1 nearest house, 2 street, 3 settlement, 4 city, 5 not determined) from quality.geo. */
export function qcGeo(geo: number | undefined): number | null {
  if (geo === undefined) return null;
  if (geo >= 8) return 0;
  if (geo >= 6) return 2;
  if (geo === 5) return 3;
  if (geo >= 3) return 4;
  return 5;
}

/** qc (DaData: 0 sure, 1 leftovers or too little to be sure, 2 empty or garbage, 3 alternatives) from our quality. */
export function qcParse(quality: Quality, matched: boolean): number {
  if (!matched) return 2;
  if (quality.unique >= 1) return 3;
  if (quality.undefined >= 2 || quality.house === 4) return 1;
  return 0;
}

/** qc_house (DaData: 2 the house found exactly, 10 not found). */
export function qcHouse(quality: Quality): number {
  return quality.house === 3 ? 2 : 10;
}

/**
 * qc_complete (DaData: 0 fit for mail, 1 no region, 2 no city, 3 no street, 4 no house, 5 no flat (fit for a
 * company or a private house), 6 unfit, 7 foreign address, 8 to a post office box, 9 check the parse first,
 * 10 house not in the registry).
 */
export function qcComplete(record: DadataSource, qc: number): number {
  if (qc === 2) return 6;
  if (record.country.alpha2 !== 'RU') return 7;
  if (qc !== 0) return 9;
  const details = record.houseDetails;
  if (details.abon && !record.street?.name) return 8;
  if (!record.region?.name) return 1;
  if (!record.city?.name && !record.settlement?.name && !(record.region && isCityRegion(record))) return 2;
  if (!record.street?.name && !record.planStructure?.name && !houseFound(record)) return 3;
  if (!details.house && !details.stead && !details.lend && !details.constr) return 4;
  if (!houseFound(record)) return 10;
  if (!details.flat && !details.office && !details.place && !details.room && !details.kab) return 5;
  return 0;
}

/** A region that is a city (Москва, Санкт-Петербург, Севастополь, Байконур; Київ): `г`/`м` typed. */
function isCityRegion(record: DadataSource): boolean {
  return record.region.type === 'г' || record.region.type === 'м';
}

const coordinate = (value: number): Text => (Number.isFinite(value) && value !== 0 ? String(value) : null);

function metroOf(metro: MetroRecord[] | undefined): DadataMetro[] | null {
  if (!metro || metro.length === 0) return null;
  return metro.map((station) => ({ name: station.name, line: station.line, distance: Math.round(station.distance / 100) / 10 }));
}

/**
 * What the mapping reads of a record: an AddressRecord has it all; a clean record's parts (`CleanParts`) have it
 * without the lines of text the mapping does not read.
 */
export type DadataSource = Pick<AddressRecord, LevelKey | 'country' | 'postcode' | 'coordinates' | 'timezone' | 'quality' | 'undefinedParts' | 'metro'> & {
  houseDetails: CleanParts['houseDetails'];
  /** the place whose levels these are (clean parts), when it is known */
  place?: Place | null;
};

/** The address record DaData's API answers for `record`. Pure: the same arguments give the same record. */
export function dadataAddress(record: AddressRecord, extras: DadataExtras = {}): DadataAddress {
  return dadataRecord(record, record.address !== '' || record.addressFull !== '', extras);
}

/**
 * The record `dadataAddress` gives for the AddressRecord of the same resolution (`buildAddressRecord`, method
 * clean), from its parts alone (`cleanParts`): DaData's cleaner and the rows of a file, which never show our record.
 */
export function dadataClean(parts: CleanParts, extras: DadataExtras = {}): DadataAddress {
  return dadataRecord(parts, parts.found, extras);
}

/** The one mapping. `found`: the record has an address (its address or addressFull is not empty). */
function dadataRecord(record: DadataSource, found: boolean, extras: DadataExtras): DadataAddress {
  const placed = record.place && extras.division !== 'municipal' ? placeFields(record.place, record) : null;
  const levels = placed ? placed.levels : dadataLevels(record, extras.division);
  const house = houseFields(record);
  const details = record.houseDetails;
  const facts = placed ? placed.facts : regionFacts(record);
  const cleaner = extras.source !== undefined;
  const quality = record.quality;
  const geoLevel = quality ? quality.geo : extras.geo;
  const level = fiasLevel(record);
  const at = levelAt(levels, level);
  // the codes of the object at fias_level itself: an ancestor's would name another place
  const fiasId = level === 9 ? nonEmpty(details.apartmentCodes?.fias) : level === 8 || level === 75 ? nonEmpty(details.codes?.fias) : at?.fias_id ?? null;
  const qc = cleaner && quality ? qcParse(quality, found) : null;
  // the cleaner says coordinates were not determined (5) when nothing matched; a hint always matched
  const geo = found ? qcGeo(geoLevel) : cleaner ? 5 : null;
  const capital = facts?.capital && levels.city.name && levels.city.folded === facts.capitalFolded ? '2' : null;
  // one literal in DADATA_ADDRESS_FIELDS' order: the record keeps V8's fast properties (a hundred keys added one by
  // one, by computed names, would turn it into a dictionary, slower to build, read and serialize)
  const data: DadataAddress = {
    source: cleaner ? extras.source! : null,
    result: null,
    postal_code: nonEmpty(record.postcode),
    country: found || cleaner ? record.country.name : null,
    country_iso_code: found || cleaner ? record.country.alpha2 : null,
    federal_district: facts?.federalDistrict ?? null,
    region_fias_id: levels.region.fias_id, region_kladr_id: levels.region.kladr_id, region_iso_code: facts?.iso ?? null, region_with_type: levels.region.with_type,
    region_type: levels.region.type, region_type_full: levels.region.type_full, region: levels.region.name,
    area_fias_id: levels.area.fias_id, area_kladr_id: levels.area.kladr_id, area_with_type: levels.area.with_type,
    area_type: levels.area.type, area_type_full: levels.area.type_full, area: levels.area.name,
    sub_area_fias_id: levels.sub_area.fias_id, sub_area_kladr_id: levels.sub_area.kladr_id, sub_area_with_type: levels.sub_area.with_type,
    sub_area_type: levels.sub_area.type, sub_area_type_full: levels.sub_area.type_full, sub_area: levels.sub_area.name,
    city_fias_id: levels.city.fias_id, city_kladr_id: levels.city.kladr_id, city_with_type: levels.city.with_type,
    city_type: levels.city.type, city_type_full: levels.city.type_full, city: levels.city.name, city_area: null,
    city_district_fias_id: levels.city_district.fias_id, city_district_kladr_id: levels.city_district.kladr_id, city_district_with_type: levels.city_district.with_type,
    city_district_type: levels.city_district.type, city_district_type_full: levels.city_district.type_full, city_district: levels.city_district.name,
    settlement_fias_id: levels.settlement.fias_id, settlement_kladr_id: levels.settlement.kladr_id, settlement_with_type: levels.settlement.with_type,
    settlement_type: levels.settlement.type, settlement_type_full: levels.settlement.type_full, settlement: levels.settlement.name,
    street_fias_id: levels.street.fias_id, street_kladr_id: levels.street.kladr_id, street_with_type: levels.street.with_type,
    street_type: levels.street.type, street_type_full: levels.street.type_full, street: levels.street.name,
    stead_fias_id: house.stead && houseFound(record) && !details.house ? nonEmpty(details.codes?.fias) : null,
    stead_cadnum: null,
    stead_type: house.stead_type, stead_type_full: house.stead_type_full, stead: house.stead,
    house_fias_id: house.house && houseFound(record) ? nonEmpty(details.codes?.fias) : null,
    house_kladr_id: null,
    house_cadnum: nonEmpty(details.additional?.houseCadnum),
    house_type: house.house_type, house_type_full: house.house_type_full, house: house.house,
    block_type: house.block_type, block_type_full: house.block_type_full, block: house.block,
    entrance: nonEmpty(details.entr),
    floor: nonEmpty(details.floor),
    flat_fias_id: nonEmpty(details.apartmentCodes?.fias),
    flat_cadnum: nonEmpty(details.additional?.apartmentCadnum),
    flat_type: house.flat_type, flat_type_full: house.flat_type_full, flat: house.flat,
    flat_area: null, square_meter_price: null, flat_price: null,
    room_fias_id: null, room_cadnum: null, room_type: house.room_type, room_type_full: house.room_type_full, room: house.room,
    postal_box: nonEmpty(details.abon),
    fias_id: fiasId,
    fias_code: null,
    fias_level: found ? String(level) : cleaner ? '-1' : null,
    fias_actuality_state: fiasId ? '0' : null,
    kladr_id: at?.kladr_id ?? null,
    geoname_id: null,
    capital_marker: capital,
    okato: nonEmpty(extras.okato),
    oktmo: nonEmpty(extras.oktmo),
    tax_office: nonEmpty(extras.taxOffice),
    tax_office_legal: null,
    timezone: nonEmpty(record.timezone),
    geo_lat: coordinateText(record.coordinates.latitude, record.place?.point.latitude, placed?.latitude),
    geo_lon: coordinateText(record.coordinates.longitude, record.place?.point.longitude, placed?.longitude),
    beltway_hit: null,
    beltway_distance: null,
    metro: metroOf(record.metro),
    divisions: null,
    qc_geo: geo === null ? null : cleaner ? geo : String(geo),
    qc_complete: cleaner && quality ? qcComplete(record, qc!) : null,
    qc_house: cleaner && quality ? qcHouse(quality) : null,
    history_values: null,
    unparsed_parts: nonEmpty(record.undefinedParts),
    qc,
  };
  if (cleaner) data.result = found ? dadataValue(data) : null;
  return data;
}

/**
 * How `writeDadataJson` writes a record: member by member, but a level's members (`city_fias_id` … `city`, and
 * `region_iso_code` among the region's) as one run whose bytes are kept by the level's `*_with_type`: the same
 * regions, cities and streets come up in record after record, and their names and codes are then not escaped,
 * joined and encoded again. A kept run is used only when every member of the record equals the one it was written from.
 */
interface JsonRun {
  /** the run's members: from `at`, this many */
  at: number;
  count: number;
  /** the member whose value keys the kept runs */
  by: number;
  keys: string[];
  kept: Map<unknown, KeptRun>;
}
interface KeptRun { values: unknown[]; text: string; bytes: Uint8Array }

/** Kept runs per level, at most this many (then forgotten, and kept anew). */
const KEPT_RUNS = 10_000;

/** `,"member":` of each member, and the run that starts at a member (null for the others). */
const JSON_KEYS = DADATA_ADDRESS_FIELDS.map((field) => `,${JSON.stringify(field)}:`);
const JSON_RUNS: (JsonRun | null)[] = DADATA_ADDRESS_FIELDS.map((field, at) => {
  const level = DADATA_LEVELS.find((name) => field === `${name}_fias_id`);
  if (!level) return null;
  const end = DADATA_ADDRESS_FIELDS.indexOf(level, at);
  return { at, count: end + 1 - at, by: DADATA_ADDRESS_FIELDS.indexOf(`${level}_with_type`), keys: JSON_KEYS.slice(at, end + 1), kept: new Map() };
});

/** A member's value as JSON.stringify writes it (undefined: the member is left out). */
function memberJson(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return stringText(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      return JSON.stringify(value);
  }
}

/** A run's members, each after a comma: kept, or written and kept. */
function runJson(values: unknown[], run: JsonRun): KeptRun {
  const kept = run.kept.get(values[run.by]);
  if (kept !== undefined && sameValues(values, run.at, kept.values)) return kept;
  let text = '';
  const own = values.slice(run.at, run.at + run.count);
  for (let k = 0; k < run.count; k++) {
    const json = memberJson(own[k]);
    if (json !== undefined) text += run.keys[k] + json;
  }
  if (run.kept.size >= KEPT_RUNS) run.kept.clear();
  const written = { values: own, text, bytes: Buffer.from(text) };
  run.kept.set(values[run.by], written);
  return written;
}

function sameValues(values: unknown[], at: number, kept: unknown[]): boolean {
  for (let k = 0; k < kept.length; k++) if (values[at + k] !== kept[k]) return false;
  return true;
}

/**
 * Writes the JSON of a record `dadataAddress` or `dadataClean` made, equal to `JSON.stringify(data)`, for less
 * work: the members between the levels as text, each level's run as the bytes kept (JSON_RUNS). The record's
 * members are DADATA_ADDRESS_FIELDS in that order (one object literal makes every record); another object is given
 * to JSON.stringify.
 */
export function writeDadataJson(data: DadataAddress, out: JsonOut): void {
  // the values in member order (one call, where reading each member by its name would be a lookup per member)
  const values = Object.values(data);
  if (values.length !== DADATA_ADDRESS_FIELDS.length) {
    out.text(JSON.stringify(data));
    return;
  }
  let text = '{';
  let first = true;
  for (let i = 0; i < values.length; i++) {
    const run = JSON_RUNS[i];
    if (run === null) {
      const json = memberJson(values[i]);
      if (json === undefined) continue;
      text += (first ? JSON_KEYS[i].slice(1) : JSON_KEYS[i]) + json;
      first = false;
      continue;
    }
    i += run.count - 1;
    const kept = runJson(values, run);
    if (kept.text === '') continue;
    if (first) {
      // nothing before the run: its leading comma goes
      text += kept.text.slice(1);
      first = false;
      continue;
    }
    out.text(text);
    out.bytes(kept.bytes);
    text = '';
  }
  out.text(`${text}}`);
}

/** A list of DaData's records (the cleaner's answer) written by json.ts with `writeDadataJson` (shared.ts `writesJson`). */
export function dadataList(records: DadataAddress[]): DadataAddress[] {
  return writesJson(records, writeDadataList);
}

function writeDadataList(records: DadataAddress[], out: JsonOut): void {
  out.text('[');
  for (let i = 0; i < records.length; i++) {
    if (i > 0) out.text(',');
    writeDadataJson(records[i], out);
  }
  out.text(']');
}

/** DaData's level of each fias_level of a place. */
const LEVEL_OF_FIAS: Record<number, DadataLevel> = { 1: 'region', 3: 'area', 4: 'city', 5: 'city_district', 6: 'settlement', 65: 'settlement', 7: 'street' };

/** The fields of the place at `fiasLevel` (a plan structure sits in settlement's or street's fields); null for a house or flat. */
function levelAt(levels: Record<DadataLevel, LevelFields>, fiasLevel: number): LevelFields | null {
  // no street at 65: the street's fields hold the plan structure when a settlement holds the settlement's
  if (fiasLevel === 65) return levels.street.name ? levels.street : levels.settlement;
  const name = LEVEL_OF_FIAS[fiasLevel];
  return name ? levels[name] : null;
}

/** The level of DaData's record each from_bound/to_bound names (`house` and `flat`: the house part). */
const BOUND_OF: Record<DadataLevel, DadataBound> = {
  region: 'region', area: 'area', sub_area: 'area', city: 'city', city_district: 'city', settlement: 'settlement', street: 'street',
};

interface ValueOptions {
  /** unrestricted: the postcode first, the region and the area always */
  unrestricted?: boolean;
  from?: DadataBound;
  to?: DadataBound;
  restrictTo?: DadataLevel | null;
}

/** The bounds of a value as indexes into DADATA_BOUNDS (`from` … `to`, inclusive). */
interface BoundRange { from: number; to: number }

const BOUND_INDEX = Object.fromEntries(DADATA_BOUNDS.map((bound, i) => [bound, i])) as Record<DadataBound, number>;
const LEVEL_INDEX = Object.fromEntries(DADATA_LEVELS.map((level, i) => [level, i])) as Record<DadataLevel, number>;

/** A part of the value: its level's index in DADATA_LEVELS (-1 for the house and the flat) and its bound's in DADATA_BOUNDS. */
interface ValuePart { level: number; bound: number }

const levelPart = (level: DadataLevel): ValuePart => ({ level: LEVEL_INDEX[level], bound: BOUND_INDEX[BOUND_OF[level]] });
const boundPart = (bound: DadataBound): ValuePart => ({ level: -1, bound: BOUND_INDEX[bound] });

/**
 * The parts' indexes worked out once, read by name: `dadataValue` runs for every record, and a lookup by a level's
 * name in a table (`LEVEL_INDEX[level]`) at one place for every level is a keyed read of many names, V8's slowest kind.
 */
const PART = {
  country: boundPart('country'),
  region: levelPart('region'),
  area: levelPart('area'),
  city: levelPart('city'),
  settlement: levelPart('settlement'),
  street: levelPart('street'),
  house: boundPart('house'),
  flat: boundPart('flat'),
} as const;

const within = (part: ValuePart, range: BoundRange): boolean => part.bound >= range.from && part.bound <= range.to;

/**
 * The address in one line as DaData writes it: `г Екатеринбург, ул Вокзальная, д 15`. The short value leaves out
 * the region before its own centre (dadata-regions.tsv) and the area before a city; a foreign address (not
 * Russia's) starts with its country. The unrestricted value has the postcode, the region and the area.
 */
export function dadataValue(data: DadataAddress, options: ValueOptions = {}): string {
  let value = '';
  const restricted = options.restrictTo ? (LEVEL_INDEX[options.restrictTo] ?? -1) : -1;
  const range: BoundRange = {
    from: options.from ? (BOUND_INDEX[options.from] ?? -1) : 0,
    to: options.to ? (BOUND_INDEX[options.to] ?? -1) : DADATA_BOUNDS.length,
  };
  if (options.unrestricted) value = joined(value, data.postal_code);
  if (data.country_iso_code && data.country_iso_code !== 'RU' && restricted < 0 && within(PART.country, range)) value = joined(value, data.country);
  const cityIsCentre = data.capital_marker === '2';
  if (shows(PART.region, restricted, range) && (options.unrestricted || !cityIsCentre || options.from === 'region')) value = joined(value, data.region_with_type);
  if (shows(PART.area, restricted, range) && (options.unrestricted || !data.city)) value = joined(value, data.area_with_type);
  if (shows(PART.city, restricted, range) && data.city_with_type !== data.region_with_type) value = joined(value, data.city_with_type);
  if (shows(PART.settlement, restricted, range)) value = joined(value, data.settlement_with_type);
  if (shows(PART.street, restricted, range)) value = joined(value, data.street_with_type);
  if (within(PART.house, range)) {
    if (data.stead) value = joined(value, `${data.stead_type} ${data.stead}`);
    if (data.house) value = joined(value, data.block ? `${data.house_type} ${data.house} ${data.block_type} ${data.block}` : `${data.house_type} ${data.house}`);
  }
  if (within(PART.flat, range)) {
    if (data.flat) value = joined(value, `${data.flat_type} ${data.flat}`);
    if (data.room) value = joined(value, `${data.room_type} ${data.room}`);
    if (data.postal_box) value = joined(value, `а/я ${data.postal_box}`);
  }
  return value;
}

/** `value, text`; `value` alone when there is no text. (Module-level, not a closure of dadataValue: it runs for every record.) */
function joined(value: string, text: Text): string {
  if (!text) return value;
  return value === '' ? text : `${value}, ${text}`;
}

/** Whether the value shows `level`: deeper than the restricting level, and within the bounds. */
function shows(part: ValuePart, restricted: number, range: BoundRange): boolean {
  return part.level > restricted && within(part, range);
}

/** Every string of the record in Latin letters (names, types, values); codes and numbers stay. */
function transliterated(data: DadataAddress): DadataAddress {
  const out = { ...data } as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === 'string' && !key.endsWith('_id') && !key.startsWith('qc')) out[key] = transliterate(value);
    else if (Array.isArray(value) && key === 'metro') out[key] = (value as DadataMetro[]).map((s) => ({ ...s, name: transliterate(s.name), line: transliterate(s.line) }));
  }
  return out as unknown as DadataAddress;
}

/** `{value, unrestricted_value, data}` of a record, as DaData's suggestions and findById/geolocate list them. */
export function dadataSuggestion(record: AddressRecord, extras: DadataExtras = {}, view: SuggestionView = {}): DadataSuggestion {
  let data = dadataAddress(record, extras);
  if (view.language === 'en') data = transliterated(data);
  return {
    value: dadataValue(data, { from: view.from, to: view.to, restrictTo: view.restrictTo }),
    unrestricted_value: dadataValue(data, { unrestricted: true }),
    data,
  };
}

/** The cleaner's extras of one string (one shape, a literal: it runs for every row of a file): its registry codes and itself. */
export function cleanerExtras(objects: ResolvedObjects | null, source: string): DadataExtras {
  const codes = registryCodes(objects);
  return { okato: codes.okato, oktmo: codes.oktmo, taxOffice: codes.taxOffice, source };
}

/** OKATO, OKTMO and tax office of the deepest level that has each: what DaData's record takes from the registry. */
export function registryCodes(objects: ResolvedObjects | null): Pick<DadataExtras, 'okato' | 'oktmo' | 'taxOffice'> {
  if (!objects) return {};
  // a place's are kept with it (address-record.ts `Place`): shared and frozen, read, never changed
  return objects.place ? objects.place.codes : levelCodes(objects.levels);
}
