/**
 * GET /metrics (host/metrics.ts): Prometheus text whose counters are the sum over every worker of a real
 * multi-worker service, the fast path's requests counted as Koa's are; off (404) with METRICS_ENABLED=false.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromObject } from '../../host/config.js';
import { loadEngineFactory, startServer } from '../../host/server.js';
import { startService, stopService, type ServiceProcess } from '../helpers/service-process.js';

const CLEAN = JSON.stringify({ query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' });

/** `name{labels} value` lines of a scrape, by the text before the value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    out.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return out;
}

let service: ServiceProcess | null = null;
afterEach(() => stopService(service));

describe('GET /metrics', () => {
  it('sums the requests of every worker by route and status, with histograms, dictionaries and restarts', async () => {
    service = startService();
    await service.until(() => service!.count('listening') >= 2);
    const url = service.url();
    const post = (path: string, body: string) => fetch(url + path, { method: 'POST', body }).then((r) => r.status);
    // fast path (200) and Koa (400 handed over, GET) on every connection the pool opens: both workers answer
    const statuses = await Promise.all([
      ...Array.from({ length: 30 }, () => post('/api/v1/clean/address', CLEAN)),
      ...Array.from({ length: 7 }, () => post('/api/v1/clean/address', '{}')),
      ...Array.from({ length: 5 }, () => fetch(`${url}/v1/version`).then((r) => r.status)),
    ]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(35);
    // each request's log line names its worker (lines are written within LOG_FLUSH_MS): both answered some, so
    // the counts below are sums over the two
    await new Promise((done) => setTimeout(done, 1_000));
    expect(new Set(service.events.filter((e) => e.msg === 'request').map((e) => e.pid)).size).toBe(2);

    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    const metrics = samples(text);
    const clean = 'method="POST",route="/api/v1/clean/address"';
    expect(metrics.get(`address_http_requests_total{${clean},status="200"}`)).toBe(30);
    expect(metrics.get(`address_http_requests_total{${clean},status="400"}`)).toBe(7);
    expect(metrics.get('address_http_requests_total{method="GET",route="/v1/version",status="200"}')).toBe(5);
    expect(metrics.get(`address_http_request_duration_seconds_count{${clean}}`)).toBe(37);
    expect(metrics.get(`address_http_request_duration_seconds_bucket{${clean},le="+Inf"}`)).toBe(37);
    expect(metrics.get(`address_engine_duration_seconds_count{${clean}}`)).toBe(30);
    expect(metrics.get(`address_http_request_size_bytes_sum{${clean}}`)).toBe(30 * Buffer.byteLength(CLEAN) + 7 * 2);
    expect(metrics.get(`address_http_response_size_bytes_count{${clean}}`)).toBe(37);
    const ruInfo = [...metrics.keys()].find((key) => key.startsWith('address_dictionary_info{country="ru",version="ru_'));
    expect(ruInfo && metrics.get(ruInfo)).toBe(1);
    expect(metrics.get('address_dictionary_age_days{country="ru"}')).toBeGreaterThan(0);
    expect(metrics.get('address_workers')).toBe(2);
    expect(metrics.get('address_worker_restarts_total')).toBe(0);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');

    const listening = service.events.filter((e) => e.msg === 'listening');
    process.kill(listening[0].pid, 'SIGKILL');
    await service.until(() => service!.count('listening') >= 3);
    const after = samples(await (await fetch(`${url}/metrics`)).text());
    expect(after.get('address_worker_restarts_total')).toBe(1);
    expect(after.get('address_workers')).toBe(2);
  }, 300_000);

  it('is not served with metrics.Enabled false', async () => {
    const config = configFromObject({ metrics: { Enabled: false } });
    const running = await startServer({ config, logger: pino({ level: 'silent' }), createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
    const response = await fetch(`${running.url}/metrics`);
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe(5);
    await running.close();
  });

  it('is served at metrics.Path', async () => {
    const config = configFromObject({ metrics: { Path: '/internal/metrics' } });
    const running = await startServer({ config, logger: pino({ level: 'silent' }), createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
    expect((await fetch(`${running.url}/internal/metrics`)).status).toBe(200);
    expect((await fetch(`${running.url}/metrics`)).status).toBe(404);
    await running.close();
  });
});
