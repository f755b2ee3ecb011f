import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../../../dictionaries/merge/sink.js';
import { Level } from '../../../../dictionaries/source-model.js';
import { region } from '../../../helpers/merge-fixture.js';

describe('ModelBuilder.finish(): postcodes from Post and from the parent (top-down.ts)', () => {
  it('lends a place\'s postcode to its streets without one only when the place has one postcode', () => {
    const builder = new ModelBuilder('ru');
    builder.addObject(region({ key: 'gar:1', codes: { kladr: '6600000000000' }, name: 'Свердловская', type: 'обл' }));
    builder.addObject({ key: 'gar:2', level: Level.city, parent: 'gar:1', name: 'Екатеринбург', type: 'г', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:3', level: Level.city, parent: 'gar:1', name: 'Березовский', type: 'г', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:4', level: Level.street, parent: 'gar:2', name: 'Ленина', type: 'ул', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:5', level: Level.street, parent: 'gar:3', name: 'Мира', type: 'ул', codes: {}, source: 'gar' });
    builder.addObject({ key: 'gar:6', level: Level.street, parent: 'gar:1', name: 'Трактовая', type: 'ул', codes: {}, source: 'gar' });
    for (const postcode of ['620000', '620014', '620075']) builder.addPostcode({ postcode, region: 'Свердловская обл', city: 'Екатеринбург' });
    builder.addPostcode({ postcode: '623700', region: 'Свердловская обл', city: 'Березовский' });
    builder.addPostcode({ postcode: '620999', region: 'Свердловская обл' });
    const model = builder.finish();
    const postcodeOf = (name: string) => model.objects.find((o) => o.name === name)!.postcode ?? '';
    // a big city's and a region's postcode is their main office's: no street's in them
    expect([postcodeOf('Екатеринбург'), postcodeOf('Ленина')]).toEqual(['620000', '']);
    expect(postcodeOf('Трактовая')).toBe('');
    // a town of one post office: its streets share its postcode
    expect([postcodeOf('Березовский'), postcodeOf('Мира')]).toEqual(['623700', '623700']);
  });
});
