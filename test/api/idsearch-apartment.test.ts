/**
 * The apartment of the real GAR region (one `пом 1` in AS_APARTMENTS) through the whole build: the merge's
 * apartment store places it under its house, the blob writes it in house order, idsearch and clean find it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

const APARTMENT = { fias: '497202af-0ce7-4ca7-a73d-124546396d82', gar: '157343423' };

describe('POST /api/v1/idsearch/address for an apartment', () => {
  it('answers the apartment with its house by FIAS GUID and by GAR id', async () => {
    for (const [type, query] of [['FIAS', APARTMENT.fias], ['GAR', APARTMENT.gar], ['UNKNOWN', APARTMENT.fias.toUpperCase()]]) {
      const reply = await api.post('/api/v1/idsearch/address', { query, type, countryCode: 'RU' });
      expect(reply.status, type).toBe(200);
      expect(schemaErrors('AddressRecord', reply.body)).toBe('');
      expect(reply.body.houseDetails.apartmentCodes).toMatchObject({ fias: APARTMENT.fias, gar: APARTMENT.gar });
      expect(reply.body.houseDetails).toMatchObject({ house: '7б', place: '1', fullName: 'дом 7б, помещение 1' });
      expect(reply.body.houseDetails.codes).toMatchObject({ fias: '53b51083-b807-4754-90ad-a46acb1a4904', gar: '80239293' });
    }
  });
});

describe('POST /api/v1/clean/address for an apartment', () => {
  it('finds it as idsearch writes it (`помещение 1`), as `пом 1`, and as `кв 1`, spelled by the registry each time', async () => {
    const found = await api.post('/api/v1/idsearch/address', { query: APARTMENT.fias, type: 'FIAS', countryCode: 'RU' });
    for (const query of [found.body.addressFull, 'Байконур мкр 6 дом 7б пом 1', 'г Байконур, мкр 6-й, д 7б, кв 1']) {
      const reply = await api.post('/api/v1/clean/address', { query, countryCode: 'RU' });
      expect(reply.status, query).toBe(200);
      expect(reply.body.houseDetails.apartmentCodes, query).toMatchObject({ fias: APARTMENT.fias, gar: APARTMENT.gar });
      expect(reply.body.houseDetails, query).toMatchObject({ house: '7б', flat: '', place: '1', fullName: 'дом 7б, помещение 1' });
      expect(reply.body.undefinedParts, query).toBe('');
    }
    // a number the house has no apartment of stays the typed part, with no apartment codes
    const other = await api.post('/api/v1/clean/address', { query: 'г Байконур, мкр 6-й, д 7б, пом 2', countryCode: 'RU' });
    expect(other.body.houseDetails).toMatchObject({ place: '2', flat: '' });
    expect(other.body.houseDetails.apartmentCodes.fias).toBe('');
  });
});
