/**
 * OpenStreetMap readers: OSM XML (`.osm`, streamed with saxes) and Overpass GeoJSON (per-district files).
 *
 * What becomes what:
 *  - `place=city|town|village|hamlet|…` nodes → city (city, town) or settlement objects with `name`,
 *    aliases from `name:ru`/`name:uk`/`name:be`, coordinates; `joinByName`, so the merge folds them into
 *    the registry's place of the same name in the same region (or the region itself: Москва, Київ);
 *  - named highways (ways) and `osmand:street=yes` nodes (with `is_in:city`) → street objects under their
 *    city, key `osm:<city key>:<street name>`, coordinates = the way's centroid;
 *  - anything with `addr:housenumber` + `addr:street` → a house under the street of its city
 *    (`addr:city`, else the file's city), with `addr:postcode` and coordinates (a way's centroid, from node
 *    coordinates kept while streaming: OSM files put nodes first).
 * Streets are per city: many towns share one «улица Ленина».
 *
 * Node coordinates: ids and Float32 lat/lon in growable typed arrays (16 bytes per node), looked up by
 * binary search (OSM files have nodes sorted by id; an unsorted file is sorted once at the first way).
 * A national extract (≈ 1 G nodes) would need ≈ 16 GB this way: for that scale, filter to the nodes of
 * addressed ways first (osmium) or use a node-location store on disk.
 */
import { readFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Level, type AddressObject, type HouseRecord, type LevelNumber, type ModelSink } from '../source-model.js';
import { HOUSE_LOOKALIKES } from '../fold.js';
import { nameKey } from '../join-keys.js';
import { foldCase } from '../../format/fold.js';
import { typeTable, type Country, type TypeTable } from '../types.js';
import { streamXml } from '../io/xml.js';

export interface OsmCity {
  /** the city's name as the registries write it (`Екатеринбург`, `Москва`, `Київ`) */
  name: string;
  /** region the city is in, any spelling; for a federal city the region itself */
  regionName?: string;
  lat?: number;
  lon?: number;
}

export interface OsmOptions {
  /** the city of addresses without `addr:city` (the file's city); without it such addresses are rejected */
  city?: OsmCity;
  /** region of places in the file that carry none (places elsewhere go by coordinates in the merge) */
  regionName?: string;
  types?: TypeTable;
  log?: (line: string) => void;
  /** source date, YYYYMMDD */
  date?: string;
}

export interface OsmCounts {
  places: number;
  streets: number;
  houses: number;
}

const PLACE_LEVELS: Record<string, LevelNumber> = {
  city: Level.city,
  town: Level.city,
  village: Level.settlement,
  hamlet: Level.settlement,
  isolated_dwelling: Level.settlement,
  suburb: Level.cityArea,
};
const STREET_HIGHWAYS = new Set([
  'motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'living_street',
  'pedestrian', 'service', 'road', 'trunk_link', 'primary_link', 'secondary_link', 'tertiary_link',
]);

/** Collects places, streets and houses of one source file and emits them into the sink. */
class OsmCollector {
  readonly counts: OsmCounts = { places: 0, streets: 0, houses: 0 };
  /** folded city name → key of the place object (several places of one name: nearest wins) */
  private readonly places = new Map<string, Array<{ key: string; lat?: number; lon?: number }>>();
  private readonly streets = new Set<string>();
  private readonly housesSeen = new Set<string>();
  private readonly pending: Array<() => boolean> = [];
  private fileCityKey: string | undefined;

  constructor(
    private readonly sink: ModelSink,
    private readonly options: OsmOptions,
    private readonly types: TypeTable,
    private readonly source: string,
    private readonly fileTag: string,
  ) {
    if (options.city) {
      this.fileCityKey = `osm:city:${nameKey(options.city.name)}`;
      this.sink.addObject(
        clean({
          key: this.fileCityKey,
          level: Level.city,
          parent: null,
          name: options.city.name,
          type: 'г',
          codes: {},
          lat: options.city.lat,
          lon: options.city.lon,
          regionName: options.city.regionName,
          joinByName: true,
          source: 'osm',
        }),
      );
      this.remember(options.city.name, this.fileCityKey, options.city.lat, options.city.lon);
    }
  }

