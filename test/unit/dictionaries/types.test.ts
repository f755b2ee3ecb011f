import { describe, expect, it } from 'vitest';
import { Level } from '../../../dictionaries/source-model.js';
import { typeTable } from '../../../dictionaries/types.js';

describe('typeTable() from data/types.tsv', () => {
  const types = typeTable();

  it('maps GAR old and new short names to the conventions abbreviation', () => {
    expect(types.abbreviation('ул.', 'ru', Level.street)).toBe('ул');
    expect(types.abbreviation('пр-д', 'ru', Level.street)).toBe('проезд');
    expect(types.abbreviation('г.', 'ru', Level.city)).toBe('г');
    expect(types.abbreviation('респ.', 'ru', Level.region)).toBe('Респ');
    expect(types.abbreviation('а.обл.', 'ru', Level.region)).toBe('Аобл');
    expect(types.abbreviation('мкр.', 'ru', Level.planStructure)).toBe('мкр');
    expect(types.abbreviation('п', 'ru', Level.settlement)).toBe('п');
  });

  it('knows which types are written after the name', () => {
    expect(types.isAfter('обл', 'ru')).toBe(true);
    expect(types.isAfter('проезд', 'ru')).toBe(true);
    expect(types.isAfter('ш', 'ru')).toBe(true);
    expect(types.isAfter('ул', 'ru')).toBe(false);
    expect(types.isAfter('пр-кт', 'ru')).toBe(false);
  });

  it('splits a type word at either end of an OSM street name', () => {
    const streets = [Level.street, Level.planStructure];
    expect(types.splitTypedName('улица Челюскинцев', 'ru', streets)).toEqual({ type: 'ул', name: 'Челюскинцев' });
    expect(types.splitTypedName('Ленина проспект', 'ru', streets)).toEqual({ type: 'пр-кт', name: 'Ленина' });
    expect(types.splitTypedName('2-й Варшавский проезд', 'ru', streets)).toEqual({ type: 'проезд', name: '2-й Варшавский' });
    expect(types.splitTypedName('Гостилицкое шоссе', 'ru', streets)).toEqual({ type: 'ш', name: 'Гостилицкое' });
    expect(types.splitTypedName('Арбат', 'ru', streets)).toEqual({ type: '', name: 'Арбат' });
  });

  it('keeps Ukrainian abbreviations in UA', () => {
    expect(types.splitTypedName('Саксаганського вулиця', 'ua', [Level.street])).toEqual({ type: 'вул', name: 'Саксаганського' });
    expect(types.splitTypedName('проспект Перемоги', 'ua', [Level.street])).toEqual({ type: 'просп', name: 'Перемоги' });
  });
});
