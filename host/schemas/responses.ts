/**
 * JSON schemas of the responses, for the OpenAPI document and for the API tests that check real
 * responses against them (so the document stays true). Objects are closed (`additionalProperties: false`).
 */
import { DADATA_RESPONSE_SCHEMAS } from './dadata-responses.js';
import { HOUSE_PART_KEYS } from '../../engine/types.js';

const string = { type: 'string' } as const;
const closed = (properties: Record<string, unknown>, required = Object.keys(properties)) =>
  ({ type: 'object', additionalProperties: false, properties, required });

export const CODES = closed({
  fias: { type: 'string', pattern: '^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?$' },
  ga: { type: 'string', pattern: '^([A-Z]{2}\\d{25})?$' },
  osm: { type: 'string', pattern: '^([NWR]-?\\d+)?$' },
  gar: { type: 'string', pattern: '^\\d*$' },
  kladr: { type: 'string', pattern: '^(\\d{13}|\\d{17})?$' },
});

export const ADDRESS_LEVEL = closed({ fullName: string, name: string, type: string, codes: CODES });

const ADDITIONAL = closed({
  houseIsMultiFlat: { type: 'boolean' },
  houseFlatCount: { type: 'string', pattern: '^\\d*$' },
  houseCadnum: string,
  apartmentCadnum: string,
});

export const HOUSE_DETAILS = closed({
  fullName: string,
  ...Object.fromEntries(HOUSE_PART_KEYS.map((key) => [key, string])),
  codes: { oneOf: [CODES, { type: 'null' }] },
  apartmentCodes: { oneOf: [CODES, { type: 'null' }] },
  additional: { oneOf: [ADDITIONAL, { type: 'null' }] },
});

const QUALITY = closed({
  unique: { type: 'integer', minimum: 0, maximum: 2 },
  actuality: { type: 'integer', minimum: 0, maximum: 2 },
  undefined: { type: 'integer', minimum: 0, maximum: 2 },
  level: { type: 'integer', minimum: 0, maximum: 8 },
  house: { enum: [0, 3, 4, 9] },
  geo: { type: 'integer', minimum: 0, maximum: 8 },
});

const METRO = closed({ name: string, line: string, city: string, distance: { type: 'integer', minimum: 0, maximum: 5000 } });

const COUNTRY = closed({ name: string, alpha2: { type: 'string', pattern: '^[A-Z]{2}$' }, alpha3: { type: 'string', pattern: '^[A-Z]{3}$' }, numeric: { type: 'integer' } });

/** six digits, five in Ukraine, or "" */
const POSTCODE = { type: 'string', pattern: '^(\\d{5}|\\d{6})?$' };

const addressProperties = {
  original: string,
  address: string,
  addressFull: string,
  postcodeIn: POSTCODE,
  postcode: POSTCODE,
  region: ADDRESS_LEVEL,
  area: ADDRESS_LEVEL,
  municipal: { oneOf: [ADDRESS_LEVEL, { type: 'null' }] },
  city: ADDRESS_LEVEL,
  cityArea: ADDRESS_LEVEL,
  settlement: ADDRESS_LEVEL,
  planStructure: ADDRESS_LEVEL,
  street: ADDRESS_LEVEL,
  houseDetails: HOUSE_DETAILS,
  coordinates: closed({ latitude: { type: 'number', minimum: -90, maximum: 90 }, longitude: { type: 'number', minimum: -180, maximum: 180 } }),
  country: COUNTRY,
  valid: { type: 'boolean' },
  quality: QUALITY,
  timezone: { type: 'string', pattern: '^(UTC[+-]\\d{1,2}(:\\d{2})?)?$' },
  undefinedParts: string,
  metro: { type: 'array', maxItems: 3, items: METRO },
};

export const ADDRESS_RECORD = { $id: 'AddressRecord', ...closed(addressProperties) };

const SUGGESTION_OMITS = new Set(['original', 'postcodeIn', 'valid', 'quality', 'undefinedParts', 'metro']);
export const SUGGESTION_RECORD = {
  $id: 'SuggestionRecord',
  ...closed(Object.fromEntries(Object.entries(addressProperties).filter(([key]) => !SUGGESTION_OMITS.has(key)))),
};

export const SUGGEST_RESPONSE = { $id: 'SuggestResponse', ...closed({ suggestions: { type: 'array', maxItems: 20, items: { $ref: 'SuggestionRecord' } } }) };

export const CLEAN_HOUSE_RESPONSE = { $id: 'CleanHouseResponse', ...closed({ original: string, postcodeIn: POSTCODE, houseDetails: HOUSE_DETAILS }) };

const DB_VERSION = closed({ db: string, migration: string });
export const VERSION_RESPONSE = {
  $id: 'VersionResponse',
  ...closed({
    serviceVersion: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+' },
    dbVersion: closed({ ru: DB_VERSION, kz: DB_VERSION, by: DB_VERSION, ua: DB_VERSION, name: DB_VERSION }),
  }),
};

