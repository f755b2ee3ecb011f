/** Query strings of the legacy GET methods. Values arrive as strings; repeated parameters are rejected. */
import { COUNTRY_CODE, textField } from './common.js';
import { requestSchema } from './validator.js';

const credentials = {
  login: { type: 'string', maxLength: 200 },
  pwd: { type: 'string', maxLength: 200 },
};
const country = { ...COUNTRY_CODE, type: 'string' };

export interface LegacySelectRequest {
  letters: string;
  country?: string;
  countreturnrec?: string;
  login?: string;
  pwd?: string;
}

export const legacySelectRequest = requestSchema<LegacySelectRequest>({
  $id: 'LegacySelectAddressQuery',
  type: 'object',
  properties: {
    letters: textField('Partial address, at least 3 letters'),
    country,
    countreturnrec: { type: 'string', maxLength: 64, pattern: '^\\s*\\d*\\s*$', 'x-message': 'ожидается целое число', description: 'Maximum number of hints (default 10, at most 20)' },
    ...credentials,
  },
  required: ['letters'],
});

export interface LegacyAddrRequest {
  addr: string;
  country?: string;
  login?: string;
  pwd?: string;
}

export const legacyAddrRequest = requestSchema<LegacyAddrRequest>({
  $id: 'LegacyAddressQuery',
  type: 'object',
  properties: {
    addr: textField('Address to standardize'),
    country,
    ...credentials,
  },
  required: ['addr'],
});
