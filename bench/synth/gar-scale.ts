/**
 * Synthetic national-size GAR: replicates one real region of a `gar_xml.zip` (the template, region 99 of
 * shared/data) N times into an archive of the same layout and XML shape — the type lists at the root, one
 * folder per region `NN/AS_*_<date>_<guid>.XML`, one self-closing element per record — so the real reader
 * (`sources/gar.ts`) can be measured on tens of millions of houses (bench/build-scale.ts). Load and memory
 * figures only: the names are made up (shared/data/README.md).
 *
 * The template is small (≈ 2 MB of XML) and is parsed once into records; the output never is held: each
 * entry is a `Readable` that renders one copy of the table per `read()`, pulled by the zip writer (yazl,
 * zip64, deflate in the thread pool), so memory stays that of one copy whatever the size.
 *
 * Each record is compiled once into literal text and slots. Slots are what changes per copy:
 *  - ids, by id space (object ids — OBJECTID, PARENTOBJID, PATH components; record ids per table — ID,
 *    PREVID, NEXTID; CHANGEID/CHANGEIDEND; normative documents — NDOCID): the template's distinct values
 *    are numbered densely (index i of n) and copy c gets `1000 + c·n + i + 1`, unique per space, `0` kept;
 *  - GUIDs (OBJECTGUID, ADROBJECTID): hashed from (seed, copy, index) with the copy and index spelled in
 *    the last group, so they are deterministic and never collide;
 *  - the template's region object (LEVEL 1, г Байконур) becomes a city (LEVEL 5) with a new name under the
 *    folder's region, so a copy is a city, not a region: regions → cities → streets → houses, as nationally;
 *  - region codes (REGIONCODE, the first two KLADR digits) become the folder's; the KLADR city digits
 *    (SS RRR GGG) the copy's number in its folder;
 *  - cadastral numbers: region 99 has none, while most real houses do (they are the one per-house string
 *    of the build), so `cadastralShare` of the current houses get a TYPEID 8 param, unique per copy;
 *  - apartments: region 99 has one, national GAR tens of millions, so `apartmentsPerHouse` flats can be
 *    added to every current house (AS_APARTMENTS records and their AS_ADM_HIERARCHY rows).
 * Every folder also opens with its own region object (`обл`, KLADR `NN00000000000`) in AS_ADDR_OBJ,
 * AS_ADM_HIERARCHY, AS_MUN_HIERARCHY, AS_ADDR_OBJ_PARAMS, AS_REESTR_OBJECTS and AS_CHANGE_HISTORY.
 *
 * Usage: tsx bench/synth/gar-scale.ts --houses 1000000 [--out build/synth/gar-1000000.zip]
 *        [--source ../shared/data/ru/gar/gar_xml.zip] [--seed 1] [--regions 85] [--cadastral 0.6] [--apartments 0]
 *        [--level 1] [--places 160000 [--houses-per-place 3] [--city-every 140]] [--one-city]
 *
 * `--places N`: N copies of a few houses each, one in `--city-every` a city, the others settlements (a national
 * count of places; `places`); `--one-city`: every copy's streets in one city (`oneCity`).
 */
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { streamXml, type Attributes } from '../../dictionaries/io/xml.js';
import { openZip } from '../../dictionaries/io/zip.js';
import { NameGenerator, randomFrom } from './names.js';

export interface GarScaleOptions {
  /** the template archive: a real `gar_xml.zip` with one region folder */
  source: string;
  /** the archive to write (a temporary file is renamed to it at the end) */
  out: string;
  /** houses (HOUSE and STEAD records that are current) to reach at least */
  houses: number;
  /** seed of GUIDs, names and cadastral choices (default 1) */
  seed?: number;
  /** region folders to spread the copies over (default 85, the subjects of hflabs/region.csv; at most 99) */
  regions?: number;
  /** share of current houses that get a cadastral number (default 0.6) */
  cadastralShare?: number;
  /** flats (APARTMENT, type квартира, with their hierarchy rows) added to every current house (default 0) */
  apartmentsPerHouse?: number;
  /** deflate level of the entries, 0–9 (default 1: generation speed; the reader inflates any level alike) */
  compressionLevel?: number;
  /**
   * The name copy `copy` gives the template object `object` (its index among the template's objects) of GAR level
   * `level` ('6' settlement, '8' street), from its template name; a pure function (it is asked once per record that
   * spells the name). Default: the template's names in every copy (gar-national.ts draws them as the country's).
   */
  rename?: (copy: number, object: number, level: string, name: string) => string;
  /** a word that tells archives of different `rename`s apart (kept in the sidecar, compared by existingArchive) */
  names?: string;
  /**
   * Places mode: `copies` copies (instead of enough for `houses`), each keeping only its first `houses` current
   * houses and the streets above them (the template's other objects and every record of theirs dropped), and one copy
   * in `cityEvery` a city (`г`, GAR level 5), the others settlements (`п`, GAR level 6): a national count of places
   * with few houses, for what grows with the places (the offline entry pack, bench/offline-packs.ts).
   */
  places?: { copies: number; houses: number; cityEvery: number };
  /** every copy's streets and houses under the first copy's city: one city of `houses` houses (one region) */
  oneCity?: boolean;
  log?: (line: string) => void;
}

