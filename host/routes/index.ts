/** Every route of the service, in the order the OpenAPI document lists them. */
import { cleanAddressIqdqRoute } from './clean-address-iqdq.js';
import { cleanAddressRoute } from './clean-address.js';
import { cleanHouseRoute } from './clean-house.js';
import { dadataFindByIdRoute, dadataGeolocateRoute, dadataIplocateRoute, dadataStatusRoute } from './dadata-find.js';
import { dadataSuggestGetRoute, dadataSuggestRoute } from './dadata-suggest.js';
import { geosearchAddressRoute } from './geosearch-address.js';
import { healthRoute } from './health.js';
import { idsearchAddressRoute } from './idsearch-address.js';
import { idsearchCenterRoute } from './idsearch-center.js';
import { legacySearchAddressDetailRoute, legacySearchAddressDetailVariantRoute, legacyCheckAddressRoute } from './legacy-search-address-detail.js';
import { legacySelectAddressRoute } from './legacy-select-address.js';
import { getLicenseRoute, putLicenseRoute } from './license.js';
import type { RouteDefinition } from './route.js';
import { suggestAddressRoute } from './suggest-address.js';
import { versionRoute } from './version.js';

export const ROUTES: RouteDefinition[] = [
  cleanAddressRoute,
  cleanAddressIqdqRoute,
  cleanHouseRoute,
  suggestAddressRoute,
  geosearchAddressRoute,
  idsearchAddressRoute,
  idsearchCenterRoute,
  versionRoute,
  healthRoute,
  getLicenseRoute,
  putLicenseRoute,
  legacySelectAddressRoute,
  legacySearchAddressDetailRoute,
  legacySearchAddressDetailVariantRoute,
  legacyCheckAddressRoute,
  dadataSuggestRoute,
  dadataSuggestGetRoute,
  dadataFindByIdRoute,
  dadataGeolocateRoute,
  dadataIplocateRoute,
  dadataStatusRoute,
];

export const API_PREFIXES = ['/api/v1', '/v1'];
export const LEGACY_PREFIX = '/legacy';
/** DaData's suggestions API path: its clients take the service's URL up to here (`serviceUrl`). */
export const DADATA_PREFIX = '/suggestions/api/4_1/rs';

/** Full paths a route is served at. */
export function routePaths(route: RouteDefinition): string[] {
  const paths = [route.path, ...(route.aliases ?? [])];
  const prefixes = route.base === 'api' ? API_PREFIXES : route.base === 'dadata' ? [DADATA_PREFIX] : [LEGACY_PREFIX];
  return prefixes.flatMap((prefix) => paths.map((path) => `${prefix}${path}`));
}
