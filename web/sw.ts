/**
 * The service worker of the page at `/`: precaches the shell (page, script, engine module, core) at install under
 * the build's cache `address-web-<build id>`, serves the page's files cache first (the page's widget adds its
 * country's dictionary to the same cache), and drops the caches of older builds when it activates.
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

worker.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('address-web-') && name !== CACHE) await caches.delete(name);
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
