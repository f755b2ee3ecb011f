/**
 * The page at `/`: the hints widget (web/widget.ts) on its `input[data-address-hints]`, with offline hints in the
 * `first` mode (the in-page engine answers once it is loaded, online or not; the service's
 * POST /api/v1/suggest/address before that), and the chosen address expanded into its fields from the widget's
 * events. The widget keeps the engine, the core and the dictionary (the country's offline packs: the entry pack at
 * once, a place's pack when the hints settle on it; `?preload=<codes>` preloads places and regions) in the build's
 * cache, which the service worker (web/sw.ts) shares and serves the page from when offline. Enter with no hint
 * chosen standardizes what was typed.
 *
 * For tests and measurements the page exposes `window.addressHints`: `ready` (the engine loaded), `offlineReady`
 * (and the service worker active with every file cached), `timings` (keystroke → hints rendered, per list shown)
 * and `packs` (each place pack's loading).
 */
import type { AddressRecord } from './engine.js';
import { attach, setDefaults } from './widget.js';
import { loadedEngine, type OfflineState } from './widget-offline.js';

interface PageManifest {
  buildId: string;
  countries: { country: string; bytes: number; gzipBytes: number; objects: number; houses: number; sourceDate: string }[];
}

export interface HintTiming {
  query: string;
  /** keystroke → hints in the DOM and a frame rendered */
  ms: number;
  /** the engine's suggest call (records included) alone; the API round trip when online */
  engineMs: number;
  count: number;
  source: 'browser' | 'api';
}

/** A place pack's loading, as the widget says it in `address-hints:pack`. */
export interface PackEvent {
  code: string;
  state: OfflineState;
  /** fetched in (ready only) */
  ms?: number;
}

interface PageState {
  ready: boolean;
  offlineReady: boolean;
  error: string;
  timings: HintTiming[];
  packs: PackEvent[];
}

/** What the widget says in `address-hints:shown`. */
interface ShownDetail {
  query: string;
  count: number;
  source: 'service' | 'offline';
  ms: number;
}

declare global {
  interface Window {
    addressHints: PageState;
  }
}

const COUNTRY_NAMES: Record<string, string> = { ru: 'Россия', kz: 'Казахстан', by: 'Беларусь', ua: 'Украина' };

const manifest = JSON.parse(document.getElementById('manifest')!.textContent!) as PageManifest;
const CACHE = `address-web-${manifest.buildId}`;
const requested = new URLSearchParams(location.search).get('country')?.toLowerCase() ?? 'ru';
const countryInfo = manifest.countries.find((c) => c.country === requested) ?? manifest.countries[0];
const country = countryInfo?.country ?? 'ru';

const input = document.getElementById('address') as HTMLInputElement;
const statusLine = document.getElementById('status') as HTMLElement;
const networkLine = document.getElementById('network') as HTMLElement;
const timingLine = document.getElementById('timing') as HTMLElement;
const details = document.getElementById('details') as HTMLElement;
const detailsTitle = document.getElementById('details-title') as HTMLElement;
const fields = document.getElementById('fields') as HTMLDListElement;
const countrySelect = document.getElementById('country') as HTMLSelectElement;

const state: PageState = { ready: false, offlineReady: false, error: '', timings: [], packs: [] };
window.addressHints = state;


// ---- the chosen address ----

function row(label: string, field: string, value: string | Node | null): void {
  const dt = document.createElement('dt');
  dt.textContent = label;
  const dd = document.createElement('dd');
  dd.dataset.field = field;
  if (value === null || value === '') {
    dd.textContent = '—';
    dd.classList.add('empty');
  } else dd.append(value);
  fields.append(dt, dd);
}

function codesOf(record: AddressRecord): { owner: string; codes: Record<string, string> } | null {
  const house = record.houseDetails.codes;
  if (house && Object.values(house).some(Boolean)) return { owner: 'дом', codes: { ...house } };
  const levels: [string, keyof AddressRecord][] = [
    ['улица', 'street'], ['элемент планировочной структуры', 'planStructure'], ['населённый пункт', 'settlement'],
    ['район города', 'cityArea'], ['город', 'city'], ['район', 'area'], ['регион', 'region'],
  ];
  for (const [owner, key] of levels) {
    const level = record[key] as AddressRecord['region'] | null;
    if (level?.fullName && Object.values(level.codes).some(Boolean)) return { owner, codes: { ...level.codes } };
  }
  return null;
}

