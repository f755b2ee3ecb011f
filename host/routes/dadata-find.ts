/**
 * DaData's lookups of the facade: `findById/address` (a FIAS GUID, a KLADR code or a cadastral number; the
 * dictionaries of the countries installed, Russia's first), `geolocate/address` (the houses nearest a point within
 * a radius, nearest first; a place when no house is near), `iplocate/address` (no IP database: `{"location":
 * null}`), `status/address` (what suggestions-jquery and @dadata/suggestions read before they start).
 */
import { COUNTRIES, type Country, type Dictionary, type Engine, type Found, type Resolution } from '../../engine/types.js';
import { resolutionOfFound } from '../../engine/records/resolution.js';
import { type DadataSuggestion } from '../../engine/records/dadata-record.js';
import {
  dadataCount, dadataFindByIdRequest, dadataGeolocateRequest, DADATA_GEO_DEFAULT_RADIUS, type DadataGeolocateRequest,
} from '../schemas/dadata.js';
import { suggestionOf, uniqueHints } from './dadata-facade.js';
import { findById } from './id-kind.js';
import type { AppServices, RouteDefinition } from './route.js';
import { SERVICE_VERSION } from './version.js';

const CADNUM = /^\d{2}:\d{2}:\d{6,7}:\d+$/;

/** Houses and apartments by cadastral number, per dictionary: built on the first lookup by one pass over them. */
const CADNUM_INDEX = new WeakMap<Dictionary, Map<string, Found>>();

function cadnumIndex(dictionary: Dictionary): Map<string, Found> {
  let index = CADNUM_INDEX.get(dictionary);
  if (index) return index;
  index = new Map();
  for (let id = 0; id < dictionary.houseCount; id++) {
    const cadnum = dictionary.house(id).cadnum;
    if (cadnum && !index.has(cadnum)) index.set(cadnum, { kind: 'house', id });
  }
  for (let id = 0; id < dictionary.apartmentCount; id++) {
    const cadnum = dictionary.apartment(id).cadnum;
    if (cadnum && !index.has(cadnum)) index.set(cadnum, { kind: 'apartment', id });
  }
  CADNUM_INDEX.set(dictionary, index);
  return index;
}

/** The installed countries, Russia first (DaData's own). */
function installed(engine: Engine): Country[] {
  return COUNTRIES.filter((country) => engine.countries().includes(country));
}

function lookUp(dictionary: Dictionary, id: string): Found | null {
  if (CADNUM.test(id)) return cadnumIndex(dictionary).get(id) ?? null;
  if (!/^[0-9a-f-]{32,36}$/i.test(id) && !/^\d{11,19}$/.test(id)) return null;
  return findById(dictionary, 'UNKNOWN', id);
}

export const dadataFindByIdRoute: RouteDefinition = {
  method: 'POST',
  base: 'dadata',
  path: '/findById/address',
  operationId: 'dadataFindByIdAddress',
  summary: 'DaData-compatible address by FIAS GUID, KLADR code or cadastral number',
  auth: 'key',
  licensed: true,
  request: dadataFindByIdRequest,
  response: { $ref: 'DadataSuggestions' },
  handle(request, services) {
    const body = dadataFindByIdRequest.parse(request.body);
    const id = body.query.trim();
    const count = dadataCount(body.count);
    const suggestions: DadataSuggestion[] = [];
    for (const country of installed(request.engine)) {
      const dictionary = request.engine.dictionary(country)!;
      const found = lookUp(dictionary, id);
      if (!found) continue;
      services.license.assertAllows(country);
      const resolution = resolutionOfFound(dictionary, found);
      if (found.obsolete) resolution.quality.actuality = 1;
      suggestions.push(suggestionOf(resolution, dictionary, { method: 'idsearch', original: id }, {}).suggestion);
      break;
    }
    return { suggestions: suggestions.slice(0, count) };
  },
};

/** Probe points around the centre (fractions of the radius, 8 directions): where the core's nearest house is asked. */
const PROBE_RINGS = [0.5, 1];
const DIRECTIONS = 8;
const METERS_PER_DEGREE = 111_195;
/** Houses of one street looked at beside a house found near the point. */
const STREET_SPAN = 2000;

