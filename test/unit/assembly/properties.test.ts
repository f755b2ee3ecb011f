/**
 * Invariants of the core under any input (fast-check), on the debug build (bounds checks on) with the
 * real ru dictionary: nothing crashes or throws, every span the core returns lies inside the input, every
 * id it returns exists, quality fields stay on their scales, and a call leaves no state behind.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AddressEngine } from '../../../engine/engine.js';
import type { LoadedDictionary } from '../../../engine/dictionary.js';
import type { WasmCore } from '../../../engine/wasm-core.js';
import { R_LEFT } from '../../../format/result.js';
import { debugEngine } from '../../helpers/engine.js';


/** Chars addresses are made of, plus the ones that break naive code: controls, lone surrogates, astral. */
const ADDRESS_CHARS = [
  ...'абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯёіїєґўқәabcdefghijklmnopqrstuvwxyzABCXYZ0123456789',
  ' ', ' ', ' ', ',', '.', '-', '/', ';', '\\', '№', '–', '—', '"', "'", '[', ']', '`', '(', ')', '&', '#',
  '\u0000', '\u0001', '\t', '\n', '\r', '\u007f', '\u00a0', '\u200b', '\ufeff', '\ud800', '\udfff', '😀', '\u0130', '\u212a',
];
const WORDS = ['д', 'дом', 'к', 'корп', 'с', 'стр', 'лит', 'кв', 'оф', 'эт', 'а/я', 'в/ч', 'г', 'ул', 'пр-кт', 'обл', 'мкр', '7-й', '22-го',
  'Москва', 'Екатеринбург', 'Ленина', 'Малышева', 'Байконур', '8 Марта', '620000', '89123456789', '10к2', '11/-89', 'ekaterinburg', 'Trfnthby,ehu'];

const addressLike = fc.array(fc.oneof(fc.constantFrom(...ADDRESS_CHARS), fc.constantFrom(...WORDS).map((w) => ` ${w} `)), { maxLength: 80 })
  .map((parts) => parts.join(''));
const anyText = fc.oneof(
  { weight: 4, arbitrary: addressLike },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 100 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\ud800', '\udc00', '\u0000', '\u001f', ' ', '1', 'д'), maxLength: 300 }) },
);
const longText = fc.tuple(fc.constantFrom(...WORDS, 'а', '1', ' ', ',', '-', '\ud800'), fc.integer({ min: 4000, max: 5000 }), addressLike)
  .map(([unit, n, tail]) => (unit.repeat(Math.ceil(n / unit.length)) + tail).slice(0, n));

