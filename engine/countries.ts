/**
 * Country codes as clients send them (ISO 3166-1 alpha-2, alpha-3 or numeric, any case) resolved to a
 * dictionary slot, and the `country` object of AddressRecord.
 */
import type { Country } from './types.js';

export interface CountryInfo {
  name: string;
  alpha2: string;
  alpha3: string;
  numeric: number;
}

export const COUNTRY_INFO: Record<Country, CountryInfo> = {
  ru: { name: 'Россия', alpha2: 'RU', alpha3: 'RUS', numeric: 643 },
  kz: { name: 'Казахстан', alpha2: 'KZ', alpha3: 'KAZ', numeric: 398 },
  by: { name: 'Беларусь', alpha2: 'BY', alpha3: 'BLR', numeric: 112 },
  ua: { name: 'Украина', alpha2: 'UA', alpha3: 'UKR', numeric: 804 },
};

/** The answer for each code of the countries above as written in upper case (`RU`, `RUS`, `643`), shared. */
const BY_CODE = new Map<string, { country: Country; code: string }>();
for (const [country, info] of Object.entries(COUNTRY_INFO) as [Country, CountryInfo][]) {
  for (const code of [info.alpha2, info.alpha3, String(info.numeric)]) BY_CODE.set(code, Object.freeze({ country, code }));
}

/** `RU`, `ru`, `RUS`, `643`, 643 → 'ru'; another well-formed ISO code → its upper-case form; else null. */
export function parseCountryCode(value: unknown): { country: Country | null; code: string } | null {
  // nearly every request names its country as written here: no trim, case mapping or pattern for it
  const known = typeof value === 'string' ? BY_CODE.get(value) : undefined;
  if (known !== undefined) return known;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!/^([A-Z]{2,3}|\d{1,3})$/.test(text)) return null;
  const code = /^\d+$/.test(text) ? text.padStart(3, '0') : text;
  return BY_CODE.get(code) ?? { country: null, code };
}
