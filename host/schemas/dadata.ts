/**
 * Requests of the DaData facade (routes/dadata-*.ts), as DaData's API documents them and its clients
 * (suggestions-jquery, @dadata/suggestions, dadata-py, react-dadata) send them. Members the facade does not
 * read are let through, as DaData lets them.
 */
import { DADATA_BOUNDS } from '../../engine/records/dadata-record.js';
import { requestSchema } from './validator.js';

export const DADATA_QUERY_MAX_LENGTH = 300;
export const DADATA_DEFAULT_COUNT = 10;
export const DADATA_MAX_COUNT = 20;
export const DADATA_GEO_DEFAULT_RADIUS = 100;
export const DADATA_GEO_MAX_RADIUS = 1000;
/** the cleaner's array body: at most this many addresses a request */
export const DADATA_CLEAN_MAX_ITEMS = 100;

/** One `locations` / `locations_boost` item: its members ANDed. */
export type DadataLocation = Record<string, string | undefined>;

export interface DadataGeoLocation {
  lat: number;
  lon: number;
  radius_meters?: number;
}

export interface DadataSuggestRequest {
  query: string;
  count?: number;
  language?: 'ru' | 'en';
  locations?: DadataLocation[];
  locations_geo?: DadataGeoLocation[];
  locations_boost?: DadataLocation[];
  from_bound?: { value?: (typeof DADATA_BOUNDS)[number] };
  to_bound?: { value?: (typeof DADATA_BOUNDS)[number] };
  restrict_value?: boolean;
  division?: 'administrative' | 'municipal';
}

/** Location members DaData documents (`country: "*"` for every country). */
export const LOCATION_MEMBERS = [
  'country', 'country_iso_code', 'region_iso_code', 'kladr_id', 'postal_code',
  'region_fias_id', 'area_fias_id', 'sub_area_fias_id', 'city_fias_id', 'city_district_fias_id', 'settlement_fias_id', 'street_fias_id',
  'region', 'area', 'city', 'city_district', 'settlement', 'street',
  'region_type_full', 'area_type_full', 'city_type_full', 'city_district_type_full', 'settlement_type_full', 'street_type_full',
] as const;

const locationText = { type: 'string', maxLength: 200 };
const location = {
  type: 'object',
  properties: Object.fromEntries(LOCATION_MEMBERS.map((member) => [member, locationText])),
};
const bound = { type: 'object', properties: { value: { enum: [...DADATA_BOUNDS] } } };
const count = { type: 'integer', minimum: 0, description: `absent or 0 → ${DADATA_DEFAULT_COUNT}, over ${DADATA_MAX_COUNT} → ${DADATA_MAX_COUNT}` };

export const dadataSuggestRequest = requestSchema<DadataSuggestRequest>({
  $id: 'DadataSuggestRequest',
  type: 'object',
  properties: {
    query: { type: 'string', maxLength: DADATA_QUERY_MAX_LENGTH, description: 'What was typed' },
    count,
    language: { enum: ['ru', 'en'] },
    locations: { type: 'array', maxItems: 50, items: location },
    locations_geo: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        properties: {
          lat: { type: 'number', minimum: -90, maximum: 90 },
          lon: { type: 'number', minimum: -180, maximum: 180 },
          radius_meters: { type: 'number', exclusiveMinimum: 0, maximum: 100_000 },
        },
        required: ['lat', 'lon'],
      },
    },
    locations_boost: { type: 'array', maxItems: 20, items: location },
    from_bound: bound,
    to_bound: bound,
    restrict_value: { type: 'boolean' },
    division: { enum: ['administrative', 'municipal'] },
  },
  required: ['query'],
});

export interface DadataFindByIdRequest {
  query: string;
  count?: number;
}

export const dadataFindByIdRequest = requestSchema<DadataFindByIdRequest>({
  $id: 'DadataFindByIdRequest',
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: DADATA_QUERY_MAX_LENGTH, pattern: '\\S', 'x-message': 'значение не может быть пустым', description: 'FIAS GUID, KLADR code or cadastral number' },
    count,
  },
  required: ['query'],
});

export interface DadataGeolocateRequest {
  lat: number;
  lon: number;
  radius_meters?: number;
  count?: number;
  language?: 'ru' | 'en';
  division?: 'administrative' | 'municipal';
}

export const dadataGeolocateRequest = requestSchema<DadataGeolocateRequest>({
  $id: 'DadataGeolocateRequest',
  type: 'object',
  properties: {
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 180 },
    radius_meters: { type: 'number', minimum: 0, maximum: DADATA_GEO_MAX_RADIUS, description: `default ${DADATA_GEO_DEFAULT_RADIUS}` },
    count,
    language: { enum: ['ru', 'en'] },
    division: { enum: ['administrative', 'municipal'] },
  },
  required: ['lat', 'lon'],
});

/** The cleaner's DaData body: a JSON array of address strings. */
export const dadataCleanRequest = requestSchema<string[]>({
  $id: 'DadataCleanRequest',
  type: 'array',
  maxItems: DADATA_CLEAN_MAX_ITEMS,
  items: { type: 'string', maxLength: 1000 },
});

/** `count` absent or 0 → 10, over 20 → 20. */
export function dadataCount(value: number | undefined): number {
  return !value ? DADATA_DEFAULT_COUNT : Math.min(value, DADATA_MAX_COUNT);
}
