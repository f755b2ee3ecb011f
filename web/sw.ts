/**
 * The service worker of the page at `/`: precaches the shell (page, script, engine module, core) at install under
 * the build's cache `address-web-<build id>`, serves the page's files cache first (the page's widget adds its
 * country's offline packs, or its whole dictionary, to the same cache), and drops the caches of older builds when it
 * activates. Before it drops one, the offline packs it holds are carried over with each country's manifest as the
 * list: when the new build's `/web/<country>/manifest.json` was cut from the same dictionary (its `buildId`), the
 * entry pack and every place pack it still lists move to the new cache, so a new page does not fetch them again.
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

/** What the service worker reads of a country's packs manifest (web/build-packs.ts). */
interface PacksList {
  buildId: string;
  packs: { code: string }[];
}

const MANIFEST = /^\/web\/([a-z]{2})\/manifest\.json$/;

/** The packs of an older build's cache that the new build's manifests still list, put into this build's cache. */
async function carryPacks(from: Cache, to: Cache): Promise<void> {
  const paths = (await from.keys()).map((request) => new URL(request.url).pathname);
  for (const path of paths) {
    const country = MANIFEST.exec(path)?.[1];
    if (!country) continue;
    const before = (await (await from.match(path))!.json()) as PacksList;
    let now: PacksList;
    try {
      const response = await fetch(path, { cache: 'no-cache' });
      if (!response.ok) continue;
      now = (await response.clone().json()) as PacksList;
      if (now.buildId !== before.buildId) continue;
      await to.put(path, response);
    } catch {
      continue;
    }
    const listed = new Set([`/web/${country}/entry.dict`, ...now.packs.map((pack) => `/web/${country}/places/${pack.code}.dict`)]);
    for (const file of paths) {
      const hit = listed.has(file) ? await from.match(file) : undefined;
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
