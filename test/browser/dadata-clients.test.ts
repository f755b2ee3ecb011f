/**
 * DaData's own widgets, unchanged, against the service's DaData facade in a real Chromium (/usr/bin/chromium, or
 * CHROMIUM, driven by playwright-core): suggestions-jquery 22 (with jQuery 3) and @dadata/suggestions 20, each on
 * a page served from another origin (another port of 127.0.0.1) than the service, so every call is cross-origin
 * (CORS preflights included). On each: type `екатеринбург вокз`, see the street, pick it, type the house, see it,
 * pick it, and read the chosen suggestion's data.street_fias_id and data.house_fias_id, which must be the engine's
 * own (the native hints' codes for the same house); then the same in Байконур, whose registry has FIAS ids.
 *
 * Chromium missing is a failure, not a skip: run scripts/ensure-chromium.sh (apt-get install chromium).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchChromium, startPageServer, type PageServer } from '../helpers/other-origin.js';
import { startServer, type RunningTestServer } from '../helpers/browser-server.js';

const require = createRequire(import.meta.url);

let service: RunningTestServer;
let pages: PageServer;
let browser: Browser;

/** The widgets' files from node_modules, as a site would host them. */
const FILES: Record<string, [string, string]> = {
  '/jquery.js': [require.resolve('jquery/dist/jquery.min.js'), 'text/javascript'],
  '/suggestions-jquery.js': [require.resolve('suggestions-jquery/dist/js/jquery.suggestions.min.js'), 'text/javascript'],
  '/suggestions-jquery.css': [require.resolve('suggestions-jquery/dist/css/suggestions.min.css'), 'text/css'],
  '/dadata-suggestions.js': [require.resolve('@dadata/suggestions/lib/suggest.js'), 'text/javascript'],
};

