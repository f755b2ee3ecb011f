/** Loopback helpers shared by the load benches (http-load, soak). */
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import autocannon, { type AutocannonResult } from 'autocannon';
import { cleanQueries, suggestQueries } from './fixtures.js';

export const HOST = '127.0.0.1';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Reply {
  status: number;
  type: string;
  body: Buffer;
}

/**
 * The floor's request handler: reads the body and answers the reply recorded for (path, body), 404 otherwise.
 * `extra` answers requests outside the recording (GET /ready).
 */
export function replayHandler(replies: Map<string, Reply>, extra?: (req: IncomingMessage) => Reply | undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = extra?.(req) ?? replies.get(`${req.url}\n${Buffer.concat(chunks).toString()}`);
      if (!reply) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.statusCode = reply.status;
      res.setHeader('Content-Type', reply.type);
      res.end(reply.body);
    });
  };
}

/** A POST route under load, with the bodies autocannon sends in turn. */
export interface LoadTarget {
  name: string;
  path: string;
  bodies: string[];
}

/** The load benches' two targets: `count` RU hint and standardization bodies of the evaluation set. */
export function loadTargets(count: number): LoadTarget[] {
  return [
    { name: 'suggest/address', path: '/api/v1/suggest/address', bodies: suggestQueries().slice(0, count).map((q) => JSON.stringify({ query: q.query, count: q.count, countryCode: 'RU' })) },
    {
      name: 'clean/address',
      path: '/api/v1/clean/address',
      bodies: cleanQueries().filter((q) => q.country === 'ru').slice(0, count).map((q) => JSON.stringify({ query: q.query, countryCode: 'RU' })),
    },
  ];
}

/** autocannon on `url` with `connections` connections for `duration` s, POSTing the target's bodies in turn. */
export function postLoad(url: string, target: LoadTarget, connections: number, duration: number): Promise<AutocannonResult> {
  return autocannon({
    url,
    connections,
    duration,
    timeout: 10,
    requests: target.bodies.map((body) => ({ method: 'POST', path: target.path, headers: { 'content-type': 'application/json' }, body })),
  });
}

/** The processes a load bench starts: `stopChildren()` ends those still running, as does the bench's exit. */
const children: ChildProcess[] = [];
export function startedChild(child: ChildProcess): ChildProcess {
  children.push(child);
  return child;
}
export function stopChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}
process.on('exit', stopChildren);

/** Stops the bench `name` and its children, exit code 2, should it still run after `seconds`. */
export function armWatchdog(name: string, seconds: number): void {
  setTimeout(() => {
    console.error(`${name}: watchdog fired, stopping`);
    stopChildren();
    process.exit(2);
  }, seconds * 1000).unref();
}

/** What a target did over its turns: req/s over all of them, p50/p99 the median of the turns'. */
export function turnsSummary(turns: AutocannonResult[]) {
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const seconds = turns.reduce((sum, r) => sum + r.duration, 0);
  const completed = turns.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    rps: completed / seconds,
    p50_ms: median(turns.map((r) => r.latency.p50)),
    p99_ms: median(turns.map((r) => r.latency.p99)),
    mb_per_s: turns.reduce((sum, r) => sum + r.throughput.total, 0) / seconds / 1024 / 1024,
    completed,
    non2xx: turns.reduce((sum, r) => sum + r.non2xx, 0),
    errors: turns.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
  };
}
