/**
 * Synthetic GAR delta: from a real `gar_xml.zip` (region 99 of shared/data), a `gar_delta_xml.zip` of the
 * kinds of change FNS publishes, in the official layout (type lists at the root, `NN/AS_*_<date>_<guid>.XML`,
 * the same elements and attributes), and the full archive of the same date with the change applied, so a
 * test can compare a dictionary updated by the delta with one built from the full archive.
 *
 * Each kind of change writes what GAR writes for it:
 *  - rename: the object's current record again, no longer actual (ISACTUAL=0, ENDDATE the delta's date, NEXTID
 *    the new record), and a new record under a new ID with the new name;
 *  - new house: a HOUSE record, its AS_ADM_HIERARCHY and AS_MUN_HIERARCHY rows and a postcode param;
 *  - retired house: its record again with ISACTUAL=0, ISACTIVE=0, and its hierarchy row inactive;
 *  - moved house: its hierarchy row again inactive and a new row under another street, without the house's
 *    own record (GAR sends only the rows that changed);
 *  - postcode: the house's postcode param ended (ENDDATE, CHANGEIDEND) and a new one under a new ID;
 *  - params: a street's OKTMO changed the same way, and a cadastral number added to a house.
 * The houses of each kind are distinct; choices are seeded.
 *
 * Usage: tsx bench/synth/gar-delta.ts --delta out/gar_delta_xml.zip --after out/gar_xml.zip
 *        [--source ../shared/data/ru/gar/gar_xml.zip] [--date 20230703] [--seed 1] [--changes 5]
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { streamXml, type Attributes } from '../../dictionaries/io/xml.js';
import { openZip } from '../../dictionaries/io/zip.js';
import { tableOf } from '../../dictionaries/sources/gar.js';
import { syntheticGuid } from './gar-scale.js';
import { randomFrom } from './names.js';

export interface GarDeltaOptions {
  /** the archive the delta applies to */
  source: string;
  /** the delta archive to write */
  delta: string;
  /** the full archive after the change, to write (optional) */
  after?: string;
  /** the delta's date, YYYYMMDD, later than the source's */
  date: string;
  seed?: number;
  /** changes of each kind (default 5) */
  changes?: number;
}

/** what changed, by FIAS GUID (lower case), and the new names */
export interface GarDeltaResult {
  renamed: Array<{ guid: string; from: string; to: string }>;
  added: Array<{ guid: string; street: string; number: string }>;
  retired: string[];
  moved: Array<{ guid: string; to: string }>;
  postcodes: Array<{ guid: string; postcode: string }>;
  /** streets whose OKTMO changed */
  oktmo: Array<{ guid: string; oktmo: string }>;
  /** houses given a cadastral number */
  cadastral: Array<{ guid: string; cadnum: string }>;
  /** records in the delta */
  records: number;
}

interface XmlRecord {
  name: string;
  attributes: Attributes;
}

interface XmlEntry {
  fileName: string;
  table: string | undefined;
  root: string;
  records: XmlRecord[];
  /** an entry that is not XML (version.txt): copied as it is */
  raw?: Buffer;
}

/** new names of renamed objects (real street names, none of them in region 99) */
const NEW_NAMES = ['Генерала Карбышева', 'Академика Королева', 'Маршала Жукова', 'Героев Космоса', 'Юрия Гагарина', 'Сергея Есенина', 'Льва Толстого', 'Антона Чехова'];
const FAR_END = '2079-06-06';

