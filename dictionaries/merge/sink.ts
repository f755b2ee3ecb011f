/**
 * The merge of one country: `ModelBuilder` is the sink every reader streams into (source-model.ts
 * `ModelSink`), and `finish()` turns what it collected into the merged model (merged-model.ts) that the blob
 * writer serializes.
 *
 * While reading, objects are kept by key; a second record with the same key, or with the FIAS GUID of an
 * object already held, is folded into it at once (`foldInto`, join.ts), and its key becomes an alias of the
 * first. Houses go straight to the columnar `HouseStore` with their parent and municipal keys interned to
 * ints; apartments to the `ApartmentStore`; metro stations, post offices and sources to arrays. All of it is
 * the `MergeState` (state.ts) that `finish()` passes to its steps, one file each, in this order:
 *   1. regions.ts     parents of region-less objects by region name or by the nearest city
 *   2. join.ts        name joins, lowest level first
 *   3. tree.ts        orphans rejected, the tree numbered depth-first (object ids), municipal entities numbered
 *   4. ga-codes.ts    the GA code of every object
 *   5. houses.ts      houses grouped by their object's id
 *   6. aggregates.ts  postcodes and coordinates of objects from their houses, bottom-up
 *   7. top-down.ts    coordinates, postcodes and timezones from the largest city, Post, and the parent
 *   8. names.ts       popular names, old KLADR codes, street name variants
 *   9. houses.ts      apartments placed after their houses
 *  10. report.ts      the build summary
 */
import { HouseStore } from '../house-store.js';
import { hasHouseNumber, HOUSE_WITHOUT_NUMBER, type PackedHouses } from '../house-pack.js';
import { internKey } from '../columns.js';
import { ApartmentStore } from '../apartment-store.js';
import type { MergedApartment, MergedHouse, MergedModel, MergedMunicipal, MergedObject } from '../merged-model.js';
import type { AddressObject, ApartmentRecord, HouseRecord, MetroStation, ModelSink, MunicipalObject, SourceInfo } from '../source-model.js';
import { locateParents } from './regions.js';
import { foldInto, joinByName } from './join.js';
import { numberObjects } from './tree.js';
import { assignGa } from './ga-codes.js';
import { orderHouses, placeApartments, type OrderedHouses, type PlacedApartments } from './houses.js';
import { aggregateHouses } from './aggregates.js';
import { fillTopDown } from './top-down.js';
import { applyKladrAliases, applyNameVariants, applyPopularNames } from './names.js';
import { summarize } from './report.js';
import { canonical, countInto, newMergeState, reject, type Country, type MergeState, type ModelBuilderOptions, type PostOffice } from './state.js';

export type { ModelBuilderOptions } from './state.js';

export class ModelBuilder implements ModelSink {
  private readonly state: MergeState;
  private finished = false;

  constructor(
    readonly country: Country,
    options: ModelBuilderOptions = {},
  ) {
    this.state = newMergeState(country, options, new HouseStore(options.houses), new ApartmentStore());
  }

  // ---- ModelSink ----

  addObject(object: AddressObject): void {
    const state = this.state;
    if (!object.name || !object.key) {
      this.reject(object.source, 'object without name or key');
      return;
    }
    countInto(state.objectsPerSource, object.source);
    const key = canonical(state, object.key);
    const existing = state.objects.get(key) ?? (object.codes.fias ? this.byFiasCode(object.codes.fias) : undefined);
    if (existing) {
      if (existing.key !== object.key) state.keyAlias.set(object.key, existing.key);
      foldInto(existing, object);
      this.noteFias(existing);
      return;
    }
    const copy = held(object);
    state.objects.set(copy.key, copy);
    this.noteFias(copy);
  }

  /** the object with this FIAS code: keyed by it (`fiasKey`, nearly all), or noted in `byFias` */
  private byFiasCode(fias: string): AddressObject | undefined {
    return this.state.objects.get(fias) ?? this.state.objects.get(this.state.byFias.get(fias) ?? '');
  }

