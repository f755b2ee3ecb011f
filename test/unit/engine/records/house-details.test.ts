import { describe, expect, it } from 'vitest';
import { completeHouseParts, houseFullName } from '../../../../engine/records/house-details.js';
import { HOUSES, parts } from '../../../helpers/fixture-dictionary.js';
import { HOUSE_PART_KEYS } from '../../../../engine/types.js';

describe('houseFullName(parts)', () => {
  it('writes the members in the conventions order with lower-case letters', () => {
    const completed = completeHouseParts(parts({ house: '4', build: '2', floor: '8', block: 'Г', office: '839' }), null, null);
    expect(houseFullName(completed)).toBe('дом 4, строение 2, этаж 8, офис 839, блок г');
  });

  it('writes every member with its word', () => {
    const all = parts({ house: '1', case: '2', build: '3', liter: 'А', lend: '5', constr: '6', stead: '7', entr: '8', floor: '9', flat: '10', office: '11', room: '12', kab: '13', place: '14', block: '15', pav: '16', sek: '17', abon: '18', munit: '19' });
    expect(houseFullName(completeHouseParts(all, null, null))).toBe(
      'дом 1, корпус 2, строение 3, литера а, владение 5, сооружение 6, участок 7, подъезд 8, этаж 9, квартира 10, офис 11, комната 12, кабинет 13, помещение 14, блок 15, павильон 16, секция 17, а/я 18, в/ч 19',
    );
  });

  it('is empty for no parts', () => {
    expect(houseFullName(completeHouseParts(undefined, null, null))).toBe('');
  });

  it('writes a member that is the only one given, whichever it is (the all-empty test reads each)', () => {
    for (const key of HOUSE_PART_KEYS) {
      const line = houseFullName(completeHouseParts(parts({ [key]: '7' }), null, null));
      expect(line, key).toMatch(/ 7$/);
    }
  });
});

describe('completeHouseParts(parsed, house, apartment)', () => {
  it('takes the number and строение of the registry house and keeps parsed members the registry lacks', () => {
    const completed = completeHouseParts(parts({ house: '10', build: '', flat: '3' }), HOUSES[1], null);
    expect(houseFullName(completed)).toBe('дом 10, строение 12, квартира 3');
  });

  it('puts an office-type apartment into office', () => {
    const completed = completeHouseParts(parts({}), HOUSES[0], { id: 0, house: 0, number: '7Б', type: 'оф', codes: { fias: '', ga: '', osm: '', gar: '', kladr: '' }, cadnum: '' });
    expect(completed.office).toBe('7б');
    expect(completed.flat).toBe('');
  });
});
