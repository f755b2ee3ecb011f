/**
 * The widget's offline hints: the in-page engine (web/engine.ts, built as `build/web/engine.mjs`), loaded from the
 * service with the core and the country's dictionary when a page that opted in (`data-offline`) first focuses a
 * hint field (`data-offline="first"` or a preload: when the widget is attached). Files are fetched network first
 * and kept in the page origin's Cache API (`address-hints-offline`, or the cache the entry names: the page at `/`
 * names its service worker's), so a later visit without the network still loads them; the module is imported from
 * the service, or from its cached text when the service cannot be reached.
 *
 * The dictionary is the country's offline packs when the service has them (`/web/<country>/manifest.json`,
 * docs/OFFLINE.md): the entry pack (regions, areas, cities, settlements) at once, a place's pack (its streets and
 * houses) when the typed words settle on the place or the user takes a hint in it, the packs of the places and
 * regions named in `data-address-hints-preload` at once, and every pack cached on an earlier visit. A hint in a place
 * whose pack is not loaded shows the place; the widget says its streets are on their way, or load when online.
 * Without packs, the country's whole web dictionary (`/web/<country>.dict`).
 *
 * In the `fallback` mode the widget keeps asking the service; when a request fails on the network, times out or gets
 * a 5xx, the engine answers, and the service is left alone for SKIP_SERVICE_MS (or while `navigator.onLine` is
 * false). In the `first` mode the engine answers every hint once it is loaded. The input says how far loading is in
 * `data-offline-state` (`loading`, `ready`, `failed`) and dispatches `address-hints:offline` with `{state, message?}`
 * when it changes; each place pack's loading is `address-hints:pack` with `{code, state, ms?}` (`loading`, `ready`,
 * `failed`).
 */
import type * as EngineModule from './engine.js';
import type { AddressRecord, PackKind, PackedEngine, WebEngine } from './engine.js';
import { codesFile, packFile, packOfFile } from '../engine/pack-files.js';

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
  /** place codes, or codes of regions and areas, whose packs are loaded at once */
  preload: string[];
}

/** The engine's hints, and the place they settle on when its pack is not loaded. */
export interface OfflineHints {
  records: AddressRecord[];
  /** the place whose streets and houses are missing from the hints (its pack not loaded yet), null when none */
  missing: { code: string; name: string; state: 'loading' | 'offline' } | null;
}

