import { describe, expect, it } from 'vitest';
import { buildAddressRecord, normalizeTimezone } from '../../../../engine/records/address-record.js';
import { resolutionOfFound } from '../../../../engine/records/resolution.js';
import { fixtureDictionary, resolution } from '../../../helpers/fixture-dictionary.js';
import type { Resolution } from '../../../../engine/types.js';

const dictionary = fixtureDictionary();
const EMPTY_LEVEL = { fullName: '', name: '', type: '', codes: { fias: '', ga: '', osm: '', gar: '', kladr: '' } };

describe('buildAddressRecord(resolution, dictionary, {method: "clean"})', () => {
  const exactHouse = resolution({
    levels: { region: 0, street: 1 }, house: 0, apartment: 0, parts: { house: '1', flat: '5' }, postcodeIn: '109012',
    quality: { level: 8, house: 3, geo: 0 },
  });
  const metroCalls: [number, number][] = [];
  const record = buildAddressRecord(exactHouse, dictionary, {
    method: 'clean',
    original: 'Москва, Красная пл, 1, кв 5',
    nearestMetro: (lat, lon) => {
      metroCalls.push([lat, lon]);
      return [
        { name: 'Площадь Революции', line: 'Арбатско-Покровская', city: 'Москва', distance: 301.6 },
        { name: 'Охотный ряд', line: 'Сокольническая', city: 'Москва', distance: 420 },
        { name: 'Театральная', line: 'Замоскворецкая', city: 'Москва', distance: 480 },
        { name: 'Китай-город', line: 'Калужско-Рижская', city: 'Москва', distance: 900 },
      ];
    },
  });

  it('joins the level fullNames into address and adds the house part to addressFull', () => {
    expect(record.address).toBe('г Москва, пл Красная');
    expect(record.addressFull).toBe('г Москва, пл Красная, дом 1, квартира 5');
  });

  it('returns every level as an object, empty ones with empty strings and empty codes', () => {
    expect(record.area).toEqual(EMPTY_LEVEL);
    expect(record.municipal).toEqual(EMPTY_LEVEL);
    expect(record.city).toEqual(EMPTY_LEVEL);
  });

  it('lower-cases the FIAS GUID and upper-cases the OSM id', () => {
    expect(record.region.codes).toEqual({ fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', ga: 'RU0770000000000000000000000', osm: 'R102269', gar: '1405113', kladr: '7700000000000' });
  });

  it('takes the postcode and coordinates of the house and sets quality.geo to 8', () => {
    expect(record.postcode).toBe('109012');
    expect(record.coordinates).toEqual({ latitude: 55.7536, longitude: 37.6211 });
    expect(record.quality).toEqual({ unique: 0, actuality: 0, undefined: 0, level: 8, house: 3, geo: 8 });
  });

  it('fills apartmentCodes and additional from the registry house and apartment', () => {
    expect(record.houseDetails.codes?.fias).toBe('5d5a3b9c-1a2b-4c3d-8e9f-0a1b2c3d4e5f');
    expect(record.houseDetails.apartmentCodes?.fias).toBe('11111111-2222-4333-8444-555555555555');
    expect(record.houseDetails.additional).toEqual({ houseIsMultiFlat: true, houseFlatCount: '12', houseCadnum: '77:01:0001011:1001', apartmentCadnum: '77:01:0001011:2005' });
  });

  it('asks for metro at the record coordinates and keeps at most 3 stations with whole meters', () => {
    expect(metroCalls).toEqual([[55.7536, 37.6211]]);
    expect(record.metro).toHaveLength(3);
    expect(record.metro?.[0]).toEqual({ name: 'Площадь Революции', line: 'Арбатско-Покровская', city: 'Москва', distance: 302 });
  });

  it('is valid, keeps original, postcodeIn and timezone, and lists members in the interface order', () => {
    expect(record.valid).toBe(true);
    expect(record.original).toBe('Москва, Красная пл, 1, кв 5');
    expect(record.postcodeIn).toBe('109012');
    expect(record.timezone).toBe('UTC+3');
    expect(Object.keys(record)).toEqual([
      'original', 'address', 'addressFull', 'postcodeIn', 'postcode', 'region', 'area', 'municipal', 'city', 'cityArea',
      'settlement', 'planStructure', 'street', 'houseDetails', 'coordinates', 'country', 'valid', 'quality', 'timezone',
      'undefinedParts', 'metro',
    ]);
    expect(record.country).toEqual({ name: 'Россия', alpha2: 'RU', alpha3: 'RUS', numeric: 643 });
  });
});

describe('buildAddressRecord placement of the type', () => {
  it('puts обл and ш after the name, г before it', () => {
    const record = buildAddressRecord(resolution({ levels: { region: 2, city: 3, street: 4 }, house: 1, quality: { level: 8, house: 3 } }), dictionary, { method: 'clean', original: '' });
    expect(record.address).toBe('Кировская обл, г Слободской, Варшавское ш');
    expect(record.addressFull).toBe('Кировская обл, г Слободской, Варшавское ш, дом 10, строение 12');
  });

  it('puts the municipal level after the area and before the city, м.р-н after its name', () => {
    const levels = { region: 2, municipal: 0, city: 3, street: 4 };
    const record = buildAddressRecord(resolution({ levels, house: 1, quality: { level: 8, house: 3 } }), dictionary, { method: 'clean', original: '' });
    expect(record.municipal).toEqual({
      fullName: 'Слободской м.р-н', name: 'Слободской', type: 'м.р-н', codes: { fias: '2b8e5a0c-7f3d-4e1a-9c6b-3d2f1e0a9b8c', ga: '', osm: '', gar: '95234567', kladr: '' },
    });
    expect(record.address).toBe('Кировская обл, Слободской м.р-н, г Слободской, Варшавское ш');
    expect(record.addressFull).toBe('Кировская обл, Слободской м.р-н, г Слободской, Варшавское ш, дом 10, строение 12');
    // idsearch shows no municipal level (null), so neither does its address
    const idsearch = buildAddressRecord(resolution({ levels }), dictionary, { method: 'idsearch', original: '' });
    expect(idsearch.municipal).toBeNull();
    expect(idsearch.address).toBe('Кировская обл, г Слободской, Варшавское ш');
  });

  it('writes a проезд after its name', () => {
    const record = buildAddressRecord(resolution({ levels: { region: 0, street: 5 } }), dictionary, { method: 'clean', original: '' });
    expect(record.street.fullName).toBe('2-й Варшавский проезд');
  });

  it('falls back to the deepest level with coordinates when the house has none, and lends no city\'s postcode to its house', () => {
    const record = buildAddressRecord(resolution({ levels: { region: 2, city: 3, street: 4 }, house: 1, quality: { level: 8, house: 3, geo: 8 } }), dictionary, { method: 'clean', original: '' });
    // a city's postcode is its main post office's, wrong for most of its houses (the builder lends a small town's
    // to its streets: dictionaries/merge/top-down.ts)
    expect(record.postcode).toBe('');
    expect(record.coordinates).toEqual({ latitude: 58.6, longitude: 49.65 });
    expect(record.quality?.geo).toBe(1);
    expect(record.houseDetails.codes?.osm).toBe('W25056568');
  });
});

describe('buildAddressRecord postcode', () => {
  it('is the answer\'s own when the answer is a place, a region\'s included', () => {
    const city = buildAddressRecord(resolution({ levels: { region: 2, city: 3 }, quality: { level: 3 } }), dictionary, { method: 'clean', original: '' });
    expect(city.postcode).toBe('613150');
    const moscow = buildAddressRecord(resolution({ levels: { region: 0 }, quality: { level: 1 } }), dictionary, { method: 'clean', original: '' });
    expect(moscow.postcode).toBe('101000');
  });

  it('is never a region\'s for a street without one', () => {
    const street = buildAddressRecord(resolution({ levels: { region: 0, street: 5 }, quality: { level: 7 } }), dictionary, { method: 'clean', original: '' });
    expect(street.postcode).toBe('');
  });
});

describe('buildAddressRecord federal cities', () => {
  it('keeps Moscow as the region and empties city when the engine reports it at both levels', () => {
    const record = buildAddressRecord(resolution({ levels: { region: 0, city: 0 } }), dictionary, { method: 'clean', original: 'Москва' });
    expect(record.region.fullName).toBe('г Москва');
    expect(record.city).toEqual(EMPTY_LEVEL);
    expect(record.address).toBe('г Москва');
  });

  it('keeps a Ukrainian city of special status as region and city (docs/DECISIONS.md)', () => {
    const record = buildAddressRecord(resolution({ levels: { region: 6, city: 7 } }), dictionary, { method: 'clean', original: 'Київ' });
    // written once in the address (docs/DECISIONS.md), both levels kept
    expect(record.address).toBe('м Київ');
    expect(record.region.fullName).toBe('м Київ');
    expect(record.city.codes.osm).toBe('N26150422');
  });

  it('keeps a city whose name differs from its region', () => {
    const record = buildAddressRecord(resolution({ levels: { region: 2, city: 3 } }), dictionary, { method: 'clean', original: '' });
    expect(record.address).toBe('Кировская обл, г Слободской');
  });

  it('moves a federal city reported only as a city to the region', () => {
    const record = buildAddressRecord(resolution({ levels: { city: 0 } }), dictionary, { method: 'clean', original: 'Москва' });
    expect(record.region.name).toBe('Москва');
    expect(record.city.name).toBe('');
  });
});

describe('buildAddressRecord per method', () => {
  const base = resolution({ levels: { region: 0, street: 1 }, house: 0, quality: { level: 8, house: 3 } });

  it('omits original, postcodeIn, valid, quality, undefinedParts and metro from suggestion items', () => {
    const record = buildAddressRecord(base, dictionary, { method: 'suggest', original: 'моск' });
    for (const key of ['original', 'postcodeIn', 'valid', 'quality', 'undefinedParts', 'metro']) expect(record).not.toHaveProperty(key);
    expect(record.houseDetails.apartmentCodes).toBeNull();
    expect(record.houseDetails.additional).toBeNull();
  });

  it('keeps the record of a frozen hint beside it: the same record each time, frozen, equal to a fresh build', () => {
    // the engine hands out the same frozen Resolution whenever the same house or object is a hint (engine.ts `hint`)
    const freeze = (r: Resolution) => Object.freeze({ ...r, levels: Object.freeze({ ...r.levels }), parts: Object.freeze({ ...r.parts }) });
    for (const hint of [resolution({ levels: { region: 2, city: 3, street: 4 } }), base]) {
      const kept = freeze(hint);
      const first = buildAddressRecord(kept, dictionary, { method: 'suggest', original: 'варш' });
      const again = buildAddressRecord(kept, dictionary, { method: 'suggest', original: 'слоб варш' });
      expect(again).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first.houseDetails)).toBe(true);
      const fresh = buildAddressRecord(hint, dictionary, { method: 'suggest', original: 'варш' });
      expect(fresh).not.toBe(first);
      expect(Object.isFrozen(fresh)).toBe(false);
      expect(JSON.stringify(fresh)).toBe(JSON.stringify(first));
    }
    // another Resolution of the same street is another record; other methods build a record per call
    const place = freeze(resolution({ levels: { region: 2, city: 3, street: 4 } }));
    expect(buildAddressRecord(place, dictionary, { method: 'suggest', original: '' }).street.fullName).toBe('Варшавское ш');
    expect(buildAddressRecord(freeze(place), dictionary, { method: 'suggest', original: '' })).not.toBe(buildAddressRecord(place, dictionary, { method: 'suggest', original: '' }));
    expect(buildAddressRecord(place, dictionary, { method: 'clean', original: 'варш' })).not.toBe(buildAddressRecord(place, dictionary, { method: 'clean', original: 'варш' }));
  });

  it('sets municipal null and metro [] for geosearch, with an empty original', () => {
    const record = buildAddressRecord(base, dictionary, { method: 'geosearch', original: 'ignored', nearestMetro: () => { throw new Error('metro asked'); } });
    expect(record.municipal).toBeNull();
    expect(record.metro).toEqual([]);
    expect(record.original).toBe('');
  });

  it('sets municipal null and apartmentCodes/additional null for idsearch/center', () => {
    const record = buildAddressRecord(base, dictionary, { method: 'center', original: 'id' });
    expect(record.municipal).toBeNull();
    expect(record.houseDetails.apartmentCodes).toBeNull();
    expect(record.houseDetails.additional).toBeNull();
  });

  it('asks no metro when the address is located only to the region', () => {
    const record = buildAddressRecord(resolution({ levels: { region: 0 } }), dictionary, {
      method: 'clean', original: 'Москва', nearestMetro: () => [{ name: 'x', line: 'y', city: 'z', distance: 1 }],
    });
    expect(record.metro).toEqual([]);
  });
});

