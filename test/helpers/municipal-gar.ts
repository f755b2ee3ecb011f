/**
 * A small GAR archive with a municipal hierarchy (the real region 99 has none): Московская обл, its
 * administrative Красногорский р-н, and beside it the municipal Красногорский м.р-н (GAR level 3) with two
 * поселения (level 4), с.п. Ильинское and г.п. Нахабино. Built with yazl into a temporary file, then read
 * by the real reader, merged, written as a blob and loaded by the real engine (debug core).
 *
 *   administrative (AS_ADM_HIERARCHY)          municipal (AS_MUN_HIERARCHY, PATH)
 *   10 Московская обл                           10
 *   └ 20 Красногорский р-н                      ├ 30 Красногорский м.р-н
 *     ├ 50 с Ильинское                          │ ├ 40 с.п. Ильинское
 *     │ ├ 70 ул Центральная                     │ │ └ 50 → 70 → house 1000
 *     │ │ ├ house 1000 (д 1)                    │ └ 41 г.п. Нахабино
 *     │ │ └ house 1001 (д 3)                    │   ├ house 1001 (under the поселение itself)
 *     │ └ 90 ул Лесная (no active MUN row)      │   └ 60 → 80 → house 1002
 *     │   └ house 1003 (д 7)
 *     └ 60 рп Нахабино
 *       └ 80 ул Школьная
 *         └ house 1002 (д 5; an inactive MUN row puts it under 70)
 */
import { createWriteStream } from 'node:fs';
import yazl from 'yazl';
import { encodeBlob } from '../../dictionaries/blob-writer.js';
import { ModelBuilder } from '../../dictionaries/merge/sink.js';
import { readGar } from '../../dictionaries/sources/gar.js';
import { LoadedDictionary } from '../../engine/dictionary.js';
import { AddressEngine } from '../../engine/engine.js';
import { debugWasm } from './engine.js';

/** the GUID of GAR object `id` in this archive */
export const guidOf = (id: number): string => `50000000-0000-4000-8000-${String(id).padStart(12, '0')}`;

const object = (id: number, name: string, type: string, level: number, current = true) =>
  `<OBJECT ID="${id}" OBJECTID="${id}" OBJECTGUID="${guidOf(id)}" NAME="${name}" TYPENAME="${type}" LEVEL="${level}" ISACTUAL="${current ? 1 : 0}" ISACTIVE="${current ? 1 : 0}" />`;
const adm = (id: number, parent: number) => `<ITEM ID="${id}" OBJECTID="${id}" PARENTOBJID="${parent}" ISACTIVE="1" />`;
const mun = (row: number, id: number, path: number[], active = true) =>
  `<ITEM ID="${row}" OBJECTID="${id}" PARENTOBJID="${path.length > 1 ? path[path.length - 2] : 0}" OKTMO="46744000" ISACTIVE="${active ? 1 : 0}" PATH="${path.join('.')}" />`;
const house = (id: number, number: string) =>
  `<HOUSE ID="${id}" OBJECTID="${id}" OBJECTGUID="${guidOf(id)}" HOUSENUM="${number}" HOUSETYPE="2" ISACTUAL="1" ISACTIVE="1" />`;
const param = (row: number, id: number, type: number, value: string) =>
  `<PARAM ID="${row}" OBJECTID="${id}" CHANGEIDEND="0" TYPEID="${type}" VALUE="${value}" STARTDATE="2020-01-01" ENDDATE="2079-06-06" />`;
const xml = (root: string, records: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n<${root}>\n${records.join('\n')}\n</${root}>\n`;

export const FILES: Record<string, string> = {
  'AS_HOUSE_TYPES_20240101_b.XML': xml('HOUSETYPES', ['<HOUSETYPE ID="2" NAME="Дом" SHORTNAME="д." />']),
  'AS_ADDHOUSE_TYPES_20240101_c.XML': xml('HOUSETYPES', ['<HOUSETYPE ID="1" NAME="Корпус" SHORTNAME="к." />']),
  '50/AS_ADDR_OBJ_20240101_e.XML': xml('ADDRESSOBJECTS', [
    object(10, 'Московская', 'обл', 1),
    object(20, 'Красногорский', 'р-н', 2),
    object(30, 'Красногорский', 'м.р-н', 3),
    object(40, 'Ильинское', 'с.п.', 4),
    object(41, 'Нахабино', 'г.п.', 4),
    object(42, 'Старое', 'с.п.', 4, false),
    object(50, 'Ильинское', 'с.', 6),
    object(60, 'Нахабино', 'рп', 6),
    object(70, 'Центральная', 'ул.', 8),
    object(80, 'Школьная', 'ул.', 8),
    object(90, 'Лесная', 'ул.', 8),
  ]),
  '50/AS_ADM_HIERARCHY_20240101_f.XML': xml('ITEMS', [
    adm(20, 10), adm(50, 20), adm(60, 20), adm(70, 50), adm(80, 60), adm(90, 50),
    adm(1000, 70), adm(1001, 70), adm(1002, 80), adm(1003, 90),
  ]),
  '50/AS_MUN_HIERARCHY_20240101_m.XML': xml('ITEMS', [
    mun(1, 10, [10]),
    mun(2, 30, [10, 30]),
    mun(3, 40, [10, 30, 40]),
    mun(4, 41, [10, 30, 41]),
    mun(5, 50, [10, 30, 40, 50]),
    mun(6, 60, [10, 30, 41, 60]),
    mun(7, 70, [10, 30, 40, 50, 70]),
    mun(8, 80, [10, 30, 41, 60, 80]),
    mun(9, 90, [10, 30, 40, 50, 90], false),
    mun(10, 1000, [10, 30, 40, 50, 70, 1000]),
    mun(11, 1001, [10, 30, 41, 1001]),
    mun(12, 1002, [10, 30, 40, 50, 70, 1002], false),
    mun(13, 1002, [10, 30, 41, 60, 80, 1002]),
    mun(14, 1003, [10, 30, 40, 50, 90, 1003]),
  ]),
  '50/AS_ADDR_OBJ_PARAMS_20240101_g.XML': xml('PARAMS', [
    param(1, 10, 10, '5000000000000'),
    param(2, 50, 10, '5001100003100'),
    param(3, 70, 10, '50011000031000100'),
    param(4, 30, 7, '46744000'),
    param(5, 40, 7, '46744412'),
  ]),
  '50/AS_HOUSES_20240101_h.XML': xml('HOUSES', [house(1000, '1'), house(1001, '3'), house(1002, '5'), house(1003, '7')]),
};

/** writes the archive (with `files` in place of or beside FILES) to `path` */
export async function writeMunicipalGar(path: string, files: Record<string, string> = FILES): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  await new Promise<void>((done, fail) => zip.outputStream.pipe(createWriteStream(path)).on('close', () => done()).on('error', fail));
  return path;
}

/** the archive at `path` read, merged and loaded: the real engine over it (debug core) */
export async function municipalEngine(path: string): Promise<{ engine: AddressEngine; dict: LoadedDictionary }> {
  const builder = new ModelBuilder('ru');
  await readGar(path, builder, { asOf: '2024-06-01' });
  const { bytes } = encodeBlob(builder.finish());
  const dict = await LoadedDictionary.fromBytes(bytes, await debugWasm(), 'municipal.dict');
  return { engine: new AddressEngine([dict]), dict };
}
