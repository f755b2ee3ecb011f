/**
 * The apartment of the real GAR region (one `пом 1` in AS_APARTMENTS) through the whole build: the merge's
 * apartment store places it under its house, the blob writes it in house order, idsearch finds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from './helpers.js';

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
