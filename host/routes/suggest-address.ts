/** POST /suggest/address: hints for a partial address, from 3 letters on. */
import type { Scope } from '../../engine/types.js';
import { hintRecords } from '../../engine/records/address-record.js';
import { SUGGEST_DEFAULT_COUNT, SUGGEST_MAX_COUNT, suggestAddressRequest, type ScopeRequest } from '../schemas/suggest-address.js';
import { requireDictionary } from './country.js';
import type { RouteDefinition } from './route.js';
import { MIN_LETTERS, letterCount } from '../../engine/hint-letters.js';

export { MIN_LETTERS, letterCount } from '../../engine/hint-letters.js';

/** count absent or 0 → 10, over 20 → 20 (conventions.md). */
export function suggestCount(count: number | undefined): number {
  return !count ? SUGGEST_DEFAULT_COUNT : Math.min(count, SUGGEST_MAX_COUNT);
}

/** Drops empty members and scopes left empty (empty members are ignored, conventions.md). */
export function normalizeScopes(scopes: ScopeRequest[] | undefined): Scope[] | undefined {
  if (!scopes) return undefined;
  const result: Scope[] = [];
  for (const scope of scopes) {
    const out: Scope = {};
    for (const key of ['fias', 'ga', 'osm', 'gar', 'kladr', 'postcode', 'name', 'regionName', 'streetName'] as const) {
      const value = scope[key]?.trim();
      if (value) out[key] = key === 'fias' ? value.toLowerCase() : key === 'ga' || key === 'osm' ? value.toUpperCase() : value;
    }
    if (scope.coordinates) out.coordinates = { ...scope.coordinates };
    if (Object.keys(out).length > 0) result.push(out);
  }
  return result.length > 0 ? result : undefined;
}

export const suggestAddressRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/suggest/address',
  operationId: 'suggestAddress',
  summary: 'Hints: candidate addresses for a partial string, by relevance',
  auth: 'key',
  licensed: true,
  request: suggestAddressRequest,
  response: { $ref: 'SuggestResponse' },
  handle(request, services) {
    const body = suggestAddressRequest.parse(request.body);
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    if (letterCount(body.query, MIN_LETTERS) < MIN_LETTERS) return { suggestions: [] };
    const count = suggestCount(body.count);
    const resolutions = engine.suggest(country, body.query, count, normalizeScopes(body.scopes));
    return { suggestions: hintRecords(resolutions, dictionary, count, body.query) };
  },
};

