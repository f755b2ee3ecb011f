/**
 * The DaData facade beside the native routes, one request at a time through `requestHandler(createApp())` on
 * node:http in-process, as http.bench.ts measures the native ones: hints (`POST /suggestions/api/4_1/rs/suggest/address`
 * with suggestions-jquery's body, `count: 10`) against `POST /api/v1/suggest/address` with the same queries, and the
 * cleaner (`POST /api/v1/clean/address` with DaData's one-string array) against the native object body. The ratio is
 * what building DaData's records costs over ours.
 */
import { Agent, createServer } from 'node:http';
import pino from 'pino';
import { createApp } from '../host/app.js';
import { configFromObject } from '../host/config.js';
import { requestHandler } from '../host/fast-path.js';
import { cleanQueries, suggestQueries } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';
import { listen, post } from './http.bench.js';

const MAX_BODIES = 400;

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
      const measured = [];
      for (const side of [facade, native]) {
        const bodies = side.bodies.map((body) => Buffer.from(body));
        let i = 0;
        measured.push(await measure(`${name} ${side.path}`, async () => {
          const reply = await post(agent, port, side.path, bodies[i++ % bodies.length]);
          if (reply.status !== 200) throw new Error(`${side.path} answered ${reply.status}: ${reply.body.toString().slice(0, 200)}`);
          consume(reply.body.length);
        }));
      }
      rows.push(row(`http: DaData facade ${name} (${facade.path})`, measured[0], `native ${native.path}`, measured[1]));
      ctx.notes.push(`dadata ${name}: ${facade.bodies.length} queries`);
    }
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(run);
