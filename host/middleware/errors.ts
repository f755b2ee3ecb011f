/**
 * The one error middleware, first in the chain under the access log: whatever a route or a middleware
 * throws becomes `{code, message, details}` with the HTTP status of the gRPC code (conventions.md).
 * Anything that is not an AppError is a bug: 500 code 13 with a generic message, logged once with its stack.
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { AppError, GrpcCode, InternalError, InvalidArgumentError } from '../errors.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface ErrorEnvelope {
  code: number;
  message: string;
  details: unknown[];
}

/** Errors thrown by Koa, its body parsers or node itself that describe a bad request, not a bug. */
function fromHttpError(err: unknown): AppError | null {
  const status = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (status === 404) return new AppError(GrpcCode.NOT_FOUND, 'ресурс не найден');
  if (status === 401) return new AppError(GrpcCode.UNAUTHENTICATED, 'Ключ API обязателен');
  if (status === 403) return new AppError(GrpcCode.PERMISSION_DENIED, 'доступ запрещён');
  return new InvalidArgumentError(`некорректный запрос: ${(err as Error).message || status}`);
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return fromHttpError(err) ?? new InternalError();
}

export function envelope(error: AppError): ErrorEnvelope {
  return { code: error.code || GrpcCode.UNKNOWN, message: error.message || 'ошибка', details: error.details ?? [] };
}

export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      const error = toAppError(err);
      ctx.state.error = error;
      if (error.status >= 500) logger.error({ err, method: ctx.method, url: ctx.url }, 'request failed');
      if (error.status === 405) ctx.set('Allow', (ctx.state.allow as string[] | undefined)?.join(', ') ?? '');
      ctx.status = error.status;
      ctx.type = JSON_TYPE;
      ctx.body = envelope(error);
    }
  };
}
