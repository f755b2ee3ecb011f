/**
 * Accuracy probe: `npx tsx scripts/probe-accuracy.ts [--seed 7] [--per-source 160] [--show-misses 40] [--kind typo]
 * [--wasm old.wasm] [--dictionaries old/] [--worse] [--cases-out cases.jsonl]`
 * makes new queries of the kinds of messiness in the evaluation's dev set (typo, layout, translit,
 * abbreviations, reordering, missing types and city, flats, postcodes, noise, case, and several at once) from addresses of the
 * built dictionaries that dev.jsonl does not hold — GAR houses of region 99, OSM houses of Екатеринбург,
 * Москва, Санкт-Петербург, Владивосток, Минск and Київ, OsmAnd's town points (many towns, one street name)
 * and hflabs cities — runs them through the engine in
 * process and prints the accuracy per kind and per source, then the misses. A house case is right when the
 * engine picks the house (or one with the same number on the same street: OSM repeats some addresses) and
 * parses the flat; a city case when the city (or settlement) level is the city; a hint case when the house is
 * among the first five hints. An address another street of the same name shares (`ул Ленина 5` in many towns)
 * is always written with its town. The seed fixes the sample and the corruptions, so runs are repeatable.
 * `--worse` adds the kinds `w-…` of worse typing, one class each (sound-alike spellings, two slips, glued words,
 * notes between the parts, the city moved to the end, hints with a slip or a word's first letters; every word spelled
 * by ear, cities typed alone worse, a city's first letters spelled by ear or with a slip).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomFrom } from '../bench/synth/names.js';
import { createEngine, ROOT } from '../engine/index.js';
import type { Country, Dictionary, ObjectInfo, Resolution } from '../engine/types.js';
import { layout, translit } from './query-forms.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const SEED = Number(option('--seed', '7'));
const PER_SOURCE = Number(option('--per-source', '160'));
const SHOW_MISSES = Number(option('--show-misses', '40'));
const ONLY_KIND = option('--kind', '');
/** adds the kinds of worse typing (sound-alike spellings, two slips, glued words, notes between the parts, the city
 * moved to the end, slips and initials in hints), drawn from a random stream of their own so that the other kinds'
 * cases stay the same with or without it */
const WORSE = args.includes('--worse');
/** another core or other dictionaries (a baseline to compare with): `--wasm old.wasm --dictionaries old/` */
const WASM_FILE = option('--wasm', '');
const DICTIONARY_DIR = option('--dictionaries', '');
/** writes the cases (country, kind, check, query) as JSON lines, for scripts/compare-answers.ts */
const CASES_OUT = option('--cases-out', '');
const DATA_DIR = process.env.DATA_DIR ?? join(ROOT, '..', 'shared', 'data');
const DEV_FILE = join(ROOT, '..', 'shared', 'eval', 'dev.jsonl');
const SUGGEST_COUNT = 5;
const CITY_SUGGEST_COUNT = 10;

/** seeded (mulberry32), so that a seed gives the same sample and the same corruptions; reseeded per source
 * (`reseed`), so that a change of one source's data leaves the others' cases alone */
let random = randomFrom(SEED);
const reseed = (source: string): void => {
  let hash = SEED;
  for (const ch of source) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193);
  random = randomFrom(hash);
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const chance = (p: number): boolean => random() < p;

// ---------------------------------------------------------------------------------------------------------
// What dev.jsonl already holds (left out of the sample)

