/** POST /clean/address/iqdq: the standardization result as one legacy flat record. */
import { iqdqRecord } from '../../engine/records/legacy-record.js';
import { cleanAddressRequest } from '../schemas/clean-address.js';
import { requireDictionary } from './country.js';
import type { RouteDefinition } from './route.js';
import { standardizeAddress } from '../../engine/standardize.js';

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
  handle(request, services) {
    const body = cleanAddressRequest.parse(request.body);
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    const { record, objects } = standardizeAddress(engine, country, dictionary, body.query);
    return iqdqRecord(record, objects);
  },
};
