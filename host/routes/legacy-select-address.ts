/** GET /legacy/selectAddress: hints as flat records (`letters`, `country`, `countreturnrec`). */
import { hintRecords } from '../../engine/records/address-record.js';
import { selectAddressRecord } from '../../engine/records/legacy-record.js';
import { legacySelectRequest } from '../schemas/legacy.js';
import { requireDictionary } from './country.js';
import type { RouteDefinition } from './route.js';
import { MIN_LETTERS, letterCount, suggestCount } from './suggest-address.js';

export const legacySelectAddressRoute: RouteDefinition = {
  method: 'GET',
  base: 'legacy',
  path: '/selectAddress',
  operationId: 'legacySelectAddress',
  summary: 'Hints as flat c_ records',
  auth: 'key-or-login',
  licensed: true,
  request: legacySelectRequest,
  response: { type: 'array', items: { $ref: 'LegacySelectAddressRecord' } },
  handle(request, services) {
    const query = legacySelectRequest.parse({ ...request.query });
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, query.country, { field: 'country', license: services.license });
    if (letterCount(query.letters, MIN_LETTERS) < MIN_LETTERS) return [];
    const count = suggestCount(Number(query.countreturnrec ?? '') || 0);
    // the hints of POST /suggest/address, one per place (Київ's region and city are one entry), as flat records
    return hintRecords(engine.suggest(country, query.letters, count), dictionary, count, query.letters).map(selectAddressRecord);
  },
};
