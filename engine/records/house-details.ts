/**
 * HouseDetails: the parsed house part, completed from the registry house and apartment when the engine
 * found them, and its one-line `fullName` (`дом 4, строение 2, этаж 8, офис 839, блок г`).
 */
import { apartmentMember, HOUSE_PART_KEYS, type ApartmentInfo, type HouseInfo, type HousePartKey, type HouseParts } from '../types.js';

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

/** Literals, not loops over HOUSE_PART_KEYS: these run for every record (same key order). */
export function emptyHouseParts(): HouseParts {
  return {
    house: '', case: '', build: '', liter: '', lend: '', constr: '', stead: '', entr: '', floor: '', flat: '',
    office: '', room: '', kab: '', place: '', block: '', pav: '', sek: '', abon: '', munit: '',
  };
}

const clean = (value: unknown): string => (typeof value === 'string' && value !== '' ? value.trim().toLowerCase() : '');

/**
 * The parts to show: the parsed parts, lower-cased, with the registry's house number, корпус, строение,
 * литера and сооружение where the registry has them, and the apartment number in its member. A house found only in
 * part (`partial`: `5/2` typed, house 5 found) keeps the number typed when it is the registry's with more after it,
 * and its корпус, строение and литера as typed when any was.
 */
export function completeHouseParts(
  parsed: Partial<HouseParts> | undefined,
  house: HouseInfo | null,
  apartment: ApartmentInfo | null,
  partial = false,
): HouseParts {
  const p = parsed ?? {};
  const parts: HouseParts = {
    house: clean(p.house), case: clean(p.case), build: clean(p.build), liter: clean(p.liter), lend: clean(p.lend),
    constr: clean(p.constr), stead: clean(p.stead), entr: clean(p.entr), floor: clean(p.floor), flat: clean(p.flat),
    office: clean(p.office), room: clean(p.room), kab: clean(p.kab), place: clean(p.place), block: clean(p.block),
    pav: clean(p.pav), sek: clean(p.sek), abon: clean(p.abon), munit: clean(p.munit),
  };
  if (house) {
    const number = clean(house.number);
    if (number) {
      if (house.stead && !parts.house) parts.stead = number;
      else if (!(partial && parts.house.length > number.length && parts.house.startsWith(number))) parts.house = number;
    }
    // the building's designation: an exact house is spelled as the registry has it (`179 лит. Б` typed for 179б is
    // дом 179б, not also литера б); a house found in part keeps what was typed of it when anything was (`7 к2` found
    // as 7 стр1 stays дом 7, корпус 2, not a building of both), else shows the registry's
    const block = clean(house.block);
    const building = clean(house.building);
    const liter = clean(house.liter);
    if (!partial || !(parts.case || parts.build || parts.liter)) {
      parts.case = block;
      parts.build = building;
      parts.liter = liter;
    }
    const construction = clean(house.construction);
    if (construction) parts.constr = construction;
  }
  if (apartment) {
    const number = clean(apartment.number);
    if (number) {
      // the registry spells the apartment it found: `кв 1` typed for its помещение 1 is помещение 1, not both
      const member = apartmentMember(apartment.type);
      if (member !== 'flat' && parts.flat === number) parts.flat = '';
      parts[member] = number;
    }
  }
  return parts;
}

/** `дом 4, строение 2, этаж 8, офис 839, блок г` */
export function houseFullName(parts: HouseParts): string {
  if (!hasHouseParts(parts)) return '';
  let line = '';
  for (const key of HOUSE_PART_KEYS) {
    const value = parts[key];
    if (value) line += line ? `, ${HOUSE_PART_WORDS[key]} ${value}` : `${HOUSE_PART_WORDS[key]} ${value}`;
  }
  return line;
}

/** Whether any part is given (its fullName is not empty). */
export function hasHouseParts(parts: HouseParts): boolean {
  // most hints are places with every part empty: one pass of plain member reads says so (the loop's reads by key cost more)
  return (parts.house + parts.case + parts.build + parts.liter + parts.lend + parts.constr + parts.stead + parts.entr + parts.floor +
    parts.flat + parts.office + parts.room + parts.kab + parts.place + parts.block + parts.pav + parts.sek + parts.abon + parts.munit) !== '';
}
