/**
 * Debugging CLI: `npx tsx scripts/standardize.ts [--country ru] "query" …` prints the levels, house and
 * quality the engine resolves for each query (what the solver chose, without the HTTP layer).
 */
import { createEngine } from '../engine/index.js';
import type { Country } from '../engine/types.js';

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log('Usage: npx tsx scripts/standardize.ts [--country ru|kz|by|ua] "query" …\n' +
    'Prints the levels, house and quality the engine resolves for each query. Files: address-service clean (docs/CLI.md).');
  process.exit(0);
}
const at = args.indexOf('--country');
const country = (at >= 0 ? args.splice(at, 2)[1] : 'ru') as Country;
const engine = await createEngine({ countries: [country], wasmFile: process.env.WASM || undefined });
const dict = engine.dictionary(country)!;
const houseText = (h: { number: string; block: string; building: string; liter: string }): string =>
  [h.number, h.block && `к${h.block}`, h.building && `стр${h.building}`, h.liter && `лит${h.liter}`].filter(Boolean).join(' ');
for (const query of args) {
  const r = engine.standardize(country, query);
  const levels = Object.entries(r.levels)
    .filter(([, id]) => id >= 0)
    .map(([key, id]) => `${key}=${dict.object(id).type} ${dict.object(id).name}`);
  const parts = Object.entries(r.parts).filter(([, v]) => v).map(([k, v]) => `${k}=${v}`);
  console.log(`${query}\n  ${levels.join(' | ') || '(nothing)'}\n  house ${r.house >= 0 ? houseText(dict.house(r.house)) : '-'} ${parts.join(' ')}` +
    `\n  quality ${JSON.stringify(r.quality)} left "${r.undefinedParts}"`);
}
