/**
 * Temporary CLI to check the builder: `npx tsx dictionaries/dump.ts [country…] [--find <name>]`
 * prints each country's summary, a few sample objects and houses, and objects matching `--find`.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildModels } from './countries.js';
import { LEVEL_NAMES } from './source-model.js';
import { gaOf } from './merged-model.js';

const args = process.argv.slice(2);
const findIndex = args.indexOf('--find');
const find = findIndex >= 0 ? args.splice(findIndex, 2)[1] : undefined;
const countries = args.length > 0 ? (args as Array<'ru' | 'kz' | 'by' | 'ua'>) : undefined;
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const dataDir = resolve(root, process.env.DATA_DIR ?? '../shared/data');

const started = Date.now();
const models = await buildModels(dataDir, (line) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`), { countries });
for (const model of models) {
  console.log(`\n=== ${model.country} (source date ${model.sourceDate})`);
  for (const [key, value] of Object.entries(model.summary)) console.log(`  ${key}: ${value}`);
  const path = (index: number): string => {
    const parts: string[] = [];
    for (let i = index; i >= 0; i = model.objects[i].parent) parts.unshift(`${model.objects[i].type} ${model.objects[i].name}`.trim());
    return parts.join(', ');
  };
  const show = (index: number) => {
    const o = model.objects[index];
    console.log(`  [${index}] ${LEVEL_NAMES[o.level]} ${path(index)} ga=${gaOf(model, index)} ${JSON.stringify(o.codes)} pc=${o.postcode ?? ''} tz=${o.timezone ?? ''} ${o.lat ?? ''},${o.lon ?? ''} geo=${o.geoLevel ?? ''} ${o.aliases ? 'aliases=' + o.aliases.join('|') : ''} src=${o.source}`);
  };
  const samples = model.objects.length <= 8 ? model.objects.map((_, i) => i) : [0, 1, 2, Math.floor(model.objects.length / 2), model.objects.length - 1];
  for (const i of samples) show(i);
  if (find) model.objects.forEach((o, i) => o.name.toLowerCase().includes(find.toLowerCase()) && show(i));
  let n = 0;
  for (const house of model.houses()) {
    if (n++ % Math.max(1, Math.floor(model.houseCount / 4)) === 0) console.log(`  house under ${path(house.parent)}: ${JSON.stringify(house)}`);
  }
}
