/**
 * GET /legacy/searchAddressDetail, /legacy/searchAddressDetailDHL (alias searchAddressDetailVariant, with
 * the FIAS codes of the levels) and /legacy/checkAddress: standardization as an array of one flat record.
 */
import { checkAddressRecord, searchAddressDetailRecord, searchAddressDetailVariantRecord } from '../../engine/records/legacy-record.js';
import type { AddressRecord, ResolvedObjects } from '../../engine/records/address-record.js';
import { legacyAddrRequest } from '../schemas/legacy.js';
import { requireDictionary } from './country.js';
import type { RouteDefinition } from './route.js';
import { standardizeAddress } from '../../engine/standardize.js';

function legacyStandardize(build: (record: AddressRecord, objects: ResolvedObjects | null) => object): RouteDefinition['handle'] {
  return (request, services) => {
    const query = legacyAddrRequest.parse({ ...request.query });
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, query.country, { field: 'country', license: services.license });
    const { record, objects } = standardizeAddress(engine, country, dictionary, query.addr);
    return [build(record, objects)];
  };
}

export const legacySearchAddressDetailRoute: RouteDefinition = {
  method: 'GET',
  base: 'legacy',
  path: '/searchAddressDetail',
  operationId: 'legacySearchAddressDetail',
  summary: 'Standardization as flat c_ records',
  auth: 'key-or-login',
  licensed: true,
  request: legacyAddrRequest,
  response: { type: 'array', items: { $ref: 'LegacySearchAddressDetailRecord' } },
  handle: legacyStandardize(searchAddressDetailRecord),
};

export const legacySearchAddressDetailVariantRoute: RouteDefinition = {
  method: 'GET',
  base: 'legacy',
  path: '/searchAddressDetailDHL',
  aliases: ['/searchAddressDetailVariant'],
  operationId: 'legacySearchAddressDetailVariant',
  summary: 'Standardization as flat c_ records with the FIAS codes of the levels',
  auth: 'key',
  licensed: true,
  request: legacyAddrRequest,
  response: { type: 'array', items: { $ref: 'LegacySearchAddressDetailVariantRecord' } },
  handle: legacyStandardize(searchAddressDetailVariantRecord),
};

export const legacyCheckAddressRoute: RouteDefinition = {
  method: 'GET',
  base: 'legacy',
  path: '/checkAddress',
  operationId: 'legacyCheckAddress',
  summary: 'Standardization, short flat form',
  auth: 'key',
  licensed: true,
  request: legacyAddrRequest,
  response: { type: 'array', items: { $ref: 'LegacyCheckAddressRecord' } },
  handle: legacyStandardize(checkAddressRecord),
};
