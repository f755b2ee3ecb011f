import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BackgroundWriter } from '../../../../dictionaries/io/background-write.js';

describe('BackgroundWriter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'background-write-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the bytes in order across its buffers, the caller reusing its chunk at once', async () => {
    const file = join(dir, 'out.bin');
    const writer = new BackgroundWriter(file);
    const chunk = new Uint8Array(3 * 2 ** 20 + 7);
    const expected: Buffer[] = [];
    // 40 chunks of 3 MB: ten times its four buffers of 8 MB, each chunk split across two of them now and then
    for (let i = 0; i < 40; i++) {
      for (let k = 0; k < chunk.length; k += 4096) chunk[k] = (i * 31 + k) & 255;
      chunk[chunk.length - 1] = i;
      writer.write(chunk.subarray(0, chunk.length - (i % 5)));
      expected.push(Buffer.from(chunk.subarray(0, chunk.length - (i % 5))));
    }
    writer.write(new Uint8Array(0));
    await writer.close();
    const written = readFileSync(file);
    expect(writer.bytes).toBe(written.length);
    expect(written.equals(Buffer.concat(expected))).toBe(true);
  });

  it('fails with the cause when the file cannot be written', async () => {
    const writer = new BackgroundWriter(join(dir, 'no-such-dir', 'out.bin'));
    await expect(
      (async () => {
        for (let i = 0; i < 8; i++) writer.write(new Uint8Array(8 * 2 ** 20));
        await writer.close();
      })(),
    ).rejects.toThrow(/out\.bin: writing the file failed: ENOENT/);
    await writer.abort();
  });

  it('fails, not waits for ever, when its thread has stopped', async () => {
    const writer = new BackgroundWriter(join(dir, 'stopped.bin'));
    await writer.abort();
    expect(() => {
      for (let i = 0; i < 8; i++) writer.write(new Uint8Array(8 * 2 ** 20));
    }).toThrow(/stopped\.bin: writing the file failed: the writer thread stopped/);
  });
});
