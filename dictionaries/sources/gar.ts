/**
 * GAR (ФИАС ГАР) reader: `gar_xml.zip` read in place, entry by entry (yauzl, zip64), each XML streamed
 * through saxes. Never extracts or loads a whole file.
 *
 * The ordering problem: an object's parent (AS_ADM_HIERARCHY) and its codes (AS_*_PARAMS) come in other
 * files than the object, and houses are the bulk (≈35 M nationally). So, per region folder:
 *  1. AS_ADDR_OBJ: address objects are few (≈1.5 M nationally, ≤ 150 k in a region) and kept in memory:
 *     the current record (ISACTUAL=1 and ISACTIVE=1) per OBJECTID, older names of the same OBJECTID as
 *     historical names;
 *  2. AS_ADM_HIERARCHY (ISACTIVE=1): parent of every object — houses, steads, apartments included — in a
 *     `NumberMap` (uint32 → float64, ≈24 bytes per entry);
 *  3. AS_ADDR_OBJ_PARAMS: codes of the kept objects; the objects are then emitted (parents first);
 *  4. AS_HOUSES_PARAMS first, into compact maps keyed by OBJECTID (postcode as a number, OKATO/OKTMO/IFNS
 *     as numbers, cadastral numbers as strings only when `cadastralNumbers` is on), then AS_HOUSES streamed,
 *     each current house emitted at once with its parent and params; the same for AS_STEADS;
 *  5. AS_APARTMENTS, AS_ROOMS, AS_CARPLACES (optional, `apartments`): emitted with their house's OBJECTID.
 * All maps are dropped at the end of a region, so peak memory is that of the largest region (Москва:
 * ≈ 12 M hierarchy rows ≈ 300 MB), not of the country.
 *
 * Levels: GAR 1 region, 2 administrative area → area, 5 city, 6 locality → settlement, 7 plan structure,
 * 8 street. The municipal levels 3 and 4 are not in the administrative hierarchy, whose parents we use;
 * if they occur they become areas. Region 99 (г Байконур) is a federal city: it is the region and its
 * streets hang under it, as GAR has it.
 */
import type { Entry } from 'yauzl';
import { Level, type AddressObject, type LevelNumber, type ModelSink } from '../model.js';
import { typeTable, type TypeTable } from '../types.js';
import { NumberMap } from './compact-map.js';
import { streamXml, type Attributes } from './xml.js';
import { openZip, type ZipArchive } from './zip.js';

export interface GarOptions {
  /** region folders to read (`['77', '99']`); all when absent */
  regions?: string[];
  /** emit apartments, rooms and car places (default true) */
  apartments?: boolean;
  /** keep cadastral numbers of houses (default true; ≈ 20 bytes per house) */
  cadastralNumbers?: boolean;
  /** date params must still be valid on, `YYYY-MM-DD` (default: today) */
  asOf?: string;
  log?: (line: string) => void;
  types?: TypeTable;
}

const GAR_LEVELS: Record<string, LevelNumber> = {
  '1': Level.region,
  '2': Level.area,
  '3': Level.area,
  '4': Level.area,
  '5': Level.city,
  '6': Level.settlement,
  '7': Level.planStructure,
  '8': Level.street,
};

/** GAR PARAM TYPEIDs (AS_PARAM_TYPES) */
const PARAM = { ifnsFl: 1, postcode: 5, okato: 6, oktmo: 7, cadastralNumber: 8, kladr: 10, multiFlat: 19 } as const;

interface CurrentObject {
  objectId: number;
  guid: string;
  name: string;
  type: string;
  level: LevelNumber;
  history?: Set<string>;
  codes: Record<number, { value: string; start: string }>;
}

export interface GarCounts {
  objects: number;
  houses: number;
  steads: number;
  apartments: number;
  historyRecords: number;
}