function codesNode(record: AddressRecord): Node | string | null {
  // a house taken offline before its place's house codes pack was loaded: its codes are not known here, not its street's
  if (record.houseDetails.fullName && record.houseDetails.codes === null) return 'коды дома не загружены (нет сети)';
  const found = codesOf(record);
  if (!found) return null;
  const box = document.createElement('div');
  box.className = 'codes';
  for (const [name, value] of Object.entries(found.codes)) {
    if (!value) continue;
    const label = document.createElement('span');
    label.textContent = name.toUpperCase();
    const code = document.createElement('code');
    code.textContent = value;
    box.append(label, code);
  }
  const note = document.createElement('span');
  note.textContent = `коды: ${found.owner}`;
  box.append(document.createElement('span'), note);
  return box;
}

function showDetails(record: AddressRecord): void {
  const h = record.houseDetails;
  detailsTitle.textContent = record.addressFull || 'Адрес не распознан';
  fields.replaceChildren();
  row('Индекс', 'postcode', record.postcode);
  row('Регион', 'region', record.region.fullName);
  if (record.area.fullName) row('Район', 'area', record.area.fullName);
  row('Город', 'city', record.city.fullName);
  if (record.cityArea.fullName) row('Район города', 'cityArea', record.cityArea.fullName);
  if (record.settlement.fullName) row('Населённый пункт', 'settlement', record.settlement.fullName);
  if (record.planStructure.fullName) row('Планировочная структура', 'planStructure', record.planStructure.fullName);
  row('Улица', 'street', record.street.fullName);
  row('Дом', 'house', h.house || (h.stead ? `участок ${h.stead}` : ''));
  if (h.case) row('Корпус', 'case', h.case);
  if (h.build) row('Строение', 'build', h.build);
  if (h.liter) row('Литера', 'liter', h.liter);
  row('Квартира', 'flat', h.flat || h.office);
  const { latitude, longitude } = record.coordinates;
  row('Координаты', 'coordinates', latitude || longitude ? `${latitude.toFixed(6)}, ${longitude.toFixed(6)}` : '');
  if (record.timezone) row('Часовой пояс', 'timezone', record.timezone);
  row('Коды', 'codes', codesNode(record));
  details.hidden = false;
}

/** Enter with no hint chosen: the typed address standardized, by the in-page engine once loaded, else the service. */
function standardizeTyped(): void {
  const query = input.value.trim();
  if (!query) return;
  const engine = loadedEngine(location.origin, country);
  if (engine) {
    showDetails(engine.standardize(query));
    return;
  }
  void fetch('/api/v1/clean/address', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, countryCode: country }),
  }).then(async (response) => {
    if (response.ok) showDetails((await response.json()) as AddressRecord);
  }).catch(() => {});
}

// ---- the widget's events ----

/** When the keystroke that the next hints answer was made (or the street was taken). */
let startedAt = 0;
let keyAt = 0;

input.addEventListener('keydown', (event) => {
  keyAt = event.timeStamp || performance.now();
});
input.addEventListener('input', (event) => {
  // the keydown that typed this, if there was one (text inserted by an IME or a paste has none)
  startedAt = keyAt > 0 && event.timeStamp - keyAt < 500 ? keyAt : event.timeStamp;
  keyAt = 0;
});
input.addEventListener('address-hints:shown', (event) => {
  const { query, count, source, ms: engineMs } = (event as CustomEvent<ShownDetail>).detail;
  const started = startedAt || performance.now();
  // the list is in the DOM: the time is taken once a frame with it is drawn
  requestAnimationFrame(() => {
    const ms = performance.now() - started;
    state.timings.push({ query, ms, engineMs, count, source: source === 'offline' ? 'browser' : 'api' });
    timingLine.textContent = `${count} ${source === 'offline' ? 'в браузере' : 'с сервера'} за ${ms.toFixed(1)} мс`;
  });
});
input.addEventListener('address-hints:street', (event) => {
  startedAt = performance.now();
  showDetails((event as CustomEvent<AddressRecord>).detail);
});
input.addEventListener('address-hints:select', (event) => showDetails((event as CustomEvent<AddressRecord>).detail));
input.addEventListener('address-hints:pack', (event) => {
  const pack = (event as CustomEvent<PackEvent>).detail;
  state.packs.push(pack);
  if (pack.state === 'ready') timingLine.textContent = `улицы и дома места загружены за ${Math.round(pack.ms ?? 0)} мс`;
});