export interface GarScaleResult {
  out: string;
  source: string;
  seed: number;
  regions: number;
  copies: number;
  /** current houses and steads per copy of the template */
  housesPerCopy: number;
  /** copies × housesPerCopy: what the GAR reader should emit as houses + steads */
  houses: number;
  cadastralShare: number;
  apartmentsPerHouse: number;
  /** the `names` option: which generator named the copies' places and streets ('template' by default) */
  names?: string;
  places?: GarScaleOptions['places'];
  oneCity?: boolean;
  /** uncompressed XML bytes written */
  xmlBytes: number;
  zipBytes: number;
  ms: number;
}

/** ids below this are the folders' own region records (folder r uses r + 1 in every id space) */
const RESERVED_IDS = 1000;
const MAX_ID = 0xffffffff;
/** GUIDs spell the copy and the index in 24 bits each */
const GUID_FIELD = 0xffffff;
const BOM = '\uFEFF';
const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const PARAM_KLADR = '10';
const PARAM_KLADR_PLAIN = '11';
const PARAM_CADASTRAL = '8';
const PARAM_OFFICIAL_NAME = '16';

// ---- the template ----

interface TemplateRecord {
  element: string;
  attributes: Attributes;
  /** a synthetic cadastral param: the index of its house among the template's current houses */
  cadastralHouse?: number;
}

interface TemplateTable {
  table: string;
  root: string;
  records: TemplateRecord[];
}

interface Template {
  region: string;
  date: string;
  rootFiles: Array<{ name: string; bytes: Buffer }>;
  tables: TemplateTable[];
}

function tableOf(fileName: string): { table: string; date: string } | undefined {
  const match = /^(AS_[A-Z_]+?)_(\d{8})_/i.exec(fileName.split('/').pop()!);
  return match ? { table: match[1].toUpperCase(), date: match[2] } : undefined;
}

async function readTemplate(source: string): Promise<Template> {
  const zip = await openZip(source);
  try {
    const folders = [...new Set(zip.entries.filter((e) => e.fileName.includes('/')).map((e) => e.fileName.split('/')[0]))].sort();
    if (folders.length !== 1) throw new Error(`${source}: expected one region folder to replicate, found ${folders.length} (${folders.join(', ')})`);
    const template: Template = { region: folders[0], date: '', rootFiles: [], tables: [] };
    for (const entry of zip.entries) {
      if (entry.fileName.endsWith('/')) continue;
      if (!entry.fileName.includes('/')) {
        const chunks: Buffer[] = [];
        for await (const chunk of await zip.open(entry)) chunks.push(chunk as Buffer);
        template.rootFiles.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
        continue;
      }
      const named = tableOf(entry.fileName);
      if (!named) continue;
      if (named.date > template.date) template.date = named.date;
      const table: TemplateTable = { table: named.table, root: '', records: [] };
      await streamXml(await zip.open(entry), `${source}:${entry.fileName}`, {
        open(element, attributes) {
          if (!table.root) table.root = element;
          else table.records.push({ element, attributes });
        },
      });
      template.tables.push(table);
    }
    if (!template.tables.some((t) => t.table === 'AS_HOUSES')) throw new Error(`${source}: no AS_HOUSES file in ${template.region}/`);
    template.tables.sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0));
    return template;
  } finally {
    zip.close();
  }
}

const isCurrent = (a: Attributes) => a.ISACTUAL === '1' && a.ISACTIVE === '1';

