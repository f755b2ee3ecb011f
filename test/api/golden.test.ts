/**
 * Golden answers (test/golden/<endpoint>.jsonl): every input is sent to its endpoint and the whole answer
 * (status and body) must equal `expected`. A line may carry `"gap": "<what is wrong>"`: its expected is the
 * answer the service gives now, known to be wrong, asserted equal like any other so that a change shows (a fix
 * turns the line red; after review it is regenerated and loses its gap); a gap with no reason is refused.
 * `UPDATE_GOLDEN=1` rewrites every expected answer, gap lines' included. The same answers come from a server
 * whose dictionaries leave the house codes in their files (config dictionaries.HouseCodes `file`, the default
 * for national dictionaries).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index.js';
import { DICTIONARIES_DIR, startTestServer, type TestServer } from '../helpers/api.js';

const GOLDEN_DIR = 'test/golden';
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const ENDPOINTS: Record<string, string> = {
  'clean-address': '/api/v1/clean/address',
  'clean-house': '/api/v1/clean/house',
  'suggest-address': '/api/v1/suggest/address',
  'geosearch-address': '/api/v1/geosearch/address',
  'idsearch-address': '/api/v1/idsearch/address',
  'idsearch-center': '/api/v1/idsearch/address/center',
};

interface GoldenLine {
  input: Record<string, unknown>;
  expected?: { status: number; body: unknown };
  gap?: string;
}

let api: TestServer;
let coldApi: TestServer;
beforeAll(async () => {
  api = await startTestServer();
  const engine = await createEngine({ dir: DICTIONARIES_DIR, houseCodes: 'file' });
  coldApi = await startTestServer({ engine, config: { dictionaries: { HouseCodes: 'file' } } });
});
afterAll(async () => {
  await api?.close();
  await coldApi?.close();
});

const files = readdirSync(GOLDEN_DIR).filter((name) => name.endsWith('.jsonl'));

it('has an endpoint for every golden file', () => {
  for (const file of files) expect(ENDPOINTS[file.replace(/\.jsonl$/, '')], file).toBeDefined();
});

for (const file of files) {
  const endpoint = file.replace(/\.jsonl$/, '');
  const path = ENDPOINTS[endpoint];
  const lines: GoldenLine[] = readFileSync(`${GOLDEN_DIR}/${file}`, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));

  describe(`${path} golden answers`, () => {
    if (UPDATE) {
      it(`regenerates ${file}`, async () => {
        for (const line of lines) {
          const reply = await api.post(path, line.input);
          // a crash is never a golden answer
          expect(reply.status, JSON.stringify(line.input)).toBeLessThan(500);
          line.expected = { status: reply.status, body: reply.body };
        }
        writeFileSync(`${GOLDEN_DIR}/${file}`, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
      });
      return;
    }
    for (const line of lines) {
      const title = JSON.stringify(line.input);
      const check = async () => {
        if (line.gap !== undefined) expect(typeof line.gap === 'string' && line.gap.trim() !== '', 'a "gap" says what is wrong with the answer').toBe(true);
        expect(line.expected, `no expected answer: run UPDATE_GOLDEN=1 npx vitest run test/api/golden.test.ts and review`).toBeDefined();
        const reply = await api.post(path, line.input);
        expect({ status: reply.status, body: reply.body }).toEqual(line.expected);
        const cold = await coldApi.post(path, line.input);
        expect({ status: cold.status, body: cold.body }, 'house codes read from the file').toEqual(line.expected);
      };
      it(line.gap === undefined ? title : `${title} (known gap: ${line.gap})`, check);
    }
  });
}
