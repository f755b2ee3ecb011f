/** POST /clean/address and /clean/address/iqdq: `{query, countryCode}`. */
import { COUNTRY_CODE, textField } from './common.js';
import { requestSchema } from './validator.js';

export interface CleanAddressRequest {
  query: string;
  countryCode?: string | number;
}

export const cleanAddressRequest = requestSchema<CleanAddressRequest>({
  $id: 'CleanAddressRequest',
  type: 'object',
  properties: {
    query: textField('Address as free text'),
    countryCode: COUNTRY_CODE,
  },
  required: ['query'],
});
