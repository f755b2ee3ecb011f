import { describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { small } from '../../../helpers/merge-fixture.js';

describe('ModelBuilder.finish(): popular names and name variants (names.ts)', () => {
  it('attaches popular names from aliases.tsv', () => {
    const model = small().finish();
    expect(model.objects[0].aliases).toEqual(expect.arrayContaining(['мск']));
  });

  it('attaches name variants to streets named after people', () => {
    const builder = small();
    builder.addObject({ key: 'fias:s3', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Карла Маркса', type: 'ул', codes: {}, source: 'gar' });
    const model = builder.finish();
    expect(model.objects.find((o) => o.name === 'Карла Маркса')!.aliases).toEqual(['К. Маркса', 'К.Маркса', 'Маркса']);
    expect(model.summary['streets with name variants']).toBe(1);
  });
});
