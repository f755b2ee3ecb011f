/**
 * POST /idsearch/address/center: the house of a locality given by its id nearest its centre
 * (Moscow → `г Москва, пл Красная, дом 1`); 404 when the locality has no house.
 */
import { NotFoundError } from '../errors.js';
import { buildAddressRecord } from '../../engine/records/address-record.js';
import { resolutionOfFound } from '../../engine/records/resolution.js';
import { idsearchCenterRequest } from '../schemas/idsearch-center.js';
import { requireDictionary } from './country.js';
import { findById } from './id-kind.js';
import type { RouteDefinition } from './route.js';

/**
 * Rings searched for the house nearest the centre, smallest first: a near house is found cheaply, and a
 * city whose centre is a square, a park or a river still gets one up to 50 km away.
 */
export const CENTER_RADII = [1_000, 5_000, 20_000, 50_000];

export const idsearchCenterRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/idsearch/address/center',
  operationId: 'idsearchAddressCenter',
  summary: 'The house at the centre of a locality given by its FIAS id',
  auth: 'key',
  licensed: true,
  request: idsearchCenterRequest,
  response: { $ref: 'AddressRecord' },
  errorStatuses: [404],
  handle(request, services) {
    const body = idsearchCenterRequest.parse(request.body);
    const engine = request.engine;
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    const id = body.query.trim();
    const found = findById(dictionary, 'UNKNOWN', id);
    if (!found) throw new NotFoundError(`населённый пункт с идентификатором «${id}» не найден.`);
    if (found.kind !== 'object') {
      return buildAddressRecord(resolutionOfFound(dictionary, found), dictionary, { method: 'center', original: body.query });
    }
    // the locality's own point, else the nearest ancestor's
    const centre = [found.id, ...dictionary.chain(found.id).reverse()].map((objectId) => dictionary.object(objectId))
      .find((object) => object.lat !== 0 || object.lon !== 0);
    if (!centre) throw new NotFoundError(`у объекта «${id}» и его родителей нет координат центра.`);
    let hit = null;
    for (const radius of CENTER_RADII) {
      // a house of the locality: a town's centre may lie nearer another town's houses (Химки's, Москва's)
      hit = engine.nearest(country, centre.lat, centre.lon, 'house', radius, found.id);
      if (hit) break;
    }
    if (!hit) throw new NotFoundError(`в ${CENTER_RADII[CENTER_RADII.length - 1] / 1000} км от центра объекта «${id}» нет его домов.`);
    return buildAddressRecord(resolutionOfFound(dictionary, hit.found), dictionary, { method: 'center', original: body.query });
  },
};