export async function readGar(zipPath: string, sink: ModelSink, options: GarOptions = {}): Promise<GarCounts> {
  const log = options.log ?? (() => {});
  const asOf = options.asOf ?? new Date().toISOString().slice(0, 10);
  const types = options.types ?? typeTable();
  const zip = await openZip(zipPath);
  const counts: GarCounts = { objects: 0, houses: 0, steads: 0, apartments: 0, historyRecords: 0 };
  try {
    const { root, regions, date } = groupEntries(zip.entries, zipPath);
    sink.addSource({ name: 'ФНС ГАР', date, licence: 'FNS GAR, public', primary: true });
    const typeLists = await readTypeLists(zip, root, zipPath);
    for (const [region, files] of [...regions].sort()) {
      if (options.regions && !options.regions.includes(region)) continue;
      const started = Date.now();
      await readRegion(zip, zipPath, region, files, sink, { ...options, asOf, types, log }, typeLists, counts);
      log(`gar: region ${region} done in ${Date.now() - started} ms (${counts.objects} objects, ${counts.houses} houses so far)`);
    }
  } finally {
    zip.close();
  }
  return counts;
}

interface TypeLists {
  /** AS_HOUSE_TYPES id → lower-case name (`дом`, `владение`, `строение`) */
  house: Map<string, string>;
  /** AS_ADDHOUSE_TYPES id → lower-case name (`корпус`, `строение`, `сооружение`, `литера`) */
  addHouse: Map<string, string>;
  /** AS_APARTMENT_TYPES id → lower-case name */
  apartment: Map<string, string>;
  /** AS_ROOM_TYPES id → lower-case name */
  room: Map<string, string>;
}

function tableOf(fileName: string): string | undefined {
  const base = fileName.split('/').pop()!;
  return /^(AS_[A-Z_]+?)_\d{8}_/i.exec(base)?.[1]?.toUpperCase();
}

function groupEntries(entries: Entry[], zipPath: string) {
  const root = new Map<string, Entry>();
  const regions = new Map<string, Map<string, Entry>>();
  let date = '';
  for (const entry of entries) {
    if (entry.fileName.endsWith('/')) continue;
    const table = tableOf(entry.fileName);
    if (!table) continue;
    const fileDate = /_(\d{8})_/.exec(entry.fileName)?.[1] ?? '';
    if (fileDate > date) date = fileDate;
    const parts = entry.fileName.split('/');
    if (parts.length === 1) root.set(table, entry);
    else {
      const region = parts[parts.length - 2];
      if (!regions.has(region)) regions.set(region, new Map());
      regions.get(region)!.set(table, entry);
    }
  }
  if (regions.size === 0) throw new Error(`${zipPath}: no region folders with AS_* files (is this a GAR gar_xml.zip?)`);
  return { root, regions, date };
}

async function readTypeLists(zip: ZipArchive, root: Map<string, Entry>, zipPath: string): Promise<TypeLists> {
  const read = async (table: string, element: string): Promise<Map<string, string>> => {
    const entry = root.get(table);
    const map = new Map<string, string>();
    if (!entry) return map;
    await streamXml(await zip.open(entry), `${zipPath}:${entry.fileName}`, {
      open(name, a) {
        if (name === element) map.set(a.ID, (a.NAME ?? '').toLowerCase());
      },
    });
    return map;
  };
  const lists = {
    house: await read('AS_HOUSE_TYPES', 'HOUSETYPE'),
    addHouse: await read('AS_ADDHOUSE_TYPES', 'HOUSETYPE'),
    apartment: await read('AS_APARTMENT_TYPES', 'APARTMENTTYPE'),
    room: await read('AS_ROOM_TYPES', 'ROOMTYPE'),
  };
  if (lists.house.size === 0) throw new Error(`${zipPath}: AS_HOUSE_TYPES missing or empty`);
  return lists;
}

type RegionOptions = GarOptions & { asOf: string; types: TypeTable; log: (line: string) => void };

