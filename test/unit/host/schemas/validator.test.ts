import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../host/errors.js';
import { cleanAddressRequest } from '../../../../host/schemas/clean-address.js';
import { geosearchAddressRequest } from '../../../../host/schemas/geosearch-address.js';
import { idsearchAddressRequest, normalizeIdKind } from '../../../../host/schemas/idsearch-address.js';
import { suggestAddressRequest } from '../../../../host/schemas/suggest-address.js';

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    return (err as Error).message;
  }
  throw new Error('no validation error');
}

describe('request schemas', () => {
  it('says exactly "query: значение не может быть пустым." for a missing, empty or blank query', () => {
    for (const body of [{}, { query: '' }, { query: '   ' }, { query: '', countryCode: 'RU' }]) {
      expect(messageOf(() => cleanAddressRequest.parse(structuredClone(body)))).toBe('query: значение не может быть пустым.');
    }
  });

  it('names each wrong field, sorted, joined by "; "', () => {
    const message = messageOf(() => geosearchAddressRequest.parse({ latitude: 91, longitude: 'x', radius: 5000, addresslevel: 'house2' }));
    expect(message).toBe(
      'addresslevel: недопустимое значение, допустимые: region, area, city, settlement, planStructure, street, house; '
      + 'latitude: значение должно быть не больше 90; longitude: ожидается число; radius: значение должно быть не больше 1000.',
    );
  });

  it('refuses a query over 1000 characters', () => {
    expect(messageOf(() => cleanAddressRequest.parse({ query: 'а'.repeat(1001) }))).toBe('query: длина должна быть не больше 1000 символов.');
  });

  it('names nested fields with their index', () => {
    const message = messageOf(() => suggestAddressRequest.parse({ query: 'моск', scopes: [{}, { coordinates: { latitude: 100 } }] }));
    expect(message).toBe('scopes[1].coordinates.latitude: значение должно быть не больше 90; scopes[1].coordinates.longitude: значение не может быть пустым.');
  });

  it('rejects a wrong type of count', () => {
    expect(messageOf(() => suggestAddressRequest.parse({ query: 'моск', count: 'ten' }))).toBe('count: ожидается целое число.');
  });

  it('matches the idsearch type case-insensitively and defaults it to UNKNOWN', () => {
    expect(idsearchAddressRequest.parse(normalizeIdKind({ query: 'x', type: 'fias' })).type).toBe('FIAS');
    expect(idsearchAddressRequest.parse(normalizeIdKind({ query: 'x' })).type).toBe('UNKNOWN');
    expect(messageOf(() => idsearchAddressRequest.parse(normalizeIdKind({ query: 'x', type: 'OKATO' })))).toBe('type: недопустимое значение, допустимые: UNKNOWN, GAR, FIAS, KLADR, OSM, GA.');
  });
});
