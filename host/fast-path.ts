/**
 * The request handler the server listens with: `requestHandler(app)`. The service's POST routes (clean,
 * suggest, geosearch, idsearch … under /api/v1 and /v1), asked for at their exact path with no query
 * string, are served here on node's own request and response: credentials, license, body, the route's
 * handler, its answer as JSON bytes, the access log line. Koa's context, request and response objects
 * and its middleware promises cost about as much as the rest of a hint request together, and these
 * routes are nearly all the traffic. The requests read in one turn of the event loop are answered together at its
 * end, one after another, and their answers written together.
 *
 * Only a 200 is answered here. Whatever fails (credentials, license, a body too large or not JSON,
 * validation, an unknown country, a thrown error) goes to the Koa app with the body already read
 * (`handOverBody`), which runs the route again and answers through the one error middleware: the same
 * status, headers and envelope as a request that never came this way. Every other method and path goes
 * to Koa at once. The two paths send the same bytes (test/api/fast-path.test.ts). A CORS preflight, on any path, is
 * answered here too (`middleware/cors.ts`), and the 200s carry the same origin headers as Koa's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressApp } from './app.js';
import { elapsedMs, logRequest, requestLogger } from './middleware/access-log.js';
import { authCheck, type Authenticate } from './middleware/auth.js';
import { answerPreflight, corsPolicy, isPreflight, originHeaders } from './middleware/cors.js';
import { JSON_TYPE } from './middleware/errors.js';
import { declaredTooLarge, handOverBody, parseJsonBody, readBody } from './middleware/json-body.js';
import { toJsonBytes } from '../engine/records/json.js';
import { ROUTES, routePaths } from './routes/index.js';
import type { AppServices, RouteDefinition, RouteRequest } from './routes/route.js';
import type { RouteStats } from './metrics.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A request whose body is read, waiting for the end of the event loop's turn to be answered. */
interface Waiting {
  req: IncomingMessage;
  res: ServerResponse;
  fast: FastRoute;
  request: RouteRequest;
  bytes: Buffer;
  start: number;
}

/** An answer waiting for the end of the event loop's turn to be written. */
interface Ready {
  res: ServerResponse;
  bytes: Buffer;
  /** the CORS origin headers of the request's origin */
  origin: string[];
  fast: FastRoute;
  start: number;
  /** the request body's bytes and the handler's ms, for the metrics */
  bytesIn: number;
  engineMs: number;
}

interface FastRoute {
  route: RouteDefinition;
  path: string;
  authenticate: Authenticate | null;
  /** its access log line */
  log: (status: number, ms: number) => void;
  /** its counters (`GET /metrics`), null when metrics are off */
  stats: RouteStats | null;
}

/** The query of a path without a query string. */
const NO_QUERY: RouteRequest['query'] = Object.freeze({});

/** The POST routes by exact path (`/api/v1/clean/address`, `/v1/clean/address`, …). */
function fastRoutes(services: AppServices): Map<string, FastRoute> {
  const table = new Map<string, FastRoute>();
  for (const route of ROUTES) {
    if (route.method !== 'POST') continue;
    const authenticate = authCheck(services.config, route.auth);
    for (const path of routePaths(route)) {
      table.set(path, { route, path, authenticate, log: requestLogger(services.logger, 'POST', path), stats: services.metrics?.route('POST', path) ?? null });
    }
  }
  return table;
}

/** True when credentials and license let the request through; a refusal is left for Koa to answer. */
function admitted(fast: FastRoute, req: IncomingMessage, services: AppServices): boolean {
  try {
    fast.authenticate?.(req.headers.authorization, NO_QUERY, req.headers['x-secret']);
    if (fast.route.licensed) services.license.assertAllows();
    return true;
  } catch {
    return false;
  }
}

