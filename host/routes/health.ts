/** GET /health: 200 when at least one dictionary is loaded (a readiness probe), else 503 code 14. */
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
    return { status: 'ok', countries, license: services.license.state().status };
  },
};