async function readRegion(
  zip: ZipArchive,
  zipPath: string,
  region: string,
  files: Map<string, Entry>,
  sink: ModelSink,
  options: RegionOptions,
  typeLists: TypeLists,
  counts: GarCounts,
): Promise<void> {
  const stream = async (table: string, required: boolean, handle: (element: string, a: Attributes) => void): Promise<number> => {
    const entry = files.get(table);
    if (!entry) {
      if (required) throw new Error(`${zipPath}: region ${region} has no ${table} file`);
      return 0;
    }
    const started = Date.now();
    const n = await streamXml(await zip.open(entry), `${zipPath}:${entry.fileName}`, { open: handle });
    if (n > 100_000) options.log(`gar: ${entry.fileName}: ${n} records, ${Date.now() - started} ms`);
    return n;
  };

  // 1. address objects
  const objects = new Map<number, CurrentObject>();
  const history = new Map<number, Set<string>>();
  await stream('AS_ADDR_OBJ', true, (element, a) => {
    if (element !== 'OBJECT') return;
    const objectId = requireInt(a.OBJECTID, 'OBJECTID');
    const level = GAR_LEVELS[a.LEVEL];
    if (level === undefined) return;
    if (a.ISACTUAL === '1' && a.ISACTIVE === '1') {
      if (!a.OBJECTGUID || !a.NAME) throw new Error(`OBJECT ${a.OBJECTID} without OBJECTGUID or NAME`);
      objects.set(objectId, {
        objectId,
        guid: detached(a.OBJECTGUID.toLowerCase()),
        name: detached(a.NAME.trim()),
        type: options.types.abbreviation(a.TYPENAME ?? '', 'ru', level),
        level,
        codes: {},
      });
    } else if (a.NAME) {
      const names = history.get(objectId) ?? new Set<string>();
      names.add(detached(a.NAME.trim()));
      history.set(objectId, names);
    }
  });

  // 2. hierarchy: every object's parent
  const parentOf = new NumberMap(1024);
  await stream('AS_ADM_HIERARCHY', true, (element, a) => {
    if (element !== 'ITEM' || a.ISACTIVE !== '1') return;
    const parent = Number(a.PARENTOBJID);
    if (parent > 0) parentOf.set(requireInt(a.OBJECTID, 'OBJECTID'), parent);
  });

  // 3. object params, then the objects
  const isValid = (a: Attributes) => (a.ENDDATE ?? '9999') > options.asOf || a.CHANGEIDEND === '0';
  await stream('AS_ADDR_OBJ_PARAMS', false, (element, a) => {
    if (element !== 'PARAM' || !isValid(a)) return;
    const object = objects.get(Number(a.OBJECTID));
    if (!object) return;
    const type = Number(a.TYPEID);
    const previous = object.codes[type];
    if (!previous || (a.STARTDATE ?? '') >= previous.start) object.codes[type] = { value: detached(a.VALUE ?? ''), start: detached(a.STARTDATE ?? '') };
  });
  const keyOfParent = (objectId: number): string | null => {
    const parent = parentOf.get(objectId);
    if (parent === undefined) return null;
    const object = objects.get(parent);
    return object ? `fias:${object.guid}` : `gar:${parent}`;
  };
  for (const object of objects.values()) {
    const codeOf = (type: number) => object.codes[type]?.value || undefined;
    const record: AddressObject = {
      key: `fias:${object.guid}`,
      level: object.level,
      parent: object.level === Level.region ? null : keyOfParent(object.objectId),
      name: object.name,
      type: object.type,
      codes: {
        fias: object.guid,
        gar: String(object.objectId),
        kladr: codeOf(PARAM.kladr),
        okato: codeOf(PARAM.okato),
        oktmo: codeOf(PARAM.oktmo),
        ifns: codeOf(PARAM.ifnsFl),
      },
      postcode: validPostcode(codeOf(PARAM.postcode)),
      source: 'gar',
    };
    for (const code of Object.keys(record.codes) as Array<keyof typeof record.codes>) if (!record.codes[code]) delete record.codes[code];
    const older = history.get(object.objectId);
    if (older) {
      older.delete(object.name);
      if (older.size > 0) record.historicalNames = [...older];
    }
    if (record.level !== Level.region && record.parent === null) {
      sink.reject('gar', 'object without an active hierarchy record');
      continue;
    }
    sink.addObject(record);
    counts.objects++;
  }

  // 4. houses and steads: params first into compact maps, then the records streamed
  const readParams = async (table: string) => {
    const postcode = new NumberMap();
    const okato = new NumberMap();
    const oktmo = new NumberMap();
    const ifns = new NumberMap();
    const multiFlat = new NumberMap();
    const cadnum = new Map<number, string>();
    await stream(table, false, (element, a) => {
      if (element !== 'PARAM' || !isValid(a)) return;
      const id = Number(a.OBJECTID);
      const value = a.VALUE ?? '';
      switch (Number(a.TYPEID)) {
        case PARAM.postcode:
          if (/^\d{6}$/.test(value)) postcode.set(id, Number(value));
          break;
        case PARAM.okato:
          if (/^\d+$/.test(value)) okato.set(id, Number(value));
          break;
        case PARAM.oktmo:
          if (/^\d+$/.test(value)) oktmo.set(id, Number(value));
          break;
        case PARAM.ifnsFl:
          if (/^\d+$/.test(value)) ifns.set(id, Number(value));
          break;
        case PARAM.multiFlat:
          multiFlat.set(id, value === '1' || value.toLowerCase() === 'true' ? 1 : 2);
          break;
        case PARAM.cadastralNumber:
          if (options.cadastralNumbers !== false && value) cadnum.set(id, detached(value));
          break;
      }
    });
    const digits = (map: NumberMap, id: number, width: number) => {
      const value = map.get(id);
      return value === undefined ? undefined : String(value).padStart(width, '0');
    };
    return {
      codes: (id: number) => {
        const codes: Record<string, string> = {};
        const o = digits(okato, id, 11);
        if (o) codes.okato = o;
        const t = digits(oktmo, id, oktmo.get(id)! > 99_999_999 ? 11 : 8);
        if (t) codes.oktmo = t;
        const f = digits(ifns, id, 4);
        if (f) codes.ifns = f;
        return codes;
      },
      postcode: (id: number) => digits(postcode, id, 6),
      cadnum: (id: number) => cadnum.get(id),
      multiFlat: (id: number) => (multiFlat.has(id) ? multiFlat.get(id) === 1 : undefined),
    };
  };

  let params = await readParams('AS_HOUSES_PARAMS');
  await stream('AS_HOUSES', false, (element, a) => {
    if (element !== 'HOUSE' || a.ISACTUAL !== '1' || a.ISACTIVE !== '1') return;
    const objectId = requireInt(a.OBJECTID, 'OBJECTID');
    const parent = keyOfParent(objectId);
    if (parent === null || parent.startsWith('gar:')) {
      sink.reject('gar', 'house: parent missing');
      return;
    }
    const house = {
      parent,
      number: '',
      codes: { fias: (a.OBJECTGUID ?? '').toLowerCase(), gar: String(objectId), ...params.codes(objectId) },
      postcode: params.postcode(objectId),
      cadnum: params.cadnum(objectId),
      multiFlat: params.multiFlat(objectId),
      source: 'gar',
    } as Parameters<ModelSink['addHouse']>[0];
    if (!house.codes.fias) delete house.codes.fias;
    placeNumber(house, typeLists.house.get(a.HOUSETYPE ?? '') ?? 'дом', a.HOUSENUM ?? '');
    placeNumber(house, typeLists.addHouse.get(a.ADDTYPE1 ?? '') ?? '', a.ADDNUM1 ?? '');
    placeNumber(house, typeLists.addHouse.get(a.ADDTYPE2 ?? '') ?? '', a.ADDNUM2 ?? '');
    dropUndefined(house);
    sink.addHouse(house);
    counts.houses++;
  });

  params = await readParams('AS_STEADS_PARAMS');
  await stream('AS_STEADS', false, (element, a) => {
    if (element !== 'STEAD' || a.ISACTUAL !== '1' || a.ISACTIVE !== '1') return;
    const objectId = requireInt(a.OBJECTID, 'OBJECTID');
    const parent = keyOfParent(objectId);
    if (parent === null || parent.startsWith('gar:')) {
      sink.reject('gar', 'stead: parent missing');
      return;
    }
    const stead = {
      parent,
      number: (a.NUMBER ?? '').trim(),
      stead: true,
      codes: { fias: (a.OBJECTGUID ?? '').toLowerCase(), gar: String(objectId), ...params.codes(objectId) },
      postcode: params.postcode(objectId),
      cadnum: params.cadnum(objectId),
      source: 'gar',
    };
    dropUndefined(stead);
    sink.addHouse(stead);
    counts.steads++;
  });

  // 5. apartments, rooms, car places
  if (options.apartments !== false) {
    params = await readParams('AS_APARTMENTS_PARAMS');
    const apartmentParams = params;
    await stream('AS_APARTMENTS', false, (element, a) => {
      if (element !== 'APARTMENT' || a.ISACTUAL !== '1' || a.ISACTIVE !== '1') return;
      const objectId = requireInt(a.OBJECTID, 'OBJECTID');
      const house = parentOf.get(objectId);
      if (house === undefined) return sink.reject('gar', 'apartment: house missing');
      sink.addApartment({
        house: `gar:${house}`,
        number: (a.NUMBER ?? '').trim(),
        type: apartmentType(typeLists.apartment.get(a.APARTTYPE ?? '') ?? ''),
        codes: { fias: detached((a.OBJECTGUID ?? '').toLowerCase()), gar: String(objectId) },
        ...(apartmentParams.cadnum(objectId) ? { cadnum: apartmentParams.cadnum(objectId) } : {}),
        source: 'gar',
      });
      counts.apartments++;
    });
    await stream('AS_ROOMS', false, (element, a) => {
      if (element !== 'ROOM' || a.ISACTUAL !== '1' || a.ISACTIVE !== '1') return;
      const objectId = requireInt(a.OBJECTID, 'OBJECTID');
      // a room hangs under an apartment or directly under a house
      let house = parentOf.get(objectId);
      const above = house === undefined ? undefined : parentOf.get(house);
      if (above !== undefined && !objects.has(above)) house = above;
      if (house === undefined) return sink.reject('gar', 'room: house missing');
      sink.addApartment({
        house: `gar:${house}`,
        number: (a.NUMBER ?? '').trim(),
        type: apartmentType(typeLists.room.get(a.ROOMTYPE ?? '') ?? 'комната'),
        codes: { fias: detached((a.OBJECTGUID ?? '').toLowerCase()), gar: String(objectId) },
        source: 'gar',
      });
      counts.apartments++;
    });
    await stream('AS_CARPLACES', false, (element, a) => {
      if (element !== 'CARPLACE' || a.ISACTUAL !== '1' || a.ISACTIVE !== '1') return;
      const objectId = requireInt(a.OBJECTID, 'OBJECTID');
      const house = parentOf.get(objectId);
      if (house === undefined) return sink.reject('gar', 'car place: house missing');
      sink.addApartment({
        house: `gar:${house}`,
        number: (a.NUMBER ?? '').trim(),
        type: 'м/м',
        codes: { fias: detached((a.OBJECTGUID ?? '').toLowerCase()), gar: String(objectId) },
        source: 'gar',
      });
      counts.apartments++;
    });
  }
  counts.historyRecords += await stream('AS_CHANGE_HISTORY', false, () => {});
}