export function requestHandler(app: AddressApp): RequestHandler {
  const koa = app.callback();
  const services = app.services;
  const { logger } = services;
  const table = fastRoutes(services);
  const cors = corsPolicy(services.config);
  /** the answer's headers before its type and length: `*` (the default) is the same list for every request */
  const anyOrigin = cors.varies ? null : originHeaders(cors, undefined);
  const counted = services.metrics !== undefined;

  /** The handler's answer as JSON bytes, or null when anything threw (Koa then answers). */
  function answer(fast: FastRoute, request: RouteRequest, bytes: Buffer): Buffer | null | Promise<Buffer | null> {
    try {
      request.body = parseJsonBody(bytes, fast.route.arrayBody);
      const body = fast.route.handle(request, services);
      if (body instanceof Promise) return body.then((resolved: unknown) => toJsonBytes(resolved)).catch(() => null);
      return toJsonBytes(body);
    } catch {
      return null;
    }
  }

  /**
   * The requests whose bodies this turn of the event loop read, answered together when the turn's I/O callbacks are
   * done (`setImmediate`), one after another, and the answers then written together. Back to back, the engine's code
   * and the dictionary's parts a query reads are still in the core's cache for the next query; between two requests'
   * HTTP work they were not (docs/DESIGN.md, "Request path"). Written together, a client waiting on several
   * connections reads them in one wake-up, where an answer written the moment it is ready woke it once each.
   */
  const waiting: Waiting[] = [];
  /** The answers to write at the end of this turn: the waiting requests', and those of handlers that answered later. */
  const ready: Ready[] = [];
  let turnEndSet = false;

  function atTurnEnd(): void {
    if (turnEndSet) return;
    turnEndSet = true;
    setImmediate(endTurn);
  }

  function endTurn(): void {
    try {
      // the handlers' times, for the metrics only: answered back to back, one clock read a request (the end of one
      // answer is the start of the next)
      let clock = counted ? performance.now() : 0;
      for (const { req, res, fast, request, bytes, start } of waiting) {
        const begun = clock;
        const answered = answer(fast, request, bytes);
        if (answered instanceof Promise) void answered.then((out) => send(req, res, fast, out, bytes, start, counted ? performance.now() - begun : 0));
        else {
          if (counted) clock = performance.now();
          send(req, res, fast, answered, bytes, start, clock - begun);
        }
      }
      for (const { res, bytes, origin, fast, start, bytesIn, engineMs } of ready) {
        try {
          // WriteTimeout may have answered 504 already (server.ts): the line says so
          if (!res.writableEnded) {
            // the raw header list goes to node's header writer as it is: no header object to build and check
            res.writeHead(200, [...origin, 'Content-Type', JSON_TYPE, 'Content-Length', String(bytes.length)]);
            res.end(bytes);
          }
          const ms = elapsedMs(start);
          fast.log(res.statusCode, ms);
          fast.stats?.observe(res.statusCode, ms, engineMs, bytesIn, bytes.length);
        } catch (err) {
          // nothing here throws on a live response; should one, its connection goes, never the process or the batch
          logger.warn({ err, url: fast.path }, 'answer not written');
          res.destroy();
        }
      }
    } finally {
      waiting.length = 0;
      ready.length = 0;
      // only now: an answer sent while the lists were gone through goes with them; a promise's answer (a microtask
      // after this callback) sets the next turn's end
      turnEndSet = false;
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, fast: FastRoute, answered: Buffer | null, bytesIn: Buffer, start: number, engineMs: number): void {
    if (answered === null) {
      handOverBody(req, bytesIn);
      void koa(req, res);
      return;
    }
    ready.push({ res, bytes: answered, origin: anyOrigin ?? originHeaders(cors, req.headers.origin), fast, start, bytesIn: bytesIn.length, engineMs });
    atTurnEnd();
  }

  return function handleRequest(req: IncomingMessage, res: ServerResponse): void {
    if (isPreflight(req.method, req.headers)) {
      const start = performance.now();
      answerPreflight(cors, req, res);
      logRequest(logger, 'OPTIONS', req.url ?? '', 204, elapsedMs(start));
      return;
    }
    const fast = req.method === 'POST' ? table.get(req.url ?? '') : undefined;
    if (fast === undefined || !admitted(fast, req, services) || declaredTooLarge(req.headers['content-length'])) {
      void koa(req, res);
      return;
    }
    const start = performance.now();
    // pinned now, as Koa pins it: a SIGHUP swap never changes the engine under a request in flight
    const request: RouteRequest = { body: undefined, query: NO_QUERY, engine: services.engine };
    readBody(req, (err, bytes) => {
      if (err) {
        handOverBody(req, err);
        void koa(req, res);
        return;
      }
      waiting.push({ req, res, fast, request, bytes, start });
      atTurnEnd();
    });
  };
}
