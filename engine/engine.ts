/**
 * The engine: one core instance per loaded country dictionary, behind the `Engine` interface of types.ts.
 * Turns the core's fixed records into Resolutions (object ids per level, house, parts, quality).
 * The same class serves Node and the browser (web/): it needs only the wasm bytes and blob bytes.
 */
import type {
  Country, Dictionary, Engine, Found, GeoLevel, HousePartKey, HouseParts, LevelKey, MetroHit, Quality, Resolution, Scope,
} from './types.js';
import { apartmentMember, HOUSE_PART_KEYS, LEVEL_KEYS } from './types.js';
import { LoadedDictionary } from './dictionary.js';
import { foldCase } from '../format/fold.js';
import { R_LEFT, R_PARTS, R_TEXT } from '../format/result.js';

/**
 * The last word is still being typed when the text ends in a letter or digit, or in keys that type Russian
 * letters in the Latin layout right after a Latin letter (`,f;` is «баж»: ; ж, , б, . ю, [ х, ] ъ, ' э, ` ё;
 * `,k.[` is «блюх»).
 */
const WORD_BEING_TYPED = /(?:[\p{L}\p{N}]|[a-z][;,.[\]'`]+)$/iu;
/** the layout keys of `WORD_BEING_TYPED` */
const LAYOUT_KEYS = new Set([...";,.[]'`"].map((key) => key.charCodeAt(0)));

/**
 * `WORD_BEING_TYPED.test(text)`, read on the end of the text only: a pattern anchored at its end is still tried
 * from every position of the text (0.31 µs a hint query against 0.09). What it can match is the run of layout keys
 * the text ends in and the one letter (two code units at most) before it.
 */
export function wordBeingTyped(text: string): boolean {
  let start = text.length;
  while (start > 0 && LAYOUT_KEYS.has(text.charCodeAt(start - 1))) start--;
  return WORD_BEING_TYPED.test(text.slice(Math.max(0, start - 2)));
}

/** The house label has the литера typed: its own, or as its number's letter (`179 лит. Б` is the registry's 179б). */
function hasLiter(label: { number: string; liter: string }, parts: HouseParts): boolean {
  const liter = label.liter.toLowerCase();
  return liter === parts.liter || (liter === '' && label.number.toLowerCase() === parts.house + parts.liter);
}

/**
 * The input nothing matched as leftovers read it (conventions: `undefinedParts` = the cleaned input): control
 * characters gone, the words one space apart, runs of punctuation standing alone and commas or semicolons at a word's
 * ends dropped (`  абракадабра ,,,   кадабра\t\u0000 ` → `абракадабра кадабра`).
 */
export function collapseToWords(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/^[,;]+|[,;]+$/g, ''))
    .filter((word) => word !== '' && !/^[\p{P}\p{S}]+$/u.test(word))
    .join(' ');
}

/** Type words a scope's name may carry before or after the name (`г Екатеринбург`, `Свердловская область`). */
const SCOPE_TYPE_WORDS = new Set([
  'г', 'город', 'обл', 'область', 'край', 'респ', 'республика', 'р-н', 'район', 'пгт', 'п', 'пос', 'поселок', 'с', 'село',
  'д', 'деревня', 'ст-ца', 'станица', 'ул', 'улица', 'пр-кт', 'проспект', 'пер', 'переулок', 'б-р', 'бульвар', 'ш',
  'шоссе', 'наб', 'набережная', 'пл', 'площадь', 'мкр', 'микрорайон', 'проезд', 'пр-д', 'туп', 'тупик', 'аллея', 'тракт',
  'м', 'місто', 'вул', 'вулиця', 'пров', 'провулок', 'просп', 'вобл', 'вобласць', 'гор',
]);

/**
 * A scope's name as hints compare it (`scopes[].name`, `regionName`, `streetName`) with the names of a hint's levels:
 * case, ё and dots aside, and without a type word at either end, so that a level's `fullName` as records write it
 * (`г Екатеринбург`, `Свердловская обл`, `ул Малышева`) scopes as its name does.
 */