  private get country(): Country {
    return this.sink.country;
  }

  place(osmId: string, tags: Map<string, string>, lat: number, lon: number): void {
    const level = PLACE_LEVELS[tags.get('place') ?? ''];
    const name = tags.get('name');
    if (level === undefined || !name || level === Level.cityArea) return;
    // negative ids (converted test files) are local to their file
    const key = osmId.includes('-') ? `osm:${this.fileTag}:${osmId}` : `osm:${osmId}`;
    const aliases = aliasesOf(tags, name);
    const placeType = tags.get('place') === 'city' || tags.get('place') === 'town' ? (this.country === 'ua' || this.country === 'by' ? 'м' : 'г') : '';
    this.sink.addObject(
      clean({
        key,
        level,
        parent: null,
        name,
        type: this.country === 'by' && placeType === 'м' ? 'г' : placeType,
        codes: osmId.includes('-') ? {} : { osm: osmId },
        lat,
        lon,
        aliases: aliases.length > 0 ? aliases : undefined,
        population: tags.has('population') ? Number(tags.get('population')) || undefined : undefined,
        regionName: this.options.regionName,
        joinByName: true,
        source: 'osm',
      }),
    );
    this.remember(name, key, lat, lon);
    for (const alias of aliases) this.remember(alias, key, lat, lon);
    this.counts.places++;
  }

  private remember(name: string, key: string, lat?: number, lon?: number): void {
    const list = this.places.get(nameKey(name)) ?? [];
    if (!list.some((p) => p.key === key)) list.push({ key, lat, lon });
    this.places.set(nameKey(name), list);
  }

  /** the place key for a city name, nearest to (lat, lon) among same-named places */
  private readonly unresolvedCities: string[] = [];

  private cityKey(cityName: string | undefined, lat?: number, lon?: number): string | undefined {
    if (!cityName) return this.fileCityKey;
    const list = this.places.get(nameKey(cityName));
    if (!list || list.length === 0) {
      if (!this.finishing) return undefined;
      // a city named by addresses only (suburbs in a city extract): a place found by name in the merge
      const key = `osm:${this.fileTag}:city:${nameKey(cityName)}`;
      this.sink.addObject(
        clean({
          key,
          level: Level.settlement,
          parent: null,
          name: cityName,
          type: '',
          codes: {},
          regionName: this.options.regionName ?? this.options.city?.regionName,
          joinByName: true,
          source: 'osm',
        }),
      );
      this.remember(cityName, key);
      this.unresolvedCities.push(cityName);
      return key;
    }
    if (list.length === 1 || lat === undefined || lon === undefined) return list[0].key;
    let best = list[0];
    let bestDistance = Infinity;
    for (const place of list) {
      if (place.lat === undefined || place.lon === undefined) continue;
      const d = (place.lat - lat) ** 2 + (place.lon - lon) ** 2;
      if (d < bestDistance) {
        bestDistance = d;
        best = place;
      }
    }
    return best.key;
  }

  /** a street of a city (created once), returns its key */
  street(fullName: string, cityKey: string, extra: { lat?: number; lon?: number; osm?: string; aliases?: string[] } = {}): string {
    const key = `osm:${cityKey.replace(/^osm:/, '')}:${nameKey(fullName)}`;
    const first = !this.streets.has(key);
    if (!first && extra.lat === undefined && !extra.aliases?.length) return key;
    this.streets.add(key);
    // a note in brackets after the name (`Комсомольская улица (Козья слобода)`: which of two streets of one name) is
    // no part of it: the type is read before it, and the note stays an other name's words
    const note = /\s*\(([^()]*)\)\s*$/.exec(fullName);
    const bare = note && note.index > 0 ? fullName.slice(0, note.index) : fullName;
    const { type, name } = this.types.splitTypedName(bare, this.country, [Level.street, Level.planStructure]);
    const aliases = [...(extra.aliases ?? []), ...(bare !== fullName && note![1].trim() ? [`${name} ${note![1].trim()}`] : [])];
    const typeLevels = type === '' ? [] : (this.types.lookup(type, this.country)?.levels ?? []);
    const level = type === '' || typeLevels.includes(Level.street) ? Level.street : Level.planStructure;
    // a later way of the same street adds its coordinates/aliases through the merge (same key)
    this.sink.addObject(
      clean({
        key,
        level,
        parent: cityKey,
        name,
        type,
        // a negative id (OsmAnd's converted points) is no OSM element: no code, as for places and houses
        codes: extra.osm && !extra.osm.includes('-') ? { osm: extra.osm } : {},
        lat: extra.lat,
        lon: extra.lon,
        aliases: aliases.length > 0 ? aliases : undefined,
        joinByName: true,
        source: 'osm',
      }),
    );
    if (first) this.counts.streets++;
    return key;
  }

