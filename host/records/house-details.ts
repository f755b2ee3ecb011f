/**
 * HouseDetails: the parsed house part, completed from the registry house and apartment when the engine
 * found them, and its one-line `fullName` (`дом 4, строение 2, этаж 8, офис 839, блок г`).
 */
import { HOUSE_PART_KEYS, type ApartmentInfo, type HouseInfo, type HousePartKey, type HouseParts } from '../engine/types.js';

/** Words of fullName, in conventions.md's order (the order of HOUSE_PART_KEYS). */
export const HOUSE_PART_WORDS: Record<HousePartKey, string> = {
  house: 'дом',
  case: 'корпус',
  build: 'строение',
  liter: 'литера',
  lend: 'владение',
  constr: 'сооружение',
  stead: 'участок',
  entr: 'подъезд',
  floor: 'этаж',
  flat: 'квартира',
  office: 'офис',
  room: 'комната',
  kab: 'кабинет',
  place: 'помещение',
  block: 'блок',
  pav: 'павильон',
  sek: 'секция',
  abon: 'а/я',
  munit: 'в/ч',
};

/** Apartment types of the registry → the HouseDetails member they fill. */
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

export function emptyHouseParts(): HouseParts {
  const parts = {} as HouseParts;
  for (const key of HOUSE_PART_KEYS) parts[key] = '';
  return parts;
}

const clean = (value: unknown): string => (typeof value === 'string' ? value.trim().toLowerCase() : '');

/**
 * The parts to show: the parsed parts, lower-cased, with the registry's house number, корпус, строение,
 * литера and сооружение where the registry has them, and the apartment number in its member.
 */
export function completeHouseParts(parsed: Partial<HouseParts> | undefined, house: HouseInfo | null, apartment: ApartmentInfo | null): HouseParts {
  const parts = emptyHouseParts();
  for (const key of HOUSE_PART_KEYS) parts[key] = clean(parsed?.[key]);
  if (house) {
    const registry: [HousePartKey, string][] = [
      [house.stead && !parts.house ? 'stead' : 'house', house.number],
      ['case', house.block],
      ['build', house.building],
      ['liter', house.liter],
      ['constr', house.construction],
    ];
    for (const [key, value] of registry) if (clean(value)) parts[key] = clean(value);
  }
  if (apartment && clean(apartment.number)) {
    const member = APARTMENT_MEMBER[clean(apartment.type).replace(/\.$/, '')] ?? 'flat';
    parts[member] = clean(apartment.number);
  }
  return parts;
}

/** `дом 4, строение 2, этаж 8, офис 839, блок г` */
export function houseFullName(parts: HouseParts): string {
  const words: string[] = [];
  for (const key of HOUSE_PART_KEYS) if (parts[key]) words.push(`${HOUSE_PART_WORDS[key]} ${parts[key]}`);
  return words.join(', ');
}
