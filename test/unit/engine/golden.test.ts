/**
 * Golden cases as data: test/golden/engine/standardize.jsonl holds one `{input, expected}` per line, where
 * expected is the engine's answer on the real ru dictionary (debug core) as plain data: level fullNames,
 * the house as the registry spells it, the parsed parts, postcodeIn, quality and undefinedParts.
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/unit/engine/golden.test.ts   rewrites every expected (review the diff)
 *
 * To add a case, append a line `{"input": "…"}` and regenerate. A line may carry `"gap": "<reason>"`: its
 * expected is what the engine does now, known to be wrong, asserted equal so that a change shows; a gap with no
 * reason is refused; test/golden/engine/KNOWN_GAPS.md explains it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AddressEngine } from '../../../engine/engine.js';
import { ROOT, debugEngine, viewOf, type ResolutionView } from '../../helpers/engine.js';

const FILE = join(ROOT, 'test', 'golden', 'engine', 'standardize.jsonl');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

interface GoldenCase {
  input: string;
  expected?: ResolutionView;
  gap?: string;
}

const cases: GoldenCase[] = readFileSync(FILE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line, i) => {
    try {
      return JSON.parse(line) as GoldenCase;
    } catch (err) {
      throw new Error(`${FILE}:${i + 1}: not JSON (${(err as Error).message})`);
    }
  });

describe('standardize golden cases (test/golden/engine/standardize.jsonl)', () => {
  let engine: AddressEngine;
  beforeAll(async () => {
    engine = await debugEngine();
    if (UPDATE) {
      const dict = engine.dictionary('ru')!;
      const lines = cases.map((c) => {
        const expected = viewOf(dict, engine.standardize('ru', c.input));
        return JSON.stringify(c.gap ? { input: c.input, expected, gap: c.gap } : { input: c.input, expected });
      });
      writeFileSync(FILE, `${lines.join('\n')}\n`);
      for (const [i, line] of lines.entries()) cases[i] = JSON.parse(line) as GoldenCase;
    }
  });

  it('has unique inputs', () => {
    const inputs = cases.map((c) => c.input);
    expect(inputs.filter((q, i) => inputs.indexOf(q) !== i)).toEqual([]);
  });

  it.each(cases.map((c, i) => [i + 1, c.input] as const))('line %i: %j', (line) => {
    const c = cases[line - 1];
    if (c.gap !== undefined) expect(typeof c.gap === 'string' && c.gap.trim() !== '', `line ${line}: a "gap" says what is wrong with the answer`).toBe(true);
    if (!c.expected) throw new Error(`line ${line} has no expected: run UPDATE_GOLDEN=1 npx vitest run test/unit/engine/golden.test.ts`);
    expect(viewOf(engine.dictionary('ru')!, engine.standardize('ru', c.input))).toEqual(c.expected);
  });
});
