/**
 * The batch pipeline answers as POST /api/v1/clean/address does: every clean case of the dev set (../shared/eval/
 * dev.jsonl beside the repository, EVAL_FILE to point elsewhere) through `runJob` in this process (NDJSON in and out,
 * every DaData field and our record's members as result columns) and over HTTP against createApp() on the same
 * engine; each row's results must equal the HTTP record's and, for Russia, what DaData's cleaner (the same POST with
 * an array of strings) answers, with the metro stations among the result columns and without them (the batch then
 * skips their lookup), and with DaData's fields alone (the batch then builds no AddressRecord).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../cli/batch/job.js';
import { dadataField, readPath } from '../../cli/batch/fields.js';
import type { Country } from '../../engine/types.js';
import type { AddressRecord } from '../../engine/records/address-record.js';
import { DADATA_ADDRESS_FIELDS, dadataAddress, registryCodes, type DadataAddress } from '../../engine/records/dadata-record.js';
import { standardizeAddress } from '../../engine/standardize.js';
import { DICTIONARIES_DIR, realEngine, startTestServer, type TestServer } from '../helpers/api.js';

const EVAL_FILE = resolve(process.env.EVAL_FILE ?? '../shared/eval/dev.jsonl');
/** our record's members beside DaData's fields (the names DaData also uses are read from its form) */
const RECORD_FIELDS = [
  'original', 'address', 'addressFull', 'postcodeIn', 'postcode', 'municipal', 'cityArea', 'planStructure', 'houseDetails',
  'coordinates', 'valid', 'quality', 'undefinedParts', 'region.codes', 'area.codes', 'city.fullName', 'city.codes',
  'settlement.fullName', 'settlement.codes', 'street.fullName', 'street.codes', 'country.alpha3',
];
const FIELDS = [...DADATA_ADDRESS_FIELDS, ...RECORD_FIELDS];

interface DevCase {
  id: string;
  endpoint: string;
  countryCode: string;
  query: string;
}

const cases: DevCase[] = existsSync(EVAL_FILE)
  ? readFileSync(EVAL_FILE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as DevCase).filter((c) => c.endpoint === 'clean')
  : [];

describe.skipIf(cases.length === 0)('clean: the answers of POST /api/v1/clean/address for every dev clean case', () => {
  let server: TestServer;
  let work: string;
  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(join(tmpdir(), 'address-parity-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(`answers ${cases.length} cases as the HTTP method does`, async () => {
    const engine = await realEngine();
    const byCountry = new Map<string, DevCase[]>();
    for (const c of cases) byCountry.set(c.countryCode, [...(byCountry.get(c.countryCode) ?? []), c]);
    let compared = 0;
    /** the registry objects of a query's answer (their OKATO, OKTMO and tax office are not in the HTTP record) */
    const objectsOf = (countryCode: string, query: string) => {
      const country = countryCode.toLowerCase() as Country;
      return standardizeAddress(engine, country, engine.dictionary(country)!, query).objects;
    };
    for (const [countryCode, group] of byCountry) {
      const input = join(work, `${countryCode}.ndjson`);
      const output = join(work, `${countryCode}.out.ndjson`);
      writeFileSync(input, group.map((c) => JSON.stringify({ id: c.id, query: c.query })).join('\n') + '\n');
      const replies: AddressRecord[] = new Array(group.length);
      let next = 0;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (next < group.length) {
          const at = next++;
          const reply = await server.post('/api/v1/clean/address', { query: group[at].query, countryCode });
          expect(reply.status).toBe(200);
          replies[at] = reply.body as AddressRecord;
        }
      }));
      // DaData's form: Russia's cases as DaData's cleaner answers them (the same POST with an array of strings); the
      // other countries', which that cleaner does not read, from their records with the query as the source
      const dadataReplies: (DadataAddress | null)[] = new Array(group.length).fill(null);
      if (countryCode === 'RU') {
        for (let from = 0; from < group.length; from += 100) {
          const reply = await server.post('/api/v1/clean/address', group.slice(from, from + 100).map((c) => c.query));
          expect(reply.status).toBe(200);
          (reply.body as DadataAddress[]).forEach((answer, k) => { dadataReplies[from + k] = answer; });
        }
      }
      // with the metro stations asked for, and without (the batch then skips their lookup: every other field the same);
      // and DaData's fields alone (the batch then makes DaData's record without ours: records/dadata-record.ts dadataClean)
      const runs = [FIELDS, FIELDS.filter((field) => field !== 'metro'), [...DADATA_ADDRESS_FIELDS]];
      for (const fields of runs) {
        const summary = await runJob({
          op: 'clean', input, output, columns: ['query'], country: countryCode.toLowerCase() as Country, fields,
          dictionaries: DICTIONARIES_DIR, engine, progress: 'off', batchRows: 300,
        });
        expect(summary.rows).toBe(group.length);
        const rows = readFileSync(output, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
        const differing: string[] = [];
        group.forEach((c, i) => {
          const row = rows[i];
          const record = replies[i];
          const dadata = dadataReplies[i] ?? dadataAddress(record, { ...registryCodes(objectsOf(countryCode, c.query)), source: c.query });
          // each field as the API's answers hold it: DaData's member, or the path into our record
          const value = (field: string) => {
            const member = dadataField(field);
            return member !== null ? dadata[member] : readPath(record, field.split('.'));
          };
          const expected = JSON.stringify({ id: c.id, ...Object.fromEntries(fields.map((field) => [field, value(field) ?? null])) });
          const actual = JSON.stringify({ id: row.id, ...Object.fromEntries(fields.map((field) => [field, row[field]])) });
          if (actual !== expected) differing.push(`${c.id} ${c.query}\n  batch ${actual}\n  HTTP  ${expected}`);
          compared++;
        });
        expect(differing.slice(0, 3).join('\n')).toBe('');
      }
    }
    expect(compared).toBe(3 * cases.length);
  });
});
