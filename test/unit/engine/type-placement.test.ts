import { describe, expect, it } from 'vitest';
import { levelFullName, typePlacement } from '../../../engine/type-placement.js';

describe('levelFullName(name, type)', () => {
  it('puts the conventions examples on their side', () => {
    expect(levelFullName('Москва', 'г')).toBe('г Москва');
    expect(levelFullName('Кировская', 'обл')).toBe('Кировская обл');
    expect(levelFullName('Спартаковская', 'пл')).toBe('пл Спартаковская');
    expect(levelFullName('Варшавское', 'ш')).toBe('Варшавское ш');
    expect(levelFullName('2-й Варшавский', 'проезд')).toBe('2-й Варшавский проезд');
  });

  it('places every listed type on its side', () => {
    for (const type of ['г', 'Респ', 'п', 'пгт', 'рп', 'с', 'д', 'х', 'ст-ца', 'аул', 'ул', 'пл', 'пр-кт', 'б-р', 'наб', 'пер', 'мкр', 'тер', 'кв-л', 'снт']) {
      expect(typePlacement(type), type).toBe('before');
    }
    for (const type of ['обл', 'край', 'АО', 'Аобл', 'р-н', 'ш', 'проезд', 'км', 'туп']) expect(typePlacement(type), type).toBe('after');
  });

  it('puts an unknown type before the name and folds case and a trailing dot', () => {
    expect(typePlacement('аллея')).toBe('before');
    expect(typePlacement('Обл.')).toBe('after');
  });

  it('writes a name that holds its type written out alone, as FIAS does', () => {
    expect(levelFullName('Кемеровская область - Кузбасс', 'обл')).toBe('Кемеровская область - Кузбасс');
    expect(levelFullName('Ханты-Мансийский Автономный округ - Югра', 'АО')).toBe('Ханты-Мансийский Автономный округ - Югра');
    expect(levelFullName('Чувашская Республика', 'Чувашия')).toBe('Чувашская Республика Чувашия');
    // a word that only begins as the type's is no type written out
    expect(levelFullName('Районная', 'р-н')).toBe('Районная р-н');
  });

  it('returns the name alone without a type and nothing without a name', () => {
    expect(levelFullName('Москва', '')).toBe('Москва');
    expect(levelFullName('', 'г')).toBe('');
  });
});
