import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { letterCount } from '../../../engine/hint-letters.js';

/**
 * The count as the patterns give it: every `\p{L}` code point, and the layout keys (; , . [ ] ' `) of every run of
 * Latin letters and such keys that holds a Latin letter.
 */
const patternCount = (text: string, enough: number) => {
  const keys = [...text.matchAll(/[A-Za-z;,.[\]'`]+/g)]
    .filter((run) => /[A-Za-z]/.test(run[0]))
    .reduce((n, run) => n + run[0].replace(/[A-Za-z]/g, '').length, 0);
  return Math.min(enough, [...text.matchAll(/\p{L}/gu)].length + keys);
};

describe('letterCount(text, enough)', () => {
  it('counts Latin, Russian and other letters, not digits, signs or marks', () => {
    expect(letterCount('мск сухонска 11/-89')).toBe(11);
    expect(letterCount('moskva tverskaya 7')).toBe(15);
    expect(letterCount('Ёлки ёж')).toBe(6);
    expect(letterCount('Қарағанды')).toBe(9);
    expect(letterCount('ул. 1-я 2')).toBe(3);
    expect(letterCount('𝒜𝒷c')).toBe(3);
    expect(letterCount('12 — 34', 3)).toBe(0);
    expect(letterCount('москва', 3)).toBe(3);
  });

  it('counts the keys that type Russian letters in the Latin layout, in a run with a Latin letter', () => {
    expect(letterCount(',k.[t')).toBe(5); // блюхе
    expect(letterCount('.;f')).toBe(3); // южа
    expect(letterCount('ул. 1-я 2')).toBe(3);
    expect(letterCount('.,; 12')).toBe(0);
    expect(letterCount('a. b')).toBe(3);
  });

  it('is the patterns\' count, capped at enough, for any text (lone surrogates, astral letters, combining marks)', () => {
    const unit = fc.oneof(
      fc.constantFrom('а', 'Ё', 'ё', 'z', 'Z', '@', '[', '`', '{', ',', '.', ';', '1', ' ', '-', 'Қ', 'ß', '\u0301', '\ud835', '\udc9c', '𝒜', '٣', 'ǅ'),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }).map((parts) => parts.join('')), fc.integer({ min: 0, max: 8 }), (text, enough) => {
        expect(letterCount(text, enough)).toBe(patternCount(text, enough));
        expect(letterCount(text)).toBe(patternCount(text, Infinity));
      }),
      { numRuns: 3000 },
    );
  });
});
