/**
 * Reading streets by scope (assembly/subtree.ts, assembly/solve/scope.ts): a generated country where the
 * same street names repeat in every town, written twice by the real blob writer: once in depth-first order
 * (the subtree index is built, streets are read under the places a query names) and once with one street
 * moved to the front (the order check fails, every posting is read in one pass, as before the index).
 * Both must give the same answers, through engine.standardize and engine.suggest on the debug core.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MergedHouse, MergedObject } from '../../../../dictionaries/merged-model.js';
import type { AddressEngine } from '../../../../engine/engine.js';
import type { LoadedDictionary } from '../../../../engine/dictionary.js';
import { engineOfModel, mergedModel } from '../../../helpers/model.js';

const STREETS = ['Ленина', 'Мира', 'Садовая', 'Советская', 'Школьная', 'Молодежная', 'Лесная', 'Набережная'];
const FIRST = ['Бело', 'Черно', 'Красно', 'Верхне', 'Старо', 'Крутогорье', 'Ясно'];
const LAST = ['горск', 'речье', 'поле', 'дольск', 'бережье', 'озерск'];
const REGIONS = ['Озерная', 'Степная', 'Горная'];
const VILLAGE = ['вка', 'ино', 'ово', 'ево', 'ное'];
/** streets of one letter: a one-letter prefix hits many words, so a town is read by its names (classify/postings.ts rangeCost) */
const S_STREETS = ['Сосновая', 'Сиреневая', 'Строителей', 'Спортивная', 'Северная', 'Светлая', 'Сельская', 'Свободы',
  'Сибирская', 'Сенная', 'Слободская', 'Суворова'];

interface Country {
  objects: MergedObject[];
  houses: MergedHouse[];
  towns: { name: string; region: string; streets: string[]; postcode: string }[];
  /** postcodes that name a district (its villages have it too), the towns named Новый, half the villages' Ленина, and nobody */
  postcodes: string[];
}

/**
 * Three regions of two districts with seven towns each (plus towns without streets, towns whose names share
 * the word `Новый`, sixty villages with a street Ленина each, a town named like another region); every town
 * has five of the eight common street names with 3–9 houses each, one town a microdistrict with streets of its
 * own, and the last town the one street no query names (`Уникальная`).
 */
function country(): Country {
  const objects: MergedObject[] = [];
  const houses: MergedHouse[] = [];
  const towns: Country['towns'] = [];
  const add = (o: Omit<MergedObject, 'key' | 'codes' | 'ga' | 'source'>): number => {
    objects.push({ ...o, key: `test:${objects.length}`, codes: {}, ga: '', source: 'test' });
    return objects.length - 1;
  };
  // every third street has a postcode of its own, the others their town's (subtree.ts POSTCODES: the first only)
  let streetCount = 0;
  const street = (parent: number, name: string, count: number, postcode?: string): void => {
    const own = ++streetCount % 3 === 0;
    const id = add({ level: 7, parent, name, type: 'ул', postcode: postcode ?? (own ? String(300000 + streetCount) : objects[parent].postcode) });
    for (let n = 1; n <= count; n++) houses.push({ parent: id, number: n % 4 === 0 ? `${n}а` : String(n), codes: {}, source: 'test' });
  };
  const postcodes: string[] = ['199999'];
  let town = 0;
  let regionId = -1;
  REGIONS.forEach((region, r) => {
    regionId = add({ level: 1, parent: -1, name: region, type: 'обл' });
    for (let d = 0; d < 2; d++) {
      const districtPostcode = String(500000 + r * 10 + d);
      postcodes.push(districtPostcode);
      const district = add({ level: 2, parent: regionId, name: `${region.slice(0, -2)}ский ${d + 1}`, type: 'р-н', postcode: districtPostcode });
      for (let k = 0; k < 7; k++, town++) {
        const name = `${FIRST[town % FIRST.length]}${LAST[Math.floor(town / FIRST.length) % LAST.length]}`;
        // two towns weigh the same: ties fall to the order of reading
        const postcode = String(600000 + town * 10);
        const id = add({ level: 3, parent: district, name, type: 'г', population: 1000 + (town % 20) * 977, postcode });
        const streets = STREETS.filter((_, s) => (s + town) % 8 < 5);
        streets.forEach((s, i) => street(id, s, 3 + ((town + i) % 7)));
        // two-word names of the common words, in both orders: a query's tokens hit them out of the name's order
        if (town % 4 === 1) street(id, 'Лесная Садовая', 3);
        if (town % 4 === 3) street(id, 'Садовая Лесная', 2);
        if (town % 3 === 0) street(id, S_STREETS[town % S_STREETS.length], 2);
        if (town === 5) {
          const micro = add({ level: 6, parent: id, name: 'Солнечный', type: 'мкр' });
          street(micro, 'Ленина', 4);
          street(micro, 'Звездная', 3);
        }
        towns.push({ name, region, streets, postcode });
      }
      add({ level: 3, parent: district, name: `Малый ${region}`, type: 'г', population: 50 });
      // villages with a Ленина each: long posting lists, so subtrees are opened one by one
      for (let v = 0; v < 60; v++) {
        const village = add({ level: 5, parent: district, name: `${FIRST[v % FIRST.length]}${VILLAGE[v % VILLAGE.length]}`, type: 'д', population: 10 + v, postcode: districtPostcode });
        // half the villages' Ленина share one postcode: too many places to read first (openPostcode declines)
        street(village, 'Ленина', 1 + (v % 2), v % 2 === 0 ? '800000' : undefined);
        if (v % 3 === 0) street(village, S_STREETS[(v / 3 + d) % S_STREETS.length], 2);
      }
      // towns that share a word, of mixed sizes: a hint typed after it has several places to look in
      for (let k = 0; k < 4; k++) {
        const population = (1 + k) * 10 ** (1 + ((town * 7 + k * 3) % 5));
        const shared = add({ level: 3, parent: district, name: `Новый ${LAST[(town + k) % LAST.length]}`, type: 'пгт', population, postcode: '700000' });
        street(shared, 'Ленина', 2 + k);
        street(shared, 'Садовая', 2);
      }
    }
  });
  // a town named like another region, in the last one (ids stay depth-first), and the street no query names
  const namesake = add({ level: 3, parent: regionId, name: 'Степная', type: 'г', population: 3000 });
  street(namesake, 'Ленина', 5);
  street(namesake, 'Уникальная', 2);
  towns.push({ name: 'Степная', region: REGIONS[REGIONS.length - 1], streets: ['Ленина'], postcode: '' });
  postcodes.push('700000', '800000');
  return { objects, houses, towns, postcodes };
}

