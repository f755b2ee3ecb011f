/**
 * records/dadata-record.ts on real records (the engine over build/dictionaries): the fields in DaData's order and
 * nothing else, the type table current with the dictionaries' types.tsv, fias_level and the qc* scales, the Latin
 * spelling, and the KLADR prefixes of `locations`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Country, Engine } from '../../../../engine/types.js';
import { buildAddressRecord, cleanParts, resolveObjects, type ResolvedObjects } from '../../../../engine/records/address-record.js';
import { cleanerExtras, dadataAddress, dadataClean, dadataList, DADATA_ADDRESS_FIELDS, fiasLevel, qcGeo, registryCodes, typeFull } from '../../../../engine/records/dadata-record.js';
import { toJsonBytes } from '../../../../engine/records/json.js';
import { transliterate } from '../../../../engine/records/transliterate.js';
import { kladrPrefix } from '../../../../host/routes/dadata-facade.js';
import { standardizeAddress, standardizeParts } from '../../../../engine/standardize.js';
import { DADATA_TYPES_JSON, dadataTypesJson } from '../../../../scripts/dadata-types.js';
import { realEngine } from '../../../helpers/api.js';

let engine: Engine;
beforeAll(async () => {
  engine = await realEngine();
});

const clean = (query: string) => standardizeAddress(engine, 'ru', engine.dictionary('ru')!, query).record;

describe('dadataAddress(record, extras)', () => {
  it('writes every field DaData documents, in its order, and no other', () => {
    for (const query of ['екатеринбург вокзальная 15 кв 3', 'свердловская', 'ааааа ббббб', '']) {
      const data = dadataAddress(clean(query), { source: query });
      expect(Object.keys(data), query).toEqual([...DADATA_ADDRESS_FIELDS]);
    }
  });

  it('is a pure function of its arguments', () => {
    const record = clean('г Байконур, ул Гагарина, д. 5');
    const before = JSON.stringify(record);
    expect(dadataAddress(record, { source: 'x' })).toEqual(dadataAddress(record, { source: 'x' }));
    expect(JSON.stringify(record)).toBe(before);
  });

  it('maps the found level to fias_level: house 8, street 7, city 4, region 1, nothing -1', () => {
    expect(fiasLevel(clean('екатеринбург вокзальная 15'))).toBe(8);
    expect(fiasLevel(clean('екатеринбург вокзальная'))).toBe(7);
    expect(fiasLevel(clean('г екатеринбург'))).toBe(4);
    expect(fiasLevel(clean('свердловская обл'))).toBe(1);
    expect(fiasLevel(clean('ааааа ббббб'))).toBe(-1);
  });

  it('maps quality.geo to qc_geo: house 0, street 2, settlement 3, city 4, region 5', () => {
    expect([8, 7, 6, 5, 4, 3, 2, 1, 0].map(qcGeo)).toEqual([0, 2, 2, 3, 4, 4, 5, 5, 5]);
    expect(qcGeo(undefined)).toBeNull();
  });

  it('leaves null what the record does not know, and never lends an ancestor\'s id to the address', () => {
    const data = dadataAddress(clean('екатеринбург вокзальная 15'), { source: 'q' });
    expect(data.house_fias_id).toBeNull();
    expect(data.fias_id).toBeNull();
    expect(data.city_fias_id).toMatch(/^[0-9a-f-]{36}$/);
    for (const field of ['beltway_hit', 'flat_price', 'history_values', 'okato', 'tax_office_legal'] as const) expect(data[field]).toBeNull();
  });
});

/** Every clean case of the evaluation set beside the repository (EVAL_FILE to point elsewhere), and a few of our own. */
const EVAL_FILE = resolve(process.env.EVAL_FILE ?? '../shared/eval/dev.jsonl');
const CLEAN_CASES: { countryCode: string; query: string }[] = [
  { countryCode: 'RU', query: 'екатеринбург вокзальная 15 кв 3' }, { countryCode: 'RU', query: 'ааааа ббббб' }, { countryCode: 'RU', query: '!!!' },
  { countryCode: 'RU', query: '' }, { countryCode: 'RU', query: 'г Байконур, ул Гагарина, д. 5' },
  ...(existsSync(EVAL_FILE)
    ? readFileSync(EVAL_FILE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)).filter((c) => c.endpoint === 'clean')
    : []),
];

describe('dadataClean(parts, extras)', () => {
  it(`gives the record dadataAddress gives for the same address's AddressRecord (${CLEAN_CASES.length} addresses)`, () => {
    const differing: string[] = [];
    for (const { countryCode, query } of CLEAN_CASES) {
      const country = countryCode.toLowerCase() as Country;
      const dictionary = engine.dictionary(country)!;
      const { record, objects } = standardizeAddress(engine, country, dictionary, query);
      const { parts } = standardizeParts(engine, country, dictionary, query);
      for (const division of ['administrative', 'municipal'] as const) {
        const extras = { ...registryCodes(objects), source: query, division };
        const expected = JSON.stringify(dadataAddress(record, extras));
        const actual = JSON.stringify(dadataClean(parts, extras));
        if (actual !== expected) differing.push(`${query}\n  parts  ${actual}\n  record ${expected}`);
      }
    }
    expect(differing.slice(0, 3).join('\n')).toBe('');
  });
});

