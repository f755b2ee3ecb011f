/**
 * The chain solver (assembly/solve/chain.ts) and the quality verdict (assembly/solve/answer.ts writeStandardized)
 * through engine.standardize on the real ru dictionary: ancestors, houses and postcodes choosing among
 * streets of one name, a street given without its city, and every quality field of conventions.md.
 */
import { describe, expect, it } from 'vitest';
import { standardizeRu } from '../../../helpers/engine.js';

const EKB = { region: 'Свердловская обл', city: 'г Екатеринбург' };
const ALMETYEVSK = { region: 'Респ Татарстан', area: 'Альметьевский р-н', city: 'г Альметьевск' };

describe('standardize: the chain', () => {
  it('finds a street given without its city when its name is unique', async () => {
    expect((await standardizeRu('ул Малышева')).levels).toEqual({ ...EKB, street: 'ул Малышева' });
    const res = await standardizeRu('Старых Большевиков 2а');
    expect(res.levels).toEqual({ ...EKB, street: 'ул Старых Большевиков' });
    expect(res.house).toBe('2а');
  });

  it('chooses among 100+ streets named Ленина by the town written with it (AncestorSolver)', async () => {
    expect((await standardizeRu('Альметьевск Ленина')).levels).toEqual({ ...ALMETYEVSK, street: 'ул Ленина' });
    expect((await standardizeRu('ул Ленина, Альметьевск')).levels).toEqual({ ...ALMETYEVSK, street: 'ул Ленина' });
  });

  it('reads the levels in any order', async () => {
    const a = await standardizeRu('Альметьевск ул. Ленина 1');
    const b = await standardizeRu('Ленина Альметьевск 1');
    expect(b).toEqual(a);
    expect(a.house).toBe('1');
    expect((await standardizeRu('Малышева Екатеринбург')).levels).toEqual((await standardizeRu('Екатеринбург Малышева')).levels);
  });

  it('chooses the street that has the house (HouseSolver)', async () => {
    const res = await standardizeRu('ул Ленина 61');
    expect(res.levels).toEqual({ ...ALMETYEVSK, street: 'ул Ленина' });
    expect(res.quality).toMatchObject({ house: 3, unique: 0 });
  });

  it('takes a town over a street of another town that ties with it (a name alone: `Слободской`)', async () => {
    const res = await standardizeRu('Слободской');
    expect(res.levels).toMatchObject({ region: 'Кировская обл', city: 'г Слободской' });
    // the street still wins when the query says so or gives its house
    expect((await standardizeRu('пер Слободской')).levels.street).toBe('пер Слободской');
  });

  it('reads a bare first number as a microdistrict when another number follows, with or without a comma', async () => {
    for (const query of ['6а 23', 'Байконур 6а 23', 'байконур, 6а, 23']) {
      const res = await standardizeRu(query);
      expect(res.levels).toEqual({ region: 'г Байконур', planStructure: 'мкр 6а' });
      expect(res.house).toBe('23');
    }
    expect((await standardizeRu('Байконур 5а 9/4')).house).toBe('9/4');
    // a number after мкр is the microdistrict's own unless the microdistrict was named before the word
    for (const query of ['Светлый микрорайон 5 Екатеринбург город', 'Екатеринбург, Светлый мкр 5']) {
      const res = await standardizeRu(query);
      expect(res.levels, query).toEqual({ region: 'Свердловская обл', city: 'г Екатеринбург', street: 'мкр Светлый' });
      expect(res.house, query).toBe('5');
      expect(res.undefinedParts, query).toBe('');
    }
    expect((await standardizeRu('Байконур, мкр 6а')).levels.planStructure).toBe('мкр 6а');
    // and after мкр with a number sign: `мкр. №6, д. 12` is мкр 6-й, house 12, the sign no leftover
    for (const query of ['Байконур, мкр. №6, д. 12', 'Байконур, мкр № 6 12']) {
      const signed = await standardizeRu(query);
      expect(signed.levels, query).toEqual({ region: 'г Байконур', planStructure: 'мкр 6-й' });
      expect(signed.house, query).toBe('12');
      expect(signed.undefinedParts, query).toBe('');
    }
    // a keyword's value is not such a number: «1 стр 24» stays house 1, building 24 (no «1-я улица 8 Марта»)
    const building = await standardizeRu('Москва, 8 Марта, 1 стр 24');
    expect(building.levels).toEqual({ region: 'г Москва', street: 'ул 8 Марта' });
    expect(building.house).toBe('1с24');
  });

  it('finds a house that is only a building (GAR «ул Бармина, стр 1а»: no house number)', async () => {
    for (const query of ['г Байконур, ул Бармина, стр 1а', 'Байконур Бармина строение 1а']) {
      const res = await standardizeRu(query);
      expect(res.levels).toEqual({ region: 'г Байконур', street: 'ул Бармина' });
      expect(res.house).toBe('с1а');
      expect(res.quality.house).toBe(3);
    }
    // no such building: the street, no house
    const missing = await standardizeRu('г Байконур, ул Бармина, стр 7');
    expect(missing.house).toBe('');
    expect(missing.quality.house).toBe(0);
  });

  it('finds a house whose Latin look-alike letter the query glued to the number (45a, 40c4)', async () => {
    expect((await standardizeRu('Екатеринбург, Библиотечная 45a')).house).toBe('45а');
    expect((await standardizeRu('Екатеринбург, Бархотская 1B')).house).toBe('1в');
    expect((await standardizeRu('Москва, Ленинградский пр-кт 40c4')).house).toBe('40с4');
  });

  it('finds a house whose letter is a keyword (д) before a fraction (OSM «ул Восточная 7д/2»: not house 2)', async () => {
    for (const query of ['Екатеринбург Восточная 7д/2', 'Екатеринбург, ул Восточная, д. 7Д/2']) {
      const res = await standardizeRu(query);
      expect(res.levels.street, query).toBe('ул Восточная');
      expect(res.house, query).toBe('7д/2');
    }
  });

  it('reads a lone letter after the house as its letter when a word follows it, unless the letter types that word', async () => {
    for (const query of ['ул. Начдива Онуфриева, д. 28 А г. Екатеринбург', 'Начдива Онуфриева дом 28-А г Екатеринбург']) {
      expect((await standardizeRu(query)).house, query).toBe('28а');
    }
    // `д34 г Екатеринбург`: the г types the city
    expect((await standardizeRu('Малышева д 36 г Екатеринбург')).levels.city).toBe('г Екатеринбург');
  });

  it('reads a bare number before a street\'s other words as its name\'s when no other number follows (`ул. 8 Марта`)', async () => {
    for (const query of ['Екатеринбург, ул. 8 Марта', '8 марта екатеринбург', 'Екатеринбург, ул. 40-летия Комсомола']) {
      const res = await standardizeRu(query);
      expect(res.house, query).toBe('');
      expect(res.parts.house, query).toBeUndefined();
      expect(res.quality.house, query).toBe(9);
    }
    // with a number after it, that one is the house; a number after the name is the house
    expect((await standardizeRu('Екатеринбург, ул. 8 Марта, 8')).house).toBe('8');
    expect((await standardizeRu('Малышева 5 Екатеринбург')).house).toBe('5');
  });

  it('reads a Latin capital B after the number as б where the street has no house of В (`2B`: Малышева 2б)', async () => {
    const res = await standardizeRu('Екатеринбург, Малышева 2B');
    expect(res.house).toBe('2б');
    expect(res.quality.house).toBe(3);
  });

  it('reads a postcode of the dictionary typed in two halves, alone at either end', async () => {
    for (const query of ['468 320, Байконур, ул Горького 5а', 'Байконур, ул Горького 5а, 468 320']) {
      const res = await standardizeRu(query);
      expect(res.postcodeIn, query).toBe('468320');
      expect(res.house, query).toBe('5а');
      expect(res.undefinedParts, query).toBe('');
    }
    // two numbers that are no postcode stay what they were
    const not = await standardizeRu('Байконур, ул Горького 5а, 123 456');
    expect(not.postcodeIn).toBe('');
    expect(not.undefinedParts).toBe('456');
  });

  it('chooses the town by the postcode (PostcodeSolver)', async () => {
    const bavly = await standardizeRu('423930, ул Ленина');
    expect(bavly.levels).toMatchObject({ city: 'г Бавлы', street: 'ул Ленина' });
    expect(bavly.postcodeIn).toBe('423930');
    expect((await standardizeRu('ул Ленина 423450')).levels.city).toBe('г Альметьевск');
    expect((await standardizeRu('422230 Ленина')).levels.city).toBe('г Агрыз');
  });

  it('keeps a federal city as the region with no city level', async () => {
    expect((await standardizeRu('г Москва')).levels).toEqual({ region: 'г Москва' });
    expect((await standardizeRu('Байконур, ул Гагарина')).levels).toEqual({ region: 'г Байконур', street: 'ул Гагарина' });
  });
});

