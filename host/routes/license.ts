/** GET /license: the license status; PUT /license `{key}`: install a signed key. */
import { licenseKeyRequest } from '../schemas/license.js';
import type { AppServices, RouteDefinition } from './route.js';

export function licenseView(services: AppServices) {
  return {
    ...services.license.state(),
    prolongationServer: services.config.license.ProlongationServer,
    lastRenewal: services.license.lastRenewal,
  };
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
  summary: 'Install a license key',
  auth: 'key',
  licensed: false,
  request: licenseKeyRequest,
  response: { $ref: 'LicenseResponse' },
  handle(request, services) {
    const body = licenseKeyRequest.parse(request.body);
    services.license.install(body.key);
    return licenseView(services);
  },
};
