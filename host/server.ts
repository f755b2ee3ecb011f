/**
 * Listens. `tsx host/server.ts [--config file] [--host h] [--port n]`: the primary process forks one worker per CPU
 * core (`gateway.Workers`, `WORKERS` env; 1 → no cluster), replaces a worker that dies (with backoff, giving up
 * past `gateway.RestartLimit`: restart-policy.ts), forwards SIGHUP (dictionary reload) and SIGTERM/SIGINT (graceful
 * shutdown) to the workers, sums the workers' metrics for `GET /metrics` (metrics.ts), and runs license renewal,
 * relaying an installed key to every worker. `--license-server` runs the license server instead. Exit codes:
 * restart-policy.ts `EXIT` (docs/OPERATIONS.md).
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { createApp, swapEngine, type AddressApp } from './app.js';
import { requestHandler } from './fast-path.js';
import { loadConfig, parseListen, type Config } from './config.js';
import { COUNTRIES, type Country, type Engine } from '../engine/types.js';
import type { HouseCodes } from '../engine/dictionary.js';
import { blobFile } from '../engine/index.js';
import { reloadEngine } from '../engine/reload.js';
import { logDestination } from './log-destination.js';
import { clusterScrape, metricsEndpoint, ServiceMetrics, workerScrape } from './metrics.js';
import { EXIT, isListenError, RestartPolicy } from './restart-policy.js';
import { LicenseManager } from './license.js';
import { applyScheduling } from './scheduling.js';
import { envelope, JSON_TYPE } from './middleware/errors.js';
import { interruptBodyRead, markAnswered } from './middleware/json-body.js';
import { logRequest } from './middleware/access-log.js';
import { AppError, GrpcCode, InvalidArgumentError, RequestTimeoutError } from './errors.js';

/** The access log goes to stdout in writes of about this many bytes (≈18 request lines)… */
const LOG_BATCH_BYTES = 2048;
/**
 * …gathered in strings of at most this many bytes: sonic-boom measures the UTF-8 length of the string a line joins
 * on every line, so that string's size is paid per line (docs/DESIGN.md, "Request path").
 */
const LOG_WRITE_BYTES = 3072;
/** …and at least this often when traffic is low. */
const LOG_FLUSH_MS = 500;

type EngineFactory = (options: { dir: string; houseCodes?: HouseCodes; log?: (line: string) => void }) => Promise<Engine>;

/** `engine/index.ts` (the lead's) exports `createEngine({dir})`. */
export async function loadEngineFactory(): Promise<EngineFactory> {
  const modulePath = '../engine/index.js';
  const module = (await import(modulePath)) as { createEngine?: EngineFactory };
  if (typeof module.createEngine !== 'function') throw new Error('engine/index.ts does not export createEngine({dir})');
  return module.createEngine;
}

function licenseManager(config: Config, logger: Logger): LicenseManager {
  return new LicenseManager({
    key: config.license.Key,
    publicKey: config.license.PublicKey,
    prolongationServer: config.license.ProlongationServer,
    renewBeforeDays: config.license.RenewBeforeDays,
    stateFile: config.license.StateFile,
    logger,
  });
}

function logLicense(license: LicenseManager, logger: Logger): void {
  const state = license.state();
  if (state.status === 'community') logger.info('no license key configured: open community installation');
  else if (state.status === 'valid') logger.info({ customer: state.customer, expires: state.expires, countries: state.countries }, 'license valid');
  else logger.warn({ status: state.status, message: state.message }, 'license not valid: data methods answer 403');
}

export interface RunningServer {
  server: Server;
  app: AddressApp;
  url: string;
  /** stops accepting, lets requests in flight finish (up to ShutdownTimeout), then resolves */
  close(): Promise<void>;
  /** loads the dictionaries again and swaps the engine without dropping a request */
  reload(): Promise<void>;
}

/** Where a response in flight sits in its server's `InFlight` arrays. */
const SLOT = Symbol('in-flight slot');
type Slotted = ServerResponse & { [SLOT]?: number };

/**
 * The responses of one server that have not closed yet, with their WriteTimeout deadlines: two arrays, a
 * response's place kept on the response, and one taken out by moving the last into its place. Not a Map keyed by
 * the responses: under load, with the fast path's answers held to the end of a loop turn, 12–15 % of the young
 * generation survived each scavenge with the Map, 0.6 % with these arrays (docs/DESIGN.md, "Request path").
 */
