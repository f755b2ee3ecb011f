/** decodeCp1251 (cli/batch/sniff.ts): Excel's Russian CSV read as iconv-lite's win1251 table reads it. */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeCp1251 } from '../../../../cli/batch/sniff.js';

describe('decodeCp1251(bytes)', () => {
  it('reads every byte as iconv-lite does, the undefined 0x98 included', () => {
    const every = Uint8Array.from({ length: 256 }, (_, byte) => byte);
    expect(decodeCp1251(every)).toBe(iconv.decode(Buffer.from(every), 'win1251'));
  });

  it('reads a line as Excel writes it', () => {
    const line = iconv.encode('Москва;ул. Тверская, д. 1 «Ё»\r\n', 'win1251');
    expect(decodeCp1251(line)).toBe('Москва;ул. Тверская, д. 1 «Ё»\r\n');
  });
});
