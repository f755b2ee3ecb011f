/**
 * Damaged dictionary files (format/blob.ts's section checksums): random bytes written inside a copy of a real
 * built blob, the file's size unchanged, are refused at load with the file and the section named, by the file
 * reader (engine/blob-file.ts), the bytes reader (LoadedDictionary.fromBytes, the browser's) and the
 * server, which on a reload keeps the dictionaries it has serving and logs the refusal.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import * as zlib from 'node:zlib';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32 } from '../../../format/blob.js';
import { loadBlobFile, readBlobFile } from '../../../engine/blob-file.js';
import { BlobError, LoadedDictionary } from '../../../engine/dictionary.js';
import { configFromObject } from '../../../host/config.js';
import { loadEngineFactory, startServer } from '../../../host/server.js';
import { debugWasm, DICTIONARIES_DIR } from '../../helpers/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'blob-integrity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a seeded generator of bytes (mulberry32), so a failure repeats */
function randomBytes(count: number, seed: number): Buffer {
  const out = Buffer.alloc(count);
  let a = seed >>> 0;
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

/** every binary section of a blob file: path, where its bytes start, how many */
function binarySections(file: string): { path: string; offset: number; length: number }[] {
  const sections: { path: string; offset: number; length: number }[] = [];
  readBlobFile(file, (path, length, offset) => {
    sections.push({ path, offset, length });
    return 'skip';
  });
  return sections;
}

/** a copy of `source` with up to 4 KB of `seed`'s random bytes written at `offset`, the size unchanged */
function damagedCopy(source: string, name: string, offset: number, length: number, seed: number): string {
  const bytes = readFileSync(source);
  const noise = randomBytes(Math.min(4096, length, bytes.length - offset), seed);
  // random bytes equal to what they replace change nothing: make the first one differ
  if (noise[0] === bytes[offset]) noise[0] ^= 0xff;
  noise.copy(bytes, offset);
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('crc32(bytes, crc)', () => {
  it('agrees with zlib, whole or in pieces, on empty and odd lengths', () => {
    for (const length of [0, 1, 3, 4, 5, 1000, 4099]) {
      const bytes = randomBytes(length, length + 1);
      const expected = zlib.crc32 ? zlib.crc32(bytes) : crc32(bytes);
      expect(crc32(bytes)).toBe(expected);
      expect(crc32(bytes.subarray(Math.floor(length / 3)), crc32(bytes.subarray(0, Math.floor(length / 3))))).toBe(expected);
    }
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });
});

describe('loading a damaged dictionary', () => {
  const source = join(DICTIONARIES_DIR, 'ru.dict');
  const sections = binarySections(source);

  it('finds the real dictionary whole, with a checksum for every section', async () => {
    expect(sections.map((s) => s.path)).toEqual(expect.arrayContaining(['core.objects', 'core.trie', 'host.houses.fias', 'host.objects.name.text']));
    const sums = readBlobFile(source, () => 'skip') as unknown as Record<string, unknown>;
    expect(sums.checksums).toBeUndefined();
    await expect(loadBlobFile(source, await debugWasm())).resolves.toBeInstanceOf(LoadedDictionary);
  });

  it('refuses random bytes inside any binary section, naming the file and the section, from a file and from bytes', async () => {
    const wasm = await debugWasm();
    const damaged = sections.filter((s) => s.length > 0);
    expect(damaged.length).toBeGreaterThan(20);
    for (const [k, section] of damaged.entries()) {
      const offset = section.offset + Math.max(0, Math.floor((section.length - 4096) / 2));
      const file = damagedCopy(source, `section-${k}.dict`, offset, section.length - (offset - section.offset), k + 1);
      const refusal = new RegExp(`^${escape(file)}: section ${escape(section.path)} is damaged \\(CRC-32 [0-9a-f]{8}, the blob's checksum [0-9a-f]{8}\\); copy the file again`);
      await expect(loadBlobFile(file, wasm), section.path).rejects.toThrow(refusal);
      await expect(LoadedDictionary.fromBytes(readFileSync(file), wasm, file), section.path).rejects.toThrow(refusal);
    }
  });

  it('refuses the houses\' FIAS codes damaged when they are left in the file too', async () => {
    const fias = sections.find((s) => s.path === 'host.houses.fias')!;
    const file = damagedCopy(source, 'fias.dict', fias.offset, fias.length, 7);
    await expect(loadBlobFile(file, await debugWasm(), { houseCodes: 'file' })).rejects.toThrow(`${file}: section host.houses.fias is damaged`);
  });

  it('refuses 4 KB of random bytes anywhere in any of the four dictionaries, naming the file', async () => {
    const wasm = await debugWasm();
    for (const country of ['ru', 'kz', 'by', 'ua']) {
      const original = join(DICTIONARIES_DIR, `${country}.dict`);
      const size = readFileSync(original).length;
      for (let k = 0; k < 12; k++) {
        const offset = Math.floor(randomBytes(4, 100 + k).readUInt32LE() % (size - 16));
        const file = damagedCopy(original, `${country}-${k}.dict`, offset, 4096, 1000 + k);
        for (const load of [() => loadBlobFile(file, wasm), () => LoadedDictionary.fromBytes(readFileSync(file), wasm, file)]) {
          const error = await load().then(() => null, (err: unknown) => err);
          expect(error, `${country} at ${offset}`).toBeInstanceOf(BlobError);
          expect((error as Error).message.startsWith(`${file}: `), (error as Error).message).toBe(true);
        }
      }
    }
  });
});

describe('reloading a damaged dictionary', () => {
  it('keeps the loaded dictionaries answering and logs the refusal at error level', async () => {
    const served = mkdtempSync(join(dir, 'served-'));
    copyFileSync(join(DICTIONARIES_DIR, 'ru.dict'), join(served, 'ru.dict'));
    const lines: { level: number; msg: string; err?: { message: string } }[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
    const config = configFromObject({ dictionaries: { Dir: served } });
    const running = await startServer({ config, logger, createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
    try {
      const ask = () =>
        fetch(`${running.url}/api/v1/clean/address`, { method: 'POST', body: JSON.stringify({ query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' }) })
          .then(async (r) => ({ status: r.status, body: await r.json() }));
      const before = await ask();
      expect(before.status).toBe(200);
      const dictionary = running.app.services.engine.dictionary('ru');

      const fias = binarySections(join(served, 'ru.dict')).find((s) => s.path === 'host.houses.fias')!;
      const file = damagedCopy(join(served, 'ru.dict'), 'ru.dict', fias.offset, fias.length, 42);
      copyFileSync(file, join(served, 'ru.dict'));
      await running.reload();

      // the country keeps the very dictionary it was served from
      expect(running.app.services.engine.dictionary('ru') === dictionary).toBe(true);
      expect(await ask()).toEqual(before);
      const refusal = lines.find((line) => line.level === 50) as { msg: string; country?: string; reason?: string } | undefined;
      expect(refusal?.msg).toBe('dictionary not reloaded: the one loaded before stays in service');
      expect(refusal?.country).toBe('ru');
      expect(refusal?.reason).toMatch(new RegExp(`^${escape(join(served, 'ru.dict'))}: section host\\.houses\\.fias is damaged`));
    } finally {
      await running.close();
    }
  });
});
