/**
 * The service configuration: `config/address-service.yaml` (or `--config <file>` / `ADDRESS_SERVICE_CONFIG`),
 * validated with ajv at start; a bad file throws a message naming the file and the key. Defaults fill what is
 * absent. `PORT` env and `--port` override the port of `gateway.Listen`, `HOST` env and `--host` its host (the flag
 * wins over the variable, both over the file), `WORKERS` env the worker count, `ADDRESS_SERVICE_OPERATOR_KEY` env
 * `auth.OperatorKey`, `CORS_ORIGINS` env (comma-separated) `cors.AllowedOrigins`, `METRICS_ENABLED` and
 * `METRICS_PATH` the `metrics` section.
 */
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { Ajv } from 'ajv';
import { formatErrors } from './schemas/validator.js';
import { publicKeyFrom } from './license.js';
import type { HouseCodes } from '../engine/dictionary.js';
import { COUNTRIES, type Country } from '../engine/types.js';

export interface Config {
  gateway: {
    Listen: string;
    ReadTimeout: number;
    WriteTimeout: number;
    Workers: number;
    /** how new connections reach the workers: `roundrobin` (node cluster SCHED_RR, node's default) or `os` (SCHED_NONE) */
    Balance: 'roundrobin' | 'os';
    /** the processes' CPU scheduling policy: `batch` (Linux SCHED_BATCH, host/scheduling.ts) or `normal` */
    Scheduling: 'batch' | 'normal';
    ShutdownTimeout: number;
    /** worker deaths in a row (none 60 s apart) after which the primary gives up and exits 4 (docs/OPERATIONS.md) */
    RestartLimit: number;
  };
  license: {
    Key: string;
    ProlongationServer: string;
    PublicKey: string;
    RenewBeforeDays: number;
    StateFile: string;
  };
  auth: {
    Enabled: boolean;
    Keys: string[];
    Users: { login: string; pwd: string }[];
    /** the operator's credential for PUT /api/v1/license, needed whether `Enabled` or not; empty: that method is refused */
    OperatorKey: string;
  };
  dictionaries: {
    Dir: string;
    /** where the houses' FIAS GUIDs, GAR ids and cadastral numbers live */
    HouseCodes: HouseCodes;
    /** the countries the service must serve; empty: those whose dictionary is in Dir when the service starts */
    Countries: Country[];
  };
  metrics: {
    /** `GET <Path>`: Prometheus text of every worker's counters, summed (host/metrics.ts) */
    Enabled: boolean;
    Path: string;
  };
  log: {
    Level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  };
  cors: {
    /** origins whose pages may call the service (`https://shop.example`); `*`: any (middleware/cors.ts) */
    AllowedOrigins: string[];
  };
}

export const DEFAULT_CONFIG_PATH = 'config/address-service.yaml';

/** The operator key's rule, for the schema and for the env variable. */
const OPERATOR_KEY_RULE = 'ожидается не меньше 16 печатных символов ASCII без пробелов (пусто: PUT /api/v1/license отключён)';
export const OPERATOR_KEY_ENV = 'ADDRESS_SERVICE_OPERATOR_KEY';
/** `*`, or an origin: scheme, host and an optional port, nothing after (`https://shop.example:8443`). */
const CORS_ORIGIN = '^(\\*|https?://[^/\\s]+/?)$';

const LISTEN = '^(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9.-]*):\\d{1,5}$';

