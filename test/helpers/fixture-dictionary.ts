/**
 * A small hand-written Dictionary (the read-only view the record builders take): Moscow as a federal city,
 * a street and houses in it, Кировская обл with a town. It is the input fixture of the record builders,
 * written from the registries' real codes; the engine itself is never imitated.
 */
import type {
  ApartmentInfo, CodesOut, Country, Dictionary, Found, HouseInfo, HouseParts, IdKind, LevelKey, ObjectInfo, Quality, Resolution,
} from '../../engine/types.js';
import { HOUSE_PART_KEYS, LEVEL_KEYS } from '../../engine/types.js';

const codes = (c: Partial<CodesOut>): CodesOut => ({ fias: '', ga: '', osm: '', gar: '', kladr: '', ...c });

type ObjectSpec = Omit<ObjectInfo, 'id' | 'fullName' | 'okato' | 'oktmo' | 'ifns' | 'postcode' | 'timezone' | 'lat' | 'lon'> & Partial<ObjectInfo>;

/** Frozen, as the real dictionary hands out its objects (the record builders share what they build from them). */
function object(id: number, spec: ObjectSpec): ObjectInfo {
  const info = { okato: '', oktmo: '', ifns: '', postcode: '', timezone: '', lat: 0, lon: 0, fullName: '', ...spec, id };
  Object.freeze(info.codes);
  return Object.freeze(info);
}

export const OBJECTS: ObjectInfo[] = [
  object(0, {
    level: 1, parent: -1, name: 'Москва', type: 'г',
    codes: codes({ fias: '0C5B2444-70A0-4932-980C-B4DC0D3F02B5', kladr: '7700000000000', gar: '1405113', osm: 'r102269', ga: 'RU0770000000000000000000000' }),
    okato: '45000000000', oktmo: '45000000', ifns: '7700', postcode: '101000', timezone: 'UTC+3', lat: 55.753879, lon: 37.620373,
  }),
  object(1, {
    level: 7, parent: 0, name: 'Красная', type: 'пл',
    codes: codes({ fias: 'd7ae2f32-4d1c-45d3-9d2b-9a2b7f3e1f88', kladr: '77000000000153200', gar: '1412345', ga: 'RU0770000000000000000002733' }),
    okato: '45286555000', oktmo: '45375000', ifns: '7710', postcode: '109012', timezone: 'UTC+3', lat: 55.7539, lon: 37.6208,
  }),
  object(2, { level: 1, parent: -1, name: 'Кировская', type: 'обл', codes: codes({ fias: '0b940b96-103f-4248-850c-26b6c7296728', kladr: '4300000000000' }), timezone: 'UTC+3', lat: 58.6, lon: 49.65 }),
  object(3, { level: 3, parent: 2, name: 'Слободской', type: 'г', codes: codes({ fias: 'aeeb6f7f-1ee0-4c57-a1b3-2a1c5e9a2e5b', kladr: '4300000500000' }), postcode: '613150' }),
  object(4, { level: 7, parent: 3, name: 'Варшавское', type: 'ш', codes: codes({ kladr: '43000005000000100' }) }),
  object(5, { level: 7, parent: 0, name: '2-й Варшавский', type: 'проезд', codes: codes({}) }),
  object(6, { level: 1, parent: -1, name: 'Київ', type: 'м', codes: codes({ osm: 'R421866' }), lat: 50.45, lon: 30.52 }),
  object(7, { level: 3, parent: 6, name: 'Київ', type: 'м', codes: codes({ osm: 'N26150422' }) }),
];

/** municipal entities (GAR levels 3, 4): beside the objects, no parent, level 0 */
export const MUNICIPALS: ObjectInfo[] = [
  object(0, { level: 0, parent: -1, name: 'Слободской', type: 'м.р-н', codes: codes({ fias: '2b8e5a0c-7f3d-4e1a-9c6b-3d2f1e0a9b8c', gar: '95234567' }), oktmo: '33637000' }),
];

