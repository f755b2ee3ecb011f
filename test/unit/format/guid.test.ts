/**
 * format/guid.ts: a GUID is 32 hex digits in any case, a dash allowed before the 9th, 13th, 17th and 21st
 * (8-4-4-4-12); guidInto reads it from the char codes, guidText writes it back in lower case with dashes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guidInto, guidText } from '../../../format/guid.js';

/** the shape as a regular expression, and the bytes as the hex pairs say: the reference guidInto must match */
const SHAPE = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const reference = (text: string): number[] | null =>
  SHAPE.test(text) ? Array.from({ length: 16 }, (_, i) => Number.parseInt(text.replace(/-/g, '').slice(i * 2, i * 2 + 2), 16)) : null;

const hexChar = fc.constantFrom(...'0123456789abcdefABCDEF');
const nearGuid = fc
  .tuple(
    fc.array(hexChar, { minLength: 30, maxLength: 34 }),
    fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    fc.constantFrom('', 'g', '-', ' ', '--', 'Ж'),
    fc.nat(40),
  )
  .map(([digits, dashes, noise, at]) => {
    let text = '';
    digits.forEach((d, i) => {
      if ([8, 12, 16, 20].includes(i) && dashes[[8, 12, 16, 20].indexOf(i)]) text += '-';
      text += d;
    });
    return text.slice(0, at) + noise + text.slice(at);
  });

describe('guidInto(text, out, at)', () => {
  it('accepts exactly the 8-4-4-4-12 shape (dashes optional, any case) and writes its bytes, leaving out untouched otherwise', () => {
    fc.assert(
      fc.property(fc.oneof(nearGuid, fc.uuid(), fc.string({ maxLength: 40 })), (text) => {
        const out = new Uint8Array(20).fill(7);
        const want = reference(text);
        expect(guidInto(text, out, 2)).toBe(want !== null);
        expect([...out]).toEqual(want === null ? new Array(20).fill(7) : [7, 7, ...want, 7, 7]);
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips with guidText in lower case with dashes', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        const out = new Uint8Array(16);
        expect(guidInto(uuid.toUpperCase().replace(/-/g, ''), out, 0)).toBe(true);
        expect(guidText(out, 0)).toBe(uuid === '00000000-0000-0000-0000-000000000000' ? '' : uuid);
      }),
    );
  });
});

describe('guidText(bytes, row)', () => {
  it('writes any 16 bytes at a row as their hex digits, 8-4-4-4-12, and all zero or past the end as empty', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 64 }), fc.integer({ min: -1, max: 4 }), (bytes, row) => {
        const at = row * 16;
        const own = at >= 0 && at + 16 <= bytes.length ? bytes.subarray(at, at + 16) : null;
        const hex = own ? Buffer.from(own).toString('hex') : '';
        const want = own && own.some((byte) => byte !== 0) ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : '';
        expect(guidText(bytes, row)).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });
});
