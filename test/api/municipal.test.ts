/**
 * The municipal level over HTTP: a GAR fixture with a municipal district and two поселения
 * (test/helpers/municipal-gar.ts) read, merged and written by the real builder, loaded by the real engine,
 * served by createApp. clean and suggest carry the level and its fullName in `address`; idsearch, center
 * and geosearch answer null (conventions.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guidOf, municipalEngine, writeMunicipalGar } from '../helpers/municipal-gar.js';
import { EMPTY_LEVEL, schemaErrors, startTestServer, type TestServer } from '../helpers/api.js';

const dir = mkdtempSync(join(tmpdir(), 'mun-api-'));
let api: TestServer;
beforeAll(async () => {
  const { engine } = await municipalEngine(await writeMunicipalGar(join(dir, 'gar_xml.zip')));
  api = await startTestServer({ engine });
});
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ILYINSKOYE = { fullName: 'с/п Ильинское', name: 'Ильинское', type: 'с/п', codes: { fias: guidOf(40), ga: '', osm: '', gar: '40', kladr: '' } };
const NAKHABINO = { fullName: 'г.п Нахабино', name: 'Нахабино', type: 'г.п', codes: { fias: guidOf(41), ga: '', osm: '', gar: '41', kladr: '' } };
const clean = async (query: string) => {
  const reply = await api.post('/api/v1/clean/address', { query, countryCode: 'RU' });
  expect(reply.status).toBe(200);
  expect(schemaErrors('AddressRecord', reply.body)).toBe('');
  return reply.body;
};

describe('POST /api/v1/clean/address with a municipal hierarchy', () => {
  it('fills municipal with the поселение of the street and puts it after the area in address', async () => {
    const body = await clean('Московская обл, с Ильинское, ул Центральная, д 1');
    expect(body.municipal).toEqual(ILYINSKOYE);
    expect(body.area.fullName).toBe('Красногорский р-н');
    expect(body.address).toBe('Московская обл, Красногорский р-н, с/п Ильинское, с Ильинское, ул Центральная');
    expect(body.addressFull).toBe('Московская обл, Красногорский р-н, с/п Ильинское, с Ильинское, ул Центральная, дом 1');
    expect(body.houseDetails.codes.fias).toBe(guidOf(1000));
    expect(body.quality).toMatchObject({ unique: 0, undefined: 0, level: 8, house: 3 });
  });

  it('gives a house the entity GAR puts it under when that is not its street’s', async () => {
    const body = await clean('Ильинское, Центральная 3');
    expect(body.street.name).toBe('Центральная');
    expect(body.municipal).toEqual(NAKHABINO);
    expect(body.addressFull).toBe('Московская обл, Красногорский р-н, г.п Нахабино, с Ильинское, ул Центральная, дом 3');
  });

  it('takes the nearest ancestor’s entity for an object without an active municipal row', async () => {
    expect((await clean('Ильинское Лесная 7')).municipal).toEqual(ILYINSKOYE);
    expect((await clean('Нахабино Школьная 5')).municipal).toEqual(NAKHABINO);
  });

  it('does not match municipal names: a named district leaves the administrative answer as it was', async () => {
    const plain = await clean('с Ильинское, ул Центральная 1');
    const named = await clean('Красногорский м.р-н, с Ильинское, ул Центральная 1');
    expect(named.addressFull).toBe(plain.addressFull);
    expect(named.municipal).toEqual(ILYINSKOYE);
    expect(named.quality).toMatchObject({ undefined: 0, level: 8, house: 3 });
  });

  it('leaves municipal empty for a region without municipal entities', async () => {
    const body = await clean('Московская обл');
    expect(body.municipal).toEqual(EMPTY_LEVEL);
    expect(body.address).toBe('Московская обл');
  });
});

describe('POST /api/v1/suggest/address with a municipal hierarchy', () => {
  it('gives each hint its municipal level and address', async () => {
    const reply = await api.post('/api/v1/suggest/address', { query: 'Ильинское Центр', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('SuggestResponse', reply.body)).toBe('');
    const [first] = reply.body.suggestions;
    expect(first.municipal).toEqual(ILYINSKOYE);
    expect(first.address).toBe('Московская обл, Красногорский р-н, с/п Ильинское, с Ильинское, ул Центральная');
  });

  it('gives a house hint the house’s own entity', async () => {
    const reply = await api.post('/api/v1/suggest/address', { query: 'Ильинское Центральная 3', countryCode: 'RU' });
    const house = reply.body.suggestions.find((item: { houseDetails: { house: string } }) => item.houseDetails.house === '3');
    expect(house.municipal).toEqual(NAKHABINO);
  });
});

describe('municipal in the other methods', () => {
  // idsearch/center and geosearch need coordinates, which GAR has not: their null is asserted on the real
  // dictionaries (test/api/idsearch-center.test.ts, geosearch-address.test.ts)
  it('is null in idsearch, whose address leaves the entity out', async () => {
    const reply = await api.post('/api/v1/idsearch/address', { query: guidOf(1001), type: 'FIAS', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(schemaErrors('AddressRecord', reply.body)).toBe('');
    expect(reply.body.houseDetails.house).toBe('3');
    expect(reply.body.municipal).toBeNull();
    expect(reply.body.address).toBe('Московская обл, Красногорский р-н, с Ильинское, ул Центральная');
  });

  it('is in the address string of the legacy records built on the clean record', async () => {
    const reply = await api.post('/api/v1/clean/address/iqdq', { query: 'с Ильинское, ул Центральная 1', countryCode: 'RU' });
    expect(reply.status).toBe(200);
    expect(reply.body.c_address_full).toBe('Московская обл, Красногорский р-н, с/п Ильинское, с Ильинское, ул Центральная');
    expect(reply.body.c_community_fias).toBe(guidOf(50));
  });
});
