/**
 * The page at `/`: an address field with hints, keyboard navigation and the chosen address expanded into
 * its fields. Hints come from the in-browser engine (web/engine.ts, the server's own core and record
 * builders over a web dictionary) as soon as it is loaded, online or not; until then, from the server's
 * POST /api/v1/suggest/address. The wasm and the dictionary are kept in the Cache API under the build's
 * cache, which the service worker (web/sw.ts) shares and serves the page from when offline.
 *
 * For tests and measurements the page exposes `window.addressHints`: `ready` (engine loaded and the
 * service worker active with every file cached) and `timings` (keystroke → hints rendered, per keystroke).
 */
import { createEngine, type AddressRecord, type WebEngine } from './engine.js';
import { foldCase } from '../format/fold.js';

interface PageManifest {
  buildId: string;
  countries: { country: string; bytes: number; gzipBytes: number; objects: number; houses: number; sourceDate: string }[];
}

export interface HintTiming {
  query: string;
  /** keydown → hints in the DOM and a frame rendered */
  ms: number;
  /** the engine's suggest call (records included) alone; the API round trip when online */
  engineMs: number;
  count: number;
  source: 'browser' | 'api';
}

interface PageState {
  ready: boolean;
  offlineReady: boolean;
  error: string;
  timings: HintTiming[];
  engine: WebEngine | null;
}

declare global {
  interface Window {
    addressHints: PageState;
  }
}

const COUNTRY_NAMES: Record<string, string> = { ru: 'Россия', kz: 'Казахстан', by: 'Беларусь', ua: 'Украина' };
const HINT_COUNT = 10;
const API_DELAY_MS = 120;

const manifest = JSON.parse(document.getElementById('manifest')!.textContent!) as PageManifest;
const CACHE = `address-web-${manifest.buildId}`;
const requested = new URLSearchParams(location.search).get('country')?.toLowerCase() ?? 'ru';
const countryInfo = manifest.countries.find((c) => c.country === requested) ?? manifest.countries[0];
const country = countryInfo?.country ?? 'ru';

const input = document.getElementById('address') as HTMLInputElement;
const list = document.getElementById('suggestions') as HTMLUListElement;
const statusLine = document.getElementById('status') as HTMLElement;
const networkLine = document.getElementById('network') as HTMLElement;
const timingLine = document.getElementById('timing') as HTMLElement;
const details = document.getElementById('details') as HTMLElement;
const detailsTitle = document.getElementById('details-title') as HTMLElement;
const fields = document.getElementById('fields') as HTMLDListElement;
const countrySelect = document.getElementById('country') as HTMLSelectElement;

const state: PageState = { ready: false, offlineReady: false, error: '', timings: [], engine: null };
window.addressHints = state;

let hints: AddressRecord[] = [];
let active = -1;
let keyAt = 0;
let apiTimer = 0;
let apiSeq = 0;

const megabytes = (bytes: number): string => `${(bytes / 1048576).toFixed(1).replace('.', ',')} МБ`;

// ---- hints ----

/** The hint's text with the typed word beginnings in <mark>; its textContent stays addressFull. */
function highlighted(text: string, query: string): DocumentFragment {
  const words = foldCase(query).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const out = document.createDocumentFragment();
  for (const piece of text.split(/([\p{L}\p{N}]+)/u)) {
    const folded = foldCase(piece);
    const match = /[\p{L}\p{N}]/u.test(piece) ? words.filter((w) => folded.startsWith(w)).sort((a, b) => b.length - a.length)[0] : undefined;
    if (!match) {
      out.append(piece);
      continue;
    }
    const mark = document.createElement('mark');
    mark.textContent = piece.slice(0, match.length);
    out.append(mark, piece.slice(match.length));
  }
  return out;
}

function setActive(index: number): void {
  active = index;
  list.querySelectorAll('li').forEach((li, i) => li.setAttribute('aria-selected', String(i === index)));
  const item = index >= 0 ? list.children[index] as HTMLElement | undefined : undefined;
  if (item) {
    input.setAttribute('aria-activedescendant', item.id);
    item.scrollIntoView({ block: 'nearest' });
  } else input.removeAttribute('aria-activedescendant');
}

function closeList(): void {
  list.hidden = true;
  input.setAttribute('aria-expanded', 'false');
  setActive(-1);
}

function render(records: AddressRecord[], query: string): void {
  hints = records;
  active = -1;
  const items = records.map((record, i) => {
    const li = document.createElement('li');
    li.id = `hint-${i}`;
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', 'false');
    li.append(highlighted(record.addressFull, query));
    return li;
  });
  list.replaceChildren(...items);
  list.hidden = items.length === 0;
  input.setAttribute('aria-expanded', String(items.length > 0));
  input.removeAttribute('aria-activedescendant');
}

/** Records how long the keystroke took to show as hints: the DOM is updated, then one frame is drawn. */
function measure(query: string, started: number, engineMs: number, count: number, source: HintTiming['source']): void {
  requestAnimationFrame(() => {
    const ms = performance.now() - started;
    state.timings.push({ query, ms, engineMs, count, source });
    timingLine.textContent = `${count} ${source === 'browser' ? 'в браузере' : 'с сервера'} за ${ms.toFixed(1)} мс`;
  });
}

