/**
 * The address type table (`data/types.tsv`): canonical abbreviations of conventions.md (`г`, `ул`, `пр-кт`,
 * `обл`), their full names, the model levels they occur at, the side of the name they are written on, and
 * the other spellings registries and people use (GAR's new dotted short names `ул.`, `пр-д`, OSM's full
 * words `улица`, Ukrainian `вулиця`). Readers use it to turn a registry's type into the canonical one
 * (`typeOf`) and to split OSM's `addr:street` (`улица Челюскинцев`, `Ленина проспект`) into type and name
 * (`splitTypedName`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LEVEL_NAMES, type LevelNumber } from './source-model.js';
import { fold } from './join-keys.js';

export interface AddressType {
  country: string; // `*` or ru/ua/by/kz
  abbr: string;
  full: string;
  levels: LevelNumber[];
  after: boolean;
  synonyms: string[];
}

export type Country = 'ru' | 'kz' | 'by' | 'ua';

const TYPES_FILE = fileURLToPath(new URL('./data/types.tsv', import.meta.url));

export class TypeTable {
  readonly types: AddressType[] = [];
  /** folded spelling → types, country rows first, abbreviation matches before synonyms */
  private readonly bySpelling = new Map<string, AddressType[]>();
  private maxWords = 1;

  static load(file = TYPES_FILE): TypeTable {
    const table = new TypeTable();
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (line === '' || line.startsWith('#')) return;
      const cells = line.split('\t');
      if (cells.length < 5) throw new Error(`${file}:${index + 1}: expected 6 tab-separated cells, got ${cells.length}`);
      const [country, abbr, full, levels, placement, synonyms = ''] = cells;
      table.add({
        country,
        abbr,
        full,
        levels: levels.split(',').map((name) => {
          const level = LEVEL_NAMES.indexOf(name as (typeof LEVEL_NAMES)[number]);
          if (level < 1) throw new Error(`${file}:${index + 1}: unknown level ${name}`);
          return level as LevelNumber;
        }),
        after: placement === 'after',
        synonyms: synonyms.split('|').filter((s) => s !== ''),
      });
    });
    return table;
  }

  add(type: AddressType): void {
    this.types.push(type);
    const spellings = [type.abbr, type.full, ...type.synonyms];
    spellings.forEach((spelling, rank) => {
      const key = foldType(spelling);
      if (key === '') return;
      this.maxWords = Math.max(this.maxWords, key.split(' ').length);
      const list = this.bySpelling.get(key) ?? [];
      // abbreviation and full name first, then synonyms: `п` is Поселок before it is Поселение
      if (rank < 2) list.unshift(type);
      else list.push(type);
      this.bySpelling.set(key, list);
    });
  }

  /**
   * Add types from another table (hflabs/KLADR socrbase): an abbreviation already known only widens its
   * levels; an unknown one is added with its full name as a synonym.
   */
  enrich(types: AddressType[]): number {
    let added = 0;
    for (const type of types) {
      const known = this.lookup(type.abbr, 'ru') ?? this.lookup(type.full, 'ru');
      if (known) {
        for (const level of type.levels) if (!known.levels.includes(level)) known.levels.push(level);
        continue;
      }
      this.add({ ...type, synonyms: [...type.synonyms] });
      added++;
    }
    return added;
  }

  /** The type written as `spelling` (any known spelling) in `country`, preferring one found at `level`. */
  lookup(spelling: string, country: Country, level?: LevelNumber): AddressType | undefined {
    const list = this.bySpelling.get(foldType(spelling));
    if (!list) return undefined;
    const inCountry = list.filter((t) => t.country === country);
    const candidates = [...inCountry, ...list.filter((t) => t.country === '*' && (country === 'ru' || inCountry.length === 0))];
    if (candidates.length === 0) return undefined;
    if (level !== undefined) {
      const atLevel = candidates.find((t) => t.levels.includes(level));
      if (atLevel) return atLevel;
    }
    return candidates[0];
  }

  /** canonical abbreviation for a registry's type; unknown types are kept as written, minus a trailing dot */
  abbreviation(spelling: string, country: Country, level?: LevelNumber): string {
    return this.lookup(spelling, country, level)?.abbr ?? spelling.trim().replace(/\.$/, '');
  }

  isAfter(abbr: string, country: Country): boolean {
    return this.lookup(abbr, country)?.after ?? false;
  }

  /**
   * Split a name with its type word(s) at either end: `улица Челюскинцев` → `{ул, Челюскинцев}`,
   * `Ленина проспект` → `{пр-кт, Ленина}`, `2-й Варшавский проезд` → `{проезд, 2-й Варшавский}`.
   * Only types allowed at `levels` are taken; a name without a known type word comes back with `type: ''`.
   */
  splitTypedName(text: string, country: Country, levels: LevelNumber[]): { type: string; name: string } {
    const words = text.trim().split(/\s+/);
    for (let n = Math.min(this.maxWords, words.length - 1); n >= 1; n--) {
      for (const atStart of [true, false]) {
        const typeWords = atStart ? words.slice(0, n) : words.slice(words.length - n);
        const type = this.lookup(typeWords.join(' '), country);
        if (!type || !levels.some((l) => type.levels.includes(l))) continue;
        // a single-letter synonym (`п`, `м`, `с`) only counts when written as a separate abbreviation at the start
        const name = (atStart ? words.slice(n) : words.slice(0, words.length - n)).join(' ');
        if (name === '') continue;
        // a unit after a number is part of the name (`Московский тракт 9 Километр`): look for a type inside first
        if (!atStart && /^\d+(-?[а-яё]{1,3})?$/i.test(words[words.length - n - 1] ?? '')) {
          const inner = this.splitInner(words, country, levels);
          if (inner) return inner;
          continue;
        }
        const best = this.lookup(typeWords.join(' '), country, levels.find((l) => type.levels.includes(l)));
        return { type: (best ?? type).abbr, name };
      }
    }
    return { type: '', name: text.trim() };
  }

  /** A one-word type inside the name: `Московский тракт 9 Километр` → `{тракт, Московский 9 Километр}`. */
  private splitInner(words: string[], country: Country, levels: LevelNumber[]): { type: string; name: string } | undefined {
    for (let i = 1; i < words.length - 1; i++) {
      const type = this.lookup(words[i], country);
      if (!type || !levels.some((l) => type.levels.includes(l))) continue;
      if (/^\d/.test(words[i - 1]) || words[i].length < 3) continue;
      const best = this.lookup(words[i], country, levels.find((l) => type.levels.includes(l)));
      return { type: (best ?? type).abbr, name: [...words.slice(0, i), ...words.slice(i + 1)].join(' ') };
    }
    return undefined;
  }
}

function foldType(spelling: string): string {
  return fold(spelling).replace(/\.$/, '').replace(/\s+/g, ' ').trim();
}

let shared: TypeTable | undefined;
/** the table from `data/types.tsv`, loaded once */
export function typeTable(): TypeTable {
  shared ??= TypeTable.load();
  return shared;
}
