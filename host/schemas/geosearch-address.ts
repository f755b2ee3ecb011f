/** POST /geosearch/address: `{latitude, longitude, countryCode, addresslevel, radius}`. */
import type { GeoLevel } from '../../engine/types.js';
import { COUNTRY_CODE } from './common.js';
import { requestSchema } from './validator.js';

export const GEO_LEVELS: readonly GeoLevel[] = ['region', 'area', 'city', 'settlement', 'planStructure', 'street', 'house'];
export const GEOSEARCH_DEFAULT_RADIUS = 100;
export const GEOSEARCH_MAX_RADIUS = 1000;

export interface GeosearchAddressRequest {
  latitude: number;
  longitude: number;
  countryCode?: string | number;
  addresslevel?: GeoLevel | '';
  radius?: number;
}

export const geosearchAddressRequest = requestSchema<GeosearchAddressRequest>({
  $id: 'GeosearchAddressRequest',
  type: 'object',
  properties: {
    latitude: { type: 'number', minimum: -90, maximum: 90 },
    longitude: { type: 'number', minimum: -180, maximum: 180 },
    countryCode: COUNTRY_CODE,
    addresslevel: { enum: [...GEO_LEVELS, ''], description: 'Level of the sought object; absent: the closest object of any level' },
    radius: { type: 'number', minimum: 0, maximum: GEOSEARCH_MAX_RADIUS, description: `meters; absent or 0 → ${GEOSEARCH_DEFAULT_RADIUS}` },
  },
  required: ['latitude', 'longitude'],
});
