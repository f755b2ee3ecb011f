/**
 * The WASM boundary alone: one no-op call (`ping(x) = x + 1`) into the core versus the same function in
 * JS, and the copy of a query into the input region (`WasmCore.write`, charCodeAt into a Uint16Array view)
 * versus TextEncoder.encodeInto the same string into a Uint8Array. Calls are chained (`x = ping(x)`) so
 * neither side can be folded away; the JS twin may be inlined by V8, which is the point of the comparison.
 */
import { cleanQueries } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';

const CALLS = 1000;
const COPIES = 100;

function jsPing(x: number): number {
  return (x + 1) | 0;
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const core = ctx.engine.dictionary('ru')!.core;
  const ping = core.exports.ping;
  let x = 0;
  const wasm = await measure('ping wasm', () => {
    for (let i = 0; i < CALLS; i++) x = ping(x);
    consume(x);
  }, { batch: CALLS });
  let y = 0;
  const js = await measure('ping js', () => {
    for (let i = 0; i < CALLS; i++) y = jsPing(y);
    consume(y);
  }, { batch: CALLS });

  const queries = cleanQueries().map((q) => q.query);
  const averageLength = queries.reduce((n, q) => n + q.length, 0) / queries.length;
  let w = 0;
  const write = await measure('write query', () => {
    for (let i = 0; i < COPIES; i++) consume(core.write(queries[w++ % queries.length]));
  }, { batch: COPIES });
  const encoder = new TextEncoder();
  const target = new Uint8Array(4096);
  let e = 0;
  const encode = await measure('encodeInto', () => {
    for (let i = 0; i < COPIES; i++) consume(encoder.encodeInto(queries[e++ % queries.length], target).written);
  }, { batch: COPIES });

  ctx.notes.push(`boundary: ping batched ×${CALLS} per sample (p99 per call within a batch); write and encodeInto batched ×${COPIES}, over queries of ${averageLength.toFixed(0)} UTF-16 units on average`);
  return [
    row('boundary: ping (wasm call)', wasm, 'JS function call', js),
    row('boundary: write query (UTF-16 copy)', write, 'TextEncoder.encodeInto', encode),
  ];
}

if (isMain(import.meta.url)) await runStandalone(run);
