import { describe, expect, it } from 'vitest';
import { settledModel, syntheticModel } from '../../../bench/scale.js';
import type { MergedModel, MergedObject } from '../../../dictionaries/merged-model.js';
import { CITY, engineOfModel, mergedModel, REGION, SMALL_HOUSES, SMALL_OBJECTS } from '../../helpers/model.js';

/**
 * The small model with a second city under the region that has neither streets nor houses (a national list's) and a
 * second region with nothing under it.
 */
function modelWithEmptyCity(): MergedModel {
  const empty: MergedObject = { key: 'test:empty', level: 3, parent: REGION, name: 'Пустоград', type: 'г', codes: {}, ga: '', source: 'test' };
  const region: MergedObject = { key: 'test:region', level: 1, parent: -1, name: 'Пустая', type: 'обл', codes: {}, ga: '', source: 'test' };
  return mergedModel([...SMALL_OBJECTS, empty, region], SMALL_HOUSES, [], []);
}

/** Every object's parent is on the path from the root to the object before it (subtree.ts buildEnds). */
function depthFirst(objects: MergedObject[]): boolean {
  const path: number[] = [];
  for (const [id, o] of objects.entries()) {
    while (path.length > 0 && path[path.length - 1] !== o.parent) path.pop();
    if (o.parent >= 0 && path.length === 0) return false;
    path.push(id);
  }
  return true;
}

describe('bench/scale.ts settledModel', () => {
  const base = modelWithEmptyCity();
  const model = settledModel(base, SMALL_HOUSES.length * 3);
  const houses = [...model.houses()];

  it('copies the settled city with its streets and houses, not the regions nor the empty city', () => {
    expect(model.summary.copies).toBe(3);
    // copy 0 whole (6 objects), then two copies of the city and its two streets
    expect(model.objects).toHaveLength(6 + 2 * 3);
    expect(model.objects.filter((o) => o.level === 1).map((o) => o.name)).toEqual(['Свердловская', 'Пустая']);
    expect(model.objects.filter((o) => o.name === 'Пустоград')).toHaveLength(1);
    const cities = model.objects.filter((o) => o.level === 3 && o.name !== 'Пустоград');
    expect(cities).toHaveLength(3);
    expect(new Set(cities.map((o) => o.name)).size).toBe(3);
    // copy k of the city goes to region (k + 0) mod 2: copy 1 to the second region, copy 2 to its own
    const second = model.objects.findIndex((o) => o.name === 'Пустая');
    expect(cities.map((o) => o.parent).sort((a, b) => a - b)).toEqual([REGION, REGION, second]);
    expect(model.objects.filter((o) => o.name === 'Ленина')).toHaveLength(3);
    expect(houses).toHaveLength(SMALL_HOUSES.length * 3);
    expect(model.houseCount).toBe(houses.length);
  });

  it('keeps the ids a depth-first order and the houses grouped by parent in object order', () => {
    expect(depthFirst(model.objects)).toBe(true);
    const parents = houses.map((h) => h.parent);
    expect(parents).toEqual([...parents].sort((a, b) => a - b));
    for (const h of houses) expect(model.objects[h.parent].level).toBe(7);
  });

  it('gives a copy the same streets under its own city, and ru.dict its own answer', async () => {
    const { engine } = await engineOfModel(model);
    const answer = engine.standardize('ru', 'екатеринбург ленина 10а');
    expect(answer.levels.city).toBe(CITY);
    expect(answer.house).toBeGreaterThanOrEqual(0);
    const copyCity = model.objects.findIndex((o, id) => id > CITY && o.level === 3 && o.name !== 'Пустоград');
    const copy = engine.standardize('ru', `${model.objects[copyCity].name} ленина 10а`);
    expect(copy.levels.city).toBe(copyCity);
    expect(copy.house).toBeGreaterThanOrEqual(0);
  });

  it('holds fewer places than the lists model for the same houses', () => {
    const lists = syntheticModel(base, 3);
    expect(lists.objects.filter((o) => o.level <= 5)).toHaveLength(3 * 4);
    expect(model.objects.filter((o) => o.level <= 5)).toHaveLength(3 + 3);
  });
});