/** adds a TYPEID 8 param to `share` of the current houses (chosen by the seed) */
function addCadastralParams(template: Template, share: number, seed: number): void {
  const houses = template.tables.find((t) => t.table === 'AS_HOUSES')!.records.filter((r) => r.element === 'HOUSE' && isCurrent(r.attributes));
  let params = template.tables.find((t) => t.table === 'AS_HOUSES_PARAMS');
  if (!params) template.tables.push((params = { table: 'AS_HOUSES_PARAMS', root: 'PARAMS', records: [] }));
  const random = randomFrom(seed ^ 0xcad);
  houses.forEach((house, index) => {
    if (random() >= share) return;
    const a = house.attributes;
    params.records.push({
      element: 'PARAM',
      attributes: {
        ID: `synthetic-cadastral-${index}`,
        OBJECTID: a.OBJECTID,
        CHANGEID: a.CHANGEID,
        CHANGEIDEND: '0',
        TYPEID: PARAM_CADASTRAL,
        VALUE: '',
        UPDATEDATE: a.UPDATEDATE ?? '2020-01-01',
        STARTDATE: a.STARTDATE ?? '2020-01-01',
        ENDDATE: '2079-06-06',
      },
      cadastralHouse: index,
    });
  });
}

/** adds `perHouse` flats to every current house, each with its hierarchy row under the house */
function addApartments(template: Template, perHouse: number, seed: number): void {
  if (perHouse <= 0) return;
  const houses = template.tables.find((t) => t.table === 'AS_HOUSES')!.records.filter((r) => r.element === 'HOUSE' && isCurrent(r.attributes));
  const table = (name: string, root: string) => {
    let found = template.tables.find((t) => t.table === name);
    if (!found) template.tables.push((found = { table: name, root, records: [] }));
    return found;
  };
  const apartments = table('AS_APARTMENTS', 'APARTMENTS');
  const hierarchy = table('AS_ADM_HIERARCHY', 'ITEMS');
  houses.forEach((house, index) => {
    const a = house.attributes;
    const dates = { UPDATEDATE: a.UPDATEDATE ?? '2020-01-01', STARTDATE: a.STARTDATE ?? '2020-01-01', ENDDATE: '2079-06-06' };
    for (let k = 0; k < perHouse; k++) {
      const objectId = `synthetic-apartment-${index}-${k}`;
      apartments.records.push({
        element: 'APARTMENT',
        attributes: {
          ID: objectId, OBJECTID: objectId, OBJECTGUID: syntheticGuid(seed ^ 0xa9a, index, k), CHANGEID: a.CHANGEID, NUMBER: String(k + 1),
          APARTTYPE: '2', OPERTYPEID: '10', PREVID: '0', NEXTID: '0', ...dates, ISACTUAL: '1', ISACTIVE: '1',
        },
      });
      hierarchy.records.push({
        element: 'ITEM',
        attributes: { ID: objectId, OBJECTID: objectId, PARENTOBJID: a.OBJECTID, CHANGEID: a.CHANGEID, REGIONCODE: template.region, PREVID: '0', NEXTID: '0', ...dates, ISACTIVE: '1' },
      });
    }
  });
}

/**
 * Places mode: the template cut to its region object, its first `houses` current houses and the objects between
 * them (their streets, by the administrative hierarchy); every record of another object is dropped, and so are the
 * records of no object (normative documents: the reader does not read them).
 */
function keepFirstHouses(template: Template, houses: number): void {
  const kept = new Set<string>();
  for (const record of template.tables.find((t) => t.table === 'AS_ADDR_OBJ')?.records ?? []) {
    if (record.attributes.LEVEL === '1') kept.add(record.attributes.OBJECTID);
  }
  const current = template.tables.find((t) => t.table === 'AS_HOUSES')!.records.filter((r) => r.element === 'HOUSE' && isCurrent(r.attributes));
  const parent = new Map<string, string>();
  for (const record of template.tables.find((t) => t.table === 'AS_ADM_HIERARCHY')?.records ?? []) {
    if (record.attributes.ISACTIVE === '1') parent.set(record.attributes.OBJECTID, record.attributes.PARENTOBJID);
  }
  for (const house of current.slice(0, houses)) {
    for (let id: string | undefined = house.attributes.OBJECTID; id && !kept.has(id); id = parent.get(id)) kept.add(id);
  }
  for (const table of template.tables) table.records = table.records.filter((r) => r.attributes.OBJECTID !== undefined && kept.has(r.attributes.OBJECTID));
}

// ---- compiled records ----

/** distinct template values of one id space, numbered densely */
class IdSpace {
  private readonly indexes = new Map<string, number>();
  index(value: string): number {
    let index = this.indexes.get(value);
    if (index === undefined) this.indexes.set(value, (index = this.indexes.size));
    return index;
  }
  get size(): number {
    return this.indexes.size;
  }
}

