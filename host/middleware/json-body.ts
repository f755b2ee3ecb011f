/**
 * Reads a JSON request body of at most 1 MB into `ctx.request.body`; an empty body is `{}`. A body that is
 * too large, not JSON or not an object, and a query string over 1000 characters: 400 code 3.
 */
import type { Context, Next } from 'koa';
import { InvalidArgumentError } from '../errors.js';

export const BODY_LIMIT = 1024 * 1024;
export const QUERY_STRING_LIMIT = 1000;

class BodyTooLarge extends InvalidArgumentError {
  constructor() {
    super('тело запроса: размер больше 1 МБ.');
  }
}

async function readBody(ctx: Context): Promise<string> {
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > BODY_LIMIT) {
    ctx.set('Connection', 'close');
    throw new BodyTooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) {
      ctx.set('Connection', 'close');
      throw new BodyTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function queryStringLimit(ctx: Context, next: Next): Promise<void> {
  if (ctx.querystring.length > QUERY_STRING_LIMIT) {
    throw new InvalidArgumentError(`строка запроса: длина больше ${QUERY_STRING_LIMIT} символов.`);
  }
  await next();
}

export async function jsonBody(ctx: Context, next: Next): Promise<void> {
  if (ctx.method === 'POST' || ctx.method === 'PUT' || ctx.method === 'PATCH') {
    const text = (await readBody(ctx)).replace(/^\uFEFF/, '');
    let body: unknown = {};
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch (err) {
        throw new InvalidArgumentError(`тело запроса: некорректный JSON (${(err as Error).message}).`);
      }
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new InvalidArgumentError('тело запроса: ожидается объект JSON.');
    }
    ctx.request.body = body;
  }
  await next();
}

declare module 'koa' {
  interface Request {
    /** the parsed JSON body of POST/PUT, set by `jsonBody` */
    body?: unknown;
  }
}