export function scopeName(text: string): string {
  const words = foldCase(text).replace(/\./g, ' ').split(/\s+/).filter((word) => word !== '');
  if (words.length > 1 && SCOPE_TYPE_WORDS.has(words[0])) words.shift();
  if (words.length > 1 && SCOPE_TYPE_WORDS.has(words[words.length - 1])) words.pop();
  return words.join(' ');
}

/** The object ids of the administrative levels of `levels`, region first (the municipal index is not one). */
export function placeIds(levels: Record<LevelKey, number>): number[] {
  return LEVEL_KEYS.filter((key) => key !== 'municipal').map((key) => levels[key]).filter((id) => id >= 0);
}

/** The parts an apartment's number can be typed in (`apartmentMember`). */
const APARTMENT_PARTS: readonly HousePartKey[] = ['flat', 'office', 'room', 'kab', 'place', 'block', 'pav', 'sek'];

/** Some unit (flat, office, room …) is typed in the parts. */
const unitIn = (parts: HouseParts): boolean => APARTMENT_PARTS.some((key) => parts[key] !== '');

/** Two numbers apart (`5 кв 10`, `5, 10`): a unit may be typed after the house (`AddressEngine.unitTyped`). */
const TWO_NUMBERS = /\d\D+\d/;

/** The digits of a country's postcodes. */
const POSTCODE_DIGITS: Record<Country, number> = { ru: 6, by: 6, kz: 6, ua: 5 };

/** Hints of a scoped query read among the core's first this many for the query alone. */
const SCOPED_READ = 100;
/** Hints of lists this long or longer keep a slot for a street (`AddressEngine.streetSlot`)… */
const STREET_SLOT_FROM = 5;
/** …read among the first hints of a list this long. */
const STREET_SLOT_READ = 20;
/** one word of five letters or more, nothing else (`советс`, `cjdtnc`) */
const ONE_WORD_TYPED = /^\s*\p{L}{5,}\s*$/u;
/**
 * The number of a found house, as the registry spells it, in its part: a land plot's is the stead's (`участок №2`,
 * as records write it, engine/records/house-details.ts), a building's the house's (a stead typed and a building found:
 * the building, `дом 27`).
 */
function spellHouse(parts: HouseParts, number: string, stead: boolean): void {
  // the other part is emptied when the number found was typed in it (`уч 27` found as дом 27), and kept when both
  // were typed (`Малышева 5, участок 7`: the building 5, the plot 7 as typed)
  if (stead) {
    if (parts.stead === '') parts.house = '';
    parts.stead = number.toLowerCase();
  } else {
    if (parts.house === '') parts.stead = '';
    parts.house = number.toLowerCase();
  }
}

const isStreetOrBelow = (res: Resolution): boolean => res.house >= 0 || res.levels.street >= 0 || res.levels.planStructure >= 0;

const LEVEL_BY_NUMBER: (LevelKey | null)[] = [null, 'region', 'area', 'city', 'cityArea', 'settlement', 'planStructure', 'street'];
/** the first level of a street's hint (a plan structure, then the street) */
const STREET_LEVEL_FROM = LEVEL_BY_NUMBER.indexOf('planStructure');
const GEO_LEVELS: Record<GeoLevel, number> = { region: 1, area: 2, city: 3, settlement: 5, planStructure: 6, street: 7, house: 8 };

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", nbsp: ' ', laquo: '«', raquo: '»' };

/** Decodes HTML entities (`&quot;`, `&#1052;`) into their characters, which the core should not see. */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function emptyParts(): HouseParts {
  return {
    house: '', case: '', build: '', liter: '', lend: '', constr: '', stead: '', entr: '', floor: '', flat: '',
    office: '', room: '', kab: '', place: '', block: '', pav: '', sek: '', abon: '', munit: '',
  };
}

export function emptyLevels(): Record<LevelKey, number> {
  return { region: -1, area: -1, municipal: -1, city: -1, cityArea: -1, settlement: -1, planStructure: -1, street: -1 };
}

/** A part's text as written, folded to the form records use: `12 А` → `12а`, `Г` → `г`. */
function partValue(text: string): string {
  return foldCase(text).replace(/[\s.,;]+/g, '').replace(/^-+|-+$/g, '');
}

