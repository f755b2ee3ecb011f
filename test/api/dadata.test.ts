/**
 * The DaData facade (/suggestions/api/4_1/rs/…, and DaData's cleaner body on /api/v1/clean/address) over HTTP with
 * the real engine, called as DaData's clients call it (suggestions-jquery's and @dadata/suggestions' headers and
 * bodies, dadata-py's requests), each record checked field by field against the service's own native answer for
 * the same input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guidOf, municipalEngine, writeMunicipalGar } from '../helpers/municipal-gar.js';
import { arraySchemaErrors, schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

const RS = '/suggestions/api/4_1/rs';
/** What suggestions-jquery 22 sends with every request (its token in Authorization, its version). */
const JQUERY_HEADERS = { authorization: 'Token 0123456789abcdef', 'x-version': '22.6.0', accept: 'application/json' };

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api?.close());

const orNull = (text: string | undefined | null): string | null => (text ? text : null);

/** A DaData record against the native AddressRecord of the same address: every field both describe. */
function expectSameAddress(data: any, native: any, label: string): void {
  const levels: [string, string][] = [['region', 'region'], ['area', 'area'], ['city', 'city'], ['city_district', 'cityArea'], ['street', 'street']];
  for (const [ours, theirs] of levels) {
    expect(data[`${ours}_with_type`], `${label} ${ours}_with_type`).toBe(orNull(native[theirs].fullName));
    expect(data[ours], `${label} ${ours}`).toBe(orNull(native[theirs].name));
    expect(data[`${ours}_type`], `${label} ${ours}_type`).toBe(orNull(native[theirs].type));
    expect(data[`${ours}_fias_id`], `${label} ${ours}_fias_id`).toBe(orNull(native[theirs].codes.fias));
    expect(data[`${ours}_kladr_id`], `${label} ${ours}_kladr_id`).toBe(orNull(native[theirs].codes.kladr));
  }
  const settlement = native.settlement.name ? native.settlement : native.planStructure;
  expect(data.settlement_with_type, `${label} settlement`).toBe(orNull(settlement.fullName));
  expect(data.postal_code, `${label} postal_code`).toBe(orNull(native.postcode));
  expect(data.country, label).toBe(native.country.name);
  expect(data.country_iso_code, label).toBe(native.country.alpha2);
  expect(data.timezone, label).toBe(orNull(native.timezone));
  const { latitude, longitude } = native.coordinates;
  expect(data.geo_lat, `${label} geo_lat`).toBe(latitude || longitude ? String(latitude) : null);
  expect(data.geo_lon, `${label} geo_lon`).toBe(latitude || longitude ? String(longitude) : null);
  const house = native.houseDetails;
  expect(data.house, `${label} house`).toBe(house.house ? house.house.toUpperCase() : house.lend || house.constr ? expect.any(String) : null);
  expect(data.flat, `${label} flat`).toBe(orNull(house.flat?.toUpperCase()));
  expect(data.entrance, label).toBe(orNull(house.entr));
  expect(data.floor, label).toBe(orNull(house.floor));
  if (data.fias_level === '8') expect(data.house_fias_id, `${label} house_fias_id`).toBe(orNull(house.codes?.fias));
  if (data.fias_level === '9') expect(data.flat_fias_id, `${label} flat_fias_id`).toBe(orNull(house.apartmentCodes?.fias));
}

async function nativeHints(query: string, count: number, extra: Record<string, unknown> = {}): Promise<any[]> {
  const reply = await api.post('/api/v1/suggest/address', { query, count, ...extra });
  expect(reply.status).toBe(200);
  return reply.body.suggestions;
}

async function facade(query: string, body: Record<string, unknown> = {}): Promise<any[]> {
  const reply = await api.request('POST', `${RS}/suggest/address`, { body: { query, ...body }, headers: JQUERY_HEADERS });
  expect(reply.status, reply.text).toBe(200);
  expect(schemaErrors('DadataSuggestions', reply.body)).toBe('');
  return reply.body.suggestions;
}

