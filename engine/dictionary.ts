/**
 * Loads a dictionary blob: checks magic and format version, copies the core sections into a fresh core
 * instance, and keeps the host columns (names, codes, house numbers) for record building.
 * House columns stay typed arrays over the blob bytes: a house costs what the blob stores, no JS object.
 * A host column the blob leaves out reads as empty (`''`, 0): the web dictionaries of web/build-web-dict.ts
 * drop what hints do not show (cadastral numbers, flat counts, apartments, metro, okato/oktmo/ifns).
 * No Node API here: the browser build (web/) loads blobs through this class; files are read in index.ts.
 */
import { unpack } from 'msgpackr';
import type {
  ApartmentInfo, CodesOut, Country, Dictionary, Found, HouseInfo, HouseLabel, IdKind, ObjectInfo,
} from './types.js';
import { WasmCore } from './wasm-core.js';
import { levelFullName } from './type-placement.js';
import { decodeCadnum } from '../format/cadnum.js';
import { FLAG_MULTI_FLAT, FLAG_POSSESSION, FLAG_STEAD } from '../format/house-flags.js';
import { guidText, type ColdSection } from './columns.js';
import { HouseIdIndex, houseColumns, houseMunicipal, type HouseColumns } from './house-columns.js';
import { LABEL_PARTS } from '../format/house-labels.js';
import { ObjectColumns, ObjectIdIndex } from './object-columns.js';
import { ApartmentColumns } from './apartment-columns.js';
import { BlobError, checkBlobHeader, notABlob, verifyBlobBytes } from '../format/blob.js';

export { BLOB_MAGIC, BlobError, checkBlobHeader, FORMAT_VERSION, notABlob } from '../format/blob.js';
const NO_COORD = 0x7fffffff;
/** the core's objects section (assembly/blob.ts): i32 per record, parent and level fields */
const OBJ_STRIDE = 10;
const O_PARENT = 0;
const O_LEVEL = 1;
const OBJECT_CACHE_SIZE = 65_536;

export type { ColdSection };

/**
 * Where the houses' FIAS GUIDs, GAR ids and cadastral numbers (28 bytes per house, read only to build a
 * record or find a house by id) live when a blob is loaded from a file: in memory, left in the file and read
 * a row at a time (`file`: ≈ 1 µs a field from the page cache, which worker processes share), or `auto`: in
 * the file from `COLD_HOUSES` houses on (docs/DECISIONS.md).
 */
export type HouseCodes = 'memory' | 'file' | 'auto';
/** `auto` leaves the house codes in the file from this many houses on (28 MB of them) */
export const COLD_HOUSES = 1_000_000;
/** the house sections `HouseCodes` may leave in the file, and their bytes per house */
const HOUSE_CODE_WIDTH: Record<string, number> = { 'host.houses.fias': 16, 'host.houses.gar': 4, 'host.houses.cadnum': 8 };

/** The room the core makes for a section read from a file (`fromSections`): filled, then `done` attaches it. */
export interface SectionRoom {
  into: Uint8Array;
  done: () => void;
}

const NIL = Uint8Array.of(0xc0);

type Columns = Record<string, unknown[]>;

export interface BlobFile {
  magic: string;
  format: number;
  country: Country;
  sourceDate: string;
  buildId: string;
  /** each section's CRC-32 (format/blob.ts), checked as the blob is read */
  checksums?: Record<string, number>;
  createdAt: string;
  sources: { name: string; date: string; licence: string }[];
  counts: Record<string, number>;
  /** 'web' for the browser's blobs of web/build-web-dict.ts; absent in the server's */
  variant?: 'web';
  core: Record<string, Uint8Array>;
  host: {
    types: string[];
    objects: Record<string, unknown>;
    /** municipal entities: name, type, fias, gar, kladr, okato, oktmo (absent in blobs without any) */
    municipal?: Record<string, unknown>;
    houses: Record<string, Uint8Array | string[] | ColdSection>;
    apartments: Record<string, unknown>;
    metro: Columns;
  };
  /** closes the file a blob read from one keeps open for its cold sections */
  close?: () => void;
}



