/**
 * POST /clean/address: one standardized AddressRecord for a free-text address. A JSON array of strings instead
 * (DaData's cleaner body, `["мск сухонская 11 89"]`) answers an array of DaData address records, one per string,
 * in order (Russia's dictionary, as DaData's cleaner; records/dadata-record.ts).
 */
import { cleanerExtras, dadataClean, dadataList, type DadataAddress } from '../../engine/records/dadata-record.js';
import { cleanAddressRequest } from '../schemas/clean-address.js';
import { dadataCleanRequest } from '../schemas/dadata.js';
import { requireDictionary } from './country.js';
import type { AppServices, RouteDefinition, RouteRequest } from './route.js';
import { standardizeAddress, standardizeParts } from '../../engine/standardize.js';

function dadataCleaner(request: RouteRequest, services: AppServices): DadataAddress[] {
  const sources = dadataCleanRequest.parse(request.body);
  const engine = request.engine;
  const { country, dictionary } = requireDictionary(engine, 'RU', { license: services.license });
  const records: DadataAddress[] = [];
  // a plain loop: this runs for every string
  for (const source of sources) {
    const { parts, objects } = standardizeParts(engine, country, dictionary, source);
    records.push(dadataClean(parts, cleanerExtras(objects, source)));
  }
  return dadataList(records);
}

export const cleanAddressRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/clean/address',
  operationId: 'cleanAddress',
  summary: 'Standardize a free-text address (an array of strings: DaData\'s cleaner, an array of DaData records)',
  auth: 'key',
  licensed: true,
  arrayBody: true,
  request: cleanAddressRequest,
  response: { oneOf: [{ $ref: 'AddressRecord' }, { $ref: 'DadataCleanResponse' }] },
  handle(request, services) {
    if (Array.isArray(request.body)) return dadataCleaner(request, services);
    const body = cleanAddressRequest.parse(request.body);
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    return standardizeAddress(engine, country, dictionary, body.query).record;
  },
};