type Slot =
  | { kind: 'id'; space: IdSpace; index: number }
  | { kind: 'guid'; index: number }
  | { kind: 'path'; indexes: number[]; space: IdSpace; underRegion: boolean }
  | { kind: 'regionObject' }
  | { kind: 'regionCode' }
  | { kind: 'kladr'; value: string }
  | { kind: 'cityName' }
  | { kind: 'cityLevel' }
  | { kind: 'cityType' }
  | { kind: 'cityWord' }
  | { kind: 'cadastral'; house: number }
  | { kind: 'objectName'; object: number; level: string; name: string };

type Piece = string | Slot;

/** what a copy renders with */
interface CopyContext {
  /** global copy number */
  copy: number;
  /** its number in its folder, from 1 */
  copyInRegion: number;
  regionCode: string;
  regionObjectId: number;
  cityName: string;
  /** a city, not a settlement (places mode: one copy in `cityEvery`) */
  city: boolean;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

class Compiler {
  readonly objects = new IdSpace();
  readonly changes = new IdSpace();
  readonly documents = new IdSpace();
  readonly guids = new IdSpace();
  private readonly rows = new Map<string, IdSpace>();
  /** OBJECTIDs of the template's region object(s): they become the copies' cities */
  readonly regionObjects = new Set<string>();
  /** OBJECTIDs of the settlements and streets (LEVEL 6, 8) a `rename` names per copy, with their level */
  private readonly renamed = new Map<string, string>();

  constructor(template: Template, rename: boolean) {
    for (const record of template.tables.find((t) => t.table === 'AS_ADDR_OBJ')?.records ?? []) {
      if (record.attributes.LEVEL === '1') this.regionObjects.add(record.attributes.OBJECTID);
      if (rename && (record.attributes.LEVEL === '6' || record.attributes.LEVEL === '8')) this.renamed.set(record.attributes.OBJECTID, record.attributes.LEVEL);
    }
  }

  private objectName(a: Attributes, value: string): Slot | undefined {
    const level = this.renamed.get(a.OBJECTID);
    return level === undefined ? undefined : { kind: 'objectName', object: this.objects.index(a.OBJECTID), level, name: value };
  }

  spaces(): IdSpace[] {
    return [this.objects, this.changes, this.documents, ...this.rows.values()];
  }

  private rowSpace(table: string): IdSpace {
    if (table === 'AS_NORMATIVE_DOCS') return this.documents;
    let space = this.rows.get(table);
    if (!space) this.rows.set(table, (space = new IdSpace()));
    return space;
  }

