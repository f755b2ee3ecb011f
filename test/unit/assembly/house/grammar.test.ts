/**
 * The house-part grammar (assembly/house/) through engine.parseHouse on the debug core: every
 * HouseDetails member with its keywords, glued and spaced forms, fractions, flats after a hyphen, the
 * postcode, and the numbers that are never a house (phones, ordinals, names that begin with a number).
 * parseHouse needs no dictionary, so the engine here runs a bare core.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AddressEngine } from '../../../../engine/engine.js';
import type { HouseParts } from '../../../../engine/types.js';
import { bareCore, filledParts } from '../../../helpers/engine.js';

let engine: AddressEngine;
beforeAll(async () => {
  engine = new AddressEngine([], await bareCore());
});

const parts = (query: string): Partial<HouseParts> => filledParts(engine.parseHouse(query).parts);
const postcode = (query: string): string => engine.parseHouse(query).postcodeIn;

/** [input, the parts it must give]: one table per member, read by `it.each`. */
type Case = [string, Partial<HouseParts>];

describe('parseHouse(query)', () => {
  describe('house: д, дом, д., glued, №', () => {
    it.each<Case>([
      ['д 10а', { house: '10а' }],
      ['дом 10', { house: '10' }],
      ['д. 10', { house: '10' }],
      ['Д.5', { house: '5' }],
      ['дом53', { house: '53' }],
      ['№ 5', { house: '5' }],
      ['Ленина 87', { house: '87' }],
      ['26а', { house: '26а' }],
      ['12 А', { house: '12а' }],
      ['дом 10 А', { house: '10а' }],
      ['д34 г Екатеринбург', { house: '34' }],
      // a letter after a hyphen is the house's after its keyword, elsewhere an ordinal (the hyphen kept in the parsed
      // value, KNOWN_GAPS.md; the solver finds 6е)
      ['Комсомольская, д. 6-Е', { house: '6-е' }],
      ['д. 77-е, кв. 7', { house: '77-е', flat: '7' }],
      // a т glued to the number is its letter, not a phone's label
      ['Бархотская, 1т, 620000', { house: '1т' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('possession is the house: влд, двлд, владение, домовладение', () => {
    it.each<Case>([
      ['влд 5', { house: '5' }],
      ['двлд. 4', { house: '4' }],
      ['владение 7', { house: '7' }],
      ['домовладение 3', { house: '3' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('fractions: 10/2, 1/2а', () => {
    it.each<Case>([
      ['10/2', { house: '10/2' }],
      ['дом 1/2а', { house: '1/2а' }],
      ['10а/2', { house: '10а/2' }],
      ['Ленина, 5/1 корп 2', { house: '5/1', case: '2' }],
      // a keyword glued after the fraction opens its part: корпус, строение
      ['2/10к1', { house: '2/10', case: '1' }],
      ['д. 2/10с3', { house: '2/10', build: '3' }],
      ['2/10с', { house: '2/10с' }],
      // д glued after the number is its letter, not the house keyword, before a slash too (house 2 before)
      ['7д/2', { house: '7д/2' }],
      ['д 7д/2 кв 5', { house: '7д/2', flat: '5' }],
      // a corpus or building letter keeps its reading
      ['7к/2', { house: '7', case: '2' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('case (корпус): 10к2, 10 к 2, 10 корп. 2', () => {
    it.each<Case>([
      ['10к2', { house: '10', case: '2' }],
      ['10 к 2', { house: '10', case: '2' }],
      ['10 к2', { house: '10', case: '2' }],
      ['10 корп. 2', { house: '10', case: '2' }],
      ['10 корпус 2', { house: '10', case: '2' }],
      ['д 5 корп Б', { house: '5', case: 'б' }],
      ['5ак1', { house: '5а', case: '1' }],
      ['48 к.1-34', { house: '48', case: '1', flat: '34' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('build (строение): 10с12, стр., строение', () => {
    it.each<Case>([
      ['10с12', { house: '10', build: '12' }],
      ['10 стр. 3', { house: '10', build: '3' }],
      ['10 строение 3', { house: '10', build: '3' }],
      ['д 5 с 2', { house: '5', build: '2' }],
      // a one-letter building after the corpus that follows the house (it was left unread)
      ['26ак1 с1', { house: '26а', case: '1', build: '1' }],
      ['10 к2 с1', { house: '10', case: '2', build: '1' }],
      // but not after an office: `с 1` there is no building of the house
      ['12 оф 3 с 1', { house: '12', office: '3' }],
      ['стр-е 4', { build: '4' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('liter: лит, литер, литера А', () => {
    it.each<Case>([
      ['10 лит А', { house: '10', liter: 'а' }],
      ['10 литер Б', { house: '10', liter: 'б' }],
      ['10 литера В', { house: '10', liter: 'в' }],
      ['д 5 стр 2 лит А кв 3', { house: '5', build: '2', liter: 'а', flat: '3' }],
      // a letter that is also a keyword (л, к, с, д) is the литера's value when no number follows it
      ['11Б лит Л', { house: '11б', liter: 'л' }],
      ['5 литер К', { house: '5', liter: 'к' }],
      // a keyword's letter is the литера's when the number after it is another part's
      ['31 лит. Д, 620000', { house: '31', liter: 'д' }],
      ['31 литер Д 2 этаж', { house: '31', liter: 'д', floor: '2' }],
      // (a letter glued to the корпус is the корпус's as parsed; the solver reads it as the литера where the registry
      // has no such корпус: `12к4Б` → 12 к4 литБ, test/api/clean-address.test.ts)
      ['12к4Б', { house: '12', case: '4б' }],
      // the letter glued to the word
      ['31литБ', { house: '31', liter: 'б' }],
      ['31 литерБ', { house: '31', liter: 'б' }],
      ['31 литераВ', { house: '31', liter: 'в' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('construction and stead: соор, уч, з/у, земельный участок', () => {
    it.each<Case>([
      ['соор 3', { constr: '3' }],
      ['сооружение 2', { constr: '2' }],
      ['уч 15', { stead: '15' }],
      ['участок 15', { stead: '15' }],
      ['з/у 15', { stead: '15' }],
      ['земельный участок 15', { stead: '15' }],
      ['зем. уч. 7а', { stead: '7а' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('flat: кв, квартира, кв-ра, 11/-89, д.20-18, a bare number after the house (a comma, or closing the segment)', () => {
    it.each<Case>([
      ['кв 5', { flat: '5' }],
      ['квартира 12', { flat: '12' }],
      ['кв-ра 5', { flat: '5' }],
      ['Малышева 5 к-ра 3', { house: '5', flat: '3' }],
      // the keywords typed in Latin letters among Cyrillic words
      ['Малышева 5 kv 3', { house: '5', flat: '3' }],
      ['Титова, 8 korp. 2 kv. 15', { house: '8', case: '2', flat: '15' }],
      ['Малышева 5 of 3', { house: '5', office: '3' }],
      ['кв. 12б', { flat: '12б' }],
      // a unit's fraction
      ['Малышева 5 кв 12/1', { house: '5', flat: '12/1' }],
      // house, корпус and flat each between commas (1C's and KLADR's exports)
      ['Россия,620073,Свердловская обл,,Екатеринбург г,,Академика Шварца ул,10,1,192', { house: '10', case: '1', flat: '192' }],
      ['Малышева, 5, 10', { house: '5', flat: '10' }],
      ['Малышева 5 оф. 301/1', { house: '5', office: '301/1' }],
      ['11/-89', { house: '11', flat: '89' }],
      ['д.20-18', { house: '20', flat: '18' }],
      // without the street (the solver reads 35д when the street has it): a keyword letter before the hyphen is a
      // slip, with or without the house keyword before (house 253 before)
      ['35д-253', { house: '35', flat: '253' }],
      ['д.35д-253', { house: '35', flat: '253' }],
      // and with a space before the flat that closes its part
      ['Гагарина 28д 71', { house: '28', flat: '71' }],
      ['3-122', { house: '3', flat: '122' }],
      ['пр-кт Мира, 5-7', { house: '5', flat: '7' }],
      ['дом 26, 5', { house: '26', flat: '5' }],
      // after a space, when the number closes its segment (not `5 2 этаж`, not before more words)
      ['Малышева 5 10', { house: '5', flat: '10' }],
      ['Малышева 5а 10, Екатеринбург', { house: '5а', flat: '10' }],
      ['Малышева 5 2 этаж', { house: '5', floor: '2' }],
      ['Малышева 5 10 Екатеринбург', { house: '5' }],
      ['Участок №1 1', { house: '1' }],
      ['д 5 кв 7', { house: '5', flat: '7' }],
      ['ДОМ 7 КВ 9', { house: '7', flat: '9' }],
      ['д.5,кв.3', { house: '5', flat: '3' }],
      // a № between a keyword and its number (1С writes `дом № 5`)
      ['дом № 5, квартира №10', { house: '5', flat: '10' }],
      ['5, кв. № 10', { house: '5', flat: '10' }],
      ['д 5 корп. №1', { house: '5', case: '1' }],
      ['Ленина 10 с 2 кв 5', { house: '10', build: '2', flat: '5' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('office, room, cabinet, premises: оф, ком, каб, пом', () => {
    it.each<Case>([
      ['оф 839', { office: '839' }],
      ['офис 12', { office: '12' }],
      ['оф. 12а', { office: '12а' }],
      ['ул. Мира, д.5, оф.301', { house: '5', office: '301' }],
      ['ком 2', { room: '2' }],
      ['комната 2', { room: '2' }],
      ['каб 7', { kab: '7' }],
      ['кабинет 9', { kab: '9' }],
      ['пом 3', { place: '3' }],
      ['помещение 4', { place: '4' }],
      ['пом. 1Н', { place: '1н' }],
      ['д 5 эт 2 пом 3 ком 4', { house: '5', floor: '2', place: '3', room: '4' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('entrance and floor: под, подъезд, п-д, эт, этаж', () => {
    it.each<Case>([
      ['под 2', { entr: '2' }],
      ['подъезд 3', { entr: '3' }],
      ['п-д 3', { entr: '3' }],
      ['эт 8', { floor: '8' }],
      ['этаж 9', { floor: '9' }],
      ['дом 12, подъезд 2, этаж 3, кв 45', { house: '12', entr: '2', floor: '3', flat: '45' }],
      // the floor before its word: на 2 этаже, 3 этаж (but «5 этаж 3» is house 5, floor 3)
      ['Ленина 103, офис на 2 этаже', { house: '103', floor: '2' }],
      ['Ленина 5, 3 этаж, кв 7', { house: '5', floor: '3', flat: '7' }],
      // a number sign glued to its keyword
      ['Малышева дом№5', { house: '5' }],
      ['Малышева 5 квартира№10', { house: '5', flat: '10' }],
      // a flat after the house's корпус and a comma; a fraction written with spaces
      ['Серегина 5 к2, 3', { house: '5', case: '2', flat: '3' }],
      ['Викулова 33 / 3', { house: '33/3' }],
      // a fraction's letter after a space or hyphen, closing its part
      ['Ленина 52/1 а', { house: '52/1а' }],
      ['Ленина 52/1-А, кв. 3', { house: '52/1-а', flat: '3' }], // (the hyphen kept in the parsed value, KNOWN_GAPS.md)
      ['Ленина 52/1 с 2', { house: '52/1', build: '2' }],
      // the slash spelled out
      ['Халтурина, 37 дробь 15', { house: '37/15' }],
      ['Малышева 5 дробь 2 кв 3', { house: '5/2', flat: '3' }],
      // the entrance too, after the house's number; a number after a comma is not the word's own
      ['Малышева,5-10,2 подъезд,3 этаж', { house: '5', flat: '10', entr: '2', floor: '3' }],
      ['Малышева 5, 3 этаж, 2 подъезд', { house: '5', floor: '3', entr: '2' }],
      ['Малышева 5 подъезд 2', { house: '5', entr: '2' }],
      // each number before its own word with no comma between (the first word's keyword does not take the second's)
      ['Малышева, 5, кв 10, 2 подъезд 5 этаж', { house: '5', flat: '10', entr: '2', floor: '5' }],
      ['Малышева 5 кв 10 5 этаж 2 подъезд', { house: '5', flat: '10', floor: '5', entr: '2' }],
      ['Малышева 5 п/д 2', { house: '5', entr: '2' }],
      ['Малышева 5, 2 пд, кв 3', { house: '5', entr: '2', flat: '3' }],
      ['Малышева 5 кв 3 2под', { house: '5', flat: '3', entr: '2' }],
      ['Малышева 5 подъезд', { house: '5' }],
      // п, п., п-д after the house's number, парадная (Санкт-Петербург's word); a п before the number is a type
      ['д 5 п 2', { house: '5', entr: '2' }],
      ['Малышева д. 5 п. 2', { house: '5', entr: '2' }],
      ['Малышева 5 кв.10 п-д 2', { house: '5', flat: '10', entr: '2' }],
      ['Галерная 33, парадная 2', { house: '33', entr: '2' }],
      ['Минка п 20', { house: '20' }],
      // with an ordinal's suffix: 2й подъезд, 3-й этаж
      ['Малышева 5 2й подъезд', { house: '5', entr: '2' }],
      ['Малышева 5, 3-й этаж, кв 7', { house: '5', floor: '3', flat: '7' }],
      // the word with no number of its own after a comma leaves the only number to the house
      ['Малышева 5, этаж', { house: '5' }],
      // Ukrainian: буд., будинок, поверх, кімната
      ['вулиця Саксаганського, буд. 4б, кв. 3', { house: '4б', flat: '3' }],
      ['Саксаганського 4б, 3 поверх', { house: '4б', floor: '3' }],
      ['будинок 4б, кімн. 5', { house: '4б', room: '5' }],
      ['Ленина 5 этаж 3', { house: '5', floor: '3' }],
      // GAR's house type здание (зд.)
      ['ул Малышева, зд. 5', { house: '5' }],
      ['Малышева, здание 5, оф 3', { house: '5', office: '3' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('block, pavilion, section: блок, бл, пав, секц', () => {
    it.each<Case>([
      ['блок Г', { block: 'г' }],
      ['д 10 бл 2', { house: '10', block: '2' }],
      ['Екатеринбург, Ленина 5 блок А', { house: '5', block: 'а' }],
      ['пав 12', { pav: '12' }],
      ['павильон 3', { pav: '3' }],
      ['сек 2', { sek: '2' }],
      ['секц 4', { sek: '4' }],
      ['секция 5', { sek: '5' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('post box and military unit: а/я, в/ч', () => {
    it.each<Case>([
      ['ул Ленина 5, а/я 123', { house: '5', abon: '123' }],
      ['ул Ленина 5, в/ч 12345', { house: '5', munit: '12345' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));

    // was a bug until fcb0a46: with no other house number, the number after а/я or в/ч was taken as the house
    it.each<Case>([
      ['а/я 123', { abon: '123' }],
      ['а/я 15, Москва', { abon: '15' }],
      ['в/ч 12345', { munit: '12345' }],
    ])('%s (no other house number)', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('the documented example', () => {
    it('reads 108811, Москва г, км Киевское шоссе 22-й, двлд. 4, стр. 2, ЭТ 8 БЛОК Г ОФ 839', () => {
      const res = engine.parseHouse('108811, Москва г, км Киевское шоссе 22-й, двлд. 4, стр. 2, ЭТ 8 БЛОК Г ОФ 839');
      expect(filledParts(res.parts)).toEqual({ house: '4', build: '2', floor: '8', office: '839', block: 'г' });
      expect(res.postcodeIn).toBe('108811');
    });
  });

  describe('postcode', () => {
    it('takes six digits alone as the postcode, never as a house', () => {
      expect(engine.parseHouse('620000 Екатеринбург')).toEqual({ parts: expect.any(Object), postcodeIn: '620000' });
      expect(parts('620000 Екатеринбург')).toEqual({});
      expect(postcode('101000')).toBe('101000');
      expect(postcode('Москва 101000')).toBe('101000');
    });

    it('reads two halves of three digits as no postcode without a dictionary to know it by', () => {
      expect(postcode('Байконур, ул Горького 5а, 468 320')).toBe('');
    });

    it('keeps the house next to a postcode', () => {
      expect(engine.parseHouse('620000, Екатеринбург, Ленина 5')).toMatchObject({ postcodeIn: '620000' });
      expect(parts('620000, Екатеринбург, Ленина 5')).toEqual({ house: '5' });
    });

    it('does not take six digits after a keyword as the postcode', () => {
      expect(postcode('д 123456')).toBe('');
      expect(parts('д 123456')).toEqual({ house: '123456' });
    });

    it('takes six digits after a comma as the postcode even after a house letter that is also a keyword', () => {
      // д, к after the number are its letter; the number after the comma is no house and no корпус
      expect(parts('Комсомольская ул. 6д, 620137')).toEqual({ house: '6д' });
      expect(postcode('Комсомольская ул. 6д, 620137')).toBe('620137');
      expect(parts('ул. Янгеля 21-д, 468320')).toEqual({ house: '21-д' }); // the hyphen kept in the parsed value (KNOWN_GAPS.md)
      expect(parts('Репина 20к, 620000')).toEqual({ house: '20к' });
      expect(postcode('Репина 20к, 620000')).toBe('620000');
    });

    it('takes only the first six-digit number', () => {
      expect(postcode('620000, 620014 Екатеринбург')).toBe('620000');
    });

    it('takes five digits opening the string before a word as the postcode (Ukraine), never as a house', () => {
      expect(postcode('01033, м. Київ, вул. Саксаганського 75')).toBe('01033');
      expect(parts('01033, м. Київ, вул. Саксаганського 75')).toEqual({ house: '75' });
      expect(postcode('01033 місто Київ вулиця Саксаганського 97б')).toBe('01033');
      // elsewhere five digits stay what they were
      expect(postcode('Ленина 12345')).toBe('');
      expect(postcode('12345 67')).toBe('');
      // a letter glued to the number is its own (`11111д`), not a word after a postcode
      expect(postcode('11111д')).toBe('');
    });
  });

  describe('a Latin look-alike glued to the number is its Cyrillic letter: 45a, 40c4, 1B, 4-a, лит A', () => {
    it.each<Case>([
      // a keyword's letter after a space, before its number, and a transliterated letter where none looks alike
      ['Заводская 15 k2', { house: '15', case: '2' }],
      ['8 Марта 6А c3', { house: '6а', build: '3' }],
      ['Фрунзе 67v', { house: '67в' }],
      ['Комсомольская 6d', { house: '6д' }],
      ['45a', { house: '45а' }],
      ['д 1B', { house: '1в' }],
      ['40c4', { house: '40', build: '4' }],
      ['12k1', { house: '12', case: '1' }],
      ['Ленина 5a кв 3', { house: '5а', flat: '3' }],
      // after a hyphen, s for с, and the литера's letter after its word
      ['Малышева, 4-a', { house: '4-а' }],
      ['Малышева 4 - a', { house: '4-а' }],
      // but no keyword's letter nor an ordinal's suffix after a hyphen (`40-k`, `5-y`)
      ['Малышева 40-k', { house: '40-k' }],
      ['Маневровая 12s1', { house: '12', build: '1' }],
      ['д 5 "x"', { house: '5х' }],
      ['Троицкая 1 лит A', { house: '1', liter: 'а' }],
      ['Зверева 31 литер. B', { house: '31', liter: 'в' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('an initial after a name is no корпус or строение', () => {
    it.each<Case>([
      ['ул. Либкнехта К., 20', { house: '20' }],
      ['Цеткин К. 14', { house: '14' }],
      ['ул. Разина С., 36', { house: '36' }],
      // after a house number they are
      ['Малышева 5 к. 2', { house: '5', case: '2' }],
    ])('%s', (query, want) => expect(parts(query)).toEqual(want));
  });

  describe('numbers that are never a house', () => {
    it('ignores an unbroken phone number (7+ digits)', () => {
      expect(parts('89123456789')).toEqual({});
      expect(parts('1234567')).toEqual({});
      expect(parts('д 1234567')).toEqual({});
      expect(parts('Ленина 5, тел 89123456789')).toEqual({ house: '5' });
      expect(parts('Ленина 5, тел. +7 912 345-67-89')).toEqual({ house: '5' });
      expect(postcode('тел 89123456789')).toBe('');
    });

    // phones written in groups: 3+ numbers joined by spaces, hyphens or brackets with 10+ digits, or numbers after «тел»
    it.each<Case>([
      ['+7 (912) 345-67-89', {}],
      ['Ленина 5 тел 8-912-345-67-89', { house: '5' }],
      ['Ленина 5 тел. 8 912 3456789', { house: '5' }],
      // the house's number before a phone with no word between: a phone has 11 digits at most, 11 after its 7 or 8
      ['Малышева д 5 +7 912 345-67-89', { house: '5' }],
      ['Малышева 5 8 912 345 67 89', { house: '5' }],
      ['Малышева 12 912 345-67-89', { house: '12' }],
    ])('%s: a grouped phone is never a house', (query, want) => expect(parts(query)).toEqual(want));

    it('ignores the code after «домофон» or «код»', () => {
      expect(parts('Ленина 5, домофон 12')).toEqual({ house: '5' });
      expect(parts('ул Бармина, строение 1а, домофон 12')).toEqual({ build: '1а' });
      expect(parts('код 45, Ленина 5 кв 3')).toEqual({ house: '5', flat: '3' });
    });

    it('never takes an ordinal for a house: 7-й, 2-я, 22-го', () => {
      expect(parts('7-й')).toEqual({});
      expect(parts('ул 7-я Линия')).toEqual({});
      expect(parts('ул 7-я Линия 5')).toEqual({ house: '5' });
      expect(parts('ул 22-го Партсъезда 10')).toEqual({ house: '10' });
      expect(parts('мкр 5-й, д 12')).toEqual({ house: '12' });
      expect(parts('7й 5')).toEqual({ house: '5' });
    });

    it('leaves a number that begins a name to the name when a house number follows', () => {
      expect(parts('ул 8 Марта 12')).toEqual({ house: '12' });
      expect(parts('ул 10 лет Октября 5')).toEqual({ house: '5' });
    });

    it('leaves the number of a microdistrict to its name', () => {
      expect(parts('мкр 6, д 12')).toEqual({ house: '12' });
      expect(parts('6 мкр 12')).toEqual({ house: '12' });
    });
  });

  describe('robustness', () => {
    it('returns no parts for empty or blank input', () => {
      expect(parts('')).toEqual({});
      expect(parts('   ,,, ;; ')).toEqual({});
      expect(postcode('')).toBe('');
    });

    it('reads the same parts in any letter case', () => {
      for (const q of ['д 5 корп 2 кв 7', 'ул Мира 10 стр 3 оф 12', '108811, двлд. 4, ЭТ 8 БЛОК Г']) {
        expect(parts(q.toUpperCase())).toEqual(parts(q.toLowerCase()));
      }
    });

    it('reads parts written with ё like parts written with е', () => {
      expect(parts('д 5, подъёзд 2')).toEqual(parts('д 5, подъезд 2'));
    });

    it('decodes HTML entities before parsing', () => {
      expect(parts('д&#46; 5 кв&nbsp;7')).toEqual({ house: '5', flat: '7' });
    });
  });
});
