import { describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { small } from '../../../helpers/merge-fixture.js';

describe('ModelBuilder.finish(): records of one place joined (join.ts)', () => {
  it('joins records of one place by FIAS id and by name, with all their codes', () => {
    const model = small().finish();
    const regions = model.objects.filter((o) => o.level === Level.region);
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ codes: { kladr: '7700000000000', okato: '45000000000' }, postcode: '101000', timezone: 'UTC+3', lat: 55.75 });
    expect(model.objects.filter((o) => o.level === Level.city)).toEqual([]);
    const tverskaya = model.objects.filter((o) => o.name === 'Тверская');
    expect(tverskaya).toHaveLength(1);
    expect(tverskaya[0]).toMatchObject({ codes: { fias: 's1', osm: 'W1' }, timezone: 'UTC+3', source: 'gar' });
  });
});
