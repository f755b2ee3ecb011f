/**
 * The flat `c_` records of the legacy methods (interface.md "Legacy-format methods", conventions.md
 * "Legacy records"), built from the AddressRecord of the same resolution plus the registry attributes the
 * AddressRecord does not carry (OKATO, OKTMO, IFNS). All values are strings except `c_json_kvant`
 * (the found house members) and `c_coordinate` (numbers).
 */
import { HOUSE_PART_KEYS, type HousePartKey, type ObjectInfo } from '../types.js';
import type { AddressRecord, LevelRecord, ResolvedObjects } from './address-record.js';
import { emptyHouseParts, houseFullName } from './house-details.js';

export type JsonKvant = Partial<Record<HousePartKey, string>>;
export interface LegacyCoordinate {
  c_lon: number;
  c_lat: number;
  c_level: number;
}

/** c_house_error_desc / c_HouseStatus by quality.house. */
export const HOUSE_STATUS_TEXT: Record<number, string> = {
  0: 'Дом не найден',
  3: 'Дом найден',
  4: 'Дом найден частично',
  9: 'Номер дома не указан',
};

const houseStatus = (house: number): string => HOUSE_STATUS_TEXT[house] ?? '';

function jsonKvant(record: AddressRecord): JsonKvant {
  const kvant: JsonKvant = {};
  for (const key of HOUSE_PART_KEYS) if (record.houseDetails[key]) kvant[key] = record.houseDetails[key];
  return kvant;
}

/** `unique actuality undefined 0 house geo`: `000038` for {0,0,0,8,3,8}. */
export function statusError(record: AddressRecord): string {
  const q = record.quality ?? { unique: 0, actuality: 0, undefined: 2, level: 0, house: 0, geo: 0 };
  return [q.unique, q.actuality, q.undefined, 0, q.house, q.geo].map((n) => String(Math.max(0, Math.min(9, n)))).join('');
}

/** The deepest level that has a value for `pick` (street first), for KLADR, FIAS, OKATO and the like. */
function deepest(objects: ResolvedObjects | null, pick: (object: ObjectInfo) => string): string {
  if (!objects) return '';
  for (const key of ['street', 'planStructure', 'settlement', 'cityArea', 'city', 'area', 'region'] as const) {
    const object = objects.levels[key];
    const value = object ? pick(object) : '';
    if (value) return value.trim();
  }
  return '';
}

/**
 * The street of the legacy records: the street, else the plan structure (`6-й мкр`: KLADR keeps microdistricts
 * among the streets, and the legacy records have no level of their own for them).
 */
const streetLevel = (record: AddressRecord): LevelRecord => (record.street.name ? record.street : record.planStructure);

/**
 * The deepest level's code of `kind` among the levels that have one (street first): an OSM street has no KLADR or
 * FIAS code, and its city's is the most precise there is, as OKATO and OKTMO fall back (`deepest`).
 */
const deepestCode = (record: AddressRecord, kind: keyof LevelRecord['codes']): string => {
  for (const key of ['street', 'planStructure', 'settlement', 'cityArea', 'city', 'area', 'region'] as const) {
    if (record[key].name && record[key].codes[kind]) return record[key].codes[kind];
  }
  return '';
};

/** 19-digit KLADR (СС РРР ГГГ ППП УУУУ ДДДД): street code without actuality + 0000, object code likewise. */
export function kladr19(kladr: string): string {
  if (/^\d{17}$/.test(kladr)) return `${kladr.slice(0, 15)}0000`;
  if (/^\d{13}$/.test(kladr)) return `${kladr.slice(0, 11)}00000000`;
  if (/^\d{19}$/.test(kladr)) return kladr;
  return '';
}

function coordinate(record: AddressRecord): LegacyCoordinate {
  return { c_lon: record.coordinates.longitude, c_lat: record.coordinates.latitude, c_level: record.quality?.geo ?? 0 };
}

/** Attributes shared by searchAddressDetail, checkAddress and iqdq. */
function registryTail(record: AddressRecord, objects: ResolvedObjects | null) {
  return {
    c_kladr19: kladr19(deepestCode(record, 'kladr')),
    c_gninmb: deepest(objects, (o) => o.ifns),
    c_okato: deepest(objects, (o) => o.okato),
    c_oktmo: deepest(objects, (o) => o.oktmo),
    c_aoguid: deepestCode(record, 'fias'),
    c_aolevel: String(record.quality?.level ?? 0),
    c_houseguid: record.houseDetails.codes?.fias ?? '',
    c_timezone: record.timezone,
    c_coordinate: coordinate(record),
  };
}

