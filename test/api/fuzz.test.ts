import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index.js';
import { DICTIONARIES_DIR, schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

const POST_PATHS = [
  '/api/v1/clean/address', '/api/v1/clean/address/iqdq', '/api/v1/clean/house', '/api/v1/suggest/address',
  '/api/v1/geosearch/address', '/api/v1/idsearch/address', '/api/v1/idsearch/address/center',
];

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('Москва', 'г Байконур ул Гагарина 5', 'д 1 кв 2', 'ъъъ', '\u0000', '😀😀😀', 'Z'.repeat(1000), '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', 'W108439630', '7700000000000'),
);
const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }));
const body = fc.oneof(
  fc.jsonValue(),
  fc.record({
    query: value, countryCode: fc.oneof(value, fc.constantFrom('RU', 'ru', 'RUS', '643', 'KZ', 'XX')), count: value, type: fc.oneof(value, fc.constantFrom('FIAS', 'OSM', 'UNKNOWN')),
    latitude: fc.oneof(value, fc.double({ min: -90, max: 90, noNaN: true })), longitude: fc.oneof(value, fc.double({ min: -180, max: 180, noNaN: true })),
    radius: value, addresslevel: value, scopes: fc.oneof(value, fc.array(fc.dictionary(fc.constantFrom('fias', 'name', 'coordinates', 'postcode'), value), { maxLength: 3 })),
  }, { requiredKeys: [] }),
);

describe('fuzzed request bodies', () => {
  it('never answer 5xx; every error is the {code, message, details} envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_PATHS), body, async (path, payload) => {
        const reply = await api.request('POST', path, { raw: JSON.stringify(payload) ?? 'null' });
        expect(reply.status).toBeLessThan(500);
        if (reply.status >= 400) expect(schemaErrors('Error', reply.body)).toBe('');
      }),
      { numRuns: 400 },
    );
  });

  it('never answer 5xx with the house codes read from the dictionary files either (idsearch, clean, geosearch)', async () => {
    const engine = await createEngine({ dir: DICTIONARIES_DIR, houseCodes: 'file' });
    const cold = await startTestServer({ engine });
    try {
      const id = fc.oneof(text, fc.uuid(), fc.bigInt({ min: 0n, max: 2n ** 40n }).map(String), fc.constantFrom('4abf7720-fa42-482c-a2ec-cd564d9abc96', '5392775', '0'));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('/api/v1/idsearch/address', '/api/v1/clean/address', '/api/v1/geosearch/address'), id, fc.constantFrom('FIAS', 'GAR', 'UNKNOWN'), async (path, query, type) => {
          const reply = await cold.post(path, { query, type, countryCode: 'RU', latitude: 45.62, longitude: 63.31 });
          expect(reply.status).toBeLessThan(500);
          if (reply.status >= 400) expect(schemaErrors('Error', reply.body)).toBe('');
        }),
        { numRuns: 300 },
      );
    } finally {
      await cold.close();
    }
  });

  it('never answer 5xx to raw bytes that are not JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_PATHS), fc.uint8Array({ maxLength: 300 }), async (path, bytes) => {
        const reply = await api.request('POST', path, { raw: Buffer.from(bytes) });
        expect(reply.status).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });

  it('never answer 5xx to fuzzed legacy query strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/legacy/selectAddress', '/legacy/searchAddressDetail', '/legacy/checkAddress', '/legacy/searchAddressDetailDHL'), text, text, async (path, a, b) => {
        const reply = await api.get(`${path}?letters=${encodeURIComponent(a)}&addr=${encodeURIComponent(a)}&country=${encodeURIComponent(b)}&countreturnrec=${encodeURIComponent(b)}`);
        expect(reply.status).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });
});
