/**
 * The flat record of DaData's address cleaner (`result`, `postal_code`, `region_with_type`, …, `qc`, `qc_geo`) from
 * an AddressRecord: a pure function of the record, with nothing read from the engine or the dictionary, so any
 * consumer holding records (the batch CLI's result columns, an HTTP facade speaking DaData's shape) writes the same
 * answer. Members our records have no source for (okato, oktmo, tax offices, prices, divisions, …) are null, as
 * DaData gives a member it does not know; every member of DADATA_FIELDS is present.
 *
 * Mapping decisions:
 * - Levels: region, area, city, city_district (our cityArea), settlement (our planStructure when no settlement is
 *   found: DaData files a microdistrict there), street; `*_with_type` is our fullName (both write `г Москва`,
 *   `Кировская обл`, `ул Малышева`). A Russian federal city is the region and, as DaData writes it, the city too.
 * - House: `д` house (`влд` for a possession typed without a house), block `к` / `стр` / `литер` / `соор` (корпус and
 *   строение together: block_type `к`, block `1 стр 2`), stead `уч`; flat `кв` / `офис` / `пом` / `каб` / `пав` /
 *   `блок` / `секция`, room `ком`.
 * - `result`: the levels, then `д 11 к 2`, then `кв 89` (`г Москва, ул Сухонская, д 11 к 2, кв 89`); null when nothing matched.
 * - `qc`: 2 nothing matched, 3 several equal candidates (unique 2), 1 leftover text or a doubtful match, else 0.
 *   `qc_geo`: 0 house, 2 street or plan structure, 3 settlement or city district, 4 city, 5 coarser or none.
 *   `qc_house`: 2 the house is in the registry, 10 not. `qc_complete`: 0 fit for mail (to the flat), 5 to the house
 *   (no flat typed), 10 house typed but not in the registry, 4 no house, 3 no street in a city, 2 no city or
 *   settlement, 1 no region, 9 nothing matched or not unique.
 * - `fias_level` on DaData's scale (1 region, 3 area, 4 city, 5 city district, 6 settlement, 65 plan structure,
 *   7 street, 75 stead, 8 house, -1 none); `fias_id` / `kladr_id` of the deepest part (flat, house, level) that has one.
 */
import type { AddressRecord, CodesRecord, LevelRecord } from './address-record.js';
import { FEDERAL_CITIES } from './address-record.js';
import TYPE_NAMES from './dadata-type-names.json' with { type: 'json' };

export const DADATA_FIELDS = [
  'source', 'result', 'postal_code', 'country', 'country_iso_code', 'federal_district',
  'region_fias_id', 'region_kladr_id', 'region_iso_code', 'region_with_type', 'region_type', 'region_type_full', 'region',
  'area_fias_id', 'area_kladr_id', 'area_with_type', 'area_type', 'area_type_full', 'area',
  'city_fias_id', 'city_kladr_id', 'city_with_type', 'city_type', 'city_type_full', 'city', 'city_area',
  'city_district_fias_id', 'city_district_kladr_id', 'city_district_with_type', 'city_district_type', 'city_district_type_full', 'city_district',
  'settlement_fias_id', 'settlement_kladr_id', 'settlement_with_type', 'settlement_type', 'settlement_type_full', 'settlement',
  'street_fias_id', 'street_kladr_id', 'street_with_type', 'street_type', 'street_type_full', 'street',
  'stead_fias_id', 'stead_kladr_id', 'stead_cadnum', 'stead_type', 'stead_type_full', 'stead',
  'house_fias_id', 'house_kladr_id', 'house_cadnum', 'house_flat_count', 'house_type', 'house_type_full', 'house',
  'block_type', 'block_type_full', 'block', 'entrance', 'floor',
  'flat_fias_id', 'flat_cadnum', 'flat_type', 'flat_type_full', 'flat', 'flat_area', 'square_meter_price', 'flat_price',
  'room_fias_id', 'room_cadnum', 'room_type', 'room_type_full', 'room',
  'postal_box', 'fias_id', 'fias_code', 'fias_level', 'fias_actuality_state', 'kladr_id', 'geoname_id', 'capital_marker',
  'okato', 'oktmo', 'tax_office', 'tax_office_legal', 'timezone', 'geo_lat', 'geo_lon', 'beltway_hit', 'beltway_distance',
  'metro', 'divisions', 'qc_geo', 'qc_complete', 'qc_house', 'history_values', 'unparsed_parts', 'qc',
] as const;

export type DadataField = (typeof DADATA_FIELDS)[number];

export interface DadataMetro {
  name: string;
  line: string;
  /** kilometres, one decimal */
  distance: number;
}

/** The numeric members; `metro` is a list; every other member a string. Unknown: null. */
type NumericField = 'qc' | 'qc_geo' | 'qc_complete' | 'qc_house';
export type DadataAddress = { [K in Exclude<DadataField, NumericField | 'metro'>]: string | null } & { [K in NumericField]: number | null } & {
  metro: DadataMetro[] | null;
};

