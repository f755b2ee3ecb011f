/**
 * Cross-origin access for pages on other sites (config `cors.AllowedOrigins`, `CORS_ORIGINS` env; default `*`).
 * Every answer carries `Access-Control-Allow-Origin`: `*`, or the request's `Origin` when it is one of the allowed
 * origins (with `Vary: Origin`, as the answer then differs by origin). A preflight (OPTIONS with `Origin` and
 * `Access-Control-Request-Method`) is answered 204 here, on any path, before the routes, the body and the engine:
 * the browser asks it before every POST with a JSON body or an `Authorization` header, so it costs no more than
 * the headers. The fast path (`fast-path.ts`) answers preflights and adds the origin header with the same policy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Next } from 'koa';
import type { Config } from '../config.js';

/** Request headers a page may send: DaData's clients send `Authorization: Token …`, `X-Secret`, `X-Version`, `X-Partner`. */
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, X-Secret, X-Version, X-Partner, X-Requested-With';
export const CORS_ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';
/** How long a browser may keep a preflight's answer (seconds; Chromium caps it at 7200). */
export const CORS_MAX_AGE = '86400';

export interface CorsPolicy {
  /** the `Access-Control-Allow-Origin` value for a request from `origin`, or null when that origin is not allowed */
  allowOrigin(origin: string | undefined): string | null;
  /** true when the answer differs by origin (an allow-list, not `*`) */
  varies: boolean;
}

/** `*` anywhere in the list allows every origin; otherwise the exact origins (scheme, host, port), compared without a trailing `/`. */
export function corsPolicy(config: Pick<Config, 'cors'>): CorsPolicy {
  const origins = config.cors.AllowedOrigins.map((origin) => origin.trim().replace(/\/+$/, '')).filter(Boolean);
  if (origins.includes('*')) return { allowOrigin: () => '*', varies: false };
  const allowed = new Set(origins.map((origin) => origin.toLowerCase()));
  return {
    allowOrigin: (origin) => (origin !== undefined && allowed.has(origin.toLowerCase()) ? origin : null),
    varies: true,
  };
}

/** True for a CORS preflight: OPTIONS naming the method the page means to send. */
export function isPreflight(method: string | undefined, headers: IncomingMessage['headers']): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/** The headers of a preflight's 204 (none granting access when the origin is not allowed: the browser then refuses). */
export function preflightHeaders(policy: CorsPolicy, origin: string | undefined): [string, string][] {
  const headers: [string, string][] = [];
  const allow = policy.allowOrigin(origin);
  if (allow !== null) {
    headers.push(
      ['Access-Control-Allow-Origin', allow],
      ['Access-Control-Allow-Methods', CORS_ALLOWED_METHODS],
      ['Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS],
      ['Access-Control-Max-Age', CORS_MAX_AGE],
    );
  }
  if (policy.varies) headers.push(['Vary', 'Origin']);
  return headers;
}

/** Answers a preflight on node's own response (the fast path). */
export function answerPreflight(policy: CorsPolicy, req: IncomingMessage, res: ServerResponse): void {
  const headers = preflightHeaders(policy, req.headers.origin);
  res.writeHead(204, [...headers.flat(), 'Content-Length', '0']);
  res.end();
}

/** The origin headers of an ordinary answer, as a flat list for `writeHead` (the fast path's 200s). */
export function originHeaders(policy: CorsPolicy, origin: string | undefined): string[] {
  const allow = policy.allowOrigin(origin);
  const headers: string[] = [];
  if (allow !== null) headers.push('Access-Control-Allow-Origin', allow);
  if (policy.varies) headers.push('Vary', 'Origin');
  return headers;
}

/** Koa: preflights answered 204 at once; every other answer (errors too) gets the origin headers before the routes run. */
export function cors(config: Pick<Config, 'cors'>) {
  const policy = corsPolicy(config);
  return function corsHeaders(ctx: Context, next: Next): Promise<void> | void {
    const origin = ctx.get('origin') || undefined;
    if (isPreflight(ctx.method, ctx.headers)) {
      for (const [name, value] of preflightHeaders(policy, origin)) ctx.set(name, value);
      ctx.status = 204;
      return;
    }
    const allow = policy.allowOrigin(origin);
    if (allow !== null) ctx.set('Access-Control-Allow-Origin', allow);
    if (policy.varies) ctx.vary('Origin');
    return next();
  };
}
