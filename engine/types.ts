/**
 * What the host asks of the engine and what it gets back: object and house ids (indexes into the
 * country's dictionary), the parsed house part and the quality verdict. Record builders in
 * `engine/records/` turn these into AddressRecord JSON through the `Dictionary` view; nothing outside
 * `engine/` touches WASM memory.
 */

export type Country = 'ru' | 'kz' | 'by' | 'ua';
export const COUNTRIES: readonly Country[] = ['ru', 'kz', 'by', 'ua'];

export const LEVEL_KEYS = ['region', 'area', 'municipal', 'city', 'cityArea', 'settlement', 'planStructure', 'street'] as const;
export type LevelKey = (typeof LEVEL_KEYS)[number];

/** HouseDetails members in the order of conventions.md's fullName (house, case, build, …). */
export const HOUSE_PART_KEYS = [
  'house', 'case', 'build', 'liter', 'lend', 'constr', 'stead', 'entr', 'floor', 'flat',
  'office', 'room', 'kab', 'place', 'block', 'pav', 'sek', 'abon', 'munit',
] as const;
export type HousePartKey = (typeof HOUSE_PART_KEYS)[number];
export type HouseParts = Record<HousePartKey, string>;

/** Apartment types of the registry → the HouseDetails member they fill (`помещение 1` is `place`); others fill `flat`. */
const APARTMENT_MEMBER: Record<string, HousePartKey> = {
  'кв': 'flat', 'квартира': 'flat',
  'оф': 'office', 'офис': 'office',
  'пом': 'place', 'помещение': 'place', 'помещ': 'place',
  'ком': 'room', 'комн': 'room', 'комната': 'room',
  'каб': 'kab', 'кабинет': 'kab',
  'пав': 'pav', 'павильон': 'pav',
  'блок': 'block',
  'секция': 'sek',
};

/** The HouseDetails member an apartment of registry type `type` fills. */
export function apartmentMember(type: string): HousePartKey {
  return APARTMENT_MEMBER[type.trim().toLowerCase().replace(/\.$/, '')] ?? 'flat';
}

export interface Quality {
  unique: number;
  actuality: number;
  undefined: number;
  level: number;
  house: number;
  geo: number;
}

/**
 * One resolved address: an object id per level (-1 when absent), the house and apartment ids. `municipal`
 * is not an object id: it indexes the dictionary's municipal entities (`Dictionary.municipal`).
 */
export interface Resolution {
  levels: Record<LevelKey, number>;
  house: number;
  apartment: number;
  parts: HouseParts;
  postcodeIn: string;
  quality: Quality;
  undefinedParts: string;
  /** true when something matched at all */
  matched: boolean;
}

export interface CodesOut {
  fias: string;
  ga: string;
  osm: string;
  gar: string;
  kladr: string;
}

export interface ObjectInfo {
  id: number;
  level: number; // 1 region … 7 street (quality.level scale)
  parent: number;
  name: string;
  type: string;
  fullName: string;
  codes: CodesOut;
  okato: string;
  oktmo: string;
  ifns: string;
  postcode: string;
  timezone: string;
  lat: number; // 0 when unknown
  lon: number;
}

export interface HouseInfo {
  id: number;
  parent: number;
  number: string;
  block: string;
  building: string;
  liter: string;
  construction: string;
  possession: boolean;
  stead: boolean;
  codes: CodesOut;
  postcode: string;
  lat: number;
  lon: number;
  cadnum: string;
  multiFlat: boolean;
  flatCount: number;
}

/** A house's parent and the parts of its number: what matching and resolutions read, without its codes. */
export type HouseLabel = Pick<HouseInfo, 'parent' | 'number' | 'block' | 'building' | 'liter' | 'construction'>;

export interface ApartmentInfo {
  id: number;
  house: number;
  number: string;
  type: string;
  codes: CodesOut;
  cadnum: string;
}

export interface MetroHit {
  name: string;
  line: string;
  city: string;
  distance: number; // whole meters
}

export type IdKind = 'UNKNOWN' | 'GAR' | 'FIAS' | 'KLADR' | 'OSM' | 'GA';
/** `obsolete`: found by the actual form of an obsolete code (a KLADR code whose actuality digits are not 00) */
export type Found = { kind: 'object' | 'house' | 'apartment'; id: number; obsolete?: boolean };

/** Read-only view of one loaded country dictionary. */
export interface Dictionary {
  country: Country;
  /** YYYYMMDD of the source data */
  sourceDate: string;
  buildId: string;
  objectCount: number;
  houseCount: number;
  apartmentCount: number;
  /** municipal entities (GAR levels 3 and 4), kept beside the objects: the core does not see them */
  municipalCount: number;
  object(id: number): ObjectInfo;
  /** a municipal entity (level 0, parent −1) */
  municipal(id: number): ObjectInfo;
  /** the municipal entity of a house (its own when GAR gives it another than its parent's, else its parent's) or of an object and its nearest ancestor that has one; −1 when none */
  municipalOf(objectId: number, houseId?: number): number;
  house(id: number): HouseInfo;
  /** the house's parent and number parts alone (`house` also reads its codes, from the dictionary file when they are left there) */
  houseLabel(id: number): HouseLabel;
  /** true when house `id` is a land plot (a GAR stead) */
  houseIsStead(id: number): boolean;
  /**
   * The house of the same parent whose house key is house `id`'s (the core's `houseTwin`: the key drops a leading `№`,
   * so stead `№2` and house `2` are twins) that is a land plot when `stead`, a building when not; −1 when none
   */
  steadTwin(id: number, stead: boolean): number;
  apartment(id: number): ApartmentInfo;
  /** object id → chain of ids from region down to it */
  chain(id: number): number[];
  findById(kind: IdKind, id: string): Found | null;
}

export interface Scope {
  fias?: string; ga?: string; osm?: string; gar?: string; kladr?: string;
  postcode?: string; name?: string; regionName?: string; streetName?: string;
  coordinates?: { latitude: number; longitude: number; radius?: number };
}

export type GeoLevel = 'region' | 'area' | 'city' | 'settlement' | 'planStructure' | 'street' | 'house';

export interface Engine {
  countries(): Country[];
  dictionary(country: Country): Dictionary | null;
  standardize(country: Country, query: string): Resolution;
  suggest(country: Country, query: string, count: number, scopes?: Scope[]): Resolution[];
  parseHouse(query: string): { parts: HouseParts; postcodeIn: string };
  /** nearest object of a level (or any level when undefined) within radius meters, inside object `within` when given */
  nearest(country: Country, lat: number, lon: number, level: GeoLevel | undefined, radius: number, within?: number): { found: Found; distance: number } | null;
  nearestMetro(country: Country, lat: number, lon: number, max: number, radius: number): MetroHit[];
}
