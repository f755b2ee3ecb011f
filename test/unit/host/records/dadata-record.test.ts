/** dadataAddress(record): DaData's flat cleaner record from our AddressRecord, on records the real engine builds. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../host/engine/types.js';
import { DADATA_FIELDS, dadataAddress, levelTypeFull } from '../../../../host/records/dadata-record.js';
import type { AddressRecord } from '../../../../host/records/address-record.js';
import { standardizeAddress } from '../../../../host/routes/standardize.js';
import { realEngine } from '../../../api/helpers.js';

let engine: Engine;
beforeAll(async () => {
  engine = await realEngine();
});
const clean = (query: string): AddressRecord => standardizeAddress(engine, 'ru', engine.dictionary('ru')!, query).record;

describe('dadataAddress(record)', () => {
  it('has every DaData member, in DaData\'s order', () => {
    expect(Object.keys(dadataAddress(clean('г Байконур, ул Гагарина, д 5')))).toEqual([...DADATA_FIELDS]);
  });

  it('writes a found house with its flat as DaData does', () => {
    const record = clean('Байконур Гагарина 5 кв 7');
    const flat = dadataAddress(record);
    expect(flat).toMatchObject({
      source: 'Байконур Гагарина 5 кв 7',
      result: 'г Байконур, ул Гагарина, д 5, кв 7',
      postal_code: record.postcode,
      country: 'Россия', country_iso_code: 'RU',
      region_with_type: 'г Байконур', region_type: 'г', region_type_full: 'город', region: 'Байконур',
      city_with_type: 'г Байконур', city: 'Байконур',
      street_with_type: 'ул Гагарина', street_type: 'ул', street_type_full: 'улица', street: 'Гагарина',
      house_type: 'д', house_type_full: 'дом', house: '5', flat_type: 'кв', flat_type_full: 'квартира', flat: '7',
      house_fias_id: record.houseDetails.codes!.fias, fias_id: record.houseDetails.codes!.fias, fias_level: '8',
      qc: 0, qc_house: 2, qc_complete: 0, unparsed_parts: null,
    });
  });

  it('says nothing matched: result null, qc 2, every level null', () => {
    const flat = dadataAddress(clean('абракадабра кадабра'));
    expect(flat).toMatchObject({ result: null, qc: 2, qc_geo: 5, qc_complete: 9, fias_level: '-1', region_with_type: null, house: null, geo_lat: null });
  });

  it('writes корпус and строение together as block `1 стр 2`, and leftovers as qc 1', () => {
    const record = clean('Байконур Гагарина 5');
    const flat = dadataAddress({ ...record, houseDetails: { ...record.houseDetails, case: '1', build: '2' }, quality: { ...record.quality!, undefined: 1 }, undefinedParts: 'кот' });
    expect(flat).toMatchObject({ block_type: 'к', block_type_full: 'корпус', block: '1 стр 2', result: 'г Байконур, ул Гагарина, д 5 к 1 стр 2', qc: 1, unparsed_parts: 'кот' });
  });

  it('spells the full type of the types it knows, case and a final dot aside', () => {
    expect(levelTypeFull('обл')).toBe('область');
    expect(levelTypeFull('Респ')).toBe('республика');
    expect(levelTypeFull('респ.')).toBe('республика');
    expect(levelTypeFull('тупичок')).toBeNull();
  });
});