/** The same country with its last object (a street) moved to the front: ids no longer depth-first. */
function outOfOrder({ objects, houses }: Country): { objects: MergedObject[]; houses: MergedHouse[] } {
  const last = objects.length - 1;
  const id = (old: number) => (old === last ? 0 : old + 1);
  const moved = [objects[last], ...objects.slice(0, last)].map((o) => ({ ...o, parent: o.parent < 0 ? -1 : id(o.parent) }));
  const remapped = houses.map((h) => ({ ...h, parent: id(h.parent) }));
  return { objects: moved, houses: remapped.sort((a, b) => a.parent - b.parent) };
}

/** Queries the way people write them: with and without the town, the type words, a typo, the region. */
function standardizeQueries({ towns }: Country): string[] {
  const out: string[] = [];
  towns.forEach(({ name, region, streets }, i) => {
    const s = streets[i % streets.length];
    const n = 1 + (i % 3);
    out.push(`г ${name}, ул ${s}, д ${n}`, `${s} ${n} ${name}`, `${s} ${n}`, `${name} ${s.slice(0, -2)}${s.slice(-1)} ${n}`);
    out.push(`${region} обл, ${s} ${n}`, `${name}, ${streets[(i + 1) % streets.length]}, ${n + 3}а`, `${name} Звездная 2`);
  });
  return out;
}

function suggestQueries({ towns }: Country): string[] {
  const out: string[] = ['Новый Лен', 'Новый Ленина 2', 'Новый Сад', 'новый', 'Озерная Лен', 'Горная обл Садовая'];
  towns.forEach(({ name, streets }, i) => {
    const s = streets[(i + 2) % streets.length];
    out.push(`${name} ${s.slice(0, 3)}`, `${name} ${s} ${1 + (i % 4)}`, s.slice(0, 4 + (i % 3)), name.slice(0, 4));
  });
  return out;
}

let built: Country;
let scoped: { engine: AddressEngine; dict: LoadedDictionary };
let onePass: { engine: AddressEngine; dict: LoadedDictionary };
/** core heap in use once loaded: the subtree index is built by `index()` at load */
const loadHeap: number[] = [];

beforeAll(async () => {
  built = country();
  const orders = [built, { ...built, ...outOfOrder(built) }];
  const engines = [];
  for (const { objects, houses } of orders) {
    const loaded = await engineOfModel(mergedModel(objects, houses, [], []));
    loadHeap.push(loaded.dict.core.exports.reserve(8));
    engines.push(loaded);
  }
  [scoped, onePass] = engines;
});

describe('standardize over streets that repeat in every town', () => {
  it('builds the subtree index for depth-first ids only', () => {
    // both carve the same sections, grid and arenas at load; only the depth-first one goes on to the per-object
    // and per-word tables after the order check
    expect(loadHeap[0] - loadHeap[1]).toBeGreaterThan(built.objects.length * 4);
  });

  it('finds the street of the town the query names', () => {
    const { name, streets } = built.towns[9];
    const res = scoped.engine.standardize('ru', `г ${name}, ул ${streets[0]}, д 2`);
    expect(scoped.dict.object(res.levels.city).name).toBe(name);
    expect(scoped.dict.object(res.levels.street).name).toBe(streets[0]);
    expect(res.house).toBeGreaterThanOrEqual(0);
    expect(res.quality.unique).toBe(0);
  });

  it('says a street given without its town is not unique', () => {
    expect(scoped.engine.standardize('ru', 'Ленина 2').quality.unique).toBe(2);
  });

  it('gives the answers of the one-pass reading', () => {
    const queries = standardizeQueries(built);
    const differ = queries.filter((q) => JSON.stringify(named(scoped, scoped.engine.standardize('ru', q))) !==
      JSON.stringify(named(onePass, onePass.engine.standardize('ru', q))));
    expect(differ).toEqual([]);
  });
});