export async function generateGarDelta(options: GarDeltaOptions): Promise<GarDeltaResult> {
  const changes = options.changes ?? 5;
  if (changes > NEW_NAMES.length) throw new Error(`at most ${NEW_NAMES.length} changes of each kind`);
  if (!/^\d{8}$/.test(options.date)) throw new Error(`--date ${options.date}: expected YYYYMMDD`);
  const day = `${options.date.slice(0, 4)}-${options.date.slice(4, 6)}-${options.date.slice(6)}`;
  const random = randomFrom(options.seed ?? 1);
  const entries = await readEntries(options.source);
  const table = (name: string) => {
    const found = entries.find((e) => e.table === name && e.fileName.includes('/'));
    if (!found) throw new Error(`${options.source}: no ${name} in a region folder`);
    return found;
  };
  const objects = table('AS_ADDR_OBJ');
  const houses = table('AS_HOUSES');
  const adm = table('AS_ADM_HIERARCHY');
  const mun = table('AS_MUN_HIERARCHY');
  const houseParams = table('AS_HOUSES_PARAMS');
  const objectParams = table('AS_ADDR_OBJ_PARAMS');

  // ids past every one in the archive
  let nextId = 0;
  for (const entry of entries) for (const { attributes } of entry.records) for (const key of ['ID', 'OBJECTID', 'CHANGEID']) nextId = Math.max(nextId, Number(attributes[key] ?? 0) || 0);
  const newId = () => String(++nextId + 1_000_000);

  const isCurrent = (a: Attributes) => a.ISACTUAL === '1' && a.ISACTIVE === '1';
  const admRow = new Map(adm.records.filter((r) => r.attributes.ISACTIVE === '1').map((r) => [r.attributes.OBJECTID, r]));
  const munRow = new Map(mun.records.filter((r) => r.attributes.ISACTIVE === '1').map((r) => [r.attributes.OBJECTID, r]));
  const streets = objects.records.filter((r) => isCurrent(r.attributes) && r.attributes.LEVEL === '8' && admRow.has(r.attributes.OBJECTID));
  const streetIds = new Set(streets.map((s) => s.attributes.OBJECTID));
  const currentHouses = houses.records.filter((r) => isCurrent(r.attributes) && streetIds.has(admRow.get(r.attributes.OBJECTID)?.attributes.PARENTOBJID ?? ''));
  const pick = <T>(list: T[], count: number, taken: Set<T>): T[] => {
    const out: T[] = [];
    for (let guard = 0; out.length < count && guard < 100_000; guard++) {
      const item = list[Math.floor(random() * list.length)];
      if (taken.has(item)) continue;
      taken.add(item);
      out.push(item);
    }
    if (out.length < count) throw new Error(`${options.source}: too few records for ${count} changes`);
    return out;
  };
  const takenHouses = new Set<XmlRecord>();
  const takenStreets = new Set<XmlRecord>();
  /** entry → record → its new version (same ID), and entry → records added */
  const replaced = new Map<XmlEntry, Map<XmlRecord, Attributes>>();
  const appended = new Map<XmlEntry, Attributes[]>();
  const replace = (entry: XmlEntry, record: XmlRecord, attributes: Attributes) => {
    if (!replaced.has(entry)) replaced.set(entry, new Map());
    replaced.get(entry)!.set(record, { ...record.attributes, ...attributes });
  };
  const append = (entry: XmlEntry, attributes: Attributes) => {
    if (!appended.has(entry)) appended.set(entry, []);
    appended.get(entry)!.push(attributes);
  };
  const guidOf = (r: XmlRecord) => r.attributes.OBJECTGUID.toLowerCase();
  const result: GarDeltaResult = { renamed: [], added: [], retired: [], moved: [], postcodes: [], oktmo: [], cadastral: [], records: 0 };
  let guidIndex = 0;

  // renames
  pick(streets, changes, takenStreets).forEach((street, k) => {
    const id = newId();
    replace(objects, street, { ISACTUAL: '0', NEXTID: id, ENDDATE: day, UPDATEDATE: day });
    append(objects, { ...street.attributes, ID: id, CHANGEID: newId(), NAME: NEW_NAMES[k], OPERTYPEID: '50', PREVID: street.attributes.ID, NEXTID: '0', UPDATEDATE: day, STARTDATE: day, ENDDATE: FAR_END });
    result.renamed.push({ guid: guidOf(street), from: street.attributes.NAME, to: NEW_NAMES[k] });
  });

  // new houses, on streets not renamed
  for (const street of pick(streets, changes, takenStreets)) {
    const objectId = newId();
    const guid = syntheticGuid(options.seed ?? 1, 0xde17a, ++guidIndex);
    const number = String(900 + guidIndex);
    append(houses, {
      ID: newId(), OBJECTID: objectId, OBJECTGUID: guid, CHANGEID: newId(), HOUSENUM: number, HOUSETYPE: '2', OPERTYPEID: '10',
      PREVID: '0', NEXTID: '0', UPDATEDATE: day, STARTDATE: day, ENDDATE: FAR_END, ISACTUAL: '1', ISACTIVE: '1',
    });
    const parentRow = admRow.get(street.attributes.OBJECTID)!.attributes;
    append(adm, { ...parentRow, ID: newId(), OBJECTID: objectId, PARENTOBJID: street.attributes.OBJECTID, CHANGEID: newId(), PREVID: '0', NEXTID: '0', UPDATEDATE: day, STARTDATE: day, ENDDATE: FAR_END, PATH: `${parentRow.PATH}.${objectId}` });
    const parentMun = munRow.get(street.attributes.OBJECTID)?.attributes;
    if (parentMun) append(mun, { ...parentMun, ID: newId(), OBJECTID: objectId, PARENTOBJID: street.attributes.OBJECTID, CHANGEID: newId(), PREVID: '0', NEXTID: '0', UPDATEDATE: day, STARTDATE: day, ENDDATE: FAR_END, PATH: `${parentMun.PATH}.${objectId}` });
    append(houseParams, { ID: newId(), OBJECTID: objectId, CHANGEID: newId(), CHANGEIDEND: '0', TYPEID: '5', VALUE: '468320', UPDATEDATE: day, STARTDATE: day, ENDDATE: FAR_END });
    result.added.push({ guid, street: guidOf(street), number });
  }

  // retired houses
  for (const house of pick(currentHouses, changes, takenHouses)) {
    replace(houses, house, { ISACTUAL: '0', ISACTIVE: '0', ENDDATE: day, UPDATEDATE: day });
    const row = adm.records.find((r) => r.attributes.OBJECTID === house.attributes.OBJECTID && r.attributes.ISACTIVE === '1');
    if (row) replace(adm, row, { ISACTIVE: '0', ENDDATE: day, UPDATEDATE: day });
    result.retired.push(guidOf(house));
  }

  // moved houses: the hierarchy rows alone
  for (const house of pick(currentHouses, changes, takenHouses)) {
    const row = adm.records.find((r) => r.attributes.OBJECTID === house.attributes.OBJECTID && r.attributes.ISACTIVE === '1')!;
    const from = row.attributes.PARENTOBJID;
    const others = streets.filter((s) => s.attributes.OBJECTID !== from);
    const target = others[Math.floor(random() * others.length)];
    const id = newId();
    replace(adm, row, { ISACTIVE: '0', NEXTID: id, ENDDATE: day, UPDATEDATE: day });
    const targetRow = admRow.get(target.attributes.OBJECTID)!.attributes;
    append(adm, { ...row.attributes, ID: id, PARENTOBJID: target.attributes.OBJECTID, CHANGEID: newId(), PREVID: row.attributes.ID, NEXTID: '0', UPDATEDATE: day, STARTDATE: day, ENDDATE: FAR_END, PATH: `${targetRow.PATH}.${house.attributes.OBJECTID}` });
    result.moved.push({ guid: guidOf(house), to: guidOf(target) });
  }

  // postcodes
  const endParam = (entry: XmlEntry, objectId: string, typeId: string, value: string) => {
    const change = newId();
    for (const param of entry.records) {
      const a = param.attributes;
      if (a.OBJECTID === objectId && a.TYPEID === typeId && a.CHANGEIDEND === '0') replace(entry, param, { CHANGEIDEND: change, ENDDATE: day, UPDATEDATE: day });
    }
    append(entry, { ID: newId(), OBJECTID: objectId, CHANGEID: change, CHANGEIDEND: '0', TYPEID: typeId, VALUE: value, UPDATEDATE: day, STARTDATE: day, ENDDATE: FAR_END });
  };
  pick(currentHouses, changes, takenHouses).forEach((house, k) => {
    const postcode = String(468330 + k);
    endParam(houseParams, house.attributes.OBJECTID, '5', postcode);
    result.postcodes.push({ guid: guidOf(house), postcode });
  });

  // params: a street's OKTMO, a house's cadastral number
  pick(streets, changes, takenStreets).forEach((street, k) => {
    const oktmo = String(55000000 + 100 + k);
    endParam(objectParams, street.attributes.OBJECTID, '7', oktmo);
    result.oktmo.push({ guid: guidOf(street), oktmo });
  });
  pick(currentHouses, changes, takenHouses).forEach((house, k) => {
    const cadnum = `99:01:0000${k}:${100 + k}`;
    endParam(houseParams, house.attributes.OBJECTID, '8', cadnum);
    result.cadastral.push({ guid: guidOf(house), cadnum });
  });

  // the delta: the changed and new records of each entry, and the type lists whole
  const renamed = (fileName: string) => fileName.replace(/_\d{8}_[0-9a-f-]+\.XML$/i, (tail) => `_${options.date}_${syntheticGuid(options.seed ?? 1, 0xf11e, fileName.length + tail.length)}.XML`);
  const deltaEntries: Array<{ name: string; text: string }> = [];
  for (const entry of entries) {
    if (entry.raw) continue;
    const isTypeList = !entry.fileName.includes('/');
    const records = isTypeList ? entry.records.map((r) => r.attributes) : [...(replaced.get(entry)?.values() ?? []), ...(appended.get(entry) ?? [])];
    if (records.length === 0) continue;
    const recordName = entry.records[0]?.name ?? elementOf(entry.root);
    result.records += isTypeList ? 0 : records.length;
    deltaEntries.push({ name: renamed(entry.fileName), text: render(entry.root, recordName, records) });
  }
  await writeZip(options.delta, deltaEntries.map(({ name, text }) => ({ name, bytes: Buffer.from(text, 'utf8') })));

  if (options.after) {
    const afterEntries = entries.map((entry) => {
      if (entry.raw) return { name: entry.fileName, bytes: entry.raw };
      const changed = replaced.get(entry);
      const records = [...entry.records.map((r) => changed?.get(r) ?? r.attributes), ...(appended.get(entry) ?? [])];
      return { name: renamed(entry.fileName), bytes: Buffer.from(render(entry.root, entry.records[0]?.name ?? elementOf(entry.root), records), 'utf8') };
    });
    await writeZip(options.after, afterEntries);
  }
  return result;
}

