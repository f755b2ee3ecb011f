/**
 * `/widget.js` on a shop's page of another origin (another port of 127.0.0.1), in a real Chromium
 * (/usr/bin/chromium, or CHROMIUM, driven by playwright-core): the page loads the script from the service with a
 * `<script>` tag and marks its input `data-address-hints`; with the keyboard alone the user types the street, moves
 * to it, takes it, types the house, takes it. The combobox's ARIA state follows every step; the chosen record,
 * handed over in `address-hints:select` and written into the form's `data-address-field` inputs, is the service's
 * own record of the house (its native hints over HTTP).
 *
 * Chromium missing is a failure, not a skip: run scripts/ensure-chromium.sh (apt-get install chromium).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchChromium, startPageServer, type PageServer } from '../helpers/other-origin.js';
import { startServer, type RunningTestServer } from '../helpers/browser-server.js';

let service: RunningTestServer;
let shop: PageServer;
let browser: Browser;

function shopPage(serviceUrl: string): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Оформление заказа</title>
    <script src="${serviceUrl}/widget.js" defer></script></head>
    <body><form id="order">
      <label for="address">Адрес доставки</label> <input id="address" name="address" size="70" data-address-hints data-count="7">
      <p><input name="postcode" data-address-field="postcode"> <input name="city" data-address-field="city">
      <input name="street" data-address-field="street"> <input name="house" data-address-field="house"></p>
    </form>
    <script>window.chosen = []; window.streets = [];
      document.addEventListener('address-hints:select', (e) => window.chosen.push(e.detail));
      document.addEventListener('address-hints:street', (e) => window.streets.push(e.detail));</script></body></html>`;
}

beforeAll(async () => {
  service = await startServer();
  shop = await startPageServer((path) => (path === '/checkout.html' ? { type: 'text/html', body: shopPage(service.url) } : null));
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await service?.close();
});

const options = (page: Page): Promise<string[]> => page.locator('[role="option"]').allTextContents();

/** Presses ArrowDown until the option `text` is the active one; checks the combobox says so. */
async function activate(page: Page, text: string): Promise<void> {
  await expect.poll(() => options(page), { timeout: 10_000 }).toContain(text);
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
      const reply = await fetch(`${service.url}/api/v1/suggest/address`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Свердловская обл, г Екатеринбург, ул Вокзальная 15', count: 7 }),
      });
      const native = ((await reply.json()) as { suggestions: { addressFull: string; postcode: string }[] }).suggestions
        .find((record) => record.addressFull === 'Свердловская обл, г Екатеринбург, ул Вокзальная, дом 15');
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
});
