/**
 * A dictionary reload (SIGHUP): every country's file read again, one by one. A country that was served keeps
 * the dictionary it was served from when its file is missing or does not load (a copy not finished, a truncated
 * or foreign file): one bad file never drops a country, and the others still get their new data. Each such file
 * comes back as a failure naming the country, the file and the reason, for the log and the metrics.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { AddressEngine } from './engine.js';
import { LoadedDictionary, type HouseCodes } from './dictionary.js';
import { blobFile, defaultWasmFile, loadDictionaryFile } from './index.js';
import { COUNTRIES, type Country, type Engine } from './types.js';

export interface ReloadFailure {
  country: Country;
  file: string;
  reason: string;
  /** true when the dictionary loaded before stays in service */
  kept: boolean;
}

export async function reloadEngine(
  previous: Engine,
  options: { dir: string; houseCodes?: HouseCodes; wasmFile?: string },
): Promise<{ engine: AddressEngine; failures: ReloadFailure[] }> {
  const module = await WebAssembly.compile(await readFile(options.wasmFile ?? defaultWasmFile()));
  const loaded: LoadedDictionary[] = [];
  const failures: ReloadFailure[] = [];
  for (const country of COUNTRIES) {
    const file = blobFile(options.dir, country);
    const before = previous.dictionary(country);
    const kept = before instanceof LoadedDictionary ? before : null;
    let reason: string;
    if (existsSync(file)) {
      try {
        loaded.push(await loadDictionaryFile(file, module, options.houseCodes));
        continue;
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
      }
    } else {
      // a country never served has no file to miss
      if (!before) continue;
      reason = 'file not found';
    }
    if (kept) loaded.push(kept);
    failures.push({ country, file, reason, kept: kept !== null });
  }
  return { engine: new AddressEngine(loaded), failures };
}
