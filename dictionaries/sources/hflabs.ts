/**
 * hflabs tables (CSV, csv-parse streaming): `region.csv` (subjects with FIAS, KLADR, OKATO, OKTMO, IFNS,
 * postcode, ISO, timezone), `city.csv` (cities with names of region/area/city/settlement, codes,
 * timezone, coordinates, population) and `socrbase.csv` (type abbreviations, read by `readSocrbase`).
 *
 * Keys are `fiasKey(guid)` so a GAR record of the same place folds into the same object. A city row is the
 * place its FIAS id names: the settlement when one is given (`г Ялта, г Алупка` is Алупка), else the city,
 * else an area written as a city (`Московская обл, г Воскресенск`, FIAS level 3). It is put at level city,
 * which is what people call it. Areas (`р-н`, `у`) become area objects keyed by region and name. Federal
 * cities (Москва, Санкт-Петербург, Севастополь, Байконур) are regions: their city row is folded into the
 * region instead of creating a city.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { fiasKey, Level, type AddressObject, type ModelSink } from '../source-model.js';
import { nameKey } from '../join-keys.js';
import type { AddressType } from '../types.js';

export interface HflabsPaths {
  region: string;
  city: string;
}

/** stream CSV rows as objects keyed by header; errors name the file and the line */
export async function* csvRows(path: string, options: { delimiter?: string; columns?: boolean; quote?: boolean } = {}): AsyncGenerator<{ row: Record<string, string>; line: number }> {
  const parser = createReadStream(path).pipe(
    parse({
      columns: options.columns ?? true,
      delimiter: options.delimiter ?? ',',
      quote: options.quote === false ? false : '"',
      bom: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }),
  );
  let line = 1;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      line = info.lines;
      yield { row: record, line };
    }
  } catch (error) {
    throw new Error(`${path}: line ${line + 1}: ${(error as Error).message}`, { cause: error });
  }
}

export async function readHflabs(paths: HflabsPaths, sink: ModelSink, _options: { log?: (line: string) => void } = {}): Promise<{ regions: number; cities: number; areas: number }> {
  sink.addSource({ name: 'hflabs region/city', date: '', licence: 'CC BY-SA 4.0' });
  const regionByName = new Map<string, string>();
  let regions = 0;
  for await (const { row, line } of csvRows(paths.region)) {
    const fias = requireGuid(row.fias_id, paths.region, line);
    const key = fiasKey(fias);
    regionByName.set(nameKey(row.name), key);
    sink.addObject(
      clean({
        key,
        level: Level.region,
        parent: null,
        name: row.name,
        type: row.type,
        codes: { fias, kladr: row.kladr_id, okato: row.okato, oktmo: row.oktmo, ifns: row.tax_office },
        postcode: sixDigits(row.postal_code),
        timezone: row.timezone || undefined,
        iso: row.iso_code || undefined,
        source: 'hflabs',
      }),
    );
    regions++;
  }
  let cities = 0;
  const areas = new Set<string>();
  for await (const { row, line } of csvRows(paths.city)) {
    const regionKey = regionByName.get(nameKey(row.region));
    if (!regionKey) throw new Error(`${paths.city}: line ${line}: region "${row.region}" is not in ${paths.region}`);
    const fias = requireGuid(row.fias_id, paths.city, line);
    const place = placeOf(row);
    const common = {
      lat: number(row.geo_lat),
      lon: number(row.geo_lon),
      population: number(row.population),
      timezone: row.timezone || undefined,
      postcode: sixDigits(row.postal_code),
    };
    if (place === null) {
      // a federal city: the region itself
      sink.addObject(clean({ key: regionKey, level: Level.region, parent: null, name: row.region, type: row.region_type, codes: { fias }, ...common, source: 'hflabs' }));
      continue;
    }
    let parent = regionKey;
    if (row.area && row.area_type !== 'г') {
      const areaKey = `hf-area:${regionKey}:${nameKey(row.area)}`;
      if (!areas.has(areaKey)) {
        areas.add(areaKey);
        sink.addObject({ key: areaKey, level: Level.area, parent: regionKey, name: row.area, type: row.area_type, codes: {}, joinByName: true, source: 'hflabs' });
      }
      parent = areaKey;
    }
    sink.addObject(
      clean({
        key: fiasKey(fias),
        level: Level.city,
        parent,
        name: place.name,
        type: place.type,
        codes: { fias, kladr: row.kladr_id, okato: row.okato, oktmo: row.oktmo, ifns: row.tax_office },
        ...common,
        source: 'hflabs',
      }),
    );
    cities++;
  }
  return { regions, cities, areas: areas.size };
}

/** the place a city row's FIAS id names; null for a federal city (the region itself) */
function placeOf(row: Record<string, string>): { name: string; type: string } | null {
  if (row.settlement) return { name: row.settlement, type: row.settlement_type };
  if (row.city) return { name: row.city, type: row.city_type };
  if (row.area && row.area_type === 'г') return { name: row.area, type: 'г' };
  return null;
}

/** `socrbase.csv`: abbreviation, FIAS level, full name; for enriching the type table */
export async function readSocrbase(path: string): Promise<AddressType[]> {
  const types: AddressType[] = [];
  const levels: Record<string, number> = { '1': Level.region, '3': Level.area, '4': Level.city, '6': Level.settlement, '65': Level.planStructure, '7': Level.street, '90': Level.planStructure, '91': Level.street };
  for await (const { row } of csvRows(path)) {
    const level = levels[row.fias_level];
    if (level === undefined) continue;
    types.push({ country: '*', abbr: row.name, full: row.name_full, levels: [level as AddressType['levels'][number]], after: false, synonyms: [] });
  }
  return types;
}

function requireGuid(value: string | undefined, path: string, line: number): string {
  const guid = (value ?? '').toLowerCase();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(guid)) throw new Error(`${path}: line ${line}: bad fias_id "${value ?? ''}"`);
  return guid;
}

function number(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function sixDigits(value: string | undefined): string | undefined {
  return value && /^\d{6}$/.test(value) ? value : undefined;
}

/** drop empty codes and undefined fields */
function clean(object: AddressObject): AddressObject {
  for (const code of Object.keys(object.codes) as Array<keyof AddressObject['codes']>) if (!object.codes[code]) delete object.codes[code];
  for (const [key, value] of Object.entries(object)) if (value === undefined) delete (object as unknown as Record<string, unknown>)[key];
  return object;
}