export const HOUSES: HouseInfo[] = [
  {
    id: 0, parent: 1, number: '1', block: '', building: '', liter: '', construction: '', possession: false, stead: false,
    codes: codes({ fias: '5d5a3b9c-1a2b-4c3d-8e9f-0a1b2c3d4e5f', gar: '99887766' }), postcode: '109012', lat: 55.7536, lon: 37.6211,
    cadnum: '77:01:0001011:1001', multiFlat: true, flatCount: 12,
  },
  {
    id: 1, parent: 4, number: '10', block: '', building: '12', liter: '', construction: '', possession: false, stead: false,
    codes: codes({ osm: 'W25056568' }), postcode: '', lat: 0, lon: 0, cadnum: '', multiFlat: false, flatCount: 0,
  },
];

export const APARTMENTS: ApartmentInfo[] = [
  { id: 0, house: 0, number: '5', type: 'кв', codes: codes({ fias: '11111111-2222-4333-8444-555555555555' }), cadnum: '77:01:0001011:2005' },
];

export function fixtureDictionary(country: Country = 'ru'): Dictionary {
  return {
    country,
    sourceDate: '20230626',
    buildId: 'fixture',
    objectCount: OBJECTS.length,
    houseCount: HOUSES.length,
    apartmentCount: APARTMENTS.length,
    municipalCount: MUNICIPALS.length,
    object: (id) => OBJECTS[id],
    municipal: (id) => MUNICIPALS[id],
    municipalOf: (objectId) => (objectId === 3 || objectId === 4 ? 0 : -1),
    house: (id) => HOUSES[id],
    houseLabel: (id) => {
      const { parent, number, block, building, liter, construction } = HOUSES[id];
      return { parent, number, block, building, liter, construction };
    },
    houseIsStead: (id) => HOUSES[id].stead,
    steadTwin: (id, stead) =>
      HOUSES.findIndex((h, other) => other !== id && h.parent === HOUSES[id].parent && h.stead === stead &&
        h.number.replace(/^№\s*/, '') === HOUSES[id].number.replace(/^№\s*/, '') && h.block === HOUSES[id].block &&
        h.building === HOUSES[id].building && h.liter === HOUSES[id].liter && h.construction === HOUSES[id].construction),
    apartment: (id) => APARTMENTS[id],
    chain(id) {
      const ids: number[] = [];
      for (let at = id; at >= 0; at = OBJECTS[at].parent) ids.unshift(at);
      return ids;
    },
    findById(kind: IdKind, id: string): Found | null {
      const match = (c: CodesOut) => (kind === 'FIAS' ? c.fias.toLowerCase() === id : kind === 'KLADR' ? c.kladr === id : kind === 'GAR' ? c.gar === id : kind === 'OSM' ? c.osm.toUpperCase() === id : c.ga === id);
      const apartment = APARTMENTS.find((a) => match(a.codes));
      if (apartment) return { kind: 'apartment', id: apartment.id };
      const house = HOUSES.find((h) => match(h.codes));
      if (house) return { kind: 'house', id: house.id };
      const found = OBJECTS.find((o) => match(o.codes));
      return found ? { kind: 'object', id: found.id } : null;
    },
  };
}

export function parts(values: Partial<HouseParts> = {}): HouseParts {
  const all = {} as HouseParts;
  for (const key of HOUSE_PART_KEYS) all[key] = values[key] ?? '';
  return all;
}

export function resolution(values: {
  levels?: Partial<Record<LevelKey, number>>; house?: number; apartment?: number; parts?: Partial<HouseParts>;
  postcodeIn?: string; quality?: Partial<Quality>; undefinedParts?: string; matched?: boolean;
}): Resolution {
  const levels = {} as Record<LevelKey, number>;
  for (const key of LEVEL_KEYS) levels[key] = values.levels?.[key] ?? -1;
  return {
    levels,
    house: values.house ?? -1,
    apartment: values.apartment ?? -1,
    parts: parts(values.parts),
    postcodeIn: values.postcodeIn ?? '',
    quality: { unique: 0, actuality: 0, undefined: 0, level: 0, house: 9, geo: 0, ...values.quality },
    undefinedParts: values.undefinedParts ?? '',
    matched: values.matched ?? true,
  };
}
