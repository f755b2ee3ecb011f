/**
 * The network cut for the browser tests: every request that leaves a page or its service worker recorded and
 * aborted, and the browser told it is offline. What is proved with it (nothing reached the network, the server
 * received nothing) does not hang on how a browser version reports `navigator.onLine`.
 */
import type { BrowserContext } from 'playwright-core';

/** Cuts the network: every request of the context pushed onto `leaked` (method and URL) and aborted, the browser offline. */
export async function cut(context: BrowserContext, leaked: string[]): Promise<void> {
  await context.route('**/*', (route) => {
    leaked.push(`${route.request().method()} ${route.request().url()}`);
    return route.abort('internetdisconnected');
  });
  await context.setOffline(true);
}

/**
 * The browser told anew that it is offline, the routes still cut: a page reloaded under the offline emulation says
 * `navigator.onLine` true in Chromium 150 (Debian's 150.0.7871.100, 2026-12), as a page loaded from a cache may in
 * any browser; told again, it says false, as a browser with no network does.
 */
export async function tellOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(false);
  await context.setOffline(true);
}

/** The network back: no route cut, the browser online. */
export async function restore(context: BrowserContext): Promise<void> {
  await context.unrouteAll();
  await context.setOffline(false);
}
