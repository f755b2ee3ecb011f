/**
 * GET `/widget.js`: the embeddable hints widget (web/widget-script.ts), compiled by esbuild for the browser on the first
 * request (web/widget-bundle.ts) and kept in memory; sent with `Cache-Control: no-cache` and an ETag of its bytes, gzip to clients that
 * take it. Open to all, like the page: pages of other sites load it with a `<script>` tag, and it then calls the
 * service from their origin (CORS, middleware/cors.ts).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type Router from '@koa/router';
import { bundleWidget } from '../../web/widget-bundle.js';
import { UnavailableError } from '../errors.js';

interface Compiled {
  bytes: Buffer;
  gzip: Buffer;
  etag: string;
}

/** Compiles the widget once per process; a failed compile is retried by the next request. */
function compiler(): () => Promise<Compiled> {
  let pending: Promise<Compiled> | null = null;
  return () => {
    pending ??= bundleWidget('script').then((contents) => {
      const bytes = Buffer.from(contents);
      return { bytes, gzip: gzipSync(bytes), etag: `"widget-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"` };
    }).catch((err: unknown) => {
      pending = null;
      throw new UnavailableError(`виджет подсказок не собран: ${err instanceof Error ? err.message : err}`);
    });
    return pending;
  };
}

/** Registers GET `/widget.js` on the app's router. */
export function widgetRoute(router: Router): void {
  const compiled = compiler();
  router.get('/widget.js', async (ctx) => {
    const widget = await compiled();
    ctx.set('Cache-Control', 'no-cache');
    ctx.vary('Accept-Encoding');
    ctx.etag = widget.etag;
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = widget.gzip;
      return;
    }
    ctx.body = widget.bytes;
  });
}
