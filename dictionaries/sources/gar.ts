/**
 * GAR (ФИАС ГАР) reader: `gar_xml.zip` read in place, entry by entry (yauzl, zip64), each XML streamed
 * through the flat-record byte scanner (io/flat-xml.ts): every GAR file is one root of self-closing
 * records, and each table below names the few attributes it reads, decoded only for records it keeps.
 * Never extracts or loads a whole file.
 *
 * The ordering problem: an object's parent (AS_ADM_HIERARCHY) and its codes (AS_*_PARAMS) come in other
 * files than the object, and houses are the bulk (≈35 M nationally). So, per region folder:
 *  1. AS_ADDR_OBJ: address objects are few (≈1.5 M nationally, ≤ 150 k in a region) and kept in memory:
 *     the current record (ISACTUAL=1 and ISACTIVE=1) per OBJECTID, older names of the same OBJECTID as
 *     historical names;
 *  2. AS_ADM_HIERARCHY (ISACTIVE=1): parent of every object — houses, steads, apartments included — in a
 *     `NumberMap` (uint32 → float64, ≈24 bytes per entry);
 *  2m. AS_MUN_HIERARCHY (ISACTIVE=1), as large as the ADM one: each row's PATH (region … object) is read in
 *     place and its deepest municipal entity (GAR level 3 or 4) taken at once, so only the answer is kept,
 *     in a `NumberMap` objectId → municipal objectId, and only where a house cannot take it from its
 *     parent: for address objects and municipal entities, and for a house or stead whose municipal parent
 *     is not its administrative parent (rare); apartments, rooms and car places are not kept (they are
 *     their house's). A house whose MUN parent is its ADM parent has its street's municipal, which the
 *     model says by leaving `HouseRecord.municipal` out (no byte per house);
 *  3. AS_ADDR_OBJ_PARAMS: codes of the kept objects and municipal entities; the municipal entities are
 *     emitted, then the objects (parents first);
 *  4. AS_HOUSES_PARAMS first, into compact maps keyed by OBJECTID (postcode as a number, OKATO/OKTMO/IFNS
 *     as numbers, cadastral numbers as strings only when `cadastralNumbers` is on), then AS_HOUSES streamed,
 *     each current house emitted at once with its parent and params; the same for AS_STEADS;
 *  5. AS_APARTMENTS, AS_ROOMS, AS_CARPLACES (optional, `apartments`): emitted with their house's OBJECTID.
 * AS_CHANGE_HISTORY (≈ 13 % of the XML) and the other tables are not opened: nothing in them is used.
 * All maps are dropped at the end of a region, so peak memory is that of the largest region (Москва:
 * ≈ 12 M hierarchy rows ≈ 300 MB), not of the country.
 *
 * Levels: GAR 1 region, 2 administrative area → area, 5 city, 6 locality → settlement, 7 plan structure,
 * 8 street: the administrative chain the core matches on. GAR 3 (муниципальный район/округ, городской
 * округ, внутригородская территория) and 4 (городское/сельское поселение) are not in the administrative
 * hierarchy: they become `MunicipalObject`s, the `municipal` level of records, and every object and house
 * refers to the deepest one in its municipal PATH (docs/DECISIONS.md). Region 99 (г Байконур) is a
 * federal city: it is the region and its streets hang under it, as GAR has it; it has no municipal entities.
 */
import { availableParallelism } from 'node:os';
import type { Entry } from 'yauzl';
import { fiasKey, Level, type AddressObject, type HouseRecord, type LevelNumber, type ModelSink, type MunicipalObject } from '../source-model.js';
import { typeTable, type TypeTable } from '../types.js';
import { NumberMap } from '../compact-map.js';
import type { FlatRecord } from '../io/flat-xml.js';
import { inlineScan, workerScan, type GarScan, type ScanJob } from '../io/gar-scan.js';
import { WasmRecords, XML_SCAN_WASM } from '../io/flat-xml-wasm.js';
import { decodeCadnum, encodeCadnum } from '../../format/cadnum.js';
import {
  APARTMENT,
  APARTMENT_TABLES,
  CARPLACE,
  GAR_TABLES,
  HIERARCHY,
  HOUSE,
  HOUSE_PARAM,
  MUN_HIERARCHY,
  OBJECT,
  OBJECT_PARAM,
  PARAM,
  REGION_TABLES,
  ROOM,
  STEAD,
  TYPE_TABLES,
  type GarTableName,
} from '../io/gar-tables.js';
import { openZip } from '../io/zip.js';
import { readRegionsInWorkers } from './gar-regions.js';