describe('suggest over streets that repeat in every town', () => {
  it('gives the hints of the one-pass reading', () => {
    const queries = suggestQueries(built);
    for (const count of [5, 20]) {
      expect(hintsDiffer(queries, count), `count ${count}`).toEqual([]);
    }
  });

  it('reads the streets of the town a hint names, not those of every town (core stats(2): candidates collected)', () => {
    // every rank term must come with its bound: the penalty for a whole word left out, unbounded, read the street
    // prefix in every town (20× slower hints at 10 M houses; docs/DECISIONS.md, "Speed rules that shape answers")
    const read = (d: typeof scoped, q: string) => {
      d.engine.suggest('ru', q, 5);
      return d.dict.core.hooks.stats(2);
    };
    const rows = built.towns.filter((t) => t.streets.length > 0).map(({ name, streets }, i) => {
      const q = `${name} ${streets[i % streets.length].slice(0, 4)}`;
      return { q, scoped: read(scoped, q), onePass: read(onePass, q) };
    });
    expect(rows.filter((r) => r.scoped >= r.onePass)).toEqual([]);
    // the town's streets on the prefix and the hint list (a town named like a region reads that region's: 142 of 417)
    const median = rows.map((r) => r.scoped).sort((x, y) => x - y)[rows.length >> 1];
    expect(median).toBeLessThanOrEqual(10);
    expect(Math.min(...rows.map((r) => r.onePass))).toBeGreaterThan(20);
  });

  it('reads few streets for a word some streets hold and a prefix (the word left out is in the rest bounds)', () => {
    // `лесная с`: the Садовая and С… streets of every town leave лесная out and pay for it; without that charge
    // in the bounds of the rest read in order (classify/bounds.ts chargeLeftTokens) every one of them is read
    const read = (d: typeof scoped, q: string) => {
      const hints = JSON.stringify(d.engine.suggest('ru', q, 5).map((r) => named(d, r)));
      return { hints, read: d.dict.core.hooks.stats(2) };
    };
    const rows = ['Лесная', 'Садовая'].flatMap((word) => ['с', 'л', 'са', 'ле'].map((prefix) => {
      const q = `${word.toLowerCase()} ${prefix}`;
      return { q, scoped: read(scoped, q), onePass: read(onePass, q) };
    }));
    expect(rows.filter((r) => r.scoped.hints !== r.onePass.hints).map((r) => r.q)).toEqual([]);
    const total = (kind: 'scoped' | 'onePass') => rows.reduce((sum, r) => sum + r[kind].read, 0);
    // 529 of 2,720 (1,355 with the word charged only when no street holds it)
    expect(total('scoped') * 4).toBeLessThan(total('onePass'));
  });

  it('gives the hints of the one-pass reading for prefixes of one to three letters', () => {
    // short prefixes hit many words: towns are read by their names, cursors of the ordered reading are dropped,
    // areas whose tokens are all their streets could gain on are no anchors
    expect(hintsDiffer(shortPrefixQueries(built), 5)).toEqual([]);
    expect(hintsDiffer(shortPrefixQueries(built), 1)).toEqual([]);
  });

  it('looks at few streets one by one for prefixes of one to three letters (core stats(4))', () => {
    // names that can at best tie with the last hint, after it in one pass, are passed by on the facts beside them,
    // or their cursor dropped (classify/ordered.ts belowOnFacts, tiedAfter), rather than each copy of a street in other towns
    // read to bound it: 1,007 names read so over the 355 queries for five hints (1,293 without), 1,092 for ten (1,391)
    const looks = (count: number) => shortPrefixQueries(built).reduce((sum, q) => {
      scoped.engine.suggest('ru', q, count);
      return sum + scoped.dict.core.hooks.stats(4);
    }, 0);
    expect(looks(5)).toBeLessThan(1250);
    expect(looks(10)).toBeLessThan(1330);
  });
});

describe('standardize and suggest with words no street of a town holds', () => {
  it('give the answers of the one-pass reading', () => {
    // a town named, then words of streets it lacks (or that only other towns have), a number that is a name word
    const queries = built.towns.flatMap(({ name, streets }, i) => {
      const missing = STREETS.find((s) => !streets.includes(s)) ?? 'Уникальная';
      return [`${name}, ул. ${missing}, д. 1, офис на 2 этаже`, `${name} ${missing} ${1 + (i % 5)}`, `${missing} Звездная ${2 + (i % 3)}`];
    });
    const differ = queries.filter((q) => JSON.stringify(named(scoped, scoped.engine.standardize('ru', q))) !==
      JSON.stringify(named(onePass, onePass.engine.standardize('ru', q))));
    expect(differ).toEqual([]);
    expect(hintsDiffer(queries.map((q) => q.slice(0, -1)), 5)).toEqual([]);
  });
});

describe('standardize and suggest with a house typed after a street, many places named', () => {
  it('give the answers of the one-pass reading', () => {
    // streets of 1–9 houses: a number some copies of a street lack (their houses are looked at last, once the rest
    // of the bound reaches); `Новый` names several towns at once (the places above a street are merged by a sort),
    // the microdistrict of town 5 lies inside a named town
    const micro = built.towns[5].name;
    const queries = STREETS.flatMap((s, i) => [`${s} ${1 + (i % 9)}`, `${s} ${7 + (i % 3)}`, `Новый ${s} ${2 + (i % 4)}`, `Новый ${s.slice(0, 3)} 4`]);
    queries.push(`${micro} Солнечный Ленина 4`, `${micro} Солнечный Лен`, `${micro} Ленина 3`, 'Новый Малый Ленина 5', 'Ленина 9', 'Садовая 8а');
    const differ = queries.filter((q) => JSON.stringify(named(scoped, scoped.engine.standardize('ru', q))) !==
      JSON.stringify(named(onePass, onePass.engine.standardize('ru', q))));
    expect(differ).toEqual([]);
    for (const count of [1, 5, 20]) expect(hintsDiffer(queries, count), `count ${count}`).toEqual([]);
    expect(hintsDiffer(queries.map((q) => q.slice(0, -1)), 5)).toEqual([]);
  });
});