describe('POST /suggestions/api/4_1/rs/suggest/address', () => {
  it('lists the native hints, in their order, each record field by field the native one', async () => {
    for (const query of ['екатеринбург вокз', 'екатеринбург вокзальная 1', 'байконур гагарина 5', 'минск', 'свердловская']) {
      const native = await nativeHints(query, 7);
      const hints = await facade(query, { count: 7 });
      expect(hints.length, query).toBe(native.length);
      hints.forEach((hint, i) => expectSameAddress(hint.data, native[i], `${query} #${i}`));
    }
  });

  it('writes value as DaData writes it: no region before its centre, д for the house, the postcode in unrestricted_value', async () => {
    const [house] = await facade('екатеринбург вокзальная 15', { count: 1 });
    expect(house.value).toBe('г Екатеринбург, ул Вокзальная, д 15');
    expect(house.unrestricted_value).toBe(`${house.data.postal_code ? `${house.data.postal_code}, ` : ''}Свердловская обл, г Екатеринбург, ул Вокзальная, д 15`);
    expect(house.data).toMatchObject({
      house_type: 'д', house_type_full: 'дом', house: '15', fias_level: '8', qc_geo: '0', capital_marker: '2',
      region_iso_code: 'RU-SVE', federal_district: 'Уральский', region_type_full: 'область', city_type_full: 'город', street_type_full: 'улица',
      qc: null, qc_complete: null, qc_house: null, source: null, result: null,
    });
    const [baikonur] = await facade('байконур гагарина 5', { count: 1 });
    expect(baikonur.value).toBe('г Байконур, ул Гагарина, д 5');
    expect(baikonur.data.house_fias_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(baikonur.data.fias_id).toBe(baikonur.data.house_fias_id);
    expect(baikonur.data.street_fias_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(baikonur.data.kladr_id).toBeNull();
  });

  it('answers GET ?query= as the POST', async () => {
    const post = await facade('екатеринбург вокз', { count: 5 });
    const reply = await api.get(`${RS}/suggest/address?query=${encodeURIComponent('екатеринбург вокз')}&count=5`, JQUERY_HEADERS);
    expect(reply.status).toBe(200);
    expect(reply.body.suggestions).toEqual(post);
  });

  it('holds to count (default 10, at most 20) and answers nothing below 3 letters', async () => {
    expect((await facade('ул')).length).toBe(0);
    expect((await facade('ленина')).length).toBe((await nativeHints('ленина', 10)).length);
    expect((await facade('ленина')).length).toBe(10);
    expect((await facade('ленина', { count: 50 })).length).toBe(20);
    expect((await facade('ленина', { count: 2 })).length).toBe(2);
  });

  it('keeps to locations: kladr_id (prefix), FIAS id, name and postal_code; restrict_value leaves the place out of the value', async () => {
    const byKladr = await facade('вокз', { locations: [{ kladr_id: '6600000100000' }] });
    expect(byKladr.length).toBeGreaterThan(0);
    for (const hint of byKladr) expect(hint.data.city_kladr_id).toBe('6600000100000');
    const region = await facade('вокз', { locations: [{ kladr_id: '66' }] });
    for (const hint of region) expect(hint.data.region_kladr_id).toBe('6600000000000');
    const byFias = await facade('вокз', { locations: [{ city_fias_id: byKladr[0].data.city_fias_id }] });
    expect(byFias.map((hint) => hint.value)).toEqual(byKladr.map((hint) => hint.value));
    const byName = await facade('вокз', { locations: [{ city: 'Екатеринбург' }] });
    for (const hint of byName) expect(hint.data.city).toBe('Екатеринбург');
    const [baikonur] = await facade('байконур гагарина 5', { count: 1 });
    expect(baikonur.data.postal_code).toMatch(/^\d{6}$/);
    const byPostcode = await facade('байконур гагарина', { locations: [{ postal_code: baikonur.data.postal_code }] });
    expect(byPostcode.length).toBeGreaterThan(0);
    for (const hint of byPostcode) expect(hint.data.postal_code).toBe(baikonur.data.postal_code);
    expect(await facade('байконур гагарина', { locations: [{ postal_code: '000000' }] })).toEqual([]);
    const restricted = await facade('вокз', { locations: [{ kladr_id: '6600000100000' }], restrict_value: true });
    expect(restricted[0].value).toBe('ул Вокзальная');
    expect(restricted[0].unrestricted_value).toContain('г Екатеринбург, ул Вокзальная');
    const either = await facade('ленина', { locations: [{ kladr_id: '7700000000000' }, { kladr_id: '99' }] });
    expect(either.length).toBeGreaterThan(0);
    for (const hint of either) expect(['7700000000000', '9900000000000']).toContain(hint.data.region_kladr_id);
  });

  it('searches Russia alone by default, the country named, or all four with country "*"', async () => {
    const russia = await facade('минск немига');
    for (const hint of russia) expect(hint.data.country_iso_code).toBe('RU');
    const belarus = await facade('минск немига', { locations: [{ country_iso_code: 'BY' }] });
    expect(belarus.length).toBeGreaterThan(0);
    for (const hint of belarus) expect(hint.data.country_iso_code).toBe('BY');
    expect(belarus[0].value).toMatch(/^Беларусь, г Минск, /);
    const any = await facade('минск немига', { locations: [{ country: '*' }] });
    expect(any.map((hint) => hint.value)).toContain(belarus[0].value);
    const native = await nativeHints('минск немига', 10, { countryCode: 'BY' });
    expectSameAddress(belarus[0].data, native[0], 'BY');
  });

  it('keeps to locations_geo: every hint within the circle', async () => {
    const [house] = await facade('екатеринбург вокзальная 15', { count: 1 });
    const lat = Number(house.data.geo_lat);
    const lon = Number(house.data.geo_lon);
    const near = await facade('екатеринбург вокз', { locations_geo: [{ lat, lon, radius_meters: 1500 }] });
    expect(near.length).toBeGreaterThan(0);
    const far = await facade('екатеринбург вокз', { locations_geo: [{ lat: lat + 1, lon, radius_meters: 1000 }] });
    expect(far).toEqual([]);
  });

  it('ranks locations_boost first without leaving the others out', async () => {
    const plain = await facade('ленина', { count: 20 });
    const region = plain.find((hint) => hint.data.region_kladr_id && hint.data.region_kladr_id !== plain[0].data.region_kladr_id)?.data.region_kladr_id;
    expect(region, JSON.stringify(plain.map((hint) => hint.value))).toBeTruthy();
    const boosted = await facade('ленина', { count: 20, locations_boost: [{ kladr_id: region }] });
    expect(boosted[0].data.region_kladr_id).toBe(region);
    expect(boosted.some((hint) => hint.data.region_kladr_id !== region)).toBe(true);
    const first = boosted.findIndex((hint) => hint.data.region_kladr_id !== region);
    expect(boosted.slice(first).every((hint) => hint.data.region_kladr_id !== region)).toBe(true);
  });

  it('keeps to from_bound … to_bound and writes the value within them', async () => {
    const cities = await facade('екатер', { from_bound: { value: 'city' }, to_bound: { value: 'city' } });
    expect(cities.length).toBeGreaterThan(0);
    for (const hint of cities) expect(hint.data.fias_level).toBe('4');
    expect(cities[0].value).toBe('г Екатеринбург');
    const streets = await facade('екатеринбург вокзальная 15', { from_bound: { value: 'street' } });
    expect(streets[0].value).toBe('ул Вокзальная, д 15');
    const upToStreet = await facade('екатеринбург вокзальная 15', { to_bound: { value: 'street' } });
    for (const hint of upToStreet) expect(Number(hint.data.fias_level)).toBeLessThanOrEqual(7);
  });

  it('writes names in Latin letters for language en', async () => {
    const [ru] = await facade('екатеринбург вокзальная 15', { count: 1 });
    const [en] = await facade('екатеринбург вокзальная 15', { count: 1, language: 'en' });
    expect(en.value).toBe('g Ekaterinburg, ul Vokzalnaia, d 15');
    expect(en.data.city_fias_id).toBe(ru.data.city_fias_id);
    expect(en.data.geo_lat).toBe(ru.data.geo_lat);
  });

  it('answers a bad body in the error envelope', async () => {
    for (const body of [{}, { query: 5 }, { query: 'x'.repeat(301) }, { query: 'москва', count: -1 }, { query: 'москва', language: 'de' }, { query: 'москва', to_bound: { value: 'planet' } }]) {
      const reply = await api.post(`${RS}/suggest/address`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.code).toBe(3);
      expect(reply.body.message).toMatch(/\.$/);
    }
  });
});

describe('findById, geolocate, iplocate, status', () => {
  it('findById/address finds by FIAS GUID and KLADR code the record idsearch finds', async () => {
    const [street] = await facade('байконур гагарина 5', { count: 1 });
    for (const query of [street.data.house_fias_id, street.data.city_fias_id ?? street.data.region_fias_id, street.data.street_kladr_id ?? '9900000000000']) {
      const reply = await api.post(`${RS}/findById/address`, { query }, JQUERY_HEADERS);
      expect(reply.status).toBe(200);
      expect(schemaErrors('DadataSuggestions', reply.body)).toBe('');
      expect(reply.body.suggestions.length, query).toBe(1);
      const native = await api.post('/api/v1/idsearch/address', { query });
      expectSameAddress(reply.body.suggestions[0].data, native.body, query);
    }
    const house = (await api.post(`${RS}/findById/address`, { query: street.data.house_fias_id })).body.suggestions[0];
    expect(house.value).toBe('г Байконур, ул Гагарина, д 5');
    expect(house.data.fias_level).toBe('8');
  });

  it('findById/address answers no suggestions for an id nothing has, a cadastral number included', async () => {
    for (const query of ['00000000-0000-0000-0000-000000000000', '6699999999900', '66:41:0000000:1', 'not an id']) {
      const reply = await api.post(`${RS}/findById/address`, { query });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ suggestions: [] });
    }
  });

  it('geolocate/address lists the houses within the radius, nearest first, the first the native geosearch finds', async () => {
    const [house] = await facade('екатеринбург вокзальная 15', { count: 1 });
    const lat = Number(house.data.geo_lat);
    const lon = Number(house.data.geo_lon);
    const reply = await api.post(`${RS}/geolocate/address`, { lat, lon, radius_meters: 200, count: 10 }, JQUERY_HEADERS);
    expect(reply.status).toBe(200);
    expect(schemaErrors('DadataSuggestions', reply.body)).toBe('');
    const hints = reply.body.suggestions;
    expect(hints.length).toBeGreaterThan(1);
    const meters = hints.map((hint: any) => {
      const dy = (Number(hint.data.geo_lat) - lat) * 111195;
      const dx = (Number(hint.data.geo_lon) - lon) * 111195 * Math.cos((lat * Math.PI) / 180);
      return Math.hypot(dx, dy);
    });
    for (let i = 0; i < meters.length; i++) {
      expect(meters[i]).toBeLessThanOrEqual(200);
      if (i > 0) expect(meters[i]).toBeGreaterThanOrEqual(meters[i - 1]);
    }
    const native = await api.post('/api/v1/geosearch/address', { latitude: lat, longitude: lon, radius: 200, addresslevel: 'house' });
    expectSameAddress(hints[0].data, native.body, 'geolocate');
    expect((await api.post(`${RS}/geolocate/address`, { lat, lon, count: 2 })).body.suggestions.length).toBeLessThanOrEqual(2);
    expect((await api.post(`${RS}/geolocate/address`, { lat: 0.5, lon: -30 })).body).toEqual({ suggestions: [] });
    expect((await api.post(`${RS}/geolocate/address`, { lat, lon, radius_meters: 5000 })).status).toBe(400);
  });

  it('iplocate/address has no IP database: location null; status/address says search is on', async () => {
    const ip = await api.get(`${RS}/iplocate/address?ip=46.226.227.20`, JQUERY_HEADERS);
    expect(ip.status).toBe(200);
    expect(ip.body).toEqual({ location: null });
    const status = await api.get(`${RS}/status/address`, JQUERY_HEADERS);
    expect(status.status).toBe(200);
    expect(status.body.search).toBe(true);
  });
});

