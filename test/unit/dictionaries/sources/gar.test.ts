import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { Level } from '../../../../dictionaries/source-model.js';
import { readGar } from '../../../../dictionaries/sources/gar.js';
import { assignThreads, type ScanJob } from '../../../../dictionaries/io/gar-scan.js';
import { generateGarScale } from '../../../../bench/synth/gar-scale.js';
import { readerDigest, variantArchive } from '../../../helpers/gar-digest.js';
import { CollectingSink, DATA_DIR, FIXTURES, HAS_DATA } from '../../../helpers/model-sink.js';

describe('readGar(zip, sink) on a fixture', () => {
  it('emits current objects with their codes, parents and older names', async () => {
    const sink = new CollectingSink();
    const counts = await readGar(resolve(FIXTURES, 'gar_xml.zip'), sink, { asOf: '2024-06-01' });
    expect(counts.objects).toBe(4); // 5 current, Сиротская has no parent
    const street = sink.object('33333333-3333-3333-3333-333333333333')!;
    expect(street).toMatchObject({
      level: Level.street,
      parent: '22222222-2222-2222-2222-222222222222',
      name: 'Краснооктябрьская',
      type: 'ул',
      postcode: '385006',
      historicalNames: ['Коммунистическая'],
      codes: { fias: '33333333-3333-3333-3333-333333333333', gar: '300', kladr: '01000001000012300' },
    });
    expect(sink.object('44444444-4444-4444-4444-444444444444')).toMatchObject({ type: 'проезд', parent: '22222222-2222-2222-2222-222222222222' });
    expect(sink.object('22222222-2222-2222-2222-222222222222')).toMatchObject({ level: Level.city, type: 'г', codes: { okato: '79401000000' } });
    expect(sink.object('11111111-1111-1111-1111-111111111111')).toMatchObject({ level: Level.region, parent: null, codes: { kladr: '0100000000000' } });
    // Сиротская has no hierarchy record: rejected, not emitted without a parent
    expect(sink.object('55555555-5555-5555-5555-555555555555')).toBeUndefined();
    expect(sink.rejects).toContain('gar: object without an active hierarchy record');
    expect(sink.sources[0].date).toBe('20240101');
  });

  it('emits current houses with корпус/строение, possession, valid params only', async () => {
    const sink = new CollectingSink();
    await readGar(resolve(FIXTURES, 'gar_xml.zip'), sink, { asOf: '2024-06-01' });
    const byGar = (id: string) => sink.houses.find((h) => h.codes.gar === id);
    expect(byGar('1000')).toMatchObject({
      parent: '33333333-3333-3333-3333-333333333333',
      number: '5',
      block: '2',
      building: '1',
      postcode: '385007',
      cadnum: '01:08:0507005:12',
      codes: { fias: 'aaaaaaaa-0000-0000-0000-000000000001', oktmo: '79701000001' },
    });
    expect(byGar('1001')).toMatchObject({ number: '7а', possession: true });
    expect(sink.houses.filter((h) => h.codes.gar === '1001')).toHaveLength(1);
    // HOUSETYPE 7 строение without a house number
    expect(byGar('1002')).toMatchObject({ number: '', building: '12', parent: '44444444-4444-4444-4444-444444444444' });
    expect(byGar('1003')).toBeUndefined();
    expect(sink.rejects).toContain('gar: house: parent missing');
    expect(sink.houses.find((h) => h.stead)).toMatchObject({ number: '19', codes: { gar: '2000' } });
    expect(sink.apartments).toEqual([
      { house: 'gar:1000', number: '14', type: 'кв', codes: { fias: 'cccccccc-0000-0000-0000-000000000001', gar: '3000' }, source: 'gar' },
    ]);
  });

  it('leaves out the houses\' own OKATO, OKTMO and IFNS with houseCodes false (the builder\'s reading), nothing else', async () => {
    const all = new CollectingSink();
    await readGar(resolve(FIXTURES, 'gar_xml.zip'), all, { asOf: '2024-06-01' });
    const some = new CollectingSink();
    await readGar(resolve(FIXTURES, 'gar_xml.zip'), some, { asOf: '2024-06-01', houseCodes: false });
    expect(all.houses.some((h) => h.codes.oktmo)).toBe(true);
    expect(some.houses).toEqual(all.houses.map(({ codes: { okato, oktmo, ifns, ...codes }, ...house }) => ({ ...house, codes })));
    expect(some.objects).toEqual(all.objects);
    expect(some.apartments).toEqual(all.apartments);
  });

  it('names the zip when it is truncated', async () => {
    await expect(readGar(resolve(FIXTURES, 'gar_xml_truncated.zip'), new CollectingSink())).rejects.toThrow(/gar_xml_truncated\.zip/);
  });

  it('names the file and the record when an XML entry is cut', async () => {
    await expect(readGar(resolve(FIXTURES, 'gar_xml_badxml.zip'), new CollectingSink())).rejects.toThrow(/AS_HOUSES_20240101_h\.XML.*(element|line)/);
    await expect(readGar(resolve(FIXTURES, 'gar_xml_badxml.zip'), new CollectingSink(), { scanThreads: 2 })).rejects.toThrow(
      /AS_HOUSES_20240101_h\.XML: malformed XML at byte \d+, after element 4 <HOUSE>: truncated XML/,
    );
  });
});

