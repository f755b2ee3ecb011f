/** POST /idsearch/address/center: `{query, countryCode}`, query the identifier of a locality. */
import { COUNTRY_CODE, textField } from './common.js';
import { requestSchema } from './validator.js';

export interface IdsearchCenterRequest {
  query: string;
  countryCode?: string | number;
}

export const idsearchCenterRequest = requestSchema<IdsearchCenterRequest>({
  $id: 'IdsearchCenterRequest',
  type: 'object',
  properties: {
    query: textField('FIAS identifier of a locality (other registries detected from the id shape)'),
    countryCode: COUNTRY_CODE,
  },
  required: ['query'],
});
