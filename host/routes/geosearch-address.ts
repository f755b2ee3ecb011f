/** POST /geosearch/address: the address at a point, of a chosen level, within a radius. */
import { NotFoundError } from '../errors.js';
import { buildAddressRecord } from '../../engine/records/address-record.js';
import { resolutionOfFound } from '../../engine/records/resolution.js';
import { GEOSEARCH_DEFAULT_RADIUS, geosearchAddressRequest } from '../schemas/geosearch-address.js';
import { requireDictionary } from './country.js';
import type { RouteDefinition } from './route.js';

export const geosearchAddressRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/geosearch/address',
  operationId: 'geosearchAddress',
  summary: 'The address nearest a point, of a level, within a radius (default 100 m, at most 1000 m)',
  auth: 'key',
  licensed: true,
  request: geosearchAddressRequest,
  response: { $ref: 'AddressRecord' },
  errorStatuses: [404],
  handle(request, services) {
    const body = geosearchAddressRequest.parse(request.body);
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    const radius = body.radius || GEOSEARCH_DEFAULT_RADIUS;
    const level = body.addresslevel || undefined;
    const hit = engine.nearest(country, body.latitude, body.longitude, level, radius);
    if (!hit) {
      throw new NotFoundError(`в радиусе ${radius} м от точки ${body.latitude}, ${body.longitude} не найдено ${level ? `объектов уровня ${level}` : 'адресов'}.`);
    }
    return buildAddressRecord(resolutionOfFound(dictionary, hit.found), dictionary, { method: 'geosearch', original: '' });
  },
};
