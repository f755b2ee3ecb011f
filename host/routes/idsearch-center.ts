/**
 * POST /idsearch/address/center: the house nearest the centre of a locality given by its id
 * (Moscow → `г Москва, пл Красная, дом 1`).
 */
import { NotFoundError } from '../errors.js';
import { buildAddressRecord } from '../records/address-record.js';
import { resolutionOfFound } from '../records/resolution.js';
import { idsearchCenterRequest } from '../schemas/idsearch-center.js';
import { requireDictionary } from './country.js';
import { findById } from './id-kind.js';
import { engineOf, type RouteDefinition } from './route.js';

/** How far from the centre a house may be: large enough for a city whose centre is a square or a park. */
export const CENTER_RADIUS = 50_000;

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
  handle(ctx, services) {
    const body = idsearchCenterRequest.parse(ctx.request.body);
    const engine = engineOf(ctx);
    const { country, dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    const id = body.query.trim();
    const found = findById(dictionary, 'UNKNOWN', id);
    if (!found) throw new NotFoundError(`населённый пункт с идентификатором «${id}» не найден.`);
    if (found.kind !== 'object') {
      ctx.body = buildAddressRecord(resolutionOfFound(dictionary, found), dictionary, { method: 'center', original: body.query });
      return;
    }
    // the locality's own point, else the nearest ancestor's
    const centre = [found.id, ...dictionary.chain(found.id).reverse()].map((objectId) => dictionary.object(objectId))
      .find((object) => object.lat !== 0 || object.lon !== 0);
    if (!centre) throw new NotFoundError(`у объекта «${id}» и его родителей нет координат центра.`);
    const hit = engine.nearest(country, centre.lat, centre.lon, 'house', CENTER_RADIUS);
    if (!hit) throw new NotFoundError(`в ${CENTER_RADIUS / 1000} км от центра объекта «${id}» нет домов.`);
    ctx.body = buildAddressRecord(resolutionOfFound(dictionary, hit.found), dictionary, { method: 'center', original: body.query });
  },
};
