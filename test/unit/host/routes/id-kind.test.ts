import { describe, expect, it } from 'vitest';
import { candidateKinds, canonicalId } from '../../../../host/routes/id-kind.js';

describe('candidateKinds(id)', () => {
  it('detects the registry from the id shape', () => {
    expect(candidateKinds('0c5b2444-70a0-4932-980c-b4dc0d3f02b5')).toEqual(['FIAS']);
    expect(candidateKinds('0C5B2444-70A0-4932-980C-B4DC0D3F02B5')).toEqual(['FIAS']);
    expect(candidateKinds('7700000000000')).toEqual(['KLADR', 'GAR']);
    expect(candidateKinds('77000000000153200')).toEqual(['KLADR', 'GAR']);
    expect(candidateKinds('7700000000015320001')).toEqual(['KLADR', 'GAR']);
    expect(candidateKinds('1405113')).toEqual(['GAR']);
    expect(candidateKinds('R102269')).toEqual(['OSM']);
    expect(candidateKinds('w25056568')).toEqual(['OSM']);
    expect(candidateKinds('RU0770000000000000000002733')).toEqual(['GA']);
    expect(candidateKinds('улица')).toEqual([]);
  });

  it('spells ids as the registries store them', () => {
    expect(canonicalId('FIAS', ' 0C5B2444-70A0-4932-980C-B4DC0D3F02B5 ')).toBe('0c5b2444-70a0-4932-980c-b4dc0d3f02b5');
    expect(canonicalId('OSM', 'w1')).toBe('W1');
    expect(canonicalId('GA', 'ru0770000000000000000002733')).toBe('RU0770000000000000000002733');
  });
});
