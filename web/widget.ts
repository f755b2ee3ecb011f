/**
 * The embeddable hints widget. Two builds of it (web/widget-bundle.ts): `/widget.js`, a classic script that attaches
 * itself (web/widget-script.ts, compiled by host/routes/widget.ts), and `build/web/widget.mjs`, an ES module that
 * exports `attach` and `detach` and attaches nothing by itself (web/widget-module.ts):
 *
 *   <script src="https://addr.example/widget.js" data-offline defer></script>
 *   <input name="address" data-address-hints data-count="7" data-country="RU">
 *
 * turns every `input[data-address-hints]` of the page (those added later too) into an ARIA 1.2 combobox over the
 * service's `POST /api/v1/suggest/address`, asked from the page's origin (CORS): hints as the user types,
 * ↑ ↓ to move, Enter to choose, Escape to close, a mouse click to choose. Choosing a street keeps the list open for
 * the house number; choosing a house (or anything with its house part) closes it and dispatches
 * `address-hints:select` on the input, its `detail` the service's AddressRecord. Inputs of the same form marked
 * `data-address-field="postcode|region|area|city|settlement|street|house|flat|latitude|longitude|fias|address"`
 * are filled from it. Attributes: `data-service` (another service URL), `data-key` (an API key, sent as
 * `Authorization: Token …`), `data-count` (default 7), `data-country` (default RU), `data-offline` (on the script
 * tag or the input: hints from the in-page engine when the service cannot be reached, web/widget-offline.ts;
 * `data-offline="first"`: from the engine as soon as it is loaded, online or not, the service only before that).
 * Every list of hints shown dispatches `address-hints:shown` with `{query, count, source, ms}`. A page that styles
 * the widget itself (or whose Content-Security-Policy refuses injected styles) holds a `<style id="address-hints-style">`;
 * the widget then adds none.
 */
import type { AddressRecord } from './engine.js';
import { foldCase } from '../format/fold.js';
import { offlineEngine, type OfflineEngine, type OfflineMode } from './widget-offline.js';

type Level = AddressRecord['street'];

interface Widget {
  input: HTMLInputElement;
  list: HTMLUListElement;
  status: HTMLElement;
  /** says when the hints' place has its streets still to load (offline packs) */
  note: HTMLElement;
  hints: AddressRecord[];
  /** the words of what the hints shown were asked for, folded (`typedWords`: their beginnings are marked in the hints) */
  words: string[];
  active: number;
  timer: number;
  /** a keystroke's request waits for the pause in typing (the list is `aria-busy` until its answer is shown) */
  waiting: boolean;
  request: AbortController | null;
  /** the sequence number of the last request sent: an older answer arriving late is dropped */
  sent: number;
  /** the in-page engine when the page opted in to offline hints (loaded at the first focus) */
  offline: OfflineEngine | null;
  detach(): void;
}

/** What the entry sets: the service's URL, whether every input hints offline, the Cache API cache of the offline files. */
export interface WidgetDefaults {
  service: string;
  offline: boolean;
  cache: string;
  /** `data-address-hints-preload` of the script tag: places and regions whose offline packs load at once */
  preload: string;
}

const SELECTOR = 'input[data-address-hints]';
const DEBOUNCE_MS = 120;
const MIN_LETTERS = 3;
const DEFAULT_COUNT = 7;
const WIDGETS = new WeakMap<HTMLInputElement, Widget>();
let nextId = 0;

const DEFAULTS: WidgetDefaults = { service: location.origin, offline: false, cache: 'address-hints-offline', preload: '' };

/** The entries' settings: the script's own origin and `data-offline` (widget-script.ts), the module's (widget-module.ts). */
export function setDefaults(defaults: Partial<WidgetDefaults>): void {
  Object.assign(DEFAULTS, defaults);
}

