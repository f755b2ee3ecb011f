import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJsonBytes } from '../../../../engine/records/json.js';
import { shared } from '../../../../engine/records/shared.js';

const text = (value: unknown): string => toJsonBytes(value).toString('utf8');
const expected = (value: unknown): string => JSON.stringify(value) ?? 'null';

describe('toJsonBytes(value)', () => {
  it('writes the bytes JSON.stringify writes, for any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => text(value) === expected(value)), { numRuns: 2000 });
  });

  it('writes the bytes JSON.stringify writes for strings that need escapes', () => {
    for (const value of ['', 'a"b', 'a\\b', 'tab\there', 'line\nbreak', '\u0000\u001f', 'лоне \ud800 surrogate', 'pair 😀', '\u2028\u2029', 'ё «»']) {
      expect(text({ value, list: [value] })).toBe(expected({ value, list: [value] }));
    }
  });

  it('keeps JSON.stringify rules for undefined, functions, non-finite numbers, class instances and toJSON', () => {
    const value = {
      gone: undefined, fn: () => 1, kept: 1, nan: Number.NaN, inf: -Infinity, zero: -0,
      list: [undefined, () => 1, Number.NaN, null, true],
      date: new Date(0), custom: { toJSON: () => 'custom' }, map: new Map([[1, 2]]),
      deep: { a: { b: { c: { d: [1, { e: 'f' }] } } } },
    };
    expect(text(value)).toBe(expected(value));
    expect(text(undefined)).toBe('null');
    expect(text('top')).toBe('"top"');
  });

  it('copies a shared part as its cached bytes wherever it appears, and freezes it', () => {
    const level = shared({ fullName: 'г Москва', name: 'Москва', type: 'г', codes: { fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', ga: '', osm: '', gar: '', kladr: '' } });
    const body = { suggestions: [{ region: level, city: level, address: 'г Москва' }, { region: level }] };
    expect(text(body)).toBe(expected(body));
    expect(Object.isFrozen(level)).toBe(true);
    expect(Object.isFrozen(level.codes)).toBe(true);
  });

  it('writes a shared part the first time where it is met, at any depth and with shared parts inside, then copies those bytes', () => {
    const part = () => fc.jsonValue({ maxDepth: 2 }).filter((v): v is object => typeof v === 'object' && v !== null);
    fc.assert(
      fc.property(part(), part(), fc.nat(4), (outer, inner, depth) => {
        const nested = shared({ inner: shared(structuredClone(inner) as object), outer: structuredClone(outer), skipped: undefined });
        let body: unknown = { suggestions: [nested, nested] };
        for (let i = 0; i < depth; i++) body = { level: body };
        const first = text(body);
        return first === expected(body) && text(body) === first && text([nested]) === expected([nested]);
      }),
      { numRuns: 300 },
    );
  });

  it('writes the stretches between shared parts as JSON.stringify does, short or long, ASCII or not', () => {
    const part = shared({ name: 'Москва', codes: { fias: '' } });
    const member = fc.tuple(fc.string({ unit: 'binary', maxLength: 60 }), fc.jsonValue({ maxDepth: 1 }));
    fc.assert(
      fc.property(fc.array(member, { maxLength: 6 }), (members) => {
        const value = Object.fromEntries(members.flatMap(([key, item], i) => [[key, item], [`p${i}`, part]]));
        return text(value) === expected(value) && text([value, part]) === expected([value, part]);
      }),
      { numRuns: 1000 },
    );
  });

  it('answers bodies larger than its scratch buffer and keeps earlier answers intact', () => {
    const first = toJsonBytes({ a: 'first' });
    const big = { list: Array.from({ length: 5000 }, (_, i) => ({ index: i, text: 'длинный текст '.repeat(5) })) };
    expect(text(big)).toBe(expected(big));
    for (let i = 0; i < 200; i++) toJsonBytes({ filler: 'x'.repeat(3000) });
    expect(first.toString()).toBe('{"a":"first"}');
  });

  it('keeps every answer intact while later ones fill slabs, move to a fresh one midway or outgrow one', () => {
    const level = shared({ name: 'Москва', codes: { fias: '' } });
    const bodies = Array.from({ length: 400 }, (_, i) => ({ i, level, text: 'ж'.repeat((i * 7919) % (i % 50 === 0 ? 200_000 : 9_000)), level2: level }));
    const answers = bodies.map((body) => toJsonBytes(body));
    bodies.forEach((body, i) => expect(answers[i].toString()).toBe(expected(body)));
  });

  it('throws where JSON.stringify throws (a cycle, a bigint)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { again: { more: { self: cyclic } } };
    expect(() => toJsonBytes(cyclic)).toThrow(TypeError);
    expect(() => toJsonBytes({ n: 1n })).toThrow(TypeError);
    expect(text({ after: 'error' })).toBe('{"after":"error"}');
  });
});
