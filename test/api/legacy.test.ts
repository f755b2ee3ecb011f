import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arraySchemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

const ADDR = encodeURIComponent('г Байконур, ул Гагарина, д. 5');

describe('GET /legacy/searchAddressDetail', () => {
  it('answers an array of one flat record with string values, c_json_kvant and numeric c_coordinate', async () => {
    const reply = await api.get(`/legacy/searchAddressDetail?addr=${ADDR}&country=RU`);
    expect(reply.status).toBe(200);
    expect(arraySchemaErrors('LegacySearchAddressDetailRecord', reply.body)).toBe('');
    expect(reply.body).toHaveLength(1);
    const [record] = reply.body;
    expect(record.c_address_original).toBe('г Байконур, ул Гагарина, д. 5');
    expect(record.c_zipcode).toBe('468325');
    expect(record.c_houseguid).toBe('4abf7720-fa42-482c-a2ec-cd564d9abc96');
    expect(record.c_json_kvant).toEqual({ house: '5' });
    expect(record.c_house_str).toBe('дом 5');
    expect(record.c_status_error).toMatch(/^\d{3}03\d$/);
    expect(record.c_aolevel).toBe('8');
    expect(typeof record.c_coordinate.c_lat).toBe('number');
  });

  it('refuses a missing addr with 400 code 3 naming it', async () => {
    const reply = await api.get('/legacy/searchAddressDetail?country=RU');
    expect(reply.body).toEqual({ code: 3, message: 'addr: значение не может быть пустым.', details: [] });
  });
});

describe('GET /legacy/searchAddressDetailDHL and its alias searchAddressDetailVariant', () => {
  it('adds the FIAS codes of the levels', async () => {
    for (const path of ['/legacy/searchAddressDetailDHL', '/legacy/searchAddressDetailVariant']) {
      const reply = await api.get(`${path}?addr=${ADDR}`);
      expect(reply.status, path).toBe(200);
      expect(arraySchemaErrors('LegacySearchAddressDetailVariantRecord', reply.body)).toBe('');
      expect(reply.body[0].c_street_fias).toBe('8bbdbc9c-4435-4c82-8989-0b84d8480866');
      expect(reply.body[0].c_region_fias).toBe('63ed1a35-4be6-4564-a1ec-0c51f7383314');
    }
  });

  it('writes a microdistrict as the street, and the city\'s KLADR and FIAS codes for a street that has none', async () => {
    const mkr = await api.get(`/legacy/searchAddressDetailDHL?addr=${encodeURIComponent('г Байконур, 6-й мкр, д 7б, кв 1')}&country=RU`);
    expect(mkr.body[0]).toMatchObject({ c_street_name: '6-й', c_street_abbr: 'мкр' });
    expect(mkr.body[0].c_street_fias).toBe(mkr.body[0].c_aoguid);
    // an OSM street of Екатеринбург: no KLADR or FIAS code of its own, the city's are the most precise
    const osm = await api.get(`/legacy/searchAddressDetail?addr=${encodeURIComponent('620078, Екатеринбург, ул. Малышева, д. 5, кв 12')}&country=RU`);
    expect(osm.body[0]).toMatchObject({ c_kladr: '6600000100000', c_aoguid: '2763c110-cb8b-416a-9dac-ad28a55b4402' });
  });
});

describe('GET /legacy/checkAddress', () => {
  it('answers the short record with c_kvant', async () => {
    const reply = await api.get(`/legacy/checkAddress?addr=${ADDR}`);
    expect(reply.status).toBe(200);
    expect(arraySchemaErrors('LegacyCheckAddressRecord', reply.body)).toBe('');
    expect(reply.body[0].c_kvant).toBe('дом 5');
    expect(reply.body[0].c_index_out).toBe('468325');
    expect(reply.body[0].c_addr_in).toBe('г Байконур, ул Гагарина, д. 5');
  });
});

describe('GET /legacy/selectAddress', () => {
  it('answers [] below 3 letters', async () => {
    const reply = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('ба')}&country=RU`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([]);
  });

  it('answers mixed-case hint records, at most countreturnrec', async () => {
    const reply = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('ленина')}&country=RU&countreturnrec=2`);
    expect(reply.status).toBe(200);
    expect(arraySchemaErrors('LegacySelectAddressRecord', reply.body)).toBe('');
    expect(reply.body).toHaveLength(2);
    expect(reply.body[0]).toHaveProperty('c_RegionName');
  });

  it('says a hint\'s house is found whichever registry has it (OsmAnd\'s houses have no codes)', async () => {
    const reply = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('альметьевск ленина 5')}&country=RU&countreturnrec=5`);
    const houses = reply.body.filter((r: { c_house: string }) => r.c_house !== '');
    expect(houses.length).toBeGreaterThan(0);
    for (const r of houses) expect(r.c_HouseStatus).toBe('Дом найден');
    const street = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('альметьевск ленина')}&country=RU&countreturnrec=1`);
    expect(street.body[0].c_HouseStatus).toBe('Номер дома не указан');
  });

  it('writes the unit typed in c_flat whatever the registry calls it (кв 1 typed, помещение 1 found)', async () => {
    const reply = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('байконур мкр 6 7б кв 1')}&country=RU&countreturnrec=1`);
    expect(reply.body[0].c_fullname).toMatch(/, дом 7б, помещение 1$/);
    expect(reply.body[0]).toMatchObject({ c_flat: '1', c_StreetName: '6-й', c_StreetType: 'мкр' });
  });

  it('writes the building in c_house: дом and its корпус, as c_fullname does', async () => {
    const reply = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('екатеринбург хрустальногорская 35 к4')}&country=RU&countreturnrec=1`);
    expect(reply.body[0].c_fullname).toMatch(/, дом 35, корпус 4$/);
    expect(reply.body[0].c_house).toBe('дом 35, корпус 4');
    const plain = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('байконур гагарина 5')}&country=RU&countreturnrec=1`);
    expect(plain.body[0].c_house).toBe('дом 5');
  });

  it('lists a place written alike at two levels once, as POST /suggest/address does (Київ: region and city)', async () => {
    const reply = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('київ')}&country=UA&countreturnrec=5`);
    const names: string[] = reply.body.map((r: { c_fullname: string }) => r.c_fullname);
    expect(names[0]).toBe('м Київ');
    expect(names.filter((n) => n === 'м Київ')).toHaveLength(1);
    // the one entry is the city, with the region above it
    expect(reply.body[0]).toMatchObject({ c_CityName: 'Київ', c_RegionName: 'Київ' });
  });

  it('takes a countreturnrec over 20 as 20, however many digits it has', async () => {
    for (const count of ['21', '10000', '99999999999999999999']) {
      const reply = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('ленина')}&country=RU&countreturnrec=${count}`);
      expect(reply.status, count).toBe(200);
      expect(reply.body.length, count).toBe(20);
    }
  });

  it('refuses a non-numeric countreturnrec and a repeated parameter', async () => {
    const count = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('Байконур')}&countreturnrec=many`);
    expect(count.body).toEqual({ code: 3, message: 'countreturnrec: ожидается целое число.', details: [] });
    const repeated = await api.get(`/legacy/selectAddress?letters=a&letters=b`);
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe('letters: ожидается строка.');
  });
});