async function fromApi(query: string, started: number): Promise<void> {
  const seq = ++apiSeq;
  const t0 = performance.now();
  try {
    const response = await fetch('/api/v1/suggest/address', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, count: HINT_COUNT, countryCode: country }),
    });
    if (!response.ok) return;
    const body = (await response.json()) as { suggestions: AddressRecord[] };
    if (seq !== apiSeq || input.value !== query || state.engine) return;
    render(body.suggestions, query);
    measure(query, started, performance.now() - t0, body.suggestions.length, 'api');
  } catch {
    // offline before the engine loaded: nothing to show yet
  }
}

function update(started: number): void {
  const query = input.value;
  clearTimeout(apiTimer);
  if (state.engine) {
    const t0 = performance.now();
    const records = state.engine.suggest(query, HINT_COUNT);
    const engineMs = performance.now() - t0;
    render(records, query);
    measure(query, started, engineMs, records.length, 'browser');
  } else if (navigator.onLine && query.trim()) {
    apiTimer = window.setTimeout(() => void fromApi(query, started), API_DELAY_MS);
  }
}

// ---- the chosen address ----

const isHouse = (record: AddressRecord): boolean => Boolean(record.houseDetails.house || record.houseDetails.stead);

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

function codesNode(record: AddressRecord): Node | null {
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
  const owner = document.createElement('span');
  owner.textContent = '';
  const note = document.createElement('span');
  note.textContent = `коды: ${found.owner}`;
  box.append(owner, note);
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

function choose(record: AddressRecord): void {
  showDetails(record);
  if (isHouse(record)) {
    input.value = record.addressFull;
    closeList();
    return;
  }
  // a street or a settlement: keep typing the house
  input.value = `${record.addressFull} `;
  input.focus();
  update(performance.now());
}

function standardizeTyped(): void {
  const query = input.value.trim();
  if (!query) return;
  closeList();
  if (state.engine) {
    showDetails(state.engine.standardize(query));
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

// ---- events ----

input.addEventListener('keydown', (event) => {
  keyAt = event.timeStamp || performance.now();
  const open = !list.hidden && hints.length > 0;
  switch (event.key) {
    case 'ArrowDown':
      if (!open) return;
      event.preventDefault();
      setActive(active + 1 >= hints.length ? 0 : active + 1);
      break;
    case 'ArrowUp':
      if (!open) return;
      event.preventDefault();
      setActive(active <= 0 ? hints.length - 1 : active - 1);
      break;
    case 'Enter':
      event.preventDefault();
      if (open && active >= 0) choose(hints[active]);
      else standardizeTyped();
      break;
    case 'Escape':
      if (open) {
        event.preventDefault();
        closeList();
      }
      break;
  }
});

input.addEventListener('input', (event) => {
  // the keydown that typed this, if there was one (text inserted by an IME or a paste has none)
  const started = keyAt > 0 && event.timeStamp - keyAt < 500 ? keyAt : event.timeStamp;
  keyAt = 0;
  update(started);
});
input.addEventListener('focus', () => {
  if (hints.length) {
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }
});
input.addEventListener('blur', () => setTimeout(closeList, 150));
list.addEventListener('mousedown', (event) => {
  const li = (event.target as HTMLElement).closest('li');
  if (!li) return;
  event.preventDefault();
  choose(hints[[...list.children].indexOf(li)]);
});

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

// ---- loading: cache, engine, service worker ----

/** A file from the build's cache; fetched and cached on a miss. */
async function cached(url: string): Promise<ArrayBuffer> {
  const cache = 'caches' in self ? await caches.open(CACHE) : null;
  const hit = await cache?.match(url);
  if (hit) return hit.arrayBuffer();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  await cache?.put(url, response.clone());
  return response.arrayBuffer();
}

async function loadEngine(): Promise<void> {
  const t0 = performance.now();
  const [wasm, dictionary] = await Promise.all([cached('/web/core.wasm'), cached(`/web/${country}.dict`)]);
  const engine = await createEngine(wasm, dictionary);
  state.engine = engine;
  state.ready = true;
  const info = engine.dictionary;
  statusLine.dataset.state = 'ready';
  statusLine.textContent = `словарь ${info.country.toUpperCase()} в браузере: ${info.objects.toLocaleString('ru')} объектов, ` +
    `${info.houses.toLocaleString('ru')} домов, ${megabytes(countryInfo?.bytes ?? dictionary.byteLength)}, загружен за ${Math.round(performance.now() - t0)} мс`;
  if (input.value) update(performance.now());
}

async function registerWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) throw new Error('no service workers in this browser');
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
}

/** Everything the page needs offline is in the cache: the worker's shell, and the dictionary `loadEngine` put there. */
async function assertCachedForOffline(): Promise<void> {
  const cache = await caches.open(CACHE);
  for (const url of ['/', '/web/app.js', '/web/core.wasm', `/web/${country}.dict`]) {
    if (!(await cache.match(url))) throw new Error(`${url} is not cached`);
  }
}

const engineLoaded = loadEngine().catch((err: unknown) => {
  state.error = String(err instanceof Error ? err.message : err);
  statusLine.dataset.state = 'error';
  statusLine.textContent = `словарь не загружен (${state.error}); подсказки с сервера`;
});
const workerReady = registerWorker();
// checked once both are done: the dictionary is cached by loadEngine, which may finish after the worker is ready
Promise.all([engineLoaded, workerReady]).then(async () => {
  await assertCachedForOffline();
  state.offlineReady = state.ready;
  document.documentElement.dataset.offline = state.offlineReady ? 'ready' : 'no';
}).catch((err: unknown) => {
  state.error ||= String(err instanceof Error ? err.message : err);
  document.documentElement.dataset.offline = 'no';
});
