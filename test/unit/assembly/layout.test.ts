/**
 * assembly/layout.ts, the constants the core shares with the other layers, is generated from format/ by
 * scripts/assembly-layout.ts: it must be current, and no other file of assembly/ may define them again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as RESULT from '../../../format/result.js';
import { HOUSE_PART_KEYS } from '../../../engine/types.js';
import { assemblyLayout, LAYOUT_FILE } from '../../../scripts/assembly-layout.js';
import { ROOT } from '../../helpers/engine.js';

const SHARED_NAMES = [...Object.keys(RESULT), 'FORMAT_VERSION'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []);
}

describe('assembly/layout.ts', () => {
  it('is what scripts/assembly-layout.ts writes from format/ (run it when this fails)', () => {
    expect(readFileSync(LAYOUT_FILE, 'utf8')).toBe(assemblyLayout());
  });

  it('is the only file of assembly/ that defines them', () => {
    const definition = new RegExp(`\\bconst (${SHARED_NAMES.join('|')})\\b`);
    const redefined = sources(join(ROOT, 'assembly'))
      .filter((file) => file !== LAYOUT_FILE && definition.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(redefined).toEqual([]);
  });
});

describe('format/result.ts', () => {
  it('has a part for each of the engine\'s house part keys', () => {
    expect(RESULT.PART_COUNT).toBe(HOUSE_PART_KEYS.length);
  });

  it('lays the leftover spans after the parts and the parts\' text after the spans', () => {
    expect(RESULT.R_LEFT).toBe(RESULT.R_PARTS + 2 * RESULT.PART_COUNT);
    expect(RESULT.R_TEXT).toBe(RESULT.R_LEFT + 1 + 2 * RESULT.MAX_LEFT);
  });
});
