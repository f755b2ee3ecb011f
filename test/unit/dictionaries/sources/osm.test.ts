import { resolve } from 'node:path';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Level } from '../../../../dictionaries/source-model.js';
import { geometryCentroid, parseHouseNumber, readOsmXml, readOverpassGeojson } from '../../../../dictionaries/sources/osm.js';
import { CollectingSink, DATA_DIR, FIXTURES, HAS_DATA } from '../../../helpers/model-sink.js';

describe('parseHouseNumber(text)', () => {
  it('splits корпус, строение and литера off the number', () => {
    expect(parseHouseNumber('11')).toEqual({ number: '11' });
    expect(parseHouseNumber('11А')).toEqual({ number: '11а' });
    expect(parseHouseNumber('3 к2')).toEqual({ number: '3', block: '2' });
    expect(parseHouseNumber('3к2с1')).toEqual({ number: '3', block: '2', building: '1' });
    expect(parseHouseNumber('10 стр 12')).toEqual({ number: '10', building: '12' });
    expect(parseHouseNumber('11/2')).toEqual({ number: '11/2' });
    expect(parseHouseNumber('5 лит. А')).toEqual({ number: '5', liter: 'а' });
  });

  it('reads a Latin look-alike after a digit as its Cyrillic letter (B is В, b is б)', () => {
    expect(parseHouseNumber('44c1')).toEqual({ number: '44', building: '1' });
    expect(parseHouseNumber('12a')).toEqual({ number: '12а' });
    expect(parseHouseNumber('89b')).toEqual({ number: '89б' });
    expect(parseHouseNumber('7B')).toEqual({ number: '7в' });
    expect(parseHouseNumber('3k2')).toEqual({ number: '3', block: '2' });
  });

  it('drops a comma left between the number and its литера', () => {
    expect(parseHouseNumber('6, лит. А')).toEqual({ number: '6', liter: 'а' });
  });
});

describe('geometryCentroid(geometry)', () => {
  it('gives the centre of a square polygon and the point of a point', () => {
    expect(geometryCentroid({ type: 'Polygon', coordinates: [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]] })).toEqual({ lat: 1, lon: 1 });
    expect(geometryCentroid({ type: 'Point', coordinates: [60.5, 56.8] })).toEqual({ lat: 56.8, lon: 60.5 });
  });
});

describe('readOsmXml(path, sink) on a fixture', () => {
  it('emits places, per-town streets and houses with way centroids, a relation\'s from its outer ways', async () => {
    const sink = new CollectingSink();
    const counts = await readOsmXml(resolve(FIXTURES, 'test.osm'), sink);
    expect(counts).toMatchObject({ places: 2, houses: 4 });
    expect(sink.object('osm:N10')).toMatchObject({ level: Level.city, name: 'Заинск', type: 'г', lat: 55, joinByName: true, aliases: ['Заїнськ'] });
    expect(sink.object('osm:N11')).toMatchObject({ level: Level.settlement, name: 'Сарманово' });
    const zainskLenina = sink.object('osm:N10:улица ленина')!;
    expect(zainskLenina).toMatchObject({ parent: 'osm:N10', name: 'Ленина', type: 'ул', level: Level.street });
    expect(sink.object('osm:N11:улица ленина')).toMatchObject({ parent: 'osm:N11', name: 'Ленина' });
    const house = sink.houses.find((h) => h.codes.osm === 'W100')!;
    expect(house).toMatchObject({ parent: 'osm:N10:улица ленина', number: '10а', lat: 55.01, lon: 52.01 });
    // a multipolygon building: the centre of its outer way
    // (the ways' centres are kept as the nodes are, in 32-bit floats: within a metre)
    const relation = sink.houses.find((h) => h.codes.osm === 'R200')!;
    expect(relation.number).toBe('12');
    expect(relation.lat).toBeCloseTo(55.01, 5);
    expect(relation.lon).toBeCloseTo(52.01, 5);
    expect(sink.houses.find((h) => h.codes.osm === 'N20')).toMatchObject({ number: '3', block: '2', postcode: '423350', parent: 'osm:N11:улица ленина' });
    // a town named by addresses only becomes a place for the merge to find by name
    expect(sink.objects.find((o) => o.name === 'Новое Село')).toMatchObject({ level: Level.settlement, joinByName: true });
  });

  it('names the file and the line of malformed XML', async () => {
    await expect(readOsmXml(resolve(FIXTURES, 'bad.osm'), new CollectingSink())).rejects.toThrow(/bad\.osm.*line \d+/);
  });
});

describe('readOverpassGeojson(paths, sink)', () => {
  it('deduplicates features by id, splits street types at either end, keeps addr:city suburbs apart', async () => {
    const sink = new CollectingSink();
    const counts = await readOverpassGeojson([resolve(FIXTURES, 'ekb.geojson'), resolve(FIXTURES, 'ekb.geojson')], sink, {
      city: { name: 'Екатеринбург', regionName: 'Свердловская' },
    });
    expect(counts.houses).toBe(3);
    expect(sink.houses.find((h) => h.codes.osm === 'W1')).toMatchObject({ parent: 'osm:city:екатеринбург:улица челюскинцев', postcode: '620027', lat: 56.001, lon: 60.001 });
    expect(sink.object('osm:city:екатеринбург:ленина проспект')).toMatchObject({ name: 'Ленина', type: 'пр-кт' });
    expect(sink.houses.find((h) => h.codes.osm === 'R7')).toMatchObject({ number: '24/8' });
    const suburb = sink.houses.find((h) => h.codes.osm === 'N5')!;
    expect(suburb.parent).not.toContain('екатеринбург');
  });
});

describe.runIf(HAS_DATA)('OSM readers on the real extracts', () => {
  it('reads ≈12 000 unique addressed buildings of Екатеринбург', async () => {
    const dir = resolve(DATA_DIR, 'osm/ru-ekaterinburg');
    const files = readdirSync(dir).map((f) => resolve(dir, f));
    const sink = new CollectingSink();
    const counts = await readOverpassGeojson(files, sink, { city: { name: 'Екатеринбург', regionName: 'Свердловская' } });
    expect(counts.houses).toBeGreaterThan(12_000);
    expect(counts.streets).toBeGreaterThan(700);
    expect(sink.houses.every((h) => h.lat !== undefined && h.lat > 56 && h.lat < 57.5)).toBe(true);
  });

  it('keeps one «улица Ленина» per Tatarstan town', async () => {
    const sink = new CollectingSink();
    await readOsmXml(resolve(DATA_DIR, 'osm/ru-tatarstan-lenina-osmand.osm'), sink);
    const lenina = sink.objects.filter((o) => o.level === Level.street && o.name === 'Ленина' && o.type === 'ул');
    expect(new Set(lenina.map((o) => o.parent)).size).toBeGreaterThan(100);
    expect(sink.houses.length).toBeGreaterThan(450);
    // the extract's ids are negative (converted points, no OSM elements): no street, place or house gets an osm code
    expect(sink.objects.filter((o) => o.codes?.osm !== undefined)).toEqual([]);
    expect(sink.houses.filter((h) => h.codes?.osm !== undefined)).toEqual([]);
  });
});
