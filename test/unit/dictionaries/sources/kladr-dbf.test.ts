import { resolve } from 'node:path';
import { writeFileSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../../../dictionaries/merge/sink.js';
import { Level } from '../../../../dictionaries/source-model.js';
import { readKladrAltnames, readKladrSocrbase } from '../../../../dictionaries/sources/kladr-dbf.js';
import { DATA_DIR, HAS_DATA } from '../../../helpers/model-sink.js';

describe.runIf(HAS_DATA)('KLADR dBase readers on the real files', () => {
  it('decodes SOCRBASE from cp866 with levels', async () => {
    const types = await readKladrSocrbase(resolve(DATA_DIR, 'ru/kladr/SOCRBASE.DBF'));
    expect(types.length).toBeGreaterThan(140);
    expect(types).toContainEqual(expect.objectContaining({ abbr: 'Аобл', full: 'Автономная область', levels: [Level.region] }));
    expect(types).toContainEqual(expect.objectContaining({ abbr: 'ул', full: 'Улица', levels: [Level.street] }));
  });

  it('keeps ALTNAMES old codes on the object that has the new code', async () => {
    const builder = new ModelBuilder('ru');
    const { pairs } = await readKladrAltnames(resolve(DATA_DIR, 'ru/kladr/ALTNAMES.DBF'), builder);
    expect(pairs).toBe(7289);
    builder.addObject({ key: 'r', level: Level.region, parent: null, name: 'Башкортостан', type: 'Респ', codes: { kladr: '0200000000000' }, source: 'test' });
    builder.addObject({ key: 'c', level: Level.city, parent: 'r', name: 'X', type: 'г', codes: { kladr: '0200000600000' }, source: 'test' });
    const model = builder.finish();
    expect(model.objects.find((o) => o.key === 'c')!.historicalKladr).toContain('0200000600200');
  });

  it('names the file of a truncated dBase file', async () => {
    const bytes = readFileSync(resolve(DATA_DIR, 'ru/kladr/ALTNAMES.DBF'));
    const path = resolve(mkdtempSync(resolve(tmpdir(), 'kladr-')), 'ALTNAMES.DBF');
    writeFileSync(path, bytes.subarray(0, 4000));
    await expect(readKladrAltnames(path, new ModelBuilder('ru'))).rejects.toThrow(/ALTNAMES\.DBF/);
  });
});
