/**
 * Keeps docs/API.md true to the service it documents, against a real `createApp()` with the real dictionaries:
 * every served route has a section, every section names a served route, every request field and error code is
 * documented, and every curl example answers 200 with the values its shown answer holds.
 *
 * The document's shapes this test reads:
 *   - a method's section opens with `### \`METHOD /path\`` and a line `Paths: \`/a\`, \`/b\`` listing every path
 *     it is served at;
 *   - the errors table's rows begin `| <code> | <NAME> | <HTTP status> |`;
 *   - an example is a ```sh block of `curl` commands on http://localhost:8080, answering 200 unless a line
 *     `# HTTP <status>` in the block announces another; a ```json block right after it is its answer, trimmed: every member it shows is in the real answer with the same value, an array shows
 *     the real array's first items.
 * A new route needs a section of that shape with a curl example; a path served outside the OpenAPI document
 * needs its entry in NON_OPENAPI too.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as errors from '../../host/errors.js';
import { AppError, GrpcCode, httpStatusOf } from '../../host/errors.js';
import { ROUTES, routePaths } from '../../host/routes/index.js';
import type { RouteDefinition } from '../../host/routes/route.js';
import { RESPONSE_SCHEMAS } from '../../host/schemas/responses.js';
import { startTestServer, type TestServer } from '../helpers/api.js';

const DOC = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');
const EXAMPLE_BASE = 'http://localhost:8080';
/** the public key the document's example license key is signed for */
const EXAMPLE_PUBLIC_KEY = 'SVviGJ8LlQzvxw9xUjTWhvFQ_ixUrPWHN81q7wjzGbM';
/** the operator key the reference's PUT /license example sends */
const EXAMPLE_OPERATOR_KEY = 'example-operator-key-0123';

/**
 * Documented paths the OpenAPI document does not list (the page, the document's own /v1 twin), with a path to
 * request for each: they must answer 200.
 */
const NON_OPENAPI: Record<string, string> = {
  'GET /': '/',
  'GET /index.html': '/index.html',
  'GET /sw.js': '/sw.js',
  'GET /web/{file}': '/web/app.js',
  'GET /web/{country}/manifest.json': '/web/ru/manifest.json',
  'GET /web/{country}/entry.dict': '/web/ru/entry.dict',
  'GET /web/{country}/places/{file}': '/web/ru/places/0.dict',
  // Екатеринбург's pack (the 139th: id 3u), a place with houses
  'GET /web/{country}/codes/{file}': '/web/ru/codes/3u-0.dict',
  'GET /v1/openapi.json': '/v1/openapi.json',
  'GET /widget.js': '/widget.js',
};

interface Section {
  heading: string;
  text: string;
}

interface Endpoint extends Section {
  method: string;
  paths: string[];
}

/** The document cut at its `##` and `###` headings. */
function sections(doc: string): Section[] {
  return doc.split(/^(?=#{2,3} )/m).filter((part) => part.startsWith('#')).map((part) => {
    const newline = part.indexOf('\n');
    return { heading: part.slice(0, newline).replace(/^#+ /, ''), text: part.slice(newline + 1) };
  });
}

const ENDPOINT_HEADING = /^`(GET|POST|PUT|PATCH|DELETE) (\/\S*)`$/;

function endpoints(doc: string): Endpoint[] {
  return sections(doc).flatMap((section) => {
    const heading = ENDPOINT_HEADING.exec(section.heading);
    if (!heading) return [];
    const line = /^Paths: (.*)$/m.exec(section.text);
    const paths = line ? [...line[1].matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]) : [heading[2]];
    return [{ ...section, method: heading[1], paths }];
  });
}

/** Koa router paths (`/web/:file`) as the document writes them (`/web/{file}`). */
const docPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

type Schema = Record<string, unknown>;

/**
 * Request fields of a schema as the document names them: `query`, `scopes`, `scopes[].coordinates.radius`. The
 * alternatives of a `oneOf`/`anyOf` and the items of a body that is an array name their fields the same way.
 */
function requestFields(schema: Schema, prefix = ''): { name: string; schema: Schema }[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const own = Object.entries(properties).flatMap(([key, property]) => {
    const name = `${prefix}${key}`;
    const items = property.items as Schema | undefined;
    return [
      { name, schema: property },
      ...requestFields(property, `${name}.`),
      ...(items ? requestFields(items, `${name}[].`) : []),
    ];
  });
  const alternatives = [...((schema.oneOf ?? []) as Schema[]), ...((schema.anyOf ?? []) as Schema[])];
  if (prefix === '' && schema.items) alternatives.push(schema.items as Schema);
  return [...own, ...alternatives.flatMap((alternative) => requestFields(alternative, prefix))];
}

/** Property names anywhere in a response schema. */
function responseFields(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(responseFields);
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const own = node.properties && typeof node.properties === 'object' ? Object.keys(node.properties) : [];
  return [...own, ...Object.values(node).flatMap(responseFields)];
}

/** The table row naming `field` in its first cell, else the paragraph naming it. */
function fieldContext(text: string, field: string): string | undefined {
  const named = (part: string) => part.includes(`\`${field}\``);
  const row = text.split('\n').find((line) => line.startsWith('|') && named(line.split('|')[1] ?? ''));
  return row ?? text.split(/\n\s*\n/).find(named);
}

/** What the document must say of a field's limits: its bounds, its default, its allowed values. */
function limitsOf(schema: Record<string, unknown>): string[] {
  const said: string[] = [];
  for (const key of ['minimum', 'maximum', 'maxLength', 'maxItems', 'default']) {
    if (schema[key] !== undefined) said.push(String(schema[key]));
  }
  if (Array.isArray(schema.enum)) said.push(...schema.enum.filter((value) => value !== '').map(String));
  return said;
}

interface CurlCall {
  command: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Words of a shell line: bare, 'single-quoted' or "double-quoted". */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3]);
  return words;
}

