/**
 * GET /health: 200 when every country the service must serve (`dictionaries.Countries`, by default those whose
 * dictionary was in place at start) is loaded (a readiness probe). 503 code 14 when none is loaded, or when one of
 * them is absent (degraded: the others are served; `details` names what is missing).
 */
import { UnavailableError } from '../errors.js';
import type { RouteDefinition } from './route.js';

export const healthRoute: RouteDefinition = {
  method: 'GET',
  base: 'api',
  path: '/health',
  operationId: 'health',
  summary: 'Readiness: dictionaries loaded',
  auth: 'open',
  licensed: false,
  response: { $ref: 'HealthResponse' },
  errorStatuses: [503],
  handle(request, services) {
    const countries = request.engine.countries();
    if (countries.length === 0) throw new UnavailableError('справочники не загружены.');
    const missing = services.config.dictionaries.Countries.filter((country) => !countries.includes(country));
    if (missing.length > 0) {
      throw new UnavailableError(`справочники не загружены: ${missing.join(', ')}; остальные страны обслуживаются.`, [{ status: 'degraded', countries, missing }]);
    }
    return { status: 'ok', countries, license: services.license.state().status };
  },
};
