import { describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { small } from '../../../helpers/merge-fixture.js';

describe('ModelBuilder.finish(): the tree (tree.ts)', () => {
  it('rejects an object whose parent never arrived, and its houses', () => {
    const model = small().finish();
    expect(model.objects.some((o) => o.name === 'Нигде')).toBe(false);
    expect(model.summary['rejected gar: parent missing']).toBe(1);
    expect(model.summary['rejected houses: parent object missing']).toBe(1);
    expect(model.houseCount).toBe(5);
  });
});

describe('ModelBuilder municipal entities', () => {
  const ARBAT = 'fias:s2';
  const entity = (key: string, name: string, codes = {}) => ({ key, name, type: 'вн.тер.г', codes, source: 'gar' });

  it('numbers the entities by name, keeps what objects and the odd house refer to, and counts dangling keys', () => {
    const builder = small();
    builder.addMunicipal(entity('fias:m2', 'Хамовники', { gar: '2' }));
    builder.addMunicipal(entity('fias:m1', 'Арбат', { gar: '1' }));
    builder.addMunicipal(entity('fias:m1', 'Арбат', { oktmo: '45374000' }));
    builder.addObject({ key: ARBAT, level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Арбат', type: 'ул', codes: {}, municipal: 'fias:m1', source: 'gar' });
    builder.addObject({ key: 'fias:s1', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Тверская', type: 'ул', codes: {}, municipal: 'fias:gone', source: 'gar' });
    builder.addHouse({ parent: ARBAT, number: '4', codes: {}, municipal: 'fias:m2', source: 'gar' });
    const model = builder.finish();
    expect(model.municipals).toEqual([
      entity('fias:m1', 'Арбат', { gar: '1', oktmo: '45374000' }),
      entity('fias:m2', 'Хамовники', { gar: '2' }),
    ]);
    const arbat = model.objects.find((o) => o.key === ARBAT)!;
    expect(arbat.municipal).toBe(0);
    // its entity never arrived: none (and counted below)
    expect(model.objects.find((o) => o.key === 'fias:s1')!.municipal).toBeUndefined();
    const houses = [...model.houses()].filter((h) => model.objects[h.parent].key === ARBAT);
    expect(houses.map((h) => [h.number, h.municipal])).toEqual([['1', undefined], ['2', undefined], ['3', undefined], ['4', 1]]);
    expect(model.summary).toMatchObject({ 'municipal entities': 2, 'objects with a municipal entity': 1, 'rejected municipal references: entity missing': 1 });
  });
});
