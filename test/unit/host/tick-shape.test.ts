import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Run in a node of its own with V8's natives syntax: takes a real tick object (an async hook's init sees it) before
 * and after two full collections, and asks V8 whether each has the hidden class of TICK_OBJECT_SHAPE.
 */
const PROBE = `
import { createHook } from 'node:async_hooks';
const { TICK_OBJECT_SHAPE } = await import(process.env.KEEPER);
const ticks = [];
const hook = createHook({ init(id, type, trigger, resource) { if (type === 'TickObject') ticks.push(resource); } });
const tick = () => new Promise((resolve) => { hook.enable(); process.nextTick(resolve); hook.disable(); });
await tick();
const before = ticks.pop();
ticks.length = 0;
globalThis.gc();
globalThis.gc();
await tick();
const after = ticks.pop();
console.log(JSON.stringify({
  tickKeys: Reflect.ownKeys(before).map(String),
  shapeKeys: Reflect.ownKeys(TICK_OBJECT_SHAPE).map(String),
  sameBefore: %HaveSameMap(before, TICK_OBJECT_SHAPE),
  sameAfter: %HaveSameMap(after, TICK_OBJECT_SHAPE),
}));
`;

describe('TICK_OBJECT_SHAPE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tick-shape-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("has the hidden class of node's tick objects, before and after full collections", () => {
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, PROBE);
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', probe], {
      env: { ...process.env, KEEPER: resolve('host/tick-shape.ts') },
      encoding: 'utf8',
    });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { tickKeys: string[]; shapeKeys: string[]; sameBefore: boolean; sameAfter: boolean };
    expect(result.tickKeys).toEqual(['callback', 'args', 'Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)']);
    expect(result.shapeKeys).toEqual(result.tickKeys);
    expect(result.sameBefore).toBe(true);
    expect(result.sameAfter).toBe(true);
  });
});