export interface OfflineEngine {
  readonly ready: boolean;
  readonly timeoutMs: number;
  /** true when the engine answers without trying the service: the network is known to be down, or the `first` mode */
  shouldSkipService(): boolean;
  /** hints; `loaded` is called once the missing place's pack is in (to ask again) */
  suggest(query: string, count: number, loaded: () => void): OfflineHints;
  /** a record the user took or the service put first: its place's pack is fetched for later (packs only) */
  settled(record: AddressRecord | undefined): void;
  /**
   * A house the user took from the engine's hints, with its registry codes: its place's house codes pack is fetched
   * (or taken from the cache) first. Offline without that pack the record keeps `houseDetails.codes` null and
   * `missing` says so.
   */
  complete(record: AddressRecord): Promise<{ record: AddressRecord; missing: string | null }>;
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

interface Loaded {
  engine: WebEngine;
  /** the same engine when it runs on packs */
  packed: PackedEngine | null;
}

/** Loads the engine: over the country's packs when the service has them, else over its whole web dictionary. */
async function loadEngine(options: OfflineOptions, packEvent: (code: string, state: OfflineState, ms?: number) => void): Promise<Loaded> {
  const { service, country } = options;
  const cache = await openCache(options.cache);
  const file = (name: string) => networkFirst(cache, `${service}/web/${name}`);
  const folder = country.toLowerCase();
  const moduleText = file('engine.mjs').then((response) => response.text());
  const optional = <T>(promise: Promise<T>): Promise<T | null> => promise.catch(() => null);
  const [module, wasm, entry] = await Promise.all([
    importEngine(`${service}/web/engine.mjs`, moduleText),
    file('core.wasm').then((response) => response.arrayBuffer()),
    optional(file(`${folder}/entry.dict`).then((response) => response.arrayBuffer())),
  ]);
  await moduleText.catch(() => {});
  if (!entry) {
    const engine = await module.createEngine(wasm, await file(`${folder}.dict`).then((response) => response.arrayBuffer()));
    return { engine, packed: null };
  }
  const base = `${service}/web/${folder}/`;
  const fetchPack = async (id: string, kind: PackKind): Promise<ArrayBuffer> => {
    const started = performance.now();
    const code = kind === 'codes' ? `codes/${id}` : id;
    packEvent(code, 'loading');
    try {
      const bytes = await (await networkFirst(cache, `${base}${kind === 'codes' ? codesFile(id) : packFile(id)}`)).arrayBuffer();
      packEvent(code, 'ready', performance.now() - started);
      return bytes;
    } catch (err) {
      packEvent(code, 'failed');
      throw err;
    }
  };
  const packed = await module.createEngine(wasm, entry, { fetchPack, preload: options.preload });
  // the packs of an earlier visit, from the cache (the engine refuses one of another cut: it is dropped)
  const cached = (await cache?.keys() ?? []).flatMap(({ url }) => {
    const id = url.startsWith(base) ? packOfFile(url.slice(base.length)) : null;
    return id === null ? [] : [{ url, id }];
  });
  await Promise.all(cached.map(async ({ url, id }) => {
    const hit = await cache?.match(url);
    if (hit) await packed.addPack(id, await hit.arrayBuffer()).catch(() => cache?.delete(url));
  }));
  return { engine: packed, packed };
}

/** What a house taken offline without its house codes pack says (its record's `houseDetails.codes` is null). */
const CODES_MISSING = 'Коды дома (ФИАС, ГАР) не загружены: нет сети';

interface Shared {
  engine: WebEngine | null;
  packed: PackedEngine | null;
  state: OfflineState;
  message: string;
  loading: Promise<void>;
  skipUntil: number;
  inputs: Set<HTMLInputElement>;
  /** packs that could not be fetched: their places load when online (tried again once the browser says it is) */
  failed: Set<string>;
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
    const created: Shared = {
      engine: null, packed: null, state: 'loading', message: '', loading: Promise.resolve(), skipUntil: 0, inputs: new Set(),
      failed: new Set(),
    };
    addEventListener('online', () => created.failed.clear());
    const packEvent = (code: string, state: OfflineState, ms?: number): void => {
      for (const each of created.inputs) {
        each.dispatchEvent(new CustomEvent('address-hints:pack', { bubbles: true, detail: ms === undefined ? { code, state } : { code, state, ms } }));
      }
    };
    created.loading = loadEngine(options, packEvent).then((loaded) => {
      created.engine = loaded.engine;
      created.packed = loaded.packed;
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
  const { failed } = own;
  const load = (code: string): Promise<void> => own.packed!.loadPack(code).catch((err: unknown) => {
    failed.add(code);
    throw err;
  });
  return {
    get ready() {
      return own.engine !== null;
    },
    timeoutMs: SERVICE_TIMEOUT_MS,
    shouldSkipService: () => own.engine !== null && (options.mode === 'first' || navigator.onLine === false || Date.now() < own.skipUntil),
    suggest(query, count, loaded) {
      if (!own.packed) return { records: own.engine?.suggest(query, count) ?? [], missing: null };
      const hint = own.packed.hint(query, count);
      if (!hint.pack || !hint.streetsMissing) return { records: hint.records, missing: null };
      const code = hint.pack;
      const offline = navigator.onLine === false || failed.has(code);
      if (!offline) load(code).then(loaded, loaded);
      return { records: hint.records, missing: { code, name: own.packed.packName(code), state: offline ? 'offline' : 'loading' } };
    },
    settled(record) {
      const code = record && own.packed?.packFor(record);
      if (code && !own.packed!.hasPack(code) && !failed.has(code)) load(code).catch(() => {});
    },
    async complete(record) {
      if (!own.packed || record.houseDetails.codes !== null || record.houseDetails.fullName === '') return { record, missing: null };
      // offline: no request that cannot be answered (a pack cached on an earlier visit is loaded already)
      if (navigator.onLine === false) return { record, missing: CODES_MISSING };
      try {
        return { record: await own.packed.complete(record), missing: null };
      } catch {
        return { record, missing: CODES_MISSING };
      }
    },
    reached() {
      own.skipUntil = 0;
    },
    unreachable() {
      own.skipUntil = Date.now() + SKIP_SERVICE_MS;
    },
  };
}
