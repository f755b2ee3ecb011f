import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBlob } from '../../../../dictionaries/blob-writer.js';
import { ModelBuilder } from '../../../../dictionaries/merge/sink.js';
import { readGar } from '../../../../dictionaries/sources/gar.js';
import { generateGarScale } from '../../../../bench/synth/gar-scale.js';
import { NameGenerator } from '../../../../bench/synth/names.js';
import { LoadedDictionary } from '../../../../engine/dictionary.js';
import { AddressEngine } from '../../../../engine/engine.js';
import { debugWasm } from '../../../helpers/engine.js';
import { DATA_DIR, HAS_DATA } from '../../../helpers/model-sink.js';

const SOURCE = resolve(DATA_DIR, 'ru/gar/gar_xml.zip');
const SEED = 7;
/** the core's count of posting entries read since start (the debug build's stats 5: assembly/testing.ts, reads.ts) */
const STATS_POSTINGS = 5;

/**
 * A country of `copies` towns, each a copy of the real region 99 (bench/synth/gar-scale.ts): every town has the
 * same streets (ул 8 Марта, ул Ленина, ул Советская, ул Абая…), the worst case of a street name thousands of towns share.
 */
async function country(dir: string, copies: number): Promise<{ engine: AddressEngine; dict: LoadedDictionary }> {
  const archive = await generateGarScale({ source: SOURCE, out: join(dir, `gar-${copies}.zip`), houses: 1, regions: 1, seed: SEED });
  const out = archive.copies === copies ? archive : await generateGarScale({
    source: SOURCE, out: join(dir, `gar-${copies}.zip`), houses: archive.housesPerCopy * copies, regions: 1, seed: SEED,
  });
  const builder = new ModelBuilder('ru');
  await readGar(out.out, builder, { asOf: '2024-06-01' });
  const dict = await LoadedDictionary.fromBytes(encodeBlob(builder.finish()).bytes, await debugWasm(), `country-${copies}.dict`);
  return { engine: new AddressEngine([dict]), dict };
}

/** the hints of `query` and the posting entries the core read for them */
function hintReads(c: { engine: AddressEngine; dict: LoadedDictionary }, query: string): { reads: number; first: string } {
  const before = c.dict.core.hooks.stats(STATS_POSTINGS);
  const hints = c.engine.suggest('ru', query, 10);
  const reads = (c.dict.core.hooks.stats(STATS_POSTINGS) - before) >>> 0;
  const levels = hints.length > 0 ? Object.values(hints[0].levels).filter((id) => id >= 0) : [];
  return { reads, first: levels.map((id) => c.dict.object(id).name).join(', ') };
}

describe.runIf(HAS_DATA)('suggest(town + street being typed) as the country grows', () => {
  let dir: string;
  let small: { engine: AddressEngine; dict: LoadedDictionary };
  let large: { engine: AddressEngine; dict: LoadedDictionary };
  // the first town of both countries: the generator names the region, then the towns in order, from the seed
  const names = new NameGenerator(SEED);
  names.region();
  const town = names.city().toLowerCase();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'suggest-scale-'));
    small = await country(dir, 2);
    large = await country(dir, 16);
  }, 240_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // a number being typed as a street's (8 Марта), a prefix of three letters, a common name, a house being typed
  it.each([`${town} 8 мар`, `${town} 8 марта`, `${town} лен`, `${town} сов`, `${town} аба`, `${town} ленина 1`])(
    'reads about as many postings for %s among 16 towns as among 2',
    (query) => {
      const few = hintReads(small, query);
      const many = hintReads(large, query);
      // the same town's hint first, in either country
      expect(few.first).not.toBe('');
      expect(many.first).toBe(few.first);
      // eight times the towns: the other towns' streets of that name are not read; the town's own reads stay, and
      // the binary searches of the longer lists take a few steps more (a read of the others: 16 → 59, 58 → 266)
      expect(many.reads).toBeLessThanOrEqual(few.reads * 1.5 + 10);
    },
  );

  it('counts the postings a hint with no place typed reads', () => {
    expect(hintReads(large, 'марта').reads).toBeGreaterThan(0);
  });
});