const STYLE = `
.ah-box{position:relative;display:inline-block}
.ah-popup{position:absolute;left:0;right:0;top:100%;z-index:2147483000;min-width:16em}
.ah-list{margin:2px 0 0;padding:0;list-style:none;background:#fff;
 border:1px solid #b8b8b8;border-radius:4px;box-shadow:0 4px 12px rgba(0,0,0,.15);max-height:20em;overflow-y:auto;font:inherit;min-width:16em}
.ah-list[hidden]{display:none}
.ah-option{padding:.35em .6em;cursor:pointer;color:#222}
.ah-option[aria-selected="true"]{background:#e8f0fe}
.ah-option mark{background:none;color:inherit;font-weight:600}
.ah-note{padding:.3em .6em;background:#fff8e1;color:#5c4400;font-size:.85em;border:1px solid #e6d8a8;border-radius:0 0 4px 4px}
.ah-note[hidden]{display:none}
.ah-status{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

function injectStyle(): void {
  if (document.getElementById('address-hints-style')) return;
  const style = document.createElement('style');
  style.id = 'address-hints-style';
  style.textContent = STYLE;
  document.head.appendChild(style);
}

const letters = (text: string): number => (text.match(/\p{L}/gu) ?? []).length;

function serviceOf(input: HTMLInputElement): string {
  return (input.dataset.service || DEFAULTS.service).replace(/\/+$/, '');
}

const countryOf = (input: HTMLInputElement): string => input.dataset.country || 'RU';

/** A query's words, folded as `highlighted` compares them. */
const typedWords = (query: string): string[] => foldCase(query).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The hint's text with the beginnings of the typed words (`typedWords`) in `<mark>`; its textContent stays the text. */
function highlighted(text: string, words: string[]): DocumentFragment {
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

/**
 * Shows hints (the service's or the in-page engine's) in the list, `source` on the list's `data-source`, and says so
 * in `address-hints:shown` (`ms`: the service's round trip or the engine's call).
 */
function show(widget: Widget, query: string, hints: AddressRecord[], source: 'service' | 'offline', ms: number): void {
  widget.hints = hints;
  widget.words = typedWords(query);
  widget.active = -1;
  widget.list.dataset.source = source;
  render(widget);
  widget.input.dispatchEvent(new CustomEvent('address-hints:shown', { bubbles: true, detail: { query, count: hints.length, source, ms } }));
}

/** The in-page engine's hints, shown at once; a place whose streets are still to load is said so under them. */
function showOffline(widget: Widget, offline: OfflineEngine, query: string, count: number): void {
  const started = performance.now();
  // once the place's pack is in, the same text is asked again
  const hints = offline.suggest(query, count, () => {
    if (widget.input.value === query && document.activeElement === widget.input) void ask(widget);
  });
  show(widget, query, hints.records, 'offline', performance.now() - started);
  const { note } = widget;
  const missing = hints.missing;
  if (!missing) return;
  note.dataset.pack = missing.code;
  note.dataset.state = missing.state;
  note.textContent = missing.state === 'loading'
    ? `Загружаются улицы и дома: ${missing.name}…`
    : `Улицы и дома (${missing.name}) загрузятся, когда будет сеть`;
  note.hidden = false;
  widget.status.textContent += `. ${note.textContent}`;
}

function render(widget: Widget): void {
  const { input, list, hints, note } = widget;
  list.textContent = '';
  note.hidden = true;
  hints.forEach((hint, i) => {
    const option = document.createElement('li');
    option.id = `${list.id}-${i}`;
    option.className = 'ah-option';
    option.setAttribute('role', 'option');
    option.setAttribute('aria-selected', String(i === widget.active));
    option.append(highlighted(hint.addressFull, widget.words));
    // mousedown, not click: the input keeps its focus
    option.addEventListener('mousedown', (event) => {
      event.preventDefault();
      choose(widget, i);
    });
    list.appendChild(option);
  });
  const open = hints.length > 0;
  list.hidden = !open;
  input.setAttribute('aria-expanded', String(open));
  if (widget.active >= 0 && open) input.setAttribute('aria-activedescendant', `${list.id}-${widget.active}`);
  else input.removeAttribute('aria-activedescendant');
  widget.status.textContent = open ? `${hints.length} подсказок, ↑ ↓ для выбора` : '';
}

function close(widget: Widget): void {
  widget.hints = [];
  widget.active = -1;
  render(widget);
}

function move(widget: Widget, step: number): void {
  if (widget.hints.length === 0) return;
  const count = widget.hints.length;
  widget.active = widget.active < 0 ? (step > 0 ? 0 : count - 1) : (widget.active + step + count) % count;
  render(widget);
  widget.list.children[widget.active]?.scrollIntoView?.({ block: 'nearest' });
}

/** The list is settled (`aria-busy` removed) once the answer to the last keystroke is shown or closed. */
function settle(widget: Widget, sequence: number): void {
  if (sequence === widget.sent && !widget.waiting) widget.list.removeAttribute('aria-busy');
}

async function ask(widget: Widget): Promise<void> {
  const { input, offline } = widget;
  const query = input.value;
  if (letters(query) < MIN_LETTERS) {
    close(widget);
    settle(widget, widget.sent);
    return;
  }
  widget.request?.abort();
  const request = new AbortController();
  widget.request = request;
  const sequence = ++widget.sent;
  const count = Number(input.dataset.count) || DEFAULT_COUNT;
  if (offline?.shouldSkipService()) {
    showOffline(widget, offline, query, count);
    settle(widget, sequence);
    return;
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (input.dataset.key) headers.Authorization = `Token ${input.dataset.key}`;
  // with the engine at hand, a service that does not answer in time counts as unreachable
  const timer = offline?.ready ? setTimeout(() => request.abort(), offline.timeoutMs) : 0;
  const started = performance.now();
  try {
    const reply = await fetch(`${serviceOf(input)}/api/v1/suggest/address`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, count, countryCode: countryOf(input) }),
      signal: request.signal,
    });
    // a gateway's 502 page is no JSON: the status is read first
    if (reply.status >= 500 && offline?.ready) throw new TypeError(`HTTP ${reply.status}`);
    const body = (await reply.json()) as { suggestions?: AddressRecord[]; message?: string };
    if (sequence !== widget.sent) return;
    if (!reply.ok) throw new Error(body.message ?? `HTTP ${reply.status}`);
    offline?.reached();
    show(widget, query, body.suggestions ?? [], 'service', performance.now() - started);
    // the place the service's first hint is in: its offline pack is fetched for later
    offline?.settled(body.suggestions?.[0]);
  } catch (err) {
    if (sequence !== widget.sent) return;
    // unreachable (a network error, a timeout, the service down): the in-page engine answers
    if (offline?.ready && (err instanceof TypeError || request.signal.aborted)) {
      offline.unreachable();
      showOffline(widget, offline, query, count);
      return;
    }
    if ((err as Error).name === 'AbortError') return;
    close(widget);
    input.dispatchEvent(new CustomEvent('address-hints:error', { bubbles: true, detail: { message: (err as Error).message } }));
  } finally {
    clearTimeout(timer);
    settle(widget, sequence);
  }
}

/** What `data-address-field` names, read from a record. */
function fieldValue(record: AddressRecord, field: string): string {
  switch (field) {
    case 'address': return record.addressFull;
    case 'postcode': return record.postcode;
    case 'house': return record.houseDetails.house;
    case 'flat': return record.houseDetails.flat;
    case 'latitude': return record.coordinates.latitude ? String(record.coordinates.latitude) : '';
    case 'longitude': return record.coordinates.longitude ? String(record.coordinates.longitude) : '';
    // a house whose codes are not loaded (null) has no FIAS id to give: not its street's
    case 'fias': return record.houseDetails.fullName !== '' && record.houseDetails.codes === null ? ''
      : record.houseDetails.codes?.fias || record.street.codes.fias || record.settlement.codes.fias || record.city.codes.fias || '';
    default: {
      const level = (record as unknown as Record<string, Level | undefined>)[field];
      return level && typeof level === 'object' && 'fullName' in level ? level.fullName : '';
    }
  }
}

function fillFields(input: HTMLInputElement, record: AddressRecord): void {
  const scope = input.form ?? document;
  for (const target of Array.from(scope.querySelectorAll<HTMLInputElement>('[data-address-field]'))) {
    target.value = fieldValue(record, target.dataset.addressField ?? '');
    target.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/** A street (or a place) goes into the field with a space for the house; a house closes the list and is the choice. */
function choose(widget: Widget, index: number): void {
  const record = widget.hints[index];
  if (!record) return;
  const { input } = widget;
  widget.offline?.settled(record);
  const house = record.houseDetails.fullName !== '';
  const street = record.street.fullName !== '' || record.planStructure.fullName !== '';
  if (!house && street) {
    input.value = `${record.addressFull} `;
    close(widget);
    input.dispatchEvent(new CustomEvent('address-hints:street', { bubbles: true, detail: record }));
    void ask(widget);
    return;
  }
  input.value = record.addressFull;
  close(widget);
  if (!house || !widget.offline) {
    select(widget, record, null);
    return;
  }
  // a house of the engine's hints: its registry codes come with its place's house codes pack
  void widget.offline.complete(record).then(({ record: whole, missing }) => {
    if (input.value === record.addressFull) select(widget, whole, missing);
  });
}

/**
 * The choice: the form's fields filled and `address-hints:select` with the record. A house whose codes could not be
 * loaded offline keeps `houseDetails.codes` null; the input's `data-house-codes="missing"` and the live region say so.
 */
function select(widget: Widget, record: AddressRecord, missing: string | null): void {
  const { input } = widget;
  if (missing) {
    input.dataset.houseCodes = 'missing';
    widget.status.textContent = missing;
  } else delete input.dataset.houseCodes;
  fillFields(input, record);
  input.dispatchEvent(new CustomEvent('address-hints:select', { bubbles: true, detail: record }));
}

/**
 * How the input hints offline: `data-offline` on it, else on the script tag. `fallback` (present, empty or `true`):
 * the engine answers when the service cannot be reached; `first`: the engine answers once loaded; null: never.
 */
function offlineMode(input: HTMLInputElement): OfflineMode | null {
  const value = input.dataset.offline;
  if (value === undefined) return DEFAULTS.offline ? 'fallback' : null;
  if (value === 'false') return null;
  return value === 'first' ? 'first' : 'fallback';
}

export function attach(input: HTMLInputElement): void {
  if (WIDGETS.has(input)) return;
  injectStyle();
  const id = `address-hints-${++nextId}`;
  const list = document.createElement('ul');
  list.id = `${id}-list`;
  list.className = 'ah-list';
  list.setAttribute('role', 'listbox');
  list.hidden = true;
  if (input.getAttribute('aria-label') || input.labels?.length) list.setAttribute('aria-label', input.getAttribute('aria-label') ?? input.labels![0].textContent ?? '');
  const note = document.createElement('div');
  note.className = 'ah-note';
  note.hidden = true;
  const status = document.createElement('span');
  status.className = 'ah-status';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const box = document.createElement('span');
  box.className = 'ah-box';
  input.parentNode!.insertBefore(box, input);
  const popup = document.createElement('div');
  popup.className = 'ah-popup';
  popup.append(list, note);
  box.append(input, popup, status);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('autocomplete', 'off');

  const onInput = (): void => {
    clearTimeout(widget.timer);
    // the engine answers within the keystroke: no pause to wait for
    if (widget.offline?.shouldSkipService()) {
      widget.waiting = false;
      void ask(widget);
      return;
    }
    widget.waiting = true;
    list.setAttribute('aria-busy', 'true');
    widget.timer = window.setTimeout(() => {
      widget.waiting = false;
      void ask(widget);
    }, DEBOUNCE_MS);
  };
  const onKey = (event: KeyboardEvent): void => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (widget.hints.length === 0) {
        if (event.key === 'ArrowDown') void ask(widget);
        return;
      }
      event.preventDefault();
      move(widget, event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && widget.active >= 0) {
      event.preventDefault();
      choose(widget, widget.active);
    } else if (event.key === 'Escape' && widget.hints.length > 0) {
      event.preventDefault();
      close(widget);
    }
  };
  const onBlur = (): void => close(widget);
  // the engine and the dictionary are fetched once the user turns to the field, not with every page view
  // (`first` or places to preload: at once)
  const mode = offlineMode(input);
  const preload = (input.dataset.addressHintsPreload ?? DEFAULTS.preload).split(/[\s,]+/).filter(Boolean);
  const onFocus = (): void => {
    input.removeEventListener('focus', onFocus);
    if (!mode || widget.offline) return;
    widget.offline = offlineEngine({ service: serviceOf(input), country: countryOf(input), cache: DEFAULTS.cache, mode, preload }, input);
  };
  const widget: Widget = {
    input, list, status, note, hints: [], words: [], active: -1, timer: 0, waiting: false, request: null, sent: 0, offline: null,
    detach(): void {
      input.removeEventListener('focus', onFocus);
      input.removeEventListener('input', onInput);
      input.removeEventListener('keydown', onKey);
      input.removeEventListener('blur', onBlur);
      widget.request?.abort();
      box.replaceWith(input);
      for (const name of ['role', 'aria-autocomplete', 'aria-expanded', 'aria-controls', 'aria-activedescendant']) input.removeAttribute(name);
      WIDGETS.delete(input);
    },
  };
  input.addEventListener('input', onInput);
  input.addEventListener('keydown', onKey);
  input.addEventListener('blur', onBlur);
  input.addEventListener('focus', onFocus);
  if (document.activeElement === input || mode === 'first' || preload.length > 0) onFocus();
  WIDGETS.set(input, widget);
}

export function detach(input: HTMLInputElement): void {
  WIDGETS.get(input)?.detach();
}

function attachAll(root: ParentNode): void {
  for (const input of Array.from(root.querySelectorAll<HTMLInputElement>(SELECTOR))) attach(input);
}

/** Attaches every `input[data-address-hints]` of the page, now and as they are added. */
export function start(): void {
  attachAll(document);
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      for (const node of Array.from(mutation.addedNodes)) {
        if (!(node instanceof HTMLElement)) continue;
        if (node.matches(SELECTOR)) attach(node as HTMLInputElement);
        else attachAll(node);
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
}