const LEVEL_TYPE_NAMES: Record<string, string> = TYPE_NAMES.levels;
const HOUSE_TYPE_NAMES: Record<string, string> = TYPE_NAMES.house;
const foldType = (type: string): string => type.trim().toLowerCase().replace(/ё/g, 'е').replace(/\.$/, '');
const FOLDED_LEVEL_TYPE_NAMES = new Map(Object.entries(LEVEL_TYPE_NAMES).map(([type, name]) => [foldType(type), name]));

/** `обл` → `область`; null for a type the table does not hold. */
export function levelTypeFull(type: string): string | null {
  if (!type) return null;
  return (Object.hasOwn(LEVEL_TYPE_NAMES, type) ? LEVEL_TYPE_NAMES[type] : FOLDED_LEVEL_TYPE_NAMES.get(foldType(type))) ?? null;
}

const orNull = (value: string | undefined | null): string | null => (value ? value : null);
const houseTypeFull = (type: string | null): string | null => (type && Object.hasOwn(HOUSE_TYPE_NAMES, type) ? HOUSE_TYPE_NAMES[type] : null);

/** DaData's fias_level of our quality level (1 region … 8 house). */
const FIAS_LEVEL: Record<number, string> = { 1: '1', 2: '3', 3: '4', 4: '5', 5: '6', 6: '65', 7: '7', 8: '8' };
/** DaData's qc_geo of our quality.geo (the level the coordinates are of). */
const QC_GEO: Record<number, number> = { 8: 0, 7: 2, 6: 2, 5: 3, 4: 3, 3: 4 };

interface LevelFields {
  fias: string | null;
  kladr: string | null;
  withType: string | null;
  type: string | null;
  typeFull: string | null;
  name: string | null;
}

function levelFields(level: LevelRecord | null | undefined): LevelFields {
  if (!level || !level.fullName) return { fias: null, kladr: null, withType: null, type: null, typeFull: null, name: null };
  return {
    fias: orNull(level.codes.fias),
    kladr: orNull(level.codes.kladr),
    withType: level.fullName,
    type: orNull(level.type),
    typeFull: levelTypeFull(level.type),
    name: orNull(level.name),
  };
}

/** The first non-empty member of `codes` along `chain`, deepest first. */
function deepestCode(chain: (CodesRecord | null | undefined)[], member: keyof CodesRecord): string | null {
  for (const codes of chain) if (codes?.[member]) return codes[member];
  return null;
}

/** The flat record of the first unit typed: its DaData type and number. */
const FLAT_TYPES = [['flat', 'кв'], ['office', 'офис'], ['place', 'пом'], ['kab', 'каб'], ['pav', 'пав'], ['block', 'блок'], ['sek', 'секция']] as const;