describe('assignThreads(plan, threads)', () => {
  const job = (bytes: number): ScanJob => ({ table: 'AS_HOUSES', fileName: `f${bytes}`, bytes });

  it('gives each entry to the thread with the fewest bytes so far, the first at a tie', () => {
    expect(assignThreads([job(10), job(1), job(1), job(5), job(3)], 2)).toEqual([0, 1, 1, 1, 1]);
    expect(assignThreads([job(4), job(4), job(4)], 3)).toEqual([0, 1, 2]);
    expect(assignThreads([job(4), job(4)], 1)).toEqual([0, 0]);
  });

  it('shares a region\'s tables (big params at even places) between two threads within one entry', () => {
    // the bytes of a region's twelve tables in plan order, as in a GAR region: the house params dwarf the rest
    const region = [78, 300, 264, 215, 1370, 247, 90, 23, 1, 1, 0, 0].map(job);
    const plan = Array.from({ length: 20 }, () => region).flat();
    const threads = assignThreads(plan, 2);
    const load = [0, 0];
    plan.forEach(({ bytes }, i) => (load[threads[i]] += bytes));
    expect(Math.abs(load[0] - load[1])).toBeLessThanOrEqual(1370);
    // entry i to thread i mod 2 gave one thread 70 % of the bytes
    expect(load[0] / (load[0] + load[1])).toBeCloseTo(0.5, 1);
  });
});

describe('readGar(zip, sink) on a record it cannot use', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gar-bad-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([0, 1, 2])('names the file, the record and its byte (scan threads: %s)', async (scanThreads) => {
    // the fixture's sources with one house whose OBJECTID is not a number
    const src = resolve(FIXTURES, 'gar-src');
    const zip = new yazl.ZipFile();
    for (const name of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.XML')) continue;
      let text = readFileSync(join(src, name), 'utf8');
      if (name.includes('AS_HOUSES_2')) text = text.replace('OBJECTID="1002"', 'OBJECTID="10o2"');
      zip.addBuffer(Buffer.from(text), name);
    }
    zip.end();
    const file = join(dir, `bad-${scanThreads}.zip`);
    await new Promise<void>((done) => zip.outputStream.pipe(createWriteStream(file)).on('close', () => done()));
    await expect(readGar(file, new CollectingSink(), { asOf: '2024-06-01', scanThreads })).rejects.toThrow(
      /bad-[012]\.zip:01\/AS_HOUSES_20240101_h\.XML: element 4 <HOUSE> at byte \d+: OBJECTID="10o2" is not a positive integer/,
    );
  });
});

describe.runIf(HAS_DATA)('readGar(zip, sink) on the real region 99 archive', () => {
  it('reads 48 current objects under г Байконур and the known house', async () => {
    const sink = new CollectingSink();
    const counts = await readGar(resolve(DATA_DIR, 'ru/gar/gar_xml.zip'), sink);
    expect(counts.objects).toBe(48);
    const region = sink.objects.filter((o) => o.level === Level.region);
    expect(region).toHaveLength(1);
    expect(region[0]).toMatchObject({ name: 'Байконур', type: 'г', codes: { fias: '63ed1a35-4be6-4564-a1ec-0c51f7383314' } });
    const street = sink.object('8bbdbc9c-4435-4c82-8989-0b84d8480866')!;
    expect(street).toMatchObject({ name: 'Гагарина', type: 'ул', parent: '63ed1a35-4be6-4564-a1ec-0c51f7383314' });
    const house = sink.houses.find((h) => h.codes.fias === '4abf7720-fa42-482c-a2ec-cd564d9abc96');
    expect(house).toMatchObject({ number: '5', parent: '8bbdbc9c-4435-4c82-8989-0b84d8480866', postcode: '468325' });
    expect(counts.houses).toBeGreaterThan(500);
    expect(counts.steads).toBeGreaterThan(40);
    // every type is canonical: no GAR dotted short names left
    expect(sink.objects.filter((o) => o.type.endsWith('.'))).toEqual([]);
  });
});