function distance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dy = (lat2 - lat1) * METERS_PER_DEGREE;
  const dx = (lon2 - lon1) * METERS_PER_DEGREE * Math.cos((lat1 * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

/**
 * The houses within `radius` of the point, nearest first: the core's nearest house to the point and to probes
 * around it, then the houses of those houses' streets (a street's houses are neighbours in the dictionary).
 */
function housesNear(engine: Engine, country: Country, dictionary: Dictionary, lat: number, lon: number, radius: number): { id: number; meters: number }[] {
  const probes: [number, number][] = [[lat, lon]];
  for (const ring of PROBE_RINGS) {
    for (let i = 0; i < DIRECTIONS; i++) {
      const angle = (2 * Math.PI * i) / DIRECTIONS;
      const meters = radius * ring;
      probes.push([lat + (meters * Math.sin(angle)) / METERS_PER_DEGREE, lon + (meters * Math.cos(angle)) / (METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180))]);
    }
  }
  const seeds = new Set<number>();
  for (const [probeLat, probeLon] of probes) {
    const hit = engine.nearest(country, probeLat, probeLon, 'house', radius);
    if (hit && hit.found.kind === 'house') seeds.add(hit.found.id);
  }
  const candidates = new Set<number>();
  for (const seed of seeds) {
    const parent = dictionary.houseLabel(seed).parent;
    candidates.add(seed);
    for (const step of [-1, 1]) {
      for (let id = seed + step, n = 0; id >= 0 && id < dictionary.houseCount && n < STREET_SPAN; id += step, n++) {
        if (dictionary.houseLabel(id).parent !== parent) break;
        candidates.add(id);
      }
    }
  }
  const near: { id: number; meters: number }[] = [];
  for (const id of candidates) {
    const house = dictionary.house(id);
    if (!house.lat && !house.lon) continue;
    const meters = distance(lat, lon, house.lat, house.lon);
    if (meters <= radius) near.push({ id, meters });
  }
  return near.sort((a, b) => a.meters - b.meters || a.id - b.id);
}

/** The country whose dictionary holds the point: the first whose nearest object of any level lies within the radius. */
export function dadataGeolocate(engine: Engine, services: AppServices, body: DadataGeolocateRequest): { suggestions: DadataSuggestion[] } {
  const radius = body.radius_meters || DADATA_GEO_DEFAULT_RADIUS;
  const count = dadataCount(body.count);
  const view = { language: body.language };
  for (const country of installed(engine)) {
    const dictionary = engine.dictionary(country)!;
    const houses = housesNear(engine, country, dictionary, body.lat, body.lon, radius);
    let resolutions: Resolution[] = houses.slice(0, count).map((house) => resolutionOfFound(dictionary, { kind: 'house', id: house.id }));
    if (resolutions.length === 0) {
      const hit = engine.nearest(country, body.lat, body.lon, undefined, radius);
      if (hit) resolutions = [resolutionOfFound(dictionary, hit.found)];
    }
    if (resolutions.length === 0) continue;
    services.license.assertAllows(country);
    return { suggestions: uniqueHints(resolutions.map((resolution) => suggestionOf(resolution, dictionary, { method: 'geosearch', original: '' }, view, body.division))) };
  }
  return { suggestions: [] };
}

export const dadataGeolocateRoute: RouteDefinition = {
  method: 'POST',
  base: 'dadata',
  path: '/geolocate/address',
  operationId: 'dadataGeolocateAddress',
  summary: 'DaData-compatible addresses nearest a point (lat, lon, radius_meters ≤ 1000, count), nearest first',
  auth: 'key',
  licensed: true,
  request: dadataGeolocateRequest,
  response: { $ref: 'DadataSuggestions' },
  handle(request, services) {
    return dadataGeolocate(request.engine, services, dadataGeolocateRequest.parse(request.body));
  },
};

export const dadataIplocateRoute: RouteDefinition = {
  method: 'GET',
  base: 'dadata',
  path: '/iplocate/address',
  operationId: 'dadataIplocateAddress',
  summary: 'DaData-compatible city by IP: the service has no IP database and always answers {"location": null}',
  auth: 'key',
  licensed: false,
  response: { type: 'object', properties: { location: { type: 'null' } }, required: ['location'] },
  handle() {
    return { location: null };
  },
};

/**
 * What suggestions-jquery and @dadata/suggestions read of `status/address` before they ask for hints: `search`
 * true while the service answers hints (false once the license is invalid or expired: the widgets then report it).
 */
export function dadataStatus(services: AppServices): Record<string, unknown> {
  const status = services.license.state().status;
  const serving = status === 'community' || status === 'valid';
  return { search: serving, enrich: false, state: serving ? 'ENABLED' : 'DISABLED', name: 'address', version: SERVICE_VERSION };
}

export const dadataStatusRoute: RouteDefinition = {
  method: 'GET',
  base: 'dadata',
  path: '/status/address',
  operationId: 'dadataStatusAddress',
  summary: 'DaData-compatible service status that DaData\'s widgets read at start-up ({"search": true, …})',
  auth: 'key',
  licensed: false,
  response: { type: 'object', properties: { search: { type: 'boolean' } }, required: ['search'] },
  handle(_request, services) {
    return dadataStatus(services);
  },
};

