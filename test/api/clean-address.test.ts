import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_LEVEL, schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

describe('POST /api/v1/clean/address', () => {
  it('standardizes a Baikonur house to its street, house and postcode', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: 'г Байконур, ул Гагарина, д. 5', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    expect(reply.body.region.codes.fias).toBe('63ed1a35-4be6-4564-a1ec-0c51f7383314');
    expect(reply.body.street.codes.fias).toBe('8bbdbc9c-4435-4c82-8989-0b84d8480866');
    expect(reply.body.houseDetails.codes.fias).toBe('4abf7720-fa42-482c-a2ec-cd564d9abc96');
    expect(reply.body.houseDetails.house).toBe('5');
    expect(reply.body.postcode).toBe('468325');
    expect(reply.body.original).toBe('г Байконур, ул Гагарина, д. 5');
    expect(reply.body.addressFull).toBe(`${reply.body.address}, ${reply.body.houseDetails.fullName}`);
    expect(reply.body.quality.level).toBe(8);
    expect(reply.body.quality.house).toBe(3);
    expect(reply.body.valid).toBe(true);
    expect(reply.body.municipal).not.toBeNull();
    expect(reply.body.city).toEqual(EMPTY_LEVEL);
    expect(reply.body.country).toEqual({ name: 'Россия', alpha2: 'RU', alpha3: 'RUS', numeric: 643 });
  });

  it('is served under /v1 as well, with alpha-3 and numeric country codes in any case', async () => {
    for (const countryCode of ['rus', '643', 'ru']) {
      const reply = await api.post('/v1/clean/address', { query: 'г Байконур, ул Гагарина, д. 5', countryCode });
      expect(reply.status, countryCode).toBe(200);
      expect(reply.body.houseDetails.codes.fias).toBe('4abf7720-fa42-482c-a2ec-cd564d9abc96');
    }
  });

  it('returns metro stations for a Moscow street address: at most 3, nearest first, within 5 km', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: 'Москва, Ленинградский проспект', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    const distances = reply.body.metro.map((m: { distance: number }) => m.distance);
    expect(distances.length).toBeLessThanOrEqual(3);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    for (const d of distances) expect(Number.isInteger(d) && d <= 5000).toBe(true);
  });

  it('answers 200 with an empty, invalid record when nothing matches', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: '№№№ ### 0000000', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    expect(reply.body.valid).toBe(false);
    expect(reply.body.address).toBe('');
    expect(reply.body.quality.undefined).toBe(2);
    expect(reply.body.coordinates).toEqual({ latitude: 0, longitude: 0 });
  });

  it('answers exactly the empty-query error for a missing query', async () => {
    const reply = await api.post('/api/v1/clean/address', { countryCode: 'RU' });
    expect(reply.status).toBe(400);
    expect(reply.text).toBe('{"code":3,"message":"query: значение не может быть пустым.","details":[]}');
    const blank = await api.post('/api/v1/clean/address', { query: '  ', countryCode: 'RU' });
    expect(blank.body).toEqual({ code: 3, message: 'query: значение не может быть пустым.', details: [] });
  });

  it('refuses a wrong type, a query over 1000 characters and an unknown country code with 400 code 3', async () => {
    const wrongType = await api.post('/api/v1/clean/address', { query: 12, countryCode: 'RU' });
    expect(wrongType.body).toEqual({ code: 3, message: 'query: ожидается строка.', details: [] });
    const long = await api.post('/api/v1/clean/address', { query: 'а'.repeat(1001), countryCode: 'RU' });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('query: длина должна быть не больше 1000 символов.');
    const country = await api.post('/api/v1/clean/address', { query: 'Байконур', countryCode: 'Russia' });
    expect(country.status).toBe(400);
    expect(country.body.code).toBe(3);
    expect(country.body.message).toMatch(/^countryCode: /);
  });

  it('refuses a country without an installed dictionary with 400 code 9 naming it', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: 'Berlin', countryCode: 'DE' });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(9);
    expect(reply.body.message).toContain('DE');
    const missing = (['KZ', 'BY', 'UA'] as const).filter((code) => !api.app.services.engine.countries().includes(code.toLowerCase() as never));
    for (const code of missing) {
      const slot = await api.post('/api/v1/clean/address', { query: 'Алматы', countryCode: code });
      expect(slot.status).toBe(400);
      expect(slot.body.code).toBe(9);
      expect(slot.body.message).toContain(code);
    }
  });

  it('reads the country name and the municipal division words as noise: the same house, nothing left over', async () => {
    const plain = await api.post('/api/v1/clean/address', { query: 'г. Екатеринбург, ул. Малышева, д. 5', countryCode: 'RU' });
    expect(plain.body.quality.undefined).toBe(0);
    for (const query of [
      'Россия, г. Екатеринбург, ул. Малышева, д. 5',
      'Екатеринбург, Малышева 5, Российская Федерация',
      'Росія, Екатеринбург, Малышева 5',
      'Российская Федерация, Свердловская обл., г.о. город Екатеринбург, г. Екатеринбург, ул. Малышева, д. 5',
    ]) {
      const reply = await api.post('/api/v1/clean/address', { query, countryCode: 'RU' });
      expect(reply.status, query).toBe(200);
      expect(reply.body.houseDetails.codes.osm, query).toBe(plain.body.houseDetails.codes.osm);
      expect(reply.body.undefinedParts, query).toBe('');
      expect(reply.body.quality.undefined, query).toBe(0);
    }
    // a street named with the country's word keeps it
    const heroes = await api.post('/api/v1/clean/address', { query: 'екб ул. героев россии дом 35', countryCode: 'RU' });
    expect(heroes.body.street.name).toBe('Героев России');
  });

  it('answers a postcode alone with the place it names, its postcode as typed in postcodeIn', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: '468320', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    expect(reply.body.region.codes.fias).toBe('63ed1a35-4be6-4564-a1ec-0c51f7383314');
    expect(reply.body.street.name).toBe('');
    expect(reply.body.postcodeIn).toBe('468320');
    expect(reply.body.quality.level).toBe(1);
    // a postcode no object has finds nothing
    const unknown = await api.post('/api/v1/clean/address', { query: '999999', countryCode: 'RU' });
    expect(unknown.body.address).toBe('');
    expect(unknown.body.quality.level).toBe(0);
  });

  it('answers the city typed, not a street of the same name in another city, when the city has not the street', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: 'Казань, ул Малышева 5', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    expect(reply.body.city.name).toBe('Казань');
    expect(reply.body.street.name).toBe('');
    expect(reply.body.houseDetails.codes.fias).toBe('');
    expect(reply.body.undefinedParts).toBe('Малышева');
    expect(reply.body.quality.undefined).toBe(2);
    expect(reply.body.valid).toBe(false);
    // with its own city the same street and house are found
    const own = await api.post('/api/v1/clean/address', { query: 'Екатеринбург, ул Малышева 5', countryCode: 'RU' });
    expect(own.body.street.name).toBe('Малышева');
    expect(own.body.quality.undefined).toBe(0);
  });

  it('keeps in sight what it does not use: a land plot typed beside the house, five digits that are no postcode here', async () => {
    const plot = await api.post('/api/v1/clean/address', { query: 'Екатеринбург ул Малышева 5, участок 7', countryCode: 'RU' });
    expect(plot.body.houseDetails).toMatchObject({ house: '5', stead: '7' });
    expect(plot.body.houseDetails.fullName).toBe('дом 5, участок 7');
    const five = await api.post('/api/v1/clean/address', { query: '12345 Екатеринбург Малышева 5', countryCode: 'RU' });
    expect(five.body.street.name).toBe('Малышева');
    expect(five.body.postcodeIn).toBe('');
    expect(five.body.undefinedParts).toBe('12345');
    expect(five.body.quality.undefined).toBe(1);
    expect(five.body.valid).toBe(true);
  });

  it('finds the house of a литера or fraction the registry lacks in part, and a corpus the registry writes as a fraction', async () => {
    const clean = async (query: string) => (await api.post('/api/v1/clean/address', { query, countryCode: 'RU' })).body;
    const five = await clean('Екатеринбург Малышева 5');
    expect(five.quality.house).toBe(3);
    // a литера the street's house 5 has not: house 5, found in part, the letter kept as typed
    const liter = await clean('Екатеринбург Малышева 5, литер Б');
    expect(liter.quality.house).toBe(4);
    expect(liter.houseDetails.codes).toEqual(five.houseDetails.codes);
    expect(liter.houseDetails.fullName).toBe('дом 5, литера б');
    // the registry's own литера typed after the number's letter (11б лит Л): the exact house, nothing left over
    const own = await clean('Екатеринбург Космонавтов 11Б лит Л');
    expect(own.quality.house).toBe(3);
    expect(own.undefinedParts).toBe('');
    expect(own.houseDetails.fullName).toBe('дом 11б, литера л');
    // корпус 2 typed where the registry writes 14/2: that house, not 14 к1
    const corpus = await clean('Екатеринбург Кунарская 14 к2');
    expect(corpus.quality.house).toBe(3);
    expect(corpus.houseDetails.fullName).toBe('дом 14/2');
    // of OSM's `12Б` and `12Б лит П` (one key, 12б), the one of the литера typed, or of none
    expect((await clean('г. Екатеринбург, ул. Артинская, д. 12Б')).houseDetails.fullName).toBe('дом 12б');
    expect((await clean('г. Екатеринбург, ул. Артинская, д. 12Б лит П')).houseDetails.fullName).toBe('дом 12б, литера п');
    // a литера the house found has not: found in part, the литера kept
    const literMissing = await clean('г. Екатеринбург, ул. Белинского, д. 163в лит. Б');
    expect(literMissing.quality.house).toBe(4);
    expect(literMissing.houseDetails.fullName).toBe('дом 163в, литера б');
    // a house letter that is also a keyword, then a space and the flat: the house with that letter where the street has it
    const lettered = await clean('Екатеринбург, Гагарина 28д 71');
    expect(lettered.houseDetails.fullName).toBe('дом 28д, квартира 71');
    expect(lettered.quality.house).toBe(3);
    // a letter glued to the корпус where the registry has the корпус and that литера (Санкт-Петербург's 12 к4 литБ)
    const spb = await clean('Санкт-Петербург, ул. Шахматова, 12к4Б');
    expect(spb.quality.house).toBe(3);
    expect(spb.houseDetails.fullName).toBe('дом 12, корпус 4, литера б');
    // and a fraction typed where the registry has the number's строение (GAR's «7 стр 2»): that house, not 7 стр 1
    const building = await clean('Байконур, ул. Авиационная, д. 7/2');
    expect(building.quality.house).toBe(3);
    expect(building.houseDetails.fullName).toBe('дом 7, строение 2');
    // a fraction the street lacks: house 5 in part, the number kept as typed
    const fraction = await clean('екб Малышева 5/2 кв 8');
    expect(fraction.quality.house).toBe(4);
    expect(fraction.houseDetails.codes).toEqual(five.houseDetails.codes);
    expect(fraction.houseDetails.fullName).toBe('дом 5/2, квартира 8');
  });

  it('reads a number after a hyphen as the corpus where the street has it and no house of the number alone', async () => {
    const clean = async (query: string) => (await api.post('/api/v1/clean/address', { query, countryCode: 'RU' })).body;
    const corpus = await clean('Москва, Ленинградский пр-т 37-9');
    expect(corpus.houseDetails.fullName).toBe('дом 37, корпус 9');
    expect(corpus.quality.house).toBe(3);
    // the plain house exists: the number after the hyphen is its flat
    expect((await clean('Екатеринбург, Малышева 5-10')).houseDetails.fullName).toBe('дом 5, квартира 10');
    // a number with none of its corpora typed: the first corpus in natural order, not the registry's first
    expect((await clean('Москва, Ленинградский пр-т 37')).houseDetails.case).toBe('9');
    // an exact house spelled as the registry has it: the typed литера is its letter, not also a литера
    expect((await clean('Екатеринбург, ул. 8 Марта, д. 179 лит. Б')).houseDetails.fullName).toBe('дом 179б');
  });

  it('keeps the house before a phone typed in groups, and names a region by half of its double name', async () => {
    const phone = await api.post('/api/v1/clean/address', { query: 'Екатеринбург Малышева д 5 +7 912 345-67-89', countryCode: 'RU' });
    expect(phone.body.houseDetails.fullName).toBe('дом 5');
    expect(phone.body.quality).toMatchObject({ level: 8, house: 3, undefined: 1 });
    // Ukraine's postcodes have five digits: the one typed is postcodeIn there
    const kyiv = await api.post('/api/v1/clean/address', { query: '01033, Київ, вулиця Саксаганського 4', countryCode: 'UA' });
    expect(kyiv.body.postcodeIn).toBe('01033');
    expect(kyiv.body.undefinedParts).toBe('');
    // and between commas anywhere, when the dictionary has it: not the house
    for (const query of ['м. Київ, 01033, вул. Саксаганського, 1', 'вул. Саксаганського, 1, м. Київ, 01033']) {
      const body = (await api.post('/api/v1/clean/address', { query, countryCode: 'UA' })).body;
      expect(body.postcodeIn, query).toBe('01033');
      expect(body.houseDetails.house, query).toBe('1');
      expect(body.undefinedParts, query).toBe('');
    }
    for (const query of ['Кемеровская обл', 'Кузбасс']) {
      const region = await api.post('/api/v1/clean/address', { query, countryCode: 'RU' });
      expect(region.body.region.fullName, query).toBe('Кемеровская область - Кузбасс');
      expect(region.body.undefinedParts, query).toBe('');
    }
  });

  it('reads the Russian names of Ukraine\'s cities and oblasts (data/aliases.tsv), former ones as such', async () => {
    const ua = (query: string) => api.post('/api/v1/clean/address', { query, countryCode: 'UA' }).then((r) => r.body);
    const rivne = await ua('г. Ровно');
    expect(rivne.city.fullName).toBe('м Рівне');
    expect(rivne.quality.actuality).toBe(0);
    const makariv = await ua('Киевская обл., г. Макаров');
    expect(makariv.region.fullName).toBe('Київська обл');
    expect(makariv.settlement.fullName).toBe('сел Макарів');
    expect((await ua('Кривой Рог, Днепропетровская обл.')).city.fullName).toBe('м Кривий Ріг');
    const kirovograd = await ua('Кировоград');
    expect(kirovograd.city.fullName).toBe('м Кропивницький');
    expect(kirovograd.quality.actuality).toBe(1);
  });

  it('reads a street\'s type word beside a name as saying it is no place (`г. Алматы, ул. Абая 10`: no village Абай)', async () => {
    const almaty = await api.post('/api/v1/clean/address', { query: 'г. Алматы, ул. Абая 10', countryCode: 'KZ' }).then((r) => r.body);
    expect(almaty.region.fullName).toBe('г Алматы');
    expect(almaty.settlement.fullName).toBe('');
    expect(almaty.undefinedParts).toMatch(/Абая/);
    // Kazakh type words after the name and the oblasts' short names
    const kz = (query: string) => api.post('/api/v1/clean/address', { query, countryCode: 'KZ' }).then((r) => r.body);
    expect((await kz('Караганды қаласы')).quality.undefined).toBe(0);
    expect((await kz('ЗКО, Уральск')).region.fullName).toBe('Западно-Казахстанская обл');
    expect((await kz('ВКО, Усть-Каменогорск')).city.name).toBe('Усть-Каменогорск');
    // Belarus's regional seats are cities (GeoNames' round postcode): a street the extract lacks leaves them the answer
    const gomel = await api.post('/api/v1/clean/address', { query: 'г. Гомель, ул. Советская 10', countryCode: 'BY' }).then((r) => r.body);
    expect(gomel.city.fullName).toBe('г Гомель');
    expect(gomel.street.fullName).toBe('');
  });

  it('answers an input nothing matched with the cleaned input as its leftover', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: '  абракадабра ,,,   кадабра\t\u0000 ', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(reply.body.address).toBe('');
    expect(reply.body.valid).toBe(false);
    expect(reply.body.quality).toEqual({ unique: 0, actuality: 0, undefined: 2, level: 0, house: 0, geo: 0 });
    expect(reply.body.undefinedParts).toBe('абракадабра кадабра');
    // punctuation alone leaves nothing
    for (const query of ['!!!', '!!! ###']) {
      expect((await api.post('/api/v1/clean/address', { query, countryCode: 'RU' })).body.undefinedParts, query).toBe('');
    }
  });

  it('reads a number after the house and a space as its corpus when the street has that corpus and not the bare number', async () => {
    const reply = await api.post('/api/v1/clean/address', { query: 'екатеринбург хрустальногорская 35 4, кв 5', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(reply.body.houseDetails.house).toBe('35');
    expect(reply.body.houseDetails.case).toBe('4');
    expect(reply.body.houseDetails.flat).toBe('5');
    expect(reply.body.undefinedParts).toBe('');
  });

  it('answers a regional centre before a village of its name, and a capital by its former name', async () => {
    expect(api.app.services.engine.countries()).toContain('kz');
    const aktobe = await api.post('/api/v1/clean/address', { query: 'Актобе', countryCode: 'KZ' });
    expect(aktobe.body.region.name).toBe('Актюбинская');
    expect(aktobe.body.city.name).toBe('Актобе');
    for (const [query, name] of [['Нур-Султан', 'Астана'], ['Алма-Ата', 'Алматы'], ['Чимкент', 'Шымкент']]) {
      const reply = await api.post('/api/v1/clean/address', { query, countryCode: 'KZ' });
      expect(reply.body.region.name, query).toBe(name);
      expect(reply.body.undefinedParts, query).toBe('');
      // a former name: the answer says an obsolete name was used
      expect(reply.body.quality.actuality, query).toBe(1);
    }
    const current = await api.post('/api/v1/clean/address', { query: 'Шымкент', countryCode: 'KZ' });
    expect(current.body.quality.actuality).toBe(0);
  });

  it('says an obsolete name was used for a city\'s former name, and not for its nickname', async () => {
    const former = await api.post('/api/v1/clean/address', { query: 'Свердловск, Малышева 5', countryCode: 'RU' });
    expect(former.body.city.name).toBe('Екатеринбург');
    expect(former.body.quality).toMatchObject({ actuality: 1, level: 8, house: 3 });
    const nickname = await api.post('/api/v1/clean/address', { query: 'екб, Малышева 5', countryCode: 'RU' });
    expect(nickname.body.houseDetails.codes).toEqual(former.body.houseDetails.codes);
    expect(nickname.body.quality.actuality).toBe(0);
    // Байконур was Ленинск: with its street the former name is Байконур's; alone it is the Volgograd town's own name
    const leninsk = await api.post('/api/v1/clean/address', { query: 'г. Ленинск, ул. Горького, д. 23', countryCode: 'RU' });
    expect(leninsk.body.region.name).toBe('Байконур');
    expect(leninsk.body.quality).toMatchObject({ actuality: 1, level: 8, house: 3 });
    const town = await api.post('/api/v1/clean/address', { query: 'г. Ленинск', countryCode: 'RU' });
    expect(town.body.region.fullName).toBe('Волгоградская обл');
  });

  it('answers a capital alone with the city, not a district or village named after it', async () => {
    const installed = api.app.services.engine.countries();
    const capitals = [['KZ', 'Алматы'], ['KZ', 'Астана'], ['UA', 'Київ']].filter(([code]) => installed.includes(code.toLowerCase() as never));
    expect(capitals.length).toBeGreaterThan(0);
    for (const [countryCode, query] of capitals) {
      const reply = await api.post('/api/v1/clean/address', { query, countryCode });
      expect(reply.status, query).toBe(200);
      expect(reply.body.area.name, query).toBe('');
      expect(reply.body.cityArea.name, query).toBe('');
      expect(reply.body.settlement.name, query).toBe('');
      expect(reply.body.city.name || reply.body.region.name, query).toBe(query);
      // a district named after the capital ties it on score and loses the tie-break by kind: doubtful, not ambiguous
      expect(reply.body.quality.unique, query).toBeLessThan(2);
      expect(reply.body.valid, query).toBe(true);
    }
    // two towns of one name tie as towns: not unique
    const twoTowns = await api.post('/api/v1/clean/address', { query: 'Березовский', countryCode: 'RU' });
    expect(twoTowns.body.quality.unique).toBe(2);
  });
});
