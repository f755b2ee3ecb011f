/**
 * A streaming XLSX writer: one sheet of inline strings and numbers, the least a spreadsheet reader needs
 * ([Content_Types].xml, the relationships, the workbook, the sheet). The workers write the sheet's rows as XML text
 * (`xlsxRow`), so the main thread only passes text on; yazl deflates it (zlib, off the main thread) into the zip as it
 * comes, switching to ZIP64 past 4 GiB. Memory stays that of the stream's buffers whatever the row count.
 */
import { createRequire } from 'node:module';
import { PassThrough, type Writable } from 'node:stream';
import { once } from 'node:events';
import { crc32 } from 'node:zlib';
import yazl from 'yazl';
import { escapeXml } from './xlsx-rows.js';

export { columnLetter, escapeXml, xlsxRow } from './xlsx-rows.js';

// yazl checksums a streamed entry with buffer-crc32, a byte loop in JavaScript that took a tenth of the main thread's
// time on a large sheet; zlib's CRC-32 (native, Node ≥ 20.15) gives the same number
const bufferCrc32 = createRequire(import.meta.resolve('yazl'))('buffer-crc32') as { unsigned(buffer: Uint8Array, previous?: number): number };
if (typeof crc32 === 'function') bufferCrc32.unsigned = (buffer, previous = 0) => crc32(buffer, previous);

/**
 * The sheet is deflated at zlib's level 1, not its default 6: a sheet of a million rows is ≈ a fifth larger, and
 * deflating it takes a third of the time (it was as much CPU as a worker's fifth).
 */
const SHEET_COMPRESSION = 1;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `${XML_HEAD}<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const workbook = (sheet: string) =>
  `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${DOC_REL}"><sheets><sheet name="${escapeXml(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/** Writes a workbook of one sheet to `out` (ended with the zip, unless it is stdout); `write` the rows' XML, then `end`. */
export class XlsxWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly sheet = new PassThrough();
  private readonly done: Promise<void>;

  constructor(out: Writable, sheetName: string) {
    const finished = new Promise<void>((resolve, reject) => {
      this.zip.outputStream.once('end', resolve);
      this.zip.outputStream.once('error', reject);
    });
    this.zip.outputStream.pipe(out);
    this.zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml');
    this.zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels');
    this.zip.addBuffer(Buffer.from(workbook(sheetName.slice(0, 31) || 'Sheet1')), 'xl/workbook.xml');
    this.zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels');
    this.zip.addReadStream(this.sheet, 'xl/worksheets/sheet1.xml', { compressionLevel: SHEET_COMPRESSION });
    this.zip.end();
    this.sheet.write(`${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>`);
    this.done = finished;
  }

  /** Resolves once the text is taken (waits while the zip's buffers are full). */
  async write(xml: string | Uint8Array): Promise<void> {
    if (!this.sheet.write(xml)) await once(this.sheet, 'drain');
  }

  async end(): Promise<void> {
    this.sheet.end('</sheetData></worksheet>');
    await this.done;
  }
}
