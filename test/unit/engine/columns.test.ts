import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guidColumn, pooledColumn, textColumn, u32Column } from '../../../dictionaries/columns.js';
import { GuidIndex, KeyIndex, PooledColumn, TextColumn, TextIndex, first, guidText, numbers } from '../../../engine/columns.js';

describe('text columns (dictionaries/columns.ts → engine/columns.ts)', () => {
  it('read back every value, empty ones and multibyte ones included', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(''), fc.string(), fc.constantFrom('Екатеринбург', 'Київ', 'Қостанай', '🏠')), { maxLength: 50 }), (values) => {
        const column = new TextColumn(textColumn(values));
        values.forEach((value, row) => expect(column.get(row)).toBe(value));
        expect(column.get(values.length)).toBe('');
      }),
    );
  });

  it('are written as nil when no row has a value, and read as empty rows', () => {
    expect(textColumn(['', undefined, ''])).toBeNull();
    expect(new TextColumn(null).get(0)).toBe('');
    expect(pooledColumn([undefined, ''])).toBeNull();
    expect(new PooledColumn(null).get(3)).toBe('');
    expect(guidColumn(['', undefined])).toBeNull();
    expect(u32Column(['', 0, undefined])).toBeNull();
    expect(numbers(null, Uint32Array)[0]).toBeUndefined();
  });

  it('find rows by value through a hash index, first row first', () => {
    const values = ['7700000000000', '', '6600000100000', '7700000000000', 'R102269'];
    const index = new TextIndex(new TextColumn(textColumn(values)));
    expect([...index.rows('7700000000000')]).toEqual([0, 3]);
    expect(first(index.rows('6600000100000'))).toBe(2);
    expect(first(index.rows(''))).toBe(-1);
    expect(first(index.rows('770000000000'))).toBe(-1);
  });
});

describe('pooled columns', () => {
  it('read back repeating values', () => {
    const values = ['ул', 'г', 'ул', '', 'пр-кт', 'ул'];
    const column = new PooledColumn(pooledColumn(values));
    values.forEach((value, row) => expect(column.get(row)).toBe(value));
  });

  it('switch to 4-byte ids past 65,536 distinct values', () => {
    const values = Array.from({ length: 70_000 }, (_, i) => `v${i}`);
    const written = pooledColumn(values)!;
    expect(written.ids.byteLength).toBe(values.length * 4);
    const column = new PooledColumn(written);
    for (const row of [0, 65_535, 65_536, 69_999]) expect(column.get(row)).toBe(values[row]);
  });
});

describe('GUID and number columns', () => {
  it('find GUIDs in any case and with or without dashes, and numbers, in row order', () => {
    const guids = ['0c5b2444-70a0-4932-980c-b4dc0d3f02b5', '', '0c5b2444-0000-4000-8000-000000000001', '0C5B2444-70A0-4932-980C-B4DC0D3F02B5'];
    const bytes = guidColumn(guids)!;
    const index = new GuidIndex(new Uint8Array(bytes), guids.length);
    expect([...index.rows('0c5b2444-70a0-4932-980c-b4dc0d3f02b5')]).toEqual([0, 3]);
    expect([...index.rows('0c5b2444000040008000000000000001')]).toEqual([2]);
    expect([...index.rows('00000000-0000-0000-0000-000000000000')]).toEqual([]);
    expect(guidText(new Uint8Array(bytes), 3)).toBe(guids[0]);
    expect(guidText(new Uint8Array(bytes), 1)).toBe('');
    const gar = new Uint32Array(u32Column(['5', '', '7', '5'])!.buffer.slice(0) as ArrayBuffer);
    expect([...new KeyIndex(gar).rows(5)]).toEqual([0, 3]);
    expect([...new KeyIndex(gar).rows(0)]).toEqual([]);
  });

  it('refuse values that are not GUIDs or u32', () => {
    expect(() => guidColumn(['not-a-guid'])).toThrow(/bad GUID/);
    expect(() => u32Column(['-1'])).toThrow(/bad u32/);
    expect(() => u32Column([2 ** 32])).toThrow(/bad u32/);
  });
});