const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Decodes blob bytes, refusing another magic or format version with a message that says what to do, and a blob
 * whose sections do not match their checksums (format/blob.ts) with the section named.
 */
export function decodeBlob(bytes: Uint8Array, source = 'blob'): BlobFile {
  let blob: BlobFile;
  try {
    blob = unpack(bytes) as BlobFile;
  } catch (err) {
    // damaged bytes that break the msgpack: the walk names the section they are in when it can (and may trip on
    // the same bytes: then the blob is refused as not a blob)
    try {
      verifyBlobBytes(bytes, source, unpack);
    } catch (walk) {
      if (walk instanceof BlobError) throw walk;
    }
    throw notABlob(source, (err as Error).message);
  }
  checkBlobHeader(blob?.magic, blob?.format, source);
  verifyBlobBytes(bytes, source, unpack);
  return blob;
}

export class LoadedDictionary implements Dictionary {
  readonly country: Country;
  readonly sourceDate: string;
  readonly buildId: string;
  readonly objectCount: number;
  readonly houseCount: number;
  readonly apartmentCount: number;
  readonly municipalCount: number;
  readonly sources: BlobFile['sources'];
  readonly counts: Record<string, number>;
  readonly variant: 'web' | 'server';
  readonly core: WasmCore;
  readonly metro: { name: string[]; line: string[]; city: string[] };
  private readonly o: ObjectColumns;
  private readonly m: ObjectColumns;
  private readonly h: HouseColumns;
  private readonly a: ApartmentColumns;
  private objectIndex: ObjectIdIndex | null = null;
  private houseIndex: HouseIdIndex | null = null;
  private readonly closeFile: () => void;
  /** where the core's objects, houses and house coordinates start in its memory (i32 units; −1: no coordinates) */
  private readonly objectsAt: number;
  private readonly housesAt: number;
  private readonly coordsAt: number;

  private constructor(blob: BlobFile, core: WasmCore) {
    this.country = blob.country;
    this.sourceDate = blob.sourceDate;
    this.buildId = blob.buildId;
    this.sources = blob.sources;
    this.counts = blob.counts;
    this.variant = blob.variant === 'web' ? 'web' : 'server';
    this.core = core;
    this.o = new ObjectColumns(blob.host.objects);
    this.m = new ObjectColumns(blob.host.municipal);
    this.municipalCount = blob.counts.municipal ?? 0;
    this.objectCount = core.sectionLength('objects') / (OBJ_STRIDE * 4);
    this.houseCount = core.sectionLength('houses') / 4;
    this.objectsAt = core.sectionIndex('objects');
    this.housesAt = core.sectionIndex('houses');
    this.coordsAt = core.sectionIndex('houseCoords');
    this.h = houseColumns(blob.host.houses, this.houseCount);
    this.apartmentCount = blob.counts.apartments ?? 0;
    this.a = new ApartmentColumns(blob.host.apartments, this.apartmentCount);
    const metro = (blob.host.metro ?? {}) as Partial<LoadedDictionary['metro']>;
    this.metro = { name: metro.name ?? [], line: metro.line ?? [], city: metro.city ?? [] };
    this.closeFile = blob.close ?? (() => {});
  }

  /** whether the house codes are read from the blob file (`HouseCodes`) */
  get coldHouseCodes(): boolean {
    return this.h.fias.isCold || this.h.gar.isCold || this.h.cadnum.isCold;
  }

  /** Closes the blob file the house codes are read from (`HouseCodes` `file`); a house read after it throws. */
  close(): void {
    this.closeFile();
  }

  static async fromBytes(bytes: Uint8Array, wasm: BufferSource | WebAssembly.Module, source = 'blob'): Promise<LoadedDictionary> {
    return LoadedDictionary.fromBlob(decodeBlob(bytes, source), wasm);
  }

  /** Loads a blob already decoded (or put together in memory: engine/packs.ts `composeBlob`). */
  static async fromBlob(blob: BlobFile, wasm: BufferSource | WebAssembly.Module): Promise<LoadedDictionary> {
    const core = await WasmCore.create(wasm);
    for (const [name, section] of Object.entries(blob.core)) core.attach(name, section);
    return LoadedDictionary.indexed(blob, core);
  }

