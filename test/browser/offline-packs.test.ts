/**
 * Offline packs in the page at `/`, in a real Chromium (/usr/bin/chromium, or CHROMIUM, driven by playwright-core)
 * against the real server in-process: the page loads the country's entry pack at once and no place pack; with the
 * network cut (every request recorded and aborted, the browser offline, as test/browser/offline.test.ts cuts it), a
 * hint in Екатеринбург shows the city and says its streets load when online; back online, the city's pack is
 * fetched when the typed words settle on it; cut again and reloaded from the service worker, the street and the
 * house are hinted from the cached pack. `?preload=` (the widget's `data-address-hints-preload`) with a region's
 * code loads every place pack of the region at once, so its streets are there offline without being typed before.
 * The page never reads the manifest: the entry pack names each place's pack. A house taken offline before its
 * place's house codes pack was fetched says its codes are not loaded; online, taking it fetches that pack and shows
 * the house's codes. A new build of the page (another build id, the same packs) finds the packs cached under the
 * old one: its service worker carries them over when its entry pack is the one cached.
 *
 * Chromium missing is a failure, not a skip: run scripts/ensure-chromium.sh (apt-get install chromium).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import Router from '@koa/router';
import Koa from 'koa';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressRecord, PacksManifest } from '../../web/engine.js';
import type { PackEvent } from '../../web/app.js';
import { ARTIFACTS, launchChromium } from '../helpers/other-origin.js';
import { cut, restore, tellOffline } from '../helpers/network-cut.js';
import { startServer, type RunningTestServer } from '../helpers/browser-server.js';
import { webRoutes } from '../../host/routes/web.js';

let server: RunningTestServer;
let browser: Browser;
let manifest: PacksManifest;
let city: PacksManifest['packs'][number];

const CITY = 'Свердловская обл, г Екатеринбург';
const STREET = `${CITY}, ул Вокзальная`;
const HOUSE = `${STREET}, дом 14`;

beforeAll(async () => {
  server = await startServer();
  browser = await launchChromium();
  // the first request for the page builds build/web when stale: here, not inside a test's wait
  const reply = await fetch(`${server.url}/web/ru/manifest.json`);
  expect(reply.status).toBe(200);
  manifest = (await reply.json()) as PacksManifest;
  city = manifest.packs.find((pack) => pack.fullName === CITY)!;
  expect(city, 'the manifest lists a pack of Екатеринбург').toBeDefined();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const options = (page: Page): Promise<string[]> => page.locator('[role="listbox"] [role="option"]').allTextContents();
const note = (page: Page) => page.locator('.ah-note');
const packs = (page: Page): Promise<PackEvent[]> => page.evaluate(() => window.addressHints.packs);

/** What the server received since `from`, but the browser's own update check of the service worker (offline.test.ts). */
const receivedSince = (from: number): string[] => server.requests.slice(from).filter((line) => line !== 'GET /sw.js');

async function typeFresh(page: Page, text: string): Promise<void> {
  const input = page.locator('input#address');
  await input.fill('');
  await input.click();
  await input.pressSequentially(text, { delay: 40 });
}

/** Presses ArrowDown until `text` is the active option, then Enter. */
async function take(page: Page, text: string): Promise<void> {
  await expect.poll(() => options(page), { timeout: 10_000 }).toContain(text);
  const index = (await options(page)).indexOf(text);
  for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
  await expect.poll(() => page.locator('[role="option"][aria-selected="true"]').textContent()).toBe(text);
  await page.keyboard.press('Enter');
}

