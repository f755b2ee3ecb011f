/**
 * The widget's offline hints: the in-page engine (web/engine.ts, built as `build/web/engine.mjs`), loaded from the
 * service with the core and the country's web dictionary when a page that opted in (`data-offline`) first focuses a
 * hint field (`data-offline="first"`: when the widget is attached). The three files are fetched network first and
 * kept in the page origin's Cache API (`address-hints-offline`, or the cache the entry names: the page at `/` names
 * its service worker's), so a later visit without the network still loads them; the module is imported from the
 * service, or from its cached text when the service cannot be reached.
 *
 * In the `fallback` mode the widget keeps asking the service; when a request fails on the network, times out or gets
 * a 5xx, the engine answers, and the service is left alone for SKIP_SERVICE_MS (or while `navigator.onLine` is
 * false). In the `first` mode the engine answers every hint once it is loaded.
 * The input says how far loading is in `data-offline-state` (`loading`, `ready`, `failed`) and dispatches
 * `address-hints:offline` with `{state, message?}` when it changes.
 */
import type * as EngineModule from './engine.js';
import type { AddressRecord, WebEngine } from './engine.js';

/** A service that has not answered a hint in this time counts as unreachable once the engine is loaded. */
const SERVICE_TIMEOUT_MS = 2500;
/** After the service could not be reached, hints come from the engine alone for this long. */
const SKIP_SERVICE_MS = 30_000;

export type OfflineState = 'loading' | 'ready' | 'failed';
/** `fallback`: the engine answers when the service cannot be reached; `first`: whenever it is loaded. */
export type OfflineMode = 'fallback' | 'first';

export interface OfflineOptions {
  service: string;
  country: string;
  /** the Cache API cache the files are kept in */
  cache: string;
  mode: OfflineMode;
}

export interface OfflineEngine {
  readonly ready: boolean;
  readonly timeoutMs: number;
  /** true when the engine answers without trying the service: the network is known to be down, or the `first` mode */
  shouldSkipService(): boolean;
  suggest(query: string, count: number): AddressRecord[];
  /** the service answered */
  reached(): void;
  /** the service could not be reached */
  unreachable(): void;
}

async function openCache(name: string): Promise<Cache | null> {
  try {
    return 'caches' in self ? await caches.open(name) : null;
  } catch {
    // no Cache API outside a secure context, or storage refused: the files are kept in memory only
    return null;
  }
}

/** The file from the service, kept in the cache; the cached copy when the service cannot be reached. */
async function networkFirst(cache: Cache | null, url: string): Promise<Response> {
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    await cache?.put(url, response.clone());
    return response;
  } catch (err) {
    const hit = await cache?.match(url);
    if (hit) return hit;
    throw err;
  }
}

async function importEngine(url: string, text: Promise<string>): Promise<typeof EngineModule> {
  try {
    return (await import(/* webpackIgnore: true */ url)) as typeof EngineModule;
  } catch (err) {
    // offline: the module's text from the cache, imported from a blob URL
    const source = await text.catch(() => {
      throw err;
    });
    const blob = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    try {
      return (await import(/* webpackIgnore: true */ blob)) as typeof EngineModule;
    } finally {
      URL.revokeObjectURL(blob);
    }
  }
}

async function loadEngine({ service, country, cache: cacheName }: OfflineOptions): Promise<WebEngine> {
  const cache = await openCache(cacheName);
  const file = (name: string) => networkFirst(cache, `${service}/web/${name}`);
  const moduleText = file('engine.mjs').then((response) => response.text());
  const [module, wasm, dictionary] = await Promise.all([
    importEngine(`${service}/web/engine.mjs`, moduleText),
    file('core.wasm').then((response) => response.arrayBuffer()),
    file(`${country.toLowerCase()}.dict`).then((response) => response.arrayBuffer()),
  ]);
  await moduleText.catch(() => {});
  return module.createEngine(wasm, dictionary);
}

interface Shared {
  engine: WebEngine | null;
  state: OfflineState;
  message: string;
  loading: Promise<void>;
  skipUntil: number;
  inputs: Set<HTMLInputElement>;
}

/** One engine per service and country, shared by the page's inputs. */
const SHARED = new Map<string, Shared>();

function announce(shared: Shared, input: HTMLInputElement): void {
  input.dataset.offlineState = shared.state;
  input.dispatchEvent(new CustomEvent('address-hints:offline', {
    bubbles: true,
    detail: shared.message ? { state: shared.state, message: shared.message } : { state: shared.state },
  }));
}

const keyOf = (service: string, country: string): string => `${service} ${country.toLowerCase()}`;

/** The engine loaded for a service and a country, null before (the page at `/` standardizes with it). */
export function loadedEngine(service: string, country: string): WebEngine | null {
  return SHARED.get(keyOf(service, country))?.engine ?? null;
}

/** The input's offline engine: loading starts now (once per service and country). */
export function offlineEngine(options: OfflineOptions, input: HTMLInputElement): OfflineEngine {
  const key = keyOf(options.service, options.country);
  let shared = SHARED.get(key);
  if (!shared) {
    const created: Shared = { engine: null, state: 'loading', message: '', loading: Promise.resolve(), skipUntil: 0, inputs: new Set() };
    created.loading = loadEngine(options).then((engine) => {
      created.engine = engine;
      created.state = 'ready';
    }, (err: unknown) => {
      created.state = 'failed';
      created.message = err instanceof Error ? err.message : String(err);
    }).then(() => {
      for (const each of created.inputs) announce(created, each);
    });
    SHARED.set(key, created);
    shared = created;
  }
  const own = shared;
  own.inputs.add(input);
  announce(own, input);
  return {
    get ready() {
      return own.engine !== null;
    },
    timeoutMs: SERVICE_TIMEOUT_MS,
    shouldSkipService: () => own.engine !== null && (options.mode === 'first' || navigator.onLine === false || Date.now() < own.skipUntil),
    suggest: (query, count) => own.engine?.suggest(query, count) ?? [],
    reached() {
      own.skipUntil = 0;
    },
    unreachable() {
      own.skipUntil = Date.now() + SKIP_SERVICE_MS;
    },
  };
}
