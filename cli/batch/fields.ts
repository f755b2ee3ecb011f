/**
 * The result columns of a batch: names of DaData's flat record (engine/records/dadata-record.ts) or paths into our
 * AddressRecord (`houseDetails.house`, `region.codes.fias`, `quality.level`), checked before the first row is read.
 */
import type { AddressRecord } from '../../engine/records/address-record.js';
import { DADATA_ADDRESS_FIELDS, type DadataAddress } from '../../engine/records/dadata-record.js';
import { HOUSE_PART_KEYS, LEVEL_KEYS } from '../../engine/types.js';

/** The result columns `clean` writes when no --fields is given. */
export const CLEAN_FIELDS = [
  'result', 'postal_code', 'country', 'region_with_type', 'area_with_type', 'city_with_type', 'city_district_with_type',
  'settlement_with_type', 'street_with_type', 'house_type', 'house', 'block_type', 'block', 'flat_type', 'flat',
  'fias_id', 'fias_level', 'house_fias_id', 'kladr_id', 'timezone', 'geo_lat', 'geo_lon',
  'qc', 'qc_geo', 'qc_complete', 'qc_house', 'unparsed_parts',
] as const;

/** The result columns `geocode` writes when no --fields is given. */
export const GEOCODE_FIELDS = [
  'result', 'postal_code', 'region_with_type', 'city_with_type', 'settlement_with_type', 'street_with_type', 'house',
  'fias_id', 'house_fias_id', 'kladr_id', 'geo_lat', 'geo_lon', 'qc_geo',
] as const;

const DADATA = new Set<string>(DADATA_ADDRESS_FIELDS);

const CODES = ['fias', 'ga', 'osm', 'gar', 'kladr'];
/** Every path an AddressRecord has (objects as a whole, and their members). */
const RECORD_PATHS = new Set<string>([
  'original', 'address', 'addressFull', 'postcodeIn', 'postcode', 'valid', 'timezone', 'undefinedParts', 'metro',
  ...LEVEL_KEYS.flatMap((level) => [level, `${level}.fullName`, `${level}.name`, `${level}.type`, `${level}.codes`, ...CODES.map((code) => `${level}.codes.${code}`)]),
  'houseDetails', 'houseDetails.fullName', ...HOUSE_PART_KEYS.map((key) => `houseDetails.${key}`),
  ...['codes', 'apartmentCodes'].flatMap((member) => [`houseDetails.${member}`, ...CODES.map((code) => `houseDetails.${member}.${code}`)]),
  'houseDetails.additional', ...['houseIsMultiFlat', 'houseFlatCount', 'houseCadnum', 'apartmentCadnum'].map((key) => `houseDetails.additional.${key}`),
  'coordinates', 'coordinates.latitude', 'coordinates.longitude',
  'country', 'country.name', 'country.alpha2', 'country.alpha3', 'country.numeric',
  'quality', ...['unique', 'actuality', 'undefined', 'level', 'house', 'geo'].map((key) => `quality.${key}`),
]);

/** Splits `--fields a,b --fields c` and checks each name; throws naming the unknown ones. */
export function parseFields(lists: readonly string[] | undefined, defaults: readonly string[]): string[] {
  const fields = (lists ?? []).flatMap((list) => list.split(',')).map((field) => field.trim()).filter((field) => field !== '');
  if (fields.length === 0) return [...defaults];
  const unknown = fields.filter((field) => !DADATA.has(field) && !RECORD_PATHS.has(field));
  if (unknown.length) {
    throw new Error(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: use DaData's names (result, postal_code, house_fias_id, qc, …) or our record's paths (houseDetails.house, region.codes.fias, quality.level, …)`);
  }
  return fields;
}

/** DaData's member a result column names, or null for a path into our record. */
export function dadataField(field: string): keyof DadataAddress | null {
  return DADATA.has(field) ? (field as keyof DadataAddress) : null;
}

/** The value at a path into our record (`houseDetails.codes.fias`); null where the record has nothing there. */
export function readPath(record: AddressRecord | null, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Whether any of the fields needs the DaData form (else it is not built). */
export function needsDadata(fields: readonly string[]): boolean {
  return fields.some((field) => DADATA.has(field));
}

/** A value as a text cell: '' for null, JSON for objects and lists. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