const devIds = new Set<string>();
const townKey = (city: string, street: string, house: string): string => `${city}|${street}|${house}`.toLowerCase();
if (existsSync(DEV_FILE)) {
  for (const line of readFileSync(DEV_FILE, 'utf8').split('\n')) {
    if (!line) continue;
    const expect = JSON.parse(line).expect ?? {};
    for (const id of [expect.house_fias, expect.city_fias && !expect.street_name ? expect.city_fias : '', ...[].concat(expect.house_osm ?? [])]) {
      if (id) devIds.add(id);
    }
    // addresses with no registry id (OsmAnd's town points, Київ): by town, street and number
    if (expect.city_name && expect.street_name && expect.house) devIds.add(townKey(expect.city_name, expect.street_name, expect.house));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Spelling of type words: the ways people write them (the first is the full word)

const STREET_TYPES: Record<string, string[]> = {
  'ул': ['улица', 'ул', 'ул.', 'у.'],
  'пр-кт': ['проспект', 'пр-кт', 'просп.', 'пр.'],
  'пер': ['переулок', 'пер', 'пер.'],
  'мкр': ['микрорайон', 'мкр', 'мкр.', 'мкрн'],
  'б-р': ['бульвар', 'б-р', 'бул.'],
  'пл': ['площадь', 'пл', 'пл.'],
  'ш': ['шоссе', 'ш.', 'ш'],
  'наб': ['набережная', 'наб', 'наб.'],
  'проезд': ['проезд', 'пр-д', 'пр-зд'],
  'туп': ['тупик', 'туп.'],
  'тракт': ['тракт'],
  'аллея': ['аллея', 'ал.'],
  'вул': ['вулиця', 'вул.', 'вул'],
  'просп': ['проспект', 'просп.'],
  'пров': ['провулок', 'пров.'],
};
const CITY_TYPES: Record<string, string[]> = { 'г': ['город', 'г', 'г.'], 'м': ['місто', 'м.'], 'п': ['поселок', 'п.'], 'с': ['село', 'с.'] };
const REGION_TYPES: Record<string, string[]> = {
  'обл': ['область', 'обл', 'обл.'], 'край': ['край'], 'Респ': ['Республика', 'Респ', 'респ.'],
};
const HOUSE_WORDS = ['д', 'д.', 'дом', ''];
const FLAT_FORMS = [(f: string) => `кв ${f}`, (f: string) => `кв. ${f}`, (f: string) => `квартира ${f}`, (f: string) => `-${f}`];
const NOISE = ['тел 89161234567', 'офис на 2 этаже', 'позвонить за час', 'домофон 12', 'подъезд 2'];

const spell = (table: Record<string, string[]>, type: string): string => (table[type] ? pick(table[type]) : type);

// ---------------------------------------------------------------------------------------------------------
// Corruptions

const NEIGHBOURS = 'йцукенгшщзхъ фывапролджэ ячсмитьбю';
function neighbour(ch: string): string {
  const at = NEIGHBOURS.indexOf(ch);
  if (at < 0) return ch;
  const candidates = [NEIGHBOURS[at - 1], NEIGHBOURS[at + 1]].filter((c) => c && c !== ' ');
  return candidates.length ? pick(candidates) : ch;
}

/** one edit inside a word of 5+ letters (not its first letter): a neighbouring key, a letter dropped, doubled or swapped */
function typo(word: string): string {
  if (word.length < 5) return word;
  const at = 1 + Math.floor(random() * (word.length - 2));
  const lower = word[at].toLowerCase();
  if (!/[а-яё]/.test(lower)) return word;
  switch (Math.floor(random() * 4)) {
    case 0: return word.slice(0, at) + neighbour(lower) + word.slice(at + 1);
    case 1: return word.slice(0, at) + word.slice(at + 1);
    case 2: return word.slice(0, at) + word[at] + word.slice(at);
    default: return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  }
}


// ---------------------------------------------------------------------------------------------------------
// Cases

interface Address {
  source: string;
  country: Country;
  region: ObjectInfo | null;
  city: ObjectInfo | null;
  street: ObjectInfo | null;
  /** the street's name as a person writes it (the Russian name of a Minsk street) */
  streetName: string;
  house: number;
  houseText: string;
  postcode: string;
  /** another street of this name has a house of this number: without the town the address is ambiguous */
  sharedAddress: boolean;
  /** another street has this name */
  sharedName: boolean;
}

interface Case {
  source: string;
  country: Country;
  kind: string;
  query: string;
  /** house: standardize finds the house; city: standardize finds the city; hint: the house is among the hints;
   * name-hint: the street or city (`target`) is among the hints of its name's first letters */
  check: 'house' | 'city' | 'hint' | 'name-hint';
  house: number;
  flat: string;
  target: number;
}

/** the house part as written: `12`, `12а`, `12 к1`, `12 стр 2`, `стр 1а` (a building with no house number) */
function houseText(dict: Dictionary, house: number): string {
  const h = dict.house(house);
  if (!h.number) return h.building ? pick([`стр ${h.building}`, `строение ${h.building}`]) : '';
  let text = h.number + (h.liter && /\d$/.test(h.number) ? h.liter : '');
  if (h.block) text += pick([` к${h.block}`, ` корп. ${h.block}`, `к${h.block}`]);
  if (h.building) text += pick([` стр ${h.building}`, ` с${h.building}`]);
  return text;
}

/** An address as parts of a query; each kind writes them its own way */
interface Parts { region: string; city: string; street: string; house: string; tail: string[] }

function plainParts(a: Address, houseWord = true): Parts {
  const street = a.street ? `${spell(STREET_TYPES, a.street.type)} ${a.streetName}` : '';
  const city = a.city ? `${spell(CITY_TYPES, a.city.type)} ${a.city.name}` : '';
  const house = `${houseWord && /^\d/.test(a.houseText) ? pick(HOUSE_WORDS) : ''} ${a.houseText}`.trim();
  return { region: '', city, street, house, tail: [] };
}

const joinParts = (parts: Parts, separator = ', '): string =>
  [parts.region, parts.city, parts.street, parts.house, ...parts.tail].filter(Boolean).join(separator);

function houseCases(a: Address): Case[] {
  const base = { source: a.source, country: a.country, check: 'house' as const, house: a.house, flat: '', target: -1 };
  const cases: Case[] = [];
  const add = (kind: string, query: string, flat = ''): void => { cases.push({ ...base, kind, query, flat }); };
  const separator = (): string => pick([', ', ' , ', ' ', ',']);

  // typo: one edit in the street name (or the city's)
  {
    const p = plainParts(a);
    const words = a.streetName.split(' ');
    const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
    if (long.length) {
      const [word, at] = pick(long);
      words[at] = typo(word);
      p.street = a.street ? `${spell(STREET_TYPES, a.street.type)} ${words.join(' ')}` : '';
      add('typo', joinParts(p, separator()));
    }
    if (a.city && a.city.name.length >= 5) {
      const q = plainParts(a);
      q.city = `${spell(CITY_TYPES, a.city.type)} ${typo(a.city.name)}`;
      add('typo-city', joinParts(q, separator()));
    }
  }
  add('layout', layout(joinParts(plainParts(a, false), ' ')));
  add('translit', translit(joinParts(plainParts(a), separator())));
  // reorder: street and house first, the city last, the type word after the name
  {
    const p = plainParts(a);
    const street = a.street ? `${a.streetName} ${spell(STREET_TYPES, a.street.type)}` : '';
    const city = a.city ? pick([`${a.city.name} ${spell(CITY_TYPES, a.city.type)}`, p.city]) : '';
    add('reorder', [street, p.house, city].filter(Boolean).join(separator()));
  }
  // no-type: names only
  add('no-type', [a.city?.name ?? '', a.streetName, a.houseText].filter(Boolean).join(separator()));
  if (!a.sharedAddress) add('no-city', joinParts({ ...plainParts(a), city: '' }, separator()));
  {
    const flat = String(1 + Math.floor(random() * 300));
    const p = plainParts(a);
    const form = pick(FLAT_FORMS);
    p.house = form === FLAT_FORMS[3] && !/[а-я ]/i.test(a.houseText) ? `${p.house}${form(flat)}` : `${p.house} ${FLAT_FORMS[Math.floor(random() * 3)](flat)}`;
    add('flat', joinParts(p, separator()), flat);
  }
  if (a.postcode) add('postcode', `${a.postcode}${separator()}${joinParts(plainParts(a), separator())}`);
  add('noise', `${joinParts(plainParts(a), separator())}, ${pick(NOISE)}`);
  add('lower', joinParts(plainParts(a), separator()).toLowerCase());
  add('upper', joinParts(plainParts(a), separator()).toUpperCase());
  if (a.region && a.region !== a.city) {
    const p = plainParts(a);
    p.region = pick([`${a.region.name} ${spell(REGION_TYPES, a.region.type)}`, `${spell(REGION_TYPES, a.region.type)} ${a.region.name}`]);
    add('region', joinParts(p, separator()));
  }
  // several at once: a typo in every long name, the region first, the house word glued, a flat after a hyphen
  {
    const misspell = (name: string): string => name.split(' ').map((w) => (w.length >= 6 && chance(0.7) ? typo(w) : w)).join(' ');
    const flat = String(1 + Math.floor(random() * 300));
    const region = a.region && a.region !== a.city ? `${misspell(a.region.name)} ${spell(REGION_TYPES, a.region.type)}` : '';
    const city = a.city ? `${spell(CITY_TYPES, a.city.type)} ${misspell(a.city.name)}` : '';
    const street = a.street ? `${spell(STREET_TYPES, a.street.type)} ${misspell(a.streetName)}` : '';
    const numbered = /^\d/.test(a.houseText);
    const house = `${numbered ? pick(['д', 'дом', 'д.']) : ''}${a.houseText}${numbered && !/[ /]/.test(a.houseText) ? `-${flat}` : ` кв.${flat}`}`;
    add('mixed', [region, city, street, house].filter(Boolean).join(separator()), flat);
  }
  // hints: the street and the house as typed, sometimes after the city
  {
    const city = a.city && (a.sharedAddress || chance(0.4)) ? `${a.city.name.toLowerCase()} ` : '';
    const query = `${city}${a.streetName.toLowerCase()} ${a.houseText}`;
    cases.push({ ...base, kind: 'hint', check: 'hint', query: chance(0.2) ? layout(query) : query });
  }
  // the street's name being typed: its first letters (most of the name), after the town when its name is shared
  if (a.street) {
    const name = a.streetName.toLowerCase();
    const typed = name.slice(0, Math.max(4, Math.round(name.length * (0.5 + random() * 0.45))));
    const city = a.city && (a.sharedName || chance(0.5)) ? `${a.city.name.toLowerCase()} ` : '';
    const query = `${city}${typed}`;
    cases.push({ ...base, kind: 'street-hint', check: 'name-hint', target: a.street.id, query: chance(0.15) ? layout(query) : query });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------------------
// Worse typing (--worse): each kind one class of what people type beyond the dev set's messiness

let worseRandom = randomFrom(SEED ^ 0x5eed);
const worsePick = <T>(items: readonly T[]): T => items[Math.floor(worseRandom() * items.length)];

/** Spellings that cost two edits by letters but one by ear; each [pattern, replacement] applies where it matches. */
const SOUND_RULES: Array<[RegExp, string]> = [
  [/ого$/, 'ова'], [/его$/, 'ева'], // Маяковского → Маяковскова
  [/тс/, 'ц'], [/тьс/, 'ц'], [/дс/, 'ц'], // Братская → Брацкая
  [/([бвгджзклмнпрстфхцчшщ])\1/, '$1'], // Кассимовская → Касимовская
  [/([аеиоуыэюя])([снлмр])([аеиоуыэюя])/, '$1$2$2$3'], // Ростовская → Росстовская
  [/([жш])и/, '$1ы'], [/([чщ])у/, '$1ю'], [/([чщ])а/, '$1я'],
  [/(?<=.)о(?=[^аеиоуыэюя]*[аеиоуыэюя])/, 'а'], [/(?<=.)а(?=[^аеиоуыэюя]*[аеиоуыэюя])/, 'о'], // unstressed о / а
  [/(?<=.)е(?=[^аеиоуыэюя]*[аеиоуыэюя])/, 'и'], [/(?<=.)и(?=[^аеиоуыэюя]*[аеиоуыэюя])/, 'е'], // unstressed е / и
  [/ай/, 'аи'], [/ьи/, 'и'], [/ъе/, 'е'],
];

/** one or two sound-alike changes inside a word of 5+ letters (its first letter kept) */
function soundAlike(word: string): string {
  if (word.length < 5) return word;
  let out = word.toLowerCase();
  const rules = SOUND_RULES.filter(([pattern]) => pattern.test(out.slice(1)));
  if (!rules.length) return word;
  for (let k = 0, n = worseRandom() < 0.5 ? 1 : 2; k < n && rules.length; k++) {
    const [pattern, to] = rules.splice(Math.floor(worseRandom() * rules.length), 1)[0];
    out = out[0] + out.slice(1).replace(pattern, to);
  }
  return word[0] + out.slice(1);
}

/** a slip as `typo` makes, drawn from another stream */
function slipFrom(stream: () => number, word: string): string {
  const saved = random;
  random = stream;
  try { return typo(word); } finally { random = saved; }
}

/** a slip drawn from the worse stream */
const slip = (word: string): string => slipFrom(worseRandom, word);

const NOTES = ['3 подъезд', 'домофон 21', 'магазин "Продукты"', 'вход со двора', '2 этаж', 'код 45'];

function worseCases(a: Address): Case[] {
  const base = { source: a.source, country: a.country, check: 'house' as const, house: a.house, flat: '', target: -1 };
  const cases: Case[] = [];
  const add = (kind: string, query: string, flat = ''): void => { cases.push({ ...base, kind, query, flat }); };
  if (!a.street || !/^\d/.test(a.houseText)) return cases;
  const streetType = a.street.type;
  const city = a.city ? `${worsePick(CITY_TYPES[a.city.type] ?? [a.city.type])} ${a.city.name}` : '';
  const longest = (name: string): number => {
    const words = name.split(' ');
    let at = 0;
    for (let i = 1; i < words.length; i++) if (words[i].length > words[at].length) at = i;
    return at;
  };
  const rewrite = (name: string, change: (word: string) => string): string => {
    const words = name.split(' ');
    const at = longest(name);
    words[at] = change(words[at]);
    return words.join(' ');
  };
  const street = (name = a.streetName): string => `${worsePick(STREET_TYPES[streetType] ?? [streetType])} ${name}`;
  // sound-alike spellings of the street's name
  {
    const name = rewrite(a.streetName, soundAlike);
    if (name !== a.streetName) add('w-sound', [city, street(name), `д ${a.houseText}`].filter(Boolean).join(', '));
  }
  // two slips: one in the city and one in the street, or two in one long word
  {
    const name = rewrite(a.streetName, slip);
    if (a.city && a.city.name.length >= 5 && name !== a.streetName) {
      add('w-two-slips', [`${worsePick(CITY_TYPES[a.city.type] ?? [a.city.type])} ${slip(a.city.name)}`, street(name), a.houseText].join(', '));
    } else {
      const twice = rewrite(a.streetName, (w) => (w.length >= 9 ? slip(slip(w)) : w));
      if (twice !== a.streetName) add('w-two-slips', [city, street(twice), a.houseText].filter(Boolean).join(', '));
    }
  }
  // glued: the name and its number, the type and its name, the flat's keyword and its value
  {
    const flat = String(1 + Math.floor(worseRandom() * 300));
    const form = worsePick([0, 1, 2]);
    const query = form === 0 ? [city, `${street()}${a.houseText}`].filter(Boolean).join(', ')
      : form === 1 ? [city, `${worsePick(['ул.', 'пр.', 'пер.'].filter((t) => (STREET_TYPES[streetType] ?? []).includes(t)).concat(`${streetType}.`))}${a.streetName} ${a.houseText}`].filter(Boolean).join(', ')
      : [city, street(), `${a.houseText} кв${flat}`].filter(Boolean).join(', ');
    add('w-glued', query, form === 2 ? flat : '');
  }
  // a note or a house keyword between the parts
  {
    const note = worsePick(NOTES);
    const query = worseRandom() < 0.5 && city ? [city, note, street(), a.houseText].join(', ') : [city, street(), note, a.houseText].filter(Boolean).join(', ');
    add('w-notes', query);
  }
  // the type word dropped and the city moved to the end
  if (city && !a.sharedAddress) add('w-city-end', [a.streetName, `д ${a.houseText}`, city].join(', '));
  // two of the above at once, as the worse-typed addresses come
  {
    const changes = ['sound', 'slip', 'city-slip', 'glued', 'note', 'city-end', 'flat'];
    const first = worsePick(changes);
    const second = worsePick(changes.filter((c) => c !== first));
    const has = (c: string): boolean => c === first || c === second;
    let name = a.streetName;
    if (has('sound')) name = rewrite(name, soundAlike);
    if (has('slip')) name = rewrite(name, slip);
    const cityName = a.city ? (has('city-slip') && a.city.name.length >= 5 ? slip(a.city.name) : a.city.name) : '';
    const townText = a.city ? `${worsePick(CITY_TYPES[a.city.type] ?? [a.city.type])} ${cityName}` : '';
    const flat = String(1 + Math.floor(worseRandom() * 300));
    const houseText = `${has('city-end') ? 'д ' : ''}${a.houseText}${has('flat') ? ` кв${flat}` : ''}`;
    const streetText = has('city-end') ? name : street(name);
    const parts = has('glued') ? [`${streetText}${houseText}`] : [streetText, houseText];
    if (has('note')) parts.splice(1, 0, worsePick(NOTES));
    const all = has('city-end') ? [...parts, townText] : [townText, ...parts];
    if (!(has('city-end') && a.sharedAddress)) add('w-combined', all.filter(Boolean).join(', '), has('flat') ? flat : '');
  }
  // hints: a slip inside the street being typed; a long street typed as its first letters and the house
  {
    const town = a.city && (a.sharedAddress || worseRandom() < 0.4) ? `${a.city.name.toLowerCase()} ` : '';
    const name = rewrite(a.streetName.toLowerCase(), slip);
    if (name !== a.streetName.toLowerCase()) cases.push({ ...base, kind: 'w-hint-slip', check: 'hint', query: `${town}${name} ${a.houseText}` });
    const word = a.streetName.split(' ')[longest(a.streetName)].toLowerCase();
    if (word.length >= 8 && a.streetName.split(' ').length === 1) {
      const cut = word.slice(0, 5 + Math.floor(worseRandom() * 2));
      cases.push({ ...base, kind: 'w-hint-initial', check: 'hint', query: `${a.city ? `${a.city.name.toLowerCase()} ` : ''}${cut} ${a.houseText}` });
    }
    const sound = rewrite(a.streetName.toLowerCase(), soundAlike);
    if (sound !== a.streetName.toLowerCase()) cases.push({ ...base, kind: 'w-hint-sound', check: 'hint', query: `${town}${sound} ${a.houseText}` });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------------------
// Worse typing, harder (--worse): the same classes where they reach further: every word of the address spelled by
// ear (the city's and the region's too, each rule wherever it matches), a city typed alone worse, a city's first
// letters spelled by ear or with a slip. A stream of its own, so that the kinds above keep their cases.

let harderRandom = randomFrom(SEED ^ 0x0dd5);
const harderPick = <T>(items: readonly T[]): T => items[Math.floor(harderRandom() * items.length)];

/** one to three sound-alike changes, each where its pattern matches anywhere after the first letter (a letter doubled
 * or undoubled only once) */
function soundAlikeAll(word: string): string {
  if (word.length < 5) return word;
  let out = word.toLowerCase();
  const rules = SOUND_RULES.filter(([pattern]) => pattern.test(out.slice(1)));
  for (let k = 0, n = 1 + Math.floor(harderRandom() * 3); k < n && rules.length; k++) {
    const [pattern, to] = rules.splice(Math.floor(harderRandom() * rules.length), 1)[0];
    // a letter doubled or undoubled once: nobody doubles every consonant
    const once = to.includes('$2$2') || pattern.source.includes('\\1');
    out = out[0] + out.slice(1).replace(once ? pattern : new RegExp(pattern.source, 'g'), to);
  }
  return word[0] + out.slice(1);
}

/** each word of 5+ letters of a name spelled by ear */
const soundName = (name: string): string => name.split(' ').map((w) => (/^[а-яё-]+$/i.test(w) ? soundAlikeAll(w) : w)).join(' ');

/** a slip drawn from the harder stream */
const harderSlip = (word: string): string => slipFrom(harderRandom, word);

function harderCases(a: Address): Case[] {
  const base = { source: a.source, country: a.country, check: 'house' as const, house: a.house, flat: '', target: -1 };
  const cases: Case[] = [];
  if (!a.street || !/^\d/.test(a.houseText) || a.country !== 'ru') return cases;
  const streetText = (name: string): string => `${harderPick(STREET_TYPES[a.street!.type] ?? [a.street!.type])} ${name}`;
  const cityText = (name: string): string => (a.city ? `${harderPick(CITY_TYPES[a.city.type] ?? [a.city.type])} ${name}` : '');
  // every word spelled by ear: the city's and the street's
  {
    const query = [cityText(a.city ? soundName(a.city.name) : ''), streetText(soundName(a.streetName)), `д ${a.houseText}`].filter(Boolean).join(', ');
    if (query.toLowerCase() !== [cityText(a.city?.name ?? ''), streetText(a.streetName), `д ${a.houseText}`].filter(Boolean).join(', ').toLowerCase()) {
      cases.push({ ...base, kind: 'w-sound-all', query });
    }
  }
  // a slip in the city and the street spelled by ear, or the other way round
  if (a.city && a.city.name.length >= 5) {
    const query = harderRandom() < 0.5
      ? [cityText(harderSlip(a.city.name)), streetText(soundName(a.streetName)), a.houseText].join(', ')
      : [cityText(soundName(a.city.name)), streetText(a.streetName.split(' ').map((w) => (w.length >= 5 ? harderSlip(w) : w)).join(' ')), a.houseText].join(', ');
    cases.push({ ...base, kind: 'w-sound-slip', query });
  }
  // hints: every word spelled by ear, the town typed first
  {
    const town = a.city ? `${soundName(a.city.name).toLowerCase()} ` : '';
    cases.push({ ...base, kind: 'w-hint-sound-all', check: 'hint', query: `${town}${soundName(a.streetName).toLowerCase()} ${a.houseText}` });
  }
  return cases;
}

function harderCityCases(city: ObjectInfo, region: ObjectInfo | null, source: string): Case[] {
  const base = { source, country: 'ru' as Country, check: 'city' as const, house: -1, flat: '', target: city.id };
  const cases: Case[] = [];
  const regionText = (name: string): string => (region && region !== city ? `${name} ${harderPick(REGION_TYPES[region.type] ?? [region.type])}` : '');
  const cityText = (name: string): string => `${harderPick(CITY_TYPES[city.type] ?? [city.type])} ${name}`;
  const withRegion = harderRandom() < 0.5;
  // the city (and its region) spelled by ear
  {
    const name = soundName(city.name);
    const regionName = region ? soundName(region.name) : '';
    if (name !== city.name || (withRegion && regionName !== region?.name)) {
      cases.push({ ...base, kind: 'w-city-sound', query: [withRegion ? regionText(regionName) : '', cityText(name)].filter(Boolean).join(', ') });
    }
  }
  // two slips: one in the region and one in the city, or two in a long city name
  {
    const long = city.name.length >= 9;
    const query = region && region !== city && (!long || harderRandom() < 0.5)
      ? [regionText(region.name.split(' ').map((w) => (w.length >= 5 ? harderSlip(w) : w)).join(' ')), cityText(harderSlip(city.name))].join(', ')
      : long ? cityText(harderSlip(harderSlip(city.name))) : '';
    if (query) cases.push({ ...base, kind: 'w-city-slips', query });
  }
  // the city's name typed last with no type word after its region
  if (region && region !== city) cases.push({ ...base, kind: 'w-city-last', query: `${regionText(region.name)}, ${city.name}` });
  // hints: the first 5 to 9 letters of the city spelled by ear, or with a slip
  {
    const sound = soundName(city.name).toLowerCase();
    const cut = 5 + Math.floor(harderRandom() * 5);
    if (sound !== city.name.toLowerCase() && sound.length >= 5) {
      cases.push({ ...base, kind: 'w-city-hint-sound', check: 'name-hint', query: sound.slice(0, Math.min(sound.length, cut)) });
    }
    if (city.name.length >= 6) {
      const typed = harderSlip(city.name.toLowerCase()).slice(0, Math.min(city.name.length, cut));
      if (typed !== city.name.toLowerCase().slice(0, typed.length)) cases.push({ ...base, kind: 'w-city-hint-slip', check: 'name-hint', query: typed });
    }
  }
  return cases;
}

function cityCases(city: ObjectInfo, region: ObjectInfo | null, source: string): Case[] {
  const base = { source, country: 'ru' as Country, check: 'city' as const, house: -1, flat: '', target: city.id };
  const cases: Case[] = [];
  const add = (kind: string, query: string): void => { cases.push({ ...base, kind, query }); };
  const regionText = region && region !== city ? pick([`${region.name} ${spell(REGION_TYPES, region.type)}`, `${spell(REGION_TYPES, region.type)} ${region.name}`]) : '';
  const cityText = `${spell(CITY_TYPES, city.type)} ${city.name}`;
  add('city-typo', [regionText, `${spell(CITY_TYPES, city.type)} ${typo(city.name)}`].filter(Boolean).join(', '));
  add('city-plain', city.name);
  add('city-region', [regionText, cityText].filter(Boolean).join(', '));
  add('city-translit', translit([regionText, cityText].filter(Boolean).join(', ')));
  add('city-reorder', [`${city.name} ${spell(CITY_TYPES, city.type)}`, regionText].filter(Boolean).join(', '));
  add('city-layout', layout(city.name));
  // hints: the city's first 3 to 8 letters, ten hints (the dev set's count for places)
  cases.push({ ...base, kind: 'city-hint', check: 'name-hint', query: city.name.toLowerCase().slice(0, 3 + Math.floor(random() * 6)) });
  return cases;
}

// ---------------------------------------------------------------------------------------------------------
// The sample

/** Russian names of Minsk streets from the OSM extract (`name` → `name:ru`, type words dropped) */
function minskRussianNames(): Map<string, string> {
  const names = new Map<string, string>();
  const file = join(DATA_DIR, 'osm', 'by-minsk-center.osm');
  if (!existsSync(file)) return names;
  const typeWords = /^(улица|проспект|переулок|площадь|бульвар|проезд|вуліца|праспект|завулак|плошча)\s+|\s+(улица|проспект|переулок|площадь|бульвар|проезд|вуліца|праспект|завулак|плошча)$/i;
  for (const element of readFileSync(file, 'utf8').split('<way ').slice(1)) {
    const name = /k="name" v="([^"]+)"/.exec(element)?.[1];
    const russian = /k="name:ru" v="([^"]+)"/.exec(element)?.[1];
    if (name && russian) names.set(name.replace(typeWords, ''), russian.replace(typeWords, ''));
  }
  return names;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const addressKey = (street: string, number: string): string => `${street}|${number}`.toLowerCase();
const ADDRESS_COUNTS = new Map<Dictionary, Map<string, number>>();
/** how many streets of each name have a house of each number (one count per street); number '' counts the streets */
function addressCount(dict: Dictionary): Map<string, number> {
  let counts = ADDRESS_COUNTS.get(dict);
  if (counts) return counts;
  counts = new Map();
  const seen = new Set<string>();
  for (let h = 0; h < dict.houseCount; h++) {
    const house = dict.house(h);
    if (seen.has(`${house.parent}|${house.number}`)) continue;
    seen.add(`${house.parent}|${house.number}`);
    const street = dict.object(house.parent).name;
    const key = addressKey(street, house.number);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!seen.has(`${house.parent}|`)) {
      seen.add(`${house.parent}|`);
      counts.set(addressKey(street, ''), (counts.get(addressKey(street, '')) ?? 0) + 1); // streets of the name
    }
  }
  ADDRESS_COUNTS.set(dict, counts);
  return counts;
}

const OSM_CITIES: Array<[Country, string, string]> = [
  ['ru', 'Екатеринбург', 'osm-ekb'], ['ru', 'Москва', 'osm-msk'], ['ru', 'Санкт-Петербург', 'osm-spb'],
  ['ru', 'Владивосток', 'osm-vvo'], ['by', 'Минск', 'osm-minsk'], ['ua', 'Київ', 'osm-kyiv'],
];

function addressOf(dict: Dictionary, house: number, source: string, minsk: Map<string, string>): Address | null {
  const h = dict.house(house);
  const chain = dict.chain(h.parent).map((id) => dict.object(id));
  const street = chain.find((o) => o.level === 7 || o.level === 6) ?? null;
  if (!street || street.id !== h.parent) return null;
  const city = [...chain].reverse().find((o) => o.level === 3 || o.level === 5) ?? (chain[0].type === 'г' ? chain[0] : null);
  const text = houseText(dict, house);
  if (!text) return null;
  const russian = dict.country === 'by' && chance(0.7) ? minsk.get(street.name) : undefined;
  return {
    source, country: dict.country, region: chain[0], city, street, streetName: russian ?? street.name,
    house, houseText: text, postcode: h.postcode || street.postcode,
    sharedAddress: (addressCount(dict).get(addressKey(street.name, h.number)) ?? 0) > 1,
    sharedName: (addressCount(dict).get(addressKey(street.name, '')) ?? 0) > 1,
  };
}

const engine = await createEngine({ wasmFile: WASM_FILE || undefined, dir: DICTIONARY_DIR || undefined });
const minsk = minskRussianNames();
const cases: Case[] = [];
const perSource = new Map<string, number[]>();
for (const country of engine.countries()) {
  const dict = engine.dictionary(country)!;
  for (let house = 0; house < dict.houseCount; house++) {
    const info = dict.house(house);
    if (devIds.has(info.codes.fias) || devIds.has(info.codes.osm)) continue;
    const chain = dict.chain(info.parent).map((id) => dict.object(id));
    const town = [...chain].reverse().find((o) => o.level === 3 || o.level === 5);
    if (town && devIds.has(townKey(town.name, dict.object(info.parent).name, info.number))) continue;
    const root = chain[0];
    let source = '';
    if (info.codes.fias && root.name === 'Байконур') source = 'gar-99';
    else if (country === 'ru' && !info.codes.fias && !info.codes.osm) source = 'osm-towns';
    else if (info.codes.osm || country === 'ua') {
      const names = dict.chain(info.parent).map((id) => dict.object(id).name);
      source = OSM_CITIES.find(([c, name]) => c === country && names.includes(name))?.[2] ?? '';
    }
    if (!source) continue;
    const key = `${country}:${source}`;
    if (!perSource.has(key)) perSource.set(key, []);
    perSource.get(key)!.push(house);
  }
}
for (const [key, houses] of [...perSource].sort()) {
  const [country, source] = key.split(':') as [Country, string];
  reseed(source);
  worseRandom = randomFrom(SEED ^ 0x5eed ^ source.length);
  harderRandom = randomFrom(SEED ^ 0x0dd5 ^ source.length);
  const dict = engine.dictionary(country)!;
  for (const house of shuffle(houses).slice(0, PER_SOURCE)) {
    const address = addressOf(dict, house, source, minsk);
    if (address) cases.push(...houseCases(address));
    if (address && WORSE) cases.push(...worseCases(address));
    if (address && WORSE) cases.push(...harderCases(address));
  }
}
{
  const dict = engine.dictionary('ru')!;
  const cities: ObjectInfo[] = [];
  for (let id = 0; id < dict.objectCount; id++) {
    const o = dict.object(id);
    if (o.level === 3 && o.codes.kladr && o.codes.fias && !devIds.has(o.codes.fias)) cities.push(o);
  }
  reseed('hflabs-city');
  harderRandom = randomFrom(SEED ^ 0x0dd5 ^ 'hflabs-city'.length);
  for (const city of shuffle(cities).slice(0, PER_SOURCE * 2)) {
    const region = dict.object(dict.chain(city.id)[0]);
    cases.push(...cityCases(city, region, 'hflabs-city'));
    if (WORSE) cases.push(...harderCityCases(city, region, 'hflabs-city'));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Judging

function sameHouse(dict: Dictionary, got: number, want: number): boolean {
  if (got === want) return true;
  if (got < 0) return false;
  const a = dict.house(got);
  const b = dict.house(want);
  return a.parent === b.parent && a.number === b.number && a.block === b.block && a.building === b.building;
}

function describe(dict: Dictionary, r: Resolution): string {
  const levels = Object.values(r.levels).filter((id) => id >= 0).map((id) => dict.object(id).fullName);
  const house = r.house >= 0 ? ` д ${dict.house(r.house).number}` : r.parts.house ? ` (д ${r.parts.house})` : '';
  return `${[...new Set(levels)].join(', ')}${house}${r.parts.flat ? ` кв ${r.parts.flat}` : ''}${r.undefinedParts ? ` left "${r.undefinedParts}"` : ''}`;
}

function expected(dict: Dictionary, c: Case): string {
  if (c.check === 'city' || c.check === 'name-hint') return dict.object(c.target).fullName;
  const h = dict.house(c.house);
  return `${dict.chain(h.parent).map((id) => dict.object(id).fullName).join(', ')} д ${h.number}${h.block ? ` к${h.block}` : ''}${h.building ? ` стр${h.building}` : ''}${c.flat ? ` кв ${c.flat}` : ''}`;
}

if (CASES_OUT) {
  writeFileSync(CASES_OUT, cases.map((c) => JSON.stringify({ country: c.country, kind: c.kind, check: c.check, query: c.query })).join('\n') + '\n');
}

const tally = new Map<string, { n: number; ok: number }>();
const count = (key: string, ok: boolean): void => {
  const t = tally.get(key) ?? { n: 0, ok: 0 };
  t.n++; t.ok += ok ? 1 : 0;
  tally.set(key, t);
};
const misses: string[] = [];
for (const c of cases) {
  if (ONLY_KIND && c.kind !== ONLY_KIND) continue;
  const dict = engine.dictionary(c.country)!;
  let ok: boolean;
  let got: string;
  if (c.check === 'hint' || c.check === 'name-hint') {
    const hints = engine.suggest(c.country, c.query, c.kind.startsWith('city-hint') || c.kind.startsWith('w-city-hint') ? CITY_SUGGEST_COUNT : SUGGEST_COUNT);
    ok = hints.some((r) => (c.check === 'hint' ? sameHouse(dict, r.house, c.house) : Object.values(r.levels).includes(c.target)));
    got = hints.slice(0, 2).map((r) => describe(dict, r)).join(' | ');
  } else {
    const r = engine.standardize(c.country, c.query);
    ok = c.check === 'city'
      ? r.levels.city === c.target || r.levels.settlement === c.target
      : sameHouse(dict, r.house, c.house) && r.parts.flat === c.flat;
    got = describe(dict, r);
  }
  count(`kind ${c.kind}`, ok);
  count(`source ${c.source}`, ok);
  count(c.check === 'city' ? 'all cities' : c.check === 'house' ? 'all houses' : 'all hints', ok);
  if (!ok) misses.push(`${c.source} ${c.kind.padEnd(13)} ${JSON.stringify(c.query)}\n    got  ${got}\n    want ${expected(dict, c)}`);
}

console.log(`seed ${SEED}, ${PER_SOURCE} addresses per source, ${cases.length} cases`);
console.log('group                      n      ok');
for (const [key, t] of [...tally].sort()) console.log(`${key.padEnd(24)} ${String(t.n).padStart(5)}  ${(t.ok / t.n).toFixed(3)}`);
if (SHOW_MISSES) {
  console.log(`\nmisses (${misses.length}):`);
  for (const miss of misses.slice(0, SHOW_MISSES)) console.log(miss);
}
