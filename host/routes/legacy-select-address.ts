/** GET /legacy/selectAddress: hints as flat records (`letters`, `country`, `countreturnrec`). */
import { buildAddressRecord } from '../records/address-record.js';
import { selectAddressRecord } from '../records/legacy-record.js';
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
    return engine.suggest(country, query.letters, count)
      .filter((resolution) => resolution.matched)
      .slice(0, count)
      .map((resolution) => selectAddressRecord(buildAddressRecord(resolution, dictionary, { method: 'suggest', original: query.letters })));
  },
};