/** Hints kept per dictionary (`AddressEngine.hint`): ≈2.5 KB each with the record and bytes built from them, ≈10 MB at most. */
const HINTS_KEPT = 4096;

/** Freezes a Resolution and what it holds: it may now be handed to any number of requests. */
function frozen(resolution: Resolution): Resolution {
  Object.freeze(resolution.levels);
  Object.freeze(resolution.parts);
  Object.freeze(resolution.quality);
  return Object.freeze(resolution);
}

export class AddressEngine implements Engine {
  private readonly dicts = new Map<Country, LoadedDictionary>();
  private readonly houseCore: LoadedDictionary['core'] | null;
  /**
   * A hint is the same Resolution whenever the same house or object comes up (nothing of the query is in it):
   * the hints shown lately, frozen, by house (odd keys) or object (even keys), per dictionary. Bounded as the
   * dictionary's object cache is: emptied when full. The records layer keeps the record of a frozen hint beside
   * it (records/address-record.ts), so a hint shown again costs a lookup.
   */
  private readonly hints = new WeakMap<LoadedDictionary, Map<number, Resolution>>();

  constructor(dictionaries: LoadedDictionary[], houseCore?: LoadedDictionary['core']) {
    for (const d of dictionaries) this.dicts.set(d.country, d);
    this.houseCore = houseCore ?? dictionaries[0]?.core ?? null;
  }

  countries(): Country[] {
    return [...this.dicts.keys()];
  }

  dictionary(country: Country): LoadedDictionary | null {
    return this.dicts.get(country) ?? null;
  }

  private need(country: Country): LoadedDictionary {
    const d = this.dicts.get(country);
    if (!d) throw new Error(`no dictionary for ${country}`);
    return d;
  }

  /** Reads the parts and the postcode the core wrote for `text`. */
  private readParts(r: Int32Array, text: string): { parts: HouseParts; postcodeIn: string } {
    const parts = emptyParts();
    HOUSE_PART_KEYS.forEach((key, p) => {
      const start = r[R_PARTS + 2 * p];
      if (start < 0) return;
      let value = '';
      for (let k = 0; k < r[R_PARTS + 2 * p + 1]; k++) value += String.fromCharCode(r[R_TEXT + start + k]);
      parts[key] = partValue(value);
    });
    const pcStart = r[8];
    // (a postcode typed in two halves, `468 320`, is written whole)
    const postcodeIn = pcStart >= 0 ? text.slice(pcStart, pcStart + r[9]).replace(/\s+/g, '') : '';
    return { parts, postcodeIn };
  }

  /**
   * Object ids per level for the chain ending at `objectId` (and house `houseId`, when one was found);
   * `municipal` is the municipal entity of the house or the chain (an index of `Dictionary.municipal`).
   */
  levelsOf(dict: Dictionary, objectId: number, houseId = -1): Record<LevelKey, number> {
    const levels = emptyLevels();
    const d = dict as LoadedDictionary;
    for (let id = objectId, n = 0; id >= 0 && n < 16; id = d.parentOf(id), n++) {
      const key = LEVEL_BY_NUMBER[d.levelOf(id)];
      if (key && levels[key] < 0) levels[key] = id;
    }
    if (objectId >= 0) levels.municipal = d.municipalOf(objectId, houseId);
    return levels;
  }

  /** quality.geo: the level of the most precise coordinates the resolution has. */
  geoLevel(dict: Dictionary, objectId: number, houseId: number): number {
    const d = dict as LoadedDictionary;
    if (houseId >= 0 && d.houseHasCoordinates(houseId)) return 8;
    for (let id = objectId, n = 0; id >= 0 && n < 16; id = d.parentOf(id), n++) {
      if (d.objectHasCoordinates(id)) return d.levelOf(id);
    }
    return 0;
  }

