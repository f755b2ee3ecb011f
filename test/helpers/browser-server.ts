/**
 * The real server in-process for the browser tests: `createApp()` with the real engine (`createEngine`
 * of engine/ over build/dictionaries, or DICTIONARIES_DIR) listening on 127.0.0.1, port 0. It keeps the
 * request line of every request it receives, so a test can prove that a page sent none.
 */
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import pino from 'pino';
import { expect } from 'vitest';
import { createApp, type AddressApp } from '../../host/app.js';
import { requestHandler } from '../../host/fast-path.js';
import { configFromObject } from '../../host/config.js';
import { createEngine } from '../../engine/index.js';

export const DICTIONARIES_DIR = resolve(process.env.DICTIONARIES_DIR ?? 'build/dictionaries');

export interface RunningTestServer {
  app: AddressApp;
  server: Server;
  url: string;
  /** `METHOD path` of every request the server has received, in order */
  requests: string[];
  /** POSTs `body` as JSON to `path`, expects 200 and answers the parsed reply */
  post<T>(path: string, body: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startServer(): Promise<RunningTestServer> {
  const engine = await createEngine({ dir: DICTIONARIES_DIR });
  const config = configFromObject({ dictionaries: { Dir: DICTIONARIES_DIR } });
  const app = createApp({ engine, config, logger: pino({ level: 'silent' }) });
  const requests: string[] = [];
  const handle = requestHandler(app);
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    return handle(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    server,
    url,
    requests,
    async post<T>(path: string, body: unknown): Promise<T> {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(200);
      return (await response.json()) as T;
    },
    close: () => new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    }),
  };
}