describe('POST /api/v1/clean/address with DaData\'s array body', () => {
  const CLEANER_HEADERS = { authorization: 'Token 0123456789abcdef', 'x-secret': 'fedcba9876543210' };

  it('answers one DaData record per string, in order, each field by field the native clean record', async () => {
    const sources = ['екатеринбург вокзальная 15 кв 3', 'г Байконур, ул Гагарина, д. 5', 'свердловская обл', 'ааааа ббббб'];
    const reply = await api.request('POST', '/api/v1/clean/address', { body: sources, headers: CLEANER_HEADERS });
    expect(reply.status).toBe(200);
    expect(arraySchemaErrors('DadataAddress', reply.body)).toBe('');
    expect(reply.body.map((record: any) => record.source)).toEqual(sources);
    for (const [i, source] of sources.entries()) {
      const native = (await api.post('/api/v1/clean/address', { query: source })).body;
      const record = reply.body[i];
      if (native.address) expectSameAddress(record, native, source);
      expect(record.unparsed_parts, source).toBe(orNull(native.undefinedParts));
      expect(record.metro?.length ?? 0, source).toBe(native.metro.length);
      if (native.metro.length) expect(record.metro[0]).toEqual({ name: native.metro[0].name, line: native.metro[0].line, distance: Math.round(native.metro[0].distance / 100) / 10 });
    }
    const [flat, house, region, garbage] = reply.body;
    expect(flat).toMatchObject({ result: 'г Екатеринбург, ул Вокзальная, д 15, кв 3', qc: 0, qc_house: 2, qc_complete: 0, qc_geo: 0, flat_type: 'кв', flat: '3', fias_level: '8' });
    expect(house).toMatchObject({ result: 'г Байконур, ул Гагарина, д 5', qc: 0, qc_house: 2, qc_complete: 5 });
    expect(region).toMatchObject({ result: 'Свердловская обл', fias_level: '1', qc_complete: 2, qc_house: 10 });
    expect(garbage).toMatchObject({ result: null, qc: 2, qc_complete: 6, qc_geo: 5, fias_level: '-1', region: null, geo_lat: null });
  });

  it('keeps the object body the native method, and an empty array answers []', async () => {
    const native = await api.post('/api/v1/clean/address', { query: 'екатеринбург вокзальная 15' });
    expect(schemaErrors('AddressRecord', native.body)).toBe('');
    expect((await api.post('/api/v1/clean/address', [])).body).toEqual([]);
  });

  it('refuses more than 100 strings, a string over 1000 characters and an array of other things, in the envelope', async () => {
    const many = await api.post('/api/v1/clean/address', Array.from({ length: 101 }, () => 'москва'));
    expect(many.status).toBe(400);
    expect(many.body).toEqual({ code: 3, message: 'тело запроса: не больше 100 элементов.', details: [] });
    const long = await api.post('/api/v1/clean/address', ['москва', 'x'.repeat(1001)]);
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('[1]: длина должна быть не больше 1000 символов.');
    const objects = await api.post('/api/v1/clean/address', [{ query: 'москва' }]);
    expect(objects.status).toBe(400);
    expect(objects.body.code).toBe(3);
  });
});

