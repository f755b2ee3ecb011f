import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CADNUM_EXCEPTION, decodeCadnum, encodeCadnum } from '../../../format/cadnum.js';

const roundTrip = (text: string, other: string[] = []) => {
  const words = new Uint32Array(2);
  encodeCadnum(text, words, 0, other);
  return { text: decodeCadnum(words, 0, other), words, other };
};

describe('encodeCadnum / decodeCadnum', () => {
  it('packs Rosreestr numbers with 6- and 7-digit quarters into two words', () => {
    for (const text of ['77:01:0001001:1234', '99:01:000000:1', '01:00:0000000:0', '66:41:0707001:33554431']) {
      const { text: back, words, other } = roundTrip(text);
      expect(back).toBe(text);
      expect(words[0] & 127).not.toBe(CADNUM_EXCEPTION);
      expect(other).toEqual([]);
    }
  });

  it('keeps numbers of another shape as text', () => {
    for (const text of ['77:01:0001001:01', '77:01:0001001:33554432', '77:01:01:5', '77:01:0001001:12:34', 'ab']) {
      const { text: back, words, other } = roundTrip(text);
      expect(back).toBe(text);
      expect(words[0]).toBe(CADNUM_EXCEPTION);
      expect(other).toEqual([text]);
    }
  });

  it('reads no number as the empty string', () => {
    expect(roundTrip('').text).toBe('');
    expect(decodeCadnum(new Uint32Array(0), 0, [])).toBe('');
  });

  it('packs what the shape `AA:BB:QQQQQQ[Q]:N` says is canonical, and nothing else, for any text', () => {
    const CANONICAL = /^(\d{2}):(\d{2}):(\d{6,7}):([1-9]\d{0,7}|0)$/;
    const piece = fc.oneof(fc.stringMatching(/^\d{0,9}$/), fc.constantFrom(':', '0', '', 'а', ' ', '::', '٣'));
    // free pieces, or four groups of 0–9 digits (near the shape: wrong widths, leading zeros, N past 2^25)
    const group = fc.stringMatching(/^\d{0,9}$/);
    const near = fc.tuple(group, group, group, group).map((groups) => [groups.join(':')]);
    fc.assert(
      fc.property(fc.oneof(fc.array(piece, { maxLength: 9 }), near), (pieces) => {
        const text = pieces.join('');
        const m = CANONICAL.exec(text);
        const canonical = m !== null && Number(m[4]) < 1 << 25;
        const { text: back, words, other } = roundTrip(text);
        expect(back).toBe(text);
        expect(text === '' || (words[0] !== CADNUM_EXCEPTION) === canonical).toBe(true);
        expect(other).toEqual(text !== '' && !canonical ? [text] : []);
      }),
      { numRuns: 5000 },
    );
  });

  it('round-trips any canonical number', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`));
    fc.assert(
      fc.property(digits(2, 2), digits(2, 2), digits(6, 7), fc.integer({ min: 0, max: (1 << 25) - 1 }), (a, b, q, n) => {
        const text = `${a}:${b}:${q}:${n}`;
        expect(roundTrip(text).text).toBe(text);
      }),
    );
  });
});
