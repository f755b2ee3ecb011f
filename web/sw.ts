/**
 * The service worker of the page at `/`: precaches the shell (page, script, engine module, core) at install under
 * the build's cache `address-web-<build id>`, serves the page's files cache first (the page's widget adds its
 * country's offline packs, or its whole dictionary, to the same cache), and drops the caches of older builds when it
 * activates. Before it drops one, the offline packs it holds are carried over country by country: when the new
 * build's `/web/<country>/entry.dict` is the one cached (the same cut), the entry pack and every place pack and house
 * codes pack move to the new cache, so a new page does not fetch them again. It never reads a manifest.
 * API calls are never intercepted. BUILD_ID and SHELL are filled in by web/build.ts.
 */
/// <reference lib="webworker" />

declare const BUILD_ID: string;
declare const SHELL: string[];

const worker = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `address-web-${BUILD_ID}`;

/** The page's own files: `/`, `/index.html` and everything under `/web/`. */
const isPageFile = (path: string): boolean => path === '/' || path === '/index.html' || path.startsWith('/web/');

worker.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: 'reload' })));
    await worker.skipWaiting();
  })());
});

const ENTRY = /^\/web\/([a-z]{2})\/entry\.dict$/;
/** a place's pack or its house codes pack of a country's folder */
const PACK = /^\/web\/([a-z]{2})\/(?:places|codes)\/[0-9a-z-]+\.dict$/;

const sameBytes = (a: ArrayBuffer, b: ArrayBuffer): boolean => {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
};

/**
 * The packs of an older build's cache put into this build's cache, country by country, when the new build's entry
 * pack is the one they were cut with (byte for byte: it names the dictionary's build id and its packs by index).
 */
async function carryPacks(from: Cache, to: Cache): Promise<void> {
  const paths = (await from.keys()).map((request) => new URL(request.url).pathname);
  for (const path of paths) {
    const country = ENTRY.exec(path)?.[1];
    if (!country) continue;
    try {
      const response = await fetch(path, { cache: 'no-cache' });
      if (!response.ok) continue;
      const before = await (await from.match(path))!.arrayBuffer();
      if (!sameBytes(before, await response.clone().arrayBuffer())) continue;
      await to.put(path, response);
    } catch {
      continue;
    }
    for (const file of paths) {
      const hit = PACK.exec(file)?.[1] === country ? await from.match(file) : undefined;
      if (hit) await to.put(file, hit);
    }
  }
}

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const name of await caches.keys()) {
      if (!name.startsWith('address-web-') || name === CACHE) continue;
      await carryPacks(await caches.open(name), cache);
      await caches.delete(name);
    }
    await worker.clients.claim();
  })());
});

async function cacheFirst(request: Request, path: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const key = path === '/index.html' ? '/' : path;
  const hit = await cache.match(key);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(key, response.clone());
  return response;
}

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== worker.location.origin || !isPageFile(url.pathname)) return;
  event.respondWith(cacheFirst(event.request, url.pathname));
});
