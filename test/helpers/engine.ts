/**
 * Shared loaders for the engine tests: the DEBUG wasm (bounds checks on) and the real dictionaries of
 * `npx tsx scripts/prepare.ts --debug`, each compiled or loaded once per test file (vitest forks a
 * worker per file), plus readable views of a Resolution for assertions and golden files.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type AddressEngine } from '../../engine/index.js';
import type { Country, Dictionary, HouseParts, LevelKey, Quality, Resolution } from '../../engine/types.js';
import { LEVEL_KEYS } from '../../engine/types.js';
import { WasmCore } from '../../engine/wasm-core.js';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const DEBUG_WASM = join(ROOT, 'build', 'wasm', 'core.debug.wasm');
export const DICTIONARIES_DIR = join(ROOT, 'build', 'dictionaries');

function need(file: string): string {
  if (!existsSync(file)) throw new Error(`${file} is missing: run npx tsx scripts/prepare.ts --debug first`);
  return file;
}

let wasmModule: Promise<WebAssembly.Module> | null = null;

/** The debug core, compiled once. */
export function debugWasm(): Promise<WebAssembly.Module> {
  wasmModule ??= readFile(need(DEBUG_WASM)).then((bytes) => WebAssembly.compile(bytes));
  return wasmModule;
}

/** A fresh core instance with no dictionary attached (house grammar, adapter tests). */
export async function bareCore(): Promise<WasmCore> {
  const core = await WasmCore.create(await debugWasm());
  core.exports.index();
  return core;
}

const engines = new Map<string, Promise<AddressEngine>>();

/** The engine over the real dictionaries of `countries`, running the debug core; loaded once per file. */
export function debugEngine(countries: Country[] = ['ru']): Promise<AddressEngine> {
  const key = countries.join(',');
  let engine = engines.get(key);
  if (!engine) {
    for (const c of countries) need(join(DICTIONARIES_DIR, `${c}.dict`));
    engine = createEngine({ dir: DICTIONARIES_DIR, wasmFile: need(DEBUG_WASM), countries });
    engines.set(key, engine);
  }
  return engine;
}

/** The non-empty house parts. */
export function filledParts(parts: HouseParts): Partial<HouseParts> {
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== '')) as Partial<HouseParts>;
}

/** Level fullNames of a resolution, only the levels it has: `{ region: 'г Москва', street: 'ул Тверская' }`. */
export function levelNames(dict: Dictionary, res: Resolution): Partial<Record<LevelKey, string>> {
  const out: Partial<Record<LevelKey, string>> = {};
  for (const key of LEVEL_KEYS) {
    if (res.levels[key] >= 0) out[key] = key === 'municipal' ? dict.municipal(res.levels[key]).fullName : dict.object(res.levels[key]).fullName;
  }
  return out;
}

/** `Свердловская обл, г Екатеринбург, пр-кт Ленина` */
export function addressOf(dict: Dictionary, res: Resolution): string {
  return Object.values(levelNames(dict, res)).join(', ');
}

/** The house a resolution found as the registry writes it (`5`, `5к1`, `10с12`), '' when none. */
export function houseOf(dict: Dictionary, res: Resolution): string {
  if (res.house < 0) return '';
  const h = dict.house(res.house);
  return `${h.number}${h.block ? `к${h.block}` : ''}${h.building ? `с${h.building}` : ''}${h.liter && !h.number.endsWith(h.liter) ? `лит${h.liter}` : ''}`;
}

export interface ResolutionView {
  matched: boolean;
  levels: Partial<Record<LevelKey, string>>;
  house: string;
  parts: Partial<HouseParts>;
  postcodeIn: string;
  quality: Quality;
  undefinedParts: string;
}

/** A resolution as plain data: what golden files store and what assertions compare. */
export function viewOf(dict: Dictionary, res: Resolution): ResolutionView {
  return {
    matched: res.matched,
    levels: levelNames(dict, res),
    house: houseOf(dict, res),
    parts: filledParts(res.parts),
    postcodeIn: res.postcodeIn,
    quality: res.quality,
    undefinedParts: res.undefinedParts,
  };
}

/** Standardizes on the real ru dictionary and returns the view. */
export async function standardizeRu(query: string): Promise<ResolutionView> {
  const engine = await debugEngine();
  return viewOf(engine.dictionary('ru')!, engine.standardize('ru', query));
}

/** Index of the object with this fullName under an ancestor chain `Свердловская обл > г Екатеринбург > пр-кт Ленина`. */
export function objectByPath(dict: Dictionary, path: string): number {
  const want = path.split(' > ');
  for (let id = 0; id < dict.objectCount; id++) {
    if (dict.object(id).fullName !== want[want.length - 1]) continue;
    const chain = dict.chain(id).map((x) => dict.object(x).fullName);
    if (want.every((name) => chain.includes(name))) return id;
  }
  throw new Error(`no object ${path}`);
}