describe('standardize and suggest with a postcode', () => {
  it('give the answers of the one-pass reading', () => {
    // the postcode of a town, of one of its streets, of a district and its villages, of the towns named Новый, of
    // nobody: the places it names are read first (scope.ts openPostcode), or not when that costs too much
    const queries: string[] = [];
    built.towns.forEach(({ name, streets, postcode }, i) => {
      const s = streets[i % streets.length];
      const n = 1 + (i % 5);
      queries.push(`${postcode}, ${s} ${n}`, `${s}, ${n}, ${postcode}`, `${postcode} ${name} ${s} ${n}`, `${postcode} ${streets[(i + 1) % streets.length]}`);
    });
    const streetPostcodes = built.objects.filter((o, id) => o.level === 7 && o.postcode !== built.objects[o.parent].postcode).map((o) => [o.postcode, o.name]);
    streetPostcodes.slice(0, 40).forEach(([postcode, name], i) => queries.push(`${postcode} ${name} ${1 + (i % 3)}`, `${postcode}, Ленина ${1 + (i % 3)}`));
    built.postcodes.forEach((postcode) => queries.push(`${postcode} Ленина 1`, `${postcode}, Садовая 2`, `${postcode} Новый Ленина 3`, `${postcode} Ленина`));
    const differ = queries.filter((q) => JSON.stringify(named(scoped, scoped.engine.standardize('ru', q))) !==
      JSON.stringify(named(onePass, onePass.engine.standardize('ru', q))));
    expect(differ).toEqual([]);
    for (const count of [1, 5]) expect(hintsDiffer(queries, count), `count ${count}`).toEqual([]);
    expect(hintsDiffer(queries.map((q) => q.slice(0, -1)), 5)).toEqual([]);
  });

  it('finds the street of the postcode among the same streets of every town', () => {
    const i = built.towns.findIndex((t) => t.streets.includes('Ленина') && t.postcode !== '');
    const { name, postcode } = built.towns[i];
    const res = scoped.engine.standardize('ru', `${postcode}, Ленина 1`);
    expect(scoped.dict.object(res.levels.city).name).toBe(name);
    expect(scoped.dict.object(res.levels.street).name).toBe('Ленина');
  });
});

/** A model's `add`: pushes an object with a test key and no codes, returns its id. */
function adder(objects: MergedObject[]): (o: Omit<MergedObject, 'key' | 'codes' | 'ga' | 'source'>) => number {
  return (o) => {
    objects.push({ ...o, key: `test:${objects.length}`, codes: {}, ga: '', source: 'test' });
    return objects.length - 1;
  };
}

type Loaded = { engine: AddressEngine; dict: LoadedDictionary };

/** The model loaded twice: in depth-first order (scoped) and with its last object moved to the front (one pass). */
async function bothOrders(objects: MergedObject[], houses: MergedHouse[]): Promise<Loaded[]> {
  const engines: Loaded[] = [];
  for (const c of [{ objects, houses }, outOfOrder({ objects, houses, towns: [], postcodes: [] })]) {
    engines.push(await engineOfModel(mergedModel(c.objects, c.houses, [], [])));
  }
  return engines;
}

/** The hints of a query as names, to compare two loads. */
function hintsOf(e: Loaded, q: string, count: number): string {
  return JSON.stringify(e.engine.suggest('ru', q, count).map((r) => named(e, r)));
}

describe('hints of a number that the houses of a street only start with', () => {
  it('give the hints of the one-pass reading', async () => {
    // a street Березовая in 42 villages of different weights, its houses 17к1…17к3 and 12 in each and a house 17 in
    // every eighth: a street without a 17 is passed by on its best house (17к1 adds 24 less than a 17: suggest.ts
    // hintHouseLoss; a key of one character is told by the leads alone) only when that cannot reach the last hint
    const objects: MergedObject[] = [];
    const houses: MergedHouse[] = [];
    const add = adder(objects);
    const region = add({ level: 1, parent: -1, name: 'Лесная', type: 'обл' });
    for (let v = 0; v < 42; v++) {
      const name = villageName(v);
      // the villages with a house 17 the lightest: read after streets that have only 17кN
      const village = add({ level: 5, parent: region, name, type: 'д', population: v % 8 === 0 ? 100 + v : 300 + ((v * 37) % 200) });
      // every third a пер: a type typed drops the cursors whose streets left have neither that type nor the house
      const street = add({ level: 7, parent: village, name: 'Березовая', type: v % 3 === 2 ? 'пер' : 'ул' });
      if (v % 8 === 0) houses.push({ parent: street, number: '17', codes: {}, source: 'test' });
      // and a 17а in every fifth: one character longer than 17, 17к1 two (subtree.ts SHORT_KEYS)
      if (v % 5 === 3) houses.push({ parent: street, number: '17а', codes: {}, source: 'test' });
      for (const block of ['1', '2', '3']) houses.push({ parent: street, number: '17', block, codes: {}, source: 'test' });
      houses.push({ parent: street, number: '12', codes: {}, source: 'test' });
    }
    // the street that `outOfOrder` moves to the front, named by no query (ties follow the one-pass order)
    add({ level: 7, parent: objects.length - 2, name: 'Уникальная', type: 'ул' });
    const [a, b] = await bothOrders(objects, houses);
    // `13` and `18`: a first character some house has, a pair none has (subtree.ts HOUSE_LEADS)
    const queries = ['Березовая 17', 'березовая 17к', 'Березовая 17к2', 'Березовая 1', 'березов 17', 'Березовая, 17', 'Березовая 7', 'Березовая 13', 'Березовая 18', 'Березовая 12',
      'пер Березовая 17', 'ул Березовая 17к', 'Березовая пер 12', 'пер березовая 7', 'Березовая ул 13'];
    for (const count of [1, 5, 10, 20]) {
      expect(queries.filter((q) => hintsOf(a, q, count) !== hintsOf(b, q, count)), `count ${count}`).toEqual([]);
    }
    // the lists hold houses 17 of the light villages above houses 17а and 17кN of the heavy ones, read before them
    const top = a.engine.suggest('ru', 'Березовая 17', 10);
    expect(top.slice(0, 6).map((r) => r.parts.house + '/' + r.parts.case)).toEqual(Array(6).fill('17/'));
    expect(top.slice(6).every((r) => r.parts.house + '/' + r.parts.case !== '17/')).toBe(true);
  });
});