  /** `byFias` holds only the objects whose FIAS code is not their key (an OSM or name-joined object given one) */
  private noteFias(object: AddressObject): void {
    const fias = object.codes.fias;
    if (fias && fias !== object.key && !this.state.byFias.has(fias)) this.state.byFias.set(fias, object.key);
  }

  addMunicipal(municipal: MunicipalObject): void {
    if (!municipal.name || !municipal.key) {
      this.reject(municipal.source, 'municipal entity without name or key');
      return;
    }
    const municipals = this.state.municipals;
    const existing = municipals.get(municipal.key);
    if (existing) {
      for (const [code, value] of Object.entries(municipal.codes) as Array<[keyof MunicipalObject['codes'], string | undefined]>) {
        if (value && !existing.codes[code]) existing.codes[code] = value;
      }
      return;
    }
    municipals.set(municipal.key, { ...municipal, codes: { ...municipal.codes } });
  }

  addHouse(house: HouseRecord): void {
    const state = this.state;
    if (!hasHouseNumber(house)) {
      this.reject(house.source, HOUSE_WITHOUT_NUMBER);
      return;
    }
    state.houseStore.add(house, this.houseParentId(house.parent), house.municipal === undefined ? -1 : this.houseMunicipalId(house.municipal));
  }

  /**
   * Houses packed in another thread (house-pack.ts), each with a number (the packer rejects the others): the same
   * rows as `addHouse` of each, their parent and municipal keys interned in the batch's order.
   */
  addPackedHouses(batch: PackedHouses): void {
    const parentIds = Int32Array.from(batch.parents, (key) => this.houseParentId(key));
    const municipalIds = Int32Array.from(batch.municipals, (key) => this.houseMunicipalId(key));
    this.state.houseStore.addPacked(batch, parentIds, municipalIds);
  }

  private houseParentId(key: string): number {
    return internKey(this.state.houseParentIds, this.state.houseParentKeys, key);
  }

  private houseMunicipalId(key: string): number {
    return internKey(this.state.houseMunicipalIds, this.state.houseMunicipalKeys, key);
  }

  addApartment(apartment: ApartmentRecord): void {
    if (!this.state.apartmentStore.add(apartment)) this.reject(apartment.source, 'apartment: bad house reference');
  }

  addMetro(station: MetroStation): void {
    this.state.metro.push(station);
  }

  addPostcode(entry: PostOffice): void {
    this.state.postOffices.push(entry);
  }

  /** an old registry code of the object that now has `newCode` (KLADR ALTNAMES) */
  addCodeAlias(registry: 'kladr', oldCode: string, newCode: string): void {
    const kladrAliases = this.state.kladrAliases;
    const list = kladrAliases.get(newCode) ?? [];
    list.push(oldCode);
    kladrAliases.set(newCode, list);
    void registry;
  }

  addSource(info: SourceInfo): void {
    this.state.sources.push(info);
  }

  reject(source: string, reason: string): void {
    reject(this.state, source, reason);
  }

  get houseCount(): number {
    return this.state.houseStore.count;
  }

  // ---- finish ----

  /** once: the builder gives up its read-phase state to the model */
  finish(): MergedModel {
    if (this.finished) throw new Error('ModelBuilder.finish() called twice');
    this.finished = true;
    const state = this.state;
    const started = Date.now();
    locateParents(state);
    joinByName(state);
    const { objects, municipals, houseParent } = numberObjects(state);
    const gaCodes = assignGa(state, objects);
    const houses = orderHouses(state, houseParent, objects.length);
    const houseTally = aggregateHouses(state, objects, houses.parentOfId, houses.counts);
    fillTopDown(state, objects);
    applyPopularNames(state, objects);
    applyKladrAliases(state, objects);
    applyNameVariants(state, objects);
    const apartments = placeApartments(state, houses.rows);
    const summary = summarize(state, objects, houses.rows, houseTally, apartments.rows.length);
    summary['finish ms'] = Date.now() - started;
    return mergedModel(state.country, sourceDate(state.sources), state.sources, objects, gaCodes, municipals, houses, apartments, state.metro, summary);
  }
}

