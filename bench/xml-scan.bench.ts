/**
 * The dictionary builder's XML scan: `FlatXmlScanner` over the real GAR region's largest tables
 * (AS_HOUSES_PARAMS, AS_ADM_HIERARCHY, AS_HOUSES, AS_ADDR_OBJ of `DATA_DIR/ru/gar/gar_xml.zip`, inflated once
 * into memory), each record counted, with the WebAssembly scanner reading the records of the canonical shape
 * (build/wasm/xml-scan.wasm) against the JavaScript scanner alone. One operation is a scan of all four tables
 * (≈1.2 MB of XML) in 256 KB chunks, as the reader gets them from inflate; the note gives ns per byte.
 */
import { resolve } from 'node:path';
import { FlatXmlScanner, type RecordShape } from '../dictionaries/io/flat-xml.js';
import { GAR_TABLES, type GarTableName } from '../dictionaries/io/gar-tables.js';
import { openZip } from '../dictionaries/io/zip.js';
import { consume, isMain, measure, ROOT, row, runStandalone, type BenchContext, type Row } from './harness.js';

const TABLES: GarTableName[] = ['AS_HOUSES_PARAMS', 'AS_ADM_HIERARCHY', 'AS_HOUSES', 'AS_ADDR_OBJ'];
const CHUNK = 256 * 1024;

async function inflatedTables(): Promise<{ layout: RecordShape; chunks: Buffer[] }[]> {
  const zip = await openZip(resolve(ROOT, process.env.DATA_DIR ?? '../shared/data', 'ru/gar/gar_xml.zip'));
  try {
    const tables = [];
    for (const table of TABLES) {
      const entry = zip.entries.find((e) => e.fileName.includes(`/${table}_2`));
      if (!entry) throw new Error(`xml-scan bench: no ${table} in the archive`);
      const parts: Buffer[] = [];
      for await (const part of await zip.open(entry)) parts.push(part as Buffer);
      const whole = Buffer.concat(parts);
      const chunks: Buffer[] = [];
      for (let at = 0; at < whole.length; at += CHUNK) chunks.push(whole.subarray(at, at + CHUNK));
      tables.push({ layout: GAR_TABLES[table].layout, chunks });
    }
    return tables;
  } finally {
    zip.close();
  }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const tables = await inflatedTables();
  const bytes = tables.reduce((sum, { chunks }) => sum + chunks.reduce((s, c) => s + c.length, 0), 0);
  const scanAll = (wasm: boolean) => () => {
    let records = 0;
    for (const { layout, chunks } of tables) {
      const scanner = new FlatXmlScanner('bench', layout, () => records++, { wasm });
      for (const chunk of chunks) scanner.write(chunk);
      scanner.end();
    }
    consume(records);
  };
  const fast = await measure('xml-scan wasm', scanAll(true));
  const js = await measure('xml-scan js', scanAll(false));
  const nsPerByte = (hz: number) => (1e9 / hz / bytes).toFixed(2);
  ctx.notes.push(
    `xml-scan: ${TABLES.join(', ')} of the real GAR region (${(bytes / 2 ** 20).toFixed(2)} MB of XML) per operation, every record counted; ` +
      `${nsPerByte(fast.hz)} ns a byte with the WebAssembly scanner, ${nsPerByte(js.hz)} in JavaScript alone`,
  );
  return [row('xml-scan: GAR region tables (FlatXmlScanner, wasm + JS)', fast, 'JS scanner alone', js)];
}

if (isMain(import.meta.url)) await runStandalone(run);
