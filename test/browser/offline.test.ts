/**
 * The page at `/` in a real browser: Debian's chromium (/usr/bin/chromium, or CHROMIUM) driven by
 * playwright-core against the real server started in-process. After the first load the service worker
 * and the in-browser engine are ready; the network is cut, the page is reloaded from the service
 * worker's cache, and hints still come as the user types, with no request leaving the page. Screenshots go
 * to test-artifacts/.
 *
 * Chromium missing is a failure, not a skip: run scripts/ensure-chromium.sh (apt-get install chromium).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressRecord } from '../../web/engine.js';
import { cut, tellOffline } from '../helpers/network-cut.js';
import { startServer, type RunningTestServer } from '../helpers/browser-server.js';
import type { HintTiming } from '../../web/app.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = resolve('test-artifacts');

let server: RunningTestServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `chromium not found at ${CHROMIUM}: the browser tests need it. Install it with scripts/ensure-chromium.sh ` +
        '(apt-get update && apt-get install -y chromium) or point CHROMIUM at a chromium binary.',
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const hintTexts = (page: Page): Promise<string[]> => page.locator('[role="listbox"] [role="option"]').allTextContents();
/** The widget's listbox, named by the input's aria-controls. */
const listbox = async (page: Page) => page.locator(`[id="${await page.locator('input#address').getAttribute('aria-controls')}"]`);