class InFlight {
  readonly responses: Slotted[] = [];
  readonly deadlines: number[] = [];

  add(res: Slotted, deadline: number): void {
    res[SLOT] = this.responses.length;
    this.responses.push(res);
    this.deadlines.push(deadline);
  }

  remove(res: Slotted): void {
    const slot = res[SLOT];
    if (slot === undefined || slot < 0 || this.responses[slot] !== res) return;
    res[SLOT] = -1;
    const last = this.responses.pop()!;
    const deadline = this.deadlines.pop()!;
    if (last === res) return;
    this.responses[slot] = last;
    this.deadlines[slot] = deadline;
    last[SLOT] = slot;
  }

  /** Moves the deadline of a response still in flight (a request whose body came late: WriteTimeout from its end). */
  postpone(res: Slotted, deadline: number): void {
    const slot = res[SLOT];
    if (slot !== undefined && slot >= 0 && this.responses[slot] === res) this.deadlines[slot] = deadline;
  }

  /** The responses whose deadline has passed, each given no deadline from now on. */
  expired(now: number): Slotted[] {
    const out: Slotted[] = [];
    for (let i = 0; i < this.deadlines.length; i++) {
      if (this.deadlines[i] > now) continue;
      this.deadlines[i] = Infinity;
      out.push(this.responses[i]);
    }
    return out;
  }
}

/** The responses in flight of each server `createHttpServer` made. */
const IN_FLIGHT = new WeakMap<Server, InFlight>();

/** The responses of a server from `createHttpServer` that have not closed yet. */
export function responsesInFlight(server: Server): Iterable<ServerResponse> {
  return [...(IN_FLIGHT.get(server)?.responses ?? [])];
}

/**
 * A node HTTP server with the gateway timeouts: ReadTimeout bounds receiving the whole request (408 code 4),
 * WriteTimeout bounds answering it once it is in: a response not finished in time gets 504 code 4 if nothing was
 * sent yet, else the connection is cut. A request whose body is still coming when WriteTimeout has passed is
 * ReadTimeout's: it waits out the rest of ReadTimeout, then gets 408; its body ending in time restarts WriteTimeout.
 * An HTTP/1.1 request without `Host`, and what node cannot parse (`answerClientError`), get the error envelope,
 * and a line in `logger`'s access log, as the requests the app answers do.
 */
export function createHttpServer(config: Config, handle: (req: IncomingMessage, res: ServerResponse) => void, logger?: Logger): Server {
  const { ReadTimeout, WriteTimeout } = config.gateway;
  const server = createServer({
    requestTimeout: ReadTimeout,
    headersTimeout: Math.min(ReadTimeout, 60_000),
    // how often node checks the two above; its default (30 s) would make short timeouts late
    connectionsCheckingInterval: Math.max(50, Math.min(Math.floor(ReadTimeout / 4), 30_000)),
    keepAliveTimeout: 5_000,
    // node's own refusal is a bare 400; the handler below answers the envelope
    requireHostHeader: false,
  });
  // WriteTimeout as node checks requestTimeout: the responses in flight with their deadlines, swept on an
  // interval (a timer armed and cleared per request costs more than the sweep); an expired one stays in flight,
  // with no deadline, until it closes
  const inFlight = new InFlight();
  IN_FLIGHT.set(server, inFlight);
  /** responses whose request was still arriving at WriteTimeout, given the rest of ReadTimeout */
  const waitedForBody = new WeakSet<ServerResponse>();
  const expire = (res: ServerResponse, now: number) => {
    if (res.writableFinished) return;
    if (!res.req.complete) {
      // the deadline was the request's start + WriteTimeout, so ReadTimeout − WriteTimeout of reading is left
      const readLeft = ReadTimeout - WriteTimeout;
      if (readLeft > 0 && !waitedForBody.has(res)) {
        waitedForBody.add(res);
        inFlight.postpone(res, now + readLeft);
        res.req.once('end', () => inFlight.postpone(res, performance.now() + WriteTimeout));
        return;
      }
      // the reader of the body is told first: it hands the request to Koa, which sets a 404 to start with, and
      // whose error middleware runs only after this answer is written (a microtask later), finding it sent
      const error = new RequestTimeoutError();
      markAnswered(res.req, error);
      interruptBodyRead(res.req);
      if (!res.headersSent) answerEnvelope(res, error);
      else res.destroy();
      return;
    }
    if (!res.headersSent) answerEnvelope(res, new AppError(GrpcCode.DEADLINE_EXCEEDED, `ответ не готов за WriteTimeout ${WriteTimeout} мс`));
    else res.destroy();
  };
  const sweep = setInterval(() => {
    // expired first, answered after: an answer may close its response, which moves the arrays
    const now = performance.now();
    for (const res of inFlight.expired(now)) expire(res, now);
  }, Math.max(10, Math.min(Math.floor(WriteTimeout / 10), 1_000)));
  sweep.unref();
  server.on('close', () => clearInterval(sweep));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, logger));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res, performance.now() + WriteTimeout);
    res.on('close', () => inFlight.remove(res));
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      const error = new InvalidArgumentError('заголовок Host обязателен в запросе HTTP/1.1.');
      answerEnvelope(res, error);
      if (logger) logRequest(logger, req.method ?? '', req.url ?? '', error.status, 0, error);
      return;
    }
    handle(req, res);
  });
  return server;
}

