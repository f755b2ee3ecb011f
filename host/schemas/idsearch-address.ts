/** POST /idsearch/address: `{query, type, countryCode}`; `type` is matched case-insensitively. */
import type { IdKind } from '../../engine/types.js';
import { COUNTRY_CODE, textField } from './common.js';
import { requestSchema } from './validator.js';

export const ID_KINDS: readonly IdKind[] = ['UNKNOWN', 'GAR', 'FIAS', 'KLADR', 'OSM', 'GA'];

export interface IdsearchAddressRequest {
  query: string;
  type?: IdKind;
  countryCode?: string | number;
}

export const idsearchAddressRequest = requestSchema<IdsearchAddressRequest>({
  $id: 'IdsearchAddressRequest',
  type: 'object',
  properties: {
    query: textField('Identifier of the object in the registry named by `type`'),
    type: { enum: [...ID_KINDS], default: 'UNKNOWN', description: 'Registry; UNKNOWN detects it from the shape of the id' },
    countryCode: COUNTRY_CODE,
  },
  required: ['query'],
});

/** Upper-cases a string `type` so `fias` is FIAS; anything else is left for the schema to reject. */
export function normalizeIdKind(body: unknown): unknown {
  if (body && typeof body === 'object' && typeof (body as { type?: unknown }).type === 'string') {
    const b = body as { type: string };
    b.type = b.type.trim().toUpperCase() || 'UNKNOWN';
  }
  return body;
}
