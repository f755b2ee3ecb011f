/**
 * standardize(len) over text with Latin letters (assembly/solve/readings.ts): the folding variants (PLAIN too) are read most
 * words spelled right first, and a reading that settles the call ends it. The answer must be the one of every
 * variant read in variant order (`setEveryReading(1)`, the reference), for addresses of the real ru dictionary
 * typed in the wrong keyboard layout and transliterated.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AddressEngine } from '../../../../engine/engine.js';
import type { LoadedDictionary } from '../../../../engine/dictionary.js';
import { debugEngine } from '../../../helpers/engine.js';

const RUSSIAN_KEYS = 'йцукенгшщзхъфывапролджэячсмитьбю';
const LATIN_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,.";
const LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n',
  о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y',
  ь: '', э: 'e', ю: 'yu', я: 'ya',
};

/** The keys a Russian string is typed with in the Latin layout (`екатеринбург` → `trfnthby,ehu`). */
function inLatinLayout(text: string): string {
  return [...text].map((c) => {
    const at = RUSSIAN_KEYS.indexOf(c.toLowerCase());
    if (at < 0) return c;
    return c === c.toLowerCase() ? LATIN_KEYS[at] : LATIN_KEYS[at].toUpperCase();
  }).join('');
}

/** A plain transliteration (`Екатеринбург` → `Ekaterinburg`). */
function transliterated(text: string): string {
  return [...text].map((c) => {
    const latin = LATIN[c.toLowerCase()];
    if (latin === undefined) return c;
    return c === c.toLowerCase() || !latin ? latin : latin[0].toUpperCase() + latin.slice(1);
  }).join('');
}

describe('standardize(len): the readings of Latin text', () => {
  let engine: AddressEngine;
  let dict: LoadedDictionary;
  const core = () => dict.core;
  beforeAll(async () => {
    engine = await debugEngine();
    dict = engine.dictionary('ru')!;
  });

  /**
   * For every `step`-th house of the dictionary whose street has a city above it, the ways it is typed: `г <city>,
   * <street>, д <house>`, the same lower case without commas, and the street first with a flat and the city last,
   * its name missing a letter, no space after the commas (`ул Малышева,д5 кв 12,Екатеринбрг`: a comma before a letter
   * is the key of б in one layout reading and a comma in the other, neither is right, and the readings tie), and the
   * city, two commas, the street and the house with a comma after it (`Заинск,,ул Ленина, д 8,`: the layout reading
   * that takes `,` for б reads `бул Ленина` and `8б`, all words spelled right, and the other reads it better).
   */
  function addresses(step: number): string[] {
    const out: string[] = [];
    for (let id = 0; id < dict.houseCount; id += step) {
      const house = dict.house(id);
      const street = dict.object(house.parent);
      let city = street.parent;
      while (city >= 0 && dict.object(city).level > 4) city = dict.object(city).parent;
      if (city < 0 || !house.number) continue;
      const plain = `${dict.object(city).fullName}, ${street.fullName}, д ${house.number}`;
      const name = dict.object(city).name;
      const cut = id % (name.length - 3) + 3;
      out.push(
        plain,
        plain.toLowerCase().replace(/,/g, ''),
        `${street.fullName},д${house.number} кв ${id % 300 + 1},${name.slice(0, cut)}${name.slice(cut + 1)}`,
        `${name},,${street.fullName}, д ${house.number},`,
      );
    }
    return out;
  }

  it('answers as every variant read in order would, for addresses in the Latin layout and transliterated', () => {
    const queries = addresses(29).flatMap((a) => [inLatinLayout(a), transliterated(a)]);
    expect(queries.length).toBeGreaterThan(3000);
    const differing: string[] = [];
    let matched = 0;
    for (const query of queries) {
      core().hooks.setEveryReading(1);
      const reference = engine.standardize('ru', query);
      core().hooks.setEveryReading(0);
      const answer = engine.standardize('ru', query);
      if (JSON.stringify(answer) !== JSON.stringify(reference)) differing.push(query);
      if (answer.matched && answer.house >= 0) matched++;
    }
    expect(differing).toEqual([]);
    expect(matched / queries.length).toBeGreaterThan(0.9); // the comparison is of found houses, not of misses
  }, 120_000);

  it('suggests as every variant read in order would, for hints typed in the Latin layout and transliterated', () => {
    // the address cut inside its street name or house number, as a hint is typed
    const queries = addresses(53).flatMap((a) => [inLatinLayout(a), transliterated(a)]).flatMap((q) => [q.slice(0, Math.ceil(q.length * 0.6)), q.slice(0, q.length - 1)]);
    expect(queries.length).toBeGreaterThan(2000);
    const differing: string[] = [];
    let answered = 0;
    for (const query of queries) {
      core().hooks.setEveryReading(1);
      const reference = engine.suggest('ru', query, 5);
      core().hooks.setEveryReading(0);
      const hints = engine.suggest('ru', query, 5);
      if (JSON.stringify(hints) !== JSON.stringify(reference)) differing.push(query);
      if (hints.length > 0) answered++;
    }
    expect(differing).toEqual([]);
    expect(answered / queries.length).toBeGreaterThan(0.9);
  }, 120_000);

  it('ends with a layout string or a transliteration read right: the other readings are never walked', () => {
    for (const [query, street, house] of [
      ['Pfbycr ek Ktybyf 8', 'ул Ленина', '8'], // заинск ул ленина 8
      ['g. baykonur, ulitsa gagarina, dom 5', 'ул Гагарина', '5'],
    ]) {
      const walks = core().hooks.stats(0);
      const res = engine.standardize('ru', query);
      expect({ query, walks: core().hooks.stats(0) - walks }).toEqual({ query, walks: 0 });
      expect(dict.object(res.levels.street).fullName).toBe(street);
      expect(res.parts.house).toBe(house);
    }
  });

  it('reads every variant when none settles the call (a word needs a fuzzy lookup)', () => {
    const walks = core().hooks.stats(0);
    const res = engine.standardize('ru', 'trfnthby,ehu ufufhbyyf 49'); // гагаринна: one edit
    expect(core().hooks.stats(0)).toBeGreaterThan(walks);
    expect(dict.object(res.levels.street).fullName).toBe('ул Гагарина');
  });
});

describe('standardize(len): a reading done again over the same folded text', () => {
  it('reads the tokens and the house the first reading read, a hyphenated abbreviation joined (tokenize.ts)', async () => {
    // `пр-д` is joined into one token by removing its hyphen from the folded text; a second reading of that text
    // (a bare number read both ways, or a solve done again unraised: setStandardizeRaising(2) does it for every
    // solve that raised) once read its last character twice, house 44 for 4 (the street has both)
    const engine = await debugEngine();
    const dict = engine.dictionary('ru')!;
    const house = (q: string) => {
      const r = engine.standardize('ru', q);
      return r.house >= 0 ? dict.houseLabel(r.house).number : null;
    };
    for (const mode of [1, 2, 0]) {
      dict.core.hooks.setStandardizeRaising(mode);
      expect(house('пр-д Старый Зыковский , д. 4'), `raising ${mode}`).toBe('4');
      expect(house('пр-д Старый Зыковский 3'), `raising ${mode}`).toBe('3');
      expect(house('пр-кт Ленина 5 12'), `raising ${mode}`).toBe(house('проспект Ленина 5 12'));
    }
    dict.core.hooks.setStandardizeRaising(1);
  });
});
