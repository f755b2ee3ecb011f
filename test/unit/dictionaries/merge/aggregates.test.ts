import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../../../dictionaries/merge/sink.js';
import { Level } from '../../../../dictionaries/source-model.js';
import { region, small } from '../../../helpers/merge-fixture.js';

describe('ModelBuilder.finish(): houses and what they say of their objects (houses.ts, aggregates.ts)', () => {
  it('yields houses grouped by parent, with postcode and coordinates rolled up', () => {
    const model = small().finish();
    const houses = [...model.houses()];
    const parents = houses.map((h) => h.parent);
    expect(parents).toEqual([...parents].sort((a, b) => a - b));
    expect(houses.filter((h) => model.objects[h.parent].name === 'Арбат').map((h) => h.number)).toEqual(['1', '2', '3']);
    const arbat = model.objects.find((o) => o.name === 'Арбат')!;
    expect(arbat.postcode).toBe('119002');
    const tverskaya = model.objects.find((o) => o.name === 'Тверская')!;
    expect(tverskaya).toMatchObject({ postcode: '125009', geoLevel: Level.street });
    expect(tverskaya.lat).toBeCloseTo(55.77, 5);
    expect(tverskaya.lon).toBeCloseTo(37.62, 5);
  });

  it('gives a place the most common postcode of the houses below it, the least at a tie, and a region only its own', () => {
    const builder = new ModelBuilder('ru');
    builder.addObject(region({ key: 'gar:1', codes: { kladr: '6600000000000' }, name: 'Свердловская', type: 'обл' }));
    builder.addObject({ key: 'gar:2', level: Level.city, parent: 'gar:1', name: 'Березовский', type: 'г', codes: {}, source: 'gar' });
    const street = (key: string, name: string) => builder.addObject({ key, level: Level.street, parent: 'gar:2', name, type: 'ул', codes: {}, source: 'gar' });
    street('gar:3', 'Ленина');
    street('gar:4', 'Мира');
    const house = (parent: string, number: string, postcode: string) => builder.addHouse({ parent, number, codes: {}, source: 'gar', postcode });
    house('gar:3', '1', '623702');
    house('gar:3', '2', '623702');
    house('gar:4', '1', '623701');
    house('gar:4', '2', '623701');
    house('gar:2', '5', '623703');
    house('gar:1', '9', '620000');
    const model = builder.finish();
    const postcodeOf = (name: string) => model.objects.find((o) => o.name === name)!.postcode;
    expect([postcodeOf('Ленина'), postcodeOf('Мира'), postcodeOf('Березовский'), postcodeOf('Свердловская')])
      .toEqual(['623702', '623701', '623701', '620000']);
  });
});