  standardize(country: Country, query: string): Resolution {
    const dict = this.need(country);
    const text = decodeHtmlEntities(query);
    const core = dict.core;
    const len = core.write(text);
    core.exports.standardize(len);
    const r = core.result();
    const matched = r[0] === 0;
    const objectId = matched ? r[1] : -1;
    let houseId = matched ? r[2] : -1;
    const read = this.readParts(r, text);
    const { parts } = read;
    let postcodeIn = read.postcodeIn;
    const left: string[] = [];
    for (let i = 0; i < r[R_LEFT]; i++) {
      const s = r[R_LEFT + 1 + 2 * i];
      left.push(text.slice(s, s + r[R_LEFT + 2 + 2 * i]));
    }
    // five digits opening the string are read as a postcode (Ukraine's: `01033, Київ`); elsewhere they are none, and
    // stay in sight as a leftover (`12345 Екатеринбург Малышева 5`), not dropped
    let lostPostcode = false;
    if (postcodeIn !== '' && postcodeIn.length !== POSTCODE_DIGITS[country]) {
      left.unshift(postcodeIn);
      postcodeIn = '';
      lostPostcode = true;
    }
    if (houseId >= 0) {
      // a land plot when one was asked for (`уч 27`), else the building, of two houses spelled alike
      const steadAsked = parts.stead !== '' && parts.house === '';
      if (dict.houseIsStead(houseId) !== steadAsked) {
        const twin = dict.steadTwin(houseId, steadAsked);
        if (twin >= 0) houseId = twin;
      }
      // of houses keyed alike with their литеры (`12Б`, `12Б лит П`: 12б), the one of the литера typed, or of none
      if (dict.houseLabel(houseId).liter.toLowerCase() !== parts.liter) {
        const twin = dict.literTwin(houseId, parts.liter);
        if (twin >= 0) houseId = twin;
      }
    }
    // a литера typed that the house found has not (`163в лит. Б`, the registry's 163в has none): found in part
    let houseQuality = r[7];
    if (houseId >= 0 && houseQuality === 3 && parts.liter !== '' && !hasLiter(dict.houseLabel(houseId), parts)) houseQuality = 4;
    if (houseId >= 0 && houseQuality === 3) {
      // the registry spells the house it found
      const h = dict.houseLabel(houseId);
      spellHouse(parts, h.number, dict.houseIsStead(houseId));
      if (h.block) parts.case = h.block.toLowerCase();
      if (h.building) parts.build = h.building.toLowerCase();
    }
    if (houseId < 0) houseId = -1;
    const quality: Quality = {
      unique: r[3], actuality: r[4], undefined: lostPostcode && r[5] === 0 ? 1 : r[5], level: r[6], house: houseQuality,
      geo: matched ? this.geoLevel(dict, objectId, houseId) : 0,
    };
    let apartment = -1;
    if (houseId >= 0 && unitIn(parts)) apartment = this.findApartment(dict, houseId, parts);
    return {
      levels: this.levelsOf(dict, objectId, houseId),
      house: houseId,
      apartment,
      parts,
      postcodeIn,
      quality,
      undefinedParts: matched ? left.join(' ') : collapseToWords(text),
      matched,
    };
  }

  /**
   * The house's apartment typed: its number in the part its registry type fills (`помещение 1`, `офис 5`), else in
   * the flat (clients write `кв` for any of them: `кв 1` finds a помещение 1 when no квартира 1 is there).
   */
  private findApartment(dict: Dictionary, houseId: number, parts: HouseParts): number {
    let asFlat = -1;
    for (const id of (dict as LoadedDictionary).apartmentsOf(houseId)) {
      const apartment = dict.apartment(id);
      const number = apartment.number.toLowerCase();
      if (parts[apartmentMember(apartment.type)] === number) return id;
      if (asFlat < 0 && parts.flat === number) asFlat = id;
    }
    return asFlat;
  }

