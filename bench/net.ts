/** Loopback helpers shared by the load benches (http-load, soak). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:net';

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