  compile(table: string, record: TemplateRecord): Piece[] {
    const pieces: Piece[] = [];
    let text = `<${record.element}`;
    const flush = () => {
      if (text) pieces.push(text);
      text = '';
    };
    const slot = (s: Slot) => {
      flush();
      pieces.push(s);
    };
    const a = record.attributes;
    const ofRegionObject = this.regionObjects.has(a.OBJECTID);
    for (const [name, value] of Object.entries(a)) {
      text += ` ${name}="`;
      const id = (space: IdSpace) => (value === '0' || value === '' ? (text += value) : slot({ kind: 'id', space, index: space.index(value) }));
      switch (name) {
        case 'OBJECTID':
        case 'PARENTID':
        case 'CHILDID':
          id(this.objects);
          break;
        case 'PARENTOBJID':
          if ((value === '0' || value === '') && ofRegionObject) slot({ kind: 'regionObject' });
          else id(this.objects);
          break;
        case 'ID':
        case 'PREVID':
        case 'NEXTID':
          id(this.rowSpace(table));
          break;
        case 'CHANGEID':
        case 'CHANGEIDEND':
          id(this.changes);
          break;
        case 'NDOCID':
          id(this.documents);
          break;
        case 'OBJECTGUID':
        case 'ADROBJECTID':
          if (/^[0-9a-f-]{36}$/i.test(value)) slot({ kind: 'guid', index: this.guids.index(value.toLowerCase()) });
          else text += escapeXml(value);
          break;
        case 'PATH': {
          const parts = value.split('.').filter(Boolean);
          slot({ kind: 'path', space: this.objects, indexes: parts.map((p) => this.objects.index(p)), underRegion: this.regionObjects.has(parts[0]) });
          break;
        }
        case 'REGIONCODE':
          slot({ kind: 'regionCode' });
          break;
        case 'NAME':
          if (table === 'AS_ADDR_OBJ' && ofRegionObject) slot({ kind: 'cityName' });
          else if (table === 'AS_ADDR_OBJ' && this.objectName(a, value)) slot(this.objectName(a, value)!);
          else text += escapeXml(value);
          break;
        case 'LEVEL':
        case 'LEVELID':
          if (ofRegionObject && value === '1') slot({ kind: 'cityLevel' });
          else text += escapeXml(value);
          break;
        case 'TYPENAME':
          if (table === 'AS_ADDR_OBJ' && ofRegionObject) slot({ kind: 'cityType' });
          else text += escapeXml(value);
          break;
        case 'VALUE':
          if (record.cadastralHouse !== undefined) slot({ kind: 'cadastral', house: record.cadastralHouse });
          else if ((a.TYPEID === PARAM_KLADR || a.TYPEID === PARAM_KLADR_PLAIN) && /^\d{11,}$/.test(value)) slot({ kind: 'kladr', value });
          else if (a.TYPEID === PARAM_OFFICIAL_NAME && ofRegionObject) {
            slot({ kind: 'cityWord' });
            slot({ kind: 'cityName' });
          } else if (a.TYPEID === PARAM_OFFICIAL_NAME && this.objectName(a, value)) slot(this.objectName(a, value)!);
          else text += escapeXml(value);
          break;
        default:
          text += escapeXml(value);
      }
      text += '"';
    }
    text += ' />';
    flush();
    return pieces;
  }
}

// ---- rendering ----

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hex32 = (v: number) => HEX[v >>> 24] + HEX[(v >>> 16) & 255] + HEX[(v >>> 8) & 255] + HEX[v & 255];
const hex24 = (v: number) => HEX[(v >>> 16) & 255] + HEX[(v >>> 8) & 255] + HEX[v & 255];

/** a version-4-shaped GUID; the last group is (copy, index), so two calls differ unless both are equal */
export function syntheticGuid(seed: number, copy: number, index: number): string {
  const a = mix(mix(mix(seed ^ 0x67a5) ^ copy) ^ index);
  const b = mix(a ^ 0x2545f491);
  const variant = 0x8000 | ((a ^ b) & 0x3fff);
  return `${hex32(a)}-${HEX[b >>> 24]}${HEX[(b >>> 16) & 255]}-4${hex32(b).slice(5)}-${HEX[variant >>> 8]}${HEX[variant & 255]}-${hex24(copy)}${hex24(index)}`;
}

class Renderer {
  /** oneCity: the object indexes of the template's region object, whose ids are the first copy's in every copy */
  private readonly cityIndexes: Set<number>;

  constructor(
    private readonly seed: number,
    private readonly compiler: Compiler,
    private readonly rename?: GarScaleOptions['rename'],
    oneCity = false,
  ) {
    this.cityIndexes = new Set(oneCity ? [...compiler.regionObjects].map((id) => compiler.objects.index(id)) : []);
  }

  id(space: IdSpace, index: number, copy: number): number {
    const from = space === this.compiler.objects && this.cityIndexes.has(index) ? 0 : copy;
    return RESERVED_IDS + from * space.size + index + 1;
  }

