/** POST /suggest/address: `{query, countryCode, count, scopes}`. */
import { COUNTRY_CODE, textField } from './common.js';
import { requestSchema } from './validator.js';

export const SUGGEST_DEFAULT_COUNT = 10;
export const SUGGEST_MAX_COUNT = 20;

export interface ScopeRequest {
  fias?: string; ga?: string; osm?: string; gar?: string; kladr?: string;
  postcode?: string; name?: string; regionName?: string; streetName?: string;
  coordinates?: { latitude: number; longitude: number; radius?: number };
}

export interface SuggestAddressRequest {
  query: string;
  countryCode?: string | number;
  count?: number;
  scopes?: ScopeRequest[];
}

const scopeText = { type: 'string', maxLength: 200 };

export const suggestAddressRequest = requestSchema<SuggestAddressRequest>({
  $id: 'SuggestAddressRequest',
  type: 'object',
  properties: {
    query: textField('Partial address; a search starts from 3 letters'),
    countryCode: COUNTRY_CODE,
    count: { type: 'integer', minimum: 0, description: `Maximum number of hints: absent or 0 → ${SUGGEST_DEFAULT_COUNT}, over ${SUGGEST_MAX_COUNT} → ${SUGGEST_MAX_COUNT}` },
    scopes: {
      type: 'array',
      maxItems: 20,
      description: 'Search sectors: members of one scope are ANDed, scopes are ORed, empty members ignored',
      items: {
        type: 'object',
        properties: {
          fias: scopeText, ga: scopeText, osm: scopeText, gar: scopeText, kladr: scopeText,
          postcode: scopeText, name: scopeText, regionName: scopeText, streetName: scopeText,
          coordinates: {
            type: 'object',
            properties: {
              latitude: { type: 'number', minimum: -90, maximum: 90 },
              longitude: { type: 'number', minimum: -180, maximum: 180 },
              radius: { type: 'number', minimum: 0, maximum: 1_000_000, description: 'meters' },
            },
            required: ['latitude', 'longitude'],
          },
        },
      },
    },
  },
  required: ['query'],
});