describe('buildAddressRecord when nothing matched', () => {
  const record = buildAddressRecord(resolution({ matched: false, undefinedParts: 'абракадабра 12', postcodeIn: '' }), dictionary, { method: 'clean', original: '  абракадабра   12 ' });

  it('answers empty levels, no address, zero coordinates and quality {0,0,2,0,0,0}', () => {
    expect(record.address).toBe('');
    expect(record.addressFull).toBe('');
    expect(record.region).toEqual(EMPTY_LEVEL);
    expect(record.coordinates).toEqual({ latitude: 0, longitude: 0 });
    expect(record.valid).toBe(false);
    expect(record.quality).toEqual({ unique: 0, actuality: 0, undefined: 2, level: 0, house: 0, geo: 0 });
    expect(record.undefinedParts).toBe('абракадабра 12');
  });

  it('falls back to the whitespace-collapsed input as undefinedParts', () => {
    const other = buildAddressRecord(resolution({ matched: false }), dictionary, { method: 'clean', original: '  абракадабра   12 ' });
    expect(other.undefinedParts).toBe('абракадабра 12');
  });
});

describe('buildAddressRecord validity', () => {
  it('is not valid when the match is not unique or leaves significant text', () => {
    expect(buildAddressRecord(resolution({ levels: { region: 0 }, quality: { unique: 2 } }), dictionary, { method: 'clean', original: '' }).valid).toBe(false);
    expect(buildAddressRecord(resolution({ levels: { region: 0 }, quality: { undefined: 2 } }), dictionary, { method: 'clean', original: '' }).valid).toBe(false);
    expect(buildAddressRecord(resolution({ levels: { region: 0 }, quality: { unique: 1, undefined: 1 } }), dictionary, { method: 'clean', original: '' }).valid).toBe(true);
  });
});

