/**
 * GET /license: the license status; PUT /license `{key, force?}`: install a signed key. The PUT takes the
 * operator key, never an API key, and refuses a key that narrows the license in force unless forced
 * (`?force=true` or `"force": true`): docs/SECURITY.md.
 */
import { InvalidArgumentError } from '../errors.js';
import { licenseInstallRequest } from '../schemas/license.js';
import type { AppServices, RouteDefinition, RouteRequest } from './route.js';

export function licenseView(services: AppServices) {
  return {
    ...services.license.state(),
    prolongationServer: services.config.license.ProlongationServer,
    lastRenewal: services.license.lastRenewal,
  };
}

/** `?force=true|false`; absent: false. */
function forceInQuery(query: RouteRequest['query']): boolean {
  const value = query.force;
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new InvalidArgumentError('force: ожидается true или false.');
}

export const getLicenseRoute: RouteDefinition = {
  method: 'GET',
  base: 'api',
  path: '/license',
  operationId: 'getLicense',
  summary: 'License status: customer, expiry, countries, last renewal',
  auth: 'key',
  licensed: false,
  response: { $ref: 'LicenseResponse' },
  handle(request, services) {
    return licenseView(services);
  },
};

export const putLicenseRoute: RouteDefinition = {
  method: 'PUT',
  base: 'api',
  path: '/license',
  operationId: 'putLicense',
  summary: 'Install a license key (operator key; an expired or narrower key only with force=true)',
  auth: 'operator',
  licensed: false,
  request: licenseInstallRequest,
  response: { $ref: 'LicenseResponse' },
  errorStatuses: [403],
  handle(request, services) {
    const body = licenseInstallRequest.parse(request.body);
    const force = body.force === true || forceInQuery(request.query);
    const before = services.license.state();
    services.license.install(body.key, { force });
    if (force) {
      const replaced = { status: before.status, customer: before.customer, expires: before.expires, countries: before.countries };
      services.logger.warn({ replaced }, 'license key installed with force by the operator');
    }
    return licenseView(services);
  },
};