/** the record element of an empty file's root (`HOUSES` → `HOUSE`) */
function elementOf(root: string): string {
  return root === 'ADDRESSOBJECTS' ? 'OBJECT' : root.replace(/ES$|S$/, '');
}

async function readEntries(source: string): Promise<XmlEntry[]> {
  const zip = await openZip(source);
  try {
    const entries: XmlEntry[] = [];
    for (const entry of zip.entries) {
      if (entry.fileName.endsWith('/')) continue;
      const stream = await zip.open(entry);
      if (!/\.xml$/i.test(entry.fileName)) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        entries.push({ fileName: entry.fileName, table: undefined, root: '', records: [], raw: Buffer.concat(chunks) });
        continue;
      }
      const out: XmlEntry = { fileName: entry.fileName, table: tableOf(entry.fileName), root: '', records: [] };
      let depth = 0;
      await streamXml(stream, `${source}:${entry.fileName}`, {
        open(name, attributes) {
          if (depth++ === 0) out.root = name;
          else out.records.push({ name, attributes: { ...attributes } });
        },
        close() {
          depth--;
        },
      });
      entries.push(out);
    }
    return entries;
  } finally {
    zip.close();
  }
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function render(root: string, element: string, records: Attributes[]): string {
  let text = `\uFEFF<?xml version="1.0" encoding="utf-8"?><${root}>`;
  for (const attributes of records) {
    text += `<${element}`;
    for (const [name, value] of Object.entries(attributes)) text += ` ${name}="${escapeXml(value)}"`;
    text += ' />';
  }
  return `${text}</${root}>`;
}

