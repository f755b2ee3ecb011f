/**
 * The subtree index (assembly/subtree.ts) on the debug core over small hand-written models: each object's subtree
 * range, the postcode slices, the house leads, and the scoped reads that use them (a town's streets read from its
 * subtree). The expected values are computed here from the model's own parent links, postcodes and house numbers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MergedHouse, MergedObject } from '../../../dictionaries/merged-model.js';
import type { AddressEngine } from '../../../engine/engine.js';
import type { LoadedDictionary } from '../../../engine/dictionary.js';
import { levelNames } from '../../helpers/engine.js';
import { engineOfModel, mergedModel } from '../../helpers/model.js';

interface Built {
  objects: MergedObject[];
  houses: MergedHouse[];
}

const TOWNS = ['Белогорск', 'Черноречье', 'Краснополье', 'Верхнедольск', 'Староозерск', 'Яснобережье'];

/**
 * Two regions, a district, towns with streets of the same names (Ленина in every town), a microdistrict with a
 * street of its own, streets with postcodes of their own or their town's, and houses of every lead shape.
 */
function model(): Built {
  const objects: MergedObject[] = [];
  const houses: MergedHouse[] = [];
  const add = (o: Omit<MergedObject, 'key' | 'codes' | 'ga' | 'source'>): number => {
    objects.push({ ...o, key: `test:${objects.length}`, codes: {}, ga: '', source: 'test' });
    return objects.length - 1;
  };
  const street = (parent: number, name: string, numbers: string[], postcode?: string): number => {
    const id = add({ level: 7, parent, name, type: 'ул', postcode: postcode ?? objects[parent].postcode });
    for (const number of numbers) houses.push({ parent: id, number, codes: {}, source: 'test' });
    return id;
  };
  TOWNS.forEach((town, i) => {
    const region = i % 3 === 0 ? add({ level: 1, parent: -1, name: `Озерная ${i}`, type: 'обл', postcode: `6${i}0000` }) : objects.length - 1;
    const parent = i % 3 === 0 ? region : objects.map((o) => o.level).lastIndexOf(1);
    const district = i % 2 === 0 ? add({ level: 2, parent, name: `Степной ${i}`, type: 'р-н', postcode: objects[parent].postcode }) : parent;
    const id = add({ level: 3, parent: district, name: town, type: 'г', population: 1000 * (i + 1), postcode: `62${i}000` });
    street(id, 'Ленина', ['1', '2', '10', '10а', '35к1'].slice(0, 2 + i));
    street(id, 'Мира', ['7', '123', '42б'], `62${i}1${i}1`);
    if (i === 2) {
      const micro = add({ level: 6, parent: id, name: 'Солнечный', type: 'мкр', postcode: `62${i}000` });
      street(micro, 'Звездная', ['9', 'а1'], `62${i}555`);
    }
    street(id, 'Садовая', []);
  });
  return { objects, houses };
}

/** The same model with its last object moved to the front: its ids are no longer depth-first. */
function outOfOrder(built: Built): Built {
  const last = built.objects.length - 1;
  const id = (old: number): number => (old === last ? 0 : old + 1);
  const objects = [built.objects[last], ...built.objects.slice(0, last)].map((o) => ({ ...o, parent: o.parent < 0 ? -1 : id(o.parent) }));
  const houses = built.houses.map((h) => ({ ...h, parent: id(h.parent) })).sort((a, b) => a.parent - b.parent);
  return { objects, houses };
}

/** Whether `a` is an ancestor of `o` by the model's parent links. */
function isAncestor(objects: MergedObject[], a: number, o: number): boolean {
  for (let p = objects[o].parent; p >= 0; p = objects[p].parent) if (p === a) return true;
  return false;
}

const built = model();
let engine: AddressEngine;
let dict: LoadedDictionary;
let unscoped: LoadedDictionary;
let unscopedEngine: AddressEngine;

beforeAll(async () => {
  ({ engine, dict } = await engineOfModel(mergedModel(built.objects, built.houses, [], [])));
  const moved = outOfOrder(built);
  ({ engine: unscopedEngine, dict: unscoped } = await engineOfModel(mergedModel(moved.objects, moved.houses, [], [])));
});

const hooks = () => dict.core.hooks;

describe('subtreeEnd(o)', () => {
  it('spans exactly the descendants of every object', () => {
    for (let o = 0; o < built.objects.length; o++) {
      const end = hooks().subtreeEndOf(o);
      const inside = built.objects.map((_, id) => id).filter((id) => id > o && id < end);
      const descendants = built.objects.map((_, id) => id).filter((id) => isAncestor(built.objects, o, id));
      expect({ o, inside }).toEqual({ o, inside: descendants });
    }
  });

  it('is o + 1 for a leaf: a street with houses has no descendants', () => {
    const leaves = built.objects.map((_, id) => id).filter((id) => !built.objects.some((c) => c.parent === id));
    expect(leaves.length).toBeGreaterThan(TOWNS.length);
    for (const o of leaves) expect(hooks().subtreeEndOf(o)).toBe(o + 1);
  });

  it('is not built when the ids are not depth-first (every posting is read in one pass)', () => {
    expect(unscoped.core.hooks.subtreeEndOf(0)).toBe(-1);
    expect(hooks().subtreeEndOf(built.objects.length)).toBe(-1);
  });
});

