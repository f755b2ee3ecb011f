/** A ModelSink that keeps everything, for reader tests; and the paths of fixtures and the shared data. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressObject, ApartmentRecord, HouseRecord, MetroStation, ModelSink, MunicipalObject, SourceInfo } from '../../dictionaries/source-model.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const FIXTURES = resolve(REPO_ROOT, 'test/fixtures/dictionaries');
export const DATA_DIR = resolve(REPO_ROOT, process.env.DATA_DIR ?? '../shared/data');
export const HAS_DATA = existsSync(resolve(DATA_DIR, 'ru/gar/gar_xml.zip'));

export class CollectingSink implements ModelSink {
  objects: AddressObject[] = [];
  municipals: MunicipalObject[] = [];
  houses: HouseRecord[] = [];
  apartments: ApartmentRecord[] = [];
  metro: MetroStation[] = [];
  postcodes: Array<Parameters<ModelSink['addPostcode']>[0]> = [];
  sources: SourceInfo[] = [];
  rejects: string[] = [];
  constructor(readonly country: ModelSink['country'] = 'ru') {}
  addObject(object: AddressObject): void {
    this.objects.push(object);
  }
  addMunicipal(municipal: MunicipalObject): void {
    this.municipals.push(municipal);
  }
  addHouse(house: HouseRecord): void {
    this.houses.push(house);
  }
  addApartment(apartment: ApartmentRecord): void {
    this.apartments.push(apartment);
  }
  addMetro(station: MetroStation): void {
    this.metro.push(station);
  }
  addPostcode(entry: Parameters<ModelSink['addPostcode']>[0]): void {
    this.postcodes.push(entry);
  }
  addSource(info: SourceInfo): void {
    this.sources.push(info);
  }
  reject(source: string, reason: string): void {
    this.rejects.push(`${source}: ${reason}`);
  }
  object(key: string): AddressObject | undefined {
    return this.objects.find((o) => o.key === key);
  }
}