describe('resolutionOfFound(dictionary, found)', () => {
  it('builds a region-level record with quality {0,0,0,1,9,1} for a region id', () => {
    const found = dictionary.findById('FIAS', '0c5b2444-70a0-4932-980c-b4dc0d3f02b5');
    expect(found).toEqual({ kind: 'object', id: 0 });
    const record = buildAddressRecord(resolutionOfFound(dictionary, found!), dictionary, { method: 'idsearch', original: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5' });
    expect(record.address).toBe('г Москва');
    expect(record.addressFull).toBe('г Москва');
    expect(record.postcode).toBe('101000');
    expect(record.quality).toEqual({ unique: 0, actuality: 0, undefined: 0, level: 1, house: 9, geo: 1 });
    expect(record.municipal).toBeNull();
  });

  it('reaches the apartment: house parts from the registry, apartment codes filled', () => {
    const found = dictionary.findById('FIAS', '11111111-2222-4333-8444-555555555555');
    const record = buildAddressRecord(resolutionOfFound(dictionary, found!), dictionary, { method: 'idsearch', original: 'x' });
    expect(record.addressFull).toBe('г Москва, пл Красная, дом 1, квартира 5');
    expect(record.quality).toEqual({ unique: 0, actuality: 0, undefined: 0, level: 8, house: 3, geo: 8 });
    expect(record.houseDetails.apartmentCodes?.fias).toBe('11111111-2222-4333-8444-555555555555');
  });
});

describe('normalizeTimezone(text)', () => {
  it('writes offsets as UTC+N', () => {
    expect(normalizeTimezone('UTC+3')).toBe('UTC+3');
    expect(normalizeTimezone('+03:00')).toBe('UTC+3');
    expect(normalizeTimezone('UTC+05:30')).toBe('UTC+5:30');
    expect(normalizeTimezone('UTC-2')).toBe('UTC-2');
    expect(normalizeTimezone('Europe/Moscow')).toBe('');
  });
});