  suggest(country: Country, query: string, count: number, scopes?: Scope[]): Resolution[] {
    const dict = this.need(country);
    const text = decodeHtmlEntities(query);
    const core = dict.core;
    const prefix = wordBeingTyped(text) ? 1 : 0;
    const out: Resolution[] = [];
    let len: number;
    if (scopes && scopes.length) {
      // each scope's place named before the query, so the core reads the query there (`Туба, ленина`: Туба's streets,
      // not the first hundred ул Ленина of the country); then the query alone, filtered, for what those miss
      for (const scope of scopes) {
        const context = this.scopeContext(dict, scope);
        if (context.length) this.collectHints(dict, `${context.join(', ')}, ${text}`, prefix, Math.max(count, 1) * 2, count, out, [scope], context);
      }
      len = this.collectHints(dict, text, prefix, SCOPED_READ, count, out, scopes);
    } else {
      len = this.collectHints(dict, text, prefix, Math.max(count, 1), count, out);
    }
    this.twinAsked(dict, out, core.exports.hintsAskStead() !== 0);
    if (!(scopes && scopes.length) && count >= STREET_SLOT_FROM && out.length === count && ONE_WORD_TYPED.test(text) &&
        !out.some(isStreetOrBelow)) {
      this.streetSlot(dict, out, len, prefix);
    }
    if (TWO_NUMBERS.test(text) && out.some((res) => res.house >= 0)) this.unitTyped(dict, out, text);
    return out;
  }

  /**
   * Adds to `out` (up to `count`) the core's first `want` hints of `text`, those in one of `scopes` when given and not
   * in `out` already, and none that is a place the `context` put before the query names (the scope's town itself:
   * it is no hint of what was typed). Returns the length of the text written to the core (its INPUT holds it after
   * the call).
   */
  private collectHints(
    dict: LoadedDictionary, text: string, prefix: number, want: number, count: number, out: Resolution[], scopes?: Scope[], context?: string[],
  ): number {
    const named = context ? new Set(context.map(scopeName)) : null;
    const core = dict.core;
    const len = core.write(text);
    const n = core.exports.suggest(len, want, prefix);
    const r = core.result();
    const items: { object: number; house: number }[] = [];
    for (let i = 0; i < n; i++) items.push({ object: r[1 + 3 * i], house: r[2 + 3 * i] });
    for (const item of items) {
      if (out.length >= count) break;
      const res = this.hint(dict, item.object, item.house);
      if (scopes && !scopes.some((s) => this.inScope(dict, res, s))) continue;
      const ids = named && res.house < 0 ? placeIds(res.levels) : [];
      if (ids.length && named!.has(scopeName(dict.object(ids[ids.length - 1]).name))) continue;
      if (!out.includes(res)) out.push(res);
    }
    return len;
  }

  /**
   * The place a scope names, as the words to put before the query (`Свердловская обл`, `г Екатеринбург` for its FIAS
   * id, `Туба` for its name), none when it names no place (coordinates, a postcode or a street's name alone).
   */
  private scopeContext(dict: LoadedDictionary, scope: Scope): string[] {
    const words: string[] = [];
    if (scope.regionName) words.push(scope.regionName);
    const kinds = [['FIAS', scope.fias], ['GA', scope.ga], ['OSM', scope.osm], ['GAR', scope.gar], ['KLADR', scope.kladr]] as const;
    for (const [kind, value] of kinds) {
      if (!value) continue;
      const found = dict.findById(kind, value);
      if (!found) continue;
      const object = found.kind === 'object' ? found.id : dict.houseLabel(found.kind === 'house' ? found.id : dict.apartment(found.id).house).parent;
      for (const id of placeIds(this.levelsOf(dict, object))) words.push(dict.object(id).fullName);
      break;
    }
    // a street's name or a postcode only filter: before the query they would make hints of what was not typed
    if (scope.name) words.push(scope.name);
    return words;
  }

  /**
   * A flat, office or room typed after the house (`малышева 5 кв 10`, `гагарина 5 оф 3`) goes with the hints of that
   * very house: its number as typed, and its корпус and строение where they were typed (`35 к4 кв 7`, not 35 к1).
   * The apartment is looked for as `standardize` looks for it; a hint of another house (5а) is left as it is.
   */
  private unitTyped(dict: LoadedDictionary, out: Resolution[], text: string): void {
    const core = dict.core;
    core.exports.parseHouse(core.write(text));
    const { parts } = this.readParts(core.result(), text);
    if (!unitIn(parts)) return;
    for (let i = 0; i < out.length; i++) {
      const res = out[i];
      if (res.house < 0 || dict.houseIsStead(res.house)) continue;
      const label = dict.houseLabel(res.house);
      if (label.number.toLowerCase() !== parts.house) continue;
      if ((parts.case && parts.case !== label.block.toLowerCase()) || (parts.build && parts.build !== label.building.toLowerCase())) continue;
      const withUnit = { ...res.parts };
      for (const key of APARTMENT_PARTS) if (parts[key]) withUnit[key] = parts[key];
      out[i] = { ...res, parts: withUnit, apartment: this.findApartment(dict, res.house, withUnit) };
    }
  }

