/** A small merge of one region and its streets, some of whose records join by FIAS id or by name. */
import { ModelBuilder } from '../../dictionaries/merge/sink.js';
import { Level, type AddressObject } from '../../dictionaries/source-model.js';

export const region = (extra: Partial<AddressObject> = {}): AddressObject => ({
  key: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
  level: Level.region,
  parent: null,
  name: 'Москва',
  type: 'г',
  codes: { fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', kladr: '7700000000000' },
  source: 'gar',
  ...extra,
});

export function small(): ModelBuilder {
  const builder = new ModelBuilder('ru');
  builder.addObject(region());
  builder.addObject(region({ key: 'hf:moscow', codes: { fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', okato: '45000000000' }, timezone: 'UTC+3', postcode: '101000', source: 'hflabs' }));
  builder.addObject({ key: 'fias:s1', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Тверская', type: 'ул', codes: { fias: 's1' }, source: 'gar' });
  builder.addObject({ key: 'fias:s2', level: Level.street, parent: 'fias:0c5b2444-70a0-4932-980c-b4dc0d3f02b5', name: 'Арбат', type: 'ул', codes: {}, source: 'gar' });
  builder.addObject({ key: 'fias:orphan', level: Level.street, parent: 'fias:nowhere', name: 'Нигде', type: 'ул', codes: {}, source: 'gar' });
  // OSM knows Москва as a city and Тверская as «Тверская улица»: both join by name
  builder.addObject({ key: 'osm:city:москва', level: Level.city, parent: null, name: 'Москва', type: 'г', codes: {}, regionName: 'г. Москва', joinByName: true, lat: 55.75, lon: 37.61, source: 'osm' });
  builder.addObject({ key: 'osm:city:москва:тверская улица', level: Level.street, parent: 'osm:city:москва', name: 'Тверская', type: 'ул', codes: { osm: 'W1' }, joinByName: true, source: 'osm' });
  builder.addHouse({ parent: 'fias:s2', number: '1', codes: {}, source: 'gar', postcode: '119002' });
  builder.addHouse({ parent: 'osm:city:москва:тверская улица', number: '7', codes: { osm: 'W7' }, postcode: '125009', lat: 55.76, lon: 37.61, source: 'osm' });
  builder.addHouse({ parent: 'fias:s2', number: '2', codes: {}, source: 'gar', postcode: '119002' });
  builder.addHouse({ parent: 'osm:city:москва:тверская улица', number: '9', codes: { osm: 'W9' }, postcode: '125009', lat: 55.78, lon: 37.63, source: 'osm' });
  builder.addHouse({ parent: 'fias:s2', number: '3', codes: {}, source: 'gar', postcode: '119019' });
  builder.addHouse({ parent: 'fias:orphan', number: '1', codes: {}, source: 'gar' });
  return builder;
}