async function writeZip(out: string, entries: Array<{ name: string; bytes: Buffer }>): Promise<void> {
  await mkdir(dirname(resolve(out)), { recursive: true });
  const zip = new yazl.ZipFile();
  for (const { name, bytes } of entries) zip.addBuffer(bytes, name, { compress: true });
  const tmp = `${out}.tmp-${process.pid}`;
  await new Promise<void>((done, fail) => {
    const file = createWriteStream(tmp);
    zip.outputStream.pipe(file).on('finish', done).on('error', fail);
    zip.end();
  });
  await rename(tmp, out);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  if (args.includes('--help') || !option('--delta')) {
    console.log('Usage: tsx bench/synth/gar-delta.ts --delta FILE [--after FILE] [--source gar_xml.zip] [--date YYYYMMDD] [--seed N] [--changes N]');
    process.exit(args.includes('--help') ? 0 : 1);
  }
  const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  generateGarDelta({
    source: option('--source') ?? resolve(root, process.env.DATA_DIR ?? '../shared/data', 'ru/gar/gar_xml.zip'),
    delta: option('--delta')!,
    after: option('--after'),
    date: option('--date') ?? '20230703',
    seed: Number(option('--seed') ?? 1),
    changes: Number(option('--changes') ?? 5),
  })
    .then((result) => console.log(JSON.stringify(result, null, 1)))
    .catch((error: unknown) => {
      console.error(`gar-delta failed: ${error instanceof Error ? error.message : error}`);
      process.exit(1);
    });
}
