/**
 * A dictionary reload with a file missing or broken (engine/reload.ts through `RunningServer.reload()`): the
 * country stays served from the dictionary loaded before, the failure is logged at error naming the file and
 * counted in the metrics; /health answers 503 code 14 when a country that must be served is absent.
 */
import { copyFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromObject } from '../../host/config.js';
import { loadEngineFactory, startServer, type RunningServer } from '../../host/server.js';
import { DICTIONARIES_DIR } from '../helpers/api.js';

const RU = JSON.stringify({ query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' });
const BY = JSON.stringify({ query: 'Минск', countryCode: 'BY' });

/** A dictionary folder of its own, with copies of the countries named. */
function dictionaries(countries: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'reload-dictionaries-'));
  for (const country of countries) copyFileSync(join(DICTIONARIES_DIR, `${country}.dict`), join(dir, `${country}.dict`));
  return dir;
}

/** A logger whose lines a test reads. */
function capturedLogger() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

let running: RunningServer | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

async function start(dir: string, extra: Record<string, unknown> = {}) {
  const { logger, lines } = capturedLogger();
  const config = configFromObject({ dictionaries: { Dir: dir, ...extra } });
  running = await startServer({ config, logger, createEngine: await loadEngineFactory(), listen: { host: '127.0.0.1', port: 0 } });
  const post = (body: string) => fetch(`${running!.url}/api/v1/clean/address`, { method: 'POST', body }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const health = () => fetch(`${running!.url}/api/v1/health`).then(async (r) => ({ status: r.status, body: await r.json() }));
  const metric = async (line: string) => {
    const text = await (await fetch(`${running!.url}/metrics`)).text();
    return text.split('\n').find((l) => l.startsWith(`${line} `))?.slice(line.length + 1);
  };
  return { lines, post, health, metric };
}

describe('reload() with a dictionary file missing or broken', () => {
  it('keeps serving the country whose file went missing, logs the file at error and counts the failure', async () => {
    const dir = dictionaries(['ru', 'by']);
    const { lines, post, health, metric } = await start(dir);
    const before = (await post(RU)).body;
    renameSync(join(dir, 'ru.dict'), join(dir, 'ru.dict.old'));
    await running!.reload();

    expect(running!.app.services.engine.countries().sort()).toEqual(['by', 'ru']);
    const after = await post(RU);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before);
    expect((await post(BY)).status).toBe(200);
    const failed = lines.find((line) => line.level === 50 && line.country === 'ru');
    expect(failed).toMatchObject({ file: join(dir, 'ru.dict'), reason: 'file not found', msg: 'dictionary not reloaded: the one loaded before stays in service' });
    expect(lines.find((line) => line.msg === 'dictionaries reloaded, some files failed')).toMatchObject({ level: 40, failed: ['ru'] });
    expect(lines.some((line) => line.msg === 'dictionaries reloaded')).toBe(false);
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await metric('address_dictionary_reload_failures_total{country="ru"}')).toBe('1');
    expect(await metric('address_dictionary_reloads_total')).toBe('1');

    // a good file back: reloaded, no new failure
    renameSync(join(dir, 'ru.dict.old'), join(dir, 'ru.dict'));
    await running!.reload();
    expect(lines.at(-1)).toMatchObject({ level: 30, msg: 'dictionaries reloaded', countries: ['ru', 'by'] });
    expect(await metric('address_dictionary_reload_failures_total{country="ru"}')).toBe('1');
    expect(await metric('address_dictionary_reloads_total')).toBe('2');
  });

  it('keeps serving the country whose file does not load, and says why', async () => {
    const dir = dictionaries(['ru', 'by']);
    const { lines, post } = await start(dir);
    writeFileSync(join(dir, 'ru.dict'), 'a file that is not a dictionary');
    await running!.reload();
    expect((await post(RU)).status).toBe(200);
    const failed = lines.find((line) => line.level === 50 && line.country === 'ru');
    expect(failed?.file).toBe(join(dir, 'ru.dict'));
    expect(String(failed?.reason)).toContain('ru.dict');
  });
});

describe('GET /health', () => {
  it('answers 503 code 14 naming the country absent of dictionaries.Countries, the others being served', async () => {
    const { health, post } = await start(dictionaries(['by']), { Countries: ['ru', 'by'] });
    expect(await health()).toEqual({
      status: 503,
      body: { code: 14, message: 'справочники не загружены: ru; остальные страны обслуживаются.', details: [{ status: 'degraded', countries: ['by'], missing: ['ru'] }] },
    });
    expect((await post(BY)).status).toBe(200);
  });

  it('answers 200 when the countries found at start are all served', async () => {
    const { health } = await start(dictionaries(['by']));
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', countries: ['by'] } });
  });
});
