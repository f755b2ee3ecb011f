/**
 * The Koa application: `createApp({engine, config, logger})` builds it and never listens (`server.ts`
 * does). Chain: access log → errors → request guard (404/405, query-string limit, engine pinning) →
 * router (per route: auth when it is on → the endpoint: license → JSON body → handler → JSON bytes).
 * The per-route part is one function, not a middleware per step: each Koa layer is a promise and a
 * closure per request, and these run for every request.
 */
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import type { Engine } from './engine/types.js';
import { MethodNotAllowedError, NotFoundError } from './errors.js';
import { LicenseManager } from './license.js';
import { accessLog } from './middleware/access-log.js';
import { authMiddleware } from './middleware/auth.js';
import { errorMiddleware, JSON_TYPE } from './middleware/errors.js';
import { checkQueryString, readJsonBody } from './middleware/json-body.js';
import { openApiDocument } from './openapi.js';
import { toJsonBytes } from './records/json.js';
import { ROUTES, routePaths } from './routes/index.js';
import { webRoutes } from './routes/web.js';
import type { AppServices, RouteDefinition } from './routes/route.js';

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

/** The last step of every route: license, JSON body (POST/PUT), the handler, its answer as JSON. */
function endpoint(route: RouteDefinition, services: AppServices) {
  const licensed = route.licensed;
  const readsBody = route.method !== 'GET';
  return async function serve(ctx: Context): Promise<void> {
    if (licensed) services.license.assertAllows();
    if (readsBody) ctx.request.body = await readJsonBody(ctx);
    let body = route.handle(ctx, services);
    if (body instanceof Promise) body = await body;
    sendJson(ctx, body);
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
  for (const route of ROUTES) {
    const chain = deps.config.auth.Enabled && route.auth !== 'open' ? [authMiddleware(deps.config, route.auth)] : [];
    chain.push(endpoint(route, services));
    for (const path of routePaths(route)) router.register(path, [route.method], [...chain], { name: path });
  }
  const openapi = Buffer.from(JSON.stringify(openApiDocument()));
  for (const path of ['/api/v1/openapi.json', '/v1/openapi.json']) {
    router.get(path, (ctx) => {
      ctx.set('Content-Type', JSON_TYPE);
      ctx.body = openapi;
    });
  }
  webRoutes(router, { dictionariesDir: deps.config.dictionaries.Dir });

  app.use(accessLog(logger));
  app.use(errorMiddleware(logger));
  app.use(requestGuard(services));
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