describe('hints of a number after a street that few places have a house of', () => {
  it('give the hints of the one-pass reading, the streets without such a house among them', async () => {
    // a street Березовая in 36 villages: six with houses 17 and 17к1, the others only a house 5 (no key starts with
    // 1): after the houses of the six, the heavier of the others are hints of `березовая 17` as streets, read with
    // the short keys charged (classify/bounds.ts chargeShortHouse) as one pass reads them
    const objects: MergedObject[] = [];
    const houses: MergedHouse[] = [];
    const add = adder(objects);
    const region = add({ level: 1, parent: -1, name: 'Лесная', type: 'обл' });
    for (let v = 0; v < 36; v++) {
      const name = villageName(v);
      const village = add({ level: 5, parent: region, name, type: 'д', population: 100 + ((v * 7919) % 5000) });
      const street = add({ level: 7, parent: village, name: 'Березовая', type: 'ул' });
      const numbers = v % 6 === 0 ? ['17', '17к1'] : ['5'];
      for (const number of numbers) houses.push({ parent: street, number, codes: {}, source: 'test' });
    }
    add({ level: 7, parent: objects.length - 2, name: 'Уникальная', type: 'ул' });
    const [a, b] = await bothOrders(objects, houses);
    const queries = ['березовая 17', 'Березовая 17к', 'березовая 5', 'березовая 1'];
    for (const count of [5, 10, 20]) {
      expect(queries.filter((q) => hintsOf(a, q, count) !== hintsOf(b, q, count)), `count ${count}`).toEqual([]);
    }
    // the list of 20 holds the houses of the six villages and streets of the others
    const top = a.engine.suggest('ru', 'березовая 17', 20);
    expect(top.filter((r) => r.house < 0).length).toBeGreaterThan(0);
  });
});

describe('hints of a word typed alone that starts the names of many places', () => {
  it('give the hints of the one-pass reading, reading few of the places', async () => {
    // 90 villages whose names start with Сел…, of different weights, a third with another name (an alias or an
    // earlier name) that starts with Сел… too or with a word of its own: the words are read best bound first, and
    // a word read brings every name of its places (classify/deferred-areas.ts expandAreaWord)
    const objects: MergedObject[] = [];
    const houses: MergedHouse[] = [];
    const add = adder(objects);
    const region = add({ level: 1, parent: -1, name: 'Лесная', type: 'обл' });
    for (let v = 0; v < 90; v++) {
      const name = `Сел${ends[v % ends.length]}${v >= ends.length ? ` ${FIRST[v % FIRST.length]}${LAST[v % LAST.length]}` : ''}`;
      const other = `${v % 2 ? 'Сел' : 'Бор'}${ends[(v + 4) % ends.length]}`;
      const village = add({
        level: 5, parent: region, name, type: v % 4 ? 'д' : 'с', population: 50 + ((v * 7919) % 3000),
        ...(v % 3 === 0 ? { aliases: [other] } : v % 3 === 1 ? { historicalNames: [other] } : {}),
      });
      const street = add({ level: 7, parent: village, name: STREETS[v % STREETS.length], type: 'ул' });
      houses.push({ parent: street, number: String(1 + (v % 5)), codes: {}, source: 'test' });
    }
    add({ level: 7, parent: objects.length - 2, name: 'Уникальная', type: 'ул' });
    const [a, b] = await bothOrders(objects, houses);
    const queries = ['с', 'се', 'сел', 'сели', 'сель', 'селе', 'селиваново', 'бор', 'бори', 'село', 'д сел', 'сел 2', 'с сел'];
    for (const count of [1, 5, 10, 20]) {
      expect(queries.filter((q) => hintsOf(a, q, count) !== hintsOf(b, q, count)), `count ${count}`).toEqual([]);
    }
    // five hints of `сел` read a few of the 90 places (core stats(2): candidates collected), the one-pass reading all
    expect(collected(b, 'сел')).toBeGreaterThanOrEqual(90);
    expect(collected(a, 'сел')).toBeLessThan(30);
  });
});

