/**
 * Paired scale ratios (`npx tsx bench/scale-paired.ts <blob> <core.wasm> [<core.wasm> …]`, PASSES=8): each core
 * is loaded with the real ru dictionary and with the big blob in one process; a pass runs the evaluation's hints and
 * addresses (bench/fixtures.ts) on the small dictionary and then on the big one with each core in turn, the order of
 * the cores reversed every other pass. Prints, per core, the median time per query and the median over the passes
 * of each pass's big/small ratio: a figure the machine's phases (runs of the same code vary by up to ×1.9 here)
 * move less than two separate runs.
 *
 * `--dictionaries <core.wasm> <small> <big> [<small> <big> …]` pairs builds of the dictionaries instead, with one
 * core: each (small, big) pair is a contestant (a builder change, with the ru dictionary and the blob it wrote).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressEngine, blobFile, LoadedDictionary } from '../engine/index.js';
import { cleanQueries, ROOT, suggestQueries } from './fixtures.js';

const USAGE = 'usage: tsx bench/scale-paired.ts <blob> <core.wasm> [<core.wasm> …] | --dictionaries <core.wasm> <small> <big> [<small> <big> …]';
const args = process.argv.slice(2);
const byDictionary = args[0] === '--dictionaries';
const passes = Number(process.env.PASSES ?? 8);
const engineOf = async (bytes: Buffer, module: WebAssembly.Module) => new AddressEngine([await LoadedDictionary.fromBytes(bytes, module, 'ru')]);

/** The contestants: a name, and the small and big engines it is timed on. */
async function contestants(): Promise<{ file: string; small: AddressEngine; big: AddressEngine }[]> {
  if (byDictionary) {
    const [core, ...files] = args.slice(1);
    if (!core || files.length === 0 || files.length % 2 !== 0) throw new Error(USAGE);
    const module = await WebAssembly.compile(readFileSync(core));
    const pairs = files.flatMap((file, i) => (i % 2 === 0 ? [[file, files[i + 1]]] : []));
    return Promise.all(pairs.map(async ([small, big]) => ({
      file: `${small} + ${big}`, small: await engineOf(readFileSync(small), module), big: await engineOf(readFileSync(big), module),
    })));
  }
  const [blob, ...cores] = args;
  if (!blob || cores.length === 0) throw new Error(USAGE);
  const big = readFileSync(blob);
  const small = readFileSync(blobFile(join(ROOT, 'build', 'dictionaries'), 'ru'));
  return Promise.all(cores.map(async (file) => {
    const module = await WebAssembly.compile(readFileSync(file));
    return { file, small: await engineOf(small, module), big: await engineOf(big, module) };
  }));
}

const loaded = await contestants();
const addresses = cleanQueries().filter((q) => q.country === 'ru').map((q) => q.query);
const hints = suggestQueries();

/** µs per query of the hints and of the addresses on one engine. */
function pass(engine: AddressEngine): [number, number] {
  let t0 = performance.now();
  for (const q of hints) engine.suggest('ru', q.query, q.count);
  const suggest = ((performance.now() - t0) * 1000) / hints.length;
  t0 = performance.now();
  for (const q of addresses) engine.standardize('ru', q);
  return [suggest, ((performance.now() - t0) * 1000) / addresses.length];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const times = loaded.map(() => ({ smallSuggest: [] as number[], bigSuggest: [] as number[], smallStd: [] as number[], bigStd: [] as number[] }));
for (const core of loaded) (pass(core.small), pass(core.big));
for (let p = 0; p < passes; p++) {
  const order = p % 2 ? [...loaded.keys()].reverse() : [...loaded.keys()];
  for (const i of order) {
    const [ss, sa] = pass(loaded[i].small);
    const [bs, ba] = pass(loaded[i].big);
    times[i].smallSuggest.push(ss);
    times[i].bigSuggest.push(bs);
    times[i].smallStd.push(sa);
    times[i].bigStd.push(ba);
  }
}
loaded.forEach(({ file }, i) => {
  const t = times[i];
  const ratio = (a: number[], b: number[]) => median(a.map((v, k) => v / b[k])).toFixed(2);
  console.log(`${file}: suggest ${median(t.bigSuggest).toFixed(1)} vs ${median(t.smallSuggest).toFixed(1)} µs ×${ratio(t.bigSuggest, t.smallSuggest)}` +
    ` | standardize ${median(t.bigStd).toFixed(1)} vs ${median(t.smallStd).toFixed(1)} µs ×${ratio(t.bigStd, t.smallStd)}`);
});
