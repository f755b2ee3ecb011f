/** One pino line per request: method, path, status, duration, and the error message of a failure. */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

export function accessLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const error = ctx.state.error as { code?: number; message?: string } | undefined;
      const line = {
        method: ctx.method,
        url: ctx.path,
        status: ctx.status,
        ms: Math.round(ms * 100) / 100,
        ...(error ? { code: error.code, message: error.message } : {}),
      };
      if (ctx.status >= 500) logger.warn(line, 'request');
      else logger.info(line, 'request');
    }
  };
}
