/**
 * One pino line per request: method, path, status, duration, and the error message of a failure; and the request
 * counted in the metrics (`GET /metrics`) when they are on.
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { ServiceMetrics } from '../metrics.js';
import { ROUTES, routePaths } from '../routes/index.js';

/** The paths counted under their own name; any other path is counted as its router pattern, or `other`. */
const ROUTE_LABELS = new Set([...ROUTES.flatMap((route) => routePaths(route)), '/api/v1/openapi.json', '/v1/openapi.json']);

/** The metrics' route label of a request: bounded, whatever paths clients send. */
function routeLabel(ctx: Context): string {
  if (ROUTE_LABELS.has(ctx.path)) return ctx.path;
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : 'other';
}

/** Milliseconds since `start` (a `performance.now()`), to 0.01 ms. */
export function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}

/** The line of one request; the fast path (`fast-path.ts`) writes its requests' lines here too. */
export function logRequest(logger: Logger, method: string, url: string, status: number, ms: number, error?: { code?: number; message?: string }): void {
  // two literal shapes, not a conditional spread: this runs for every request
  const line = error ? { method, url, status, ms, code: error.code, message: error.message } : { method, url, status, ms };
  writeLine(logger, status, line);
}

/** A request line at its level: a 5xx is a warning. */
function writeLine(logger: Logger, status: number, line: object): void {
  if (status >= 500) logger.warn(line, 'request');
  else logger.info(line, 'request');
}

/**
 * The line writer of one method and path (the fast path's routes): the same line as `logRequest`, with the method and
 * path serialized once, as a child logger's bindings, instead of on every line.
 */
export function requestLogger(logger: Logger, method: string, url: string): (status: number, ms: number) => void {
  const child = logger.child({ method, url });
  return (status, ms) => writeLine(child, status, { status, ms });
}

export function accessLog(logger: Logger) {
  return async function logRequestOf(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } finally {
      const ms = elapsedMs(start);
      logRequest(logger, ctx.method, ctx.path, ctx.status, ms, ctx.state.error as { code?: number; message?: string } | undefined);
      const metrics = (ctx.app as { services?: { metrics?: ServiceMetrics } }).services?.metrics;
      if (metrics) {
        const engineMs = typeof ctx.state.engineMs === 'number' ? ctx.state.engineMs : -1;
        metrics.route(ctx.method, routeLabel(ctx)).observe(ctx.status, ms, engineMs, ctx.request.length ?? 0, ctx.response.length ?? 0);
      }
    }
  };
}
