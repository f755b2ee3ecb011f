/** POST /clean/address: one standardized AddressRecord for a free-text address. */
import { cleanAddressRequest } from '../schemas/clean-address.js';
import { requireDictionary } from './country.js';
import type { RouteDefinition } from './route.js';
import { standardizeAddress } from './standardize.js';

export const cleanAddressRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/clean/address',
  operationId: 'cleanAddress',
  summary: 'Standardize a free-text address',
  auth: 'key',
  licensed: true,
  request: cleanAddressRequest,
  response: { $ref: 'AddressRecord' },
  handle(request, services) {
    const body = cleanAddressRequest.parse(request.body);
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    return standardizeAddress(engine, country, dictionary, body.query).record;
  },
};
