/**
 * Prometheus metrics (`GET /metrics`, `metrics.Enabled` / `metrics.Path`, docs/OPERATIONS.md): prom-client's text
 * format of one registry per process, the workers' registries summed by the primary.
 *
 * A request is counted where it is logged (the fast path's line writer, Koa's access log) into plain numbers of
 * its route (`RouteStats`): a status count and four histograms kept as bucket arrays, a few additions a request.
 * prom-client's own Counter and Histogram hash their label values on every call, which the fast path would pay
 * per request; these numbers become prom-client metric objects only when scraped (`statsCollector`), and from
 * there on prom-client does the rest: the default process metrics, the text format, and in a cluster
 * `AggregatorRegistry.aggregate`, the sum over the workers the primary asks on each scrape (`clusterScrape`).
 */
import cluster, { type Worker } from 'node:cluster';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import { UnavailableError } from './errors.js';
import { envelope, JSON_TYPE } from './middleware/errors.js';
import { COUNTRIES, type Engine } from '../engine/types.js';

/** seconds */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** bytes */
const SIZE_BUCKETS = [64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576];
const DAY_MS = 86_400_000;

/** A histogram as plain numbers: counts per bucket (not cumulative; the last is +Inf) and the sum. */
class Buckets {
  readonly counts: Float64Array;
  sum = 0;

  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
  }

  /** prom-client's values of a histogram: cumulative `_bucket`s with `le`, `_sum`, `_count`. */
  values(name: string, labels: Record<string, string>): MetricValue[] {
    const out: MetricValue[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.counts.length; i++) {
      cumulative += this.counts[i];
      out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: i < this.bounds.length ? String(this.bounds[i]) : '+Inf' }, value: cumulative });
    }
    out.push({ metricName: `${name}_sum`, labels, value: this.sum }, { metricName: `${name}_count`, labels, value: cumulative });
    return out;
  }
}

type MetricValue = { value: number; labels: Record<string, string>; metricName?: string };
/** one registry's `getMetricsAsJSON()`, as it crosses the IPC channel */
type MetricJson = object[];

/** What one method and route label answered since the process started. */
export class RouteStats {
  /** 200s apart: the fast path answers nothing else, and a field costs less than a Map */
  ok = 0;
  readonly statuses = new Map<number, number>();
  readonly duration = new Buckets(DURATION_BUCKETS);
  readonly engine = new Buckets(DURATION_BUCKETS);
  readonly requestBytes = new Buckets(SIZE_BUCKETS);
  readonly responseBytes = new Buckets(SIZE_BUCKETS);
  readonly labels: Record<string, string>;

  constructor(method: string, route: string) {
    this.labels = { method, route };
  }

  /** One answered request: times in ms; `engineMs` < 0 when no handler ran (a refusal before it). */
  observe(status: number, ms: number, engineMs: number, bytesIn: number, bytesOut: number): void {
    if (status === 200) this.ok++;
    else this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    this.duration.observe(ms / 1000);
    if (engineMs >= 0) this.engine.observe(engineMs / 1000);
    this.requestBytes.observe(bytesIn);
    this.responseBytes.observe(bytesOut);
  }
}

/** A metric object prom-client's registry reads (`get()`), made of values computed when scraped. */
function collector(name: string, help: string, type: 'counter' | 'gauge' | 'histogram', values: () => MetricValue[], aggregator: 'sum' | 'max' = 'sum') {
  return {
    name,
    help,
    type,
    aggregator,
    get: async () => ({ name, help, type, aggregator, values: values() }),
  };
}

const START_SECONDS = Math.round(Date.now() / 1000 - process.uptime());

/** CPU, memory and start time of this process, computed at scrape time (summed over the workers by the primary). */
function processCollectors() {
  const one = (value: number): MetricValue[] => [{ value, labels: {} }];
  return [
    collector('process_cpu_user_seconds_total', 'User CPU time spent, seconds', 'counter', () => one(process.cpuUsage().user / 1e6)),
    collector('process_cpu_system_seconds_total', 'System CPU time spent, seconds', 'counter', () => one(process.cpuUsage().system / 1e6)),
    collector('process_resident_memory_bytes', 'Resident memory size, bytes', 'gauge', () => one(process.memoryUsage.rss())),
    collector('nodejs_heap_size_used_bytes', 'V8 heap used, bytes', 'gauge', () => one(process.memoryUsage().heapUsed)),
    collector('nodejs_heap_size_total_bytes', 'V8 heap size, bytes', 'gauge', () => one(process.memoryUsage().heapTotal)),
    collector('nodejs_external_memory_bytes', 'Memory of C++ objects bound to JavaScript (WASM memories, buffers), bytes', 'gauge', () => one(process.memoryUsage().external)),
    collector('process_start_time_seconds', 'Start time of the process, seconds since the Unix epoch', 'gauge', () => one(START_SECONDS), 'max'),
  ];
}

