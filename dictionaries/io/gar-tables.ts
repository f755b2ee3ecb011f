/**
 * The GAR tables the reader opens: for each, the attributes it reads (a `recordLayout`) and which records
 * it keeps, decided on the bytes before any string is made (current records; hierarchy rows that are
 * active; params of the types read and still valid on the build date). Shared by the reader (sources/gar.ts) and
 * the scan worker (`gar-scan-worker.ts`), which applies `keep` where it scans.
 */
import { recordLayout, type FlatRecord, type RecordShape } from './flat-xml.js';

/** GAR PARAM TYPEIDs (AS_PARAM_TYPES) */
export const PARAM = { ifnsFl: 1, postcode: 5, okato: 6, oktmo: 7, cadastralNumber: 8, kladr: 10, multiFlat: 19 } as const;
/** the TYPEIDs read from the house, stead and apartment params (the others are most of the file) */
const HOUSE_PARAM_TYPES = new Set<number>([PARAM.ifnsFl, PARAM.postcode, PARAM.okato, PARAM.oktmo, PARAM.cadastralNumber, PARAM.multiFlat]);
/** the TYPEIDs read from the address objects' params (their other types are two thirds of the file) */
const OBJECT_PARAM_TYPES = new Set<number>([PARAM.ifnsFl, PARAM.postcode, PARAM.okato, PARAM.oktmo, PARAM.kladr]);
/** the same without the codes a house shares with its street in most cases (OKATO, OKTMO, IFNS): `ScanFilter.houseCodes` false */
const HOUSE_PARAM_TYPES_WITHOUT_CODES = new Set<number>([PARAM.postcode, PARAM.cadastralNumber, PARAM.multiFlat]);

export const OBJECT = recordLayout('OBJECT', ['OBJECTID', 'OBJECTGUID', 'NAME', 'TYPENAME', 'LEVEL', 'ISACTUAL', 'ISACTIVE']);
export const HIERARCHY = recordLayout('ITEM', ['OBJECTID', 'PARENTOBJID', 'ISACTIVE']);
/** AS_MUN_HIERARCHY: PATH is the OBJECTIDs from the region down to the object itself (`1460768.1461520.72668575`) */
export const MUN_HIERARCHY = recordLayout('ITEM', ['OBJECTID', 'PARENTOBJID', 'ISACTIVE', 'PATH']);
export const OBJECT_PARAM = recordLayout('PARAM', ['OBJECTID', 'TYPEID', 'VALUE', 'STARTDATE', 'ENDDATE', 'CHANGEIDEND']);
export const HOUSE_PARAM = recordLayout('PARAM', ['OBJECTID', 'TYPEID', 'VALUE', 'ENDDATE', 'CHANGEIDEND']);
export const HOUSE = recordLayout('HOUSE', ['OBJECTID', 'OBJECTGUID', 'HOUSENUM', 'HOUSETYPE', 'ADDNUM1', 'ADDTYPE1', 'ADDNUM2', 'ADDTYPE2', 'ISACTUAL', 'ISACTIVE']);
export const STEAD = recordLayout('STEAD', ['OBJECTID', 'OBJECTGUID', 'NUMBER', 'ISACTUAL', 'ISACTIVE']);
export const APARTMENT = recordLayout('APARTMENT', ['OBJECTID', 'OBJECTGUID', 'NUMBER', 'APARTTYPE', 'ISACTUAL', 'ISACTIVE']);
export const ROOM = recordLayout('ROOM', ['OBJECTID', 'OBJECTGUID', 'NUMBER', 'ROOMTYPE', 'ISACTUAL', 'ISACTIVE']);
export const CARPLACE = recordLayout('CARPLACE', ['OBJECTID', 'OBJECTGUID', 'NUMBER', 'ISACTUAL', 'ISACTIVE']);

/** which records the reader keeps, besides the current ones */
export interface ScanFilter {
  /** the date params must still be valid on, `YYYY-MM-DD` */
  asOf: string;
  /** the OKATO, OKTMO and IFNS params of houses, steads and flats too (GarOptions.houseCodes) */
  houseCodes: boolean;
  /** scan each record's `ID` too, in the slot after the layout's (`scanLayout`): the update store keys rows by it */
  withIds?: boolean;
}

export interface GarTable {
  layout: RecordShape;
  /** the records the reader wants */
  keep(record: FlatRecord, filter: ScanFilter): boolean;
}

const isElement = (layout: { element: string }) => (r: FlatRecord) => r.element === layout.element;

/** ISACTUAL=1 and ISACTIVE=1 */
const isCurrent = (layout: { element: string; ISACTUAL: number; ISACTIVE: number }) => (r: FlatRecord) =>
  r.element === layout.element && r.is(layout.ISACTUAL, '1') && r.is(layout.ISACTIVE, '1');