export interface GarOptions {
  /** region folders to read (`['77', '99']`); all when absent */
  regions?: string[];
  /** emit apartments, rooms and car places (default true) */
  apartments?: boolean;
  /** keep cadastral numbers of houses (default true; ≈ 20 bytes per house) */
  cadastralNumbers?: boolean;
  /**
   * give houses, steads and flats their own OKATO, OKTMO and IFNS codes (default true). The dictionary builder
   * passes false: its house store keeps none (a house has its street's or its municipal entity's), and those
   * params are 3 of the 5 a house has that are read (≈ 10 % of the build's time at 1 M houses)
   */
  houseCodes?: boolean;
  /** date params must still be valid on, `YYYY-MM-DD` (default: today) */
  asOf?: string;
  log?: (line: string) => void;
  types?: TypeTable;
  /**
   * worker threads that inflate and scan the XML, entries side by side, ahead of the records' processing in
   * this thread; 0 scans here. Default: `defaultScanThreads` (two on a machine of two cores or more once the
   * entries to read hold 64 MB of XML). The threads cost ≈ 0.4 s to start and raise the read's peak RSS
   * (≈ 90 MB at 1 M houses, ≈ 150 MB at 10 M); at 1 M houses two take the read from ≈ 21 to ≈ 13 s on this
   * 2-core machine, one alone is no faster than none.
   */
  scanThreads?: number;
  /**
   * worker threads that read a source's region folders side by side when it hands out its rows as the update
   * store keeps them (`GarRecordSource.storedRows`): each worker runs the reader over the regions given it and
   * this thread takes their records in region order (sources/gar-regions.ts); 0 reads them here. Default: two on a
   * machine of two cores or more once the source holds REGION_THREADS_BYTES (one for a single region), else none.
   */
  regionThreads?: number;
}

const GAR_LEVELS: Record<string, LevelNumber> = {
  '1': Level.region,
  '2': Level.area,
  '5': Level.city,
  '6': Level.settlement,
  '7': Level.planStructure,
  '8': Level.street,
};
/** GAR levels of municipal entities: 3 муниципальный район/округ, городской округ, …; 4 поселение */
const MUNICIPAL_LEVELS = new Set(['3', '4']);
/** the type table has no level of their own for them: their types (`м.р-н`, `г.о`, `с/п`) are area types */
const MUNICIPAL_TYPE_LEVEL = Level.area;
/** the longest PATH read (GAR's are ≤ 10 deep: region … apartment, room) */
const MAX_PATH = 32;


interface CurrentObject {
  objectId: number;
  guid: string;
  /** `fiasKey(guid)`, the GUID string itself: every house under the object refers to it */
  key: string;
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
  /** bytes of XML inflated and scanned (the uncompressed sizes of the entries opened) */
  xmlBytes: number;
}

export async function readGar(zipPath: string, sink: ModelSink, options: GarOptions = {}): Promise<GarCounts> {
  const zip = await openZip(zipPath);
  let scan: GarScan | undefined;
  try {
    const { root, regions, date } = groupEntries(zip.entries, zipPath);
    const asOf = options.asOf ?? new Date().toISOString().slice(0, 10);
    const jobsOf = (files: Map<string, Entry>) => new Map([...files].map(([table, entry]) => [table, scanJob(table as GarTableName, entry)]));
    const source: GarRecordSource = { label: zipPath, date, root: jobsOf(root), regions: new Map([...regions].map(([region, files]) => [region, jobsOf(files)])), read: async () => 0 };
    const plan = plannedJobs(source, options);
    const threads = options.scanThreads ?? defaultScanThreads(plan.reduce((sum, { bytes }) => sum + bytes, 0));
    const filter = { asOf, houseCodes: options.houseCodes !== false };
    if (!WasmRecords.get()) options.log?.(`gar: ${XML_SCAN_WASM} is not built (npm run asbuild): the XML is scanned in JavaScript alone, ≈ 2.5× slower`);
    const active = threads > 0 ? workerScan(zipPath, filter, plan, threads) : inlineScan(zip, zipPath, filter);
    scan = active;
    return await readGarRecords({ ...source, read: (job, handle) => active.read(job, handle) }, sink, options);
  } finally {
    await scan?.close();
    zip.close();
  }
}