export function searchAddressDetailRecord(record: AddressRecord, objects: ResolvedObjects | null) {
  return {
    c_ischeck: record.valid ? '1' : '0',
    c_index_in: record.postcodeIn ?? '',
    c_zipcode: record.postcode,
    c_address_original: record.original ?? '',
    c_address_full: record.address,
    c_kladr: deepestCode(record, 'kladr'),
    c_region_name: record.region.name,
    c_region_abbr: record.region.type,
    c_district_name: record.area.name,
    c_district_abbr: record.area.type,
    c_city_name: record.city.name,
    c_city_abbr: record.city.type,
    c_community_name: record.settlement.name,
    c_community_abbr: record.settlement.type,
    c_street_name: streetLevel(record).name,
    c_street_abbr: streetLevel(record).type,
    c_json_kvant: jsonKvant(record),
    c_house_str: record.houseDetails.fullName,
    c_addr_lost: record.undefinedParts ?? '',
    c_status_error: statusError(record),
    c_house_error: String(record.quality?.house ?? 0),
    c_house_error_desc: houseStatus(record.quality?.house ?? 0),
    ...registryTail(record, objects),
  };
}

function levelFias(record: AddressRecord) {
  return {
    c_region_fias: record.region.codes.fias,
    c_district_fias: record.area.codes.fias,
    c_city_fias: record.city.codes.fias,
    c_community_fias: record.settlement.codes.fias,
    c_street_fias: streetLevel(record).codes.fias,
  };
}

/** searchAddressDetailDHL (alias searchAddressDetailVariant): searchAddressDetail + the FIAS codes of the levels. */
export function searchAddressDetailVariantRecord(record: AddressRecord, objects: ResolvedObjects | null) {
  return { ...searchAddressDetailRecord(record, objects), ...levelFias(record) };
}

export function checkAddressRecord(record: AddressRecord, objects: ResolvedObjects | null) {
  const tail = registryTail(record, objects);
  return {
    c_ischeck: record.valid ? '1' : '0',
    c_index_in: record.postcodeIn ?? '',
    c_index_out: record.postcode,
    c_addr_in: record.original ?? '',
    c_addr_out: record.address,
    c_kladr: deepestCode(record, 'kladr'),
    c_json_kvant: jsonKvant(record),
    c_kvant: record.houseDetails.fullName,
    c_house_str: record.houseDetails.fullName,
    c_status_error: statusError(record),
    c_house_error_desc: houseStatus(record.quality?.house ?? 0),
    c_addr_lost: record.undefinedParts ?? '',
    ...tail,
  };
}

/** POST /clean/address/iqdq: searchAddressDetail + GA code, country and the FIAS codes of the levels. */
export function iqdqRecord(record: AddressRecord, objects: ResolvedObjects | null) {
  const gaCode = record.houseDetails.codes?.ga || deepestCode(record, 'ga');
  return {
    ...searchAddressDetailRecord(record, objects),
    c_gaCode: gaCode,
    c_country: record.country.name,
    c_country_iso_code: record.country.alpha2,
    ...levelFias(record),
  };
}

/**
 * selectAddress hint: mixed-case keys as interface.md lists them; `c_house` reads `дом 1`, with the building's other
 * parts after it (`дом 35, корпус 4`: the record has no other field for them), or `участок 7` for a land plot.
 */
export function selectAddressRecord(record: AddressRecord) {
  const details = record.houseDetails;
  const house = details.house;
  return {
    c_k5: deepestCode(record, 'kladr'),
    c_index: record.postcode,
    c_fullname: record.addressFull,
    c_RegionName: record.region.name,
    c_RegionType: record.region.type,
    c_SubRegionName: record.area.name,
    c_SubRegionType: record.area.type,
    c_CityName: record.city.name,
    c_CityType: record.city.type,
    c_NPName: record.settlement.name,
    c_NPType: record.settlement.type,
    c_StreetName: streetLevel(record).name,
    c_StreetType: streetLevel(record).type,
    // the building's parts (or the plot's) as fullName writes them, without the flat or the entrance
    c_house: houseFullName({
      ...emptyHouseParts(), house, case: details.case, build: details.build, liter: details.liter, constr: details.constr, stead: house ? '' : details.stead,
    }),
    // the unit's number, whatever its registry calls it (`кв 1` typed, GAR's помещение 1 found)
    c_flat: details.flat || details.place || details.office || details.room || details.kab,
    // a hint's house is one the dictionary has (whatever codes its registry gives it: OsmAnd's houses have none)
    c_HouseStatus: house || details.stead ? HOUSE_STATUS_TEXT[3] : HOUSE_STATUS_TEXT[9],
  };
}
