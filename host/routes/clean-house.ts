/** POST /clean/house: only the house part of a string; works for any country. */
import { houseFullName, completeHouseParts } from '../../engine/records/house-details.js';
import { cleanHouseRequest } from '../schemas/clean-house.js';
import { parseCountryField } from './country.js';
import type { RouteDefinition } from './route.js';

export const cleanHouseRoute: RouteDefinition = {
  method: 'POST',
  base: 'api',
  path: '/clean/house',
  operationId: 'cleanHouse',
  summary: 'Parse the house part (house, building, flat, office, …) of a string',
  auth: 'key',
  licensed: true,
  request: cleanHouseRequest,
  response: { $ref: 'CleanHouseResponse' },
  handle(request) {
    const body = cleanHouseRequest.parse(request.body);
    parseCountryField(body.countryCode, 'countryCode');
    const parsed = request.engine.parseHouse(body.query);
    const parts = completeHouseParts(parsed.parts, null, null);
    return {
      original: body.query,
      postcodeIn: /^\d{6}$/.test(parsed.postcodeIn) ? parsed.postcodeIn : '',
      houseDetails: { fullName: houseFullName(parts), ...parts, codes: null, apartmentCodes: null, additional: null },
    };
  },
};
