import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { openZip } from '../../../../dictionaries/io/zip.js';

const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
const TEXT = Buffer.from('<ITEMS>' + '<ITEM ID="1" NAME="Байконур" />'.repeat(20_000) + '</ITEMS>', 'utf8');

async function writeZip(file: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(TEXT, '01/AS_ITEMS.XML', { mtime: new Date(0) });
  zip.addBuffer(TEXT, 'stored.XML', { compress: false, mtime: new Date(0) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  writeFileSync(file, bytes);
  return bytes;
}

async function readAll(file: string, name: string): Promise<Buffer[]> {
  const zip = await openZip(file);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.open(zip.entries.find((e) => e.fileName === name)!)) chunks.push(chunk as Buffer);
    return chunks;
  } finally {
    zip.close();
  }
}

describe('openZip(path)', () => {
  let good: Buffer;
  beforeAll(async () => {
    good = await writeZip(join(dir, 'good.zip'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('inflates an entry in chunks of up to 256 KB, and reads a stored one', async () => {
    const chunks = await readAll(join(dir, 'good.zip'), '01/AS_ITEMS.XML');
    expect(Buffer.concat(chunks).equals(TEXT)).toBe(true);
    expect(Math.max(...chunks.map((c) => c.length))).toBe(256 * 1024);
    expect(Buffer.concat(await readAll(join(dir, 'good.zip'), 'stored.XML')).equals(TEXT)).toBe(true);
  });

  it('reads an empty entry as no bytes', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.alloc(0), 'empty.XML', { compress: false, mtime: new Date(0) });
    zip.addBuffer(Buffer.alloc(0), 'empty-deflated.XML', { mtime: new Date(0) });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    writeFileSync(join(dir, 'empty.zip'), Buffer.concat(chunks));
    expect(Buffer.concat(await readAll(join(dir, 'empty.zip'), 'empty.XML')).length).toBe(0);
    expect(Buffer.concat(await readAll(join(dir, 'empty.zip'), 'empty-deflated.XML')).length).toBe(0);
  });

  it('fails naming the archive and the entry when the directory gives more stored bytes than the file has', async () => {
    const long = Buffer.from(good);
    // the first central directory record: compressed size at +20
    const record = long.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    long.writeUInt32LE(0x7fffffff, record + 20);
    writeFileSync(join(dir, 'long.zip'), long);
    await expect(readAll(join(dir, 'long.zip'), '01/AS_ITEMS.XML')).rejects.toThrow(`${join(dir, 'long.zip')}: cannot open 01/AS_ITEMS.XML`);
  });

  it('fails naming the archive and the entry when the deflate data is broken', async () => {
    const broken = Buffer.from(good);
    broken.fill(0xff, 200, 260);
    writeFileSync(join(dir, 'broken.zip'), broken);
    await expect(readAll(join(dir, 'broken.zip'), '01/AS_ITEMS.XML')).rejects.toThrow(/invalid|incorrect|unexpected/i);
  });

  it('fails when the entry does not inflate to the size the directory gives', async () => {
    const lying = Buffer.from(good);
    // the first central directory record (signature PK\1\2): uncompressed size at +24
    const record = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(lying.readUInt32LE(record + 24) + 1, record + 24);
    writeFileSync(join(dir, 'lying.zip'), lying);
    await expect(readAll(join(dir, 'lying.zip'), '01/AS_ITEMS.XML')).rejects.toThrow(
      `${join(dir, 'lying.zip')}: 01/AS_ITEMS.XML: ${TEXT.length} bytes inflated, the zip directory gives ${TEXT.length + 1}`,
    );
    expect(readFileSync(join(dir, 'good.zip')).equals(good)).toBe(true);
  });
});
