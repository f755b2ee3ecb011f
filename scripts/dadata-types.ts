/**
 * Writes engine/records/dadata-types.json: each type abbreviation's full name, lower case, as DaData's records carry it
 * in `*_type_full` (`обл` → `область`), from dictionaries/data/types.tsv (the first row of an abbreviation wins;
 * the Ukrainian and Kazakh rows are kept apart, the Belarusian rows spell Russian abbreviations in Belarusian and are
 * left out). `npx tsx scripts/dadata-types.ts`; test/unit/engine/records/dadata-record.test.ts checks the file is current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const TYPES_TSV = fileURLToPath(new URL('../dictionaries/data/types.tsv', import.meta.url));
export const DADATA_TYPES_JSON = fileURLToPath(new URL('../engine/records/dadata-types.json', import.meta.url));

/** Countries whose own rows name types in their own language, kept as their own table. */
const OWN_ROWS = new Set(['ua', 'kz']);

export function dadataTypes(tsv: string): Record<string, Record<string, string>> {
  const tables: Record<string, Record<string, string>> = { '*': {} };
  for (const line of tsv.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [country, abbreviation, full] = line.split('\t');
    if (country !== '*' && !OWN_ROWS.has(country)) continue;
    const table = (tables[country] ??= {});
    if (!Object.hasOwn(table, abbreviation)) table[abbreviation] = full.trim().toLowerCase();
  }
  return tables;
}

export function dadataTypesJson(): string {
  return `${JSON.stringify(dadataTypes(readFileSync(TYPES_TSV, 'utf8')), null, 1)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DADATA_TYPES_JSON, dadataTypesJson());
  console.log(`wrote ${DADATA_TYPES_JSON}`);
}