/**
 * Where `readGarRecords` takes GAR's records from: the archive's entries (`readGar`), or the rows an update
 * store keeps of them (`dictionaries/update/`). `read` yields the kept records of one table of one region
 * folder (the type lists: of the root) in the order of `plannedJobs`.
 */
export interface GarRecordSource {
  /** the archive or store, in messages */
  label: string;
  /** the registry's date, `YYYYMMDD`: the dictionary's version */
  date: string;
  /** the type lists at the root, by table */
  root: Map<string, ScanJob>;
  /** region folder → its tables */
  regions: Map<string, Map<string, ScanJob>>;
  read: ReadEntry;
  /**
   * the rows of an entry as the update store keeps them (update/gar-store.ts `StoredRecord`), in pieces of about
   * `bytes`; a source that has them can be read by region workers (`GarOptions.regionThreads`)
   */
  storedRows?: (job: ScanJob, bytes: number) => AsyncGenerator<Buffer>;
  /** about how many bytes `storedRows` holds in all (the store's file) */
  storedBytes?: number;
}

/**
 * Stored rows from which region workers read them by default. At 1 M synthetic houses (a store of 315 MB) two
 * workers took 1.7 s off the main thread's 8 s but cost 7.5 s more CPU in all (their start, their heaps, the
 * copies between threads): slower on two cores; at 10 M (3.2 GB) they took 34 s off its 63 s.
 */
export const REGION_THREADS_BYTES = 2 ** 30;

/** the region folders `options.regions` selects, in order */
function selectedRegions(source: GarRecordSource, options: GarOptions): Array<[string, Map<string, ScanJob>]> {
  return [...source.regions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).filter(([region]) => !options.regions || options.regions.includes(region));
}

/** the tables of `files` (a region folder's, or the root's type lists: `tables`) to read, in the order they are read */
export function tablePlan(files: Map<string, ScanJob>, options: GarOptions, tables: readonly GarTableName[] = REGION_TABLES): ScanJob[] {
  return tables.filter((table) => files.has(table) && (options.apartments !== false || !APARTMENT_TABLES.has(table))).map((table) => files.get(table)!);
}

/** every table to read, in the order it is read */
export function plannedJobs(source: GarRecordSource, options: GarOptions): ScanJob[] {
  return [...tablePlan(source.root, options, TYPE_TABLES), ...selectedRegions(source, options).flatMap(([, files]) => tablePlan(files, options))];
}

/** GAR's records from `source` into `sink`, region folder by region folder (the module comment's steps) */
export async function readGarRecords(source: GarRecordSource, sink: ModelSink, options: GarOptions = {}): Promise<GarCounts> {
  const log = options.log ?? (() => {});
  const asOf = options.asOf ?? new Date().toISOString().slice(0, 10);
  const types = options.types ?? typeTable();
  const counts: GarCounts = { objects: 0, houses: 0, steads: 0, apartments: 0, xmlBytes: 0 };
  const read: ReadEntry = (job, handle) => {
    counts.xmlBytes += job.bytes;
    return source.read(job, handle);
  };
  sink.addSource({ name: 'ФНС ГАР', date: source.date, licence: 'FNS GAR, public', primary: true });
  const typeLists = await readTypeLists(source.root, source.label, read);
  const regions = selectedRegions(source, options);
  const regionOptions = { ...options, asOf, types, log };
  const large = (source.storedBytes ?? 0) >= REGION_THREADS_BYTES && availableParallelism() >= 2;
  const threads = source.storedRows ? (options.regionThreads ?? (large ? Math.min(2, regions.length) : 0)) : 0;
  if (threads > 0) {
    await readRegionsInWorkers({ source, regions, sink, options: regionOptions, typeLists, counts, threads });
    return counts;
  }
  for (const [region, files] of regions) {
    const started = Date.now();
    await readRegion(source.label, region, files, read, sink, regionOptions, typeLists, counts);
    log(`gar: region ${region} done in ${Date.now() - started} ms (${counts.objects} objects, ${counts.houses} houses so far)`);
  }
  return counts;
}

