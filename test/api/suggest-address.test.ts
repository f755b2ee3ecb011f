import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

const OMITTED = ['original', 'postcodeIn', 'valid', 'quality', 'undefinedParts', 'metro'];

describe('POST /api/v1/suggest/address', () => {
  it('answers an empty list below 3 letters', async () => {
    for (const query of ['мо', 'г 1', '12345']) {
      const reply = await api.post('/api/v1/suggest/address', { query, countryCode: 'RU' });
      expect(reply.status, query).toBe(200);
      expect(reply.body).toEqual({ suggestions: [] });
    }
  });

  it('finds the hints of a scope\'s place however far down the country\'s list they rank', async () => {
    const suggest = async (body: object) => (await api.post('/api/v1/suggest/address', { countryCode: 'RU', ...body })).body.suggestions;
    // ул Ленина of Туба is one of hundreds in the country: the scope names the place, the hints are read there
    const tuba = await suggest({ query: 'ленина', scopes: [{ name: 'Туба' }] });
    expect(tuba.map((s: { addressFull: string }) => s.addressFull)).toEqual(['Респ Татарстан, Туба, ул Ленина']);
    const gorka = await suggest({ query: 'ленина 1', scopes: [{ name: 'Красная Горка' }] });
    expect(gorka.length).toBeGreaterThanOrEqual(7);
    for (const item of gorka) expect(item.settlement.name || item.city.name).toBe('Красная Горка');
    // a street is within a radius of a point on it though its centre is a kilometre away: one of its houses is
    const near = await suggest({ query: 'ленина', scopes: [{ coordinates: { latitude: 56.839137, longitude: 60.606092, radius: 500 } }] });
    expect(near.map((s: { addressFull: string }) => s.addressFull)).toContain('Свердловская обл, г Екатеринбург, пр-кт Ленина');
    // a house's own postcode decides whether it is in a postcode's scope
    const postcode = await suggest({ query: 'ленина 5', count: 20, scopes: [{ postcode: '620014' }] });
    expect(postcode.length).toBe(20);
    for (const item of postcode) expect(item.postcode).toBe('620014');
  });

  it('lists the houses of the number typed before those whose number goes on (5б, 5к1 before 50)', async () => {
    const reply = await api.post('/api/v1/suggest/address', { query: 'екатеринбург ленина 5', countryCode: 'RU' });
    const numbers: string[] = reply.body.suggestions.map((s: { houseDetails: { house: string } }) => s.houseDetails.house);
    const other = numbers.findIndex((n) => /^5\d/.test(n));
    expect(other).toBeGreaterThan(0);
    expect(numbers.slice(other).every((n) => /^5\d/.test(n) || n === '')).toBe(true);
    expect(numbers).toContain('5');
  });

  it('keeps Ukraine\'s Севастополь a region and a city, as Київ: one hint, written once, with both levels', async () => {
    const reply = await api.post('/api/v1/suggest/address', { query: 'севастополь', countryCode: 'UA' });
    const lines = reply.body.suggestions.map((s: { addressFull: string }) => s.addressFull);
    expect(lines[0]).toBe('м Севастополь');
    expect(reply.body.suggestions[0].region.fullName).toBe('м Севастополь');
    expect(reply.body.suggestions[0].city.fullName).toBe('м Севастополь');
    expect(new Set(lines).size).toBe(lines.length);
    // a street of Київ is written with the city once
    const kyiv = await api.post('/api/v1/suggest/address', { query: 'київ саксаганського 1', countryCode: 'UA' });
    expect(kyiv.body.suggestions[0].addressFull).toMatch(/^м Київ, вул Саксаганського, дом 1/);
  });

  it('hints Ukraine\'s cities by their Russian names (data/aliases.tsv)', async () => {
    for (const [query, city] of [['сумы', 'м Суми'], ['Чернигов', 'м Чернігів'], ['Донецк', 'м Донецьк']]) {
      const reply = await api.post('/api/v1/suggest/address', { query, countryCode: 'UA' });
      expect(reply.body.suggestions[0]?.city.fullName, query).toBe(city);
    }
  });

  it('keeps places of one name side by side as hints of their own (two villages of a district)', async () => {
    const reply = await api.post('/api/v1/suggest/address', { query: 'Жетикудук', countryCode: 'KZ', count: 20 });
    const lines = reply.body.suggestions.map((s: { address: string }) => s.address);
    const twice = lines.filter((line: string, i: number) => lines.indexOf(line) !== i);
    expect(twice.length).toBeGreaterThan(0);
  });

  it('counts the keys of letters typed in the Latin layout as letters (`,k.[t` is «блюхе»)', async () => {
    const reply = await api.post('/api/v1/suggest/address', { query: ',k.[t', countryCode: 'RU' });
    expect(reply.body.suggestions[0]?.street.name).toBe('Блюхера');
    const legacy = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('.;f')}&country=RU`);
    expect(legacy.status).toBe(200);
    expect(legacy.body.length).toBeGreaterThan(0);
  });

  it('suggests Baikonur streets, items without the omitted members', async () => {
    const reply = await api.post('/api/v1/suggest/address', { query: 'Байконур Гагар', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('SuggestResponse', reply.body)).toBe('');
    expect(reply.body.suggestions.length).toBeGreaterThan(0);
    expect(reply.body.suggestions.length).toBeLessThanOrEqual(10);
    const first = reply.body.suggestions[0];
    for (const key of OMITTED) expect(first).not.toHaveProperty(key);
    expect(reply.body.suggestions.some((item: { street: { name: string } }) => item.street.name === 'Гагарина')).toBe(true);
  });

  it('returns exactly count items when enough matches exist, and caps count at 20', async () => {
    // hundreds of ул Ленина match `ленина`
    const three = await api.post('/api/v1/suggest/address', { query: 'ленина', countryCode: 'RU', count: 3 });
    expect(three.body.suggestions).toHaveLength(3);
    const many = await api.post('/api/v1/suggest/address', { query: 'ленина', countryCode: 'RU', count: 500 });
    expect(many.status).toBe(200);
    expect(many.body.suggestions).toHaveLength(20);
    const zero = await api.post('/api/v1/suggest/address', { query: 'ленина', countryCode: 'RU', count: 0 });
    expect(zero.body.suggestions).toHaveLength(10);
  });

  it('lists only hints that match every whole word typed, fewer than count when fewer match', async () => {
    const lines = async (query: string) =>
      (await api.post('/api/v1/suggest/address', { query, countryCode: 'RU' })).body.suggestions.map((s: { addressFull: string }) => s.addressFull);
    // Альметьевск's ул Ленина, not the ул Ленина of eighteen other towns
    expect(await lines('Альметьевск Ленина')).toEqual(['Респ Татарстан, Альметьевский р-н, г Альметьевск, ул Ленина', 'Респ Татарстан, Альметьевский р-н, г Альметьевск']);
    // a корпус or flat being typed after the house: that house, not the houses 5 of streets on к
    const corpus = await lines('Екатеринбург, ул. Малышева, д. 5, к');
    expect(corpus[0]).toBe('Свердловская обл, г Екатеринбург, ул Малышева, дом 5');
    for (const line of corpus) expect(line).toMatch(/^Свердловская обл, г Екатеринбург, ул Малышева/);
    // the city's streets on мал, not the towns on мал elsewhere
    for (const line of await lines('екб мал')) expect(line).toMatch(/^Свердловская обл, г Екатеринбург/);
  });

  it('keeps a flat or office typed after the house in the hints of that house, the apartment found as clean finds it', async () => {
    const flat = await api.post('/api/v1/suggest/address', { query: 'екатеринбург малышева 5 кв 10', countryCode: 'RU', count: 3 });
    expect(flat.body.suggestions[0].houseDetails).toMatchObject({ house: '5', flat: '10', fullName: 'дом 5, квартира 10' });
    expect(flat.body.suggestions[0].addressFull).toBe('Свердловская обл, г Екатеринбург, ул Малышева, дом 5, квартира 10');
    // the registry's помещение 1 of Байконур's 7б, typed as clients type it
    const unit = await api.post('/api/v1/suggest/address', { query: 'Байконур мкр 6 дом 7б кв 1', countryCode: 'RU', count: 3 });
    expect(unit.body.suggestions[0].houseDetails).toMatchObject({ house: '7б', flat: '', place: '1' });
    // another house than the one typed (5а for 5) gets no office
    const office = await api.post('/api/v1/suggest/address', { query: 'байконур гагарина 5 оф 3', countryCode: 'RU', count: 2 });
    expect(office.body.suggestions.map((s: { houseDetails: { fullName: string } }) => s.houseDetails.fullName)).toEqual(['дом 5, офис 3', 'дом 5а']);
    const legacy = await api.get(`/legacy/selectAddress?letters=${encodeURIComponent('екатеринбург малышева 5 кв 10')}&country=RU&countreturnrec=1`);
    expect(legacy.body[0]).toMatchObject({ c_house: 'дом 5', c_flat: '10' });
  });

  it('keeps the last of five slots for a street when one word of five letters or more names only towns first', async () => {
    type Item = { city: { name: string }; street: { name: string } };
    const reply = await api.post('/api/v1/suggest/address', { query: 'советс', countryCode: 'RU', count: 5 });
    const items: Item[] = reply.body.suggestions;
    expect(items).toHaveLength(5);
    expect(items.slice(0, 4).every((item) => item.street.name === '' && item.city.name.startsWith('Советск'))).toBe(true);
    expect(items[4].street.name).toBe('Советская');
    // the first keys of a name keep their list of towns
    const short = await api.post('/api/v1/suggest/address', { query: 'сове', countryCode: 'RU', count: 5 });
    expect(short.body.suggestions.every((item: Item) => item.street.name === '')).toBe(true);
  });

  it('ignores empty scope members and refuses a malformed scope', async () => {
    const ok = await api.post('/api/v1/suggest/address', { query: 'Байконур Гагар', countryCode: 'RU', scopes: [{ fias: '', name: '' }] });
    expect(ok.status).toBe(200);
    const bad = await api.post('/api/v1/suggest/address', { query: 'Байконур', countryCode: 'RU', scopes: [{ coordinates: { latitude: 'x', longitude: 1 } }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 3, message: 'scopes[0].coordinates.latitude: ожидается число.', details: [] });
  });

  it('refuses a negative count and a missing query', async () => {
    const negative = await api.post('/api/v1/suggest/address', { query: 'Байконур', count: -1 });
    expect(negative.body).toEqual({ code: 3, message: 'count: значение должно быть не меньше 0.', details: [] });
    const missing = await api.post('/api/v1/suggest/address', { countryCode: 'RU' });
    expect(missing.text).toBe('{"code":3,"message":"query: значение не может быть пустым.","details":[]}');
  });
});
