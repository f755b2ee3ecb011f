/**
 * Engine creation for the server: reads the release (or debug) wasm and every country blob found in the
 * dictionary folder, and logs what it loaded. With blob-file.ts (which reads a blob section by section)
 * the only modules of engine/ that touch the file system: engine.ts, dictionary.ts and wasm-core.ts
 * run in the browser too (web/engine.ts).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Country } from './types.js';
import { COUNTRIES } from './types.js';
import { AddressEngine } from './engine.js';
import { LoadedDictionary, type HouseCodes } from './dictionary.js';
import { loadBlobFile } from './blob-file.js';

export { AddressEngine } from './engine.js';
export { LoadedDictionary, decodeBlob, BlobError } from './dictionary.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface EngineOptions {
  /** folder with ru.dict, kz.dict, … (default build/dictionaries) */
  dir?: string;
  /** wasm file (default build/wasm/core.wasm, WASM_TARGET=debug for the debug build) */
  wasmFile?: string;
  /**
   * the core already compiled (from `wasmFile`'s bytes): threads that each load an engine share one module, whose
   * optimized code V8 then makes once for all of them
   */
  wasmModule?: WebAssembly.Module;
  countries?: Country[];
  /** where the house codes live (dictionary.ts `HouseCodes`; default `auto`) */
  houseCodes?: HouseCodes;
  log?: (line: string) => void;
}

export function defaultWasmFile(): string {
  const debug = process.env.WASM_TARGET === 'debug';
  return join(ROOT, 'build', 'wasm', debug ? 'core.debug.wasm' : 'core.wasm');
}

/** Reads a blob file section by section and loads it (blob-file.ts; the file name in its errors). */
export async function loadDictionaryFile(file: string, wasm: BufferSource | WebAssembly.Module, houseCodes: HouseCodes = 'auto'): Promise<LoadedDictionary> {
  return loadBlobFile(file, wasm, { houseCodes });
}

export function blobFile(dir: string, country: Country): string {
  return join(dir, `${country}.dict`);
}

export async function createEngine(options: EngineOptions = {}): Promise<AddressEngine> {
  const dir = options.dir ?? join(ROOT, 'build', 'dictionaries');
  const module = options.wasmModule ?? (await WebAssembly.compile(await readFile(options.wasmFile ?? defaultWasmFile())));
  const loaded: LoadedDictionary[] = [];
  for (const country of options.countries ?? COUNTRIES) {
    const file = blobFile(dir, country);
    if (!existsSync(file)) continue;
    const t0 = performance.now();
    const dict = await loadDictionaryFile(file, module, options.houseCodes);
    loaded.push(dict);
    options.log?.(
      `dictionary ${country}: source date ${dict.sourceDate}, ${dict.objectCount} objects, ${dict.houseCount} houses, ` +
        `${dict.apartmentCount} apartments${dict.coldHouseCodes ? ', house codes read from the file' : ''}, loaded in ${(performance.now() - t0).toFixed(0)} ms`,
    );
  }
  return new AddressEngine(loaded);
}