describe('division: municipal (a GAR fixture with a municipal district and its поселения, built by the real builder)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dadata-mun-'));
  let municipal: TestServer;
  beforeAll(async () => {
    const { engine } = await municipalEngine(await writeMunicipalGar(join(dir, 'gar_xml.zip')));
    municipal = await startTestServer({ engine });
  });
  afterAll(async () => {
    await municipal?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts the поселение in sub_area for division municipal and leaves it out of the administrative record', async () => {
    const ask = async (division?: string) => (await municipal.post(`${RS}/suggest/address`, { query: 'Ильинское Центр', ...(division ? { division } : {}) })).body.suggestions[0].data;
    const administrative = await ask();
    expect(administrative.sub_area).toBeNull();
    expect(administrative.area_with_type).toBe('Красногорский р-н');
    const byMunicipality = await ask('municipal');
    expect(byMunicipality).toMatchObject({ sub_area: 'Ильинское', sub_area_type: 'с/п', sub_area_with_type: 'с/п Ильинское', sub_area_fias_id: guidOf(40), street_with_type: 'ул Центральная' });
    expect(byMunicipality.sub_area_type_full).toBe('сельское поселение');
  });
});

describe('DaData\'s credentials', () => {
  let secured: TestServer;
  beforeAll(async () => {
    secured = await startTestServer({ config: { auth: { Enabled: true, Keys: ['our-key'] } } });
  });
  afterAll(() => secured?.close());

  it('takes the key as Authorization: Token, or in X-Secret for the cleaner; refuses none and a wrong one', async () => {
    const hints = (headers: Record<string, string>) => secured.request('POST', `${RS}/suggest/address`, { body: { query: 'екатеринбург вокз' }, headers });
    expect((await hints({ authorization: 'Token our-key' })).status).toBe(200);
    expect((await hints({})).body).toEqual({ code: 16, message: 'Ключ API обязателен', details: [] });
    expect((await hints({ authorization: 'Token other' })).body).toEqual({ code: 16, message: 'Ошибка авторизации', details: [] });
    const clean = (headers: Record<string, string>) => secured.request('POST', '/api/v1/clean/address', { body: ['москва'], headers });
    expect((await clean({ authorization: 'Token public-token', 'x-secret': 'our-key' })).status).toBe(200);
    expect((await clean({ 'x-secret': 'our-key' })).status).toBe(200);
    expect((await clean({ authorization: 'Token public-token', 'x-secret': 'wrong' })).status).toBe(401);
    expect((await secured.get(`${RS}/status/address`)).status).toBe(401);
    expect((await secured.get(`${RS}/status/address`, { authorization: 'Token our-key' })).body.search).toBe(true);
  });
});

describe('the fast path and the Koa app answer the facade alike', () => {
  let koa: TestServer;
  beforeAll(async () => {
    koa = await startTestServer({ koaOnly: true });
  });
  afterAll(() => koa?.close());

  it('sends the same bytes for hints, findById, geolocate and the cleaner', async () => {
    const calls: [string, unknown][] = [
      [`${RS}/suggest/address`, { query: 'екатеринбург вокзальная 1', count: 5, locations: [{ kladr_id: '66' }] }],
      [`${RS}/findById/address`, { query: '2763c110-cb8b-416a-9dac-ad28a55b4402' }],
      [`${RS}/geolocate/address`, { lat: 56.858173, lon: 60.599433 }],
      ['/api/v1/clean/address', ['екатеринбург вокзальная 15', 'байконур гагарина 5']],
    ];
    for (const [path, body] of calls) {
      const fast = await api.post(path, body);
      const slow = await koa.post(path, body);
      expect(fast.status, path).toBe(200);
      expect(fast.text, path).toBe(slow.text);
    }
  });
});
