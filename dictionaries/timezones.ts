/**
 * Time zones of the countries whose registries carry none (KATO, KATOTTG, GeoNames), in the records' form (`UTC+5`,
 * conventions.md), given to every region the merge leaves without one (merge/top-down.ts; its places inherit it).
 * Russia's come per region and city from hflabs and are not touched. Standard time, as IANA's zones give it:
 * - Kazakhstan: one zone, UTC+5, since 1 March 2024 (tzdata 2024a: Asia/Almaty and Asia/Qostanay joined the west);
 * - Belarus: UTC+3 all year (Europe/Minsk);
 * - Ukraine: UTC+2 (Europe/Kyiv, standard time; summer time is not in this form), except the Crimea and Sevastopol,
 *   whose clocks run at UTC+3 (Europe/Simferopol).
 */
import type { ModelSink } from './source-model.js';

type Country = ModelSink['country'];

const COUNTRY_ZONE: Partial<Record<Country, string>> = { kz: 'UTC+5', by: 'UTC+3', ua: 'UTC+2' };

/** regions whose zone is not their country's, by their name in the registry */
const REGION_ZONE: Partial<Record<Country, Record<string, string>>> = { ua: { 'Крим': 'UTC+3', 'Севастополь': 'UTC+3' } };

/** The time zone of a region of `country` named `name` that its registry gives none, `undefined` when unknown. */
export function regionTimezone(country: Country, name: string): string | undefined {
  return REGION_ZONE[country]?.[name] ?? COUNTRY_ZONE[country];
}