  /**
   * Loads a blob that `read` decodes section by section (engine/blob-file.ts reads a file so): each
   * core section is read straight into the room the core makes for it (`place` returns that room, null
   * for a section that is not the core's), so the dictionary is never held twice while it loads.
   */
  static async fromSections(
    read: (place: (section: string, byteLength: number) => SectionRoom | null | 'cold') => BlobFile,
    wasm: BufferSource | WebAssembly.Module,
    houseCodes: HouseCodes = 'memory',
  ): Promise<LoadedDictionary> {
    const core = await WasmCore.create(wasm);
    const blob = read((section, byteLength) => {
      const width = HOUSE_CODE_WIDTH[section];
      if (width !== undefined && (houseCodes === 'file' || (houseCodes === 'auto' && byteLength / width >= COLD_HOUSES))) return 'cold';
      if (!section.startsWith('core.')) return null;
      const name = section.slice('core.'.length);
      const into = core.reserveSection(name, byteLength);
      return into && { into, done: () => core.attachReserved(name) };
    });
    return LoadedDictionary.indexed(blob, core);
  }

  /** the core's indexes built over its attached sections, then the host's columns */
  private static indexed(blob: BlobFile, core: WasmCore): LoadedDictionary {
    core.exports.index();
    const dictionary = new LoadedDictionary(blob, core);
    // msgpackr keeps the last buffer it decoded referenced until the next call: without this the whole
    // blob file stays in memory beside the copies made from it
    unpack(NIL);
    return dictionary;
  }

  /**
   * ObjectInfo of objects asked for lately: records repeat the same regions, cities and streets (frozen,
   * shared). Bounded: emptied when full, so a national dictionary does not end up with every object in JS.
   */
  private readonly objectCache = new Map<number, ObjectInfo>();

  object(id: number): ObjectInfo {
    let info = this.objectCache.get(id);
    if (!info) {
      info = this.readObject(id);
      Object.freeze(info.codes);
      Object.freeze(info);
      if (this.objectCache.size >= OBJECT_CACHE_SIZE) this.objectCache.clear();
      this.objectCache.set(id, info);
    }
    return info;
  }

  private readObject(id: number): ObjectInfo {
    const o = this.o;
    const name = o.name.get(id);
    const type = o.type.get(id);
    return {
      id,
      level: this.levelOf(id),
      parent: this.parentOf(id),
      name,
      type,
      fullName: levelFullName(name, type),
      codes: { fias: o.fiasOf(id), ga: o.ga.get(id), osm: o.osm.get(id), gar: o.garOf(id), kladr: o.kladr.get(id) },
      okato: o.okato.get(id),
      oktmo: o.oktmo.get(id),
      ifns: o.ifns.get(id),
      postcode: o.postcode.get(id),
      timezone: o.timezone.get(id),
      lat: o.lat[id] || 0,
      lon: o.lon[id] || 0,
    };
  }

  private readonly municipalCache = new Map<number, ObjectInfo>();

  municipal(id: number): ObjectInfo {
    let info = this.municipalCache.get(id);
    if (!info) {
      const m = this.m;
      const name = m.name.get(id);
      const type = m.type.get(id);
      info = {
        id,
        level: 0,
        parent: -1,
        name,
        type,
        fullName: levelFullName(name, type),
        codes: Object.freeze({ fias: m.fiasOf(id), ga: '', osm: '', gar: m.garOf(id), kladr: m.kladr.get(id) }),
        okato: m.okato.get(id),
        oktmo: m.oktmo.get(id),
        ifns: '',
        postcode: '',
        timezone: '',
        lat: 0,
        lon: 0,
      };
      Object.freeze(info);
      if (this.municipalCache.size >= OBJECT_CACHE_SIZE) this.municipalCache.clear();
      this.municipalCache.set(id, info);
    }
    return info;
  }