  /**
   * Of two houses of a street keyed alike (GAR's stead `№2` beside house `2`), the hints list the one asked for where
   * either stands: the land plot when its keyword was typed (`участок 2`), else the building, as `standardize` picks.
   * The other follows in the place it had, when it was listed. Only a hint of the kind not asked for looks for its
   * twin (a walk over its street's houses in the core): a building's hints with no stead keyword typed read nothing.
   */
  private twinAsked(dict: LoadedDictionary, out: Resolution[], steadAsked: boolean): void {
    for (let i = 0; i < out.length; i++) {
      const house = out[i].house;
      if (house < 0 || dict.houseIsStead(house) === steadAsked) continue;
      const twin = dict.steadTwin(house, steadAsked);
      if (twin < 0) continue;
      const at = out.findIndex((res) => res.house === twin);
      if (at >= 0 && at < i) continue;
      const listed = out[i];
      out[i] = at >= 0 ? out[at] : this.hint(dict, -1, twin);
      if (at >= 0) out[at] = listed;
    }
  }

  /**
   * A full list of places and no street for one word of five letters or more (`советс`: the towns Советск and
   * Советский) gives its last slot to the best street the word reaches (ул Советская of the heaviest town), read
   * from a longer list of the same query: a name typed alone is a street's as often as a town's. Shorter words (the
   * first keys of any name) keep their list of places and their one call. docs/DECISIONS.md (Hints).
   */
  private streetSlot(dict: LoadedDictionary, out: Resolution[], len: number, prefix: number): void {
    const core = dict.core;
    const n = core.exports.suggest(len, STREET_SLOT_READ, prefix);
    const r = core.result();
    for (let i = 0; i < n; i++) {
      const object = r[1 + 3 * i];
      const house = r[2 + 3 * i];
      // a place is passed by on its level, no record built
      if (house < 0 && dict.object(object).level < STREET_LEVEL_FROM) continue;
      out[out.length - 1] = this.hint(dict, object, house);
      return;
    }
  }

  /** The hint for house `house` (≥ 0) or else object `object`: `resolutionOf` the first time, frozen and kept. */
  private hint(dict: LoadedDictionary, object: number, house: number): Resolution {
    let kept = this.hints.get(dict);
    if (!kept) {
      kept = new Map();
      this.hints.set(dict, kept);
    }
    const key = house >= 0 ? house * 2 + 1 : object * 2;
    let res = kept.get(key);
    if (!res) {
      res = frozen(this.resolutionOf(dict, house >= 0 ? { kind: 'house', id: house } : { kind: 'object', id: object }));
      if (kept.size >= HINTS_KEPT) kept.clear();
      kept.set(key, res);
    }
    return res;
  }

  /** A Resolution for a found object, house or apartment (idsearch, geosearch, hints). */
  resolutionOf(dict: Dictionary, found: Found): Resolution {
    const parts = emptyParts();
    let houseId = -1;
    let objectId = -1;
    let apartment = -1;
    if (found.kind === 'apartment') {
      apartment = found.id;
      houseId = dict.apartment(found.id).house;
    } else if (found.kind === 'house') houseId = found.id;
    else objectId = found.id;
    if (houseId >= 0) {
      const h = dict.houseLabel(houseId);
      objectId = h.parent;
      spellHouse(parts, h.number, dict.houseIsStead(houseId));
      parts.case = h.block.toLowerCase();
      parts.build = h.building.toLowerCase();
      parts.liter = h.liter.toLowerCase();
      parts.constr = h.construction.toLowerCase();
      if (apartment >= 0) parts.flat = dict.apartment(apartment).number.toLowerCase();
    }
    const level = houseId >= 0 ? 8 : dict.object(objectId).level;
    return {
      levels: this.levelsOf(dict, objectId, houseId),
      house: houseId,
      apartment,
      parts,
      postcodeIn: '',
      quality: { unique: 0, actuality: 0, undefined: 0, level, house: houseId >= 0 ? 3 : 9, geo: this.geoLevel(dict, objectId, houseId) },
      undefinedParts: '',
      matched: true,
    };
  }