/** put a GAR number where its type says: `дом` → number, `корпус` → block, `владение` → number + possession */
function placeNumber(house: Parameters<ModelSink['addHouse']>[0], typeName: string, value: string): void {
  const number = value.trim();
  if (!number) return;
  switch (typeName) {
    case 'корпус':
      house.block = number;
      return;
    case 'строение':
      house.building = number;
      return;
    case 'сооружение':
      house.construction = number;
      return;
    case 'литера':
      house.liter = number;
      return;
    case 'владение':
    case 'домовладение':
      house.possession = true;
      house.number = number;
      return;
    default:
      // дом, здание, гараж, котельная, …: the house number itself
      house.number = number;
  }
}

const APARTMENT_TYPES: Record<string, string> = {
  помещение: 'пом',
  квартира: 'кв',
  офис: 'оф',
  комната: 'ком',
  'рабочий участок': 'раб.уч',
  склад: 'скл',
  'торговый зал': 'торг.зал',
  цех: 'цех',
  павильон: 'пав',
  подвал: 'подв',
  котельная: 'кот',
  погреб: 'п-б',
  гараж: 'г-ж',
  'машино-место': 'м/м',
};

function apartmentType(name: string): string {
  return APARTMENT_TYPES[name] ?? name;
}

function requireInt(value: string | undefined, field: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${field}="${value ?? ''}" is not a positive integer`);
  return n;
}

function validPostcode(value: string | undefined): string | undefined {
  return value && /^\d{6}$/.test(value) ? value : undefined;
}

function dropUndefined(record: object): void {
  for (const [key, value] of Object.entries(record)) if (value === undefined) delete (record as Record<string, unknown>)[key];
}

/**
 * A copy of an attribute value that does not keep the parser's chunk alive: saxes slices values out of
 * the decoded chunk, and V8 keeps a slice of 13+ characters as a view of the whole chunk (≈ 128 KB), so
 * every kept GUID, name or code would otherwise pin its chunk (measured: 430 MB of heap per million
 * houses after the read, the AS_ADDR_OBJ* text). `' ' + text` flattened by `slice` owns its characters.
 */
function detached(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}
