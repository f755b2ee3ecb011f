/**
 * The DaData facade beside the native routes, one request at a time through `requestHandler(createApp())` on
 * node:http in-process, as http.bench.ts measures the native ones: hints (`POST /suggestions/api/4_1/rs/suggest/address`
 * with suggestions-jquery's body, `count: 10`) against `POST /api/v1/suggest/address` with the same queries, and the
 * cleaner (`POST /api/v1/clean/address` with DaData's one-string array) against the native object body, each side
 * after one warm pass over its queries, the two sides' requests alternating (`paired`). The ratio is what building
 * DaData's records costs over ours.
 */
import { Agent, createServer } from 'node:http';
import pino from 'pino';
import { createApp } from '../host/app.js';
import { configFromObject } from '../host/config.js';
import { requestHandler } from '../host/fast-path.js';
import { cleanQueries, suggestQueries } from './fixtures.js';
import { BENCH_TIME_MS, consume, isMain, row, runStandalone, type BenchContext, type Measure, type Row } from './harness.js';
import { listen, post } from './http.bench.js';

const MAX_BODIES = 400;

type Send = (body: Buffer) => Promise<{ status: number; body: Buffer }>;

function summary(latencies: number[]): Measure {
  const sorted = [...latencies].sort((x, y) => x - y);
  const mean = sorted.reduce((sum, ms) => sum + ms, 0) / sorted.length;
  return { hz: 1000 / mean, p99_us: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] * 1000, samples: sorted.length };
}

/**
 * The two sides' requests alternately, one of each in turn, for BENCH_TIME_MS each: on a machine whose load drifts,
 * both sides meet the same load (two tinybench runs one after the other each met their own). Also the CPU time of
 * each side's requests (this process's, client and server: one thread does both), which the machine's other load
 * moves far less than the wall time: µs per request.
 */
async function paired(a: Buffer[], b: Buffer[], sendA: Send, sendB: Send): Promise<[Measure, Measure, number, number]> {
  const times: [number[], number[]] = [[], []];
  const cpu = [0, 0];
  const started = performance.now();
  for (let i = 0; performance.now() - started < 2 * BENCH_TIME_MS; i++) {
    for (const [side, bodies, send] of [[0, a, sendA], [1, b, sendB]] as const) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const reply = await send(bodies[i % bodies.length]);
      const used = process.cpuUsage(cpuStart);
      times[side].push(performance.now() - start);
      cpu[side] += used.user + used.system;
      if (reply.status !== 200) throw new Error(`answered ${reply.status}: ${reply.body.toString().slice(0, 200)}`);
      consume(reply.body.length);
    }
  }
  return [summary(times[0]), summary(times[1]), cpu[0] / times[0].length, cpu[1] / times[1].length];
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const app = createApp({ engine: ctx.engine, config: configFromObject({ log: { Level: 'silent' } }), logger: pino({ level: 'silent' }) });
  const server = createServer(requestHandler(app));
  const port = await listen(server);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const rows: Row[] = [];
  const hints = suggestQueries().slice(0, MAX_BODIES).map((q) => q.query);
  const addresses = cleanQueries().filter((q) => q.country === 'ru').slice(0, MAX_BODIES).map((q) => q.query);
  const cases = [
    {
      name: 'hints',
      facade: { path: '/suggestions/api/4_1/rs/suggest/address', bodies: hints.map((query) => JSON.stringify({ query, count: 10 })) },
      native: { path: '/api/v1/suggest/address', bodies: hints.map((query) => JSON.stringify({ query, count: 10, countryCode: 'RU' })) },
    },
    {
      name: 'cleaner',
      facade: { path: '/api/v1/clean/address', bodies: addresses.map((query) => JSON.stringify([query])) },
      native: { path: '/api/v1/clean/address', bodies: addresses.map((query) => JSON.stringify({ query, countryCode: 'RU' })) },
    },
  ];
  try {
    for (const { name, facade, native } of cases) {
      // one pass of each side first: the engine's kept hints and both sides' kept records are then warm for both
      for (const side of [facade, native]) {
        for (const body of side.bodies) await post(agent, port, side.path, Buffer.from(body));
      }
      const measured = await paired(
        facade.bodies.map((body) => Buffer.from(body)),
        native.bodies.map((body) => Buffer.from(body)),
        (body) => post(agent, port, facade.path, body),
        (body) => post(agent, port, native.path, body),
      );
      const [, , facadeCpu, nativeCpu] = measured;
      const cpu = `CPU per request ${facadeCpu.toFixed(0)} µs, native ${nativeCpu.toFixed(0)} µs: ×${(nativeCpu / facadeCpu).toFixed(2)}`;
      rows.push(row(`http: DaData facade ${name} (${facade.path})`, measured[0], `native ${native.path}`, measured[1], cpu));
      ctx.notes.push(`dadata ${name}: ${facade.bodies.length} queries; ${cpu}`);
    }
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(run);