/** the address registry's date is the dictionary's version; without one, the newest source's */
function sourceDate(sources: SourceInfo[]): string {
  const primary = sources.filter((s) => s.primary && s.date);
  return (primary.length ? primary : sources).reduce((newest, s) => (s.date > newest ? s.date : newest), '');
}

/** the model `finish()` returns, built outside the builder so its closures hold the columns, not the builder */
function mergedModel(
  country: Country,
  sourceDate: string,
  sources: SourceInfo[],
  objects: MergedObject[],
  gaCodes: Uint8Array,
  municipals: MergedMunicipal[],
  houses: OrderedHouses,
  apartmentRows: PlacedApartments,
  metro: MetroStation[],
  summary: Record<string, number | string>,
): MergedModel {
  const { store, rows, counts } = houses;
  const houseRows = { store, rows, counts };
  return {
    country,
    sourceDate,
    sources,
    objects,
    gaCodes,
    municipals,
    houseCount: rows.length,
    houseRows,
    *houses(): Iterable<MergedHouse> {
      for (let parent = 0, i = 0; parent < counts.length; parent++) {
        for (const end = i + counts[parent]; i < end; i++) yield store.get(rows[i], parent);
      }
    },
    apartmentRows,
    get apartments(): MergedApartment[] {
      return [...apartmentRows.rows].map((row, i) => apartmentRows.store.get(row, apartmentRows.houses[i]));
    },
    metro,
    summary,
  };
}

/**
 * The builder's copy of a reader's record, built field by field in one order: the fields most objects have
 * or gain in the merge (postcode, timezone, municipal entity) always, so that they never grow an object's
 * property store later, the rare ones only when present. Objects of the same fields then share a hidden class;
 * a spread copy (`{ ...object, ga: '' }`) gave each object its own (a map and a descriptor array, ≈ 0.3 KB per
 * object at national scale). The `ga` codes are not the objects' (`assignGa`: one byte array).
 */
function held(object: AddressObject): AddressObject {
  const copy: AddressObject = {
    key: object.key, level: object.level, parent: object.parent, name: object.name, type: object.type, codes: codesOf(object.codes),
    source: object.source, postcode: object.postcode, timezone: object.timezone, municipal: object.municipal,
  };
  if (object.lat !== undefined) copy.lat = object.lat;
  if (object.lon !== undefined) copy.lon = object.lon;
  if (object.geoLevel !== undefined) copy.geoLevel = object.geoLevel;
  if (object.population !== undefined) copy.population = object.population;
  if (object.historicalNames !== undefined) copy.historicalNames = object.historicalNames;
  if (object.historicalKladr !== undefined) copy.historicalKladr = object.historicalKladr;
  if (object.aliases !== undefined) copy.aliases = object.aliases;
  if (object.formerNames !== undefined) copy.formerNames = object.formerNames;
  if (object.iso !== undefined) copy.iso = object.iso;
  if (object.regionName !== undefined) copy.regionName = object.regionName;
  if (object.joinByName !== undefined) copy.joinByName = object.joinByName;
  return copy;
}

/** registry codes as one literal in the order `Codes` declares (one hidden class, no property store), absent ones undefined */
function codesOf(codes: AddressObject['codes']): AddressObject['codes'] {
  return {
    fias: codes.fias || undefined, gar: codes.gar || undefined, kladr: codes.kladr || undefined, osm: codes.osm || undefined,
    okato: codes.okato || undefined, oktmo: codes.oktmo || undefined, ifns: codes.ifns || undefined,
  };
}
