/**
 * The Koa application: `createApp({engine, config, logger})` builds it and never listens (`server.ts`
 * does). Chain: access log → CORS (preflights answered there) → errors → request guard (404/405, query-string limit, engine pinning) →
 * the service's routes by exact path and method → router (the same routes for HEAD, OPTIONS and 405,
 * the OpenAPI document, the page). A route is one step: auth when it is on → license → JSON body →
 * handler → JSON bytes; not a middleware per step, as each Koa layer is a promise and a closure per
 * request, and these run for every request. The service's POST routes are served before Koa by the fast
 * path (`fast-path.ts`, `requestHandler(app)`), which hands this app every request it does not answer 200.
 */
import './tick-shape.js';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import type { Engine } from '../engine/types.js';
import { MethodNotAllowedError, NotFoundError } from './errors.js';
import { LicenseManager } from './license.js';
import { accessLog } from './middleware/access-log.js';
import { authCheck } from './middleware/auth.js';
import { cors } from './middleware/cors.js';
import { errorMiddleware, JSON_TYPE } from './middleware/errors.js';
import { checkQueryString, readJsonBody } from './middleware/json-body.js';
import { openApiDocument } from './openapi.js';
import { toJsonBytes } from '../engine/records/json.js';
import { ROUTES, routePaths } from './routes/index.js';
import { webRoutes } from './routes/web.js';
import { widgetRoute } from './routes/widget.js';
import type { AppServices, RouteDefinition, RouteRequest } from './routes/route.js';

export interface AppDeps {
  engine: Engine;
  config: Config;
  logger?: Logger;
  /** defaults to one built from `config.license` */
  license?: LicenseManager;
}

export type AddressApp = Koa & { services: AppServices };

/**
 * Before the router: a query string over the limit → 400; the engine pinned for the request (a SIGHUP
 * swap never changes it under a request in flight). After it: unmatched path → 404 code 5; matched
 * path, other method → 405 code 12 (the router leaves a bare status).
 */
function requestGuard(services: AppServices) {
  return async function guard(ctx: Context, next: Next): Promise<void> {
    checkQueryString(ctx);
    ctx.state.engine = services.engine;
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 405 || ctx.status === 501) {
      ctx.state.allow = (ctx.response.get('Allow') || '').split(/,\s*/).filter(Boolean);
      throw new MethodNotAllowedError(ctx.method, ctx.state.allow as string[]);
    }
    if (ctx.status === 404) throw new NotFoundError(`метод ${ctx.method} ${ctx.path} не найден; список методов: /api/v1/openapi.json.`);
  };
}

/**
 * The body as JSON bytes with its type set first: Koa then sends the Buffer with its length as it is
 * (no type lookup, no second pass to count the bytes; one write with the headers).
 */
export function sendJson(ctx: Context, body: unknown): void {
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = toJsonBytes(body);
}

type Endpoint = (ctx: Context) => Promise<void>;

/** A route as one step: credentials, license, JSON body (POST/PUT), the handler, its answer as JSON. */
function endpoint(route: RouteDefinition, services: AppServices): Endpoint {
  const authenticate = authCheck(services.config, route.auth);
  const licensed = route.licensed;
  const readsBody = route.method !== 'GET';
  const arrays = route.arrayBody === true;
  return async function serve(ctx: Context): Promise<void> {
    authenticate?.(ctx.get('authorization'), ctx.query, ctx.headers['x-secret']);
    if (licensed) services.license.assertAllows();
    const request: RouteRequest = { body: readsBody ? await readJsonBody(ctx, arrays) : {}, query: ctx.query, engine: ctx.state.engine as Engine };
    const begun = performance.now();
    let body = route.handle(request, services);
    if (body instanceof Promise) body = await body;
    sendJson(ctx, body);
    // the handler's time, for the metrics (access-log.ts)
    ctx.state.engineMs = performance.now() - begun;
  };
}

/**
 * The service's routes by exact path and method, before the router: one Map lookup instead of testing
 * every route's pattern and composing a chain per request. What it does not hold goes on to the router.
 */
function exactRoutes(table: Map<string, Map<string, Endpoint>>) {
  return function routeExact(ctx: Context, next: Next): Promise<void> {
    const serve = table.get(ctx.path)?.get(ctx.method);
    return serve ? serve(ctx) : next();
  };
}

export function createApp(deps: AppDeps): AddressApp {
  const logger = deps.logger ?? pino({ level: deps.config.log.Level });
  const license = deps.license ?? new LicenseManager({
    key: deps.config.license.Key,
    publicKey: deps.config.license.PublicKey,
    prolongationServer: deps.config.license.ProlongationServer,
    renewBeforeDays: deps.config.license.RenewBeforeDays,
    stateFile: deps.config.license.StateFile,
    logger,
  });
  const services: AppServices = { engine: deps.engine, config: deps.config, license, logger };
  const app = new Koa() as AddressApp;
  app.services = services;
  app.proxy = true;
  app.silent = true;
  app.on('error', (err: unknown) => logger.error({ err }, 'unhandled error outside a request'));

  const router = new Router();
  const table = new Map<string, Map<string, Endpoint>>();
  for (const route of ROUTES) {
    const serve = endpoint(route, services);
    for (const path of routePaths(route)) {
      router.register(path, [route.method], [serve], { name: path });
      if (!table.has(path)) table.set(path, new Map());
      table.get(path)!.set(route.method, serve);
    }
  }
  const openapi = Buffer.from(JSON.stringify(openApiDocument()));
  for (const path of ['/api/v1/openapi.json', '/v1/openapi.json']) {
    router.get(path, (ctx) => {
      ctx.set('Content-Type', JSON_TYPE);
      ctx.body = openapi;
    });
  }
  webRoutes(router, { dictionariesDir: deps.config.dictionaries.Dir });
  widgetRoute(router);

  app.use(accessLog(logger));
  app.use(cors(deps.config));
  app.use(errorMiddleware(logger));
  app.use(requestGuard(services));
  app.use(exactRoutes(table));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Installs a freshly loaded engine for the requests that start from now on. */
export function swapEngine(app: AddressApp, engine: Engine): Engine {
  const previous = app.services.engine;
  app.services.engine = engine;
  return previous;
}
