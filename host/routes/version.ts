/** GET /version: the service version and the versions of the loaded dictionaries; never needs a key. */
import { readFileSync } from 'node:fs';
import { COUNTRIES, type Engine } from '../../engine/types.js';
import type { RouteDefinition } from './route.js';

export const SERVICE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function dbVersion(engine: Engine) {
  const versions: Record<string, { db: string; migration: string }> = {};
  for (const country of COUNTRIES) {
    const dictionary = engine.dictionary(country);
    versions[country] = { db: dictionary ? `${country}_${dictionary.sourceDate}` : '', migration: '' };
  }
  // the dictionary of names is built with the Russian one, from the same sources
  const ru = engine.dictionary('ru');
  versions.name = { db: ru ? `name_${ru.sourceDate}` : '', migration: '' };
  return versions;
}

export const versionRoute: RouteDefinition = {
  method: 'GET',
  base: 'api',
  path: '/version',
  operationId: 'version',
  summary: 'Service version and the installed dictionary versions',
  auth: 'open',
  licensed: false,
  response: { $ref: 'VersionResponse' },
  handle(request) {
    return { serviceVersion: SERVICE_VERSION, dbVersion: dbVersion(request.engine) };
  },
};