  private inScope(dict: LoadedDictionary, res: Resolution, scope: Scope): boolean {
    const ids = placeIds(res.levels);
    const objects = ids.map((id) => dict.object(id));
    for (const key of ['fias', 'ga', 'osm', 'gar', 'kladr'] as const) {
      const want = scope[key];
      if (want && !objects.some((o) => o.codes[key].toLowerCase() === want.toLowerCase())) return false;
    }
    if (scope.postcode) {
      // a house's own postcode decides for it; a house without one, and a place, are in when a level has it
      const pc = res.house >= 0 ? dict.house(res.house).postcode : '';
      if (pc ? pc !== scope.postcode : !objects.some((o) => o.postcode === scope.postcode)) return false;
    }
    const byLevel = (key: LevelKey) => (res.levels[key] >= 0 ? scopeName(dict.object(res.levels[key]).name) : '');
    if (scope.name && ![byLevel('city'), byLevel('settlement'), byLevel('region')].includes(scopeName(scope.name))) return false;
    if (scope.regionName && byLevel('region') !== scopeName(scope.regionName)) return false;
    if (scope.streetName && byLevel('street') !== scopeName(scope.streetName)) return false;
    if (scope.coordinates) {
      const { latitude, longitude, radius = 1000 } = scope.coordinates;
      const h = res.house >= 0 ? dict.house(res.house) : null;
      const deepest = ids.length ? dict.object(ids[ids.length - 1]) : null;
      const lat = h?.lat || deepest?.lat || 0;
      const lon = h?.lon || deepest?.lon || 0;
      if (!lat && !lon) return false;
      const dy = (lat - latitude) * 111195;
      const dx = (lon - longitude) * 111195 * Math.cos((latitude * Math.PI) / 180);
      // a place is within the radius when its centre is, or one of its houses (a long street's centre may lie a
      // kilometre from the point on it)
      if (Math.hypot(dx, dy) > radius && !(h === null && deepest !== null && this.houseWithin(dict, deepest.id, latitude, longitude, radius))) {
        return false;
      }
    }
    return true;
  }

  /** Some house of object `id` (its subtree) lies within `radius` meters of the point. */
  private houseWithin(dict: LoadedDictionary, id: number, lat: number, lon: number, radius: number): boolean {
    return dict.core.exports.nearest(lat, lon, GEO_LEVELS.house, radius, id) !== 0;
  }

  parseHouse(query: string): { parts: HouseParts; postcodeIn: string } {
    const core = this.houseCore;
    if (!core) return { parts: emptyParts(), postcodeIn: '' };
    const text = decodeHtmlEntities(query);
    const len = core.write(text);
    core.exports.parseHouse(len);
    return this.readParts(core.result(), text);
  }

  nearest(country: Country, lat: number, lon: number, level: GeoLevel | undefined, radius: number, within = -1): { found: Found; distance: number } | null {
    const dict = this.need(country);
    const core = dict.core;
    if (!core.exports.nearest(lat, lon, level ? GEO_LEVELS[level] : 0, radius, within)) return null;
    const r = core.result();
    return { found: { kind: r[0] === 2 ? 'house' : 'object', id: r[1] }, distance: r[2] };
  }

  nearestMetro(country: Country, lat: number, lon: number, max: number, radius: number): MetroHit[] {
    const dict = this.dicts.get(country);
    if (!dict || (!lat && !lon)) return [];
    const n = dict.core.exports.nearestMetro(lat, lon, max, radius);
    const r = dict.core.result();
    const out: MetroHit[] = [];
    for (let i = 0; i < n; i++) {
      const s = r[1 + 2 * i];
      out.push({ name: dict.metro.name[s], line: dict.metro.line[s], city: dict.metro.city[s], distance: r[2 + 2 * i] });
    }
    return out;
  }
}