  /** a named street way or an OsmAnd street point */
  namedStreet(osmId: string, tags: Map<string, string>, lat?: number, lon?: number): void {
    const name = tags.get('name');
    if (!name) return;
    const emit = (): boolean => {
      const cityKey = this.cityKey(tags.get('is_in:city') ?? tags.get('addr:city'), lat, lon);
      if (!cityKey) return false;
      const aliases = aliasesOf(tags, name);
      this.street(name, cityKey, { lat, lon, osm: osmId, aliases });
      return true;
    };
    if (!emit()) this.pending.push(emit);
  }

  house(osmId: string, tags: Map<string, string>, lat?: number, lon?: number): void {
    const street = tags.get('addr:street') ?? tags.get('addr:place');
    const number = tags.get('addr:housenumber');
    if (!street || !number) return;
    const emit = (): boolean => {
      const cityKey = this.cityKey(tags.get('addr:city'), lat, lon);
      if (!cityKey) return false;
      const streetKey = this.street(street, cityKey);
      const parsed = parseHouseNumber(number);
      // every building is a house of its own (several buildings often share one address, and reverse
      // geocoding must find each); only id-less points (OsmAnd extracts) are deduplicated by address
      const dedupe = osmId.includes('-')
        ? `${streetKey}|${parsed.number}|${parsed.block ?? ''}|${parsed.building ?? ''}|${parsed.liter ?? ''}`
        : osmId;
      if (this.housesSeen.has(dedupe)) return true;
      this.housesSeen.add(dedupe);
      const postcode = tags.get('addr:postcode')?.replace(/\s/g, '');
      const letter = tags.get('addr:letter');
      const house: HouseRecord = {
        parent: streetKey,
        ...parsed,
        codes: osmId.includes('-') ? {} : { osm: osmId },
        source: 'osm',
      };
      if (letter && !house.liter) house.liter = letter.toLowerCase();
      if (postcode && /^\d{5,6}$/.test(postcode)) house.postcode = postcode;
      if (lat !== undefined && lon !== undefined) {
        house.lat = lat;
        house.lon = lon;
      }
      const flats = Number(tags.get('addr:flats')?.split('-').pop());
      if (Number.isInteger(flats) && flats > 0) house.flatCount = flats;
      this.sink.addHouse(house);
      this.counts.houses++;
      return true;
    };
    if (!emit()) this.pending.push(emit);
  }

  /** resolve what waited for a place defined later in the file; the rest is rejected */
  private finishing = false;

  finish(): void {
    this.finishing = true;
    let unresolved = 0;
    for (const emit of this.pending) {
      if (emit()) continue;
      this.sink.reject(this.source, 'address or street in a city not in the file');
      unresolved++;
    }
    if (this.unresolvedCities.length > 0) this.options.log?.(`osm: ${this.fileTag}: cities named only by addresses: ${this.unresolvedCities.slice(0, 8).join(', ')}`);
    void unresolved;
    this.pending.length = 0;
  }
}

