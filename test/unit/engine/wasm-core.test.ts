/**
 * The hand-written WASM adapter (engine/wasm-core.ts) over the DEBUG core: the call boundary, the
 * input/result regions, typed-array views surviving memory growth, traps, and the zero-allocation
 * promise of docs/STYLE ("A test runs the core 100k times and checks that memory did not grow").
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreError, WasmCore } from '../../../engine/wasm-core.js';
import type { AddressEngine } from '../../../engine/engine.js';
import { ROOT, bareCore, debugEngine, debugWasm } from '../../helpers/engine.js';

/** Queries of every shape the core branches on: Cyrillic, Latin (three variants), layout, house parts, noise. */
const QUERIES = [
  'Екатеринбург Ленина 50 кв 3',
  'baykonur gagarina 5',
  'мсква',
  'ул 8 Марта 12к2',
  '',
  '620000',
  'д 5 кв 7, оф 12',
  'Trfnthby,ehu',
  'xyzzy 12',
  'г Байконур, мкр 6а, д 25',
  '108811, Москва г, км Киевское шоссе 22-й, двлд. 4, стр. 2, ЭТ 8 БЛОК Г ОФ 839',
  '\u0000\ud800 ё—№\\',
];

/** Bump pointer of the core's heap: `reserve(8)` returns it (and moves it by one fixed-size block). */
function heapTop(core: WasmCore): number {
  return core.exports.reserve(8);
}

describe('WasmCore', () => {
  let core: WasmCore;
  beforeAll(async () => {
    core = await bareCore();
  });

  describe('ping(x)', () => {
    it('returns x + 1 across the boundary', () => {
      expect(core.exports.ping(0)).toBe(1);
      expect(core.exports.ping(41)).toBe(42);
      expect(core.exports.ping(-1)).toBe(0);
    });

    it('wraps at the i32 limit like the core does', () => {
      expect(core.exports.ping(0x7fffffff)).toBe(-0x80000000);
    });
  });

  describe('write(text)', () => {
    it('copies UTF-16 code units into the input region and returns the length', () => {
      const text = 'д 5\ud83c\udfe0ё';
      const len = core.write(text);
      expect(len).toBe(text.length);
      const u16 = new Uint16Array(core.exports.memory.buffer, core.exports.inputPtr(), len);
      expect(String.fromCharCode(...u16)).toBe(text);
    });

    it('truncates a query longer than the input capacity', () => {
      const capacity = core.exports.inputCapacity();
      expect(capacity).toBeGreaterThan(0);
      expect(core.write('я'.repeat(capacity + 500))).toBe(capacity);
    });
  });

  describe('entry points given a bad length', () => {
    it('refuse a negative or too large length with −1', () => {
      const capacity = core.exports.inputCapacity();
      expect(core.exports.standardize(-1)).toBe(-1);
      expect(core.exports.parseHouse(capacity + 1)).toBe(-1);
      expect(core.exports.suggest(-5, 10, 1)).toBe(-1);
    });
  });

  describe('view refresh', () => {
    it('rebuilds its typed-array views after the memory grows', async () => {
      const fresh = await bareCore();
      fresh.exports.parseHouse(fresh.write('д 5'));
      const before = fresh.result();
      const bytes = fresh.memoryBytes();
      // grow the memory by reserving more than it holds
      fresh.exports.reserve(bytes * 2);
      expect(fresh.memoryBytes()).toBeGreaterThan(bytes);
      expect(before.buffer.byteLength).toBe(0); // the old buffer was detached by the growth
      fresh.exports.parseHouse(fresh.write('дом 12 кв 7'));
      const after = fresh.result();
      expect(after.buffer).toBe(fresh.exports.memory.buffer);
      // house and flat were parsed from the text written through the new view
      expect(after[11]).toBeGreaterThanOrEqual(0);
      expect(after[11 + 2 * 9]).toBeGreaterThanOrEqual(0);
    });

    it('still attaches a section after the memory grew', async () => {
      const fresh = await bareCore();
      fresh.exports.reserve(fresh.memoryBytes() * 2);
      const station = new Int32Array([56_838_000, 60_597_000]);
      fresh.attach('metro', new Uint8Array(station.buffer));
      expect(fresh.exports.nearestMetro(56.838, 60.597, 3, 100)).toBe(1);
      expect(fresh.result()[2]).toBe(0);
    });
  });

  describe('sectionIndex(name) and i32At(index)', () => {
    it('read an attached section in place, before and after the memory grows; an absent section is −1', async () => {
      const fresh = await bareCore();
      const station = new Int32Array([56_838_000, 60_597_000, 55_751_000, 37_618_000]);
      fresh.attach('metro', new Uint8Array(station.buffer));
      const at = fresh.sectionIndex('metro');
      expect(at).toBeGreaterThan(0);
      expect([0, 1, 2, 3].map((i) => fresh.i32At(at + i))).toEqual([...station]);
      expect(fresh.sectionIndex('houseCoords')).toBe(-1);
      fresh.exports.reserve(fresh.memoryBytes() * 2);
      // the section did not move; the view over the grown memory reads it
      expect(fresh.sectionIndex('metro')).toBe(at);
      expect(fresh.i32At(at + 3)).toBe(37_618_000);
    });
  });

  describe('attach(name, bytes)', () => {
    it('ignores a section the core does not know', async () => {
      const fresh = await bareCore();
      const first = heapTop(fresh);
      const step = heapTop(fresh) - first;
      fresh.attach('someFutureSection', new Uint8Array(64));
      // nothing was reserved for it: the next probe block follows the previous one
      expect(heapTop(fresh)).toBe(first + 2 * step);
    });
  });

  describe('abort handler', () => {
    it('turns a trap of the core into a CoreError and records it in lastAbort', async () => {
      const fresh = await bareCore();
      expect(() => fresh.exports.reserve(-8)).toThrow(CoreError);
      expect(fresh.lastAbort).toMatch(/^core abort at \d+:\d+$/);
    });
  });
});