/** The curl options the examples use; any other is refused so that an example is never half read. */
function parseCurl(command: string): CurlCall {
  const words = shellWords(command);
  expect(words[0], command).toBe('curl');
  let url = '';
  let method = '';
  let get = false;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  const params: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === '-s') continue;
    else if (word === '-G' || word === '--get') get = true;
    else if (word === '-X') method = words[++i];
    else if (word === '-H') {
      const header = words[++i];
      headers[header.slice(0, header.indexOf(':')).trim()] = header.slice(header.indexOf(':') + 1).trim();
    } else if (word === '-d' || word === '--data') body = words[++i];
    else if (word === '--data-urlencode') {
      const pair = words[++i];
      const eq = pair.indexOf('=');
      params.push(`${pair.slice(0, eq)}=${encodeURIComponent(pair.slice(eq + 1))}`);
    } else if (word.startsWith(EXAMPLE_BASE)) url = word.slice(EXAMPLE_BASE.length);
    else throw new Error(`${command}: the test does not read curl's ${word}`);
  }
  expect(url, `${command}: a URL on ${EXAMPLE_BASE}`).not.toBe('');
  if (get) return { command, method: 'GET', path: params.length ? `${url}?${params.join('&')}` : url, headers };
  return { command, method: method || (body !== undefined ? 'POST' : 'GET'), path: url, headers, body };
}

interface Example {
  section: string;
  calls: CurlCall[];
  /** 200, or the status a `# HTTP <status>` line in the block announces (an example of an error) */
  status: number;
  /** the shown answer of the last call, when the block after the commands is one */
  answer?: string;
}

