/**
 * One request through the whole HTTP stack in-process: `createApp()` (access log silent, no auth) served
 * by node:http through `requestHandler(app)` (the fast path of the POST routes in front of Koa, as host/server.ts
 * serves it) on 127.0.0.1, port 0, called one request at a time over a keep-alive connection, for
 * POST /api/v1/clean/address and /api/v1/suggest/address with the evaluation queries. The floor is a bare
 * node:http server on another port that reads the same request and answers the same response bytes the
 * app gave for it (recorded first), through the same client: the ratio is what Koa, validation, the
 * engine and record building cost over moving the bytes. Client and servers share one process and core.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../host/app.js';
import { configFromObject } from '../host/config.js';
import { requestHandler } from '../host/fast-path.js';
import { cleanQueries, suggestQueries } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';
import { replayHandler, type Reply } from './net.js';

const MAX_BODIES = 400;

export function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export function post(agent: Agent, port: number, path: string, body: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The floor: answers the recorded reply for (path, body), nothing else. */
function floorServer(replies: Map<string, Reply>): Server {
  return createServer(replayHandler(replies));
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const config = configFromObject({ log: { Level: 'silent' } });
  const app = createApp({ engine: ctx.engine, config, logger: pino({ level: 'silent' }) });
  const appServer = createServer(requestHandler(app));
  const replies = new Map<string, Reply>();
  const floor = floorServer(replies);
  const appPort = await listen(appServer);
  const floorPort = await listen(floor);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const rows: Row[] = [];
  try {
    const endpoints = [
      {
        name: 'clean/address',
        path: '/api/v1/clean/address',
        bodies: cleanQueries().slice(0, MAX_BODIES).map((q) => JSON.stringify({ query: q.query, countryCode: q.country.toUpperCase() })),
      },
      {
        name: 'suggest/address',
        path: '/api/v1/suggest/address',
        bodies: suggestQueries().slice(0, MAX_BODIES).map((q) => JSON.stringify({ query: q.query, count: q.count, countryCode: 'RU' })),
      },
    ];
    for (const endpoint of endpoints) {
      const bodies = endpoint.bodies.map((b) => Buffer.from(b));
      let bytes = 0;
      const statuses = new Map<number, number>();
      for (let k = 0; k < bodies.length; k++) {
        const reply = await post(agent, appPort, endpoint.path, bodies[k]);
        replies.set(`${endpoint.path}\n${endpoint.bodies[k]}`, reply);
        bytes += reply.body.length;
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }
      const check = (reply: Reply) => {
        if (reply.status >= 500) throw new Error(`${endpoint.path} answered ${reply.status}: ${reply.body.toString().slice(0, 200)}`);
        consume(reply.body.length);
      };
      let i = 0;
      const ours = await measure(`http ${endpoint.name}`, async () => check(await post(agent, appPort, endpoint.path, bodies[i++ % bodies.length])));
      let j = 0;
      const bare = await measure(`floor ${endpoint.name}`, async () => check(await post(agent, floorPort, endpoint.path, bodies[j++ % bodies.length])));
      rows.push(row(`http: POST ${endpoint.name} (createApp, in-process)`, ours, 'bare node:http, same bytes', bare));
      ctx.notes.push(
        `http ${endpoint.name}: ${bodies.length} request bodies, mean response ${(bytes / bodies.length).toFixed(0)} bytes, statuses ` +
          [...statuses].map(([s, n]) => `${s}×${n}`).join(' '),
      );
    }
  } finally {
    agent.destroy();
    appServer.closeAllConnections();
    floor.closeAllConnections();
    await Promise.all([new Promise((r) => appServer.close(r)), new Promise((r) => floor.close(r))]);
  }
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(run);
