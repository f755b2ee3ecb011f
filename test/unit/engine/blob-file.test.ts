/**
 * readBlobFile / loadBlobFile (engine/blob-file.ts): a blob file read section by section loads the same
 * dictionary as its bytes read whole (LoadedDictionary.fromBytes), for each of the four real dictionaries;
 * a file that is cut short, of another magic or format, or not msgpack at all is refused with the file named.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack } from 'msgpackr';
import { afterAll, describe, expect, it } from 'vitest';
import { BLOB_MAGIC } from '../../../format/blob.js';
import { loadBlobFile, readBlobFile } from '../../../engine/blob-file.js';
import { BlobError, LoadedDictionary } from '../../../engine/dictionary.js';
import { AddressEngine } from '../../../engine/engine.js';
import { debugWasm, DICTIONARIES_DIR } from '../../helpers/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'blob-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ids spread over `count` (first, last and a stride between) */
function sample(count: number, n = 97): number[] {
  const ids = new Set<number>([0, count - 1]);
  for (let i = 0; i < n; i++) ids.add(Math.floor((i * count) / n));
  return [...ids].filter((id) => id >= 0 && id < count);
}

const QUERIES: Record<string, string[]> = {
  ru: ['екб первомайская 95 кв 3', 'москва тверская 7', 'байконур гагарина 5', 'г Байконур, ул Горького, 5а'],
  kz: ['алматы', 'астана'],
  by: ['минск независимости 4', 'минск'],
  ua: ['київ саксаганського 1', 'київ'],
};

describe('loadBlobFile(file, wasm)', () => {
  for (const country of ['ru', 'kz', 'by', 'ua'] as const) {
    it(`loads ${country}.dict as its bytes load, record for record and answer for answer`, async () => {
      const file = join(DICTIONARIES_DIR, `${country}.dict`);
      const wasm = await debugWasm();
      const whole = await LoadedDictionary.fromBytes(readFileSync(file), wasm, file);
      const streamed = await loadBlobFile(file, wasm);
      for (const field of ['country', 'sourceDate', 'buildId', 'objectCount', 'houseCount', 'apartmentCount', 'municipalCount', 'variant'] as const) {
        expect(streamed[field], field).toEqual(whole[field]);
      }
      expect(streamed.houseCount + streamed.objectCount).toBeGreaterThan(0);
      expect(streamed.counts).toEqual(whole.counts);
      expect(streamed.metro).toEqual(whole.metro);
      for (const id of sample(streamed.objectCount)) expect(streamed.object(id)).toEqual(whole.object(id));
      for (const id of sample(streamed.houseCount)) expect(streamed.house(id)).toEqual(whole.house(id));
      for (const id of sample(streamed.apartmentCount, 11)) expect(streamed.apartment(id)).toEqual(whole.apartment(id));
      const a = new AddressEngine([whole]);
      const b = new AddressEngine([streamed]);
      for (const query of QUERIES[country]) {
        expect(b.standardize(country, query)).toEqual(a.standardize(country, query));
        expect(b.suggest(country, query, 10)).toEqual(a.suggest(country, query, 10));
      }
    });
  }
});

describe('loadBlobFile(file, wasm, { houseCodes })', () => {
  it('reads the house codes from the file as it would hold them, and finds houses by them, until closed', async () => {
    const file = join(DICTIONARIES_DIR, 'ru.dict');
    const wasm = await debugWasm();
    const memory = await loadBlobFile(file, wasm, { houseCodes: 'memory' });
    const cold = await loadBlobFile(file, wasm, { houseCodes: 'file' });
    // the real ru dictionary is below the `auto` threshold: its codes stay in memory
    const auto = await loadBlobFile(file, wasm, { houseCodes: 'auto' });
    expect([memory.coldHouseCodes, cold.coldHouseCodes, auto.coldHouseCodes]).toEqual([false, true, false]);
    let withCodes = 0;
    for (let id = 0; id < memory.houseCount; id++) {
      const house = memory.house(id);
      expect(cold.house(id)).toEqual(house);
      const { parent, number, block, building, liter, construction } = house;
      expect(cold.houseLabel(id)).toEqual({ parent, number, block, building, liter, construction });
      if (house.codes.fias && house.codes.gar) withCodes++;
      if (id % 7 !== 0) continue;
      for (const [kind, code] of [['FIAS', house.codes.fias], ['GAR', house.codes.gar]] as const) {
        if (code) expect(cold.findById(kind, code), `${kind} ${code}`).toEqual(memory.findById(kind, code));
      }
    }
    expect(withCodes).toBeGreaterThan(500);
    expect(cold.findById('FIAS', '0badcafe-0000-4000-8000-000000000099')).toBeNull();
    expect(cold.findById('GAR', '4294967295')).toEqual(memory.findById('GAR', '4294967295'));
    cold.close();
    expect(() => cold.house(0)).toThrow(/ru\.dict: read after the dictionary was closed/);
    // objects are not in the file: still answered
    expect(cold.object(0)).toEqual(memory.object(0));
  });
});

