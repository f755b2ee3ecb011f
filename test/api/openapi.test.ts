import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routePaths } from '../../host/routes/index.js';
import { startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
let document: any;
beforeAll(async () => {
  api = await startTestServer();
  document = (await api.get('/api/v1/openapi.json')).body;
});
afterAll(() => api?.close());

/** A validator for `#/components/schemas/<name>` of the served document. */
function validatorFor(schema: unknown) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema({ $id: 'doc', components: document.components });
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? `doc${v}` : rewrite(v)]));
  };
  return ajv.compile(rewrite(schema) as object);
}

function responseSchema(path: string, method: string, status = '200'): unknown {
  return document.paths[path][method].responses[status].content['application/json'].schema;
}

describe('GET /api/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document listing every route at every path it is served', () => {
    expect(document.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      for (const path of routePaths(route)) expect(document.paths[path]?.[route.method.toLowerCase()], path).toBeDefined();
    }
  });

  it('publishes the request schemas the service validates with', () => {
    const body = document.paths['/api/v1/clean/address'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['query']);
    expect(body.properties.query.maxLength).toBe(1000);
    const geo = document.paths['/api/v1/geosearch/address'].post.requestBody.content['application/json'].schema;
    expect(geo.properties.radius.maximum).toBe(1000);
  });

  it('describes the real responses: clean, suggest, idsearch, house, version, legacy and an error', async () => {
    const cases: [string, string, unknown, string?][] = [
      ['/api/v1/clean/address', 'post', { query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' }],
      ['/api/v1/suggest/address', 'post', { query: 'Байконур Гагар', countryCode: 'RU' }],
      // a Ukrainian postcode has five digits
      ['/api/v1/suggest/address', 'post', { query: 'Київ Саксаган', countryCode: 'UA' }],
      ['/api/v1/idsearch/address', 'post', { query: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', type: 'FIAS', countryCode: 'RU' }],
      ['/api/v1/clean/house', 'post', { query: 'д 4 стр 2 оф 5', countryCode: 'RU' }],
      ['/api/v1/clean/address/iqdq', 'post', { query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' }],
      ['/api/v1/version', 'get', undefined],
      ['/legacy/searchAddressDetail', 'get', undefined, `?addr=${encodeURIComponent('г Байконур, ул Гагарина, д. 5')}`],
      ['/legacy/selectAddress', 'get', undefined, `?letters=${encodeURIComponent('Байконур')}`],
    ];
    for (const [path, method, body, query] of cases) {
      const reply = method === 'post' ? await api.post(path, body) : await api.get(path + (query ?? ''));
      expect(reply.status, path).toBe(200);
      const validate = validatorFor(responseSchema(path, method));
      expect(validate(reply.body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const error = await api.post('/api/v1/clean/address', {});
    const validateError = validatorFor(responseSchema('/api/v1/clean/address', 'post', '400'));
    expect(validateError(error.body)).toBe(true);
  });
});