describe('standardize: quality', () => {
  describe('house', () => {
    it('is 3 for a house found exactly', async () => {
      const res = await standardizeRu('Екатеринбург, ул. Старых Большевиков, 2а');
      expect(res.quality).toMatchObject({ house: 3, level: 8 });
      expect(res.house).toBe('2а');
    });

    it('is 4 when the house is found but its корпус is not', async () => {
      const res = await standardizeRu('Екатеринбург, пр-кт Ленина 5 корп 7');
      expect(res.quality).toMatchObject({ house: 4, level: 8 });
      expect(res.parts).toMatchObject({ house: '5', case: '7' });
    });

    it('is 0 when the input has a house number the street does not have', async () => {
      const res = await standardizeRu('Екатеринбург Малышева 9999');
      expect(res.quality).toMatchObject({ house: 0, level: 7 });
      expect(res.house).toBe('');
      expect(res.parts.house).toBe('9999');
    });

    it('is 9 when the input has no house number', async () => {
      expect((await standardizeRu('Екатеринбург Малышева')).quality.house).toBe(9);
    });
  });

  describe('level', () => {
    it.each([
      ['Свердловская обл', 1],
      ['Татарстан, Альметьевский район', 2],
      ['Екатеринбург', 3],
      ['Дым-Тамак', 5],
      ['Байконур, мкр 6а', 6],
      ['Екатеринбург Малышева', 7],
      ['Екатеринбург, ул. Старых Большевиков, 2а', 8],
    ] as const)('%s → %i', async (query, level) => {
      expect((await standardizeRu(query)).quality.level).toBe(level);
    });
  });

  describe('unique', () => {
    it('is 0 for one reference address', async () => {
      expect((await standardizeRu('Екатеринбург Малышева')).quality.unique).toBe(0);
    });

    it('is 2 for a name many towns share, given alone', async () => {
      expect((await standardizeRu('Ленина')).quality.unique).toBe(2);
    });

    it('is 1 when a similar candidate comes close (same name, other type)', async () => {
      expect((await standardizeRu('Екатеринбург, пер Обувщиков')).quality.unique).toBe(1);
    });

    // Regression guard, once a bug (assembly/solve/answer.ts writeStandardized): the runner-up margin for «not unique» (5 points) is smaller than
    // what a name loses for one missed one-letter word (weight 20 → 4 points), so «7-й мкр» (exactly «мкр 7-й»)
    // is not unique because «мкр 7а» also exists, and the record is not valid.
    it('is 0 for a name given exactly although a name with one more letter exists (мкр 7-й, мкр 7а)', async () => {
      const res = await standardizeRu('Байконур, 7-й мкр');
      expect(res.levels.planStructure).toBe('мкр 7-й');
      expect(res.quality.unique).toBeLessThan(2);
    });
  });

  describe('actuality', () => {
    it('is 1 when an obsolete name was used', async () => {
      const res = await standardizeRu('Байконур, ул Саперная');
      expect(res.levels.street).toBe('ул имени Геннадия Дмитриенко');
      expect(res.quality.actuality).toBe(1);
    });

    it('is 0 for the current name', async () => {
      expect((await standardizeRu('Байконур, ул имени Геннадия Дмитриенко')).quality.actuality).toBe(0);
    });
  });

  describe('undefined and undefinedParts', () => {
    it('is 0 when nothing is left over', async () => {
      const res = await standardizeRu('Екатеринбург, ул. Старых Большевиков, 2а, кв. 5');
      expect(res.quality.undefined).toBe(0);
      expect(res.undefinedParts).toBe('');
    });

    it('is 1 for an insignificant leftover (a phone number, two letters)', async () => {
      const phone = await standardizeRu('Екатеринбург, Малышева, 89123456789');
      expect(phone.quality.undefined).toBe(1);
      expect(phone.undefinedParts).toBe('89123456789');
      const letters = await standardizeRu('Екатеринбург Малышева ыы');
      expect(letters.quality.undefined).toBe(1);
      expect(letters.undefinedParts).toBe('ыы');
    });

    it('is 2 for significant leftover words, which undefinedParts lists in input order', async () => {
      const res = await standardizeRu('Екатеринбург, Малышева, синего магазина');
      expect(res.quality.undefined).toBe(2);
      expect(res.undefinedParts).toBe('синего магазина');
      // a landmark after its word (`возле`) is a note, of no weight, still listed
      const note = await standardizeRu('Екатеринбург, Малышева, возле магазина');
      expect(note.quality.undefined).toBe(1);
      expect(note.undefinedParts).toBe('возле магазина');
    });

    it('is 2 for a second street the chain cannot hold', async () => {
      const res = await standardizeRu('Свердловская обл, Екатеринбург, Малышева, Щорса');
      expect(res.quality.undefined).toBe(2);
      expect(res.undefinedParts).toMatch(/Щорса|Малышева/);
    });
  });

  describe('nothing matched', () => {
    it.each(['xyzzy qwerty', '12345', 'кв 5'])('%s: matched false, no level, undefined 2, the input left over', async (query) => {
      const res = await standardizeRu(query);
      expect(res.matched).toBe(false);
      expect(res.levels).toEqual({});
      expect(res.house).toBe('');
      expect(res.quality).toMatchObject({ unique: 0, actuality: 0, undefined: 2, level: 0, geo: 0 });
      expect(res.undefinedParts).toBe(query);
    });

    it('collapses the whitespace of the input it returns', async () => {
      expect((await standardizeRu('  xyzzy \t  qwerty ')).undefinedParts).toBe('xyzzy qwerty');
    });

    it('gives an empty or blank query nothing', async () => {
      for (const q of ['', '   ', ',,,']) {
        const res = await standardizeRu(q);
        expect(res.matched).toBe(false);
        expect(res.levels).toEqual({});
      }
    });
  });
});
