import { describe, expect, it } from 'vitest';
import { COMMON_STREETS, NationalNames } from '../../../../bench/synth/gar-national.js';

/** the street names of `towns` towns of 87 streets (the template region's), by name: the towns that have it */
function streetsOf(towns: number, seed = 1): Map<string, number> {
  const names = new NationalNames(seed, towns);
  const byName = new Map<string, number>();
  for (let copy = 0; copy < towns; copy++) {
    const own = new Set<string>();
    for (let object = 0; object < 87; object++) own.add(names.rename(copy, object, '8'));
    for (const name of own) byName.set(name, (byName.get(name) ?? 0) + 1);
  }
  return byName;
}

describe('NationalNames.rename(copy, object, level)', () => {
  it('is a function of the seed, the copy and the object', () => {
    const a = new NationalNames(3, 100);
    const b = new NationalNames(3, 100);
    // asked in another order, and after other copies pushed the first out of the cache
    const first = [0, 1, 2].map((object) => a.rename(5, object, '8'));
    for (let copy = 0; copy < 20; copy++) b.rename(copy, 0, '8');
    expect([2, 1, 0].map((object) => b.rename(5, object, '8')).reverse()).toEqual(first);
  });

  it('gives the commonest names to most towns and most names to few', () => {
    const towns = 400;
    const byName = streetsOf(towns);
    // Центральная in most towns, the 60th common name in some, as in the country
    expect(byName.get(COMMON_STREETS[0])!).toBeGreaterThan(towns * 0.8);
    expect(byName.get(COMMON_STREETS[COMMON_STREETS.length - 1])!).toBeGreaterThan(towns * 0.05);
    expect(byName.get(COMMON_STREETS[COMMON_STREETS.length - 1])!).toBeLessThan(towns * 0.5);
    // the long tail: most names in one or two towns
    const tail = [...byName].filter(([name]) => !COMMON_STREETS.includes(name));
    expect(tail.filter(([, count]) => count <= 2).length).toBeGreaterThan(tail.length / 2);
  });

  it('names villages (level 6) from the common village names or made-up ones', () => {
    const names = new NationalNames(1, 100);
    const villages = Array.from({ length: 200 }, (_, copy) => names.rename(copy, 0, '6'));
    expect(new Set(villages).size).toBeGreaterThan(50);
    expect(villages.filter((v) => v === 'Октябрьский').length).toBeGreaterThan(0);
  });
});
