/**
 * Which queries a big dictionary slows down (`npx tsx bench/scale-queries.ts <blob> [--wasm file] [--against file]
 * [--answers out.json] [--top 30] [--rounds 5]`): every evaluation-like query of bench/scale.ts (bench/fixtures.ts:
 * clean and suggest) timed one by one on the synthetic blob (bench/scale.ts, SCALE_BLOB) and on the real ru.dict,
 * each once per round in turn (caches as a stream of requests leaves them), the least of `rounds` rounds (the
 * machine is shared: the least is the least disturbed); then the slowest by time on the big one, with their ratio
 * to the small one, the share of the total they carry, and the CPU time of all rounds on each; then the core alone
 * over each kind as one stream (`core … as a stream`: mean µs per query, no records built), the figure the README
 * quotes, and with `--against old.wasm` the same for another core build on the same blobs, pass by pass in one
 * process. `--answers` writes every answer on the big blob (standardize resolutions, suggest lists) so that two
 * core builds can be compared: they must agree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressEngine, blobFile, defaultWasmFile, LoadedDictionary } from '../engine/index.js';
import { cleanQueries, ROOT, suggestQueries } from './fixtures.js';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const blob = args[0];
if (!blob || blob.startsWith('--')) {
  throw new Error('usage: tsx bench/scale-queries.ts <blob> [--wasm file] [--against file] [--answers out.json] [--top n] [--rounds n]');
}
const top = Number(option('--top') ?? 30);
const rounds = Number(option('--rounds') ?? 5);

const module = await WebAssembly.compile(readFileSync(option('--wasm') ?? defaultWasmFile()));
const small = new AddressEngine([await LoadedDictionary.fromBytes(readFileSync(blobFile(join(ROOT, 'build', 'dictionaries'), 'ru')), module, 'ru')]);
const big = new AddressEngine([await LoadedDictionary.fromBytes(readFileSync(blob), module, blob)]);

interface Query {
  kind: 'standardize' | 'suggest';
  query: string;
  count: number;
}
const queries: Query[] = [
  ...cleanQueries().filter((q) => q.country === 'ru').map((q) => ({ kind: 'standardize' as const, query: q.query, count: 0 })),
  ...suggestQueries().map((q) => ({ kind: 'suggest' as const, query: q.query, count: q.count })),
];

function run(engine: AddressEngine, q: Query): unknown {
  return q.kind === 'standardize' ? engine.standardize('ru', q.query) : engine.suggest('ru', q.query, q.count);
}

/** The least time of one call, in µs, over `reps` calls. */
function time(engine: AddressEngine, q: Query, reps: number): number {
  let least = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    run(engine, q);
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (us < least) least = us;
  }
  return least;
}

const answers = queries.map((q) => run(big, q));
if (option('--answers')) writeFileSync(option('--answers')!, JSON.stringify(answers));
for (const q of queries) run(small, q);

const onSmall = queries.map(() => Infinity);
const onBig = queries.map(() => Infinity);
const cpu = { small: 0, big: 0 };
for (let round = 0; round < rounds; round++) {
  // each query once per round, every query in turn (as a stream of requests meets the caches), the two
  // dictionaries alternating by round so a busy moment of the machine falls on both
  for (const [engine, times, key] of [[big, onBig, 'big'], [small, onSmall, 'small']] as const) {
    const c = process.cpuUsage();
    queries.forEach((q, i) => {
      times[i] = Math.min(times[i], time(engine, q, 1));
    });
    const d = process.cpuUsage(c);
    cpu[key] += d.user + d.system;
  }
}

for (const kind of ['standardize', 'suggest'] as const) {
  const ids = queries.map((_, i) => i).filter((i) => queries[i].kind === kind);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const totalSmall = sum(ids.map((i) => onSmall[i]));
  const totalBig = sum(ids.map((i) => onBig[i]));
  const ratios = ids.map((i) => onBig[i] / onSmall[i]).sort((a, b) => a - b);
  console.log(
    `${kind}: ${ids.length} queries, mean ${(totalBig / ids.length).toFixed(1)} µs vs ${(totalSmall / ids.length).toFixed(1)} µs ` +
      `(×${(totalBig / totalSmall).toFixed(2)}), median ratio ×${ratios[ids.length >> 1].toFixed(2)}`,
  );
  const slowest = [...ids].sort((a, b) => onBig[b] - onBig[a]).slice(0, top);
  let share = 0;
  for (const i of slowest) {
    share += onBig[i];
    console.log(
      `  ${onBig[i].toFixed(0).padStart(7)} µs  ×${(onBig[i] / onSmall[i]).toFixed(1).padStart(6)}  ${((100 * share) / totalBig).toFixed(0).padStart(3)} %  ` +
        `${queries[i].query}${kind === 'suggest' ? ` (${queries[i].count})` : ''}`,
    );
  }
}
console.log(`cpu: big ${(cpu.big / 1000).toFixed(0)} ms, small ${(cpu.small / 1000).toFixed(0)} ms (×${(cpu.big / cpu.small).toFixed(2)})`);

/**
 * The core alone (no records built), the queries of a kind as one stream: mean µs per query, the least of `rounds`
 * passes, the dictionaries (and the `--against` core's) alternating by pass.
 */
function coreStream(kind: Query['kind'], engines: AddressEngine[]): number[] {
  const list = queries.filter((q) => q.kind === kind);
  const least = engines.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    engines.forEach((engine, e) => {
      const core = engine.dictionary('ru')!.core;
      const t0 = process.hrtime.bigint();
      for (const q of list) {
        const len = core.write(q.query);
        if (kind === 'standardize') core.exports.standardize(len);
        else core.exports.suggest(len, q.count, /[\p{L}\p{N}]$/u.test(q.query) ? 1 : 0);
      }
      least[e] = Math.min(least[e], Number(process.hrtime.bigint() - t0) / 1000 / list.length);
    });
  }
  return least;
}
const against = option('--against');
const others: AddressEngine[] = [];
if (against) {
  const other = await WebAssembly.compile(readFileSync(against));
  others.push(new AddressEngine([await LoadedDictionary.fromBytes(readFileSync(blob), other, blob)]));
  others.push(new AddressEngine([await LoadedDictionary.fromBytes(readFileSync(blobFile(join(ROOT, 'build', 'dictionaries'), 'ru')), other, 'ru')]));
}
for (const kind of ['standardize', 'suggest'] as const) {
  const [onBigCore, onSmallCore, otherBig, otherSmall] = coreStream(kind, [big, small, ...others]);
  const vs = (a: number, b: number) => `${a.toFixed(1)} µs vs ${b.toFixed(1)} µs per query (×${(a / b).toFixed(2)})`;
  console.log(`core ${kind}, as a stream: ${vs(onBigCore, onSmallCore)}${against ? `; --against core: ${vs(otherBig, otherSmall)}` : ''}`);
}
