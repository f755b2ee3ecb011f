import { describe, expect, it } from 'vitest';
import { buildAddressRecord, resolveObjects } from '../../../../engine/records/address-record.js';
import {
  checkAddressRecord, iqdqRecord, kladr19, searchAddressDetailRecord, searchAddressDetailVariantRecord, selectAddressRecord, statusError,
} from '../../../../engine/records/legacy-record.js';
import { fixtureDictionary, resolution } from '../../../helpers/fixture-dictionary.js';

const dictionary = fixtureDictionary();
const exact = resolution({ levels: { region: 0, street: 1 }, house: 0, parts: { house: '1', floor: '2' }, postcodeIn: '109012', quality: { level: 8, house: 3 } });
const record = buildAddressRecord(exact, dictionary, { method: 'clean', original: 'Красная пл 1 этаж 2' });
const objects = resolveObjects(exact, dictionary);

describe('searchAddressDetailRecord(record, objects)', () => {
  const flat = searchAddressDetailRecord(record, objects);

  it('carries the status as six digits and the house status', () => {
    expect(flat.c_status_error).toBe('000038');
    expect(flat.c_house_error).toBe('3');
    expect(flat.c_ischeck).toBe('1');
    expect(flat.c_aolevel).toBe('8');
  });

  it('has only the found house members in c_json_kvant and numbers in c_coordinate', () => {
    expect(flat.c_json_kvant).toEqual({ house: '1', floor: '2' });
    expect(flat.c_coordinate).toEqual({ c_lon: 37.6211, c_lat: 55.7536, c_level: 8 });
    expect(flat.c_house_str).toBe('дом 1, этаж 2');
  });

  it('takes KLADR, OKATO, OKTMO, IFNS and FIAS of the deepest level', () => {
    expect(flat.c_kladr).toBe('77000000000153200');
    expect(flat.c_kladr19).toBe('7700000000015320000');
    expect(flat.c_okato).toBe('45286555000');
    expect(flat.c_oktmo).toBe('45375000');
    expect(flat.c_gninmb).toBe('7710');
    expect(flat.c_aoguid).toBe('d7ae2f32-4d1c-45d3-9d2b-9a2b7f3e1f88');
    expect(flat.c_houseguid).toBe('5d5a3b9c-1a2b-4c3d-8e9f-0a1b2c3d4e5f');
    expect(flat.c_address_full).toBe('г Москва, пл Красная');
  });

  it('has string values except c_json_kvant and c_coordinate', () => {
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'c_json_kvant' || key === 'c_coordinate') continue;
      expect(typeof value, key).toBe('string');
    }
  });
});

describe('legacy variants', () => {
  it('adds the FIAS codes of the levels to the DHL variant', () => {
    const flat = searchAddressDetailVariantRecord(record, objects);
    expect(flat.c_region_fias).toBe('0c5b2444-70a0-4932-980c-b4dc0d3f02b5');
    expect(flat.c_street_fias).toBe('d7ae2f32-4d1c-45d3-9d2b-9a2b7f3e1f88');
  });

  it('adds GA code and country to the iqdq record', () => {
    const flat = iqdqRecord(record, objects);
    expect(flat.c_gaCode).toBe('RU0770000000000000000002733');
    expect(flat.c_country).toBe('Россия');
    expect(flat.c_country_iso_code).toBe('RU');
  });

  it('writes checkAddress with c_index_out, c_addr_out and c_kvant', () => {
    const flat = checkAddressRecord(record, objects);
    expect(flat.c_index_out).toBe('109012');
    expect(flat.c_addr_out).toBe('г Москва, пл Красная');
    expect(flat.c_kvant).toBe('дом 1, этаж 2');
    expect(flat.c_addr_in).toBe('Красная пл 1 этаж 2');
  });

  it('writes selectAddress with mixed-case keys, the house part in c_fullname and c_house as дом N', () => {
    const hint = selectAddressRecord(buildAddressRecord(exact, dictionary, { method: 'suggest', original: '' }));
    expect(hint.c_fullname).toBe('г Москва, пл Красная, дом 1, этаж 2');
    expect(hint.c_house).toBe('дом 1');
    expect(hint.c_RegionName).toBe('Москва');
    expect(hint.c_StreetType).toBe('пл');
  });
});

describe('statusError(record) and kladr19(code)', () => {
  it('formats unique actuality undefined 0 house geo', () => {
    const nothing = buildAddressRecord(resolution({ matched: false }), dictionary, { method: 'clean', original: 'x' });
    expect(statusError(nothing)).toBe('002000');
  });

  it('extends 13 and 17 digit codes to 19 digits', () => {
    expect(kladr19('7700000000000')).toBe('7700000000000000000');
    expect(kladr19('77000000000153200')).toBe('7700000000015320000');
    expect(kladr19('')).toBe('');
  });
});
