/** GET /widget.js: the compiled widget, cached by ETag, gzip when asked, loadable from any origin. */
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(api.url + path);
    request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

describe('GET /widget.js', () => {
  it('serves the browser script, revalidated by its ETag', async () => {
    const reply = await api.get('/widget.js', { origin: 'http://shop.example' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-cache');
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.text).toContain('data-address-hints');
    expect(reply.text).toContain('/api/v1/suggest/address');
    expect(() => new Function(reply.text)).not.toThrow();
    const etag = reply.headers.get('etag')!;
    expect(etag).toMatch(/^"widget-[0-9a-f]{16}"$/);
    // over node:http: fetch adds Cache-Control: no-cache to a request it is given a validator for
    expect((await raw('/widget.js', { 'if-none-match': etag })).status).toBe(304);
  });

  it('sends gzip to a client that takes it, the same script', async () => {
    const plain = await raw('/widget.js', { 'accept-encoding': 'identity' });
    const zipped = await raw('/widget.js', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(plain.headers['vary']).toContain('Accept-Encoding');
  });
});
