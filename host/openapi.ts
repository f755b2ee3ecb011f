/**
 * The OpenAPI 3.1 document, generated from the same route list and ajv schemas the service validates
 * with; `test/api/openapi.test.ts` checks real responses against it.
 */
import type { RouteDefinition } from './routes/route.js';
import { ROUTES, routePaths } from './routes/index.js';
import { RESPONSE_SCHEMAS } from './schemas/responses.js';
import { SERVICE_VERSION } from './routes/version.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid argument (code 3) or no dictionary for the country (code 9)',
  401: 'No or wrong API key, or operator key for operator methods (code 16)',
  403: 'License invalid, expired or not covering the country; operator methods with no operator key configured (code 7)',
  404: 'Nothing found (code 5)',
  405: 'Method not allowed (code 12)',
  500: 'Internal error (code 13)',
  503: 'Unavailable (code 14)',
};

/** JSON Schema with `$ref: 'Name'` rewritten to OpenAPI component references; `$id` and `x-message` dropped. */
function toOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id' || key === 'x-message') continue;
    out[key] = key === '$ref' && typeof value === 'string' && !value.startsWith('#') ? `#/components/schemas/${value}` : toOpenApi(value);
  }
  return out;
}

function queryParameters(schema: Record<string, unknown>) {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: toOpenApi({ ...property, type: 'string' }),
  }));
}

function operation(route: RouteDefinition) {
  const statuses = [400, ...(route.auth === 'open' ? [] : [401]), ...(route.licensed ? [403] : []), ...(route.errorStatuses ?? []), 500];
  const op: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.base === 'api' ? 'address' : route.base],
    ...(route.auth === 'open' ? { security: [] } : route.auth === 'operator' ? { security: [{ operatorKey: [] }] } : {}),
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: toOpenApi(route.response) } } },
      ...Object.fromEntries([...new Set(statuses)].sort().map((status) => [
        status,
        { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      ])),
    },
  };
  if (route.request) {
    if (route.method === 'GET') op.parameters = queryParameters(route.request.schema);
    else op.requestBody = { required: true, content: { 'application/json': { schema: toOpenApi(route.request.schema) } } };
  }
  return op;
}

export function openApiDocument(routes: RouteDefinition[] = ROUTES) {
  const paths: Record<string, Record<string, unknown>> = {};
  const requestSchemas: Record<string, unknown> = {};
  for (const route of routes) {
    for (const [index, path] of routePaths(route).entries()) {
      const op = operation(route);
      if (index > 0) op.operationId = `${route.operationId}_${index}`;
      (paths[path] ??= {})[route.method.toLowerCase()] = op;
    }
    const id = route.request?.schema.$id;
    if (typeof id === 'string') requestSchemas[id] = toOpenApi(route.request!.schema);
  }
  paths['/api/v1/openapi.json'] = {
    get: { operationId: 'openapi', summary: 'This document', security: [], responses: { 200: { description: 'OpenAPI 3.1 document', content: { 'application/json': {} } } } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Address standardization service',
      version: SERVICE_VERSION,
      description: 'Standardization, hints and search of postal addresses of Russia, Kazakhstan, Belarus and Ukraine. Errors: {code (gRPC status), message, details}.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: {
        ...Object.fromEntries(RESPONSE_SCHEMAS.map((schema) => [schema.$id, toOpenApi(schema)])),
        ...requestSchemas,
      },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The key raw, or `Token <key>`, or `Bearer <key>`' },
        operatorKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'auth.OperatorKey of the config, written as an API key is; needed whether auth is on or not' },
      },
    },
    security: [{ apiKey: [] }],
  };
}