/** `YYYYMMDD` → days from that date (UTC midnight) to `now`, or NaN. */
export function ageDays(sourceDate: string, now = Date.now()): number {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(sourceDate);
  if (!match) return Number.NaN;
  return (now - Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) / DAY_MS;
}

/**
 * The metrics of one process: a process that serves (a worker, or the one process of WORKERS=1) counts requests
 * and reloads and reports its dictionaries; the primary of a cluster counts worker restarts.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly routes = new Map<string, RouteStats>();
  readonly reloads: Counter;
  readonly reloadFailures: Counter<'country'>;
  readonly workerRestarts: Counter;
  readonly workers: Gauge;

  /** `engine()`: the engine new requests use (it changes on reload); `primary`: the cluster's primary */
  constructor(options: { engine?: () => Engine; primary?: boolean; defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    // a metric of the other kind of process is made, not registered: its calls count nowhere
    const mine = (primaryOnly: boolean) => (primaryOnly === !!options.primary ? registers : []);
    // the process's own figures, read when scraped, not prom-client's collectDefaultMetrics: its GC observer (an entry
    // and a callback per collection) and event-loop monitor run on every request's garbage. bench/soak.ts on
    // 2026-12-07 (busy 2-core machine): 15.7–16.7 k req/s with them, 17.5–21.1 k without
    if (options.defaultMetrics !== false) for (const metric of processCollectors()) this.registry.registerMetric(metric as never);
    this.reloads = new Counter({ name: 'address_dictionary_reloads_total', help: 'Dictionary reloads (SIGHUP), one per worker', registers: mine(false) });
    this.reloadFailures = new Counter({
      name: 'address_dictionary_reload_failures_total',
      help: 'Dictionary files a reload could not load (missing or unreadable): the dictionary loaded before stays in service',
      labelNames: ['country'],
      registers: mine(false),
    });
    this.workerRestarts = new Counter({ name: 'address_worker_restarts_total', help: 'Workers started in place of one that died', registers: mine(true) });
    this.workers = new Gauge({ name: 'address_workers', help: 'Worker processes alive', registers: mine(true) });
    if (options.primary) return;
    const register = (metric: ReturnType<typeof collector>) => this.registry.registerMetric(metric as never);
    register(collector('address_http_requests_total', 'HTTP requests answered, by method, route and status', 'counter', () => this.statusValues()));
    register(collector('address_http_request_duration_seconds', 'From the request read to its answer written, by method and route', 'histogram', () => this.histogramValues('address_http_request_duration_seconds', 'duration')));
    register(collector('address_engine_duration_seconds', "Time in the route's handler: validation, the engine's search, the records and their JSON", 'histogram', () => this.histogramValues('address_engine_duration_seconds', 'engine')));
    register(collector('address_http_request_size_bytes', 'Request body bytes, by method and route', 'histogram', () => this.histogramValues('address_http_request_size_bytes', 'requestBytes')));
    register(collector('address_http_response_size_bytes', 'Response body bytes, by method and route', 'histogram', () => this.histogramValues('address_http_response_size_bytes', 'responseBytes')));
    const engine = options.engine;
    if (engine) {
      register(collector('address_dictionary_info', 'The dictionary each country is served from (version as in /version)', 'gauge', () => dictionaryValues(engine(), (country, date) => ({ labels: { country, version: `${country}_${date}` }, value: 1 })), 'max'));
      register(collector('address_dictionary_age_days', "Days since the source data of each country's dictionary", 'gauge', () => dictionaryValues(engine(), (country, date) => ({ labels: { country }, value: ageDays(date) })), 'max'));
    }
  }

  /** The counters of one method and route label (made once per route; `observe` on it per request). */
  route(method: string, route: string): RouteStats {
    const key = `${method} ${route}`;
    let stats = this.routes.get(key);
    if (!stats) this.routes.set(key, (stats = new RouteStats(method, route)));
    return stats;
  }

  private statusValues(): MetricValue[] {
    const out: MetricValue[] = [];
    for (const stats of this.routes.values()) {
      if (stats.ok > 0) out.push({ labels: { ...stats.labels, status: '200' }, value: stats.ok });
      for (const [status, count] of stats.statuses) out.push({ labels: { ...stats.labels, status: String(status) }, value: count });
    }
    return out;
  }

  private histogramValues(name: string, which: 'duration' | 'engine' | 'requestBytes' | 'responseBytes'): MetricValue[] {
    const out: MetricValue[] = [];
    for (const stats of this.routes.values()) {
      const buckets = stats[which];
      if (buckets.counts.some((count) => count > 0)) out.push(...buckets.values(name, stats.labels));
    }
    return out;
  }
}