describe('hints of a place and a prefix that starts the names of many places', () => {
  it('give the hints of the one-pass reading, reading few of the places', async () => {
    // 90 Сел… villages in one region; a town in another region named Сел…, with microdistricts Сел… of its own:
    // `городище сел` reads the town's places whole (the region above it and the microdistricts below it too) and the
    // 90 villages best bound first (classify/deferred-areas.ts deferPrefixAreas), as `сел` alone does; the town has fewer names than
    // the searches per prefix word would take steps, so its places are found by the words of its names (readInside),
    // the prefix's word second in one of them
    const objects: MergedObject[] = [];
    const houses: MergedHouse[] = [];
    const add = adder(objects);
    selVillages(add, houses, add({ level: 1, parent: -1, name: 'Лесная', type: 'обл' }));
    const selenga = add({ level: 1, parent: -1, name: 'Селенга', type: 'обл' });
    const town = add({ level: 4, parent: selenga, name: 'Городище', type: 'г', population: 900 });
    const district = add({ level: 6, parent: town, name: 'Селекционный', type: 'мкр' });
    const street = add({ level: 7, parent: district, name: 'Садовая', type: 'ул' });
    houses.push({ parent: street, number: '3', codes: {}, source: 'test' });
    add({ level: 7, parent: town, name: 'Сельская', type: 'ул' });
    add({ level: 6, parent: town, name: 'Верхний Селенгинский', type: 'мкр' });
    const [a, b] = await bothOrders(objects, houses);
    const queries = ['городище сел', 'городище се', 'городище с', 'городище селек', 'городище селе', 'городище бор', 'лесная сел',
      'селенга сел', 'г городище сел', 'городище сел 3', 'бор сел', 'городище лесная сел'];
    for (const count of [1, 5, 10, 20]) {
      expect(queries.filter((q) => hintsOf(a, q, count) !== hintsOf(b, q, count)), `count ${count}`).toEqual([]);
    }
    // the microdistrict below the town and the region above it are among the hints
    expect(hintsOf(a, 'городище сел', 5)).toContain('Селекционный');
    expect(hintsOf(a, 'городище сел', 5)).toContain('Селенга');
    expect(hintsOf(a, 'городище сел', 10)).toContain('Верхний Селенгинский');
    expect(collected(b, 'городище сел')).toBeGreaterThanOrEqual(90);
    expect(collected(a, 'городище сел')).toBeLessThan(30);
  });
});

describe('hints of a street word and a prefix that starts the names of many places', () => {
  it('give the hints of the one-pass reading, reading few of the places', async () => {
    // 90 Сел… villages; a street Нижняя in three of them and in a town Городище, and a village Нижняя Слобода:
    // `нижняя сел` reads now the places above each street Нижняя (a street under a Сел… village is the best hint)
    // and the places of Нижняя, and the other villages best bound first (classify/deferred-areas.ts deferPrefixAreas)
    const objects: MergedObject[] = [];
    const houses: MergedHouse[] = [];
    const add = adder(objects);
    selVillages(add, houses, add({ level: 1, parent: -1, name: 'Лесная', type: 'обл' }), (v, village) => {
      if (v % 30 === 10) add({ level: 7, parent: village, name: 'Нижняя', type: 'ул' });
    });
    const steppe = add({ level: 1, parent: -1, name: 'Степная', type: 'обл' });
    const town = add({ level: 4, parent: steppe, name: 'Городище', type: 'г', population: 900 });
    const street = add({ level: 7, parent: town, name: 'Нижняя', type: 'ул' });
    houses.push({ parent: street, number: '3', codes: {}, source: 'test' });
    add({ level: 7, parent: town, name: 'Сельская', type: 'ул' });
    add({ level: 5, parent: steppe, name: 'Нижняя Слобода', type: 'с', population: 40 });
    const [a, b] = await bothOrders(objects, houses);
    const queries = ['нижняя сел', 'нижняя се', 'нижняя с', 'нижняя селе', 'нижняя слоб', 'нижняя бор', 'нижняя сел 3', 'ул нижняя сел',
      'нижняя городище сел', 'нижняя степная с', 'нижняя лесная сел'];
    for (const count of [1, 5, 10, 20]) {
      expect(queries.filter((q) => hintsOf(a, q, count) !== hintsOf(b, q, count)), `count ${count}`).toEqual([]);
    }
    // the streets Нижняя of the Сел… villages come first
    expect(a.engine.suggest('ru', 'нижняя сел', 3).map((r) => a.dict.object(r.levels.street).name)).toEqual(['Нижняя', 'Нижняя', 'Нижняя']);
    expect(collected(b, 'нижняя сел')).toBeGreaterThanOrEqual(90);
    expect(collected(a, 'нижняя сел')).toBeLessThan(30);
  });
});

