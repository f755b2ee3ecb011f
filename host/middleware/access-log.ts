/** One pino line per request: method, path, status, duration, and the error message of a failure. */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

export function accessLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const start = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - start) * 100) / 100;
      const status = ctx.status;
      const error = ctx.state.error as { code?: number; message?: string } | undefined;
      // two literal shapes, not a conditional spread: this runs for every request
      const line = error
        ? { method: ctx.method, url: ctx.path, status, ms, code: error.code, message: error.message }
        : { method: ctx.method, url: ctx.path, status, ms };
      if (status >= 500) logger.warn(line, 'request');
      else logger.info(line, 'request');
    }
  };
}