/** Presses ArrowDown until the hint matching `pattern` is the active one; returns its text. */
async function activate(page: Page, pattern: RegExp): Promise<string> {
  const texts = await hintTexts(page);
  const index = texts.findIndex((text) => pattern.test(text));
  expect(index, `no hint matches ${pattern}: ${JSON.stringify(texts)}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
  await expect.poll(() => page.locator('[role="option"][aria-selected="true"]').textContent()).toBe(texts[index]);
  return texts[index];
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms`;
}

describe('page at / (offline hints)', () => {
  let context: BrowserContext;
  let page: Page;

  it('loads, registers the service worker and the in-browser engine', async () => {
    context = await browser.newContext({ viewport: { width: 960, height: 820 }, locale: 'ru-RU' });
    page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // what the page's Content-Security-Policy refuses is reported on the console, not thrown
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
    await page.waitForFunction(() => document.documentElement.dataset.offline !== undefined, null, { timeout: 60_000 });
    const state = await page.evaluate(() => ({ offline: document.documentElement.dataset.offline, error: window.addressHints.error }));
    expect(state, `page not ready offline: ${state.error}`).toEqual({ offline: 'ready', error: '' });
    expect(errors).toEqual([]);
  });

  it('answers hints from the cache and the in-browser engine with the network cut', async () => {
    // online, the typed words settle on Екатеринбург: the engine fetches its place pack, cached for what follows
    const typed = page.locator('input#address');
    await typed.click();
    await typed.pressSequentially('екатеринбург вокз', { delay: 30 });
    await expect.poll(() => hintTexts(page), { timeout: 15_000 }).toContain('Свердловская обл, г Екатеринбург, ул Вокзальная');
    await typed.fill('');

    // The network is cut twice over: every request that leaves the page or its service worker is
    // recorded and aborted, and the browser is told it is offline (told again once the page is reloaded:
    // Chromium 150 says `navigator.onLine` true in a page reloaded under the offline emulation). After the cut
    // nothing reaches the network (the route sees nothing) and the server receives nothing, while the page, its
    // engine and hints still work. A browser that says it is online with the network down is
    // offline-packs.test.ts's: the house codes it then asks for fail, and the record says so.
    const leaked: string[] = [];
    await cut(context, leaked);
    const receivedBefore = server.requests.length;
    const reloadError = await page.reload().then(() => '', (err: Error) => err.message);
    await page.waitForFunction(() => window.addressHints?.ready === true, null, { timeout: 10_000 }).catch(() => {});
    await tellOffline(context);
    expect(leaked, 'requests sent with the network cut').toEqual([]);
    expect(reloadError, 'the page reloaded from the service worker').toBe('');
    expect(await page.evaluate(() => window.addressHints?.ready)).toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    const input = page.locator('input#address');
    await input.click();
    await input.pressSequentially('екатеринбург вокз', { delay: 60 });
    await expect.poll(() => hintTexts(page)).toContain('Свердловская обл, г Екатеринбург, ул Вокзальная');
    // the page's field is the hints widget, answering from its in-page engine
    expect(await input.getAttribute('role')).toBe('combobox');
    expect(await (await listbox(page)).getAttribute('data-source')).toBe('offline');
    await page.screenshot({ path: join(ARTIFACTS, 'offline-hints.png') });

    // the street, chosen with the keyboard, stays in the field for the house number
    await activate(page, /ул Вокзальная$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => input.inputValue()).toBe('Свердловская обл, г Екатеринбург, ул Вокзальная ');
    await input.pressSequentially('1', { delay: 60 });
    await expect.poll(() => hintTexts(page)).toContain('Свердловская обл, г Екатеринбург, ул Вокзальная, дом 14');
    await input.pressSequentially('4', { delay: 60 });
    await expect.poll(() => hintTexts(page)).toEqual(expect.arrayContaining(['Свердловская обл, г Екатеринбург, ул Вокзальная, дом 14']));
    await page.screenshot({ path: join(ARTIFACTS, 'offline-house-hints.png') });

    // Escape closes the list, ArrowDown … Enter picks the house and expands it
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await listbox(page)).isHidden()).toBe(true);
    await input.pressSequentially(' ', { delay: 60 });
    await page.keyboard.press('Backspace');
    await expect.poll(async () => (await listbox(page)).isVisible()).toBe(true);
    await activate(page, /ул Вокзальная, дом 14$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => input.inputValue()).toBe('Свердловская обл, г Екатеринбург, ул Вокзальная, дом 14');
    await expect.poll(async () => (await listbox(page)).isHidden()).toBe(true);
    // nothing left the page after the cut: no request was routed out, none reached the server
    expect(leaked, 'requests sent with the network cut').toEqual([]);
    // The one request a browser may still make on its own is the service worker's update check, which the
    // Service Workers spec runs after every navigation and which some Chromium builds send past the offline
    // emulation; it is the browser's, not the page's, and simply fails on a real cut.
    const received = server.requests.slice(receivedBefore).filter((line) => line !== 'GET /sw.js');
    expect(received, 'requests the server received with the network cut').toEqual([]);

    // the expanded fields are the server's record for the same house (asked from here, over HTTP)
    const reply = await fetch(`${server.url}/api/v1/suggest/address`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Свердловская обл, г Екатеринбург, ул Вокзальная 14' }),
    });
    const { suggestions } = (await reply.json()) as { suggestions: AddressRecord[] };
    const house = suggestions.find((s) => s.addressFull === 'Свердловская обл, г Екатеринбург, ул Вокзальная, дом 14');
    expect(house, JSON.stringify(suggestions.map((s) => s.addressFull))).toBeDefined();
    const field = (name: string) => page.locator(`#details dd[data-field="${name}"]`).textContent();
    expect(await field('region')).toBe('Свердловская обл');
    expect(await field('city')).toBe('г Екатеринбург');
    expect(await field('street')).toBe('ул Вокзальная');
    expect(await field('house')).toBe('14');
    expect(await field('postcode')).toBe(house!.postcode || '—');
    expect(await field('coordinates')).toBe(`${house!.coordinates.latitude.toFixed(6)}, ${house!.coordinates.longitude.toFixed(6)}`);
    expect(await field('codes')).not.toBe('—');
    await page.screenshot({ path: join(ARTIFACTS, 'offline-details.png'), fullPage: true });

    const timings = await page.evaluate(() => window.addressHints.timings) as HintTiming[];
    expect(timings.length).toBeGreaterThan(10);
    expect(timings.every((t) => t.source === 'browser')).toBe(true);
    const withHints = timings.filter((t) => t.count > 0);
    if (process.env.HINT_TIMINGS) console.table(timings);
    console.log(
      `keystroke → hints rendered (offline, in-browser engine, ${withHints.length} keystrokes with hints): ${summary(withHints.map((t) => t.ms))}; ` +
        `suggest call alone: ${summary(withHints.map((t) => t.engineMs))}`,
    );
  });

  afterAll(async () => {
    await context?.close();
  });
});

describe('page at / (online, before the dictionary arrives)', () => {
  it('shows the API\'s hints until the in-browser engine is loaded', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      // hold the dictionary (the entry pack, or the whole dictionary) back: the engine cannot load, the API answers
      let release = (): void => {};
      const held = new Promise<void>((done) => { release = done; });
      await page.route('**/web/**/*.dict', async (route) => {
        await held;
        await route.continue().catch(() => {});
      });
      await page.goto(`${server.url}/`);
      await page.locator('input#address').pressSequentially('екатеринбург вокз', { delay: 30 });
      await expect.poll(() => hintTexts(page)).toContain('Свердловская обл, г Екатеринбург, ул Вокзальная');
      const timings = await page.evaluate(() => window.addressHints.timings) as HintTiming[];
      expect(timings.length).toBeGreaterThan(0);
      expect(timings.every((t) => t.source === 'api')).toBe(true);
      expect(await page.evaluate(() => window.addressHints.ready)).toBe(false);
      release();
      await page.waitForFunction(() => window.addressHints.ready === true, null, { timeout: 30_000 });
    } finally {
      await context.close();
    }
  });
});
