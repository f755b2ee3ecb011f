/**
 * The page with offline hints (web/): `/` and `/index.html`, the service worker at `/sw.js` (its scope
 * is the whole site), and `/web/<file>` (app.js, core.wasm, <country>.dict, …) from build/web. The first
 * request builds build/web (web/build.ts: esbuild, web dictionaries) when it is missing or older than
 * its sources; later requests serve the files as they are. Open to all, like the OpenAPI document: the
 * page holds no data the dictionaries' owner has not chosen to publish with the service.
 * Files are sent with `Cache-Control: no-cache` and the build id as ETag; a `.gz` twin is sent to clients
 * that accept gzip.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { NotFoundError, UnavailableError } from '../errors.js';
import { ROOT } from '../engine/index.js';

const WEB_DIR = join(ROOT, 'build', 'web');
const FILE = /^[a-z0-9][a-z0-9._-]*$/i;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.dict': 'application/octet-stream',
};

export interface WebRoutesOptions {
  /** the server blobs the web dictionaries are made from (config dictionaries.Dir) */
  dictionariesDir?: string;
  /** where the page is built and served from (default build/web) */
  outDir?: string;
}

/** Builds build/web once per process when it is stale; a failed build is retried by the next request. */
function webBuilder(options: WebRoutesOptions): () => Promise<string> {
  let pending: Promise<string> | null = null;
  const outDir = options.outDir ?? WEB_DIR;
  return () => {
    pending ??= (async () => {
      const web = await import('../../web/build.js');
      const buildOptions = { dictionariesDir: options.dictionariesDir, outDir };
      if (web.webBuildIsStale(buildOptions)) await web.buildWeb(buildOptions);
      return (JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as { buildId: string }).buildId;
    })().catch((err: unknown) => {
      pending = null;
      throw new UnavailableError(`страница подсказок не собрана: ${err instanceof Error ? err.message : err}; соберите её командой npm run web:build`);
    });
    return pending;
  };
}

async function send(ctx: Context, dir: string, name: string, buildId: string): Promise<void> {
  const file = join(dir, name);
  if (!FILE.test(name) || !existsSync(file)) throw new NotFoundError(`файла ${ctx.path} нет`);
  const etag = `"${buildId}-${name}"`;
  ctx.set('Cache-Control', 'no-cache');
  ctx.vary('Accept-Encoding');
  ctx.etag = etag;
  ctx.type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const gzip = `${file}.gz`;
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip' && existsSync(gzip)) {
    ctx.set('Content-Encoding', 'gzip');
    ctx.length = (await stat(gzip)).size;
    ctx.body = await readFile(gzip);
    return;
  }
  ctx.body = await readFile(file);
}

/** Registers GET `/`, `/index.html`, `/sw.js` and `/web/:file` on the app's router. */
export function webRoutes(router: Router, options: WebRoutesOptions = {}): void {
  const outDir = resolve(options.outDir ?? WEB_DIR);
  const ready = webBuilder({ ...options, outDir });
  const page = async (ctx: Context) => send(ctx, outDir, 'index.html', await ready());
  router.get('/', page);
  router.get('/index.html', page);
  router.get('/sw.js', async (ctx) => {
    await send(ctx, outDir, 'sw.js', await ready());
    ctx.set('Service-Worker-Allowed', '/');
  });
  router.get('/web/:file', async (ctx) => send(ctx, outDir, basename(ctx.params.file), await ready()));
}
