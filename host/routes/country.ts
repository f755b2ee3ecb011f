/** The installed dictionary a request's country code names, or the error conventions.md prescribes. */
import { COUNTRY_INFO, parseCountryCode } from '../../engine/countries.js';
import type { Country, Dictionary, Engine } from '../../engine/types.js';
import { FailedPreconditionError, InvalidArgumentError } from '../errors.js';
import type { LicenseManager } from '../license.js';

const isAbsent = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Absent or empty: RU. Malformed: 400 code 3. Another ISO country: 400 code 9 naming it. */
export function parseCountryField(value: unknown, field: string): { country: Country | null; code: string } {
  const parsed = parseCountryCode(isAbsent(value) ? 'RU' : value);
  if (!parsed) {
    throw new InvalidArgumentError(`${field}: неизвестный код страны «${String(value)}», ожидается код ISO 3166-1 (RU, KZ, BY, UA).`);
  }
  return parsed;
}

export function requireDictionary(
  engine: Engine,
  value: unknown,
  options: { field?: string; license?: LicenseManager } = {},
): { country: Country; dictionary: Dictionary } {
  const { country, code } = parseCountryField(value, options.field ?? 'countryCode');
  const dictionary = country ? engine.dictionary(country) : null;
  if (!country || !dictionary) {
    const installed = engine.countries().map((c) => COUNTRY_INFO[c].alpha2).join(', ') || 'нет';
    const name = country ? `${COUNTRY_INFO[country].alpha2} (${COUNTRY_INFO[country].name})` : code;
    throw new FailedPreconditionError(`справочник страны ${name} не установлен; установлены: ${installed}.`);
  }
  options.license?.assertAllows(country);
  return { country, dictionary };
}
