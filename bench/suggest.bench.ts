/**
 * Hints: `engine.suggest('ru', query, count)` over the suggest queries of the evaluation set versus
 * FlexSearch (forward tokenizer, `suggest: true`) and MiniSearch (prefix + fuzzy 0.2) indexes built over
 * the same names: every object of the ru dictionary as `type name` (id < objectCount). The peers only
 * rank names; the engine also reads house numbers, fixes keyboard layout and transliteration, resolves
 * the chain and builds Resolutions, so beside queries/s each side's top-k is checked for the street the
 * query names (when the evaluation case says which).
 */
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import { suggestQueries } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';

export async function run(ctx: BenchContext): Promise<Row[]> {
  const engine = ctx.engine;
  const dict = engine.dictionary('ru')!;
  const queries = suggestQueries();

  const docs: { id: number; text: string }[] = [];
  for (let id = 0; id < dict.objectCount; id++) {
    const o = dict.object(id);
    docs.push({ id, text: `${o.type} ${o.name}` });
  }
  let t0 = performance.now();
  const flex = new FlexSearch.Index({ tokenize: 'forward' });
  for (const d of docs) flex.add(d.id, d.text);
  const flexBuildMs = performance.now() - t0;
  t0 = performance.now();
  const mini = new MiniSearch<{ id: number; text: string }>({ fields: ['text'] });
  mini.addAll(docs);
  const miniBuildMs = performance.now() - t0;
  const miniOptions = { prefix: true, fuzzy: 0.2 };

  // relevance check: does the top-k name the expected street?
  const streetOf = (id: number) => (id >= 0 ? dict.object(id).name : '');
  let withStreet = 0;
  const hits = { engine: 0, flex: 0, mini: 0 };
  for (const q of queries) {
    if (!q.streetName) continue;
    withStreet++;
    if (engine.suggest('ru', q.query, q.count).some((r) => streetOf(r.levels.street) === q.streetName)) hits.engine++;
    if ((flex.search(q.query, { limit: q.count, suggest: true }) as number[]).some((id) => dict.object(id).name === q.streetName)) hits.flex++;
    if (mini.search(q.query, miniOptions).slice(0, q.count).some((r) => dict.object(r.id as number).name === q.streetName)) hits.mini++;
  }

  let i = 0;
  const ours = await measure('suggest engine', () => {
    const q = queries[i++ % queries.length];
    consume(engine.suggest('ru', q.query, q.count).length);
  });
  let j = 0;
  const flexMeasure = await measure('suggest flexsearch', () => {
    const q = queries[j++ % queries.length];
    consume((flex.search(q.query, { limit: q.count, suggest: true }) as number[]).length);
  });
  let k = 0;
  const miniMeasure = await measure('suggest minisearch', () => {
    const q = queries[k++ % queries.length];
    consume(mini.search(q.query, miniOptions).slice(0, q.count).length);
  });

  ctx.notes.push(
    `suggest: ${queries.length} queries, ${docs.length} object names indexed (FlexSearch built in ${flexBuildMs.toFixed(0)} ms, ` +
      `MiniSearch in ${miniBuildMs.toFixed(0)} ms); top-k names the expected street: engine ${hits.engine}/${withStreet}, ` +
      `FlexSearch ${hits.flex}/${withStreet}, MiniSearch ${hits.mini}/${withStreet}`,
  );
  return [
    row('suggest: engine.suggest (ru)', ours, 'FlexSearch', flexMeasure),
    row('suggest: engine.suggest (ru)', ours, 'MiniSearch', miniMeasure),
  ];
}

if (isMain(import.meta.url)) await runStandalone(run);