describe('page at / with offline packs', () => {
  it('starts on the entry pack; offline, a place without its pack says its streets load when online; then street and house from the cached pack', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 820 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      const loaded: string[] = [];
      page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => document.documentElement.dataset.offline !== undefined, null, { timeout: 60_000 });
      expect(await page.evaluate(() => ({ offline: document.documentElement.dataset.offline, error: window.addressHints.error }))).toEqual({ offline: 'ready', error: '' });
      // the entry pack at once, no place pack, not the whole dictionary, not the manifest
      expect(loaded).toContain('/web/ru/entry.dict');
      expect(loaded.filter((path) => path.includes('/places/') || path.includes('/codes/') || path === '/web/ru.dict' || path.endsWith('manifest.json'))).toEqual([]);

      const leaked: string[] = [];
      await cut(context, leaked);
      const before = server.requests.length;
      await typeFresh(page, 'екатеринбург вокз');
      await expect.poll(() => options(page), { timeout: 10_000 }).toContain(CITY);
      expect(await options(page)).not.toContain(STREET);
      await expect.poll(() => note(page).isVisible()).toBe(true);
      expect(await note(page).getAttribute('data-state')).toBe('offline');
      expect(await note(page).getAttribute('data-pack')).toBe(city.id);
      expect(await note(page).textContent()).toBe(`Улицы и дома (${CITY}) загрузятся, когда будет сеть`);
      // the live region says it too
      expect(await page.locator('.ah-status').textContent()).toContain('загрузятся, когда будет сеть');
      await page.screenshot({ path: join(ARTIFACTS, 'offline-packs-not-cached.png') });
      expect(leaked, 'requests sent with the network cut').toEqual([]);
      expect(receivedSince(before)).toEqual([]);

      // online again: the typed words settle on the city, its pack is fetched, the street is hinted
      await restore(context);
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      const online = server.requests.length;
      await typeFresh(page, 'екатеринбург вокз');
      await expect.poll(() => options(page), { timeout: 15_000 }).toContain(STREET);
      expect(await note(page).isHidden()).toBe(true);
      expect(server.requests.slice(online)).toContain(`GET /web/ru/places/${city.id}.dict`);
      expect((await packs(page)).filter((pack) => pack.code === city.id).map((pack) => pack.state)).toEqual(['loading', 'ready']);

      // cut again, reloaded from the service worker: the pack comes from the cache, the street and the house offline
      leaked.length = 0;
      await cut(context, leaked);
      const offline = server.requests.length;
      expect(await page.reload().then(() => '', (err: Error) => err.message)).toBe('');
      await page.waitForFunction(() => window.addressHints?.ready === true, null, { timeout: 15_000 });
      await tellOffline(context);
      await typeFresh(page, 'екатеринбург вокз');
      await take(page, STREET);
      await page.locator('input#address').pressSequentially('14', { delay: 40 });
      await take(page, HOUSE);
      await expect.poll(() => page.locator('input#address').inputValue()).toBe(HOUSE);
      expect(await page.locator('#details dd[data-field="house"]').textContent()).toBe('14');
      // the house's codes are in its place's house codes pack, not fetched yet: the record says so, with no code made up
      const input = page.locator('input#address');
      expect(await input.getAttribute('data-house-codes')).toBe('missing');
      expect(await page.locator('.ah-status').textContent()).toBe('Коды дома (ФИАС, ГАР) не загружены: нет сети');
      expect(await page.locator('#details dd[data-field="codes"]').textContent()).toBe('коды дома не загружены (нет сети)');
      await page.screenshot({ path: join(ARTIFACTS, 'offline-packs-house.png') });
      // no pack was fetched after the reload: the cached one was added
      expect(await packs(page)).toEqual([]);
      expect(leaked, 'requests sent with the network cut').toEqual([]);
      expect(receivedSince(offline)).toEqual([]);

      // the network down while the browser says it is online: the house codes pack is asked for, the request fails,
      // and the record says its codes are not loaded, the house's own fields filled all the same
      await context.setOffline(false);
      leaked.length = 0;
      await typeFresh(page, 'екатеринбург вокз');
      await take(page, STREET);
      await input.pressSequentially('14', { delay: 40 });
      await take(page, HOUSE);
      await expect.poll(() => input.getAttribute('data-house-codes'), { timeout: 15_000 }).toBe('missing');
      await expect.poll(() => page.locator('#details dd[data-field="house"]').textContent()).toBe('14');
      await expect.poll(() => page.locator('#details dd[data-field="codes"]').textContent()).toBe('коды дома не загружены (нет сети)');
      expect(leaked.filter((line) => line.includes(`/web/ru/codes/${city.id}-`))).toHaveLength(1);
      expect(receivedSince(offline)).toEqual([]);

      // online, the house taken again: its place's house codes pack is fetched and the record shows the API's codes
      await restore(context);
      const api = (await (await fetch(`${server.url}/api/v1/suggest/address`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: HOUSE, count: 1 }),
      })).json() as { suggestions: AddressRecord[] }).suggestions[0];
      expect(api.addressFull).toBe(HOUSE);
      const fias = api.houseDetails.codes!.fias || api.houseDetails.codes!.osm;
      expect(fias).toBeTruthy();
      const codesAt = server.requests.length;
      await typeFresh(page, 'екатеринбург вокз');
      await take(page, STREET);
      await input.pressSequentially('14', { delay: 40 });
      await take(page, HOUSE);
      await expect.poll(() => page.locator('#details dd[data-field="codes"]').textContent(), { timeout: 15_000 }).toContain(fias);
      expect(await input.getAttribute('data-house-codes')).toBeNull();
      expect(server.requests.slice(codesAt).filter((line) => line.startsWith(`GET /web/ru/codes/${city.id}-`))).toHaveLength(1);
      expect(server.requests.slice(codesAt).filter((line) => line.includes('manifest'))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('preloads every place pack of a region named in ?preload= (data-address-hints-preload), so its streets are there offline', async () => {
    const reply = await fetch(`${server.url}/api/v1/suggest/address`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'свердловская обл', count: 1 }),
    });
    const region = ((await reply.json()) as { suggestions: AddressRecord[] }).suggestions[0].region;
    expect(region.fullName).toBe('Свердловская обл');
    const inRegion = manifest.packs.filter((pack) => pack.fullName.startsWith('Свердловская обл,')).map((pack) => pack.id).sort();
    expect(inRegion).toContain(city.id);

    const context = await browser.newContext({ viewport: { width: 960, height: 820 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/?preload=${region.codes.fias}`);
      expect(await page.locator('input#address').getAttribute('data-address-hints-preload')).toBe(region.codes.fias);
      await expect.poll(async () => (await packs(page)).filter((pack) => pack.state === 'ready').map((pack) => pack.code).sort(), { timeout: 30_000 })
        .toEqual(inRegion);
      await page.waitForFunction(() => document.documentElement.dataset.offline !== undefined, null, { timeout: 60_000 });

      const leaked: string[] = [];
      await cut(context, leaked);
      await typeFresh(page, 'екатеринбург вокз');
      await expect.poll(() => options(page), { timeout: 10_000 }).toContain(STREET);
      expect(await note(page).isHidden()).toBe(true);
      expect(leaked).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  /**
   * A visit that cached Екатеринбург's pack, then a new build of the page (another build id) deployed and its service
   * worker activated; `newCut`: the new build's entry pack is another (a byte changed), so the packs are not carried.
   */
  const deploy = async (newCut: boolean) => {
    // the page's routes over a copy of the build, swapped for a new build's routes at the "deploy"
    const dir = mkdtempSync(join(tmpdir(), 'web-deploy-'));
    cpSync(resolve('build/web'), dir, { recursive: true });
    const routesOf = () => {
      const router = new Router();
      webRoutes(router, { outDir: dir });
      return router.routes();
    };
    let routes = routesOf();
    const app = new Koa();
    app.use((ctx, next) => routes(ctx as Parameters<typeof routes>[0], next));
    const site = createServer(app.callback());
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const address = site.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const context = await browser.newContext({ viewport: { width: 960, height: 820 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      await page.goto(`${url}/`);
      await page.waitForFunction(() => document.documentElement.dataset.offline !== undefined, null, { timeout: 60_000 });
      await typeFresh(page, 'екатеринбург вокз');
      await expect.poll(() => options(page), { timeout: 15_000 }).toContain(STREET);
      const placeUrl = `/web/ru/places/${city.id}.dict`;
      const cachedIn = (name: string) => page.evaluate(async ([cache, file]) => Boolean(await (await caches.open(cache)).match(file)), [name, placeUrl]);
      const oldId = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { buildId: string }).buildId;
      expect(await cachedIn(`address-web-${oldId}`)).toBe(true);

      // a new build of the page: another build id (the page, its worker, its manifest), the same packs
      const newId = [...oldId].reverse().join('');
      for (const name of ['index.html', 'sw.js', 'manifest.json']) {
        writeFileSync(join(dir, name), readFileSync(join(dir, name), 'utf8').replaceAll(oldId, newId));
      }
      if (newCut) {
        const entry = Buffer.concat([readFileSync(join(dir, 'ru/entry.dict')), Buffer.from([0])]);
        writeFileSync(join(dir, 'ru/entry.dict'), entry);
        writeFileSync(join(dir, 'ru/entry.dict.gz'), gzipSync(entry));
      }
      routes = routesOf();
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
      await expect.poll(() => page.evaluate(() => caches.keys()), { timeout: 30_000 }).toEqual([`address-web-${newId}`]);
      expect(await cachedIn(`address-web-${newId}`)).toBe(!newCut);
      if (newCut) return;

      // the new page, offline, has the street from the pack carried over
      const leaked: string[] = [];
      await cut(context, leaked);
      await page.reload();
      await page.waitForFunction(() => window.addressHints?.ready === true, null, { timeout: 15_000 });
      expect(await page.locator('meta[name="build"]').getAttribute('content')).toBe(newId);
      await typeFresh(page, 'екатеринбург вокз');
      await expect.poll(() => options(page), { timeout: 10_000 }).toContain(STREET);
      expect(leaked).toEqual([]);
    } finally {
      await context.close();
      await new Promise<void>((done) => site.close(() => done()));
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('carries the cached packs into the cache of a new build of the page whose entry pack is the one cached', () => deploy(false), 120_000);

  it('drops the cached packs when the new build\'s entry pack is another', () => deploy(true), 120_000);
});
