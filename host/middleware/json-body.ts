/**
 * Reads a JSON request body of at most 1 MB; an empty body is `{}`. A body that is too large, not JSON or
 * not an object, and a query string over 1000 characters: 400 code 3.
 * The body is read with 'data'/'end' listeners, not `for await`: the async iterator of a request costs
 * more than the rest of reading a small body (it also destroys the request when done).
 */
import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import { InvalidArgumentError } from '../errors.js';

export const BODY_LIMIT = 1024 * 1024;
export const QUERY_STRING_LIMIT = 1000;

class BodyTooLarge extends InvalidArgumentError {
  constructor() {
    super('тело запроса: размер больше 1 МБ.');
  }
}

/** The whole body as bytes, or BodyTooLarge once it passes BODY_LIMIT. */
function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let first: Buffer | null = null;
    let chunks: Buffer[] | null = null;
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      if (first === null) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    req.on('end', () => resolve(chunks ? Buffer.concat(chunks, size) : (first ?? EMPTY)));
    req.on('error', reject);
  });
}

const EMPTY = Buffer.alloc(0);
const BOM = 0xfeff;

/** The parsed JSON object of a POST/PUT/PATCH body (`{}` for other methods and for a blank body). */
export async function readJsonBody(ctx: Context): Promise<object> {
  if (ctx.method !== 'POST' && ctx.method !== 'PUT' && ctx.method !== 'PATCH') return {};
  const declared = Number(ctx.get('content-length'));
  let bytes: Buffer;
  try {
    if (Number.isFinite(declared) && declared > BODY_LIMIT) throw new BodyTooLarge();
    bytes = await readBytes(ctx.req);
  } catch (err) {
    if (err instanceof BodyTooLarge) ctx.set('Connection', 'close');
    throw err;
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new InvalidArgumentError(`тело запроса: некорректный JSON (${(err as Error).message}).`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidArgumentError('тело запроса: ожидается объект JSON.');
  }
  return body;
}

/** Throws 400 code 3 for a query string over QUERY_STRING_LIMIT characters. */
export function checkQueryString(ctx: Context): void {
  if (ctx.querystring.length > QUERY_STRING_LIMIT) {
    throw new InvalidArgumentError(`строка запроса: длина больше ${QUERY_STRING_LIMIT} символов.`);
  }
}

/** Middleware form of `readJsonBody`: sets `ctx.request.body`. */
export async function jsonBody(ctx: Context, next: Next): Promise<void> {
  ctx.request.body = await readJsonBody(ctx);
  await next();
}

declare module 'koa' {
  interface Request {
    /** the parsed JSON body of POST/PUT, set by `jsonBody` */
    body?: unknown;
  }
}