describe('the core under any input', () => {
  let engine: AddressEngine;
  let dict: LoadedDictionary;
  let core: WasmCore;
  beforeAll(async () => {
    engine = await debugEngine();
    dict = engine.dictionary('ru')!;
    core = dict.core;
  });

  /** Raw standardize: status, ids and spans straight from the result region. */
  function rawStandardize(text: string) {
    const len = core.write(text);
    const status = core.exports.standardize(len);
    const r = core.result();
    const left: [number, number][] = [];
    for (let i = 0; i < r[R_LEFT]; i++) left.push([r[R_LEFT + 1 + 2 * i], r[R_LEFT + 2 + 2 * i]]);
    return { len, status, object: r[1], house: r[2], unique: r[3], actuality: r[4], undefined: r[5], level: r[6], houseQuality: r[7], postcode: [r[8], r[9]], left };
  }

  function expectInside(span: [number, number] | number[], len: number, what: string): void {
    const [start, length] = span;
    expect(start, what).toBeGreaterThanOrEqual(0);
    expect(length, what).toBeGreaterThan(0);
    expect(start + length, what).toBeLessThanOrEqual(len);
  }

  it('standardize never throws and keeps ids, spans and quality in range', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const s = rawStandardize(text);
        expect([0, 1]).toContain(s.status);
        if (s.status === 0) {
          expect(s.object).toBeGreaterThanOrEqual(0);
          expect(s.object).toBeLessThan(dict.objectCount);
        }
        expect(s.house).toBeGreaterThanOrEqual(-1);
        expect(s.house).toBeLessThan(dict.houseCount);
        if (s.house >= 0) expect(dict.house(s.house).parent).toBe(s.object);
        expect([0, 1, 2]).toContain(s.unique);
        expect([0, 1, 2]).toContain(s.actuality);
        expect([0, 1, 2]).toContain(s.undefined);
        expect(s.level).toBeGreaterThanOrEqual(0);
        expect(s.level).toBeLessThanOrEqual(8);
        expect([0, 3, 4, 9]).toContain(s.houseQuality);
        if (s.postcode[0] >= 0) {
          expectInside(s.postcode, s.len, 'postcode');
          // six digits, or five as the string's first word (Ukraine's postcodes: `01033, Київ`; which characters
          // before it the core reads as none is the tokenizer's business, test/unit/assembly/house/grammar.test.ts)
          expect(text.slice(s.postcode[0], s.postcode[0] + s.postcode[1])).toMatch(/^\d{5,6}$/);
        }
        for (const span of s.left) expectInside(span, s.len, 'leftover');
        // leftovers come in input order and do not overlap
        for (let i = 1; i < s.left.length; i++) expect(s.left[i][0]).toBeGreaterThanOrEqual(s.left[i - 1][0] + s.left[i - 1][1]);
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('engine.standardize, suggest and parseHouse never throw on any text', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 20 }), (text, count) => {
        const res = engine.standardize('ru', text);
        expect(typeof res.undefinedParts).toBe('string');
        for (const value of Object.values(res.parts)) expect(value).not.toMatch(/[\sA-ZА-ЯЁ]/);
        const hints = engine.suggest('ru', text, count);
        expect(hints.length).toBeLessThanOrEqual(count);
        engine.parseHouse(text);
      }),
      { numRuns: 700 },
    );
  }, 120_000);

  it('survives texts of 4000 to 5000 chars (past the input capacity), in every entry point', () => {
    fc.assert(
      fc.property(longText, (text) => {
        const s = rawStandardize(text);
        expect(s.len).toBe(Math.min(text.length, core.exports.inputCapacity()));
        for (const span of s.left) expectInside(span, s.len, 'leftover');
        if (s.postcode[0] >= 0) expectInside(s.postcode, s.len, 'postcode');
        engine.standardize('ru', text);
        engine.suggest('ru', text, 20);
        engine.parseHouse(text);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('suggest returns at most max items, each an existing object and house', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 120 }), fc.boolean(), (text, max, prefix) => {
        const n = core.exports.suggest(core.write(text), max, prefix ? 1 : 0);
        expect(n).toBeGreaterThanOrEqual(0);
        expect(n).toBeLessThanOrEqual(Math.max(max, 1));
        const r = core.result();
        for (let i = 0; i < n; i++) {
          const [object, house] = [r[1 + 3 * i], r[2 + 3 * i]];
          expect(object).toBeGreaterThanOrEqual(0);
          expect(object).toBeLessThan(dict.objectCount);
          expect(house).toBeGreaterThanOrEqual(-1);
          expect(house).toBeLessThan(dict.houseCount);
          if (house >= 0) expect(dict.house(house).parent).toBe(object);
        }
      }),
      { numRuns: 700 },
    );
  }, 120_000);

  it('parseHouse points the postcode span at the six digits of the input, after any prefix', () => {
    const prefix = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => s.replace(/[0-9]/g, 'x'));
    fc.assert(
      fc.property(prefix, fc.integer({ min: 100000, max: 999999 }), (head, code) => {
        // «индекс» is no house keyword: a keyword right before six digits (д 123456) makes them a house
        const text = `${head} индекс ${code}`;
        core.exports.parseHouse(core.write(text));
        const r = core.result();
        expect([r[8], r[9]]).toEqual([head.length + 8, 6]);
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves no state behind: the same query gives the same answer after any other', () => {
    const probes = ['Екатеринбург, ул Малышева, 5', 'Альметьевск Ленина 1', 'д 5 кв 7'];
    const before = probes.map((q) => engine.standardize('ru', q));
    const hintsBefore = engine.suggest('ru', 'Екатеринбург Крас', 10);
    fc.assert(
      fc.property(anyText, fc.constantFrom(0, 1, 2), (text, i) => {
        engine.standardize('ru', text);
        engine.suggest('ru', text, 20);
        expect(engine.standardize('ru', probes[i])).toEqual(before[i]);
      }),
      { numRuns: 300 },
    );
    expect(engine.suggest('ru', 'Екатеринбург Крас', 10)).toEqual(hintsBefore);
  }, 120_000);

  it('nearest and nearestMetro never throw on any coordinates', () => {
    const coord = fc.oneof(fc.double(), fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(0, -0, 90, -90, 180, -180, Infinity, NaN));
    fc.assert(
      fc.property(coord, coord, fc.double({ min: -10, max: 2000, noNaN: true }), fc.integer({ min: -3, max: 40 }), (lat, lon, radius, max) => {
        const hit = engine.nearest('ru', lat, lon, undefined, radius);
        if (hit) expect(hit.distance).toBeLessThanOrEqual(Math.round(radius));
        const metro = engine.nearestMetro('ru', lat, lon, max, radius);
        expect(metro.length).toBeLessThanOrEqual(Math.max(0, Math.min(max, 16)));
      }),
      { numRuns: 2000 },
    );
  });
});
