/**
 * What the browser tests of pages on another origin share: Chromium launched as the offline test launches it
 * (a missing binary is a failure naming scripts/ensure-chromium.sh), and a static server of pages on another port
 * of 127.0.0.1 than the service.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = resolve('test-artifacts');

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `chromium not found at ${CHROMIUM}: the browser tests need it. Install it with scripts/ensure-chromium.sh ` +
        '(apt-get update && apt-get install -y chromium) or point CHROMIUM at a chromium binary.',
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface PageServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** A file of the pages' site: its bytes and content type. */
export type PageFile = { type: string; body: string | Buffer };

/**
 * Serves what `page(path)` gives (404 for null; the browser's favicon.ico 204, so no error of the site's own mixes
 * with the ones a test looks for).
 */
export async function startPageServer(page: (path: string) => PageFile | null): Promise<PageServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const file = page(path);
    if (!file) {
      res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': `${file.type}; charset=utf-8` });
    res.end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { server, url, close: () => new Promise((done) => server.close(() => done())) };
}
