/**
 * The Koa application: `createApp({engine, config, logger})` builds it and never listens (`server.ts`
 * does). Chain: access log → errors → 404/405 guard → query-string limit → engine pinning → router
 * (per route: auth → license → JSON body → handler).
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
import { jsonBody, queryStringLimit } from './middleware/json-body.js';
import { openApiDocument } from './openapi.js';
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

/** Unmatched path → 404 code 5; matched path, other method → 405 code 12 (the router leaves a bare status). */
async function routeGuard(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 405 || ctx.status === 501) {
    ctx.state.allow = (ctx.response.get('Allow') || '').split(/,\s*/).filter(Boolean);
    throw new MethodNotAllowedError(ctx.method, ctx.state.allow as string[]);
  }
  if (ctx.status === 404) throw new NotFoundError(`метод ${ctx.method} ${ctx.path} не найден; список методов: /api/v1/openapi.json.`);
}

function licenseCheck(services: AppServices) {
  return async function checkLicense(_ctx: Context, next: Next): Promise<void> {
    services.license.assertAllows();
    await next();
  };
}

function handler(route: RouteDefinition, services: AppServices) {
  return async function handle(ctx: Context): Promise<void> {
    await route.handle(ctx, services);
    if (typeof ctx.body === 'object') ctx.type = JSON_TYPE;
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
    const chain = [authMiddleware(deps.config, route.auth)];
    if (route.licensed) chain.push(licenseCheck(services));
    if (route.method !== 'GET') chain.push(jsonBody);
    for (const path of routePaths(route)) {
      router.register(path, [route.method], [...chain, handler(route, services)], { name: path });
    }
  }
  const openapi = openApiDocument();
  for (const path of ['/api/v1/openapi.json', '/v1/openapi.json']) {
    router.get(path, (ctx) => {
      ctx.type = JSON_TYPE;
      ctx.body = openapi;
    });
  }
  webRoutes(router, { dictionariesDir: deps.config.dictionaries.Dir });

  app.use(accessLog(logger));
  app.use(errorMiddleware(logger));
  app.use(routeGuard);
  app.use(queryStringLimit);
  app.use(async (ctx, next) => {
    // pin the engine: a SIGHUP swap never changes it under a request in flight
    ctx.state.engine = services.engine;
    await next();
  });
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