/** Answers `error` in the envelope and closes the connection (the request may not have been read to its end). */
function answerEnvelope(res: ServerResponse, error: AppError): void {
  res.statusCode = error.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Connection', 'close');
  res.end(JSON.stringify(envelope(error)));
}

/** The method and path of the request node could not parse, as far as its bytes show them (`rawPacket`). */
function firstLine(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): [string, string] {
  const line = err.rawPacket?.subarray(0, 256).toString('utf8').split('\r\n', 1)[0] ?? '';
  const [method = '', url = ''] = line.split(' ', 2);
  return [method, url];
}

/** Hints by llhttp error code: what a client most likely sent wrong. */
function parseHint(code: string | undefined): string {
  if (code === 'HPE_INVALID_URL' || code === 'HPE_INVALID_HEADER_TOKEN' || code === 'HPE_INVALID_HEADER_VALUE' || code === 'HPE_LF_EXPECTED') {
    return 'путь и заголовки пишутся в ASCII, кириллица в URL — как %XX.';
  }
  if (code === 'HPE_UNEXPECTED_CONTENT_LENGTH' || code === 'HPE_INVALID_CONTENT_LENGTH' || code === 'HPE_INVALID_TRANSFER_ENCODING' || code === 'HPE_INVALID_CHUNK_SIZE') {
    return 'длина тела задаётся одним Content-Length или Transfer-Encoding: chunked.';
  }
  if (code === 'HPE_INVALID_METHOD' || code === 'HPE_INVALID_VERSION' || code === 'HPE_INVALID_CONSTANT') return 'первая строка запроса: <метод> <путь> HTTP/1.1.';
  return 'запрос не соответствует HTTP/1.1.';
}

