/**
 * Which queries a big dictionary slows down (`npx tsx bench/scale-queries.ts <blob> [--wasm file] [--answers out.json]
 * [--top 30] [--rounds 3]`): every evaluation-like query of bench/scale.ts (bench/fixtures.ts: clean and suggest)
 * timed one by one on the synthetic blob (bench/scale.ts, SCALE_BLOB) and on the real ru.dict, the least of
 * `rounds` rounds (the machine is shared: the least is the least disturbed), then the slowest by time on the big
 * one, with their ratio to the small one, and the share of the total they carry. `--answers` writes every answer
 * on the big blob (standardize resolutions, suggest lists) so two core builds can be compared: they must agree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressEngine, blobFile, defaultWasmFile, LoadedDictionary } from '../host/engine/index.js';
import { cleanQueries, ROOT, suggestQueries } from './fixtures.js';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const blob = args[0];
if (!blob || blob.startsWith('--')) throw new Error('usage: tsx bench/scale-queries.ts <blob> [--wasm file] [--answers out.json] [--top n] [--rounds n]');
const top = Number(option('--top') ?? 30);
const rounds = Number(option('--rounds') ?? 3);

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
  queries.forEach((q, i) => {
    // alternating, so a busy moment of the machine falls on both
    let c = process.cpuUsage();
    onSmall[i] = Math.min(onSmall[i], time(small, q, 3));
    let d = process.cpuUsage(c);
    cpu.small += d.user + d.system;
    c = process.cpuUsage();
    onBig[i] = Math.min(onBig[i], time(big, q, 3));
    d = process.cpuUsage(c);
    cpu.big += d.user + d.system;
  });
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
