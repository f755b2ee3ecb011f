/** POST /clean/address/iqdq: the standardization result as one legacy flat record. */
import { iqdqRecord } from '../records/legacy-record.js';
import { cleanAddressRequest } from '../schemas/clean-address.js';
import { requireDictionary } from './country.js';
import { engineOf, type RouteDefinition } from './route.js';
import { standardizeAddress } from './standardize.js';

export const cleanAddressIqdqRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/clean/address/iqdq',
  operationId: 'cleanAddressIqdq',
  summary: 'Standardize a free-text address into one flat c_ record',
  auth: 'key',
  licensed: true,
  request: cleanAddressRequest,
  response: { $ref: 'IqdqRecord' },
  handle(ctx, services) {
    const body = cleanAddressRequest.parse(ctx.request.body);
    const engine = engineOf(ctx);
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    const { record, objects } = standardizeAddress(engine, country, dictionary, body.query);
    return iqdqRecord(record, objects);
  },
};
