/**
 * What the GAR reader tests compare: a digest of everything a reader emits (sha256 of `kind<TAB>JSON`
 * lines in emission order: objects, houses, apartments, rejects, sources), and a copy of a GAR archive
 * whose XML is written the ways saxes accepts and GAR itself never uses (entities, single quotes, spaces
 * and line breaks inside tags, comments, upper-case GUIDs), so the byte scanner is held to what the saxes
 * reader gave on the same files. The expected digests in gar.test.ts were taken with the saxes reader
 * (commit b7eb4f3) before the scanner replaced it, when a FIAS object's key was spelled `fias:<guid>`; keys
 * are now the GUID itself (source-model.ts `fiasKey`), so the digest spells them as then (`spelledAsTaken`) and the
 * digests still hold the reader to the saxes reader's records.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import yazl from 'yazl';
import type { ModelSink } from '../../dictionaries/source-model.js';
import { openZip } from '../../dictionaries/io/zip.js';

type Reader = (zip: string, sink: ModelSink, options: { asOf: string }) => Promise<{ objects: number; houses: number; steads: number; apartments: number }>;

/** the reader's output on `zip` as one sha256 */
export async function readerDigest(readGar: Reader, zip: string): Promise<string> {
  const hash = createHash('sha256');
  const line = (kind: string, record: unknown) => hash.update(`${kind}\t${JSON.stringify(spelledAsTaken(record))}\n`);
  const sink: ModelSink = {
    country: 'ru',
    addObject: (object) => line('object', object),
    addMunicipal: (municipal) => line('municipal', municipal),
    addHouse: (house) => line('house', house),
    addApartment: (apartment) => line('apartment', apartment),
    addMetro: () => {},
    addPostcode: () => {},
    addSource: (info) => line('source', info),
    reject: (source, reason) => line('reject', [source, reason]),
  };
  const counts = await readGar(zip, sink, { asOf: '2024-06-01' });
  line('counts', [counts.objects, counts.houses, counts.steads, counts.apartments]);
  return hash.digest('hex');
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY_FIELDS = new Set(['key', 'parent', 'municipal']);

/** a record with its object keys (`key`, `parent`, `municipal`) spelled `fias:<guid>`, as when the digests were taken */
function spelledAsTaken(record: unknown): unknown {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return record;
  return Object.fromEntries(
    Object.entries(record).map(([field, value]) => [field, KEY_FIELDS.has(field) && typeof value === 'string' && GUID.test(value) ? `fias:${value}` : value]),
  );
}

/** `source` rewritten record by record into `out` (the n-th record of the archive gets the n-th variations) */
export async function variantArchive(source: string, out: string): Promise<void> {
  const zip = await openZip(source);
  const writer = new yazl.ZipFile();
  const written = new Promise<void>((resolve, reject) => writer.outputStream.pipe(createWriteStream(out)).on('close', resolve).on('error', reject));
  let n = 0;
  try {
    for (const entry of zip.entries) {
      if (entry.fileName.endsWith('/')) {
        writer.addEmptyDirectory(entry.fileName);
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.open(entry)) chunks.push(chunk as Buffer);
      let text = Buffer.concat(chunks).toString('utf8');
      if (entry.fileName.includes('/')) {
        text = text.replace(/<(\w+) ([^>]*?)\s*\/>/g, (_, tag: string, attributes: string) => {
          n++;
          const vary = (every: number, pattern: RegExp, replace: (...groups: string[]) => string) => {
            if (n % every === 0) attributes = attributes.replace(pattern, (...groups) => replace(...(groups as string[])));
          };
          vary(3, /NAME="([^"]*)"/, (_, v) => `NAME='${v} &quot;Т&quot; &amp; &#1040;&#x411;&lt;&gt;&apos;'`);
          vary(5, /" /g, () => '"\r\n\t ');
          vary(7, /HOUSENUM="(\d+)"/, (_, v) => `HOUSENUM="${v}&#1072;"`);
          vary(11, /VALUE="(\d+)(\d)"/, (_, v, d) => `VALUE="${v}&#${d.charCodeAt(0)};"`);
          vary(13, /ISACTUAL="1"/, () => "ISACTUAL = '1'");
          vary(17, /NUMBER="([^"]*)"/, (_, v) => `NUMBER="  ${v}  "`);
          vary(19, /OBJECTGUID="([^"]*)"/, (_, v) => `OBJECTGUID="${v.toUpperCase()}"`);
          vary(29, /ENDDATE="[^"]*"/, () => 'ENDDATE="2024-06-01"');
          vary(31, /TYPENAME="([^"]*)"/, () => 'TYPENAME="ул&#46;"');
          vary(37, / PREVID="[^"]*"/, () => '');
          const element = `<${tag} ${attributes}${n % 2 ? ' ' : ''}/>\n`;
          return n % 23 === 0 ? `<!-- ${n} -->\n${element}` : element;
        });
      }
      writer.addBuffer(Buffer.from(text, 'utf8'), entry.fileName, { compressionLevel: 6, mtime: new Date(0) });
    }
  } finally {
    zip.close();
  }
  writer.end();
  await written;
}