/** XML from which the reader scans in worker threads by default */
const THREADED_XML_BYTES = 64 * 2 ** 20;

/**
 * Scan threads for `xmlBytes` of XML to read: two when the machine has two cores or more and there is enough
 * XML to pay for starting them, else none.
 */
export function defaultScanThreads(xmlBytes: number): number {
  return xmlBytes >= THREADED_XML_BYTES && availableParallelism() >= 2 ? 2 : 0;
}

const scanJob = (table: GarTableName, entry: Entry): ScanJob => ({ table, fileName: entry.fileName, bytes: entry.uncompressedSize });

/** reads an entry of the plan: the records its table keeps go to `handle`; resolves with the file's record count */
export type ReadEntry = (job: ScanJob, handle: (r: FlatRecord) => void) => Promise<number>;

export interface TypeLists {
  /** AS_HOUSE_TYPES id → lower-case name (`дом`, `владение`, `строение`) */
  house: Map<string, string>;
  /** AS_ADDHOUSE_TYPES id → lower-case name (`корпус`, `строение`, `сооружение`, `литера`) */
  addHouse: Map<string, string>;
  /** AS_APARTMENT_TYPES id → lower-case name */
  apartment: Map<string, string>;
  /** AS_ROOM_TYPES id → lower-case name */
  room: Map<string, string>;
}

/** the GAR table an entry holds (`99/AS_HOUSES_20230626_….XML` → `AS_HOUSES`), undefined for other files */
export function tableOf(fileName: string): string | undefined {
  const base = fileName.split('/').pop()!;
  return /^(AS_[A-Z_]+?)_\d{8}_/i.exec(base)?.[1]?.toUpperCase();
}

