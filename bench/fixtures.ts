/**
 * Query fixtures every bench shares. The realistic queries come from the evaluation set, read at run
 * time (`EVAL_FILE`, default ../shared/eval/dev.jsonl beside the repository) and never copied into the
 * repository; when it is absent the benches fall back to the short handwritten lists below, and say so.
 * Everything is deterministic: same file, same order, same derived strings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Country } from '../engine/types.js';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const EVAL_FILE = resolve(ROOT, process.env.EVAL_FILE ?? '../shared/eval/dev.jsonl');

export interface EvalCase {
  id: string;
  endpoint: 'clean' | 'suggest' | 'idsearch' | 'geosearch';
  countryCode: string;
  query?: string;
  count?: number;
  latitude?: number;
  longitude?: number;
  addresslevel?: string;
  radius?: number;
  kinds: string[];
  expect: Record<string, unknown>;
}

let cached: EvalCase[] | null = null;

/** The evaluation cases, or [] when the file is absent. */
export function evalCases(): EvalCase[] {
  if (cached) return cached;
  cached = existsSync(EVAL_FILE)
    ? readFileSync(EVAL_FILE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as EvalCase)
    : [];
  return cached;
}

export function fixtureSource(): string {
  return evalCases().length ? `${EVAL_FILE} (${evalCases().length} cases)` : 'handwritten fallback (no eval file)';
}

/** Handwritten messy queries over what the default dictionaries hold (fallback only). */
const FALLBACK_CLEAN: { country: Country; query: string; kinds: string[] }[] = [
  { country: 'ru', query: 'г Байконур , ул Гагарина , д. 5', kinds: [] },
  { country: 'ru', query: 'байкоур город,Горького у.,5а', kinds: ['typo'] },
  { country: 'ru', query: 'ул Горького , 26а , г. Байконур, офис на 2 этаже', kinds: ['noise', 'reorder'] },
  { country: 'ru', query: 'байконур, ул горького, д10, кв. 115', kinds: ['flat', 'lower'] },
  { country: 'ru', query: 'г. Байконур улица Горькогго д 2 468321', kinds: ['postcode', 'typo'] },
  { country: 'ru', query: 'Академка Королева просп., д 20, Байконур', kinds: ['typo', 'reorder'] },
  { country: 'ru', query: 'Екатеринбург, ул. Серафимы Дерябиной, 24 кв 7', kinds: ['flat'] },
  { country: 'ru', query: 'ekaterinburg ulitsa gagarina 49', kinds: ['translit'] },
  { country: 'ru', query: 'trfnthby,ehu ufufhbyf 49', kinds: ['layout'] },
  { country: 'ru', query: 'город Ярославль', kinds: [] },
];

const FALLBACK_SUGGEST = ['екатеринбург серафимы дерябин', 'екатеринбург крсаных команди', 'байконур гагар', 'ярослав', 'trfnthby,ehu ufufhbyf 49'];

const FALLBACK_HOUSE = [
  'д 10а', 'дом53', 'д.20-18', '11/-89', '10к2', '10 к 2', '10 корп. 2', '10с12', 'стр. 2', 'лит А', 'двлд. 4',
  'ЭТ 8 БЛОК Г ОФ 839', 'кв. 126', '3-122', 'д. 5 корп. 1 стр. 2 кв. 17', '123456, д 7, кв 3',
];

const country = (code: string): Country => code.toLowerCase() as Country;

/** Free-text addresses of the clean endpoint (RU and UA), in file order. */
export function cleanQueries(): { country: Country; query: string; kinds: string[] }[] {
  const cases = evalCases().filter((c) => c.endpoint === 'clean' && c.query);
  if (!cases.length) return FALLBACK_CLEAN;
  return cases.map((c) => ({ country: country(c.countryCode), query: c.query!, kinds: c.kinds }));
}

/** Partial addresses of the suggest endpoint, with the street a good hint should name (when known). */
export function suggestQueries(): { query: string; count: number; streetName: string | null }[] {
  const cases = evalCases().filter((c) => c.endpoint === 'suggest' && c.query);
  if (!cases.length) return FALLBACK_SUGGEST.map((query) => ({ query, count: 5, streetName: null }));
  return cases.map((c) => ({ query: c.query!, count: c.count ?? 5, streetName: (c.expect.street_name as string) ?? null }));
}

/** Points of the geosearch endpoint (house level, 100 m). */
export function geoPoints(): { lat: number; lon: number }[] {
  return evalCases()
    .filter((c) => c.endpoint === 'geosearch' && c.latitude !== undefined && c.longitude !== undefined)
    .map((c) => ({ lat: c.latitude!, lon: c.longitude! }));
}

/** A small deterministic PRNG (mulberry32), so derived fixtures are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface HouseFixture {
  text: string;
  /** the parts the string was written from (null for the handwritten ones) */
  expect: { house: string; case: string; build: string; flat: string } | null;
}

/**
 * House strings as people write them: the house, case, build and flat of every clean case, each written in
 * one of several spellings (`д. 5 корп. 2 кв. 17`, `5к2 кв17`, `дом 5 корпус 2 квартира 17`, `5-17`, with or
 * without a postcode), plus the handwritten grammar examples.
 */
export function houseStrings(): HouseFixture[] {
  const random = rng(8);
  const out: HouseFixture[] = FALLBACK_HOUSE.map((text) => ({ text, expect: null }));
  const seen = new Set<string>();
  for (const c of evalCases()) {
    if (c.endpoint !== 'clean' || !c.expect.house) continue;
    const e = { house: String(c.expect.house), case: String(c.expect.case ?? ''), build: String(c.expect.build ?? ''), flat: String(c.expect.flat ?? '') };
    const key = `${e.house}|${e.case}|${e.build}|${e.flat}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const style = Math.floor(random() * 4);
    let text: string;
    if (style === 0) text = `д. ${e.house}${e.case ? ` корп. ${e.case}` : ''}${e.build ? ` стр. ${e.build}` : ''}${e.flat ? `, кв. ${e.flat}` : ''}`;
    else if (style === 1) text = `${e.house}${e.case ? `к${e.case}` : ''}${e.build ? `с${e.build}` : ''}${e.flat ? ` кв${e.flat}` : ''}`;
    else if (style === 2) text = `дом ${e.house}${e.case ? ` корпус ${e.case}` : ''}${e.build ? ` строение ${e.build}` : ''}${e.flat ? ` квартира ${e.flat}` : ''}`;
    else text = `д ${e.house}${e.case ? ` к ${e.case}` : ''}${e.build ? ` с ${e.build}` : ''}${e.flat ? `-${e.flat}` : ''}`;
    if (random() < 0.25 && c.expect.postcode) text = `${c.expect.postcode}, ${text}`;
    out.push({ text, expect: e });
  }
  return out;
}

/** Address text without a house part (city and street only): what the tokenizer alone sees. */
export function nameOnlyStrings(): string[] {
  const out: string[] = [];
  for (const { query } of cleanQueries()) {
    const cut = query.replace(/[,\s]*(?:д\.?|дом|№)?\s*\d.*$/iu, '').trim();
    if (cut.length >= 6) out.push(cut);
  }
  return out.length ? out : ['г Байконур, ул Гагарина', 'Екатеринбург улица Серафимы Дерябиной', 'город Ярославль'];
}
