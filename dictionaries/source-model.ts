/**
 * The source model: the records every reader streams into the merge (`ModelSink`), in memory only.
 * Readers write it (sources/), the merge reads it (merge/); the merged tree the writer reads is
 * merged-model.ts.
 *
 * One `ModelSink` per country. Readers never build the whole model themselves: they call
 * `addObject`, `addHouse`, `addApartment`, `addMetro` record by record as they stream their source,
 * so the memory a reader holds is bounded by the record it is parsing. Objects (regions down to streets)
 * are few (≈1.5 M for all of Russia) and kept as plain objects; houses and apartments are the bulk
 * (≈35 M) and go to a columnar store (see `house-store.ts`).
 *
 * Keys: every object has a `key` unique within its country. An object the FIAS registry identifies is keyed
 * by its lower-case GUID itself (`fiasKey`); any other key is prefixed by the registry it came from
 * (`osm:W123`, `kato:100000000`, `katottg:UA01…`, `hf-area:…`), which a GUID never is. A record from a second
 * registry that is the same place is joined by the merge (merge/join.ts: by FIAS GUID, by KLADR code, or by name under
 * the same parent), so the final object carries the codes of all registries.
 */
import type { PackedHouses } from './house-pack.js';

/**
 * The key of an object the FIAS registry identifies (GAR, hflabs): its lower-case GUID, the very string its
 * `codes.fias` holds. At national scale (≈2–3 M objects) a `fias:` prefix cost a second 41-character string
 * per object (64 bytes, more while V8 kept the concatenation beside its flat copy) and an entry in the
 * merge's by-FIAS map; it also sorts the same against the other registries' prefixed keys.
 */
export function fiasKey(lowerCaseGuid: string): string {
  return lowerCaseGuid;
}

/** Address levels, numbered as quality.level and quality.geo are in conventions.md. */
export const Level = {
  region: 1,
  area: 2,
  city: 3,
  cityArea: 4,
  settlement: 5,
  planStructure: 6,
  street: 7,
  house: 8,
} as const;
export type LevelNumber = (typeof Level)[keyof typeof Level];
export const LEVEL_NAMES = ['', 'region', 'area', 'city', 'cityArea', 'settlement', 'planStructure', 'street', 'house'] as const;

export interface Codes {
  fias?: string; // lower-case GUID
  gar?: string; // GAR OBJECTID, decimal
  kladr?: string; // 13 digits (region..settlement) or 17 (plan structure, street)
  osm?: string; // R123 / W123 / N123
  okato?: string;
  oktmo?: string;
  ifns?: string;
}

export interface AddressObject {
  key: string;
  level: LevelNumber;
  /** key of the parent object (any higher level), or null for a region */
  parent: string | null;
  /** official name without type: `Адыгея`, `Ленина`, `Старых Большевиков` */
  name: string;
  /** type abbreviation as in conventions.md: `Респ`, `г`, `ул`, `пр-кт`, `обл` */
  type: string;
  codes: Codes;
  postcode?: string; // 6 digits
  timezone?: string; // `UTC+3`
  lat?: number;
  lon?: number;
  /** level the coordinates are precise to (quality.geo); set by the merge, the object's own level when absent */
  geoLevel?: LevelNumber;
  /** population or another size weight, for ranking hints */
  population?: number;
  /** earlier names (GAR history): matching one gives quality.actuality = 1 */
  historicalNames?: string[];
  /** earlier KLADR codes of the object (KLADR ALTNAMES), for id searches by an old code */
  historicalKladr?: string[];
  /** other names people use for the same object (OSM name:ru, popular city names) */
  aliases?: string[];
  /** former names people still use (`Свердловск`, `Ленинград`: data/aliases.tsv): matched as aliases, actuality 1 */
  formerNames?: string[];
  /** registry this record came from (`gar`, `hflabs`, `osm`, `kato`, `katottg`, `geonames`) */
  source: string;
  /** for a region: ISO 3166-2 code */
  iso?: string;
  /**
   * For registries without shared ids (OSM, GeoNames): the region named here (any spelling: `Чувашия
   * Республика`, `Респ Чувашская`) is the parent when `parent` is null; with neither, the merge picks the
   * region of the nearest known city by `lat`/`lon`.
   */
  regionName?: string;
  /** the merge joins this object into an existing one with the same name under the same parent/region */
  joinByName?: boolean;
  /** key of the object's municipal entity (`MunicipalObject.key`): GAR's AS_MUN_HIERARCHY, nearest one above */
  municipal?: string;
}

