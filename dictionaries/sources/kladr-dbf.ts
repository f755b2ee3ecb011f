/**
 * The original KLADR dBase files (cp866) via dbffile: `SOCRBASE.DBF` (LEVEL, SCNAME abbreviation,
 * SOCRNAME full name, KOD_T_ST) enriches the type table; `ALTNAMES.DBF` (OLDCODE, NEWCODE, LEVEL) lists
 * codes of renamed or resubordinated objects, which the merge keeps as historical KLADR codes of the
 * object that now has NEWCODE (`addCodeAlias`), so an id search by an old code still finds it.
 * Both are small (≤ 10 k rows) and read record by record anyway.
 */
import { DBFFile } from 'dbffile';
import { Level, type LevelNumber, type ModelSink } from '../source-model.js';
import type { AddressType } from '../types.js';

/** KLADR SOCRBASE levels: 1 region, 2 area, 3 city, 4 settlement, 5 street */
const KLADR_LEVELS: Record<string, LevelNumber> = { '1': Level.region, '2': Level.area, '3': Level.city, '4': Level.settlement, '5': Level.street };

async function openDbf(path: string): Promise<DBFFile> {
  try {
    return await DBFFile.open(path, { encoding: 'cp866' });
  } catch (error) {
    throw new Error(`${path}: not a readable dBase file: ${(error as Error).message}`, { cause: error });
  }
}

async function* records(path: string, batch = 1000): AsyncGenerator<{ record: Record<string, unknown>; index: number }> {
  const dbf = await openDbf(path);
  let index = 0;
  while (index < dbf.recordCount) {
    let rows: Array<Record<string, unknown>>;
    try {
      rows = (await dbf.readRecords(batch)) as Array<Record<string, unknown>>;
    } catch (error) {
      throw new Error(`${path}: record ${index + 1} of ${dbf.recordCount}: ${(error as Error).message}`, { cause: error });
    }
    if (rows.length === 0) throw new Error(`${path}: truncated: ${index} of ${dbf.recordCount} records`);
    for (const record of rows) yield { record, index: ++index };
  }
}

export async function readKladrSocrbase(path: string): Promise<AddressType[]> {
  const types: AddressType[] = [];
  for await (const { record, index } of records(path)) {
    const abbr = String(record.SCNAME ?? '').trim();
    const full = String(record.SOCRNAME ?? '').trim();
    const level = KLADR_LEVELS[String(record.LEVEL ?? '').trim()];
    if (!abbr || !full) throw new Error(`${path}: record ${index}: empty SCNAME or SOCRNAME`);
    if (level === undefined) continue;
    types.push({ country: '*', abbr, full, levels: [level], after: false, synonyms: [] });
  }
  return types;
}

/** a sink that can keep old registry codes (the merge's `ModelBuilder`) */
export interface CodeAliasSink extends ModelSink {
  addCodeAlias(registry: 'kladr', oldCode: string, newCode: string): void;
}

export async function readKladrAltnames(path: string, sink: CodeAliasSink): Promise<{ pairs: number }> {
  let pairs = 0;
  for await (const { record, index } of records(path)) {
    const oldCode = String(record.OLDCODE ?? '').trim();
    const newCode = String(record.NEWCODE ?? '').trim();
    if (!/^\d{13,19}$/.test(oldCode) || !/^\d{13,19}$/.test(newCode)) throw new Error(`${path}: record ${index}: bad code pair "${oldCode}" → "${newCode}"`);
    if (oldCode === newCode) continue;
    sink.addCodeAlias('kladr', oldCode, newCode);
    pairs++;
  }
  sink.addSource({ name: 'КЛАДР ALTNAMES', date: '20100101', licence: 'public registry' });
  return { pairs };
}