describe('hints of a word of many streets, one of which holds the word being typed', () => {
  it('give the hints of the one-pass reading, looking at few of the streets one by one', async () => {
    // a street Верхняя in each of 90 villages, and one Верхняя Уфимская: `верхняя уф` looks at a few streets Верхняя
    // one by one, then tells the others by their facts, knowing which of them hold a word `уф` hits (classify/bounds.ts
    // shareNames); and a street Нижняя Уфимская in each, a house 7 in three: names that hold both words are bounded
    // by what the other word can add in their other weight (classify/bounds.ts sharingBound)
    const objects: MergedObject[] = [];
    const houses: MergedHouse[] = [];
    const add = adder(objects);
    selVillages(add, houses, add({ level: 1, parent: -1, name: 'Лесная', type: 'обл' }), (v, village) => {
      const street = add({ level: 7, parent: village, name: v === 61 ? 'Верхняя Уфимская' : 'Верхняя', type: v % 5 ? 'ул' : 'пер' });
      houses.push({ parent: street, number: String(1 + (v % 3)), codes: {}, source: 'test' });
      const lower = add({ level: 7, parent: village, name: 'Нижняя Уфимская', type: 'ул' });
      houses.push({ parent: lower, number: v % 30 === 7 ? '7' : String(1 + (v % 5)), codes: {}, source: 'test' });
    });
    add({ level: 7, parent: objects.length - 3, name: 'Уникальная', type: 'ул' });
    const [a, b] = await bothOrders(objects, houses);
    const queries = ['верхняя уф', 'верхняя у', 'верхняя уфимская', 'верхняя уфимс 1', 'ул верхняя уф', 'пер верхняя уф', 'верхняя уф 2', 'верхняя сел',
      'нижняя уфимская 7', 'нижняя уфим 7', 'уфимская нижняя 7', 'нижняя уфимская 8'];
    for (const count of [1, 5, 10, 20]) {
      expect(queries.filter((q) => hintsOf(a, q, count) !== hintsOf(b, q, count)), `count ${count}`).toEqual([]);
    }
    expect(a.engine.suggest('ru', 'верхняя уф', 1).map((r) => a.dict.object(r.levels.street).name)).toEqual(['Верхняя Уфимская']);
    // names looked at one by one (core stats(4)): 34 at each count, 71–86 when every name of Верхняя is
    for (const count of [5, 10, 20]) {
      a.engine.suggest('ru', 'верхняя уф', count);
      expect(a.dict.core.hooks.stats(4), `count ${count}`).toBeLessThan(50);
    }
  });
});

describe('standardize of a street and a house without the town, the street in many villages', () => {
  it('gives the answer of the one-pass reading, looking at few of the streets one by one', async () => {
    // a street Первомайская in each of 90 villages; the heaviest village has a house 21, the next two a house 21а (the
    // same base: runners-up), the others houses that start with 2 but not with 21 (2, 20, 23, 25к1): once the three
    // are read, no street left has a key starting with the typed 21, told by the first two characters of their keys
    // (subtree.ts TAIL_LEADS; solve/chain.ts leadOf), not by the first alone, which every street has. And a street
    // Октябрьская in each, with a house 7 in the heaviest and 7к1 in the others (30 points less: within the margin)
    const objects: MergedObject[] = [];
    const houses: MergedHouse[] = [];
    const add = adder(objects);
    const region = add({ level: 1, parent: -1, name: 'Лесная', type: 'обл' });
    for (let v = 0; v < 90; v++) {
      const name = villageName(v);
      const village = add({ level: 5, parent: region, name, type: 'д', population: v === 17 ? 9000 : v === 50 || v === 63 ? 8000 - v : 100 + ((v * 7919) % 5000) });
      const street = add({ level: 7, parent: village, name: 'Первомайская', type: 'ул' });
      const numbers = v === 17 ? ['21', '3'] : v === 50 || v === 63 ? ['21а', '2'] : ['2', '20', '23', '25к1'];
      for (const number of numbers) houses.push({ parent: street, number, codes: {}, source: 'test' });
      const other = add({ level: 7, parent: village, name: 'Октябрьская', type: 'ул' });
      houses.push({ parent: other, number: v === 17 ? '7' : '7к1', codes: {}, source: 'test' });
      const tract = add({ level: 7, parent: village, name: 'Сибирский', type: 'тракт' });
      houses.push({ parent: tract, number: '57а', codes: {}, source: 'test' });
      add({ level: 7, parent: village, name: 'Сибирский тракт 7 километр', type: 'ул' });
    }
    add({ level: 7, parent: objects.length - 5, name: 'Уникальная', type: 'ул' });
    const [a, b] = await bothOrders(objects, houses);
    const queries = ['ул Первомайская, 21', 'Первомайская 21', 'первомайская д 21 кв 5', 'ул Первомайская, 21а', 'Первомайская 2', 'Первомайская 25/1',
      'Первомайская 20', 'Первомайская 21к1', 'Октябрьская 7', 'октябрьская 7 к1', 'тракт сибирский, д57а кв.222', 'сибирский тракт 57а'];
    /** names looked at one by one (core stats(4)) and candidates (stats(2)) per query, at a raising mode */
    const read = (mode: number): { looks: number; candidates: number }[] => {
      a.dict.core.hooks.setStandardizeRaising(mode);
      const counts = queries.map((q) => {
        expect(JSON.stringify(named(a, a.engine.standardize('ru', q))), `${q}, raising ${mode}`).toBe(JSON.stringify(named(b, b.engine.standardize('ru', q))));
        return { looks: a.dict.core.hooks.stats(4), candidates: a.dict.core.hooks.stats(2) };
      });
      a.dict.core.hooks.setStandardizeRaising(1);
      return counts;
    };
    a.engine.standardize('ru', 'Октябрьская 7');
    const byDefault = a.dict.core.hooks.stats(2);
    const raised = read(1);
    const unraised = read(0);
    read(2);
    const res = a.engine.standardize('ru', 'ул Первомайская, 21');
    expect(a.dict.houseLabel(res.house).number).toBe('21');
    // 89 looks when the first character of the keys is all that is asked
    expect(raised[0].looks).toBeLessThan(20);
    // `октябрьская 7`: the 7к1 of the second village is a runner-up within the margin, so the others are passed by
    // below the winner (solve/chain.ts raising) and not read as candidates: 2 of them, 90 below the winner less the margin
    const seventh = a.engine.standardize('ru', 'Октябрьская 7');
    expect(a.dict.houseLabel(seventh.house).number).toBe('7');
    expect(seventh.quality.unique).toBe(1);
    expect(raised[8].candidates).toBeLessThan(5);
    expect(byDefault).toBe(raised[8].candidates);
    // `тракт сибирский, д57а`: a house 57а on the тракт Сибирский of every village, all tied; once a second ties the
    // first, those after it in the order (a lighter village, or as heavy and later in one pass) are passed by
    // (solve/chain.ts tiesLost), though the streets named with both words keep the bound of the rest above the winner
    expect(a.engine.standardize('ru', 'тракт сибирский, д57а кв.222').quality.unique).toBe(2);
    expect(raised[10].candidates).toBeLessThan(5);
    expect(unraised[10].candidates).toBeGreaterThan(80);
    expect(unraised[8].candidates).toBeGreaterThan(80);
  });
});