function aliasesOf(tags: Map<string, string>, name: string): string[] {
  const aliases = new Set<string>();
  for (const key of ['name:ru', 'name:uk', 'name:be', 'official_name', 'alt_name', 'old_name']) {
    for (const value of (tags.get(key) ?? '').split(';')) {
      const alias = value.trim();
      if (alias && nameKey(alias) !== nameKey(name)) aliases.add(alias);
    }
  }
  return [...aliases];
}

/**
 * `11` → number 11; `11а`, `11А` → `11а`; `3 к2` / `3к2` / `3 корп. 2` → number 3, block 2;
 * `10с12`, `10 стр 2` → building; `11/2` stays one number; `5 лит. А` → liter `а`. A Latin look-alike after a
 * digit is its Cyrillic letter: `44c1` → number 44, building 1; `12a` → `12а`.
 */
export function parseHouseNumber(text: string): Pick<HouseRecord, 'number' | 'block' | 'building' | 'liter'> {
  let rest = foldCase(text.trim().replace(/(?<=\d\s?)[a-zA-Z](?![a-zA-Z])/g, (ch) => HOUSE_LOOKALIKES[ch] ?? ch));
  const result: Pick<HouseRecord, 'number' | 'block' | 'building' | 'liter'> = { number: '' };
  const take = (pattern: RegExp): string | undefined => {
    const match = pattern.exec(rest);
    if (!match) return undefined;
    rest = (rest.slice(0, match.index) + ' ' + rest.slice(match.index + match[0].length)).trim();
    return match[1];
  };
  const liter = take(/\s*лит(?:ера|\.)?\s*([а-я])(?=\s|$)/);
  // 3к2, 3 к2, 3 корп. 2, 3 корпус 2
  const block = take(/\s*(?:к|корп\.?|корпус)\s*(\d+[а-я]?)(?=\s|$|с)/);
  // 10с12, 10 стр 2, 10 строение 2
  const building = take(/\s*(?:с|стр\.?|строение)\s*(\d+[а-я]?)(?=\s|$)/);
  result.number = rest.replace(/[\s,;]+/g, ''); // `6, лит. А` → 6 литера а
  if (block) result.block = block;
  if (building) result.building = building;
  if (liter) result.liter = liter;
  return result;
}

/** Read one OSM XML file. */
export async function readOsmXml(path: string, sink: ModelSink, options: OsmOptions = {}): Promise<OsmCounts> {
  const types = options.types ?? typeTable();
  sink.addSource({ name: `OpenStreetMap ${path.split('/').pop()}`, date: options.date ?? '', licence: 'ODbL 1.0' });
  const collector = new OsmCollector(sink, options, types, 'osm', fileTagOf(path));
  const nodes = new NodeCoordinates();
  // the ways' centres, for the relations after them (a multipolygon building's point: its outer ways' mean)
  const wayCentres = new NodeCoordinates();
  let element: { kind: 'node' | 'way' | 'relation'; id: string; lat?: number; lon?: number; refs: number[]; outer: number[]; tags: Map<string, string> } | null = null;
  await streamXml(createReadStream(path), path, {
    open(name, a) {
      if (name === 'node' || name === 'way' || name === 'relation') {
        if (!a.id) throw new Error(`<${name}> without id`);
        element = { kind: name, id: a.id, refs: [], outer: [], tags: new Map() };
        if (name === 'node') {
          const lat = Number(a.lat);
          const lon = Number(a.lon);
          if (!Number.isFinite(lat) || !Number.isFinite(lon)) throw new Error(`node ${a.id}: bad lat/lon`);
          element.lat = lat;
          element.lon = lon;
          nodes.add(Number(a.id), lat, lon);
        }
      } else if (element !== null) {
        if (name === 'tag' && a.k !== undefined) element.tags.set(a.k, a.v ?? '');
        else if (name === 'nd' && a.ref) element.refs.push(Number(a.ref));
        else if (name === 'member' && a.type === 'way' && a.ref) (a.role === 'outer' ? element.outer : element.refs).push(Number(a.ref));
      }
    },
    close(name) {
      if (element === null || name !== element.kind) return;
      const e = element;
      element = null;
      let lat = e.lat;
      let lon = e.lon;
      if (e.kind === 'way') {
        const centre = nodes.centroid(e.refs);
        lat = centre?.lat;
        lon = centre?.lon;
        if (centre) wayCentres.add(Number(e.id), centre.lat, centre.lon);
      } else if (e.kind === 'relation') {
        // its outer ways' centres (all its ways' when none is marked outer)
        const centre = wayCentres.centroid(e.outer.length > 0 ? e.outer : e.refs);
        lat = centre?.lat;
        lon = centre?.lon;
      }
      if (e.tags.size === 0) return;
      const osmId = { node: 'N', way: 'W', relation: 'R' }[e.kind] + e.id;
      if (e.tags.has('place') && e.kind === 'node') collector.place(osmId, e.tags, lat!, lon!);
      if (e.tags.get('osmand:street') === 'yes' || (e.kind === 'way' && STREET_HIGHWAYS.has(e.tags.get('highway') ?? ''))) {
        collector.namedStreet(osmId, e.tags, lat, lon);
      }
      if (e.tags.has('addr:housenumber')) collector.house(osmId, e.tags, lat, lon);
    },
  });
  collector.finish();
  options.log?.(`osm: ${path}: ${collector.counts.places} places, ${collector.counts.streets} streets, ${collector.counts.houses} houses`);
  return collector.counts;
}

