/**
 * `/widget.js` on a shop's page of another origin (another port of 127.0.0.1), in a real Chromium
 * (/usr/bin/chromium, or CHROMIUM, driven by playwright-core): the page loads the script from the service with a
 * `<script>` tag and marks its input `data-address-hints`; with the keyboard alone the user types the street, moves
 * to it, takes it, types the house, takes it. The combobox's ARIA state follows every step; the chosen record,
 * handed over in `address-hints:select` and written into the form's `data-address-field` inputs, is the service's
 * own record of the house (its native hints over HTTP).
 *
 * With `data-offline` on the script tag, the same steps succeed with the network cut, from the in-page engine (its
 * entry pack, and the pack of Екатеринбург fetched when the service's hints settled on it before the cut, or preloaded
 * with its region by `data-address-hints-preload` on the script tag); the
 * ES module build (`/web/widget.mjs`) attaches only the input the page hands it.
 *
 * Chromium missing is a failure, not a skip: run scripts/ensure-chromium.sh (apt-get install chromium).
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressRecord } from '../../web/engine.js';
import { ARTIFACTS, launchChromium, startPageServer, type PageServer } from '../helpers/other-origin.js';
import { cut } from '../helpers/network-cut.js';
import { startServer, type RunningTestServer } from '../helpers/browser-server.js';

let service: RunningTestServer;
let shop: PageServer;
let browser: Browser;

/** The shop's checkout; `script` loads the widget (default: `/widget.js` of the service with a plain tag). */
function shopPage(serviceUrl: string, script = `<script src="${serviceUrl}/widget.js" defer></script>`): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Оформление заказа</title>
    ${script}</head>
    <body><form id="order">
      <label for="address">Адрес доставки</label> <input id="address" name="address" size="70" data-address-hints data-count="7">
      <p><input name="postcode" data-address-field="postcode"> <input name="city" data-address-field="city">
      <input name="street" data-address-field="street"> <input name="house" data-address-field="house"></p>
    </form>
    <script>window.chosen = []; window.streets = []; window.packs = [];
      document.addEventListener('address-hints:pack', (e) => window.packs.push(e.detail));
      document.addEventListener('address-hints:select', (e) => window.chosen.push(e.detail));
      document.addEventListener('address-hints:street', (e) => window.streets.push(e.detail));</script></body></html>`;
}

beforeAll(async () => {
  service = await startServer();
  // Свердловская обл's FIAS id, as the service gives it: the script tag of /preload.html preloads its place packs
  const SVERDLOVSK = (await nativeHints('свердловская обл'))[0].region.codes.fias;
  expect(SVERDLOVSK).toMatch(/^[0-9a-f-]{36}$/);
  const pages: Record<string, string> = {
    '/checkout.html': shopPage(service.url),
    '/offline.html': shopPage(service.url, `<script src="${service.url}/widget.js" data-offline defer></script>`),
    '/preload.html': shopPage(service.url, `<script src="${service.url}/widget.js" data-offline data-address-hints-preload="${SVERDLOVSK}" defer></script>`),
    // the ES module attaches nothing by itself: the page attaches #address, and #notes (marked too) stays a plain input
    '/module.html': shopPage(service.url, `<script type="module">
      import { attach, detach } from '${service.url}/web/widget.mjs';
      attach(document.getElementById('address'));
      window.widgetModule = { attach: typeof attach, detach: typeof detach };
    </script>`).replace('</form>', '<input id="notes" data-address-hints></form>'),
  };
  shop = await startPageServer((path) => (path in pages ? { type: 'text/html', body: pages[path] } : null));
  browser = await launchChromium();
  // the first request for a file of build/web builds it when stale (web/build.ts): here, not inside a test's wait
  expect((await fetch(`${service.url}/web/widget.mjs`)).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await service?.close();
});

/** The service's own hints for `query`, asked from here over HTTP. */
async function nativeHints(query: string): Promise<AddressRecord[]> {
  return (await service.post<{ suggestions: AddressRecord[] }>('/api/v1/suggest/address', { query, count: 7 })).suggestions;
}

const STREET = 'Свердловская обл, г Екатеринбург, ул Вокзальная';
const HOUSE = `${STREET}, дом 15`;

/** Types the street, takes it with the keyboard, types the house number, takes the house; `shot` names a screenshot of the house hints. */
async function chooseStreetThenHouse(page: Page, shot: string): Promise<void> {
  const input = page.locator('input#address');
  await input.focus();
  await page.keyboard.type('екатеринбург вокз', { delay: 40 });
  await activate(page, STREET);
  await page.keyboard.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(`${STREET} `);
  await page.keyboard.type('15', { delay: 40 });
  await activate(page, HOUSE);
  await page.screenshot({ path: join(ARTIFACTS, shot) });
  await page.keyboard.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(HOUSE);
}

const options = (page: Page): Promise<string[]> => page.locator('[role="option"]').allTextContents();

/** The options once the list has settled: the answer to the last keystroke shown (`aria-busy` gone). */
async function settledOptions(page: Page): Promise<string[]> {
  const listId = await page.locator('input#address').getAttribute('aria-controls');
  const busy = await page.locator(`[id="${listId}"]`).getAttribute('aria-busy');
  return busy === 'true' ? ['(busy)'] : options(page);
}

/** Presses ArrowDown until the option `text` is the active one; checks the combobox says so. */
async function activate(page: Page, text: string): Promise<void> {
  await expect.poll(() => settledOptions(page), { timeout: 10_000 }).toContain(text);
  const index = (await options(page)).indexOf(text);
  for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
  const input = page.locator('input#address');
  const active = await input.getAttribute('aria-activedescendant');
  expect(active).toBeTruthy();
  const option = page.locator(`[id="${active}"]`);
  expect(await option.textContent()).toBe(text);
  expect(await option.getAttribute('aria-selected')).toBe('true');
  expect(await page.locator('[role="option"][aria-selected="true"]').count()).toBe(1);
}

/** The shop's page with `data-offline` on the script tag, its field focused (which loads the engine, the core and
 * the entry pack from the service) until the engine is ready; page errors are collected in `errors`. */
async function openOffline(context: BrowserContext): Promise<{ page: Page; input: Locator; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  expect((await page.goto(`${shop.url}/offline.html`))?.status()).toBe(200);
  const input = page.locator('input#address');
  await expect.poll(() => input.getAttribute('role')).toBe('combobox');
  await input.focus();
  await expect.poll(() => input.getAttribute('data-offline-state'), { timeout: 30_000 }).toBe('ready');
  return { page, input, errors };
}

describe('/widget.js on a page of another origin', () => {
  it('hints with the keyboard as an ARIA combobox and hands over the service\'s record of the house', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 700 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      expect(new URL(shop.url).origin).not.toBe(new URL(service.url).origin);
      expect((await page.goto(`${shop.url}/checkout.html`))?.status()).toBe(200);
      const input = page.locator('input#address');
      await expect.poll(() => input.getAttribute('role')).toBe('combobox');
      const listId = await input.getAttribute('aria-controls');
      expect(await page.locator(`[id="${listId}"]`).getAttribute('role')).toBe('listbox');
      expect(await input.getAttribute('aria-expanded')).toBe('false');
      expect(await input.getAttribute('aria-autocomplete')).toBe('list');

      await input.focus();
      await page.keyboard.type('екатеринбург вокз', { delay: 40 });
      await activate(page, 'Свердловская обл, г Екатеринбург, ул Вокзальная');
      expect(await input.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Enter');
      await expect.poll(() => input.inputValue()).toBe('Свердловская обл, г Екатеринбург, ул Вокзальная ');
      expect(await page.evaluate(() => (window as unknown as { streets: { street: { fullName: string } }[] }).streets.map((s) => s.street.fullName))).toEqual(['ул Вокзальная']);

      await page.keyboard.type('15', { delay: 40 });
      await activate(page, 'Свердловская обл, г Екатеринбург, ул Вокзальная, дом 15');
      await page.screenshot({ path: join(ARTIFACTS, 'widget-house-hints.png') });
      await page.keyboard.press('Enter');
      await expect.poll(() => input.inputValue()).toBe('Свердловская обл, г Екатеринбург, ул Вокзальная, дом 15');
      expect(await input.getAttribute('aria-expanded')).toBe('false');
      expect(await input.getAttribute('aria-activedescendant')).toBeNull();

      const chosen = await page.evaluate(() => (window as unknown as { chosen: unknown[] }).chosen);
      expect(chosen.length).toBe(1);
      const native = (await nativeHints(`${STREET} 15`)).find((record) => record.addressFull === HOUSE);
      expect(native).toBeDefined();
      expect(chosen[0]).toEqual(native);
      const field = (name: string) => page.locator(`input[name="${name}"]`).inputValue();
      expect(await field('street')).toBe('ул Вокзальная');
      expect(await field('house')).toBe('15');
      expect(await field('city')).toBe('г Екатеринбург');
      expect(await field('postcode')).toBe(native!.postcode);
      await page.screenshot({ path: join(ARTIFACTS, 'widget-chosen.png') });

      // Escape closes an open list; ↑ wraps to the last option
      await page.keyboard.press('Backspace');
      await expect.poll(() => input.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowUp');
      const all = await options(page);
      expect(await page.locator('[role="option"][aria-selected="true"]').textContent()).toBe(all[all.length - 1]);
      await page.keyboard.press('Escape');
      await expect.poll(() => input.getAttribute('aria-expanded')).toBe('false');
      expect(await page.locator(`[id="${listId}"]`).isHidden()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('hints a street and a house from the in-page engine once the network is cut (data-offline)', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 700 }, locale: 'ru-RU' });
    try {
      const { page, input, errors } = await openOffline(context);
      // online, the service's first hint is in Екатеринбург: the place's offline pack is fetched and kept for later
      await page.keyboard.type('екатеринбург вокз', { delay: 40 });
      await expect.poll(() => settledOptions(page), { timeout: 10_000 }).toContain(STREET);
      const packs = () => page.evaluate(() => (window as unknown as { packs: { code: string; state: string }[] }).packs.map((p) => p.state));
      await expect.poll(packs, { timeout: 15_000 }).toEqual(['loading', 'ready']);
      await input.fill('');

      // the network cut as in offline.test.ts: every request recorded and aborted, the browser offline
      const leaked: string[] = [];
      await cut(context, leaked);
      const receivedBefore = service.requests.length;

      await chooseStreetThenHouse(page, 'widget-offline-house-hints.png');
      expect(await page.locator(`[id="${await input.getAttribute('aria-controls')}"]`).getAttribute('data-source')).toBe('offline');

      // nothing reached the service after the cut; what the page tried was aborted on the way
      expect(service.requests.slice(receivedBefore)).toEqual([]);
      expect(leaked.every((line) => line.startsWith(`POST ${service.url}/api/v1/suggest/address`)), leaked.join('\n')).toBe(true);

      // the chosen house is the service's house: same address, street, number, postcode and place
      const chosen = (await page.evaluate(() => (window as unknown as { chosen: AddressRecord[] }).chosen));
      expect(chosen.length).toBe(1);
      const native = (await nativeHints(`${STREET} 15`)).find((record) => record.addressFull === HOUSE)!;
      const summary = (record: AddressRecord) => ({
        addressFull: record.addressFull, street: record.street, house: record.houseDetails.house,
        postcode: record.postcode, coordinates: record.coordinates,
      });
      expect(summary(chosen[0])).toEqual(summary(native));
      expect(await page.locator('input[name="house"]').inputValue()).toBe('15');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('says under the list that a place\'s streets load when online when its pack is not cached (data-offline)', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 700 }, locale: 'ru-RU' });
    try {
      const { page, input } = await openOffline(context);
      await context.route('**/*', (route) => route.abort('internetdisconnected'));
      await context.setOffline(true);
      await page.keyboard.type('екатеринбург вокз', { delay: 40 });
      await expect.poll(() => settledOptions(page), { timeout: 10_000 }).toContain('Свердловская обл, г Екатеринбург');
      expect(await options(page)).not.toContain(STREET);
      const note = page.locator('.ah-note');
      expect(await note.isVisible()).toBe(true);
      expect(await note.getAttribute('data-state')).toBe('offline');
      expect(await note.textContent()).toBe('Улицы и дома (Свердловская обл, г Екатеринбург) загрузятся, когда будет сеть');
      await page.screenshot({ path: join(ARTIFACTS, 'widget-offline-not-cached.png') });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('preloads the place packs of the region named on the script tag (data-address-hints-preload) and hints its streets offline', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 700 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      expect((await page.goto(`${shop.url}/preload.html`))?.status()).toBe(200);
      const input = page.locator('input#address');
      // a preload loads the engine when the widget is attached, not at the first focus
      await expect.poll(() => input.getAttribute('data-offline-state'), { timeout: 30_000 }).toBe('ready');
      const ready = () => page.evaluate(() => (window as unknown as { packs: { code: string; state: string }[] }).packs.filter((p) => p.state === 'ready').length);
      await expect.poll(ready, { timeout: 30_000 }).toBeGreaterThan(0);
      const leaked: string[] = [];
      await cut(context, leaked);
      await chooseStreetThenHouse(page, 'widget-preload-house-hints.png');
      expect(await page.locator(`[id="${await input.getAttribute('aria-controls')}"]`).getAttribute('data-source')).toBe('offline');
      expect(leaked.every((line) => line.startsWith(`POST ${service.url}/api/v1/suggest/address`)), leaked.join('\n')).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('hints from the in-page engine while a gateway answers 502 for the service, and from the service again after', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 700 }, locale: 'ru-RU' });
    try {
      const { page, input } = await openOffline(context);
      const list = page.locator(`[id="${await input.getAttribute('aria-controls')}"]`);

      // a gateway in front of the service answers its own 502 page
      const refused: string[] = [];
      await context.route(`${service.url}/api/v1/suggest/address`, (route) => {
        refused.push(route.request().postData() ?? '');
        return route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad Gateway</body></html>' });
      });
      await page.keyboard.type('екатеринбург вокз', { delay: 40 });
      await expect.poll(() => options(page), { timeout: 10_000 }).toContain(STREET);
      expect(await list.getAttribute('data-source')).toBe('offline');
      expect(refused.length).toBeGreaterThan(0);

      // the service is back: once the pause after the failure is over, its hints return (the pause is cleared here
      // by reloading the page, which starts a fresh widget)
      await context.unroute(`${service.url}/api/v1/suggest/address`);
      await page.reload();
      await page.locator('input#address').focus();
      await page.keyboard.type('екатеринбург вокз', { delay: 40 });
      await expect.poll(() => options(page), { timeout: 10_000 }).toContain(STREET);
      expect(await page.locator(`[id="${await page.locator('input#address').getAttribute('aria-controls')}"]`).getAttribute('data-source')).toBe('service');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('is an ES module too: the page attaches the input it chooses, hints come from the service', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 700 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      expect((await page.goto(`${shop.url}/module.html`))?.status()).toBe(200);
      await expect.poll(() => page.evaluate(() => (window as unknown as { widgetModule?: unknown }).widgetModule)).toEqual({ attach: 'function', detach: 'function' });
      const input = page.locator('input#address');
      expect(await input.getAttribute('role')).toBe('combobox');
      // no auto-start: the other marked input is left alone, and the module sets no global
      expect(await page.locator('input#notes').getAttribute('role')).toBeNull();
      expect(await page.evaluate(() => 'addressHintsWidget' in window)).toBe(false);

      await chooseStreetThenHouse(page, 'widget-module-house-hints.png');
      expect(await page.locator(`[id="${await input.getAttribute('aria-controls')}"]`).getAttribute('data-source')).toBe('service');
      const chosen = await page.evaluate(() => (window as unknown as { chosen: AddressRecord[] }).chosen);
      const native = (await nativeHints(`${STREET} 15`)).find((record) => record.addressFull === HOUSE);
      expect(chosen).toEqual([native]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
