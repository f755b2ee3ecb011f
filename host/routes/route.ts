/**
 * What a route module exports: the handler and what the app and the OpenAPI document need to know about
 * it (method, path, base, auth policy, license check, request and response schemas).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Engine } from '../../engine/types.js';
import type { LicenseManager } from '../license.js';
import type { ServiceMetrics } from '../metrics.js';
import type { RequestSchema } from '../schemas/validator.js';

export interface AppServices {
  /** the engine new requests use; SIGHUP swaps it, requests in flight keep the one they started with */
  engine: Engine;
  config: Config;
  license: LicenseManager;
  logger: Logger;
  /** the request counters (`GET /metrics`), absent when metrics are off */
  metrics?: ServiceMetrics;
}

/**
 * `api`: under /api/v1 and /v1. `legacy`: under /legacy. `dadata`: under /suggestions/api/4_1/rs (DaData's path).
 * `open`: no credentials; `key`: API key when auth is on; `key-or-login`: API key or legacy login/pwd;
 * `operator`: the operator key (`auth.OperatorKey`), whether auth is on or not.
 */
export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT';
  base: 'api' | 'legacy' | 'dadata';
  path: string;
  /** more paths serving the same handler (`searchAddressDetailVariant` for `searchAddressDetailDHL`) */
  aliases?: string[];
  operationId: string;
  summary: string;
  auth: 'open' | 'key' | 'key-or-login' | 'operator';
  /** a data method: refused with 403 code 7 when the license is invalid or expired */
  licensed: boolean;
  /** body of POST/PUT, query string of GET */
  request?: RequestSchema<unknown>;
  /** JSON schema of the 200 response */
  response: Record<string, unknown>;
  /** the body may also be a JSON array (clean/address: DaData's cleaner body) */
  arrayBody?: boolean;
  /** error statuses the route answers besides 400 and 500, for the OpenAPI document */
  errorStatuses?: number[];
  /** returns the body of the 200 answer, which the app sends as JSON; a failure throws an AppError */
  handle(request: RouteRequest, services: AppServices): unknown;
}

/**
 * What a handler reads of a request: no Koa context, so the same handler serves the Koa chain and the
 * fast path of the hot POST routes (`fast-path.ts`).
 */
export interface RouteRequest {
  /** the parsed JSON body of POST/PUT (`{}` when blank), `{}` for GET */
  body: unknown;
  /** the query string, parsed (GET routes read their parameters here) */
  query: Readonly<Record<string, string | string[] | undefined>>;
  /** the engine this request started with (a SIGHUP swap never changes it under a request in flight) */
  engine: Engine;
}
