import { describe, expect, it } from 'vitest';
import { parseCountryCode } from '../../../engine/countries.js';

describe('parseCountryCode(value)', () => {
  it('accepts alpha-2, alpha-3 and numeric codes in any case', () => {
    for (const value of ['RU', 'ru', 'Rus', '643', 643]) expect(parseCountryCode(value)?.country).toBe('ru');
    expect(parseCountryCode('kaz')?.country).toBe('kz');
    expect(parseCountryCode('112')?.country).toBe('by');
    expect(parseCountryCode('UA')?.country).toBe('ua');
  });

  it('keeps another well-formed code without a slot and refuses garbage', () => {
    expect(parseCountryCode('DE')).toEqual({ country: null, code: 'DE' });
    expect(parseCountryCode('Russia')).toBeNull();
    expect(parseCountryCode({})).toBeNull();
  });
});

describe('parseCountryCode(value) for the codes as written', () => {
  it('answers the shared result of an installed code as written, equal to what the full reading gives', () => {
    for (const value of ['RU', 'RUS', '643', 'KZ', 'KAZ', '398', 'BY', 'BLR', '112', 'UA', 'UKR', '804']) {
      const answer = parseCountryCode(value);
      expect(answer).toEqual(parseCountryCode(` ${value.toLowerCase()} `));
      expect(answer?.code).toBe(value);
      expect(parseCountryCode(value)).toBe(answer);
      expect(Object.isFrozen(answer)).toBe(true);
    }
  });
});
