import { createServer } from 'node:http';
import Koa from 'koa';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError, GrpcCode, httpStatusOf, MethodNotAllowedError } from '../../../../host/errors.js';
import { errorMiddleware } from '../../../../host/middleware/errors.js';

async function answer(thrown: unknown): Promise<{ status: number; type: string | null; body: unknown; logged: number }> {
  let logged = 0;
  const logger = pino({ level: 'error' }, { write: () => { logged++; } });
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware(logger));
  app.use(() => {
    throw thrown;
  });
  const server = createServer(app.callback());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const response = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  const result = { status: response.status, type: response.headers.get('content-type'), body: await response.json(), logged };
  server.close();
  return result;
}

describe('errorMiddleware(logger)', () => {
  it('answers an unexpected error with 500 code 13, a generic message, and logs it once', async () => {
    const reply = await answer(new TypeError('x is undefined'));
    expect(reply.status).toBe(500);
    expect(reply.type).toBe('application/json; charset=utf-8');
    expect(reply.body).toEqual({ code: 13, message: 'внутренняя ошибка сервиса', details: [] });
    expect(reply.logged).toBe(1);
  });

  it('writes an AppError as its envelope without logging a client mistake', async () => {
    const reply = await answer(new AppError(GrpcCode.RESOURCE_EXHAUSTED, 'слишком много запросов', [{ retryAfter: 1 }]));
    expect(reply.status).toBe(429);
    expect(reply.body).toEqual({ code: 8, message: 'слишком много запросов', details: [{ retryAfter: 1 }] });
    expect(reply.logged).toBe(0);
  });

  it('answers a thrown non-error value with 500 code 13', async () => {
    expect((await answer('boom')).body).toEqual({ code: 13, message: 'внутренняя ошибка сервиса', details: [] });
  });

  it('turns an http-errors 413 from a library into 400 code 3', async () => {
    const error = Object.assign(new Error('request entity too large'), { status: 413 });
    const reply = await answer(error);
    expect(reply.status).toBe(400);
    expect((reply.body as { code: number }).code).toBe(3);
  });
});

describe('httpStatusOf(code)', () => {
  it('follows the canonical gRPC mapping of conventions.md', () => {
    expect([3, 5, 7, 8, 9, 13, 14, 16].map(httpStatusOf)).toEqual([400, 404, 403, 429, 400, 500, 503, 401]);
    expect(new MethodNotAllowedError('GET', ['POST']).status).toBe(405);
  });
});