export function dadataAddress(record: AddressRecord): DadataAddress {
  const matched = record.address !== '' || record.houseDetails.fullName !== '';
  const house = record.houseDetails;
  const region = levelFields(record.region);
  const federal = record.region.fullName !== '' && !record.city.fullName && FEDERAL_CITIES.has(record.region.name.trim().toLowerCase().replace(/ё/g, 'е'));
  const city = levelFields(federal ? record.region : record.city);
  const settlementLevel = record.settlement.fullName ? record.settlement : record.planStructure;
  const settlement = levelFields(settlementLevel);
  const area = levelFields(record.area);
  const cityDistrict = levelFields(record.cityArea);
  const street = levelFields(record.street);

  const houseNumber = house.house || house.lend;
  const houseType = house.house ? 'д' : house.lend ? 'влд' : null;
  let blockType: string | null = null;
  let block: string | null = null;
  if (house.case) {
    blockType = 'к';
    block = house.build ? `${house.case} стр ${house.build}` : house.case;
  } else if (house.build) {
    blockType = 'стр';
    block = house.build;
  } else if (house.liter) {
    blockType = 'литер';
    block = house.liter;
  } else if (house.constr) {
    blockType = 'соор';
    block = house.constr;
  }
  const unit = FLAT_TYPES.find(([key]) => house[key] !== '');
  const flatType = unit ? unit[1] : null;
  const flat = unit ? house[unit[0]] : null;
  const houseCodes = house.codes && (house.house || house.lend) ? house.codes : null;
  const steadCodes = house.codes && !houseCodes && house.stead ? house.codes : null;
  const levelChain = [record.street, record.planStructure, record.settlement, record.cityArea, record.city, record.area, record.region].map((level) => level.codes);

  const quality = record.quality;
  const level = quality?.level ?? 0;
  const houseFound = quality ? quality.house === 3 || quality.house === 4 : houseCodes !== null;
  const coordinates = record.coordinates;
  const located = coordinates.latitude !== 0 || coordinates.longitude !== 0;

  let qc: number | null = null;
  let qcComplete: number | null = null;
  if (quality) {
    qc = !matched ? 2 : quality.unique >= 2 ? 3 : quality.undefined >= 1 || quality.unique === 1 ? 1 : 0;
    qcComplete = !matched || quality.unique >= 2 ? 9
      : !record.region.fullName ? 1
      : !city.withType && !settlement.withType ? 2
      : !street.withType && !settlement.withType ? 3
      : !houseNumber && !house.stead ? 4
      : !houseFound ? 10
      : flat ? 0 : 5;
  }

  let result: string | null = null;
  if (matched) {
    let housePart = '';
    if (houseType) housePart = `${houseType} ${houseNumber}${blockType ? ` ${blockType} ${block}` : ''}`;
    else if (house.stead) housePart = `уч ${house.stead}`;
    const parts = [record.address, housePart, flat ? `${flatType} ${flat}` : '', house.room ? `ком ${house.room}` : ''].filter((part) => part !== '');
    result = parts.join(', ');
  }

  return {
    source: record.original ?? null,
    result,
    postal_code: orNull(record.postcode),
    country: matched ? record.country.name : null,
    country_iso_code: matched ? record.country.alpha2 : null,
    federal_district: null,
    region_fias_id: region.fias, region_kladr_id: region.kladr, region_iso_code: null,
    region_with_type: region.withType, region_type: region.type, region_type_full: region.typeFull, region: region.name,
    area_fias_id: area.fias, area_kladr_id: area.kladr,
    area_with_type: area.withType, area_type: area.type, area_type_full: area.typeFull, area: area.name,
    city_fias_id: city.fias, city_kladr_id: city.kladr,
    city_with_type: city.withType, city_type: city.type, city_type_full: city.typeFull, city: city.name, city_area: null,
    city_district_fias_id: cityDistrict.fias, city_district_kladr_id: cityDistrict.kladr, city_district_with_type: cityDistrict.withType,
    city_district_type: cityDistrict.type, city_district_type_full: cityDistrict.typeFull, city_district: cityDistrict.name,
    settlement_fias_id: settlement.fias, settlement_kladr_id: settlement.kladr, settlement_with_type: settlement.withType,
    settlement_type: settlement.type, settlement_type_full: settlement.typeFull, settlement: settlement.name,
    street_fias_id: street.fias, street_kladr_id: street.kladr,
    street_with_type: street.withType, street_type: street.type, street_type_full: street.typeFull, street: street.name,
    stead_fias_id: orNull(steadCodes?.fias), stead_kladr_id: orNull(steadCodes?.kladr), stead_cadnum: steadCodes ? orNull(house.additional?.houseCadnum) : null,
    stead_type: house.stead ? 'уч' : null, stead_type_full: house.stead ? houseTypeFull('уч') : null, stead: orNull(house.stead),
    house_fias_id: orNull(houseCodes?.fias), house_kladr_id: orNull(houseCodes?.kladr),
    house_cadnum: houseCodes ? orNull(house.additional?.houseCadnum) : null,
    house_flat_count: orNull(house.additional?.houseFlatCount),
    house_type: houseType, house_type_full: houseTypeFull(houseType), house: orNull(houseNumber),
    block_type: blockType, block_type_full: houseTypeFull(blockType === 'литер' ? 'литера' : blockType), block,
    entrance: orNull(house.entr), floor: orNull(house.floor),
    flat_fias_id: flat ? orNull(house.apartmentCodes?.fias) : null, flat_cadnum: flat ? orNull(house.additional?.apartmentCadnum) : null,
    flat_type: flatType, flat_type_full: houseTypeFull(flatType), flat: orNull(flat),
    flat_area: null, square_meter_price: null, flat_price: null,
    room_fias_id: null, room_cadnum: null, room_type: house.room ? 'ком' : null, room_type_full: house.room ? houseTypeFull('ком') : null, room: orNull(house.room),
    postal_box: orNull(house.abon),
    fias_id: deepestCode([flat ? house.apartmentCodes : null, houseCodes ?? steadCodes, ...levelChain], 'fias'),
    fias_code: null,
    fias_level: !matched ? '-1' : houseCodes && houseFound ? '8' : steadCodes ? '75' : (FIAS_LEVEL[Math.min(level, 7)] ?? '-1'),
    fias_actuality_state: quality && matched ? (quality.actuality === 2 ? '51' : String(quality.actuality)) : null,
    kladr_id: deepestCode([houseCodes, ...levelChain], 'kladr'),
    geoname_id: null, capital_marker: null, okato: null, oktmo: null, tax_office: null, tax_office_legal: null,
    timezone: orNull(record.timezone),
    geo_lat: located ? String(coordinates.latitude) : null,
    geo_lon: located ? String(coordinates.longitude) : null,
    beltway_hit: null, beltway_distance: null,
    metro: record.metro?.length ? record.metro.map((station) => ({ name: station.name, line: station.line, distance: Math.round(station.distance / 100) / 10 })) : null,
    divisions: null,
    qc_geo: quality ? (located ? (QC_GEO[quality.geo] ?? 5) : 5) : null,
    qc_complete: qcComplete,
    qc_house: quality ? (houseFound ? 2 : 10) : null,
    history_values: null,
    unparsed_parts: orNull(record.undefinedParts),
    qc,
  };
}