describe('postcode slices', () => {
  /** The objects whose postcode is set and not their parent's, by postcode, from the model. */
  const expected = new Map<number, number[]>();
  built.objects.forEach((o, id) => {
    const own = o.postcode ? Number(o.postcode) : 0;
    const parent = o.parent >= 0 ? Number(built.objects[o.parent].postcode ?? 0) : -1;
    if (own > 0 && own !== parent) expected.set(own, [...(expected.get(own) ?? []), id]);
  });

  it('lists, for each postcode, the objects that have it and whose parent has another', () => {
    expect(expected.size).toBeGreaterThan(TOWNS.length);
    for (const [postcode, ids] of expected) {
      const count = hooks().postcodeObjects(postcode);
      expect({ postcode, ids: [...dict.core.result().subarray(1, 1 + count)] }).toEqual({ postcode, ids });
    }
  });

  it('leaves out an object that shares its parent\'s postcode: its parent\'s subtree holds it', () => {
    const sharing = built.objects.findIndex((o) => o.level === 2);
    const postcode = Number(built.objects[sharing].postcode);
    const count = hooks().postcodeObjects(postcode);
    const ids = [...dict.core.result().subarray(1, 1 + count)];
    expect(ids).not.toContain(sharing);
    expect(ids).toContain(built.objects[sharing].parent);
  });

  it('is empty for a postcode nobody has, below and above every one listed', () => {
    for (const postcode of [100000, 620500, 999999]) expect(hooks().postcodeObjects(postcode)).toBe(0);
  });
});

describe('house leads', () => {
  const CHARACTERS = [...'0123456789аб'].map((c) => c.charCodeAt(0));
  /** a digit is its own class, any other character one class (a key starting with one has one lead, whatever follows) */
  const cls = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : 10);

  it('tell the first character, the first two and the two-digit keys of every object\'s houses', () => {
    built.objects.forEach((_, o) => {
      const keys = built.houses.filter((h) => h.parent === o).map((h) => h.number);
      for (const c1 of CHARACTERS) {
        for (const c2 of [-1, ...CHARACTERS]) {
          const first = keys.some((k) => cls(k.charCodeAt(0)) === cls(c1));
          const pair = c2 >= 0 && keys.some((k) => cls(k.charCodeAt(0)) === cls(c1) && (cls(c1) === 10 || (k.length > 1 && cls(k.charCodeAt(1)) === cls(c2))));
          const short = c2 >= 0 && cls(c1) < 10 && cls(c2) < 10 &&
            keys.some((k) => (k.length === 2 || k.length === 3) && k.charCodeAt(0) === c1 && k.charCodeAt(1) === c2);
          const want = (first ? 1 : 0) | (pair ? 2 : 0) | (short ? 4 : 0);
          const got = hooks().houseLeadsOf(o, c1, c2);
          const asked = { o, keys, c1: String.fromCharCode(c1), c2: c2 < 0 ? '' : String.fromCharCode(c2) };
          if (got !== want) expect({ ...asked, got }).toEqual({ ...asked, got: want });
        }
      }
    });
  });

  it('say nothing of an object without houses', () => {
    const empty = built.objects.findIndex((o) => o.name === 'Садовая');
    for (const c of CHARACTERS) expect(hooks().houseLeadsOf(empty, c, -1)).toBe(0);
  });
});

describe('scoped reads', () => {
  it('find each town\'s Ленина from its subtree, as the one-pass reading does', () => {
    for (const town of TOWNS) {
      const query = `г ${town}, ул Ленина 2`;
      const scoped = levelNames(dict, engine.standardize('ru', query));
      expect(scoped).toMatchObject({ city: `г ${town}`, street: 'ул Ленина' });
      expect(scoped).toEqual(levelNames(unscoped, unscopedEngine.standardize('ru', query)));
    }
  });

  it('read the streets of the town named, not every Ленина of the country', () => {
    engine.standardize('ru', `г ${TOWNS[3]}, ул Ленина`);
    const scopedRead = hooks().stats(2);
    unscopedEngine.standardize('ru', `г ${TOWNS[3]}, ул Ленина`);
    const onePass = unscoped.core.hooks.stats(2);
    expect(onePass).toBeGreaterThanOrEqual(TOWNS.length);
    expect(scopedRead).toBeLessThan(onePass);
  });

  it('find a street of a microdistrict under its town', () => {
    expect(levelNames(dict, engine.standardize('ru', `${TOWNS[2]}, Звездная 9`))).toMatchObject({ city: `г ${TOWNS[2]}`, street: 'ул Звездная' });
  });
});
