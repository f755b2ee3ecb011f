/**
 * The page's routes (host/routes/web.ts) over HTTP, built into a folder of their own: the security headers on
 * every file of the page, and no source map served, even one an earlier build left in the folder; the offline packs
 * of a country at /web/<country>/…, and nothing else of their folders.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from '../../host/routes/web.js';
import { webBuildIsStale } from '../../web/build.js';
import { DICTIONARIES_DIR } from '../helpers/api.js';
import { CODES_CHUNK, codesFiles, type PacksManifest } from '../../engine/packs.js';

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

describe('GET /web/:country/manifest.json, entry.dict, places/:id.dict, codes/:id.dict', () => {
  it('sends a country\'s pack manifest, its entry pack and each place pack and house codes pack it lists, as built', async () => {
    const reply = await fetch(`${url}/web/ru/manifest.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'self'");
    const manifest = (await reply.json()) as PacksManifest;
    expect(manifest.country).toBe('ru');
    const entry = await fetch(`${url}/web/ru/entry.dict`);
    expect(entry.status).toBe(200);
    expect(Buffer.from(await entry.arrayBuffer()).equals(readFileSync(join(outDir, 'ru', 'entry.dict')))).toBe(true);
    const ekb = manifest.packs.find((p) => p.fullName === 'Свердловская обл, г Екатеринбург')!;
    expect(ekb.file).toBe(`places/${ekb.id}.dict`);
    const pack = await fetch(`${url}/web/ru/${ekb.file}`);
    expect(pack.status).toBe(200);
    expect(pack.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = Buffer.from(await pack.arrayBuffer());
    expect(bytes.length).toBe(ekb.bytes);
    // the gzip twin to a client that asks for it, as the manifest counts it
    const raw = await new Promise<Buffer>((done, fail) => {
      import('node:http').then(({ get }) => get(`${url}/web/ru/${ekb.file}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(Buffer.concat(chunks)));
      }).on('error', fail));
    });
    expect(raw.length).toBe(ekb.gzipBytes);
    expect(gunzipSync(raw).equals(bytes)).toBe(true);
    // its houses' codes in house codes packs of CODES_CHUNK houses
    expect(ekb.codes!.chunks).toBe(Math.ceil(ekb.houses / CODES_CHUNK));
    let codesBytes = 0;
    for (const file of codesFiles(ekb)) {
      const codes = await fetch(`${url}/web/ru/${file}`);
      expect(codes.status).toBe(200);
      codesBytes += (await codes.arrayBuffer()).byteLength;
    }
    expect(codesBytes).toBe(ekb.codes!.bytes);
  });

  it('sends nothing else: another country, a pack the manifest does not list, other files, paths out of the folder', async () => {
    const manifest = JSON.parse(readFileSync(join(outDir, 'ru', 'manifest.json'), 'utf8')) as PacksManifest;
    const code = manifest.packs.find((p) => /[a-z]/.test(p.id))?.id ?? manifest.packs[0].id;
    const unlisted = manifest.packs.length.toString(36);
    // a file left in the packs' folder is not served
    mkdirSync(join(outDir, 'ru', 'places'), { recursive: true });
    writeFileSync(join(outDir, 'ru', 'places', 'notes.dict'), 'left here');
    writeFileSync(join(outDir, 'ru', 'notes.txt'), 'left here');
    for (const path of [
      '/web/xx/manifest.json', '/web/ru/places/notes.dict', '/web/ru/notes.txt', '/web/ru/places/notes.txt',
      `/web/ru/places/${code}.dict.gz`, `/web/ru/places/${code}`, '/web/ru/places/..%2Fentry.dict', '/web/ru/places/%2E%2E%2F..%2Fmanifest.json',
      '/web/..%2Fru/entry.dict', '/web/ru/places/.dict', `/web/ru/places/${code.toUpperCase()}.dict`,
      `/web/ru/places/${unlisted}.dict`, `/web/ru/codes/${unlisted}.dict`, `/web/ru/places/0${code}.dict`, '/web/ru/codes/..%2Fentry.dict',
      `/web/ru/codes/${manifest.packs[0].code}.dict`, `/web/ru/places/${manifest.packs[0].code}.dict`, '/web/ru/other/0.dict',
      `/web/ru/codes/${code}.dict`, `/web/ru/codes/${unlisted}-0.dict`, `/web/ru/codes/${code}-${(manifest.packs.find((p) => p.id === code)!.codes?.chunks ?? 0)}.dict`,
      `/web/ru/codes/${code}-00.dict`, `/web/ru/places/${code}-0.dict`,
    ]) {
      const reply = await fetch(`${url}${path}`);
      expect(reply.status, path).toBe(404);
    }
  });

  it('counts a build whose packs are missing as stale, so the host builds it again', async () => {
    expect((await fetch(`${url}/web/ru/manifest.json`)).status).toBe(200);
    const options = { dictionariesDir: DICTIONARIES_DIR, outDir };
    expect(webBuildIsStale(options)).toBe(false);
    rmSync(join(outDir, 'ru', 'manifest.json'));
    expect(webBuildIsStale(options)).toBe(true);
  });
});
