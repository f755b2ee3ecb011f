import { Readable } from 'node:stream';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { FlatXmlScanner, recordLayout, streamFlatXml, type FlatRecord } from '../../../../dictionaries/io/flat-xml.js';
import { WasmRecords } from '../../../../dictionaries/io/flat-xml-wasm.js';
import { streamXml } from '../../../../dictionaries/io/xml.js';

const HOUSE = recordLayout('HOUSE', ['OBJECTID', 'NAME', 'HOUSENUM', 'ISACTUAL', 'ENDDATE']);

type Seen = { element: string; index: number; offset: number; values: Array<string | undefined> };

/** the scanner's two ways: records of the canonical shape read by the WebAssembly scanner, or all in JavaScript */
let wasm = true;

/** every record as plain values, the input fed in the given pieces */
function scan(pieces: Buffer[], layout = HOUSE, file = 'AS_HOUSES.XML', options = { wasm }): Seen[] {
  const seen: Seen[] = [];
  const scanner = new FlatXmlScanner(
    file,
    layout,
    (r) => seen.push({ element: r.element, index: r.index, offset: r.offset, values: layout.names.map((_, slot) => r.optional(slot)) }),
    options,
  );
  for (const piece of pieces) scanner.write(piece);
  scanner.end();
  return seen;
}

const bytes = (text: string) => Buffer.from(text, 'utf8');
const splitAt = (buffer: Buffer, ...at: number[]) => [0, ...at, buffer.length].slice(1).map((end, i, all) => buffer.subarray(i === 0 ? 0 : all[i - 1], end));

/** one of each thing the scanner has to get right, in the order a GAR file has them */
const DOCUMENT =
  '\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<HOUSES>' +
  '<HOUSE OBJECTID="1001" NAME="Кра́снооктябрьская" HOUSENUM="7а" ISACTUAL="1" ENDDATE="2079-06-06" />' +
  '<HOUSE ID="2" OBJECTID="1002" NAME="СНТ &quot;Ромашка&quot; &amp; &#1040;&#x411; &lt;&gt;&apos;" ISACTUAL = \'1\'/>\n' +
  '<!-- a comment -->' +
  '<HOUSE\tOBJECTID="1003"\r\n NAME="a\tb\r\nc\nd\re&#10;f" HOUSENUM="1>2" PREVID="0"></HOUSE>' +
  '<PARAM OBJECTID="9" TYPEID="5"/>' +
  '<HOUSE OBJECTID="𝔸4" NAME="" />' +
  '</HOUSES>\n';

const EXPECTED: Seen[] = (() => {
  const records: Array<Omit<Seen, 'offset'>> = [
    { element: 'HOUSE', index: 1, values: ['1001', 'Кра́снооктябрьская', '7а', '1', '2079-06-06'] },
    { element: 'HOUSE', index: 2, values: ['1002', 'СНТ "Ромашка" & АБ <>\'', undefined, '1', undefined] },
    { element: 'HOUSE', index: 3, values: ['1003', 'a b c d e\nf', '1>2', undefined, undefined] },
    { element: 'PARAM', index: 4, values: ['9', undefined, undefined, undefined, undefined] },
    { element: 'HOUSE', index: 5, values: ['𝔸4', '', undefined, undefined, undefined] },
  ];
  // each record's offset is that of its own `<` in the file (latin1: one character per byte)
  const starts = [...bytes(DOCUMENT).toString('latin1').matchAll(/<(HOUSE|PARAM)[\s/>]/g)].map((match) => match.index);
  return records.map((record, i) => ({ element: record.element, index: record.index, offset: starts[i], values: record.values }));
})();

