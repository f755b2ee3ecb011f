/**
 * Folding and tokenizing. The ABI has no tokenize-only export, so the core side is `parseHouse` on address
 * text with no house part (city and street only): fold + tokenize, then a house-grammar pass that finds
 * nothing. The twin is the JS folding tokenizer of house-twin.ts over the same strings (token table into
 * an Int32Array, no objects). Both sides include writing the input (the core's copy into its input region).
 */
import { nameOnlyStrings } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';
import { TwinTokenizer } from './house-twin.js';

const BATCH = 50;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const core = ctx.engine.dictionary('ru')!.core;
  const strings = nameOnlyStrings();
  let i = 0;
  const wasm = await measure('tokenize wasm', () => {
    for (let b = 0; b < BATCH; b++) {
      const len = core.write(strings[i++ % strings.length]);
      consume(core.exports.parseHouse(len));
    }
  }, { batch: BATCH });
  const twin = new TwinTokenizer();
  let j = 0;
  const js = await measure('tokenize js', () => {
    for (let b = 0; b < BATCH; b++) consume(twin.tokenize(strings[j++ % strings.length]));
  }, { batch: BATCH });
  ctx.notes.push(`tokenize: ${strings.length} city+street strings; core side is write + parseHouse (fold, tokenize, empty grammar pass); batched ×${BATCH}`);
  return [row('tokenize: fold+tokenize (core.parseHouse, no house)', wasm, 'JS twin tokenizer', js)];
}

if (isMain(import.meta.url)) await runStandalone(run);
