/**
 * Standardizing realistic messy addresses (typos, reordering, noise, flats, postcodes, Latin spellings):
 * `engine.standardize(country, query)` over the clean queries of the evaluation set, one query per call,
 * cycling; ops/s is addresses/s. No library standardizes Russian addresses in-process, so the twin is the
 * raw core call (write + `standardize`, no Resolution built): the ratio is the host adapter's share.
 * Queries in Latin letters run three analyses (plain, keyboard layout, transliteration), so they get
 * their own row. Every query is run once first; a throw is reported with the query that caused it.
 */
import type { Country } from '../engine/types.js';
import { cleanQueries } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';

const LATIN = /[a-z]{3}/i;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const engine = ctx.engine;
  const all = cleanQueries().filter((q) => engine.dictionary(q.country));
  const failures: string[] = [];
  let matched = 0;
  const queries: { country: Country; query: string }[] = [];
  for (const q of all) {
    try {
      if (engine.standardize(q.country, q.query).matched) matched++;
      queries.push(q);
    } catch (err) {
      failures.push(`${q.country} ${JSON.stringify(q.query)}: ${(err as Error).message}`);
    }
  }
  const latin = queries.filter((q) => LATIN.test(q.query));

  const rows: Row[] = [];
  const bench = async (name: string, list: typeof queries) => {
    let i = 0;
    const ours = await measure(name, () => {
      const q = list[i++ % list.length];
      consume(engine.standardize(q.country, q.query).house);
    });
    let j = 0;
    const raw = await measure(`${name} raw`, () => {
      const q = list[j++ % list.length];
      const core = engine.dictionary(q.country)!.core;
      consume(core.exports.standardize(core.write(q.query)));
    });
    rows.push(row(name, ours, 'core.standardize alone', raw));
  };
  await bench(`standardize: ${queries.length} messy addresses`, queries);
  if (latin.length) await bench(`standardize: ${latin.length} in Latin letters`, latin);
  ctx.notes.push(`standardize: ${matched}/${all.length} matched something; ops/s = addresses/s, one query per call`);
  for (const failure of failures) ctx.notes.push(`standardize THREW: ${failure}`);
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(run);