  render(pieces: Piece[], c: CopyContext): string {
    let out = '';
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        out += piece;
        continue;
      }
      switch (piece.kind) {
        case 'id':
          out += this.id(piece.space, piece.index, c.copy);
          break;
        case 'guid':
          out += syntheticGuid(this.seed, c.copy, piece.index);
          break;
        case 'path':
          if (piece.underRegion) out += `${c.regionObjectId}.`;
          out += piece.indexes.map((i) => this.id(piece.space, i, c.copy)).join('.');
          break;
        case 'regionObject':
          out += c.regionObjectId;
          break;
        case 'regionCode':
          out += c.regionCode;
          break;
        case 'kladr': {
          // SS RRR GGG …: region digits of the folder, city digits of the copy
          // (more than 999 copies in a folder: the thousands in the district digits RRR)
          const city = String(c.copyInRegion % 1000).padStart(3, '0');
          const district = c.copyInRegion >= 1000 ? String(Math.floor(c.copyInRegion / 1000)).padStart(3, '0') : piece.value.slice(2, 5);
          out += c.regionCode + district + city + piece.value.slice(8);
          break;
        }
        case 'cityName':
          out += escapeXml(c.cityName);
          break;
        case 'cityLevel':
          out += c.city ? '5' : '6';
          break;
        case 'cityType':
          out += c.city ? 'г' : 'п';
          break;
        case 'cityWord':
          out += c.city ? 'Город ' : 'Поселок ';
          break;
        case 'objectName':
          out += escapeXml(this.rename!(c.copy, piece.object, piece.level, piece.name));
          break;
        case 'cadastral': {
          // NN:DD:QQQQQQQ:K, unique by (copy, house): DD and the quarter spell the copy, K the house
          const district = String(c.copy % 100).padStart(2, '0');
          const quarter = String(Math.floor(c.copy / 100) * 100 + Math.floor(piece.house / 100)).padStart(7, '0');
          out += `${c.regionCode}:${district}:${quarter}:${(piece.house % 100) + 1}`;
          break;
        }
      }
    }
    return out;
  }

  /** the folder's own region object, in the tables that carry objects */
  regionRecords(table: string, region: { index: number; code: string; name: string }, date: string): string {
    const id = region.index + 1;
    const guid = syntheticGuid(this.seed, GUID_FIELD - region.index, 0);
    const day = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
    const name = escapeXml(region.name);
    switch (table) {
      case 'AS_ADDR_OBJ':
        return `<OBJECT ID="${id}" OBJECTID="${id}" OBJECTGUID="${guid}" CHANGEID="${id}" NAME="${name}" TYPENAME="обл" LEVEL="1" OPERTYPEID="10" PREVID="0" NEXTID="0" UPDATEDATE="${day}" STARTDATE="1900-01-01" ENDDATE="2079-06-06" ISACTUAL="1" ISACTIVE="1" />`;
      case 'AS_ADM_HIERARCHY':
        return `<ITEM ID="${id}" OBJECTID="${id}" PARENTOBJID="0" CHANGEID="${id}" REGIONCODE="${region.code}" AREACODE="0" CITYCODE="0" PLACECODE="0" PLANCODE="0" STREETCODE="0" PREVID="0" NEXTID="0" UPDATEDATE="1900-01-01" STARTDATE="1900-01-01" ENDDATE="2079-06-06" ISACTIVE="1" PATH="${id}" />`;
      case 'AS_MUN_HIERARCHY':
        return `<ITEM ID="${id}" OBJECTID="${id}" PARENTOBJID="0" CHANGEID="${id}" PREVID="0" NEXTID="0" UPDATEDATE="1900-01-01" STARTDATE="1900-01-01" ENDDATE="2079-06-06" ISACTIVE="1" PATH="${id}" />`;
      case 'AS_ADDR_OBJ_PARAMS':
        return `<PARAM ID="${id}" OBJECTID="${id}" CHANGEID="${id}" CHANGEIDEND="0" TYPEID="${PARAM_KLADR}" VALUE="${region.code}00000000000" UPDATEDATE="${day}" STARTDATE="1900-01-01" ENDDATE="2079-06-06" />`;
      case 'AS_REESTR_OBJECTS':
        return `<OBJECT OBJECTID="${id}" OBJECTGUID="${guid}" CHANGEID="${id}" ISACTIVE="1" LEVELID="1" CREATEDATE="${day}" UPDATEDATE="${day}" />`;
      case 'AS_CHANGE_HISTORY':
        return `<ITEM CHANGEID="${id}" OBJECTID="${id}" ADROBJECTID="${syntheticGuid(this.seed, GUID_FIELD - region.index, 1)}" OPERTYPEID="10" CHANGEDATE="${day}" />`;
      default:
        return '';
    }
  }
}

/** One region folder's entry of one table: header, the folder's region records, then a copy per `read()`. */
function tableStream(
  table: TemplateTable,
  compiled: Array<{ pieces: Piece[]; city: boolean }>,
  renderer: Renderer,
  folder: { index: number; code: string; name: string; firstCopy: number; copies: number; cityNames: string[] },
  date: string,
  counted: (bytes: number) => void,
  shape: { cityEvery: number; oneCity: boolean },
): Readable {
  let next = -1; // -1: header; copies 0…n-1; n: closing tag
  const push = (stream: Readable, text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    counted(bytes.length);
    return stream.push(bytes);
  };
  return new Readable({
    read() {
      if (next === -1) {
        const preamble = renderer.regionRecords(table.table, folder, date);
        next = 0;
        if (compiled.length === 0 && !preamble) {
          push(this, `${BOM}${DECLARATION}<${table.root} />`);
          next = folder.copies + 1;
          this.push(null);
          return;
        }
        push(this, `${BOM}${DECLARATION}<${table.root}>${preamble}`);
        return;
      }
      if (next < folder.copies) {
        const context: CopyContext = {
          copy: folder.firstCopy + next,
          copyInRegion: next + 1,
          regionCode: folder.code,
          regionObjectId: folder.index + 1,
          cityName: folder.cityNames[next],
          city: (folder.firstCopy + next) % shape.cityEvery === 0,
        };
        next++;
        let text = '';
        // one city: its own records once, in the first copy
        for (const record of compiled) if (!(shape.oneCity && record.city && context.copy > 0)) text += renderer.render(record.pieces, context);
        push(this, text);
        return;
      }
      if (next === folder.copies) {
        next++;
        push(this, `</${table.root}>`);
      }
      this.push(null);
    },
  });
}