export const HEALTH_RESPONSE = {
  $id: 'HealthResponse',
  ...closed({ status: { enum: ['ok'] }, countries: { type: 'array', items: string }, license: string }),
};

export const LICENSE_RESPONSE = {
  $id: 'LicenseResponse',
  ...closed({
    status: { enum: ['community', 'valid', 'expired', 'invalid'] },
    customer: string,
    expires: string,
    countries: { type: 'array', items: string },
    message: string,
    prolongationServer: string,
    lastRenewal: { oneOf: [{ type: 'null' }, closed({ at: string, ok: { type: 'boolean' }, message: string })] },
  }),
};

export const ERROR_ENVELOPE = {
  $id: 'Error',
  ...closed({ code: { type: 'integer', minimum: 1, maximum: 16 }, message: { type: 'string', minLength: 1 }, details: { type: 'array' } }),
};

const KVANT = { type: 'object', additionalProperties: false, properties: Object.fromEntries(HOUSE_PART_KEYS.map((key) => [key, { type: 'string', minLength: 1 }])) };
const LEGACY_COORDINATE = closed({ c_lon: { type: 'number' }, c_lat: { type: 'number' }, c_level: { type: 'integer' } });
const strings = (...keys: string[]) => Object.fromEntries(keys.map((key) => [key, string]));

const DETAIL_FIELDS = {
  ...strings('c_ischeck', 'c_index_in', 'c_zipcode', 'c_address_original', 'c_address_full', 'c_kladr',
    'c_region_name', 'c_region_abbr', 'c_district_name', 'c_district_abbr', 'c_city_name', 'c_city_abbr',
    'c_community_name', 'c_community_abbr', 'c_street_name', 'c_street_abbr'),
  c_json_kvant: KVANT,
  ...strings('c_house_str', 'c_addr_lost'),
  c_status_error: { type: 'string', pattern: '^\\d{6}$' },
  ...strings('c_house_error', 'c_house_error_desc', 'c_kladr19', 'c_gninmb', 'c_okato', 'c_oktmo', 'c_aoguid', 'c_aolevel', 'c_houseguid', 'c_timezone'),
  c_coordinate: LEGACY_COORDINATE,
};
const LEVEL_FIAS = strings('c_region_fias', 'c_district_fias', 'c_city_fias', 'c_community_fias', 'c_street_fias');

export const LEGACY_DETAIL_RECORD = { $id: 'LegacySearchAddressDetailRecord', ...closed(DETAIL_FIELDS) };
export const LEGACY_VARIANT_RECORD = { $id: 'LegacySearchAddressDetailVariantRecord', ...closed({ ...DETAIL_FIELDS, ...LEVEL_FIAS }) };
export const IQDQ_RECORD = { $id: 'IqdqRecord', ...closed({ ...DETAIL_FIELDS, ...strings('c_gaCode', 'c_country', 'c_country_iso_code'), ...LEVEL_FIAS }) };
export const LEGACY_CHECK_RECORD = {
  $id: 'LegacyCheckAddressRecord',
  ...closed({
    ...strings('c_ischeck', 'c_index_in', 'c_index_out', 'c_addr_in', 'c_addr_out', 'c_kladr'),
    c_json_kvant: KVANT,
    ...strings('c_kvant', 'c_house_str'),
    c_status_error: { type: 'string', pattern: '^\\d{6}$' },
    ...strings('c_house_error_desc', 'c_addr_lost', 'c_kladr19', 'c_gninmb', 'c_okato', 'c_oktmo', 'c_aoguid', 'c_aolevel', 'c_houseguid', 'c_timezone'),
    c_coordinate: LEGACY_COORDINATE,
  }),
};
export const LEGACY_SELECT_RECORD = {
  $id: 'LegacySelectAddressRecord',
  ...closed(strings('c_k5', 'c_index', 'c_fullname', 'c_RegionName', 'c_RegionType', 'c_SubRegionName', 'c_SubRegionType',
    'c_CityName', 'c_CityType', 'c_NPName', 'c_NPType', 'c_StreetName', 'c_StreetType', 'c_house', 'c_flat', 'c_HouseStatus')),
};

export const arrayOf = (ref: string) => ({ type: 'array', items: { $ref: ref } });

/** Every named response schema, registered under its $id in the OpenAPI components and in test validators. */
export const RESPONSE_SCHEMAS = [
  ADDRESS_RECORD, SUGGESTION_RECORD, SUGGEST_RESPONSE, CLEAN_HOUSE_RESPONSE, VERSION_RESPONSE, HEALTH_RESPONSE,
  LICENSE_RESPONSE, ERROR_ENVELOPE, LEGACY_DETAIL_RECORD, LEGACY_VARIANT_RECORD, IQDQ_RECORD, LEGACY_CHECK_RECORD, LEGACY_SELECT_RECORD,
  ...DADATA_RESPONSE_SCHEMAS,
];