/**
 * What node's HTTP parser could not read never reaches a handler: raw UTF-8 in the path, a malformed header line,
 * headers over the limit, a request not in within ReadTimeout. Node would answer a bare status line; this answers
 * the envelope every other failure gets (400 code 3, 431 code 3, 408 code 4), then closes the connection. A socket
 * gone, one whose client stopped sending in the middle of a request, or one whose response has begun, is only
 * closed. Nothing here may throw: it runs outside any request.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, logger?: Logger): void {
  try {
    const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    // the client gone, or done sending in the middle of its request (HPE_INVALID_EOF_STATE): nobody to answer; the
    // request being read, if any, ends as closed by the client
    if (err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const error =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new RequestTimeoutError()
      : err.code === 'HPE_HEADER_OVERFLOW' ? new AppError(GrpcCode.INVALID_ARGUMENT, 'заголовки запроса слишком велики.', [], 431)
      : new InvalidArgumentError(`запрос не разобран (${err.code ?? 'HTTP'}): ${parseHint(err.code)}`);
    // a request whose body was being read when this came (a handler may be waiting on it) logs this answer; one
    // that never became a request is logged here, with what node read of its first line
    if (answering) markAnswered(answering.req, error);
    else if (logger) logRequest(logger, ...firstLine(err), error.status, 0, error);
    const body = JSON.stringify(envelope(error));
    socket.end(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  } catch {
    socket.destroy();
  }
}

/** One process serving HTTP: engine, app, node server, reload and graceful close. */
export async function startServer(options: {
  config: Config;
  logger: Logger;
  createEngine: EngineFactory;
  license?: LicenseManager;
  /** tests listen on 127.0.0.1:0 */
  listen?: { host: string; port: number };
}): Promise<RunningServer> {
  const { config, logger } = options;
  const dir = resolve(config.dictionaries.Dir);
  const started = performance.now();
  const houseCodes = config.dictionaries.HouseCodes;
  if (config.dictionaries.Countries.length === 0) config.dictionaries.Countries = countriesAtStart(dir);
  const engine = await options.createEngine({ dir, houseCodes, log: (line) => logger.info(line) });
  logger.info({ dir, countries: engine.countries(), ms: Math.round(performance.now() - started) }, 'dictionaries loaded');
  const license = options.license ?? licenseManager(config, logger);
  const app = createApp({ engine, config, logger, license });
  const metrics = config.metrics.Enabled ? new ServiceMetrics({ engine: () => app.services.engine }) : undefined;
  // before the fast path is made: it takes its routes' counters from here
  app.services.metrics = metrics;
  const handle = requestHandler(app);
  const metricsPath = metrics ? config.metrics.Path : null;
  const serveMetrics = metrics
    ? metricsEndpoint(cluster.isWorker ? workerScrape(metrics) : () => metrics.registry.metrics(), (err) => logger.warn({ err }, 'metrics not collected'))
    : null;
  let closing = false;
  /** a response that closes while the server closes lets the connections it leaves idle go */
  const closeIdleAfter = (res: ServerResponse) => res.once('close', () => server.closeIdleConnections());
  const server = createHttpServer(config, (req, res) => {
    if (closing) {
      res.setHeader('Connection', 'close');
      closeIdleAfter(res);
    }
    if (req.url === metricsPath && req.method === 'GET') serveMetrics!(req, res);
    else handle(req, res);
  }, logger);
  const { host, port } = options.listen ?? parseListen(config.gateway.Listen);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    try {
      server.listen(port, host, () => {
        server.off('error', reject);
        resolveListen();
      });
    } catch (err) {
      // a port out of range throws here, not as 'error'
      reject(err);
    }
  });
  const address = server.address();
  const url = typeof address === 'object' && address ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}` : '';
  logger.info({ url }, 'listening');

  let reloading: Promise<void> | null = null;
  return {
    server,
    app,
    url,
    close() {
      closing = true;
      // keep-alive connections of requests in flight close once their answer is written
      for (const res of responsesInFlight(server)) {
        if (!res.headersSent) res.setHeader('Connection', 'close');
        closeIdleAfter(res);
      }
      return new Promise<void>((resolveClose) => {
        const force = setTimeout(() => server.closeAllConnections(), config.gateway.ShutdownTimeout);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolveClose();
        });
        server.closeIdleConnections();
      });
    },
    reload() {
      reloading ??= (async () => {
        try {
          // the dictionaries replaced close their files once collected (in-flight requests may still read them);
          // a country whose file is missing or bad keeps the dictionary it had (engine/reload.ts)
          const { engine: next, failures } = await reloadEngine(app.services.engine, { dir, houseCodes });
          swapEngine(app, next);
          metrics?.reloads.inc();
          for (const { country, file, reason, kept } of failures) {
            metrics?.reloadFailures.inc({ country });
            logger.error({ country, file, reason }, kept ? 'dictionary not reloaded: the one loaded before stays in service' : 'dictionary not loaded');
          }
          const line = { dir, countries: next.countries(), failed: failures.map((failure) => failure.country) };
          if (failures.length > 0) logger.warn(line, 'dictionaries reloaded, some files failed');
          else logger.info(line, 'dictionaries reloaded');
        } catch (err) {
          metrics?.reloadFailures.inc({ country: 'all' });
          logger.error({ err }, 'dictionary reload failed: the loaded dictionaries stay in service');
        } finally {
          reloading = null;
        }
      })();
      return reloading;
    },
  };
}

/** Set by the primary for its workers: the countries served at start (a worker started later expects them too). */
const COUNTRIES_AT_START = 'ADDRESS_SERVICE_COUNTRIES_AT_START';

/**
 * The countries the service must serve when `dictionaries.Countries` is empty: those whose dictionary file was in
 * `dir` when the service started (the primary's look, passed to its workers), so that a worker started after a file
 * went missing reports the country absent (health 503) instead of serving without it.
 */
function countriesAtStart(dir: string): Country[] {
  const passed = process.env[COUNTRIES_AT_START];
  if (passed !== undefined) return passed.split(',').filter((code): code is Country => (COUNTRIES as readonly string[]).includes(code));
  return COUNTRIES.filter((country) => existsSync(blobFile(dir, country)));
}

type ClusterMessage = { type: 'license'; key: string };

function workerCount(config: Config): number {
  return config.gateway.Workers > 0 ? config.gateway.Workers : availableParallelism();
}

async function runWorker(config: Config, logger: Logger, inCluster: boolean): Promise<void> {
  const license = licenseManager(config, logger);
  if (inCluster) {
    // a key installed by PUT in this worker goes to the primary, which hands it to every worker
    license.onInstall((key) => process.send?.({ type: 'license', key } satisfies ClusterMessage));
    process.on('message', (message: ClusterMessage) => {
      if (message?.type === 'license' && message.key !== license.currentKey) {
        try {
          // checked by the process that took it (PUT or renewal): not refused here as narrower
          license.install(message.key, { notify: false, force: true });
        } catch (err) {
          logger.warn({ err: (err as Error).message }, 'license key from the primary refused');
        }
      }
    });
  } else {
    logLicense(license, logger);
    license.startRenewal();
  }
  // a SIGHUP while the dictionaries load (its default action ends the process) reloads once they are in service
  let running: RunningServer | null = null;
  let reloadWhenUp = false;
  process.on('SIGHUP', () => {
    if (running) void running.reload();
    else reloadWhenUp = true;
  });
  try {
    running = await startServer({ config, logger, createEngine: await loadEngineFactory(), license });
  } catch (err) {
    if (!isListenError(err)) throw err;
    // no restart mends it: the primary, seeing this exit code, stops the service with it
    logger.fatal({ err, listen: config.gateway.Listen }, `cannot listen on ${config.gateway.Listen}: ${(err as Error).message}`);
    process.exit(EXIT.CANNOT_LISTEN);
  }
  const served = running;
  if (reloadWhenUp) void served.reload();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests in flight');
    license.stopRenewal();
    // close() cuts the connections left at ShutdownTimeout; should it still not end, the process does
    setTimeout(() => {
      logger.error('requests still in flight after ShutdownTimeout + 5 s: exiting');
      process.exit(EXIT.SHUTDOWN_FORCED);
    }, config.gateway.ShutdownTimeout + 5_000).unref();
    void served.close().then(() => {
      logger.info('stopped');
      process.exit(EXIT.STOPPED);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (inCluster) process.on('disconnect', () => stop('disconnect'));
}

function runPrimary(config: Config, logger: Logger, count: number): void {
  const license = licenseManager(config, logger);
  logLicense(license, logger);
  // the process to signal: SIGHUP reloads the dictionaries, SIGTERM stops (the `pid` of this line)
  logger.info({ workers: count }, `primary: SIGHUP to pid ${process.pid} reloads the dictionaries, SIGTERM stops the service`);
  // what a worker started later must serve too (countriesAtStart)
  process.env[COUNTRIES_AT_START] = (config.dictionaries.Countries.length > 0
    ? config.dictionaries.Countries
    : countriesAtStart(resolve(config.dictionaries.Dir))).join(',');
  const metrics = config.metrics.Enabled ? new ServiceMetrics({ primary: true }) : undefined;
  if (metrics) clusterScrape(metrics);
  const restarts = new RestartPolicy(config.gateway.RestartLimit);
  /** workers to start once their backoff has passed */
  const pending = new Set<NodeJS.Timeout>();
  let stopping = false;
  const broadcast = (message: ClusterMessage) => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.send(message);
  };
  license.onInstall((key) => broadcast({ type: 'license', key }));
  license.startRenewal();
  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: ClusterMessage) => {
      if (message?.type === 'license' && message.key !== license.currentKey) {
        try {
          // checked by the worker that took the PUT: not refused here as narrower
          license.install(message.key, { force: true });
        } catch (err) {
          logger.warn({ err: (err as Error).message }, 'license key from a worker refused');
        }
      }
    });
    return worker;
  };
  // before the first fork: the workers' listening sockets take the policy in force when they listen
  cluster.schedulingPolicy = config.gateway.Balance === 'os' ? cluster.SCHED_NONE : cluster.SCHED_RR;
  for (let i = 0; i < count; i++) fork();
  const alive = () => Object.values(cluster.workers ?? {}).filter((worker) => worker && !worker.isDead()).length;
  /**
   * Ends the service: no more restarts, SIGTERM to every worker, exit `code` once none is alive (at once when none
   * is); workers still alive after `graceMs` are killed and the exit code is `forcedCode`.
   */
  const end = (code: number, graceMs: number, forcedCode: number) => {
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    license.stopRenewal();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => {
      logger.error({ graceMs }, 'workers still running: killing them');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(forcedCode);
    }, graceMs);
    cluster.on('exit', () => {
      if (alive() === 0) process.exit(code);
    });
    // every worker may be dead already, waiting for its restart
    if (alive() === 0) process.exit(code);
  };
  /** what cannot serve: the workers get 5 s, and the exit code says why either way */
  const giveUp = (code: number) => end(code, 5_000, code);
  cluster.on('exit', (worker, code, signal) => {
    metrics?.workers.set(alive());
    if (stopping) return;
    if (code === EXIT.CANNOT_LISTEN) {
      logger.fatal({ worker: worker.process.pid, listen: config.gateway.Listen }, `cannot serve: a worker could not listen on ${config.gateway.Listen} (its log line says why): exiting ${EXIT.CANNOT_LISTEN}`);
      giveUp(EXIT.CANNOT_LISTEN);
      return;
    }
    const delay = restarts.died(Date.now());
    if (delay === null) {
      logger.fatal(
        { worker: worker.process.pid, code, signal, deaths: restarts.deaths, limit: config.gateway.RestartLimit },
        `cannot serve: workers died ${restarts.deaths} times in a row (gateway.RestartLimit ${config.gateway.RestartLimit}): exiting ${EXIT.CRASH_LOOP}`,
      );
      giveUp(EXIT.CRASH_LOOP);
      return;
    }
    logger.error({ worker: worker.process.pid, code, signal, restartInMs: delay, deaths: restarts.deaths }, 'worker died: starting a new one');
    // not unref'd: with every worker dead, this timer is what keeps the primary, and so the service, alive
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (stopping) return;
      metrics?.workerRestarts.inc();
      fork();
      metrics?.workers.set(alive());
    }, delay);
    pending.add(timer);
  });
  metrics?.workers.set(alive());
  process.on('SIGHUP', () => {
    logger.info('SIGHUP: reloading dictionaries in every worker');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
  });
  const stop = (signal: string) => {
    if (stopping) return;
    logger.info({ signal }, 'shutting down the workers');
    end(EXIT.STOPPED, config.gateway.ShutdownTimeout + 5_000, EXIT.SHUTDOWN_FORCED);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  if (argv.includes('--license-server')) {
    const { main: licenseServerMain } = await import('./license-server.js');
    await licenseServerMain(argv.filter((arg) => arg !== '--license-server'));
    return;
  }
  const config = loadConfig({ argv });
  // log writes in batches: lines gather until LOG_BATCH_BYTES (or LOG_FLUSH_MS passed) and go out in one write,
  // not a write per request line (flushed before every exit). The write is synchronous, as pino's default: an
  // asynchronous one goes through libuv's thread pool, and waking that thread and being called back cost a
  // worker ≈4.5 µs a request under load on 2 cores (docs/DESIGN.md, "Request path")
  // a reader of stdout that goes away (EPIPE) stops the logging, never the service or its exit (log-destination.ts)
  const destination = logDestination({ fd: 1, minLength: LOG_BATCH_BYTES, maxWrite: LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS });
  const logger = pino({ level: config.log.Level, base: { pid: process.pid } }, destination.stream);
  process.on('exit', () => destination.flushOnExit());
  process.stderr.on('error', () => undefined);
  // a request never crashes the process (the error middleware answers it); anything else that escapes is
  // logged, and a broken worker exits so the primary starts a fresh one
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception: exiting');
    process.exit(EXIT.FAILED);
  });
  const count = workerCount(config);
  // once, in the first process: the workers a primary forks inherit the policy
  if (cluster.isPrimary) applyScheduling(config.gateway.Scheduling, logger);
  if (cluster.isPrimary && count > 1) runPrimary(config, logger, count);
  else await runWorker(config, logger, !cluster.isPrimary);
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('host/server.ts')) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(EXIT.FAILED);
  });
}