// ---- the generator ----

export async function generateGarScale(options: GarScaleOptions): Promise<GarScaleResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const seed = (options.seed ?? 1) >>> 0;
  const cadastralShare = options.cadastralShare ?? 0.6;
  const compressionLevel = options.compressionLevel ?? 1;
  if (!(options.houses > 0)) throw new Error(`--houses must be a positive number (got ${options.houses})`);
  if (!(cadastralShare >= 0 && cadastralShare <= 1)) throw new Error(`--cadastral must be a share between 0 and 1 (got ${cadastralShare})`);

  const template = await readTemplate(options.source);
  const records = (table: string, element: string) => template.tables.find((t) => t.table === table)?.records.filter((r) => r.element === element && isCurrent(r.attributes)).length ?? 0;
  const housesPerCopy = records('AS_HOUSES', 'HOUSE') + records('AS_STEADS', 'STEAD');
  if (housesPerCopy === 0) throw new Error(`${options.source}: the template region has no current houses`);
  addCadastralParams(template, cadastralShare, seed);
  const apartmentsPerHouse = options.apartmentsPerHouse ?? 0;
  if (!(Number.isInteger(apartmentsPerHouse) && apartmentsPerHouse >= 0)) throw new Error(`--apartments must be a whole number ≥ 0 (got ${apartmentsPerHouse})`);
  addApartments(template, apartmentsPerHouse, seed);
  if (options.places) keepFirstHouses(template, options.places.houses);
  const keptPerCopy = options.places ? records('AS_HOUSES', 'HOUSE') + records('AS_STEADS', 'STEAD') : housesPerCopy;

  const copies = options.places ? options.places.copies : Math.ceil(options.houses / housesPerCopy);
  const regionCount = Math.min(options.regions ?? 85, copies);
  if (!(regionCount >= 1 && regionCount <= 99)) throw new Error(`--regions must be between 1 and 99 (got ${options.regions})`);

  const compiler = new Compiler(template, options.rename !== undefined);
  const compiled = new Map(template.tables.map((t) => [t.table, t.records.map((r) => ({ pieces: compiler.compile(t.table, r), city: compiler.regionObjects.has(r.attributes.OBJECTID) }))]));
  for (const space of compiler.spaces()) {
    if (RESERVED_IDS + copies * space.size + space.size > MAX_ID) throw new Error(`${copies} copies overflow GAR's 32-bit ids; ask for fewer houses`);
  }
  if (copies > GUID_FIELD - 100 || compiler.guids.size > GUID_FIELD) throw new Error(`${copies} copies overflow the synthetic GUID fields`);
  const renderer = new Renderer(seed, compiler, options.rename, options.oneCity);
  const shape = { cityEvery: options.places?.cityEvery ?? 1, oneCity: options.oneCity ?? false };

  const names = new NameGenerator(seed);
  const folders = Array.from({ length: regionCount }, (_, index) => {
    const firstCopy = Math.floor((index * copies) / regionCount);
    const end = Math.floor(((index + 1) * copies) / regionCount);
    return { index, code: String(index + 1).padStart(2, '0'), name: names.region(), firstCopy, copies: end - firstCopy, cityNames: [] as string[] };
  });
  for (const folder of folders) for (let k = 0; k < folder.copies; k++) folder.cityNames.push(names.city());
  log(`gar-scale: ${template.tables.length} tables of region ${template.region}, ${keptPerCopy} houses per copy, ${copies} copies in ${regionCount} regions → ${copies * keptPerCopy} houses${options.oneCity ? ', one city' : ''}`);

  const out = resolve(options.out);
  await mkdir(dirname(out), { recursive: true });
  const temporary = `${out}.tmp-${process.pid}`;
  const zip = new yazl.ZipFile();
  const mtime = new Date(`${template.date.slice(0, 4)}-${template.date.slice(4, 6)}-${template.date.slice(6, 8)}T00:00:00Z`);
  const entryOptions = { mtime, compressionLevel };
  let xmlBytes = 0;
  let lastLog = performance.now();
  const counted = (bytes: number) => {
    xmlBytes += bytes;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`gar-scale: ${(xmlBytes / 2 ** 20).toFixed(0)} MB of XML written`);
    }
  };
  const written = new Promise<void>((resolveWrite, reject) => {
    const file = createWriteStream(temporary);
    file.on('error', reject);
    file.on('close', () => resolveWrite());
    zip.on('error', reject);
    zip.outputStream.on('error', reject);
    zip.outputStream.pipe(file);
  });
  for (const file of template.rootFiles) zip.addBuffer(file.bytes, file.name, entryOptions);
  for (const folder of folders) {
    zip.addEmptyDirectory(`${folder.code}/`, { mtime });
    template.tables.forEach((table, tableIndex) => {
      const fileName = `${folder.code}/${table.table}_${template.date}_${syntheticGuid(seed ^ 0xf11e, folder.index, tableIndex)}.XML`;
      zip.addReadStreamLazy(fileName, entryOptions, (callback) =>
        callback(null, tableStream(table, compiled.get(table.table)!, renderer, folder, template.date, counted, shape)),
      );
    });
  }
  zip.end();
  try {
    await written;
    await rename(temporary, out);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const result: GarScaleResult = {
    out,
    source: resolve(options.source),
    seed,
    regions: regionCount,
    copies,
    housesPerCopy: keptPerCopy,
    houses: copies * keptPerCopy,
    cadastralShare,
    apartmentsPerHouse,
    names: options.names ?? 'template',
    ...(options.places ? { places: options.places } : {}),
    ...(options.oneCity ? { oneCity: true } : {}),
    xmlBytes,
    zipBytes: (await stat(out)).size,
    ms: Math.round(performance.now() - started),
  };
  await writeFile(`${out}.json`, `${JSON.stringify(result, null, 2)}\n`);
  log(`gar-scale: ${out}: ${(result.zipBytes / 2 ** 20).toFixed(1)} MB zip, ${(xmlBytes / 2 ** 20).toFixed(0)} MB XML in ${(result.ms / 1000).toFixed(1)} s`);
  return result;
}

