/**
 * The page's routes (host/routes/web.ts) over HTTP, built into a folder of their own: the security headers on
 * every file of the page, and no source map served, even one an earlier build left in the folder.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from '../../host/routes/web.js';
import { DICTIONARIES_DIR } from '../helpers/api.js';

const outDir = mkdtempSync(join(tmpdir(), 'web-routes-'));
let server: Server;
let url = '';

beforeAll(async () => {
  const app = new Koa();
  const router = new Router();
  webRoutes(router, { dictionariesDir: DICTIONARIES_DIR, outDir });
  app.use(router.routes());
  server = createServer(app.callback());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(outDir, { recursive: true, force: true });
});

describe('GET / and /web/:file', () => {
  it('sends every file of the page with its security headers', async () => {
    for (const path of ['/', '/index.html', '/sw.js', '/web/app.js', '/web/core.wasm', '/web/ru.dict']) {
      const reply = await fetch(`${url}${path}`);
      expect(reply.status, path).toBe(200);
      const policy = reply.headers.get('content-security-policy') ?? '';
      expect(policy, path).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(policy, path).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]{43}='/);
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(reply.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(reply.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(reply.headers.get('x-frame-options'), path).toBe('DENY');
    }
  }, 120_000);

  it('allows each inline stylesheet of the page by its hash, the hints widget\'s among them', async () => {
    const reply = await fetch(`${url}/`);
    const html = await reply.text();
    const styles = [...html.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)];
    expect(styles.map((match) => match[1].trim())).toContain('id="address-hints-style"');
    const policy = reply.headers.get('content-security-policy') ?? '';
    const allowed = /style-src ([^;]*)/.exec(policy)![1].split(' ');
    for (const [, , text] of styles) expect(allowed).toContain(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
  });

  it('serves no source map, not even one left in the folder, nor a file the build does not list', async () => {
    expect((await fetch(`${url}/web/app.js.map`)).status).toBe(404);
    writeFileSync(join(outDir, 'app.js.map'), '{"sources":["app.ts"],"sourcesContent":["secret"]}');
    writeFileSync(join(outDir, 'notes.txt'), 'left here');
    expect((await fetch(`${url}/web/app.js.map`)).status).toBe(404);
    expect((await fetch(`${url}/web/notes.txt`)).status).toBe(404);
    const app = await (await fetch(`${url}/web/app.js`)).text();
    expect(app).not.toContain('sourceMappingURL');
  });
});