describe('readBlobFile(file)', () => {
  const ru = () => readFileSync(join(DICTIONARIES_DIR, 'ru.dict'));

  it('refuses a file cut short, naming the file and the byte where it ends', () => {
    const bytes = ru();
    for (const length of [0, 5, 200, Math.floor(bytes.length / 2), bytes.length - 3]) {
      const file = join(dir, `cut-${length}.dict`);
      writeFileSync(file, bytes.subarray(0, length));
      expect(() => readBlobFile(file), String(length)).toThrow(BlobError);
      expect(() => readBlobFile(file)).toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a dictionary blob \\(cut short at byte ${length} of ${length}\\)`));
    }
  });

  it('leaves no file open when a file whose sections were left in it turns out cut short, and one open while in use', () => {
    const bytes = ru();
    const file = join(dir, 'cut-cold.dict');
    writeFileSync(file, bytes.subarray(0, bytes.length - 3));
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 5; i++) expect(() => readBlobFile(file, (path) => (path.startsWith('host.houses.') ? 'cold' : null))).toThrow(BlobError);
    expect(open()).toBe(before);
    const whole = readBlobFile(join(DICTIONARIES_DIR, 'ru.dict'), (path) => (path === 'host.houses.fias' ? 'cold' : null));
    expect(open()).toBe(before + 1);
    whole.close?.();
    expect(open()).toBe(before);
  });

  it('refuses another magic and another format before reading the rest, as fromBytes does', async () => {
    const other = join(dir, 'other.dict');
    writeFileSync(other, pack({ magic: 'SOMETHING', format: 4, core: { objects: new Uint8Array(40) } }));
    expect(() => readBlobFile(other)).toThrow(/other\.dict: not a dictionary blob \(bad magic\); rebuild it with npm run dict:build/);
    const old = join(dir, 'old.dict');
    writeFileSync(old, pack({ magic: BLOB_MAGIC, format: 2, core: {} }));
    expect(() => readBlobFile(old)).toThrow(/old\.dict: dictionary format 2, this service reads format 5; rebuild it with npm run dict:build/);
    await expect(LoadedDictionary.fromBytes(readFileSync(old), await debugWasm(), old)).rejects.toThrow(/dictionary format 2, this service reads format 5/);
  });

  it('refuses what is not msgpack, and bytes after the blob', () => {
    const text = join(dir, 'text.dict');
    writeFileSync(text, 'hello, this is not a dictionary');
    expect(() => readBlobFile(text)).toThrow(/text\.dict: not a dictionary blob/);
    const junk = join(dir, 'junk.dict');
    writeFileSync(junk, Buffer.from([0x82, 0xc1, 0x00, 0x00]));
    expect(() => readBlobFile(junk)).toThrow(/junk\.dict: not a dictionary blob \(byte 0xc1 at 1 starts no msgpack value\)/);
    const trailing = join(dir, 'trailing.dict');
    writeFileSync(trailing, Buffer.concat([ru(), Buffer.from([0xc0])]));
    expect(() => readBlobFile(trailing)).toThrow(/trailing\.dict: not a dictionary blob \(1 bytes after the end\)/);
  });

  it('reads sections the caller does not place into buffers of their own, whole', () => {
    const blob = readBlobFile(join(DICTIONARIES_DIR, 'by.dict'));
    const objects = blob.core.objects;
    expect(objects.byteOffset).toBe(0);
    expect(objects.byteLength).toBe(objects.buffer.byteLength);
    expect(objects.byteLength % 40).toBe(0);
    expect(blob.host.types.length).toBeGreaterThan(10);
  });

  it("skips the sections its caller answers 'skip' for, and reads the rest as if they were read", () => {
    const file = join(DICTIONARIES_DIR, 'ru.dict');
    const whole = readBlobFile(file);
    const sizes = new Map<string, number>();
    const skipped = readBlobFile(file, (path, byteLength) => {
      sizes.set(path, byteLength);
      return path.startsWith('core.') || path === 'host.objects.kladr.text' ? 'skip' : null;
    });
    expect(sizes.get('core.houses')).toBe(whole.core.houses.byteLength);
    expect(sizes.size).toBeGreaterThan(40);
    expect(skipped.core).toEqual({});
    expect(skipped.host.houses).toEqual(whole.host.houses);
    expect(skipped.host.objects.name).toEqual(whole.host.objects.name);
    const kladr = (blob: typeof whole) => blob.host.objects.kladr as { text?: Uint8Array; ends: Uint8Array };
    expect(kladr(skipped).text).toBeUndefined();
    expect(sizes.get('host.objects.kladr.text')).toBe(kladr(whole).text!.byteLength);
    expect(kladr(skipped).ends).toEqual(kladr(whole).ends);
    expect(skipped.sources).toEqual(whole.sources);
    expect(skipped.buildId).toBe(whole.buildId);
  });
});