/** the sidecar `<out>.json` of an archive generated with the same options, if any (to reuse it) */
export async function existingArchive(options: GarScaleOptions): Promise<GarScaleResult | undefined> {
  const out = resolve(options.out);
  if (!existsSync(out) || !existsSync(`${out}.json`)) return undefined;
  const previous = JSON.parse(await readFile(`${out}.json`, 'utf8')) as GarScaleResult;
  const same =
    previous.source === resolve(options.source) &&
    previous.seed === ((options.seed ?? 1) >>> 0) &&
    previous.cadastralShare === (options.cadastralShare ?? 0.6) &&
    (previous.apartmentsPerHouse ?? 0) === (options.apartmentsPerHouse ?? 0) &&
    (previous.names ?? 'template') === (options.names ?? 'template') &&
    JSON.stringify(previous.places ?? null) === JSON.stringify(options.places ?? null) &&
    (previous.oneCity ?? false) === (options.oneCity ?? false) &&
    (options.places !== undefined || (previous.houses >= options.houses && previous.houses - previous.housesPerCopy < options.houses)) &&
    (options.regions === undefined || previous.regions === Math.min(options.regions, previous.copies));
  return same && (await stat(out)).size === previous.zipBytes ? previous : undefined;
}

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const houses = Number(option('houses') ?? 1_000_000);
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
  generateGarScale({
    source: resolve(option('source') ?? `${dataDir}/ru/gar/gar_xml.zip`),
    out: resolve(option('out') ?? `${ROOT}/build/synth/gar-${houses}.zip`),
    houses,
    seed: option('seed') === undefined ? undefined : Number(option('seed')),
    regions: option('regions') === undefined ? undefined : Number(option('regions')),
    cadastralShare: option('cadastral') === undefined ? undefined : Number(option('cadastral')),
    apartmentsPerHouse: option('apartments') === undefined ? undefined : Number(option('apartments')),
    compressionLevel: option('level') === undefined ? undefined : Number(option('level')),
    places: option('places') === undefined ? undefined : { copies: Number(option('places')), houses: Number(option('houses-per-place') ?? 3), cityEvery: Number(option('city-every') ?? 140) },
    oneCity: args.includes('--one-city'),
    log: (line) => console.log(line),
  }).catch((error) => {
    console.error(`gar-scale failed: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