function dictionaryValues(engine: Engine, value: (country: string, sourceDate: string) => MetricValue): MetricValue[] {
  const out: MetricValue[] = [];
  for (const country of COUNTRIES) {
    const dictionary = engine.dictionary(country);
    if (dictionary) out.push(value(country, dictionary.sourceDate));
  }
  return out;
}

export const CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

type ScrapeMessage =
  | { type: 'metrics:scrape'; id: number }
  | { type: 'metrics:text'; id: number; text: string }
  | { type: 'metrics:collect'; id: number }
  | { type: 'metrics:json'; id: number; metrics: MetricJson };

/** How long the primary waits for the workers' numbers, and a worker for the primary's text. */
const SCRAPE_TIMEOUT_MS = 3_000;

/**
 * In a worker: answers the primary's requests for this process's numbers, and asks the primary for everyone's
 * (`scrape()`, the text `GET /metrics` answers).
 */
export function workerScrape(metrics: ServiceMetrics): () => Promise<string> {
  let next = 0;
  const waiting = new Map<number, (text: string | null) => void>();
  process.on('message', (message: ScrapeMessage) => {
    if (message?.type === 'metrics:collect') {
      void metrics.registry.getMetricsAsJSON().then((json) => process.send?.({ type: 'metrics:json', id: message.id, metrics: json } satisfies ScrapeMessage));
    } else if (message?.type === 'metrics:text') {
      waiting.get(message.id)?.(message.text);
    }
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => waiting.get(id)?.(null), SCRAPE_TIMEOUT_MS + 1_000);
      waiting.set(id, (text) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (text === null) reject(new Error('the primary did not answer with the metrics'));
        else resolve(text);
      });
      process.send?.({ type: 'metrics:scrape', id } satisfies ScrapeMessage);
    });
}

/**
 * In the primary: a worker's `metrics:scrape` gets the sum of every live worker's numbers and the primary's own.
 * A worker that does not answer in SCRAPE_TIMEOUT_MS is left out of that scrape.
 */
export function clusterScrape(metrics: ServiceMetrics): void {
  let next = 0;
  const collecting = new Map<number, { pending: Set<number>; parts: MetricJson[]; done: () => void }>();
  cluster.on('message', (worker: Worker, message: ScrapeMessage) => {
    if (message?.type === 'metrics:json') {
      const round = collecting.get(message.id);
      if (!round) return;
      round.parts.push(message.metrics);
      round.pending.delete(worker.id);
      if (round.pending.size === 0) round.done();
    } else if (message?.type === 'metrics:scrape') {
      void collect().then(
        (text) => worker.isConnected() && worker.send({ type: 'metrics:text', id: message.id, text } satisfies ScrapeMessage),
        () => undefined,
      );
    }
  });
  cluster.on('exit', (worker) => {
    for (const round of collecting.values()) {
      round.pending.delete(worker.id);
      if (round.pending.size === 0) round.done();
    }
  });

  async function collect(): Promise<string> {
    const id = next++;
    const own = await metrics.registry.getMetricsAsJSON();
    const parts: MetricJson[] = [own];
    await new Promise<void>((resolve) => {
      const pending = new Set<number>();
      const timer = setTimeout(() => round.done(), SCRAPE_TIMEOUT_MS);
      const round = {
        pending,
        parts,
        done: () => {
          clearTimeout(timer);
          collecting.delete(id);
          resolve();
        },
      };
      collecting.set(id, round);
      for (const worker of Object.values(cluster.workers ?? {})) {
        if (!worker?.isConnected()) continue;
        pending.add(worker.id);
        worker.send({ type: 'metrics:collect', id } satisfies ScrapeMessage);
      }
      if (pending.size === 0) round.done();
    });
    return AggregatorRegistry.aggregate(parts as never).metrics();
  }
}

/** `GET <metrics.Path>`: the text of `scrape()`, 503 code 14 when it cannot be had. */
export function metricsEndpoint(scrape: () => Promise<string>, onError: (err: unknown) => void): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    req.resume();
    scrape().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      },
      (err: unknown) => {
        onError(err);
        const body = JSON.stringify(envelope(new UnavailableError('метрики недоступны: процессы сервиса не ответили, повторите запрос.')));
        res.writeHead(503, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      },
    );
  };
}
