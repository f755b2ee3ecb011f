/**
 * Reads a JSON request body of at most 1 MB; an empty body is `{}`. A body that is too large, not JSON or
 * not an object, and a query string over 8192 characters: 400 code 3.
 * The body is read with 'data'/'end' listeners, not `for await`: the async iterator of a request costs
 * more than the rest of reading a small body (it also destroys the request when done).
 * The fast path (`fast-path.ts`) reads the body before the app sees the request; when it hands a request
 * over to the app, it hands over what it read (`handOverBody`), and `readJsonBody` takes that instead of
 * reading the request again.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import { ClientClosedRequestError, InvalidArgumentError, type AppError } from '../errors.js';

export const BODY_LIMIT = 1024 * 1024;
/**
 * The raw query string's limit: a field of 1000 characters (QUERY_MAX_LENGTH, which the schemas check once it is
 * decoded) takes up to 6 a character percent-encoded in UTF-8 (`%D0%B0`), and the other parameters come besides.
 */
export const QUERY_STRING_LIMIT = 8192;

export class BodyTooLarge extends InvalidArgumentError {
  constructor() {
    super('тело запроса: размер больше 1 МБ.');
  }
}

/**
 * Requests the server answered itself while their body was still coming (server.ts: 408 at ReadTimeout, 400 for a
 * body node cannot parse), with that answer's error: their connection closes next.
 */
const answeredEarly = new WeakMap<IncomingMessage, AppError>();

/** Records that `req` was answered with `error` before its body was in: reading the body ends in that error. */
export function markAnswered(req: IncomingMessage, error: AppError): void {
  answeredEarly.set(req, error);
}

/**
 * Ends the wait of a `readBody` on `req`'s body after the server answered without it: once that answer is written,
 * node closes the connection without a word to the request. Told through the request's 'error', which `readBody`
 * listens to.
 */
export function interruptBodyRead(req: IncomingMessage): void {
  if (!req.complete && req.listenerCount('error') > 0) req.emit('error', whyCut(req, null));
}

/**
 * Why the body of `req` stopped coming: the server's own answer (`markAnswered`), or the client gone (node's
 * `aborted`, ECONNRESET), which is no fault of the service; any other error as it is.
 */
function whyCut(req: IncomingMessage, err: NodeJS.ErrnoException | null): Error {
  const answered = answeredEarly.get(req);
  if (answered) return answered;
  if (err === null || err.code === 'ECONNRESET' || err.message === 'aborted') return new ClientClosedRequestError();
  return err;
}

/**
 * Reads the whole body and calls `done` once: with its bytes, or with BodyTooLarge once it passes
 * BODY_LIMIT (the rest is drained unread), or with ClientClosedRequestError when the client closed the
 * connection before the body was in (the error of the server's own answer when the server answered first, as at
 * ReadTimeout), or with another error of the request. A callback, not a promise:
 * the fast path reads every hot request's body through it.
 */
export function readBody(req: IncomingMessage, done: (err: Error | null, bytes: Buffer) => void): void {
  if (req.destroyed && !req.complete) {
    // gone before anyone listened: its 'error' will not come again
    done(whyCut(req, null), EMPTY);
    return;
  }
  let first: Buffer | null = null;
  let chunks: Buffer[] | null = null;
  let size = 0;
  let finished = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > BODY_LIMIT) {
      req.removeAllListeners('data');
      req.resume();
      finished = true;
      done(new BodyTooLarge(), EMPTY);
      return;
    }
    if (first === null) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (finished) return;
    finished = true;
    done(null, chunks ? Buffer.concat(chunks, size) : (first ?? EMPTY));
  });
  req.on('error', (err: NodeJS.ErrnoException) => {
    if (finished) return;
    finished = true;
    req.removeAllListeners('data');
    done(whyCut(req, err), EMPTY);
  });
}

/** The whole body as bytes, or BodyTooLarge once it passes BODY_LIMIT. */
function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => readBody(req, (err, bytes) => (err ? reject(err) : resolve(bytes))));
}

const EMPTY = Buffer.alloc(0);
const BOM = 0xfeff;

/** Bodies read before the app was called, by request: the bytes, or why reading stopped (BodyTooLarge, an abort). */
const handedOver = new WeakMap<IncomingMessage, Buffer | Error>();

/** Gives the app what was already read of `req`'s body, so that `readJsonBody` does not wait for more. */
export function handOverBody(req: IncomingMessage, read: Buffer | Error): void {
  handedOver.set(req, read);
}

/** A Content-Length header over BODY_LIMIT: refused before a byte is read. */
export function declaredTooLarge(header: string | undefined): boolean {
  const declared = Number(header);
  return Number.isFinite(declared) && declared > BODY_LIMIT;
}

/** The bytes handed over for `req`, or else the whole body read now. */
function bodyBytes(req: IncomingMessage): Promise<Buffer> {
  const read = handedOver.get(req);
  if (read === undefined) return readBytes(req);
  return read instanceof Error ? Promise.reject(read) : Promise.resolve(read);
}

/** The parsed JSON object (or array, when `arrays`) of a POST/PUT/PATCH body (`{}` for other methods and for a blank body). */
export async function readJsonBody(ctx: Context, arrays = false): Promise<object> {
  if (ctx.method !== 'POST' && ctx.method !== 'PUT' && ctx.method !== 'PATCH') return {};
  let bytes: Buffer;
  try {
    if (declaredTooLarge(ctx.get('content-length'))) throw new BodyTooLarge();
    bytes = await bodyBytes(ctx.req);
  } catch (err) {
    if (err instanceof BodyTooLarge) ctx.set('Connection', 'close');
    throw err;
  }
  return parseJsonBody(bytes, arrays);
}

/** The JSON object in `bytes` (UTF-8, a BOM allowed; blank → `{}`), or an array when `arrays`; else 400 code 3. */
export function parseJsonBody(bytes: Buffer, arrays = false): object {
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new InvalidArgumentError(`тело запроса: некорректный JSON (${(err as Error).message}).`);
  }
  if (body === null || typeof body !== 'object' || (Array.isArray(body) && !arrays)) {
    throw new InvalidArgumentError(arrays ? 'тело запроса: ожидается объект или массив JSON.' : 'тело запроса: ожидается объект JSON.');
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