export const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    gateway: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        Listen: { type: 'string', pattern: LISTEN, 'x-message': 'ожидается host:port, например 0.0.0.0:8080', default: '0.0.0.0:8080' },
        ReadTimeout: { type: 'integer', minimum: 1, default: 60000 },
        WriteTimeout: { type: 'integer', minimum: 1, default: 60000 },
        Workers: { type: 'integer', minimum: 0, maximum: 1024, default: 0 },
        Balance: { type: 'string', enum: ['roundrobin', 'os'], default: 'roundrobin' },
        Scheduling: { type: 'string', enum: ['batch', 'normal'], default: 'batch' },
        ShutdownTimeout: { type: 'integer', minimum: 0, default: 10000 },
        RestartLimit: { type: 'integer', minimum: 0, default: 10 },
      },
    },
    license: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        Key: { type: 'string', default: '' },
        ProlongationServer: { type: 'string', pattern: '^(|https?://\\S+)$', 'x-message': 'ожидается URL http(s)://…', default: '' },
        PublicKey: { type: 'string', default: '' },
        RenewBeforeDays: { type: 'number', minimum: 0, default: 7 },
        StateFile: { type: 'string', default: '' },
      },
    },
    auth: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        Enabled: { type: 'boolean', default: false },
        Keys: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
        OperatorKey: { type: 'string', pattern: '^(|[\\x21-\\x7e]{16,})$', 'x-message': OPERATOR_KEY_RULE, default: '' },
        Users: {
          type: 'array',
          default: [],
          items: {
            type: 'object',
            additionalProperties: false,
            properties: { login: { type: 'string', minLength: 1 }, pwd: { type: 'string' } },
            required: ['login', 'pwd'],
          },
        },
      },
    },
    dictionaries: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        Dir: { type: 'string', minLength: 1, default: 'build/dictionaries' },
        HouseCodes: { enum: ['memory', 'file', 'auto'], default: 'auto' },
        Countries: { type: 'array', items: { enum: COUNTRIES }, uniqueItems: true, default: [] },
      },
    },
    metrics: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        Enabled: { type: 'boolean', default: true },
        Path: { type: 'string', pattern: '^/[^?#\\s]*$', 'x-message': 'ожидается путь, например /metrics', default: '/metrics' },
      },
    },
    log: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: { Level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' } },
    },
    cors: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        AllowedOrigins: {
          type: 'array',
          items: { type: 'string', pattern: CORS_ORIGIN, 'x-message': 'ожидается * или origin вида https://host[:port]' },
          default: ['*'],
        },
      },
    },
  },
} as const;

const configAjv = new Ajv({ allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true, verbose: true });
configAjv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
const validateConfig = configAjv.compile(CONFIG_SCHEMA);

export class ConfigError extends Error {}

export interface ConfigOverrides {
  port?: number;
  host?: string;
  workers?: number;
  operatorKey?: string;
  /** CORS_ORIGINS env: comma-separated origins, replacing cors.AllowedOrigins */
  corsOrigins?: string[];
  metricsEnabled?: boolean;
  metricsPath?: string;
}

/** What a document that is not a mapping of sections holds, for the message refusing it. */
function kindOf(document: unknown): string {
  if (Array.isArray(document)) return 'список';
  if (typeof document === 'string') return `строка «${document.slice(0, 40)}»`;
  if (typeof document === 'number' || typeof document === 'boolean') return `значение ${String(document)}`;
  return typeof document;
}

/** A PublicKey that does not read as an Ed25519 key stops the start, naming the key, not only the crypto error. */
function checkPublicKey(config: Config, source: string): void {
  if (!config.license.PublicKey) return;
  try {
    publicKeyFrom(config.license.PublicKey);
  } catch (err) {
    throw new ConfigError(`${source}: license.PublicKey: ключ не читается (${(err as Error).message}); нужен открытый ключ Ed25519: PEM (-----BEGIN PUBLIC KEY-----) или 32 байта в base64url.`);
  }
}

/** Validates a parsed document, fills defaults, applies overrides. `source` names the file in messages. */
export function configFromObject(document: unknown, source = 'конфигурация', overrides: ConfigOverrides = {}): Config {
  if (document !== null && document !== undefined && (typeof document !== 'object' || Array.isArray(document))) {
    throw new ConfigError(`${source}: ожидаются разделы конфигурации (${Object.keys(CONFIG_SCHEMA.properties).join(', ')}) в виде «ключ: значение», а в файле ${kindOf(document)}.`);
  }
  const data = document === null || document === undefined ? {} : structuredClone(document);
  if (overrides.corsOrigins !== undefined) {
    const cors = ((data as Record<string, unknown>).cors ?? {}) as Record<string, unknown>;
    (data as Record<string, unknown>).cors = { ...cors, AllowedOrigins: overrides.corsOrigins };
  }
  if (!validateConfig(data)) {
    throw new ConfigError(`${overrides.corsOrigins !== undefined ? `${source} + CORS_ORIGINS` : source}: ${formatErrors(validateConfig.errors ?? [])}`);
  }
  const config = data as unknown as Config;
  if (config.auth.Enabled && config.auth.Keys.length === 0 && config.auth.Users.length === 0) {
    throw new ConfigError(`${source}: auth.Keys: при auth.Enabled нужен хотя бы один ключ или пользователь.`);
  }
  if (config.license.Key && !config.license.PublicKey) {
    throw new ConfigError(`${source}: license.PublicKey: нужен открытый ключ для проверки license.Key.`);
  }
  checkPublicKey(config, source);
  if (overrides.operatorKey !== undefined) {
    if (!new RegExp(CONFIG_SCHEMA.properties.auth.properties.OperatorKey.pattern).test(overrides.operatorKey)) {
      throw new ConfigError(`${OPERATOR_KEY_ENV}: ${OPERATOR_KEY_RULE}.`);
    }
    config.auth.OperatorKey = overrides.operatorKey;
  }
  if (overrides.port !== undefined) config.gateway.Listen = withPort(config.gateway.Listen, overrides.port);
  if (overrides.host !== undefined) config.gateway.Listen = withHost(config.gateway.Listen, overrides.host);
  const { port } = parseListen(config.gateway.Listen);
  if (port > 65535) throw new ConfigError(`${source}: gateway.Listen: порт ${port} вне диапазона 0–65535.`);
  if (overrides.workers !== undefined) config.gateway.Workers = overrides.workers;
  if (overrides.metricsEnabled !== undefined) config.metrics.Enabled = overrides.metricsEnabled;
  if (overrides.metricsPath !== undefined) config.metrics.Path = overrides.metricsPath;
  return config;
}