  municipalOf(objectId: number, houseId = -1): number {
    if (this.municipalCount === 0) return -1;
    if (houseId >= 0) {
      const own = houseMunicipal(this.h, houseId);
      if (own >= 0) return own;
    }
    const column = this.o.municipal;
    for (let id = objectId, n = 0; id >= 0 && id < this.objectCount && n < 16; id = this.parentOf(id), n++) {
      const municipal = column[id] ?? 0;
      if (municipal > 0) return municipal - 1;
    }
    return -1;
  }

  private houseFias(id: number): string {
    const bytes = this.h.fias.bytes(id);
    return guidText(bytes, this.h.fias.at / 16);
  }

  private houseOsm(id: number): string {
    const t = this.h.osmType[id];
    return t ? `${'NWR'[t - 1]}${this.h.osmId[id]}` : '';
  }

  /** Apartment ids of a house. */
  apartmentsOf(houseId: number): number[] {
    return this.a.of(houseId);
  }

  /** Cheap accessors for the hot path (no record object built). */
  levelOf(id: number): number {
    return this.core.i32At(this.objectsAt + id * OBJ_STRIDE + O_LEVEL);
  }
  parentOf(id: number): number {
    return this.core.i32At(this.objectsAt + id * OBJ_STRIDE + O_PARENT);
  }
  objectHasCoordinates(id: number): boolean {
    return (this.o.lat[id] || 0) !== 0 || (this.o.lon[id] || 0) !== 0;
  }
  houseHasCoordinates(id: number): boolean {
    return this.coordsAt >= 0 && this.core.i32At(this.coordsAt + id * 2) !== NO_COORD;
  }

  houseLabel(id: number): HouseLabel {
    const { pool, labels } = this.h;
    const label = this.core.i32At(this.housesAt + id) * LABEL_PARTS;
    // no closure for the parts: tsx (keepNames) names every function it makes, at a cost on this path
    return {
      parent: this.core.exports.parentOfHouse(id),
      number: pool[labels[label]] ?? '',
      block: pool[labels[label + 1]] ?? '',
      building: pool[labels[label + 2]] ?? '',
      liter: pool[labels[label + 3]] ?? '',
      construction: pool[labels[label + 4]] ?? '',
    };
  }

  houseIsStead(id: number): boolean {
    return (this.h.flags[id] & FLAG_STEAD) !== 0;
  }

  /**
   * The house keyed as house `id` on its street whose литера is `liter` ('' none; OSM's `12Б` and `12Б лит П` share the
   * key 12б), or −1.
   */
  literTwin(id: number, liter: string): number {
    return this.twinWhere(id, (other) => this.houseLabel(other).liter.toLowerCase() === liter);
  }

  steadTwin(id: number, stead: boolean): number {
    return this.twinWhere(id, (other) => this.houseIsStead(other) === stead);
  }

  /** The first other house keyed as house `id` on its street that passes `test`, or −1. */
  private twinWhere(id: number, test: (other: number) => boolean): number {
    // the core reads the house keys (its `houseTwin`: the parent's houses keyed alike)
    const { houseTwin } = this.core.exports;
    for (let other = houseTwin(id, -1); other >= 0; other = houseTwin(id, other)) {
      if (test(other)) return other;
    }
    return -1;
  }

  house(id: number): HouseInfo {
    const h = this.h;
    const core = this.core;
    const lat = this.coordsAt >= 0 ? core.i32At(this.coordsAt + id * 2) : NO_COORD;
    const has = lat !== NO_COORD;
    const codes: CodesOut = { fias: this.houseFias(id), ga: '', osm: this.houseOsm(id), gar: '', kladr: '' };
    const gar = h.gar.u32(id);
    if (gar) codes.gar = String(gar);
    const label = this.houseLabel(id);
    // the label's members written out, not spread: a spread amid a literal defines each later member through
    // the runtime (Runtime_DefineKeyedOwnPropertyInLiteral, ≈0.3 % of a worker's hint requests under load)
    return {
      id,
      parent: label.parent,
      number: label.number,
      block: label.block,
      building: label.building,
      liter: label.liter,
      construction: label.construction,
      possession: (h.flags[id] & FLAG_POSSESSION) !== 0,
      stead: (h.flags[id] & FLAG_STEAD) !== 0,
      multiFlat: (h.flags[id] & FLAG_MULTI_FLAT) !== 0,
      codes,
      postcode: h.postcodes[h.postcode[id]] ?? '',
      lat: has ? lat / 1e6 : 0,
      lon: has ? core.i32At(this.coordsAt + id * 2 + 1) / 1e6 : 0,
      cadnum: decodeCadnum(h.cadnum.words(id), h.cadnum.at, h.cadnumOther),
      flatCount: h.flatCount[id] ?? 0,
    };
  }