/**
 * A municipal entity (GAR levels 3 and 4: муниципальный район/округ, городской округ, внутригородская
 * территория; городское/сельское поселение): the `municipal` level of a record. It belongs to the
 * municipal hierarchy, which runs beside the administrative one the core matches on, so it is not an
 * `AddressObject`: objects and houses refer to it by key, and its names are not matched
 * (docs/DECISIONS.md).
 */
export interface MunicipalObject {
  key: string;
  name: string;
  /** type abbreviation from the type table (`м.р-н`, `г.о`, `г.п`, `с/п`, `вн.тер.г`, `м.о`) */
  type: string;
  codes: Codes;
  source: string;
}

export interface HouseRecord {
  /** key of the street (or the lowest object) the house belongs to */
  parent: string;
  /** house number as written in the registry: `5`, `5а`, `10/2` */
  number: string;
  /** корпус */
  block?: string;
  /** строение */
  building?: string;
  /** литера */
  liter?: string;
  /** сооружение */
  construction?: string;
  /** владение / домовладение: the house number is a possession */
  possession?: boolean;
  /** a land plot (GAR stead) rather than a building */
  stead?: boolean;
  codes: Codes;
  postcode?: string;
  lat?: number;
  lon?: number;
  cadnum?: string;
  /** ApartmentBuilding param of GAR */
  multiFlat?: boolean;
  flatCount?: number;
  /**
   * key of the house's municipal entity, only when it is not its parent object's (GAR: the house's
   * AS_MUN_HIERARCHY parent is another object than its administrative parent); absent, the house has its
   * parent's municipal
   */
  municipal?: string;
  source: string;
}

export interface ApartmentRecord {
  /** GAR OBJECTID or FIAS GUID of the house, as `fias:<guid>` or `gar:<objectid>` */
  house: string;
  number: string;
  /** `кв`, `оф`, `пом`, `ком` */
  type: string;
  codes: Codes;
  cadnum?: string;
  source: string;
}

export interface MetroStation {
  name: string;
  line: string;
  city: string;
  lat: number;
  lon: number;
}

export interface SourceInfo {
  name: string;
  /** date of the source data, YYYYMMDD */
  date: string;
  licence: string;
  /**
   * the country's address registry (GAR, KATO, KATOTTG): its date is the dictionary's version
   * (`/version` reports `ru_<date of GAR>`); supplementary sources (post offices, OSM) do not move it
   */
  primary?: boolean;
}

/** What readers write into; implemented by `ModelBuilder` (merge/sink.ts). */
export interface ModelSink {
  readonly country: 'ru' | 'kz' | 'by' | 'ua';
  addObject(object: AddressObject): void;
  /** a municipal entity objects and houses refer to by `municipal` key (before or after them) */
  addMunicipal(municipal: MunicipalObject): void;
  addHouse(house: HouseRecord): void;
  /** houses packed in a reader's worker (house-pack.ts), when the sink takes them so; else each is `addHouse`d */
  addPackedHouses?(batch: PackedHouses): void;
  addApartment(apartment: ApartmentRecord): void;
  addMetro(station: MetroStation): void;
  /** postcode of a place by name (Russian Post, GeoNames), used to fill objects without one */
  addPostcode(entry: { postcode: string; region?: string; area?: string; city?: string; lat?: number; lon?: number }): void;
  addSource(info: SourceInfo): void;
  /** a record the reader could not place, counted in the build summary */
  reject(source: string, reason: string): void;
}
