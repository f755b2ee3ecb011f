/** POST /clean/house: `{query, countryCode}`; any country is accepted. */
import { COUNTRY_CODE, textField } from './common.js';
import { requestSchema } from './validator.js';

export interface CleanHouseRequest {
  query: string;
  countryCode?: string | number;
}

export const cleanHouseRequest = requestSchema<CleanHouseRequest>({
  $id: 'CleanHouseRequest',
  type: 'object',
  properties: {
    query: textField('Text holding the house part of an address'),
    countryCode: COUNTRY_CODE,
  },
  required: ['query'],
});