  apartment(id: number): ApartmentInfo {
    return this.a.get(id);
  }

  chain(id: number): number[] {
    const out: number[] = [];
    for (let x = id; x >= 0 && x < this.objectCount && out.length < 16; x = this.parentOf(x)) out.unshift(x);
    return out;
  }

  private buildIndexes(): void {
    const objects = new ObjectIdIndex(this.o, this.objectCount);
    const houses = new HouseIdIndex(this.h, this.houseCount);
    this.objectIndex = objects;
    this.houseIndex = houses;
  }

  /** The registry an id's shape points to (type UNKNOWN). */
  static detectKind(id: string): IdKind | null {
    if (GUID.test(id)) return 'FIAS';
    if (/^[NWR]\d+$/.test(id)) return 'OSM';
    if (/^[A-Z]{2}\d{25}$/.test(id)) return 'GA';
    if (/^\d{13}$|^\d{17}$|^\d{19}$/.test(id)) return 'KLADR';
    if (/^\d+$/.test(id)) return 'GAR';
    return null;
  }

  findById(kind: IdKind, raw: string): Found | null {
    if (!this.objectIndex) this.buildIndexes();
    let id = raw.trim();
    let k: IdKind | null = kind === 'UNKNOWN' ? LoadedDictionary.detectKind(id.toUpperCase().startsWith('R') || /^[nwr]\d/.test(id) ? id.toUpperCase() : id) : kind;
    if (!k) return null;
    if (k === 'FIAS') id = id.toLowerCase();
    if (k === 'OSM' || k === 'GA') id = id.toUpperCase();
    const col = k === 'FIAS' ? 'fias' : k === 'GAR' ? 'gar' : k === 'KLADR' ? 'kladr' : k === 'OSM' ? 'osm' : 'ga';
    const look = (key: string): Found | null => {
      const a = this.a.find(key);
      if (a >= 0) return { kind: 'apartment', id: a };
      const h = this.houseIndex!.find(key);
      if (h >= 0) return { kind: 'house', id: h };
      const o = this.objectIndex!.find(key);
      if (o >= 0) return { kind: 'object', id: o };
      return null;
    };
    if (k === 'KLADR') {
      const digits = id.replace(/\D/g, '');
      // a 19-digit code is a street's 15 and a house's 4 (no actuality): the street's, as actual; an 11- or 15-digit
      // one has no actuality: the actual one; a street part of 0000 (`c_kladr19` of a city, 0100000200000000000) is
      // the place's own 13
      const bare = /^\d{11}$|^\d{15}$/.test(id);
      const candidates = digits.length === 19 ? [`${digits.slice(0, 15)}00`] : bare ? [`${digits}00`] : [digits];
      for (const c of [...candidates]) {
        if (c.length === 13 || c.length === 17) candidates.push(c.slice(0, -2) + '00');
        if (c.length === 17 && c.slice(11, 15) === '0000') candidates.push(`${c.slice(0, 11)}00`);
      }
      for (const c of candidates) {
        const f = look(`kladr:${c}`);
        // a code whose actuality digits were not 00 names the object by an obsolete code (quality.actuality 1)
        const obsolete = c !== digits && (digits.length === 13 || digits.length === 17) && !digits.endsWith('00');
        if (f) return obsolete ? { ...f, obsolete } : f;
      }
      return null;
    }
    return look(`${col}:${id}`);
  }
}