/** a param still valid on `asOf`: ends after it, or is the latest change (CHANGEIDEND=0) */
function isValid(r: FlatRecord, asOf: string, layout: { ENDDATE: number; CHANGEIDEND: number }): boolean {
  return (r.has(layout.ENDDATE) ? r.compare(layout.ENDDATE, asOf) > 0 : '9999' > asOf) || r.is(layout.CHANGEIDEND, '0');
}

const houseParams: GarTable = {
  layout: HOUSE_PARAM,
  keep: (r, { asOf, houseCodes }) =>
    r.element === HOUSE_PARAM.element &&
    (houseCodes ? HOUSE_PARAM_TYPES : HOUSE_PARAM_TYPES_WITHOUT_CODES).has(r.int(HOUSE_PARAM.TYPEID)) &&
    isValid(r, asOf, HOUSE_PARAM),
};

/** a type list (`<HOUSETYPE ID="2" NAME="Дом" …/>`): id and name */
const typeList = (element: string) => {
  const layout = recordLayout(element, ['ID', 'NAME']);
  return { layout, keep: isElement(layout) };
};

export const GAR_TABLES = {
  AS_HOUSE_TYPES: typeList('HOUSETYPE'),
  AS_ADDHOUSE_TYPES: typeList('HOUSETYPE'),
  AS_APARTMENT_TYPES: typeList('APARTMENTTYPE'),
  AS_ROOM_TYPES: typeList('ROOMTYPE'),
  AS_ADDR_OBJ: { layout: OBJECT, keep: isElement(OBJECT) },
  AS_ADM_HIERARCHY: { layout: HIERARCHY, keep: (r) => r.element === HIERARCHY.element && r.is(HIERARCHY.ISACTIVE, '1') },
  AS_MUN_HIERARCHY: { layout: MUN_HIERARCHY, keep: (r) => r.element === MUN_HIERARCHY.element && r.is(MUN_HIERARCHY.ISACTIVE, '1') },
  AS_ADDR_OBJ_PARAMS: {
    layout: OBJECT_PARAM,
    keep: (r, { asOf }) => r.element === OBJECT_PARAM.element && OBJECT_PARAM_TYPES.has(r.int(OBJECT_PARAM.TYPEID)) && isValid(r, asOf, OBJECT_PARAM),
  },
  AS_HOUSES_PARAMS: houseParams,
  AS_HOUSES: { layout: HOUSE, keep: isCurrent(HOUSE) },
  AS_STEADS_PARAMS: houseParams,
  AS_STEADS: { layout: STEAD, keep: isCurrent(STEAD) },
  AS_APARTMENTS_PARAMS: houseParams,
  AS_APARTMENTS: { layout: APARTMENT, keep: isCurrent(APARTMENT) },
  AS_ROOMS: { layout: ROOM, keep: isCurrent(ROOM) },
  AS_CARPLACES: { layout: CARPLACE, keep: isCurrent(CARPLACE) },
} satisfies Record<string, GarTable>;

export type GarTableName = keyof typeof GAR_TABLES;

/** the type lists at the archive's root, in the order they are read */
export const TYPE_TABLES = ['AS_HOUSE_TYPES', 'AS_ADDHOUSE_TYPES', 'AS_APARTMENT_TYPES', 'AS_ROOM_TYPES'] as const satisfies readonly GarTableName[];

/**
 * a region's tables in the order they are read (objects, their administrative parents, their municipal
 * entities, their codes, then houses and steads each after its params)
 */
export const REGION_TABLES = [
  'AS_ADDR_OBJ',
  'AS_ADM_HIERARCHY',
  'AS_MUN_HIERARCHY',
  'AS_ADDR_OBJ_PARAMS',
  'AS_HOUSES_PARAMS',
  'AS_HOUSES',
  'AS_STEADS_PARAMS',
  'AS_STEADS',
  'AS_APARTMENTS_PARAMS',
  'AS_APARTMENTS',
  'AS_ROOMS',
  'AS_CARPLACES',
] as const satisfies readonly GarTableName[];

/** the tables of flats, rooms and car places (read when `apartments` is on) */
export const APARTMENT_TABLES: ReadonlySet<GarTableName> = new Set(['AS_APARTMENTS_PARAMS', 'AS_APARTMENTS', 'AS_ROOMS', 'AS_CARPLACES']);

const layoutsWithIds = new Map<GarTableName, RecordShape>();

/**
 * The attributes scanned from `table`'s records: its layout's, and with `withIds` its records' `ID` in the slot
 * after them (the type lists read their ID already), so the reader's slots stay where they are.
 */
export function scanLayout(table: GarTableName, withIds = false): RecordShape {
  const { layout } = GAR_TABLES[table];
  if (!withIds || layout.names.includes('ID')) return layout;
  let extended = layoutsWithIds.get(table);
  if (!extended) layoutsWithIds.set(table, (extended = recordLayout(layout.element, [...layout.names, 'ID'])));
  return extended;
}

/** the slot of `ID` in `scanLayout(table, true)` */
export function idSlot(table: GarTableName): number {
  return scanLayout(table, true).names.indexOf('ID');
}
