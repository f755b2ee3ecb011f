/** Pieces shared by the request schemas. */
import { EMPTY } from './validator.js';

export const QUERY_MAX_LENGTH = 1000;

/** A non-blank string of at most 1000 characters. */
export function textField(description: string): Record<string, unknown> {
  return { type: 'string', minLength: 1, maxLength: QUERY_MAX_LENGTH, pattern: '\\S', 'x-message': EMPTY, description };
}

export const COUNTRY_CODE = {
  type: ['string', 'integer'],
  maxLength: 8,
  description: 'ISO 3166-1 code: alpha-2 (RU, KZ, BY, UA), alpha-3 or numeric, any case. Absent or empty: RU.',
} as const;