describe('a place kept per level ids (address-record.ts `Place`)', () => {
  it(`gives the records the levels worked out for each record give (${CLEAN_CASES.length} addresses, twice over)`, () => {
    const differing: string[] = [];
    for (let pass = 0; pass < 2; pass++) {
      for (const { countryCode, query } of CLEAN_CASES) {
        const dictionary = engine.dictionary(countryCode.toLowerCase() as Country)!;
        const resolution = engine.standardize(dictionary.country, query);
        if (!resolution.matched) continue;
        const kept = resolveObjects(resolution, dictionary);
        expect(kept.place).toBeDefined();
        // the same objects put together by hand: no place, every member worked out from the levels
        const byHand = { levels: { ...kept.levels }, house: kept.house, apartment: kept.apartment };
        const options = { method: 'clean' as const, original: query };
        const answers = (objects: ResolvedObjects) => {
          const { place, ...parts } = cleanParts(resolution, dictionary, options, objects);
          void place;
          return JSON.stringify([
            buildAddressRecord(resolution, dictionary, options, objects),
            buildAddressRecord(resolution, dictionary, { method: 'idsearch', original: query }, objects),
            parts,
            dadataClean(cleanParts(resolution, dictionary, options, objects), cleanerExtras(objects, query)),
          ]);
        };
        const expected = answers(byHand);
        const actual = answers(kept);
        if (actual !== expected) differing.push(`${query}\n  kept    ${actual}\n  by hand ${expected}`);
      }
    }
    expect(differing.slice(0, 3).join('\n')).toBe('');
  });
});

describe('dadataList(records): the JSON writer of DaData\'s records', () => {
  it('writes what JSON.stringify writes, twice over (the second time from the kept runs of the levels)', () => {
    const records = CLEAN_CASES.map(({ countryCode, query }) => {
      const country = countryCode.toLowerCase() as Country;
      const { parts, objects } = standardizeParts(engine, country, engine.dictionary(country)!, query);
      return dadataClean(parts, { ...registryCodes(objects), source: query });
    });
    expect(records.some((data) => data.metro !== null)).toBe(true);
    for (let pass = 0; pass < 2; pass++) {
      for (let from = 0; from < records.length; from += 100) {
        const list = records.slice(from, from + 100);
        expect(toJsonBytes(dadataList(list)).toString('utf8')).toBe(JSON.stringify(list));
      }
    }
  });

  it('does not take a kept run for a level whose members differ from it, nor lose a member left undefined', () => {
    const data = dadataClean(standardizeParts(engine, 'ru', engine.dictionary('ru')!, 'екатеринбург вокзальная 15').parts, { source: 'q' });
    expect(toJsonBytes(dadataList([data])).toString('utf8')).toBe(JSON.stringify([data]));
    const changed = { ...data, city: 'Другой "город"', region_iso_code: 'RU-XX', source: undefined as unknown as string, qc: Number.NaN };
    expect(toJsonBytes(dadataList([changed, data])).toString('utf8')).toBe(JSON.stringify([changed, data]));
  });
});

describe('dadata-types.json', () => {
  it('is current with dictionaries/data/types.tsv (npx tsx scripts/dadata-types.ts writes it)', () => {
    expect(readFileSync(DADATA_TYPES_JSON, 'utf8')).toBe(dadataTypesJson());
  });

  it('writes types out as DaData does, a country\'s own words first', () => {
    expect(typeFull('обл', 'RU')).toBe('область');
    expect(typeFull('пр-кт', 'RU')).toBe('проспект');
    expect(typeFull('вул', 'UA')).toBe('вулиця');
    expect(typeFull('нет такого', 'RU')).toBeNull();
  });
});

describe('transliterate(text)', () => {
  it('spells Cyrillic as passports do, keeping case', () => {
    expect(transliterate('г Екатеринбург, ул Вокзальная, д 15')).toBe('g Ekaterinburg, ul Vokzalnaia, d 15');
    expect(transliterate('Щёлково')).toBe('Shchelkovo');
    expect(transliterate('ЩУКА')).toBe('SHCHUKA');
    expect(transliterate('Хмельницький')).toBe('Khmelnitskii');
    expect(transliterate('Latin 12')).toBe('Latin 12');
  });
});

describe('kladrPrefix(code)', () => {
  it('drops the actuality digits and trailing groups of zeros', () => {
    expect(kladrPrefix('6600000100000')).toEqual({ prefix: '66000001', level: 'city' });
    expect(kladrPrefix('66')).toEqual({ prefix: '66', level: 'region' });
    expect(kladrPrefix('6610000000000')).toEqual({ prefix: '66100', level: 'area' });
    expect(kladrPrefix('99000000000000800')).toEqual({ prefix: '990000000000008', level: 'street' });
    expect(kladrPrefix('moscow')).toBeNull();
  });
});