describe('any query over the country', () => {
  it('gives the answers and hints of the one-pass reading', () => {
    // words of the country, prefixes of them, numbers and type words, in any order and number
    const names = [...STREETS, ...S_STREETS, ...FIRST, ...REGIONS, ...built.towns.map((t) => t.name), 'Новый', 'Малый', 'Звездная', 'Солнечный'];
    const words = [...names, ...names.map((n) => n.slice(0, 2)), ...names.map((n) => n.slice(0, 4)), 'с', 'л', 'ул', 'г', 'д', 'обл', '1', '2', '3а', '7',
      ...built.postcodes, built.towns[3].postcode, built.towns[8].postcode];
    const query = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }).chain((ws) =>
      fc.constantFrom(' ', ', ').map((sep) => ws.join(sep)));
    fc.assert(
      fc.property(query, fc.constantFrom(1, 5), (q, count) => {
        const answer = JSON.stringify(named(onePass, onePass.engine.standardize('ru', q)));
        // and with the rest passed by below the winner less the margin only, or every raised solve done again
        for (const mode of [1, 0, 2]) {
          scoped.dict.core.hooks.setStandardizeRaising(mode);
          expect(JSON.stringify(named(scoped, scoped.engine.standardize('ru', q))), `raising ${mode}`).toBe(answer);
        }
        scoped.dict.core.hooks.setStandardizeRaising(1);
        expect(hintsDiffer([q], count)).toEqual([]);
      }),
      { numRuns: 400, seed: 8 },
    );
  });
});

/**
 * 90 villages Сел… under `parent`, of different weights, a third with an alias Бор…, each with a street of the
 * common names and a house, and what `more` adds under the v-th (objects stay in depth-first order).
 */
function selVillages(add: ReturnType<typeof adder>, houses: MergedHouse[], parent: number, more = (v: number, village: number): void => {}): void {
  for (let v = 0; v < 90; v++) {
    const village = add({
      level: 5, parent, name: `Сел${ends[v % ends.length]}${v >= ends.length ? ` ${FIRST[v % FIRST.length]}` : ''}`,
      type: v % 4 ? 'д' : 'с', population: 50 + ((v * 7919) % 3000), ...(v % 3 === 0 ? { aliases: [`Бор${ends[v % ends.length]}`] } : {}),
    });
    const street = add({ level: 7, parent: village, name: STREETS[v % STREETS.length], type: 'ул' });
    houses.push({ parent: street, number: String(1 + (v % 5)), codes: {}, source: 'test' });
    more(v, village);
  }
}

/** The v-th village of the tests' villages of FIRST and LAST names (42 of them, then the same with `Второй`). */
function villageName(v: number): string {
  return `${FIRST[v % FIRST.length]}${LAST[Math.floor(v / FIRST.length) % LAST.length]}${v >= FIRST.length * LAST.length ? ' Второй' : ''}`;
}

/** Endings of the Сел… places of the tests of a prefix that starts many places' names. */
const ends = ['ино', 'ищи', 'ецкое', 'иваново', 'ьцо', 'езнево', 'юк', 'ена', 'ьское'];

/** The candidates the hints of q collected (core stats(2)): what a reading read. */
function collected(e: Loaded, q: string): number {
  e.engine.suggest('ru', q, 5);
  return e.dict.core.hooks.stats(2);
}

/** Hint queries whose hints differ between the scoped and the one-pass reading. */
function hintsDiffer(queries: string[], count: number): string[] {
  return queries.filter((q) => JSON.stringify(scoped.engine.suggest('ru', q, count).map((r) => named(scoped, r))) !==
    JSON.stringify(onePass.engine.suggest('ru', q, count).map((r) => named(onePass, r))));
}

/** Every one- to three-letter prefix of the names, alone and after a town, a region or a street. */
function shortPrefixQueries({ towns }: Country): string[] {
  const words = [...new Set([...STREETS, ...S_STREETS, ...FIRST, ...REGIONS, 'Новый', 'Малый', 'Звездная', 'Солнечный'])];
  const prefixes = [...new Set(words.flatMap((w) => [1, 2, 3].map((n) => w.slice(0, n).toLowerCase())))];
  const out: string[] = [];
  prefixes.forEach((p, i) => {
    const town = towns[i % towns.length];
    out.push(p, `${town.name} ${p}`, `${town.region} ${p}`, `${STREETS[i % STREETS.length]} ${p}`, `Новый ${p}`);
  });
  return out;
}

/** A resolution with object and house ids replaced by what they name (ids differ between the two orders). */
function named({ dict }: { dict: LoadedDictionary }, res: ReturnType<AddressEngine['standardize']>): unknown {
  const levels = Object.fromEntries(Object.entries(res.levels).map(([level, id]) => [level, id >= 0 ? dict.object(id).name : null]));
  return { ...res, levels, house: res.house >= 0 ? dict.house(res.house).number : null };
}
