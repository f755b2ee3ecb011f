/**
 * GeoNames postal code files (tab-separated, no header: country, postcode, place, admin1 name, admin1
 * code, admin2 name, admin2 code, admin3 name, admin3 code, lat, lon, accuracy).
 *
 * Every row becomes an `addPostcode` (postcode, region, place, coordinates): the merge uses them to give
 * registry places (KATOTTG) a postcode and coordinates by name. Region names are Latin in these files;
 * `data/geonames-regions.tsv` maps them to the registry's names. With `createObjects` (Belarus, which has
 * no registry here) the file also defines the places: regions from that table, Минск as a city-region,
 * and one object per (region, place name) — a city when it has several postcodes or is the region's seat (its round
 * postcode, `246000 Гомель`, in the district named as the region), else a settlement —
 * with the lowest postcode and the mean coordinates. Places are few (thousands), so they are gathered
 * before they are emitted.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Level, type ModelSink } from '../source-model.js';
import { nameKey } from '../join-keys.js';
import { csvRows } from './hflabs.js';

const REGIONS_FILE = fileURLToPath(new URL('../data/geonames-regions.tsv', import.meta.url));
const COLUMNS = ['country', 'postcode', 'place', 'admin1', 'admin1code', 'admin2', 'admin2code', 'admin3', 'admin3code', 'lat', 'lon', 'accuracy'];

export interface GeonamesOptions {
  /** also create region and place objects (for a country with no registry) */
  createObjects?: boolean;
  /** the country's capital, a region of its own (`{ name: 'Минск', admin1: 'Minsk', aliases: ['Мінск'] }`) */
  capital?: { name: string; admin1: string; aliases: string[] };
  regionsFile?: string;
}

export function loadGeonamesRegions(country: string, file = REGIONS_FILE): Map<string, { name: string; type: string }> {
  const map = new Map<string, { name: string; type: string }>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line === '' || line.startsWith('#')) return;
      const [lineCountry, admin1, name, type] = line.split('\t');
      if (type === undefined) throw new Error(`${file}:${index + 1}: expected 4 tab-separated cells`);
      if (lineCountry === country) map.set(admin1, { name, type });
    });
  return map;
}

export async function readGeonamesPostal(path: string, sink: ModelSink, options: GeonamesOptions = {}): Promise<{ rows: number; places: number }> {
  sink.addSource({ name: `GeoNames postal ${sink.country.toUpperCase()}`, date: '', licence: 'CC BY 4.0' });
  const regions = loadGeonamesRegions(sink.country, options.regionsFile);
  const capital = options.capital;
  const places = new Map<string, { region: string; name: string; postcodes: string[]; lat: number; lon: number; n: number; seat: boolean }>();
  let rows = 0;
  if (options.createObjects) {
    for (const region of regions.values()) {
      sink.addObject({ key: `geonames:region:${nameKey(region.name)}`, level: Level.region, parent: null, name: region.name, type: region.type, codes: {}, source: 'geonames' });
    }
    if (capital) {
      sink.addObject({ key: `geonames:region:${nameKey(capital.name)}`, level: Level.region, parent: null, name: capital.name, type: 'г', codes: {}, aliases: capital.aliases, source: 'geonames' });
    }
  }
  for await (const { row: cells, line } of csvRows(path, { delimiter: '\t', columns: false, quote: false })) {
    const row = Object.fromEntries(COLUMNS.map((c, i) => [c, (cells as unknown as string[])[i] ?? '']));
    if (row.country.toLowerCase() !== sink.country) throw new Error(`${path}: line ${line}: country "${row.country}" in a ${sink.country} file`);
    if (!/^\d{5,6}$/.test(row.postcode)) throw new Error(`${path}: line ${line}: bad postcode "${row.postcode}"`);
    const lat = Number(row.lat);
    const lon = Number(row.lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) throw new Error(`${path}: line ${line}: bad coordinates`);
    rows++;
    const isCapital =
      capital !== undefined && row.admin1 === capital.admin1 && (nameKey(row.place) === nameKey(capital.name) || (row.admin2 === '' && /^[A-Za-z]/.test(row.place)));
    const region = isCapital ? capital!.name : regions.get(row.admin1)?.name;
    if (!region) {
      sink.reject('geonames', 'region not in geonames-regions.tsv');
      continue;
    }
    const place = isCapital ? capital!.name : row.place;
    // Latin place names (a few Minsk rows) name no place anyone writes in Cyrillic
    if (/^[A-Za-z]/.test(place)) continue;
    sink.addPostcode({ postcode: row.postcode, region, city: place, lat, lon });
    if (options.createObjects && !isCapital) {
      const key = `${nameKey(region)}|${nameKey(place)}`;
      const entry = places.get(key) ?? { region, name: place, postcodes: [], lat: 0, lon: 0, n: 0, seat: false };
      entry.postcodes.push(row.postcode);
      // the region's seat: its round postcode (246000 Гомель) in the district named as the region
      if (/000$/.test(row.postcode) && row.admin2 !== '' && row.admin2 === row.admin1) entry.seat = true;
      entry.lat += lat;
      entry.lon += lon;
      entry.n++;
      places.set(key, entry);
    }
  }
  for (const [key, place] of places) {
    const postcodes = [...new Set(place.postcodes)].sort();
    const city = postcodes.length >= 3 || place.seat;
    sink.addObject({
      key: `geonames:${key}`,
      level: city ? Level.city : Level.settlement,
      parent: `geonames:region:${nameKey(place.region)}`,
      name: place.name,
      type: city ? 'г' : '',
      codes: {},
      postcode: postcodes[0],
      lat: Math.round((place.lat / place.n) * 1e6) / 1e6,
      lon: Math.round((place.lon / place.n) * 1e6) / 1e6,
      source: 'geonames',
    });
  }
  return { rows, places: places.size };
}
