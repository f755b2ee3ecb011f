/**
 * The floor of bench/http-load.ts: a bare node:http server with the same worker count as the service
 * (node:cluster) that reads each request and answers the bytes the real service answered for the same
 * (path, body), recorded beforehand in REPLIES_FILE, and the same way of handing connections to the workers
 * (BALANCE, the service's `gateway.Balance`); bench/http-load.ts starts it under the service's scheduling policy
 * (`gateway.Scheduling`). GET /ready answers 200 once a worker listens.
 * Env: REPLIES_FILE, HOST (127.0.0.1), PORT, WORKERS, BALANCE (roundrobin | os, default roundrobin).
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { replayHandler } from './net.js';

interface RecordedReply {
  key: string;
  status: number;
  type: string;
  body: string;
}

const workers = Math.max(1, Number(process.env.WORKERS ?? 1));

if (cluster.isPrimary && workers > 1) {
  cluster.schedulingPolicy = process.env.BALANCE === 'os' ? cluster.SCHED_NONE : cluster.SCHED_RR;
  for (let i = 0; i < workers; i++) cluster.fork();
  const stop = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const recorded = JSON.parse(readFileSync(process.env.REPLIES_FILE!, 'utf8')) as RecordedReply[];
  const replies = new Map(recorded.map((r) => [r.key, { status: r.status, type: r.type, body: Buffer.from(r.body, 'base64') }]));
  const ready = { status: 200, type: 'text/plain', body: Buffer.from('ok') };
  const server = createServer(replayHandler(replies, (req) => (req.method === 'GET' && req.url === '/ready' ? ready : undefined)));
  server.keepAliveTimeout = 5_000;
  server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
  process.on('SIGTERM', () => process.exit(0));
}