export function groupEntries(entries: Entry[], zipPath: string) {
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

async function readTypeLists(root: Map<string, ScanJob>, zipPath: string, read: ReadEntry): Promise<TypeLists> {
  const list = async (table: (typeof TYPE_TABLES)[number]): Promise<Map<string, string>> => {
    const job = root.get(table);
    const map = new Map<string, string>();
    if (!job) return map;
    const { layout } = GAR_TABLES[table];
    await read(job, (r) => map.set(r.text(layout.ID), r.text(layout.NAME).toLowerCase()));
    return map;
  };
  const lists = {
    house: await list('AS_HOUSE_TYPES'),
    addHouse: await list('AS_ADDHOUSE_TYPES'),
    apartment: await list('AS_APARTMENT_TYPES'),
    room: await list('AS_ROOM_TYPES'),
  };
  if (lists.house.size === 0) throw new Error(`${zipPath}: AS_HOUSE_TYPES missing or empty`);
  return lists;
}

export type RegionOptions = GarOptions & { asOf: string; types: TypeTable; log: (line: string) => void };

/** the records of one region folder into `sink` (the module comment's steps) */
export async function readRegion(
  zipPath: string,
  region: string,
  files: Map<string, ScanJob>,
  read: ReadEntry,
  sink: ModelSink,
  options: RegionOptions,
  typeLists: TypeLists,
  counts: GarCounts,
): Promise<void> {
  /** the records of `table` that GAR_TABLES keeps (current, active, valid on the date) */
  const stream = async (table: GarTableName, required: boolean, handle: (r: FlatRecord) => void): Promise<number> => {
    const job = files.get(table);
    if (!job) {
      if (required) throw new Error(`${zipPath}: region ${region} has no ${table} file`);
      return 0;
    }
    const started = Date.now();
    const n = await read(job, handle);
    if (n > 100_000) options.log(`gar: ${job.fileName}: ${n} records, ${Date.now() - started} ms`);
    return n;
  };

  // 1. address objects
  const objects = new Map<number, CurrentObject>();
  const history = new Map<number, Set<string>>();
  const municipals = new Map<number, CurrentObject>();
  await stream('AS_ADDR_OBJ', true, (r) => {
    const objectId = requireInt(r, OBJECT.OBJECTID, 'OBJECTID');
    const garLevel = r.text(OBJECT.LEVEL);
    if (MUNICIPAL_LEVELS.has(garLevel)) {
      const name = r.text(OBJECT.NAME).trim();
      const guid = r.text(OBJECT.OBJECTGUID).toLowerCase();
      if (r.is(OBJECT.ISACTUAL, '1') && r.is(OBJECT.ISACTIVE, '1') && name && guid) {
        const type = options.types.abbreviation(r.text(OBJECT.TYPENAME), 'ru', MUNICIPAL_TYPE_LEVEL);
        municipals.set(objectId, { objectId, guid, key: fiasKey(guid), name, type, level: MUNICIPAL_TYPE_LEVEL, codes: {} });
      }
      return;
    }
    const level = GAR_LEVELS[garLevel];
    if (level === undefined) return;
    const name = r.text(OBJECT.NAME);
    if (r.is(OBJECT.ISACTUAL, '1') && r.is(OBJECT.ISACTIVE, '1')) {
      const guid = r.text(OBJECT.OBJECTGUID);
      if (!guid || !name) throw new Error(`OBJECT ${r.text(OBJECT.OBJECTID)} without OBJECTGUID or NAME`);
      const lower = guid.toLowerCase();
      objects.set(objectId, {
        objectId,
        guid: lower,
        key: fiasKey(lower),
        name: name.trim(),
        type: options.types.abbreviation(r.text(OBJECT.TYPENAME), 'ru', level),
        level,
        codes: {},
      });
    } else if (name) {
      const names = history.get(objectId) ?? new Set<string>();
      names.add(name.trim());
      history.set(objectId, names);
    }
  });

  // 2. hierarchy: every object's parent
  const parentOf = new NumberMap(1024);
  await stream('AS_ADM_HIERARCHY', true, (r) => {
    const parent = r.int(HIERARCHY.PARENTOBJID);
    if (parent > 0) parentOf.set(requireInt(r, HIERARCHY.OBJECTID, 'OBJECTID'), parent);
  });

  // 2m. municipal hierarchy: the deepest municipal entity above each object (and odd house)
  const municipalOf = new NumberMap(1024);
  const path = new Float64Array(MAX_PATH);
  // read even when the region has no municipal entities (Байконур): the scan worker works through the plan in order
  await stream('AS_MUN_HIERARCHY', false, (r) => {
    if (municipals.size === 0) return;
    const objectId = r.int(MUN_HIERARCHY.OBJECTID);
    const municipal = deepestMunicipal(path, r.path(MUN_HIERARCHY.PATH, path), objectId, municipals);
    if (municipal === 0) return;
    if (!objects.has(objectId) && !municipals.has(objectId)) {
      // a house or stead under an address object: kept only when that object is not its administrative
      // parent (else the parent's municipal is its own); under a house (apartments, rooms): not kept
      const parent = r.int(MUN_HIERARCHY.PARENTOBJID);
      if (!objects.has(parent) && !municipals.has(parent)) return;
      if (parent === parentOf.get(objectId)) return;
    }
    municipalOf.set(objectId, municipal);
  });
  const municipalKey = (objectId: number): string | undefined => {
    const municipal = municipalOf.get(objectId);
    return municipal === undefined ? undefined : municipals.get(municipal)!.key;
  };

  // 3. object params, then the municipal entities and the objects
  // OKATO, OKTMO, IFNS codes and postcodes repeat across a region's objects: one string per value, not per
  // object (≈ 30 bytes per object and code for as long as the merge holds the objects)
  const values = new Map<string, string>();
  const shared = (value: string): string => {
    const known = values.get(value);
    if (known !== undefined) return known;
    values.set(value, value);
    return value;
  };
  await stream('AS_ADDR_OBJ_PARAMS', false, (r) => {
    const id = r.int(OBJECT_PARAM.OBJECTID);
    const object = objects.get(id) ?? municipals.get(id);
    if (!object) return;
    const type = r.int(OBJECT_PARAM.TYPEID);
    const previous = object.codes[type];
    const start = r.text(OBJECT_PARAM.STARTDATE);
    if (!previous || start >= previous.start) {
      const value = r.text(OBJECT_PARAM.VALUE);
      object.codes[type] = { value: type === PARAM.kladr ? value : shared(value), start };
    }
  });
  const keyOfParent = (objectId: number): string | null => {
    const parent = parentOf.get(objectId);
    if (parent === undefined) return null;
    const object = objects.get(parent);
    return object ? object.key : `gar:${parent}`;
  };
  for (const municipal of municipals.values()) {
    const codeOf = (type: number) => municipal.codes[type]?.value || undefined;
    const record: MunicipalObject = {
      key: municipal.key,
      name: municipal.name,
      type: municipal.type,
      codes: { fias: municipal.guid, gar: String(municipal.objectId), kladr: codeOf(PARAM.kladr), okato: codeOf(PARAM.okato), oktmo: codeOf(PARAM.oktmo) },
      source: 'gar',
    };
    for (const code of Object.keys(record.codes) as Array<keyof typeof record.codes>) if (!record.codes[code]) delete record.codes[code];
    sink.addMunicipal(record);
  }
  for (const object of objects.values()) {
    const codeOf = (type: number) => object.codes[type]?.value || undefined;
    const record: AddressObject = {
      key: object.key,
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
    const municipal = municipalKey(object.objectId);
    if (municipal !== undefined) record.municipal = municipal;
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
  // each house, stead or flat with params gets a slot (one look-up per house: `slot`), its params columns by slot
  const readParams = async (table: 'AS_HOUSES_PARAMS' | 'AS_STEADS_PARAMS' | 'AS_APARTMENTS_PARAMS') => {
    const slotOf = new NumberMap();
    let capacity = 1024;
    /** postcode (−1: none), multi-flat (0: none, 1 yes, 2 no), OKATO, OKTMO, IFNS (NaN: none) */
    let postcode = new Int32Array(capacity).fill(-1);
    let multiFlat = new Uint8Array(capacity);
    let registry = new Float64Array(3 * capacity).fill(NaN);
    // packed as the house store packs them (8 bytes, other shapes as text): a string per house held through the
    // region was most of what survived the reader's young collections and a tenth of its old garbage
    let cadnumWords = new Uint32Array(2 * capacity);
    const cadnumOther: string[] = [];
    const keepCadastral = options.cadastralNumbers !== false;
    const houseCodes = options.houseCodes !== false;
    const slotFor = (id: number): number => {
      let k = slotOf.get(id);
      if (k !== undefined) return k;
      k = slotOf.size;
      slotOf.set(id, k);
      if (k === capacity) {
        capacity *= 2;
        postcode = grown(postcode, capacity, -1);
        multiFlat = grown(multiFlat, capacity);
        registry = grown(registry, 3 * capacity, NaN);
        cadnumWords = grown(cadnumWords, 2 * capacity);
      }
      return k;
    };
    const { TYPEID, VALUE } = HOUSE_PARAM;
    await stream(table, false, (r) => {
      const id = r.int(HOUSE_PARAM.OBJECTID);
      switch (r.int(TYPEID)) {
        case PARAM.postcode:
          if (r.isDigits(VALUE, 6)) {
            const k = slotFor(id);
            postcode[k] = r.int(VALUE);
          }
          break;
        case PARAM.okato:
          if (r.isDigits(VALUE)) {
            const k = slotFor(id);
            registry[3 * k] = r.int(VALUE);
          }
          break;
        case PARAM.oktmo:
          if (r.isDigits(VALUE)) {
            const k = slotFor(id);
            registry[3 * k + 1] = r.int(VALUE);
          }
          break;
        case PARAM.ifnsFl:
          if (r.isDigits(VALUE)) {
            const k = slotFor(id);
            registry[3 * k + 2] = r.int(VALUE);
          }
          break;
        case PARAM.multiFlat: {
          // the slot first: it may grow the columns (so in each case)
          const k = slotFor(id);
          multiFlat[k] = r.is(VALUE, '1') || r.text(VALUE).toLowerCase() === 'true' ? 1 : 2;
          break;
        }
        case PARAM.cadastralNumber: {
          const value = keepCadastral ? r.text(VALUE) : '';
          if (value) {
            const k = slotFor(id);
            encodeCadnum(value, cadnumWords, 2 * k, cadnumOther);
          }
          break;
        }
      }
    });
    const digits = (k: number, code: number, width: number) => {
      const value = k < 0 ? NaN : registry[3 * k + code];
      return Number.isNaN(value) ? undefined : String(value).padStart(width, '0');
    };
    // a region's houses share a few hundred postcodes: one string each
    const postcodes = new Map<number, string>();
    return {
      /** the slot of the params of a house, stead or flat (−1: it has none), which the others take */
      slot: (id: number): number => slotOf.get(id) ?? -1,
      /** the registry codes of a house or stead, in the order the record has them */
      codes: (guid: string, id: number, k: number) => {
        const codes: HouseRecord['codes'] = {};
        if (guid) codes.fias = guid;
        codes.gar = String(id);
        if (!houseCodes) return codes;
        const o = digits(k, 0, 11);
        if (o) codes.okato = o;
        const t = digits(k, 1, k >= 0 && registry[3 * k + 1] > 99_999_999 ? 11 : 8);
        if (t) codes.oktmo = t;
        const f = digits(k, 2, 4);
        if (f) codes.ifns = f;
        return codes;
      },
      postcode: (k: number) => {
        const value = k < 0 ? -1 : postcode[k];
        if (value < 0) return undefined;
        let text = postcodes.get(value);
        if (text === undefined) postcodes.set(value, (text = String(value).padStart(6, '0')));
        return text;
      },
      cadnum: (k: number) => (k < 0 ? undefined : decodeCadnum(cadnumWords, 2 * k, cadnumOther) || undefined),
      multiFlat: (k: number) => (k < 0 || multiFlat[k] === 0 ? undefined : multiFlat[k] === 1),
    };
  };

  let params = await readParams('AS_HOUSES_PARAMS');
  await stream('AS_HOUSES', false, (r) => {
    const objectId = requireInt(r, HOUSE.OBJECTID, 'OBJECTID');
    const parent = keyOfParent(objectId);
    if (parent === null || parent.startsWith('gar:')) {
      sink.reject('gar', 'house: parent missing');
      return;
    }
    // properties in a fixed order, none undefined (the merge sees one object shape per combination)
    const k = params.slot(objectId);
    const house = { parent, number: '', codes: params.codes(r.text(HOUSE.OBJECTGUID).toLowerCase(), objectId, k) } as HouseRecord;
    const postcode = params.postcode(k);
    const cadnum = params.cadnum(k);
    const multiFlat = params.multiFlat(k);
    if (postcode !== undefined) house.postcode = postcode;
    if (cadnum !== undefined) house.cadnum = cadnum;
    if (multiFlat !== undefined) house.multiFlat = multiFlat;
    const municipal = municipalKey(objectId);
    if (municipal !== undefined) house.municipal = municipal;
    house.source = 'gar';
    placeNumber(house, typeLists.house.get(r.text(HOUSE.HOUSETYPE)) ?? 'дом', r.text(HOUSE.HOUSENUM));
    placeNumber(house, typeLists.addHouse.get(r.text(HOUSE.ADDTYPE1)) ?? '', r.text(HOUSE.ADDNUM1));
    placeNumber(house, typeLists.addHouse.get(r.text(HOUSE.ADDTYPE2)) ?? '', r.text(HOUSE.ADDNUM2));
    sink.addHouse(house);
    counts.houses++;
  });

  params = await readParams('AS_STEADS_PARAMS');
  await stream('AS_STEADS', false, (r) => {
    const objectId = requireInt(r, STEAD.OBJECTID, 'OBJECTID');
    const parent = keyOfParent(objectId);
    if (parent === null || parent.startsWith('gar:')) {
      sink.reject('gar', 'stead: parent missing');
      return;
    }
    const k = params.slot(objectId);
    const stead = { parent, number: r.text(STEAD.NUMBER).trim(), stead: true, codes: params.codes(r.text(STEAD.OBJECTGUID).toLowerCase(), objectId, k) } as HouseRecord;
    const postcode = params.postcode(k);
    const cadnum = params.cadnum(k);
    if (postcode !== undefined) stead.postcode = postcode;
    if (cadnum !== undefined) stead.cadnum = cadnum;
    const municipal = municipalKey(objectId);
    if (municipal !== undefined) stead.municipal = municipal;
    stead.source = 'gar';
    sink.addHouse(stead);
    counts.steads++;
  });

  // 5. apartments, rooms, car places
  if (options.apartments !== false) {
    params = await readParams('AS_APARTMENTS_PARAMS');
    const apartmentParams = params;
    await stream('AS_APARTMENTS', false, (r) => {
      const objectId = requireInt(r, APARTMENT.OBJECTID, 'OBJECTID');
      const house = parentOf.get(objectId);
      if (house === undefined) return sink.reject('gar', 'apartment: house missing');
      const cadnum = apartmentParams.cadnum(apartmentParams.slot(objectId));
      sink.addApartment({
        house: `gar:${house}`,
        number: r.text(APARTMENT.NUMBER).trim(),
        type: apartmentType(typeLists.apartment.get(r.text(APARTMENT.APARTTYPE)) ?? ''),
        codes: { fias: r.text(APARTMENT.OBJECTGUID).toLowerCase(), gar: String(objectId) },
        ...(cadnum ? { cadnum } : {}),
        source: 'gar',
      });
      counts.apartments++;
    });
    await stream('AS_ROOMS', false, (r) => {
      const objectId = requireInt(r, ROOM.OBJECTID, 'OBJECTID');
      // a room hangs under an apartment or directly under a house
      let house = parentOf.get(objectId);
      const above = house === undefined ? undefined : parentOf.get(house);
      if (above !== undefined && !objects.has(above)) house = above;
      if (house === undefined) return sink.reject('gar', 'room: house missing');
      sink.addApartment({
        house: `gar:${house}`,
        number: r.text(ROOM.NUMBER).trim(),
        type: apartmentType(typeLists.room.get(r.text(ROOM.ROOMTYPE)) ?? 'комната'),
        codes: { fias: r.text(ROOM.OBJECTGUID).toLowerCase(), gar: String(objectId) },
        source: 'gar',
      });
      counts.apartments++;
    });
    await stream('AS_CARPLACES', false, (r) => {
      const objectId = requireInt(r, CARPLACE.OBJECTID, 'OBJECTID');
      const house = parentOf.get(objectId);
      if (house === undefined) return sink.reject('gar', 'car place: house missing');
      sink.addApartment({
        house: `gar:${house}`,
        number: r.text(CARPLACE.NUMBER).trim(),
        type: 'м/м',
        codes: { fias: r.text(CARPLACE.OBJECTGUID).toLowerCase(), gar: String(objectId) },
        source: 'gar',
      });
      counts.apartments++;
    });
  }
}

/**
 * The deepest municipal entity of a MUN PATH of `count` ids (root first, the object last), the object itself
 * excluded (a поселение's municipal is its район); 0 when none, or when the PATH is unreadable or does not
 * end with the object.
 */
export function deepestMunicipal(path: Float64Array, count: number, objectId: number, municipals: { has(id: number): boolean }): number {
  if (count < 1 || path[count - 1] !== objectId) return 0;
  for (let i = count - 2; i >= 0; i--) if (municipals.has(path[i])) return path[i];
  return 0;
}

/** `array` copied into a new one of `length` elements, the new ones `fill` */
function grown<T extends Int32Array | Uint8Array | Uint32Array | Float64Array>(array: T, length: number, fill = 0): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  if (fill !== 0) bigger.fill(fill, array.length);
  bigger.set(array);
  return bigger;
}

/** put a GAR number where its type says: `дом` → number, `корпус` → block, `владение` → number + possession */
function placeNumber(house: HouseRecord, typeName: string, value: string): void {
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

function requireInt(r: FlatRecord, slot: number, field: string): number {
  const n = r.int(slot);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${field}="${r.text(slot)}" is not a positive integer`);
  return n;
}

function validPostcode(value: string | undefined): string | undefined {
  return value && /^\d{6}$/.test(value) ? value : undefined;
}