describe('hooks: the test hooks (assembly/testing.ts)', () => {
  const HOOKS = ['stats', 'lookupWord', 'setEveryReading', 'setStandardizeRaising', 'tokenizeText', 'subtreeEndOf', 'postcodeObjects', 'houseLeadsOf'];
  const exported = (module: WebAssembly.Module) => WebAssembly.Module.exports(module).map((e) => e.name);

  it('are exports of the debug build, beside every export of the release build', async () => {
    const release = await WebAssembly.compile(await readFile(join(ROOT, 'build', 'wasm', 'core.wasm')));
    const debug = exported(await debugWasm());
    expect(debug).toEqual(expect.arrayContaining([...exported(release), ...HOOKS]));
    const core = await bareCore();
    expect(core.hooks.stats(0)).toBeGreaterThanOrEqual(0);
  });

  it('are not exports of the release build, whose hooks getter refuses loudly', async () => {
    const release = await WebAssembly.compile(await readFile(join(ROOT, 'build', 'wasm', 'core.wasm')));
    expect(exported(release).filter((name) => HOOKS.includes(name))).toEqual([]);
    const core = await WasmCore.create(release);
    expect(() => core.hooks).toThrow(CoreError);
    expect(() => core.hooks).toThrow(/debug build/);
  });
});

describe('zero allocations per request (100k calls)', () => {
  let engine: AddressEngine;
  let core: WasmCore;
  const CALLS = 100_000;

  beforeAll(async () => {
    engine = await debugEngine();
    core = engine.dictionary('ru')!.core;
    // first calls may carve their arenas; what must not grow is the steady state
    for (const q of QUERIES) {
      const len = core.write(q);
      core.exports.standardize(len);
      core.exports.suggest(len, 20, 1);
      core.exports.parseHouse(len);
    }
  });

  /** Runs `call` CALLS times over the query mix; returns how much memory and the heap moved. */
  function growth(call: (len: number, i: number) => void): { memory: number; heap: number } {
    const memory = core.memoryBytes();
    const first = heapTop(core);
    const step = heapTop(core) - first; // one probe block
    const top = first + step;
    for (let i = 0; i < CALLS; i++) call(core.write(QUERIES[i % QUERIES.length]), i);
    return { memory: core.memoryBytes() - memory, heap: heapTop(core) - top - step };
  }

  it('standardize does not grow the memory or move the heap', () => {
    expect(growth((len) => core.exports.standardize(len))).toEqual({ memory: 0, heap: 0 });
  }, 300_000);

  it('suggest does not grow the memory or move the heap', () => {
    expect(growth((len, i) => core.exports.suggest(len, 1 + (i % 20), i & 1))).toEqual({ memory: 0, heap: 0 });
  }, 300_000);

  it('parseHouse does not grow the memory or move the heap', () => {
    expect(growth((len) => core.exports.parseHouse(len))).toEqual({ memory: 0, heap: 0 });
  }, 300_000);

  it('gives the same answer on the last call as on the first', () => {
    const query = QUERIES[0];
    const a = engine.standardize('ru', query);
    for (let i = 0; i < 1000; i++) core.exports.standardize(core.write(QUERIES[i % QUERIES.length]));
    expect(engine.standardize('ru', query)).toEqual(a);
  });
});
