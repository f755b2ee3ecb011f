import { describe, expect, it } from 'vitest';
import { gaOf, type MergedModel } from '../../../../dictionaries/merged-model.js';
import { Level } from '../../../../dictionaries/source-model.js';
import { small } from '../../../helpers/merge-fixture.js';

describe('ModelBuilder.finish(): GA codes (ga-codes.ts)', () => {
  it('numbers ga codes by the region KLADR code and children in name order', () => {
    const model = small().finish();
    const ga = (found: (o: MergedModel['objects'][number]) => boolean) => gaOf(model, model.objects.findIndex(found));
    expect(ga((o) => o.level === Level.region)).toBe('RU0770000000000000000000000');
    expect(ga((o) => o.name === 'Арбат')).toBe('RU0770000000000000000000001');
    expect(ga((o) => o.name === 'Тверская')).toBe('RU0770000000000000000000002');
    const again = small().finish();
    expect(again.objects.map((_, i) => gaOf(again, i))).toEqual(model.objects.map((_, i) => gaOf(model, i)));
    // the codes are the model's (one byte array), not strings on its objects
    expect(model.objects.every((o) => o.ga === undefined)).toBe(true);
  });
});
