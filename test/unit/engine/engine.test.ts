/**
 * AddressEngine (engine/engine.ts): how it turns the core's records into Resolutions — levels per
 * chain, the house spelled as the registry writes it, the apartment, geo quality, hints, scopes, metro —
 * over the hand-written model of test/helpers/model.ts, where every expected id is known.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AddressEngine, collapseToWords, decodeHtmlEntities, emptyLevels, emptyParts, scopeName, wordBeingTyped } from '../../../engine/engine.js';
import type { LoadedDictionary } from '../../../engine/dictionary.js';
import { filledParts } from '../../helpers/engine.js';
import { CITY, LENINA, MARTA, REGION, SMALL_OBJECTS, engineOfModel, mergedModel, smallModel } from '../../helpers/model.js';
import type { MergedHouse, MergedObject } from '../../../dictionaries/merged-model.js';

let engine: AddressEngine;
let dict: LoadedDictionary;
beforeAll(async () => {
  ({ engine, dict } = await engineOfModel(smallModel()));
});

describe('decodeHtmlEntities(text)', () => {
  it('decodes named and numeric HTML entities', () => {
    expect(decodeHtmlEntities('ул&nbsp;Ленина&#44; д&#x2E;5 &quot;А&quot; &laquo;x&raquo; &amp;')).toBe('ул Ленина, д.5 "А" «x» &');
  });

  it('leaves unknown entities and plain text alone, and blanks impossible code points', () => {
    expect(decodeHtmlEntities('a &foo; b')).toBe('a &foo; b');
    expect(decodeHtmlEntities('&#0;x&#x110000;')).toBe(' x ');
    expect(decodeHtmlEntities('д 5')).toBe('д 5');
  });
});

describe('collapseToWords(text)', () => {
  it('drops control characters and punctuation standing alone, and keeps the words one space apart', () => {
    expect(collapseToWords('  абракадабра ,,,   кадабра\t\u0000 ')).toBe('абракадабра кадабра');
    expect(collapseToWords('zzz, qqq;')).toBe('zzz qqq');
    expect(collapseToWords('№ 5 - д.7/1 (нет)')).toBe('5 д.7/1 (нет)');
    expect(collapseToWords('\u200b\u0007')).toBe('');
  });
});

describe('scopeName(text)', () => {
  it('drops case, ё, dots and one type word at either end, never the whole name', () => {
    expect(scopeName('г. Екатеринбург')).toBe('екатеринбург');
    expect(scopeName('Свердловская обл')).toBe('свердловская');
    expect(scopeName('ул Ленина')).toBe(scopeName('Ленина'));
    expect(scopeName('Проспект Мира')).toBe(scopeName('Мира'));
    expect(scopeName('Ханты-Мансийский Автономный округ - Югра')).toBe('ханты-мансийский автономный округ - югра');
    expect(scopeName('Город')).toBe('город');
    expect(scopeName('Берёзовский')).toBe('березовский');
  });
});

describe('wordBeingTyped(text)', () => {
  // the rule as one pattern over the whole text (engine.ts reads only the end)
  const whole = /(?:[\p{L}\p{N}]|[a-z][;,.[\]'`]+)$/iu;

  it('is true for a text ending in a letter or digit, or in layout keys right after a Latin letter', () => {
    for (const text of ['моск', 'тверская 7', 'ghjc', 'k;', ',f;', 'abc.[', 'Ǳ', '𐐀']) expect(wordBeingTyped(text), text).toBe(true);
    for (const text of ['', ' ', 'москва ', 'ул.', '12/', 'я;', ';', 'a ;', '🙂']) expect(wordBeingTyped(text), text).toBe(false);
  });

  it('answers as the pattern over the whole text, for any text', () => {
    const unit = fc.constantFrom(...'aZkſKёЖ7٣ ;,.[]\'`-/🙂\u{10400}\ud800\udc00'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(unit, { maxLength: 12 }).map((units) => units.join(''))), (text) => {
        expect(wordBeingTyped(text)).toBe(whole.test(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('AddressEngine', () => {
  describe('countries() and dictionary(country)', () => {
    it('lists the loaded countries and nothing else', () => {
      expect(engine.countries()).toEqual(['ru']);
      expect(engine.dictionary('ru')).toBe(dict);
      expect(engine.dictionary('kz')).toBeNull();
    });

    it('refuses a country without a dictionary', () => {
      expect(() => engine.standardize('kz', 'Алматы')).toThrow(/no dictionary for kz/);
      expect(() => engine.suggest('by', 'Минск', 5)).toThrow(/no dictionary for by/);
      expect(engine.nearestMetro('ua', 50.45, 30.52, 3, 5000)).toEqual([]);
    });
  });

  describe('standardize(country, query)', () => {
    it('fills every level of the chain and leaves the others at −1', () => {
      const res = engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, 10');
      expect(res.levels).toEqual({ ...emptyLevels(), region: REGION, city: CITY, street: LENINA });
      expect(res.house).toBe(0);
      expect(res.matched).toBe(true);
    });

    it('spells an exact house as the registry does (10 корп 2 → house 10, case 2)', () => {
      const res = engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, дом 10 корпус 2');
      expect(res.house).toBe(2);
      expect(filledParts(res.parts)).toEqual({ house: '10', case: '2' });
    });

    it('keeps the parts as written when the house is only partly found', () => {
      const res = engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, д 10 корп 9');
      expect(res.quality.house).toBe(4);
      expect(res.house).toBe(0);
      expect(filledParts(res.parts)).toEqual({ house: '10', case: '9' });
    });

    it('finds the apartment of the house by its flat, and none for an unknown flat', () => {
      expect(engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, 10, кв 5').apartment).toBe(0);
      expect(engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, 10, кв 6').apartment).toBe(-1);
      expect(engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, 10а, кв 5').apartment).toBe(-1);
    });

    it('reports the postcode written in the query', () => {
      expect(engine.standardize('ru', '620075, Екатеринбург, пр-кт Ленина, 10').postcodeIn).toBe('620075');
    });

    it('sets geo to the level of the most precise coordinates', () => {
      expect(engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, 10').quality.geo).toBe(8);
      // house 14 has no coordinates: the street's
      const noCoords = engine.standardize('ru', 'Екатеринбург, пр-кт Ленина, 14');
      expect(noCoords.house).toBe(3);
      expect(noCoords.quality.geo).toBe(7);
      expect(engine.standardize('ru', 'Екатеринбург').quality.geo).toBe(3);
    });

    it('returns a nothing-matched resolution for text it cannot place', () => {
      const res = engine.standardize('ru', '  zzz   qqq ');
      expect(res).toMatchObject({ matched: false, house: -1, apartment: -1, undefinedParts: 'zzz qqq' });
      expect(res.levels).toEqual(emptyLevels());
      expect(res.quality.undefined).toBe(2);
    });

    it('decodes HTML entities before the core sees the query', () => {
      expect(engine.standardize('ru', 'Екатеринбург,&nbsp;пр-кт&nbsp;Ленина&#44; 10а').house).toBe(1);
    });
  });

  describe('suggest(country, query, count, scopes)', () => {
    it('returns resolutions of objects and of houses', () => {
      const list = engine.suggest('ru', 'Екатеринбург Ленина 1', 10);
      const houses = list.filter((r) => r.house >= 0);
      expect(houses.map((r) => dict.house(r.house).number)).toEqual(expect.arrayContaining(['10', '10а', '14']));
      for (const r of houses) {
        expect(r.levels.street).toBe(LENINA);
        expect(r.quality).toMatchObject({ level: 8, house: 3 });
        expect(r.parts.house).toBe(dict.house(r.house).number.toLowerCase());
      }
    });

    it('spells block, building and liter of a house hint (this one a land plot: its number is the stead\'s)', () => {
      const list = engine.suggest('ru', 'Екатеринбург 8 Марта 12', 5);
      const house = list.find((r) => r.house === 5)!;
      expect(filledParts(house.parts)).toEqual({ stead: '12', build: '3', liter: 'б', constr: '1' });
    });

    it('reads the last word as a prefix only while it is being typed', () => {
      expect(engine.suggest('ru', 'Екатеринбург Лен', 5)[0].levels.street).toBe(LENINA);
      expect(engine.suggest('ru', 'Екатеринбург Лен ', 5).every((r) => r.levels.street !== LENINA)).toBe(true);
    });

    it('hands out the same frozen Resolution whenever the same house or object is a hint, equal to a fresh one', () => {
      const first = engine.suggest('ru', 'Екатеринбург Ленина 1', 10);
      const again = engine.suggest('ru', 'Ленина 1 екатеринбург', 10);
      const house = first.find((r) => r.house >= 0)!;
      const street = first.find((r) => r.house < 0)!;
      expect(again).toContain(house);
      expect(again).toContain(street);
      for (const r of [house, street]) {
        expect(Object.isFrozen(r) && Object.isFrozen(r.levels) && Object.isFrozen(r.parts) && Object.isFrozen(r.quality)).toBe(true);
        expect(() => {
          (r.parts as { house: string }).house = 'x';
        }).toThrow(TypeError);
      }
      expect(house).toEqual(engine.resolutionOf(dict, { kind: 'house', id: house.house }));
      expect(street).toEqual(engine.resolutionOf(dict, { kind: 'object', id: street.levels.street }));
    });

    it('returns at most count items', () => {
      expect(engine.suggest('ru', 'Екатеринбург', 1)).toHaveLength(1);
      expect(engine.suggest('ru', 'Екатеринбург Ленина 1', 2)).toHaveLength(2);
    });

    it('keeps only the hints inside one of the scopes (members ANDed, scopes ORed)', () => {
      const houses = (scopes: Parameters<AddressEngine['suggest']>[3]) =>
        engine.suggest('ru', 'Екатеринбург Ленина 1', 10, scopes).map((r) => (r.house >= 0 ? dict.house(r.house).number + dict.house(r.house).block : 'street'));
      // places within a radius: the street and the city, whose houses are there though their centres are not
      const places = (scopes: Parameters<AddressEngine['suggest']>[3]) =>
        engine.suggest('ru', 'Екатеринбург Ленина 1', 10, scopes).filter((r) => r.house < 0).map((r) => dict.object(r.levels.street >= 0 ? r.levels.street : r.levels.city).name);
      const near10a = { coordinates: { latitude: 56.8392, longitude: 60.611, radius: 10 } };
      const near10 = { coordinates: { latitude: 56.839, longitude: 60.61, radius: 10 } };
      const leninaFias = '00000000-1111-4222-8333-444444444444';
      expect(houses([{ fias: leninaFias }]).sort()).toEqual(['10', '102', '10а', '14', 'street']);
      expect(houses([{ fias: 'ffffffff-1111-4222-8333-444444444444' }])).toEqual([]);
      expect(houses([near10a]).filter((h) => h !== 'street')).toEqual(['10а']);
      expect(places([near10a]).sort()).toEqual(['Екатеринбург', 'Ленина']);
      expect(houses([near10a, near10]).filter((h) => h !== 'street').sort()).toEqual(['10', '10а']);
      expect(houses([{ fias: leninaFias, ...near10a }])).toEqual(['10а', 'street']);
      expect(houses([{ kladr: '7700000000000', ...near10a }])).toEqual([]);
      expect(houses([{ streetName: 'ленина', regionName: 'Свердловская' }]).length).toBe(5);
      expect(houses([{ name: 'Екатеринбург', streetName: '8 Марта' }])).toEqual([]);
      // names as records write the levels' fullName, or with the type in full, scope as the bare names do
      expect(houses([{ name: 'г Екатеринбург', regionName: 'Свердловская обл', streetName: 'ул. Ленина' }]).length).toBe(5);
      expect(houses([{ name: 'город Екатеринбург', regionName: 'Свердловская область' }])).toEqual(houses([{ name: 'Екатеринбург', regionName: 'Свердловская' }]));
      expect(houses([{ name: 'Екатеринбург' }]).length).toBe(6);
      expect(houses([{ name: 'г Москва' }])).toEqual([]);
    });
  });

  describe('resolutionOf(dictionary, found)', () => {
    it('resolves an apartment to its house and flat', () => {
      const res = engine.resolutionOf(dict, { kind: 'apartment', id: 0 });
      expect(res).toMatchObject({ house: 0, apartment: 0, matched: true });
      expect(filledParts(res.parts)).toEqual({ house: '10', flat: '5' });
      expect(res.levels.street).toBe(LENINA);
    });

    it('resolves an object to its chain with quality.house 9', () => {
      const res = engine.resolutionOf(dict, { kind: 'object', id: CITY });
      expect(res.levels).toEqual({ ...emptyLevels(), region: REGION, city: CITY });
      expect(res.quality).toMatchObject({ level: 3, house: 9, geo: 3 });
      expect(res.parts).toEqual(emptyParts());
    });
  });

  describe('houses of one number with several corpora', () => {
    it('are hinted in the natural order of their corpora, not in the registry\'s', async () => {
      const corpora = ['1', '10', '2', '3', '6', '7', '12', '4', '5', '8', '9'];
      const houses = corpora.map((block): MergedHouse => ({ parent: LENINA, number: '35', block, codes: {}, source: 'test' }));
      const { engine: hinted, dict: hintedDict } = await engineOfModel(mergedModel(SMALL_OBJECTS, houses));
      const hints = hinted.suggest('ru', 'Екатеринбург Ленина 35', 5).filter((r) => r.house >= 0).map((r) => hintedDict.house(r.house).block);
      expect(hints).toEqual(['1', '2', '3', '4', '5']);
    });
  });

  describe('a tie between streets of one name in one town, no type typed', () => {
    it('goes to the commonest street type (ул), read first or not', async () => {
      const street = (key: string, type: string): MergedObject => ({ key, level: 7, parent: CITY, name: 'Бахчиванджи', type, codes: {}, ga: '', source: 'test' });
      for (const [first, second] of [['пл', 'ул'], ['ул', 'пл']]) {
        const objects = [...SMALL_OBJECTS, street('test:a', first), street('test:b', second)];
        const three = (parent: number): MergedHouse => ({ parent, number: '3', codes: {}, source: 'test' });
        const { engine: tied, dict: tiedDict } = await engineOfModel(mergedModel(objects, [three(objects.length - 2), three(objects.length - 1)]));
        const res = tied.standardize('ru', 'Екатеринбург, Бахчиванджи, 3');
        expect(tiedDict.object(res.levels.street).type, `${first} read first`).toBe('ул');
        expect(res.quality.unique).toBe(2);
        // a type typed decides it
        expect(tiedDict.object(tied.standardize('ru', 'Екатеринбург, пл Бахчиванджи, 3').levels.street).type).toBe('пл');
      }
    });
  });

  describe('a house number the registry writes wide (84-86, 59б1, №3б)', () => {
    const wide = (number: string, parent = LENINA): MergedHouse => ({ parent, number, codes: {}, source: 'test' });
    let wideEngine: AddressEngine;
    let wideDict: LoadedDictionary;
    beforeAll(async () => {
      ({ engine: wideEngine, dict: wideDict } = await engineOfModel(
        mergedModel(SMALL_OBJECTS, [wide('84'), wide('84-86'), wide('59б'), wide('59б1'), wide('35д'), wide('37к'), wide('1'), { ...wide('№3б', MARTA), stead: true }]),
      ));
    });
    const read = (query: string) => {
      const res = wideEngine.standardize('ru', query);
      return { number: res.house >= 0 ? wideDict.house(res.house).number : null, parts: filledParts(res.parts), left: res.undefinedParts };
    };

    it('takes the house spelled as typed before house and flat, and the flat after it', () => {
      expect(read('Екатеринбург, пр-кт Ленина, 84-86')).toEqual({ number: '84-86', parts: { house: '84-86' }, left: '' });
      expect(read('Екатеринбург, Ленина, д 84-86 кв 53')).toEqual({ number: '84-86', parts: { house: '84-86', flat: '53' }, left: '' });
      expect(read('Екатеринбург, Ленина, 84-86-283')).toEqual({ number: '84-86', parts: { house: '84-86', flat: '283' }, left: '' });
      expect(read('Екатеринбург, Ленина, 59б1')).toEqual({ number: '59б1', parts: { house: '59б1' }, left: '' });
    });

    it('reads a keyword letter glued before a hyphen as the house\'s letter when the street has that house (35д-253)', () => {
      expect(read('Екатеринбург, Ленина, д.35д-253')).toEqual({ number: '35д', parts: { house: '35д', flat: '253' }, left: '' });
      expect(read('Екатеринбург, Ленина, 35д-253')).toEqual({ number: '35д', parts: { house: '35д', flat: '253' }, left: '' });
      // к is a corpus too: 37к-148 is house 37к, flat 148 when the street has 37к
      expect(read('Екатеринбург, Ленина, 37к-148')).toEqual({ number: '37к', parts: { house: '37к', flat: '148' }, left: '' });
      // no house 1д, 1л: a slip, house 1 and the flat
      expect(read('Екатеринбург, Ленина, дом1д-115')).toEqual({ number: '1', parts: { house: '1', flat: '115' }, left: '' });
      expect(read('Екатеринбург, Ленина, д.1л-144')).toEqual({ number: '1', parts: { house: '1', flat: '144' }, left: '' });
    });

    it('reads house and flat when no house is spelled so', () => {
      expect(read('Екатеринбург, Ленина, 84-12')).toEqual({ number: '84', parts: { house: '84', flat: '12' }, left: '' });
      expect(read('Екатеринбург, Ленина, 59б 1')).toMatchObject({ number: '59б', parts: { house: '59б' } });
    });

    it('hints the house spelled as typed first, and the narrow reading after it', () => {
      const hints = (query: string) => wideEngine.suggest('ru', query, 5).filter((r) => r.house >= 0).map((r) => wideDict.house(r.house).number);
      expect(hints('Екатеринбург Ленина 84-86').slice(0, 2)).toEqual(['84-86', '84']);
      expect(hints('Екатеринбург Ленина 59б1').slice(0, 2)).toEqual(['59б1', '59б']);
      expect(hints('Екатеринбург Ленина 84').slice(0, 2)).toEqual(['84', '84-86']);
    });

    it('finds a number written with № (the query grammar reads the sign as «номер»)', () => {
      expect(read('Екатеринбург, ул 8 Марта, №3б')).toMatchObject({ number: '№3б' });
      expect(read('Екатеринбург, ул 8 Марта, д 3б')).toMatchObject({ number: '№3б' });
    });
  });

  describe('a land plot and a building spelled alike (GAR: stead №2 beside house 2)', () => {
    const house = (number: string, stead = false, parent = LENINA): MergedHouse => ({ parent, number, codes: {}, source: 'test', ...(stead ? { stead } : {}) });
    let own: AddressEngine;
    let dict: LoadedDictionary;
    beforeAll(async () => {
      // the stead first in the registry's order: the building must not win by coming first
      ({ engine: own, dict } = await engineOfModel(mergedModel(SMALL_OBJECTS, [house('№2', true), house('2'), house('27'), house('9', true, MARTA)])));
    });
    const read = (query: string) => {
      const res = own.standardize('ru', query);
      const found = res.house >= 0 ? dict.house(res.house) : null;
      return { number: found?.number ?? null, stead: found?.stead ?? null, parts: filledParts(res.parts), house: res.quality.house };
    };

    it('answers the land plot when its keyword is typed, the building otherwise', () => {
      expect(read('Екатеринбург, Ленина, уч 2')).toEqual({ number: '№2', stead: true, parts: { stead: '№2' }, house: 3 });
      expect(read('Екатеринбург, Ленина, участок 2')).toEqual({ number: '№2', stead: true, parts: { stead: '№2' }, house: 3 });
      expect(read('Екатеринбург, Ленина, 2')).toEqual({ number: '2', stead: false, parts: { house: '2' }, house: 3 });
      expect(read('Екатеринбург, Ленина, д 2')).toEqual({ number: '2', stead: false, parts: { house: '2' }, house: 3 });
    });

    it('finds a land plot typed with its keyword where the street has only it, or only the building', () => {
      expect(read('Екатеринбург, ул 8 Марта, уч. 9')).toEqual({ number: '9', stead: true, parts: { stead: '9' }, house: 3 });
      // no plot 27: the building of that number
      expect(read('Екатеринбург, Ленина, участок 27')).toEqual({ number: '27', stead: false, parts: { house: '27' }, house: 3 });
      // nothing of that number: no house, the plot's number kept as typed
      expect(read('Екатеринбург, Ленина, уч 31')).toEqual({ number: null, stead: null, parts: { stead: '31' }, house: 0 });
    });

    it('writes a land plot found by id as the stead', () => {
      const plot = own.standardize('ru', 'Екатеринбург, Ленина, уч 2').house;
      expect(filledParts(own.resolutionOf(dict, { kind: 'house', id: plot }).parts)).toEqual({ stead: '№2' });
      const building = own.standardize('ru', 'Екатеринбург, Ленина, 2').house;
      expect(filledParts(own.resolutionOf(dict, { kind: 'house', id: building }).parts)).toEqual({ house: '2' });
    });

    it('lists the land plot first in hints when its keyword is typed, the building first otherwise', () => {
      const hints = (query: string) =>
        own.suggest('ru', query, 5).filter((res) => res.house >= 0).map((res) => filledParts(res.parts));
      // the stead comes first in the registry's order, so each list needs the swap it asks for
      expect(hints('Екатеринбург, Ленина, уч 2').slice(0, 2)).toEqual([{ stead: '№2' }, { house: '2' }]);
      expect(hints('екатеринбург ленина участок 2').slice(0, 2)).toEqual([{ stead: '№2' }, { house: '2' }]);
      expect(hints('Екатеринбург, Ленина, 2').slice(0, 2)).toEqual([{ house: '2' }, { stead: '№2' }]);
      expect(hints('Екатеринбург, Ленина, д 2').slice(0, 2)).toEqual([{ house: '2' }, { stead: '№2' }]);
      // a plot asked for where the street has only the building: the building stays
      expect(hints('Екатеринбург, Ленина, участок 27')[0]).toEqual({ house: '27' });
    });
  });

  describe('a corpus typed without the letter the registry adds (12 к4 for 12 лит Б к4)', () => {
    const corpus = (block: string, liter = '', number = '12'): MergedHouse => ({ parent: LENINA, number, block, ...(liter ? { liter } : {}), codes: {}, source: 'test' });
    const read = async (houses: MergedHouse[], query: string) => {
      const { engine: own, dict } = await engineOfModel(mergedModel(SMALL_OBJECTS, houses));
      const res = own.standardize('ru', query);
      const found = res.house >= 0 ? dict.house(res.house) : null;
      return found && { block: found.block, liter: found.liter };
    };
    const street = [corpus('3'), corpus('1'), corpus('4', 'б'), corpus('2')];

    it('takes the house with every part typed and a letter besides, before the first house of the number', async () => {
      expect(await read(street, 'Екатеринбург, Ленина, 12 к4')).toMatchObject({ block: '4', liter: 'б' });
      expect(await read(street, 'Екатеринбург, Ленина, д 12 корп 3')).toMatchObject({ block: '3', liter: '' });
    });

    it('keeps the exact house first, and the first of the number in natural order when no house has the corpus', async () => {
      expect(await read([...street, corpus('4')], 'Екатеринбург, Ленина, 12 к4')).toMatchObject({ block: '4', liter: '' });
      expect(await read(street, 'Екатеринбург, Ленина, 12б к4')).toMatchObject({ block: '4', liter: 'б' });
      // the registry lists к3 first; к1 comes first in natural order
      expect(await read(street, 'Екатеринбург, Ленина, 12 к5')).toMatchObject({ block: '1' });
    });

    it('hints that house for the corpus typed', async () => {
      const { engine: own, dict } = await engineOfModel(mergedModel(SMALL_OBJECTS, street));
      const first = own.suggest('ru', 'Екатеринбург Ленина 12 к4', 5).find((r) => r.house >= 0);
      expect(first && dict.house(first.house)).toMatchObject({ block: '4', liter: 'б' });
    });
  });

  describe('parseHouse(query)', () => {
    it('parses with the first dictionary\'s core, and with none returns empty parts', () => {
      expect(filledParts(engine.parseHouse('д 5 кв 7').parts)).toEqual({ house: '5', flat: '7' });
      expect(new AddressEngine([]).parseHouse('д 5 кв 7')).toEqual({ parts: emptyParts(), postcodeIn: '' });
    });
  });

  describe('nearest and nearestMetro', () => {
    it('finds the object of a level a point lies in: on the chain of the nearest point', () => {
      expect(engine.nearest('ru', 56.8389, 60.6057, 'street', 100)).toEqual({ found: { kind: 'object', id: LENINA }, distance: 0 });
      expect(engine.nearest('ru', 56.8389, 60.6057, 'city', 100)).toEqual({ found: { kind: 'object', id: CITY }, distance: 0 });
      expect(engine.nearest('ru', 56.8389, 60.6057, 'region', 100)).toEqual({ found: { kind: 'object', id: REGION }, distance: 0 });
      expect(engine.nearest('ru', 0.5, -30.5, 'region', 1000)).toBeNull();
    });

    it('gives no metro for unknown coordinates (0, 0)', () => {
      expect(engine.nearestMetro('ru', 0, 0, 3, 5000)).toEqual([]);
    });
  });
});
