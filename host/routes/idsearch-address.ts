/** POST /idsearch/address: the record of an object, house or apartment by its registry id. */
import { NotFoundError } from '../errors.js';
import { buildAddressRecord } from '../../engine/records/address-record.js';
import { resolutionOfFound } from '../../engine/records/resolution.js';
import { idsearchAddressRequest, normalizeIdKind } from '../schemas/idsearch-address.js';
import { requireDictionary } from './country.js';
import { candidateKinds, findById, spelledId } from './id-kind.js';
import type { RouteDefinition } from './route.js';

export const idsearchAddressRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/idsearch/address',
  operationId: 'idsearchAddress',
  summary: 'The address of an object, house or apartment by its FIAS, GAR, KLADR, OSM or GA id',
  auth: 'key',
  licensed: true,
  request: idsearchAddressRequest,
  response: { $ref: 'AddressRecord' },
  errorStatuses: [404],
  handle(request, services) {
    const body = idsearchAddressRequest.parse(normalizeIdKind(request.body));
    const engine = request.engine;
    const { dictionary } = requireDictionary(engine, body.countryCode, { license: services.license });
    const id = body.query.trim();
    const kind = body.type ?? 'UNKNOWN';
    if (kind === 'UNKNOWN' && candidateKinds(spelledId(id)).length === 0) {
      throw new NotFoundError(`идентификатор «${id}» не похож ни на один реестр: ожидается GUID ФИАС, код КЛАДР, OBJECTID ГАР, OSM (R/W/N и число) или код GA.`);
    }
    const found = findById(dictionary, kind, id);
    if (!found) throw new NotFoundError(`объект с идентификатором ${kind === 'UNKNOWN' ? '' : `${kind} `}«${id}» не найден.`);
    const resolution = resolutionOfFound(dictionary, found);
    if (found.obsolete) resolution.quality.actuality = 1;
    return buildAddressRecord(resolution, dictionary, { method: 'idsearch', original: body.query });
  },
};