export function withPort(listen: string, port: number): string {
  const colon = listen.lastIndexOf(':');
  return `${listen.slice(0, colon)}:${port}`;
}

/** `listen` with its host replaced; an IPv6 address goes in brackets. */
export function withHost(listen: string, host: string): string {
  const colon = listen.lastIndexOf(':');
  return `${host.includes(':') ? `[${host}]` : host}${listen.slice(colon)}`;
}

export function parseListen(listen: string): { host: string; port: number } {
  const colon = listen.lastIndexOf(':');
  const host = listen.slice(0, colon).replace(/^\[|\]$/g, '') || '0.0.0.0';
  return { host, port: Number(listen.slice(colon + 1)) };
}

function parsePort(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`${name}: ожидается порт 0–65535, получено «${value}».`);
  return port;
}

/** A host name or IP address to listen on: `HOST` / `--host`. */
function parseHost(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const host = value.replace(/^\[|\]$/g, '');
  if (!/^([0-9a-fA-F:.]+|[A-Za-z0-9.-]+)$/.test(host)) throw new ConfigError(`${name}: ожидается имя хоста или IP-адрес, например 127.0.0.1 или ::1, получено «${value}».`);
  return host;
}

function parseFlag(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^(1|true|on|yes)$/i.test(value)) return true;
  if (/^(0|false|off|no)$/i.test(value)) return false;
  throw new ConfigError(`${name}: ожидается true или false, получено «${value}».`);
}

function argValue(argv: string[], name: string): string | undefined {
  const index = argv.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (index < 0) return undefined;
  const arg = argv[index];
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1];
}

/** Reads the file (absent file: all defaults), then the PORT / --port, HOST / --host, WORKERS and METRICS_* overrides. */
export function loadConfig(options: { path?: string; argv?: string[]; env?: NodeJS.ProcessEnv } = {}): Config {
  const argv = options.argv ?? process.argv.slice(2);
  const env = options.env ?? process.env;
  const named = options.path || argValue(argv, '--config') || env.ADDRESS_SERVICE_CONFIG || '';
  const path = resolve(named || DEFAULT_CONFIG_PATH);
  let document: unknown = {};
  if (existsSync(path)) {
    try {
      document = parseYaml(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(`${path}: не удалось разобрать YAML: ${(err as Error).message}`);
    }
  } else if (named) {
    throw new ConfigError(`${path}: файл конфигурации не найден.`);
  }
  const port = parsePort(argValue(argv, '--port'), '--port') ?? parsePort(env.PORT, 'PORT');
  const workersText = env.WORKERS;
  let workers: number | undefined;
  if (workersText !== undefined && workersText !== '') {
    workers = Number(workersText);
    if (!Number.isInteger(workers) || workers < 0) throw new ConfigError(`WORKERS: ожидается целое число ≥ 0, получено «${workersText}».`);
  }
  const operatorKey = env[OPERATOR_KEY_ENV] || undefined;
  const corsText = env.CORS_ORIGINS;
  const corsOrigins = corsText === undefined || corsText.trim() === '' ? undefined : corsText.split(',').map((origin) => origin.trim()).filter(Boolean);
  const host = parseHost(argValue(argv, '--host'), '--host') ?? parseHost(env.HOST, 'HOST');
  const metricsEnabled = parseFlag(env.METRICS_ENABLED, 'METRICS_ENABLED');
  const metricsPath = env.METRICS_PATH || undefined;
  if (metricsPath !== undefined && !/^\/[^?#\s]*$/.test(metricsPath)) throw new ConfigError(`METRICS_PATH: ожидается путь, например /metrics, получено «${metricsPath}».`);
  return configFromObject(document, path, { port, host, workers, operatorKey, corsOrigins, metricsEnabled, metricsPath });
}