function examples(doc: string): Example[] {
  return sections(doc).flatMap((section) => {
    const found: Example[] = [];
    const block = /```sh\n([\s\S]*?)```(\s*```json\n([\s\S]*?)```)?/g;
    for (const match of section.text.matchAll(block)) {
      const lines = match[1].replace(/\\\n\s*/g, ' ').split('\n').map((line) => line.trim());
      const commands = lines.filter((line) => line.startsWith('curl '));
      const status = Number(/^# HTTP (\d{3})$/m.exec(match[1])?.[1] ?? 200);
      if (commands.length) found.push({ section: section.heading, calls: commands.map(parseCurl), status, answer: match[3] });
    }
    return found;
  });
}

/** Where a shown answer differs from the real one: members absent or of another value, arrays not a prefix. */
function mismatches(shown: unknown, real: unknown, at = '$'): string[] {
  if (Array.isArray(shown)) {
    if (!Array.isArray(real)) return [`${at}: the answer has no array here`];
    if (shown.length > real.length) return [`${at}: shows ${shown.length} items, the answer has ${real.length}`];
    return shown.flatMap((item, i) => mismatches(item, real[i], `${at}[${i}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (real === null || typeof real !== 'object' || Array.isArray(real)) return [`${at}: the answer has no object here`];
    return Object.entries(shown).flatMap(([key, value]) =>
      key in real ? mismatches(value, (real as Record<string, unknown>)[key], `${at}.${key}`) : [`${at}.${key}: not in the answer`]);
  }
  return Object.is(shown, real) ? [] : [`${at}: shows ${JSON.stringify(shown)}, the answer has ${JSON.stringify(real)}`];
}

const ENDPOINTS = endpoints(DOC);
const sectionOf = (method: string, path: string) => ENDPOINTS.find((e) => e.method === method && e.paths.includes(path));
const routeSection = (route: RouteDefinition) => ENDPOINTS.find((e) => e.method === route.method && e.paths[0] === routePaths(route)[0]);

let api: TestServer;
let openapi: { paths: Record<string, Record<string, unknown>> };
beforeAll(async () => {
  api = await startTestServer({ config: { license: { PublicKey: EXAMPLE_PUBLIC_KEY }, auth: { OperatorKey: EXAMPLE_OPERATOR_KEY } } });
  openapi = (await api.get('/api/v1/openapi.json')).body;
});
afterAll(() => api?.close());

describe('docs/API.md', () => {
  it('has a section for every route, listing every path the route is served at', () => {
    for (const route of ROUTES) {
      const paths = routePaths(route);
      const section = routeSection(route);
      expect(section, `no section "### \`${route.method} ${paths[0]}\`" in docs/API.md`).toBeDefined();
      expect([...section!.paths].sort(), `Paths: of ${route.method} ${paths[0]}`).toEqual([...paths].sort());
    }
  });

  it('documents every method and path the app routes, the page and the OpenAPI document included', () => {
    const router = (api.app.middleware as { router?: { stack: { methods: string[]; path: string }[] } }[]).find((mw) => mw.router)?.router;
    expect(router, 'the app registers a router').toBeDefined();
    const served = router!.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${docPath(layer.path)}`));
    expect(served.length).toBeGreaterThan(ROUTES.length);
    for (const entry of served) {
      const [method, path] = entry.split(' ');
      expect(sectionOf(method, path), `${entry} is served but not documented`).toBeDefined();
    }
  });

  it('documents only what is served: each path is in the OpenAPI document or answers 200', async () => {
    const documented = ENDPOINTS.flatMap((e) => e.paths.map((path) => `${e.method} ${path}`));
    expect(documented.length).toBeGreaterThan(0);
    for (const entry of documented) {
      const [method, path] = entry.split(' ');
      if (openapi.paths[path]?.[method.toLowerCase()]) continue;
      expect(Object.keys(NON_OPENAPI), `${entry} is documented but neither in the OpenAPI document nor in NON_OPENAPI here`).toContain(entry);
    }
    for (const [entry, path] of Object.entries(NON_OPENAPI)) {
      expect(documented, `${entry} is listed as served outside the OpenAPI document but not documented`).toContain(entry);
      const reply = await api.request(entry.split(' ')[0], path);
      expect(reply.status, `${entry} (${path})`).toBe(200);
    }
  });

  it("names every request field of a route in its section, with the field's limits, default and values", () => {
    for (const route of ROUTES.filter((r) => r.request)) {
      const section = routeSection(route)!;
      expect(section, `${route.method} ${routePaths(route)[0]}`).toBeDefined();
      for (const field of requestFields(route.request!.schema)) {
        const context = fieldContext(section.text, field.name);
        expect(context, `${section.heading}: request field \`${field.name}\` is not named`).toBeDefined();
        for (const said of limitsOf(field.schema)) expect(context, `${section.heading}: \`${field.name}\` must say ${said}`).toContain(said);
      }
    }
  });

  it('names every member of every response schema', () => {
    const named = new Set([...DOC.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`]+)`/g)].flatMap((m) => m[1].match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []));
    const fields = new Set(RESPONSE_SCHEMAS.flatMap(responseFields));
    expect(fields.size).toBeGreaterThan(50);
    for (const field of fields) expect(named.has(field), `response member \`${field}\` is not named`).toBe(true);
  });

  it('lists every gRPC code with its HTTP status, and the status every error class answers', () => {
    const errorsSection = sections(DOC).find((s) => s.heading === 'Errors');
    expect(errorsSection).toBeDefined();
    const rows = [...errorsSection!.text.matchAll(/^\| (\d+) \| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => ({ code: Number(m[1]), name: m[2], status: Number(m[3]) }));
    const nameOf = new Map(Object.entries(GrpcCode).map(([name, code]) => [code as number, name]));
    for (const row of rows) expect(nameOf.get(row.code), `row ${row.code} ${row.name}`).toBe(row.name);
    const has = (code: number, status: number) => rows.some((row) => row.code === code && row.status === status);
    for (const code of Object.values(GrpcCode)) expect(has(code, httpStatusOf(code)), `code ${code} → ${httpStatusOf(code)}`).toBe(true);
    type ErrorClass = new (...args: unknown[]) => AppError;
    const classes = (Object.values(errors) as unknown[]).filter((value): value is ErrorClass =>
      typeof value === 'function' && value.prototype instanceof AppError);
    expect(classes.length).toBeGreaterThan(5);
    for (const ErrorClass of classes) {
      const error = new ErrorClass('GET', ['GET']);
      expect(has(error.code, error.status), `${ErrorClass.name}: code ${error.code} → ${error.status}`).toBe(true);
    }
  });

  it("gives every route a curl example, and each example's body is JSON and answers 200 (or the status it announces) with what it shows", async () => {
    expect(DOC).toContain(EXAMPLE_PUBLIC_KEY);
    const all = examples(DOC);
    for (const route of ROUTES) {
      const heading = routeSection(route)!.heading;
      expect(all.some((example) => example.section === heading), `${heading} has no curl example`).toBe(true);
    }
    for (const example of all) {
      for (const [index, call] of example.calls.entries()) {
        if (call.body !== undefined) expect(() => JSON.parse(call.body!), `${call.command}: body is not JSON`).not.toThrow();
        const reply = await api.request(call.method, call.path, { raw: call.body, headers: call.headers });
        expect(reply.status, `${call.command}: ${reply.text.slice(0, 300)}`).toBe(example.status);
        if (example.answer !== undefined && index === example.calls.length - 1) {
          const shown: unknown = JSON.parse(example.answer);
          expect(mismatches(shown, reply.body), call.command).toEqual([]);
        }
      }
    }
  });
});