describe.each([
  ['with the WebAssembly scanner', true],
  ['in JavaScript alone', false],
])('FlatXmlScanner(file, layout, onRecord) %s', (_, fast) => {
  beforeEach(() => {
    wasm = fast;
  });

  it('reads the layout\'s attributes of every record: entities, normalized spaces, quotes, other elements', () => {
    expect(scan([bytes(DOCUMENT)])).toEqual(EXPECTED);
  });

  it('gives the same records whatever the chunk boundaries (every split point, one byte at a time)', () => {
    const whole = bytes(DOCUMENT);
    for (let at = 0; at <= whole.length; at++) expect(scan(splitAt(whole, at)), `split at ${at}`).toEqual(EXPECTED);
    for (let at = 1; at < whole.length; at += 7) for (let second = at; second <= whole.length; second += 5) expect(scan(splitAt(whole, at, second))).toEqual(EXPECTED);
    expect(scan([...whole].map((b) => Buffer.from([b])))).toEqual(EXPECTED);
  });

  it('reads numbers in place and compares without decoding', () => {
    const layout = recordLayout('P', ['A', 'B', 'C', 'D']);
    const values: Array<[number, number, number, boolean, boolean, number, boolean]> = [];
    const scanner = new FlatXmlScanner('f', layout, (r) =>
      values.push([r.int(layout.A), r.int(layout.B), r.int(layout.C), r.is(layout.A, '12'), r.isDigits(layout.A, 2), r.compare(layout.D, '2024-06-01'), r.isDigits(layout.B)]),
    );
    scanner.write(bytes('<R><P A="12" B="" C=" 7 " D="2024-06-02"/><P A="1&#50;" B="x1" D="2024-06-01"/><P A="012" C="1e3" D="2024-05-31"/><P A="99999999999999999" D="2024"/><P A="-3" D="2024-06-01z"/></R>'));
    scanner.end();
    expect(values).toEqual([
      [12, 0, 7, true, true, 1, false],
      [12, NaN, NaN, true, true, 0, false],
      [12, NaN, 1000, false, false, -1, false],
      [99999999999999999, NaN, NaN, false, false, -1, false],
      [-3, NaN, NaN, false, false, 1, false],
    ]);
  });

  it('compares with a non-ASCII string in JavaScript string order', () => {
    const layout = recordLayout('P', ['A']);
    const signs: number[] = [];
    const scanner = new FlatXmlScanner('f', layout, (r) => signs.push(r.compare(layout.A, 'абв'), r.compare(layout.A, 'а')));
    scanner.write(bytes('<R><P A="абв"/><P A="аб"/><P A="z"/><P A="я"/></R>'));
    scanner.end();
    expect(signs).toEqual([0, 1, -1, 1, -1, -1, 1, 1]);
  });

  it('accepts an empty root and a file without a declaration or BOM', () => {
    expect(scan([bytes('<HOUSES />')])).toEqual([]);
    expect(scan([bytes('<HOUSES></HOUSES>')])).toEqual([]);
  });

  it('names the file, the last record and the byte when the file is truncated', () => {
    const cut = bytes(DOCUMENT.slice(0, DOCUMENT.indexOf('HOUSENUM="1>2"')));
    expect(() => scan([cut])).toThrow(/AS_HOUSES\.XML: malformed XML at byte \d+, after element 2 <HOUSE>: truncated XML: the file ends inside "<HOUSE\tOBJECTID/);
    expect(() => scan([bytes('<HOUSES><HOUSE OBJECTID="1"/>')])).toThrow(/after element 1 <HOUSE>: truncated XML: <HOUSES> not closed/);
    expect(() => scan([bytes('<HOUSES><HOUSE OBJECTID="1"></HOUSE>')])).toThrow(/<HOUSES> not closed/);
    expect(() => scan([bytes('<HOUSES><HOUSE OBJECTID="1">')])).toThrow(/<HOUSES> not closed/);
    expect(() => scan([bytes('<?xml version="1.0"?>')])).toThrow(/no root element/);
    expect(() => scan([])).toThrow(/no root element/);
    expect(() => scan([bytes('\uFEFF')])).toThrow(/no root element/);
  });

  it('stops on what a broken file shows, naming where', () => {
    const broken = (text: string) => () => scan([bytes(`<HOUSES><HOUSE OBJECTID="1"/>${text}</HOUSES>`)]);
    expect(broken('<HOUSE NAME="a<b"/>')).toThrow(/AS_HOUSES\.XML: malformed XML at byte 43, after element 1 <HOUSE>: "<" in the value of NAME/);
    expect(broken('<HOUSE NAME="&nbsp;"/>')).toThrow(/undefined entity &nbsp;/);
    expect(broken('<HOUSE NAME="a & b"/>')).toThrow(/"&" not part of an entity/);
    expect(broken('<HOUSE NAME="&#X41;"/>')).toThrow(/malformed character reference &#X41;/);
    expect(broken('<HOUSE NAME="&#0;"/>')).toThrow(/malformed character reference/);
    expect(broken('<HOUSE PREVID="&bad;"/>')).toThrow(/undefined entity/); // an attribute not read is still checked
    expect(broken('<HOUSE NAME=a/>')).toThrow(/value not quoted/);
    expect(broken('<HOUSE NAME"a"/>')).toThrow(/without "="/);
    expect(broken('<HOUSE NAME="a"HOUSENUM="1"/>')).toThrow(/no space before an attribute/);
    expect(broken('<HOUSE NAME="a" NAME="b"/>')).toThrow(/duplicate attribute NAME/);
    expect(broken('<HOUSE NAME="a\u0001"/>')).toThrow(/control character 0x1/);
    expect(broken('<HOUSE NAME="a" / >')).toThrow(/"\/" not followed by ">"/);
    expect(broken('<HOUSE NAME="a"><X/></HOUSE>')).toThrow(/<X> inside the record <HOUSE>/);
    expect(broken('<HOUSE NAME="a"></HOUS>')).toThrow(/<\/HOUS> closes <HOUSE>/);
    expect(broken('<!DOCTYPE x>')).toThrow(/unsupported markup/);
    expect(broken('< HOUSE/>')).toThrow(/"<" without an element name/);
    expect(() => scan([bytes('<HOUSES></HOUSE>')])).toThrow(/<\/HOUSE> closes <HOUSES>/);
    expect(() => scan([bytes('<HOUSES/><HOUSE/>')])).toThrow(/<HOUSE> after the root element/);
    expect(() => scan([bytes('<HOUSES/>text')])).toThrow(/text outside the root element/);
  });

  it('names the file, the record and its byte when the callback throws', () => {
    const scanner = new FlatXmlScanner(
      'AS_HOUSES.XML',
      HOUSE,
      (r) => {
        if (r.index === 2) throw new Error('OBJECTID="x" is not a positive integer');
      },
      { wasm },
    );
    expect(() => scanner.write(bytes('<HOUSES><HOUSE OBJECTID="1"/><HOUSE OBJECTID="x"/></HOUSES>'))).toThrow(
      'AS_HOUSES.XML: element 2 <HOUSE> at byte 29: OBJECTID="x" is not a positive integer',
    );
  });
});

describe('FlatXmlScanner with the WebAssembly scanner', () => {
  /** records and the error, if any, of a file fed in pieces */
  function outcome(pieces: Buffer[], options: { wasm: boolean }) {
    const seen: Seen[] = [];
    const scanner = new FlatXmlScanner(
      'f.XML',
      HOUSE,
      (r) => seen.push({ element: r.element, index: r.index, offset: r.offset, values: HOUSE.names.map((_, slot) => r.optional(slot)) }),
      options,
    );
    try {
      for (const piece of pieces) scanner.write(piece);
      scanner.end();
      return { seen, wasmRecords: scanner.wasmRecords };
    } catch (error) {
      return { seen, error: (error as Error).message, wasmRecords: scanner.wasmRecords };
    }
  }

  it('is built (npm run asbuild) and reads the records of the canonical shape, the rest left to JavaScript', () => {
    expect(WasmRecords.get()).not.toBeNull();
    const { seen, wasmRecords } = outcome([bytes(DOCUMENT)], { wasm: true });
    expect(seen).toEqual(EXPECTED);
    // the first record (canonical) and the last; the others have entities, tabs, content or another element
    expect(wasmRecords).toBe(2);
    const gar = bytes(`<HOUSES>${'<HOUSE ID="7" OBJECTID="1001" NAME="Кра́снооктябрьская" HOUSENUM="7а" ISACTUAL="1" />'.repeat(1000)}</HOUSES>`);
    expect(outcome(splitAt(gar, 1000, 50000), { wasm: true }).wasmRecords).toBeGreaterThan(990);
  });

  it('gives the records and the error of JavaScript alone for any file: mutated GAR records, any chunk boundaries', () => {
    const attribute = fc.record({
      name: fc.constantFrom('ID', 'OBJECTID', 'NAME', 'HOUSENUM', 'ISACTUAL', 'ENDDATE', 'PREVID', 'X'),
      value: fc.stringMatching(/^[0-9а-яА-Я a-z."'\-]{0,20}$/),
    });
    const record = fc.array(attribute, { maxLength: 7 }).map((attributes) => `<HOUSE ${attributes.map(({ name, value }) => `${name}="${value.replaceAll('"', '&quot;')}"`).join(' ')} />`);
    const mutation = fc.record({
      at: fc.nat(),
      insert: fc.constantFrom('', '<', '>', '/', '"', "'", '&', '&amp;', '=', ' ', '\t', '\n', '\u0001', 'HOUSE', '</HOUSE>', '<!-- c -->', 'Ё'),
      remove: fc.nat({ max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.array(mutation, { maxLength: 3 }), fc.array(fc.nat(), { maxLength: 4 }), (records, mutations, cuts) => {
        let text = `<?xml version="1.0" encoding="utf-8"?><HOUSES>${records.join('')}</HOUSES>`;
        for (const { at, insert, remove } of mutations) {
          const p = at % (text.length + 1);
          text = text.slice(0, p) + insert + text.slice(p + remove);
        }
        const xml = bytes(text);
        const pieces = splitAt(xml, ...[...new Set(cuts.map((cut) => cut % (xml.length + 1)))].sort((a, b) => a - b));
        const js = outcome(pieces, { wasm: false });
        const fast = outcome(pieces, { wasm: true });
        expect({ ...fast, wasmRecords: 0 }).toEqual(js);
      }),
      { numRuns: 2000 },
    );
  });
});

/** attributes as saxes (the general parser the OSM reader uses) reads them */
async function saxesRecords(xml: Buffer, element: string): Promise<Array<Record<string, string>>> {
  const records: Array<Record<string, string>> = [];
  await streamXml(Readable.from([xml]), 'f', { open: (name, attributes) => name === element && records.push({ ...attributes }) });
  return records;
}

describe.each([
  ['with the WebAssembly scanner', true],
  ['in JavaScript alone', false],
])('streamFlatXml(stream, file, layout, onRecord) %s', (_, fast) => {
  it('reads what saxes reads, for any values and any chunk boundaries', async () => {
    const names = ['A', 'B', 'NAME', 'ID'] as const;
    const layout = recordLayout('R', names);
    // parts of a value: text (escaped below), or markup that stands as it is in either quote
    const value = fc.array(
      fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 6 }).map((text) => ({ text })),
        fc.constantFrom('&amp;', '&quot;', '&lt;', '&gt;', '&apos;', '&#1040;', '&#x1F600;', '\t', '\r\n', '\n', '\r', '>', ' ').map((raw) => ({ raw })),
      ),
      { maxLength: 6 },
    );
    const record = fc.record({ A: fc.option(value), B: fc.option(value), NAME: fc.option(value), ID: fc.option(value), quote: fc.constantFrom('"', "'"), space: fc.constantFrom(' ', '\r\n\t', '  '), equals: fc.constantFrom('=', ' = ', '\n=') });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 4 }), async (records, cuts) => {
        const text = records
          .map((r) => {
            const attributes = names
              .filter((name) => r[name] !== null)
              .map((name) => {
                const escaped = r[name]!.map((part) =>
                  'raw' in part
                    ? part.raw
                    : part.text
                        .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
                        .replace(/[&<]/g, (c) => (c === '&' ? '&amp;' : '&lt;'))
                        .replaceAll(r.quote, r.quote === '"' ? '&quot;' : '&apos;'),
                );
                return `${name}${r.equals}${r.quote}${escaped.join('')}${r.quote}`;
              });
            return `<R ${attributes.join(r.space)}${r.space}/>`;
          })
          .join('\n');
        const xml = bytes(`<?xml version="1.0"?><ROOT>${text}</ROOT>`);
        const expected = await saxesRecords(xml, 'R');
        const points = [...new Set(cuts.map((cut) => cut % (xml.length + 1)))].sort((a, b) => a - b);
        const seen: Array<Record<string, string>> = [];
        await streamFlatXml(Readable.from(splitAt(xml, ...points)), 'f', layout, (r: FlatRecord) => {
          const attributes: Record<string, string> = {};
          for (const name of names) if (r.has(layout[name])) attributes[name] = r.text(layout[name]);
          seen.push(attributes);
        }, undefined, { wasm: fast });
        expect(seen).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('names the file when the stream fails', async () => {
    const failing = Readable.from(
      (async function* () {
        yield bytes('<HOUSES><HOUSE OBJECTID="1"/>');
        throw new Error('unexpected end of file');
      })(),
    );
    await expect(streamFlatXml(failing, 'x.zip:AS_HOUSES.XML', HOUSE, () => {})).rejects.toThrow('x.zip:AS_HOUSES.XML: read failed after element 1: unexpected end of file');
  });
});

describe('FlatRecord.path(slot, out)', () => {
  const ITEM = recordLayout('ITEM', ['OBJECTID', 'PATH']);
  const paths = (document: string, capacity = 8): number[][] => {
    const out = new Float64Array(capacity);
    const seen: number[][] = [];
    const scanner = new FlatXmlScanner('AS_MUN_HIERARCHY.XML', ITEM, (r: FlatRecord) => {
      const count = r.path(ITEM.PATH, out);
      seen.push(count < 0 ? [count] : [...out.subarray(0, count)]);
    });
    scanner.write(bytes(`<ITEMS>${document}</ITEMS>`));
    scanner.end();
    return seen;
  };

  it('reads the ids of a GAR PATH in place, root first', () => {
    expect(paths('<ITEM PATH="1460768.1461520.72668575"/><ITEM PATH="7"/>')).toEqual([[1460768, 1461520, 72668575], [7]]);
  });

  it('reads a PATH written with a character reference', () => {
    expect(paths('<ITEM PATH="10&#46;30"/>')).toEqual([[10, 30]]);
  });

  it('gives −1 for an absent, empty or malformed PATH, or one longer than out', () => {
    expect(paths('<ITEM OBJECTID="1"/><ITEM PATH=""/><ITEM PATH="1..2"/><ITEM PATH="1.2."/><ITEM PATH="1.x"/><ITEM PATH="1.2.3"/>', 2)).toEqual([[-1], [-1], [-1], [-1], [-1], [-1]]);
  });
});
