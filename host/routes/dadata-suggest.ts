/**
 * DaData's address hints: `POST /suggestions/api/4_1/rs/suggest/address` (and GET with `?query=&count=&language=`),
 * answered by the same engine as POST /suggest/address. `locations` narrow the engine's reading (as our scopes)
 * and then hold exactly as DaData states them; `locations_boost` puts the hints in those places first without
 * leaving the others out; `from_bound`/`to_bound` keep the levels between them and cut the value to them;
 * `restrict_value` leaves the pinned place out of the value; `language: en` writes the record in Latin letters.
 */
import type { Country, Engine, Resolution } from '../../engine/types.js';
import { type DadataSuggestion, type SuggestionView } from '../../engine/records/dadata-record.js';
import { dadataCount, dadataSuggestRequest, type DadataLocation, type DadataSuggestRequest } from '../schemas/dadata.js';
import { interleave, inLocation, pinnedLevel, requestCountries, scopesOf, suggestionOf, uniqueHints, withinBounds } from './dadata-facade.js';
import { MIN_LETTERS, letterCount } from '../../engine/hint-letters.js';
import type { AppServices, RouteDefinition, RouteRequest } from './route.js';

/** Hints read for each one answered when the records are then checked (locations, bounds): the check leaves some out. */
const READ_PER_ANSWER = 4;
const READ_MAX = 100;

function hintsOf(engine: Engine, country: Country, body: DadataSuggestRequest, count: number, services: AppServices): DadataSuggestion[] {
  const dictionary = engine.dictionary(country)!;
  services.license.assertAllows(country);
  const from = body.from_bound?.value;
  const to = body.to_bound?.value;
  const locations = (body.locations ?? []).filter((location) => Object.values(location).some((value) => value && value.trim() !== ''));
  const checked = locations.length > 0 || Boolean(from || to) || Boolean(body.locations_geo?.length);
  const read = checked ? Math.min(count * READ_PER_ANSWER, READ_MAX) : count;
  const pinned = body.restrict_value ? locations.map(pinnedLevel).find((level) => level !== null) ?? null : null;
  const view: SuggestionView = { language: body.language, from, to, restrictTo: pinned };
  const options = { method: 'suggest' as const, original: body.query };

  const resolutions: Resolution[] = [];
  if (body.locations_boost?.length) {
    const boost = scopesOf(body.locations_boost, undefined);
    if (boost?.length) resolutions.push(...engine.suggest(country, body.query, read, boost));
  }
  for (const resolution of engine.suggest(country, body.query, read, scopesOf(locations, body.locations_geo))) {
    if (!resolutions.includes(resolution)) resolutions.push(resolution);
  }
  const items = [];
  for (const resolution of resolutions) {
    if (!resolution.matched) continue;
    const item = suggestionOf(resolution, dictionary, options, view, body.division);
    const data = item.suggestion.data;
    if (locations.length && !locations.some((location) => inLocation(data, location))) continue;
    if (!withinBounds(data, from, to)) continue;
    items.push(item);
  }
  const hints = uniqueHints(items);
  const boosted = body.locations_boost?.length ? boostFirst(hints, body.locations_boost) : hints;
  return boosted.slice(0, count);
}

/** The hints in a boosted place first, each group in its order. */
function boostFirst(hints: DadataSuggestion[], boost: DadataLocation[]): DadataSuggestion[] {
  const first = hints.filter((hint) => boost.some((location) => inLocation(hint.data, location)));
  return [...first, ...hints.filter((hint) => !first.includes(hint))];
}

export function dadataSuggest(request: RouteRequest, services: AppServices, body: DadataSuggestRequest): { suggestions: DadataSuggestion[] } {
  const query = body.query ?? '';
  if (letterCount(query, MIN_LETTERS) < MIN_LETTERS) return { suggestions: [] };
  const count = dadataCount(body.count);
  const countries = requestCountries(request.engine, body.locations);
  const lists = countries.map((country) => hintsOf(request.engine, country, body, count, services));
  return { suggestions: interleave(lists).slice(0, count) };
}

const BASE = {
  base: 'dadata' as const,
  path: '/suggest/address',
  auth: 'key' as const,
  licensed: true,
  response: { $ref: 'DadataSuggestions' },
};

export const dadataSuggestRoute: RouteDefinition = {
  ...BASE,
  method: 'POST',
  operationId: 'dadataSuggestAddress',
  summary: 'DaData-compatible address hints (suggestions-jquery, @dadata/suggestions, react-dadata, dadata-py)',
  request: dadataSuggestRequest,
  handle(request, services) {
    return dadataSuggest(request, services, dadataSuggestRequest.parse(request.body));
  },
};

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The GET form's parameters, for the OpenAPI document (the handler reads them into the POST body and checks that). */
const GET_PARAMETERS = {
  schema: {
    type: 'object',
    properties: { query: { type: 'string', maxLength: 300 }, count: { type: 'integer' }, language: { enum: ['ru', 'en'] } },
    required: ['query'],
  },
  parse: (data: unknown) => data,
};

export const dadataSuggestGetRoute: RouteDefinition = {
  ...BASE,
  method: 'GET',
  request: GET_PARAMETERS,
  operationId: 'dadataSuggestAddressGet',
  summary: 'DaData-compatible address hints with the query in the URL (?query=&count=&language=)',
  handle(request, services) {
    const query = request.query;
    const count = first(query.count);
    const body: Record<string, unknown> = { query: first(query.query) ?? '' };
    if (count !== undefined && count !== '') body.count = /^\d+$/.test(count) ? Number(count) : count;
    const language = first(query.language);
    if (language) body.language = language;
    return dadataSuggest(request, services, dadataSuggestRequest.parse(body));
  },
};
