/**
 * Metro stations from the hh.ru API dump (`hh-metro.json`: cities → lines → stations with lat/lng).
 * The file is small (≈600 stations), so it is read whole. Only cities of the sink's country are kept:
 * the caller says which city names belong to it (`cities`), or all are kept.
 */
import { readFile } from 'node:fs/promises';
import type { ModelSink } from '../source-model.js';

interface HhCity {
  id: string;
  name: string;
  lines: Array<{ id: string; name: string; stations: Array<{ id: string; name: string; lat: number; lng: number }> }>;
}

export async function readMetro(path: string, sink: ModelSink, options: { cities?: string[]; date?: string } = {}): Promise<{ stations: number; cities: number }> {
  let data: HhCity[];
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(data)) throw new Error(`${path}: expected an array of cities`);
  let stations = 0;
  let cities = 0;
  for (const city of data) {
    if (!city?.name || !Array.isArray(city.lines)) throw new Error(`${path}: city ${JSON.stringify(city?.id)} without name or lines`);
    if (options.cities && !options.cities.includes(city.name)) continue;
    cities++;
    for (const line of city.lines) {
      for (const station of line.stations ?? []) {
        if (!Number.isFinite(station.lat) || !Number.isFinite(station.lng)) throw new Error(`${path}: station ${station.id} (${station.name}) without coordinates`);
        sink.addMetro({ name: station.name, line: line.name, city: city.name, lat: station.lat, lon: station.lng });
        stations++;
      }
    }
  }
  sink.addSource({ name: 'hh.ru metro', date: options.date ?? '', licence: 'public API dump' });
  return { stations, cities };
}
