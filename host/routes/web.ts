/**
 * The page with offline hints (web/): `/` and `/index.html`, the service worker at `/sw.js` (its scope
 * is the whole site), and `/web/<file>` (app.js, core.wasm, <country>.dict, engine.mjs and widget.mjs for the widget,
 * …) from build/web. The first
 * request builds build/web (web/build.ts: esbuild, web dictionaries) when it is missing or older than
 * its sources; later requests serve the files as they are. Open to all, like the OpenAPI document: the
 * page holds no data the dictionaries' owner has not chosen to publish with the service.
 * Files are sent with `Cache-Control: no-cache` and the build id as ETag; a `.gz` twin is sent to clients
 * that accept gzip. Only the files the build lists in its manifest are served (no source map unless the page
 * was built with one: `npm run web:build -- --sourcemap`), each with the page's security headers
 * (`securityHeaders`).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { NotFoundError, UnavailableError } from '../errors.js';
import { ROOT } from '../../engine/index.js';
import { codesFiles, packFile, type PacksManifest } from '../../engine/packs.js';

const WEB_DIR = join(ROOT, 'build', 'web');
const FILE = /^[a-z0-9][a-z0-9._-]*$/i;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
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

/** What a request needs of the built page: its build id, the files it lists, its security headers. */
interface BuiltPage {
  buildId: string;
  files: Set<string>;
  headers: Record<string, string>;
  /** the files of a country's place packs and house codes packs (its manifest, read once); null for a country the build has not */
  packFiles: (country: string) => Promise<Set<string>> | null;
}

/** The pack files a country's pack manifest lists (`places/<id>.dict`, `codes/<id>-<n>.dict`; none without packs). */
async function listedPacks(outDir: string, country: string): Promise<Set<string>> {
  const file = join(outDir, country, 'manifest.json');
  if (!existsSync(file)) return new Set();
  const manifest = JSON.parse(await readFile(file, 'utf8')) as PacksManifest;
  return new Set(manifest.packs.flatMap((pack) => [packFile(pack.id), ...codesFiles(pack)]));
}

/**
 * The page's security headers. The policy allows what the page does and no more: its own scripts and WebAssembly
 * (`wasm-unsafe-eval`: the in-browser engine compiles core.wasm), its inline stylesheets by hash (the hints widget's
 * among them, so the widget injects none), requests to its own origin (the API, its dictionaries), its service
 * worker; it is never framed, and sends no referrer.
 */
export function securityHeaders(html: string): Record<string, string> {
  const styles = [...html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`,
  );
  const policy = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    `style-src 'self' ${styles.join(' ')}`.trim(),
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return {
    'Content-Security-Policy': policy.join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/** Builds build/web once per process when it is stale; a failed build is retried by the next request. */
function webBuilder(options: WebRoutesOptions): () => Promise<BuiltPage> {
  let pending: Promise<BuiltPage> | null = null;
  const outDir = options.outDir ?? WEB_DIR;
  return () => {
    pending ??= (async () => {
      const web = await import('../../web/build.js');
      const buildOptions = { dictionariesDir: options.dictionariesDir, outDir };
      if (web.webBuildIsStale(buildOptions)) await web.buildWeb(buildOptions);
      const manifest = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as { buildId: string; files: Record<string, unknown>; countries: { country: string }[] };
      const headers = securityHeaders(await readFile(join(outDir, 'index.html'), 'utf8'));
      const lists = new Map<string, Promise<Set<string>>>();
      const countries = new Set((manifest.countries ?? []).map((c) => c.country));
      const packFiles = (country: string) => {
        if (!countries.has(country)) return null;
        let known = lists.get(country);
        if (!known) lists.set(country, (known = listedPacks(outDir, country)));
        return known;
      };
      return { buildId: manifest.buildId, files: new Set(Object.keys(manifest.files)), headers, packFiles };
    })().catch((err: unknown) => {
      pending = null;
      throw new UnavailableError(`страница подсказок не собрана: ${err instanceof Error ? err.message : err}; соберите её командой npm run web:build`);
    });
    return pending;
  };
}

/** Sends `file` (its .gz twin to a client that accepts gzip), tagged with the build id and `tag`. */
async function sendFile(ctx: Context, file: string, tag: string, page: BuiltPage): Promise<void> {
  ctx.set(page.headers);
  if (!existsSync(file)) throw new NotFoundError(`файла ${ctx.path} нет`);
  ctx.set('Cache-Control', 'no-cache');
  ctx.vary('Accept-Encoding');
  ctx.etag = `"${page.buildId}-${tag}"`;
  ctx.type = TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream';
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

async function send(ctx: Context, dir: string, name: string, page: BuiltPage): Promise<void> {
  if (!FILE.test(name) || !page.files.has(name)) {
    ctx.set(page.headers);
    throw new NotFoundError(`файла ${ctx.path} нет`);
  }
  await sendFile(ctx, join(dir, name), name, page);
}

/**
 * A file of a country's offline packs (`file`): `manifest.json`, `entry.dict`, or, when `isPack`, a place's pack or
 * house codes pack (`places/<id>.dict`, `codes/<id>-<n>.dict`). The country must be one the build lists and a pack
 * file one its manifest lists, so no other path is reachable.
 */
async function sendPack(ctx: Context, dir: string, country: string, file: string, isPack: boolean, page: BuiltPage): Promise<void> {
  const files = page.packFiles(country);
  const listed = files !== null && (!isPack || (await files).has(file));
  if (!listed) {
    ctx.set(page.headers);
    throw new NotFoundError(`файла ${ctx.path} нет`);
  }
  await sendFile(ctx, join(dir, country, file), `${country}/${file}`, page);
}

/** Registers GET `/`, `/index.html`, `/sw.js`, `/web/:file` and the packs' `/web/:country/…` on the app's router. */
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
  router.get('/web/:country/manifest.json', async (ctx) => sendPack(ctx, outDir, ctx.params.country, 'manifest.json', false, await ready()));
  router.get('/web/:country/entry.dict', async (ctx) => sendPack(ctx, outDir, ctx.params.country, 'entry.dict', false, await ready()));
  for (const folder of ['places', 'codes']) {
    router.get(`/web/:country/${folder}/:file`, async (ctx) => sendPack(ctx, outDir, ctx.params.country, `${folder}/${ctx.params.file}`, true, await ready()));
  }
}
