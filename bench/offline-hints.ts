/**
 * Offline hints from packs in a real Chromium (docs/OFFLINE.md): the page at `/` loaded cold (a fresh browser
 * context: empty caches, no service worker), then
 *
 *   entry → first hint   navigation start → the widget's engine ready on the entry pack (`address-hints:offline`)
 *                        → the first hints of `екатеринбург вокз` drawn (the city, its streets not loaded yet)
 *   pack → street hints  the city's place pack requested (`address-hints:pack` loading) → fetched → the engine put
 *                        together again → the same query's hints drawn with the street
 *
 * each over `--runs` cold loads (median, min, max), on the loopback and under a throttled link (`--link`, Chromium's
 * network emulation: RTT ms / Mbit/s down). The page is served by the page's own routes (host/routes/web.ts) over the
 * web build in `--web` (default build/web, built from `--dictionaries` when stale), without the API: the engine
 * answers every hint. Chromium: /usr/bin/chromium or CHROMIUM.
 *
 *   nice -n 5 npx tsx bench/offline-hints.ts [--runs 5] [--query 'екатеринбург вокз'] [--street 'ул Вокзальная']
 *     [--dictionaries build/dictionaries] [--web build/web] [--link 40/20] [--results bench/offline-hints.json]
 */
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import Koa from 'koa';
import { chromium } from 'playwright-core';
import { webRoutes } from '../host/routes/web.js';
import type { PacksManifest } from '../web/engine.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => (args.indexOf(`--${name}`) >= 0 ? args[args.indexOf(`--${name}`) + 1] : fallback);
const RUNS = Number(option('runs', '5'));
const QUERY = option('query', 'екатеринбург вокз');
const STREET = option('street', 'ул Вокзальная');
const DICTIONARIES = resolve(ROOT, option('dictionaries', 'build/dictionaries'));
const WEB = resolve(ROOT, option('web', 'build/web'));
const LINK = option('link', '40/20');
const RESULTS = option('results', '');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

interface Run {
  /** navigation start → engine ready on the entry pack */
  entryReadyMs: number;
  /** navigation start → first hints drawn */
  firstHintMs: number;
  /** the first hints' suggest call alone */
  firstSuggestMs: number;
  /** the place pack requested → its bytes in */
  packFetchMs: number;
  /** the place pack requested → hints with the street drawn */
  streetHintMs: number;
  /** those hints' suggest call alone */
  streetSuggestMs: number;
}

/**
 * Runs in the page before its scripts: once the engine is ready, types the query into the field (the widget answers
 * at once, `first` mode) and times what follows from the widget's events.
 */
function probe({ query, street }: { query: string; street: string }): void {
  const marks: Record<string, number> = {};
  (window as unknown as { probe: Record<string, number> }).probe = marks;
  const drawn = (): Promise<number> => new Promise((done) => requestAnimationFrame(() => done(performance.now())));
  document.addEventListener('address-hints:offline', (event) => {
    if ((event as CustomEvent<{ state: string }>).detail.state !== 'ready' || marks.entryReady) return;
    marks.entryReady = performance.now();
    const input = event.target as HTMLInputElement;
    input.focus();
    input.value = query;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  document.addEventListener('address-hints:pack', (event) => {
    const { state, ms } = (event as CustomEvent<{ state: string; ms?: number }>).detail;
    if (state === 'loading' && !marks.packRequested) marks.packRequested = performance.now();
    if (state === 'ready' && !marks.packFetch) marks.packFetch = ms ?? 0;
  });
  document.addEventListener('address-hints:shown', (event) => {
    const detail = (event as CustomEvent<{ ms: number }>).detail;
    const options = Array.from(document.querySelectorAll('[role="option"]')).map((option) => option.textContent ?? '');
    if (!marks.firstHint) {
      marks.firstSuggest = detail.ms;
      void drawn().then((at) => (marks.firstHint = at));
    } else if (!marks.streetHint && options.some((text) => text.includes(street))) {
      marks.streetSuggest = detail.ms;
      void drawn().then((at) => (marks.streetHint = at));
    }
  });
}

function stats(values: number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return { median: round(sorted[Math.floor(sorted.length / 2)]), min: round(sorted[0]), max: round(sorted[sorted.length - 1]) };
}

async function main(): Promise<void> {
  const app = new Koa();
  const router = new Router();
  webRoutes(router, { dictionariesDir: DICTIONARIES, outDir: WEB });
  app.use(router.routes());
  const server = createServer(app.callback());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // the first request builds the page when stale
  if ((await fetch(`${url}/`)).status !== 200) throw new Error('the page is not served');
  const manifest = JSON.parse(await readFile(join(WEB, 'ru', 'manifest.json'), 'utf8')) as PacksManifest;
  const city = [...manifest.packs].sort((a, b) => b.houses - a.houses)[0];
  console.log(`entry pack ${(manifest.entry.bytes / 1024).toFixed(0)} KB (${(manifest.entry.gzipBytes / 1024).toFixed(0)} KB gzip), ` +
    `${manifest.packs.length} place packs; the largest: ${city.fullName} ${(city.bytes / 1024).toFixed(0)} KB (${(city.gzipBytes / 1024).toFixed(0)} KB gzip), ${city.houses} houses`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const [rtt, mbits] = LINK.split('/').map(Number);
  const links = [{ name: 'loopback', rtt: 0, mbits: 0 }, { name: `${rtt} ms RTT, ${mbits} Mbit/s`, rtt, mbits }];
  const results: Record<string, ReturnType<typeof stats>>[] = [];
  try {
    for (const link of links) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        if (link.rtt > 0) {
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false, latency: link.rtt, downloadThroughput: (link.mbits * 1e6) / 8, uploadThroughput: (link.mbits * 1e6) / 8,
          });
        }
        // tsx names the probe's inner functions with its `__name` helper, which the page has not
        await page.addInitScript({ content: 'window.__name = (f) => f;' });
        await page.addInitScript(probe, { query: QUERY, street: STREET });
        // the API is not served: the widget's `first` mode answers from the engine once it is ready
        await page.goto(`${url}/`);
        await page.waitForFunction(() => (window as unknown as { probe: Record<string, number> }).probe.streetHint > 0, null, { timeout: 120_000 });
        const marks = await page.evaluate(() => (window as unknown as { probe: Record<string, number> }).probe);
        runs.push({
          entryReadyMs: marks.entryReady,
          firstHintMs: marks.firstHint,
          firstSuggestMs: marks.firstSuggest,
          packFetchMs: marks.packFetch,
          streetHintMs: marks.streetHint - marks.packRequested,
          streetSuggestMs: marks.streetSuggest,
        });
        await context.close();
      }
      const row = Object.fromEntries((Object.keys(runs[0]) as (keyof Run)[]).map((key) => [key, stats(runs.map((run) => run[key]))]));
      results.push(row);
      console.log(`\n${link.name}, ${RUNS} cold loads (median [min … max] ms):`);
      for (const [key, value] of Object.entries(row)) console.log(`  ${key.padEnd(16)} ${String(value.median).padStart(8)}  [${value.min} … ${value.max}]`);
    }
  } finally {
    await browser.close();
    server.close();
  }
  if (RESULTS) {
    writeFileSync(resolve(ROOT, RESULTS), `${JSON.stringify({
      date: new Date().toISOString(), web: WEB, query: QUERY, runs: RUNS,
      entry: manifest.entry, largestPack: city, links: links.map((link, k) => ({ ...link, ...results[k] })),
    }, null, 2)}\n`);
  }
}

await main();
