/**
 * The house-part grammar: `engine.parseHouse(text)` (write, fold, tokenize, grammar, parts read back into
 * an object) versus the small JS twin of house-twin.ts returning the same kind of object, and the raw
 * core call alone (write + parseHouse, parts left in the result region) to show the host's share. Beside the
 * speed, both are checked against the parts each derived string was written from (house, case, build,
 * flat), so the ratio is read next to how much of the job each side does.
 */
import { houseStrings } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';
import { parseHouseTwin, TwinTokenizer } from './house-twin.js';
import { foldCase } from '../format/fold.js';

const BATCH = 20;
const CHECKED = ['house', 'case', 'build', 'flat'] as const;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const engine = ctx.engine;
  const fixtures = houseStrings();
  const strings = fixtures.map((f) => f.text);
  const twin = new TwinTokenizer();

  let coreRight = 0;
  let twinRight = 0;
  let checked = 0;
  for (const f of fixtures) {
    if (!f.expect) continue;
    checked++;
    const core = engine.parseHouse(f.text).parts;
    const js = parseHouseTwin(twin, f.text);
    if (CHECKED.every((k) => core[k] === foldCase(f.expect![k]))) coreRight++;
    if (CHECKED.every((k) => js[k] === foldCase(f.expect![k]))) twinRight++;
  }

  let i = 0;
  const wasm = await measure('house wasm', () => {
    for (let b = 0; b < BATCH; b++) consume(engine.parseHouse(strings[i++ % strings.length]).parts.house.length);
  }, { batch: BATCH });
  const core = engine.dictionary('ru')!.core;
  let r = 0;
  const raw = await measure('house wasm raw', () => {
    for (let b = 0; b < BATCH; b++) consume(core.exports.parseHouse(core.write(strings[r++ % strings.length])));
  }, { batch: BATCH });
  let j = 0;
  const js = await measure('house js', () => {
    for (let b = 0; b < BATCH; b++) consume(parseHouseTwin(twin, strings[j++ % strings.length]).house.length);
  }, { batch: BATCH });
  ctx.notes.push(
    `house: ${strings.length} strings; all of house/case/build/flat right: core ${coreRight}/${checked}, JS twin ${twinRight}/${checked} ` +
      `(the twin reads 5 members of 19); batched ×${BATCH}`,
  );
  return [
    row('house: engine.parseHouse', wasm, 'JS twin house parser', js),
    row('house: core.parseHouse (write+call, no parts object)', raw, 'JS twin house parser', js),
  ];
}

if (isMain(import.meta.url)) await runStandalone(run);