describe.runIf(HAS_DATA)('readGar(zip, sink) gives what the saxes reader gave', () => {
  const source = resolve(DATA_DIR, 'ru/gar/gar_xml.zip');
  const dir = mkdtempSync(join(tmpdir(), 'gar-digest-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('on the real region 99 archive: 48 objects, 550 houses, 52 steads, every record the same', async () => {
    const sink = new CollectingSink();
    const counts = await readGar(source, sink, { asOf: '2024-06-01' });
    expect(counts).toMatchObject({ objects: 48, houses: 550, steads: 52, apartments: 1 });
    // the four type lists and twelve region tables (AS_MUN_HIERARCHY: 165,247 bytes); AS_CHANGE_HISTORY and the others are not opened
    expect(counts.xmlBytes).toBe(1_551_802);
    expect(sink.houses.find((h) => h.codes.gar === '5392775')).toEqual({
      parent: '8bbdbc9c-4435-4c82-8989-0b84d8480866',
      number: '5',
      codes: { fias: '4abf7720-fa42-482c-a2ec-cd564d9abc96', gar: '5392775', okato: '55000000000', oktmo: '55000000', ifns: '9901' },
      postcode: '468325',
      source: 'gar',
    });
    expect(sink.apartments).toEqual([{ house: expect.stringMatching(/^gar:\d+$/), number: '1', type: 'пом', codes: { fias: '497202af-0ce7-4ca7-a73d-124546396d82', gar: '157343423' }, source: 'gar' }]);
    expect(await readerDigest(readGar, source)).toBe('76319b7138605cfedd59e8a2f81a6fe5d6e043aaa5f10e0ddca4d08d12ad5274');
  });

  it('on the same archive written with entities, single quotes, line breaks in tags and comments', async () => {
    await variantArchive(source, join(dir, 'variant.zip'));
    expect(await readerDigest(readGar, join(dir, 'variant.zip'))).toBe('ca932ab9f4704726259892671ce46236ba1fda5e0ee739fcb4659c2867fe986a');
  });

  it.each([0, 1, 2, 3])('with the scan in %s worker thread(s), 0 in the reader thread', async (scanThreads) => {
    const threaded = (zip: string, sink: Parameters<typeof readGar>[1], options: { asOf: string }) => readGar(zip, sink, { ...options, scanThreads });
    expect(await readerDigest(threaded, source)).toBe('76319b7138605cfedd59e8a2f81a6fe5d6e043aaa5f10e0ddca4d08d12ad5274');
    await variantArchive(source, join(dir, `variant-threads-${scanThreads}.zip`));
    expect(await readerDigest(threaded, join(dir, `variant-threads-${scanThreads}.zip`))).toBe('ca932ab9f4704726259892671ce46236ba1fda5e0ee739fcb4659c2867fe986a');
  });

  it('with scan threads in a process started from another directory (the threads find tsx and their module)', () => {
    const gar = pathToFileURL(resolve(__dirname, '../../../../dictionaries/sources/gar.ts')).href;
    const script = [
      `const { readGar } = await import(${JSON.stringify(gar)});`,
      'let houses = 0;',
      "const sink = { country: 'ru', addObject() {}, addMunicipal() {}, addHouse() { houses++; }, addApartment() {}, addMetro() {}, addPostcode() {}, addSource() {}, reject() {} };",
      `const counts = await readGar(${JSON.stringify(source)}, sink, { scanThreads: 2, asOf: '2024-06-01' });`,
      'console.log(JSON.stringify({ houses, objects: counts.objects }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], { cwd: tmpdir(), encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ houses: 602, objects: 48 });
  });

  it('on a synthetic two-region archive with cadastral numbers and flats', async () => {
    const synth = await generateGarScale({ source, out: join(dir, 'synth.zip'), houses: 1200, regions: 2, seed: 42, apartmentsPerHouse: 1 });
    expect(await readerDigest(readGar, synth.out)).toBe('b5199c2f2f2fb7511006e30ab57192fb555530ded81251317c0a57bcc07d897f');
  });
});