/** Read Overpass GeoJSON files of one city (districts overlap at their edges: features deduplicated by id). */
export async function readOverpassGeojson(paths: string[], sink: ModelSink, options: OsmOptions): Promise<OsmCounts> {
  if (!options.city) throw new Error('readOverpassGeojson: options.city is required (the files carry no place)');
  const types = options.types ?? typeTable();
  sink.addSource({ name: `OpenStreetMap Overpass ${options.city.name}`, date: options.date ?? '', licence: 'ODbL 1.0' });
  const collector = new OsmCollector(sink, options, types, 'osm', fileTagOf(paths[0] ?? ''));
  const seen = new Set<string>();
  for (const path of paths) {
    let json: { type?: string; features?: Array<{ properties?: Record<string, string>; geometry?: { type: string; coordinates: unknown } }>; timestamp?: string };
    try {
      json = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new Error(`${path}: not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    if (json.type !== 'FeatureCollection' || !Array.isArray(json.features)) throw new Error(`${path}: not a GeoJSON FeatureCollection`);
    json.features.forEach((feature, index) => {
      const properties = feature.properties ?? {};
      const id = properties['@id'] ?? properties.id;
      if (!id) throw new Error(`${path}: feature ${index} has no @id`);
      const match = /^(node|way|relation)\/(\d+)$/.exec(id);
      if (!match) throw new Error(`${path}: feature ${index}: bad @id "${id}"`);
      if (seen.has(id)) return;
      seen.add(id);
      const osmId = { node: 'N', way: 'W', relation: 'R' }[match[1]]! + match[2];
      const tags = new Map(Object.entries(properties).filter(([, v]) => typeof v === 'string'));
      const centre = feature.geometry ? geometryCentroid(feature.geometry) : undefined;
      if (tags.has('addr:housenumber')) collector.house(osmId, tags, centre?.lat, centre?.lon);
      else if (STREET_HIGHWAYS.has(tags.get('highway') ?? '')) collector.namedStreet(osmId, tags, centre?.lat, centre?.lon);
    });
  }
  collector.finish();
  options.log?.(`osm: ${options.city.name}: ${paths.length} GeoJSON files, ${collector.counts.streets} streets, ${collector.counts.houses} houses`);
  return collector.counts;
}

function fileTagOf(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.[^.]+$/, '');
}

/** Points by OSM id (the nodes', and the ways' centres): append-only typed arrays, binary search once sorted. */
class NodeCoordinates {
  private ids = new Float64Array(1024);
  private lats = new Float32Array(1024);
  private lons = new Float32Array(1024);
  private count = 0;
  private sorted = true;

  add(id: number, lat: number, lon: number): void {
    if (this.count === this.ids.length) {
      const grow = <T extends Float64Array | Float32Array>(a: T): T => {
        const b = new (a.constructor as { new (n: number): T })(a.length * 2);
        b.set(a);
        return b;
      };
      this.ids = grow(this.ids);
      this.lats = grow(this.lats);
      this.lons = grow(this.lons);
    }
    if (this.count > 0 && id < this.ids[this.count - 1]) this.sorted = false;
    this.ids[this.count] = id;
    this.lats[this.count] = lat;
    this.lons[this.count] = lon;
    this.count++;
  }

  private sort(): void {
    const order = Array.from({ length: this.count }, (_, i) => i).sort((a, b) => this.ids[a] - this.ids[b]);
    const ids = new Float64Array(this.ids.length);
    const lats = new Float32Array(this.ids.length);
    const lons = new Float32Array(this.ids.length);
    order.forEach((from, to) => {
      ids[to] = this.ids[from];
      lats[to] = this.lats[from];
      lons[to] = this.lons[from];
    });
    this.ids = ids;
    this.lats = lats;
    this.lons = lons;
    this.sorted = true;
  }

  private find(id: number): number {
    if (!this.sorted) this.sort();
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = this.ids[mid];
      if (value === id) return mid;
      if (value < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** mean of the way's distinct nodes (a closed way's last node repeats its first) */
  centroid(refs: number[]): { lat: number; lon: number } | undefined {
    let lat = 0;
    let lon = 0;
    let n = 0;
    const last = refs.length > 1 && refs[0] === refs[refs.length - 1] ? refs.length - 1 : refs.length;
    for (let i = 0; i < last; i++) {
      const index = this.find(refs[i]);
      if (index < 0) continue;
      lat += this.lats[index];
      lon += this.lons[index];
      n++;
    }
    return n === 0 ? undefined : { lat: round6(lat / n), lon: round6(lon / n) };
  }
}

/** area-weighted centroid of a polygon's outer ring; the mean of points for lines and points */
export function geometryCentroid(geometry: { type: string; coordinates: unknown }): { lat: number; lon: number } | undefined {
  const ringCentroid = (ring: number[][]): { lat: number; lon: number; area: number } | undefined => {
    let area = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [x0, y0] = ring[j];
      const [x1, y1] = ring[i];
      const cross = x0 * y1 - x1 * y0;
      area += cross;
      cx += (x0 + x1) * cross;
      cy += (y0 + y1) * cross;
    }
    if (Math.abs(area) < 1e-14) {
      const points = ring.length;
      if (points === 0) return undefined;
      return { lon: ring.reduce((s, p) => s + p[0], 0) / points, lat: ring.reduce((s, p) => s + p[1], 0) / points, area: 0 };
    }
    return { lon: cx / (3 * area), lat: cy / (3 * area), area: Math.abs(area / 2) };
  };
  let result: { lat: number; lon: number } | undefined;
  switch (geometry.type) {
    case 'Point': {
      const [lon, lat] = geometry.coordinates as number[];
      result = { lat, lon };
      break;
    }
    case 'LineString':
      result = ringCentroid(geometry.coordinates as number[][]);
      if (result) {
        const line = geometry.coordinates as number[][];
        result = { lon: line.reduce((s, p) => s + p[0], 0) / line.length, lat: line.reduce((s, p) => s + p[1], 0) / line.length };
      }
      break;
    case 'Polygon':
      result = ringCentroid((geometry.coordinates as number[][][])[0]);
      break;
    case 'MultiPolygon': {
      let best: { lat: number; lon: number; area: number } | undefined;
      for (const polygon of geometry.coordinates as number[][][][]) {
        const c = ringCentroid(polygon[0]);
        if (c && (!best || c.area > best.area)) best = c;
      }
      result = best;
      break;
    }
  }
  return result && Number.isFinite(result.lat) ? { lat: round6(result.lat), lon: round6(result.lon) } : undefined;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function clean(object: AddressObject): AddressObject {
  for (const [key, value] of Object.entries(object)) if (value === undefined) delete (object as unknown as Record<string, unknown>)[key];
  return object;
}