/** The pages: an address input and the widget set up as its documentation shows, pointed at the service. */
function pageHtml(name: string, serviceUrl: string): string {
  const api = `${serviceUrl}/suggestions/api/4_1/rs`;
  const setup = name === 'jquery'
    ? `<link rel="stylesheet" href="/suggestions-jquery.css">
       <script src="/jquery.js"></script><script src="/suggestions-jquery.js"></script>
       <script>
         window.picks = [];
         $('#address').suggestions({ serviceUrl: ${JSON.stringify(api)}, token: 'site-token', type: 'ADDRESS', count: 10,
           onSelect: function (suggestion) { window.picks.push(suggestion); } });
       </script>`
    : `<script src="/dadata-suggestions.js"></script>
       <script>
         window.picks = [];
         suggestions.init(document.getElementById('address'), { type: 'address', serviceUrl: ${JSON.stringify(api)}, requestToken: 'site-token', count: 10,
           onSelect: function (suggestion) { window.picks.push(suggestion); } });
       </script>`;
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${name}</title></head>
    <body><label>Адрес <input id="address" type="text" autocomplete="off" style="width: 640px"></label>${setup}</body></html>`;
}

beforeAll(async () => {
  service = await startServer();
  pages = await startPageServer((path) => {
    const file = FILES[path];
    if (file) return { type: file[1], body: readFileSync(file[0]) };
    const page = /^\/(jquery|dadata)\.html$/.exec(path);
    return page ? { type: 'text/html', body: pageHtml(page[1], service.url) } : null;
  });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await service?.close();
});

/** The widget's list items (suggestions-jquery: `.suggestions-suggestion`; @dadata/suggestions: the popover's `li`). */
const ITEMS: Record<string, string> = { jquery: '.suggestions-suggestion', dadata: 'li' };

async function hintTexts(page: Page, widget: string): Promise<string[]> {
  const texts = await page.locator(ITEMS[widget]).allTextContents();
  return texts.map((text) => text.replace(/\s+/g, ' ').trim());
}

/** Waits for a hint whose text contains `text` and clicks it. */
async function pick(page: Page, widget: string, text: string): Promise<void> {
  await expect.poll(() => hintTexts(page, widget), { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringContaining(text)]));
  const texts = await hintTexts(page, widget);
  const index = texts.findIndex((t) => t.includes(text));
  await page.locator(ITEMS[widget]).nth(index).click();
}

/** The native hints' record of a house, asked of the service over HTTP (the engine's own codes). */
async function nativeHouse(query: string, addressFull: string): Promise<{ street: string; house: string }> {
  type Hint = { addressFull: string; street: { codes: { fias: string } }; houseDetails: { codes: { fias: string } } };
  const { suggestions } = await service.post<{ suggestions: Hint[] }>('/api/v1/suggest/address', { query, count: 10 });
  const house = suggestions.find((s) => s.addressFull === addressFull);
  expect(house, JSON.stringify(suggestions.map((s) => s.addressFull))).toBeDefined();
  return { street: house!.street.codes.fias, house: house!.houseDetails.codes.fias };
}

interface Picked {
  value: string;
  data: { street_fias_id: string | null; house_fias_id: string | null; house: string | null; street_with_type: string | null; fias_level: string };
}

/** Types the street, picks it, types the house, picks it; returns what the widget handed to onSelect last. */
async function chooseHouse(page: Page, widget: string, typed: string, street: string, house: string, houseValue: string, shot: string): Promise<Picked> {
  const input = page.locator('input#address');
  await input.click();
  await input.fill('');
  await input.pressSequentially(typed, { delay: 40 });
  await pick(page, widget, street);
  // the street's value stays in the field; the house number goes after it
  await expect.poll(() => input.inputValue()).toContain(street);
  const value = await input.inputValue();
  if (!value.endsWith(' ')) await input.press('End');
  await input.pressSequentially(value.endsWith(' ') ? house : ` ${house}`, { delay: 40 });
  await expect.poll(() => hintTexts(page, widget), { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringContaining(houseValue)]));
  await page.screenshot({ path: join(ARTIFACTS, shot) });
  await pick(page, widget, houseValue);
  await expect.poll(() => page.evaluate(() => (window as unknown as { picks: Picked[] }).picks.at(-1)?.value ?? ''), { timeout: 10_000 }).toContain(houseValue);
  return page.evaluate(() => (window as unknown as { picks: Picked[] }).picks.at(-1)!) as Promise<Picked>;
}

describe.each(['jquery', 'dadata'])('DaData widget %s on another origin', (widget) => {
  it('hints the street, then the house, and hands over the engine\'s FIAS ids', async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 700 }, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      const crossOrigin: string[] = [];
      page.on('request', (request) => {
        if (request.url().startsWith(service.url)) crossOrigin.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      expect(new URL(pages.url).origin).not.toBe(new URL(service.url).origin);
      const response = await page.goto(`${pages.url}/${widget}.html`);
      expect(response?.status()).toBe(200);

      const picked = await chooseHouse(page, widget, 'екатеринбург вокз', 'г Екатеринбург, ул Вокзальная', '15', 'ул Вокзальная, д 15', `dadata-${widget}-house-hints.png`);
      const native = await nativeHouse('екатеринбург вокзальная 15', 'Свердловская обл, г Екатеринбург, ул Вокзальная, дом 15');
      expect(picked.value).toBe('г Екатеринбург, ул Вокзальная, д 15');
      expect(picked.data.street_with_type).toBe('ул Вокзальная');
      expect(picked.data.house).toBe('15');
      expect(picked.data.fias_level).toBe('8');
      expect(picked.data.street_fias_id).toBe(native.street || null);
      expect(picked.data.house_fias_id).toBe(native.house || null);

      // Байконур's streets and houses have FIAS ids in the registry: the widget hands them over
      const baikonur = await chooseHouse(page, widget, 'байконур гагар', 'г Байконур, ул Гагарина', '5', 'ул Гагарина, д 5', `dadata-${widget}-baikonur.png`);
      const nativeBaikonur = await nativeHouse('байконур гагарина 5', 'г Байконур, ул Гагарина, дом 5');
      expect(baikonur.data.street_fias_id).toBe(nativeBaikonur.street);
      expect(baikonur.data.house_fias_id).toBe(nativeBaikonur.house);
      expect(baikonur.data.house_fias_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

      expect(errors).toEqual([]);
      expect(crossOrigin).toEqual(expect.arrayContaining(['GET /suggestions/api/4_1/rs/status/address', 'POST /suggestions/api/4_1/rs/suggest/address']));
    } finally {
      await context.close();
    }
  }, 120_000);
});