const loadStarted = performance.now();
/** Settles when the widget's engine is loaded (or failed to load). */
const engineLoaded = new Promise<void>((resolve, reject) => {
  input.addEventListener('address-hints:offline', (event) => {
    const { state: offline, message } = (event as CustomEvent<{ state: OfflineState; message?: string }>).detail;
    if (offline === 'ready') {
      state.ready = true;
      statusLine.dataset.state = 'ready';
      // with offline packs the places are in the browser now, their streets and houses as the hints reach them
      statusLine.textContent = `подсказки в браузере готовы за ${Math.round(performance.now() - loadStarted)} мс; словарь ` +
        `${country.toUpperCase()}: ${(countryInfo?.objects ?? 0).toLocaleString('ru')} объектов, ${(countryInfo?.houses ?? 0).toLocaleString('ru')} домов`;
      resolve();
    } else if (offline === 'failed') {
      statusLine.dataset.state = 'error';
      statusLine.textContent = `словарь не загружен (${message}); подсказки с сервера`;
      reject(new Error(message));
    }
  });
});

setDefaults({ service: location.origin, cache: CACHE });
input.dataset.country = country.toUpperCase();
const preload = new URLSearchParams(location.search).get('preload');
if (preload) input.dataset.addressHintsPreload = preload;
attach(input);
// registered after the widget's own keydown listener: a hint it took has the event's default prevented
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.defaultPrevented) {
    event.preventDefault();
    standardizeTyped();
  }
});

// ---- the country, the network ----

for (const c of manifest.countries) {
  const option = new Option(`${COUNTRY_NAMES[c.country] ?? c.country.toUpperCase()}`, c.country, c.country === country, c.country === country);
  countrySelect.append(option);
}
countrySelect.addEventListener('change', () => {
  location.search = `?country=${countrySelect.value}`;
});

function showNetwork(): void {
  networkLine.textContent = navigator.onLine ? 'в сети' : 'без сети';
  networkLine.dataset.state = navigator.onLine ? 'ready' : 'loading';
}
addEventListener('online', showNetwork);
addEventListener('offline', showNetwork);
showNetwork();

// ---- the service worker ----

async function registerWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) throw new Error('no service workers in this browser');
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
}

/**
 * Everything the page needs offline is in the cache: the worker's shell, and the dictionary the widget put there
 * (the country's entry pack, or its whole web dictionary where it has no packs).
 */
async function assertCachedForOffline(): Promise<void> {
  const cache = await caches.open(CACHE);
  const packs = await cache.match(`/web/${country}/entry.dict`);
  const dictionary = packs ? [`/web/${country}/entry.dict`] : [`/web/${country}.dict`];
  for (const url of ['/', '/web/app.js', '/web/engine.mjs', '/web/core.wasm', ...dictionary]) {
    if (!(await cache.match(url))) throw new Error(`${url} is not cached`);
  }
}

// checked once both are done: the widget caches the dictionary, which may finish after the worker is ready
Promise.all([engineLoaded, registerWorker()]).then(async () => {
  await assertCachedForOffline();
  state.offlineReady = state.ready;
  document.documentElement.dataset.offline = state.offlineReady ? 'ready' : 'no';
}).catch((err: unknown) => {
  state.error ||= String(err instanceof Error ? err.message : err);
  document.documentElement.dataset.offline = 'no';
});
