/**
 * The merge step: one `ModelBuilder` per country collects what the readers stream in and `finish()` turns
 * it into a `MergedModel`.
 *
 * While reading: objects are kept by key; a second record with the same key, or with the FIAS GUID of an
 * object already held, is folded into it at once (codes, coordinates, postcode filled in; a different
 * name becomes an alias), and its key becomes an alias of the first. Houses go straight to the columnar
 * `HouseStore` with their parent key interned to an int; apartments, metro and post offices to arrays.
 *
 * `finish()` in order:
 *  1. parents by region name (`regionName`: Post/OSM spellings) or by the nearest known city's region;
 *  2. name joins (`joinByName`), lowest level first: a place joins the same-named place of its region
 *     (or the region itself: Москва, Київ), a street the same-named street of the same parent;
 *  3. the tree: objects whose parent never arrived are rejected with their descendants; the rest are
 *     numbered depth-first, children in a stable order (level, name, key), which also gives the `ga` codes;
 *  4. houses sorted by parent (counting sort), then one pass over them bottom-up for postcodes (the most
 *     common one of an object's houses) and coordinates (the mean of its houses);
 *  5. top-down: postcode from Russian Post by (region, area, city) names, else the parent's; timezone and
 *     popular names (`data/aliases.tsv`).
 * Municipal entities (GAR levels 3 and 4) are numbered with the tree (step 3), by name and key; objects and
 * houses refer to them by that index (a house only when its entity is not its parent object's: an id in a
 * sparse list of the `HouseStore`, no column per house).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HouseStore, type HouseStoreOptions } from '../house-store.js';
import { ApartmentStore } from '../apartment-store.js';
import { GA_LENGTH, type MergedApartment, type MergedHouse, type MergedModel, type MergedMunicipal, type MergedObject } from '../merged-model.js';
import {
  LEVEL_NAMES,
  Level,
  type AddressObject,
  type ApartmentRecord,
  type HouseRecord,
  type LevelNumber,
  type MetroStation,
  type ModelSink,
  type MunicipalObject,
  type SourceInfo,
} from '../source-model.js';
import { distanceKm, nameKey, regionKeys } from '../join-keys.js';
import { regionTimezone } from '../timezones.js';

type Country = ModelSink['country'];

/** digits of each `ga` slot, by level: region 3, area 3, city 3, settlement 3, city district 4, plan structure 4, street 5 */
const GA_SLOTS: Record<number, { offset: number; width: number }> = {
  [Level.region]: { offset: 0, width: 3 },
  [Level.area]: { offset: 3, width: 3 },
  [Level.city]: { offset: 6, width: 3 },
  [Level.settlement]: { offset: 9, width: 3 },
  [Level.cityArea]: { offset: 12, width: 4 },
  [Level.planStructure]: { offset: 16, width: 4 },
  [Level.street]: { offset: 20, width: 5 },
};
/** '0' */
const ZERO = 0x30;
/** a place farther than this from every known city is not placed in a region by coordinates */
const NEAREST_CITY_MAX_KM = 120;
const ALIASES_FILE = fileURLToPath(new URL('../data/aliases.tsv', import.meta.url));
const NAME_VARIANTS_FILE = fileURLToPath(new URL('../data/name-variants.tsv', import.meta.url));

type PostEntry = { area: string; postcode: string; lat?: number; lon?: number };
/** region key → place name key → offices */
type PostIndex = Map<string, Map<string, PostEntry[]>>;

interface PostOffice {
  postcode: string;
  region?: string;
  area?: string;
  city?: string;
  lat?: number;
  lon?: number;
}

export interface ModelBuilderOptions {
  aliasesFile?: string;
  nameVariantsFile?: string;
  log?: (line: string) => void;
  /** when the house store spills to disk, and where (house-store.ts) */
  houses?: HouseStoreOptions;
  /**
   * the GA codes of an earlier build by object key (the update store's): an object keeps its code while it
   * sits in the same slot under a parent of the same code; new objects take the numbers after its siblings'
   */
  previousGa?: ReadonlyMap<string, string>;
}

export class ModelBuilder implements ModelSink {
  private readonly objects = new Map<string, AddressObject>();
  /** key of a folded-in record → key of the object it was folded into */
  private readonly keyAlias = new Map<string, string>();
  private readonly byFias = new Map<string, string>();
  private readonly houseParentIds = new Map<string, number>();
  private readonly houseParentKeys: string[] = [];
  private readonly municipals = new Map<string, MunicipalObject>();
  /** municipal keys houses refer to, interned: the HouseStore keeps the id */
  private readonly houseMunicipalIds = new Map<string, number>();
  private readonly houseMunicipalKeys: string[] = [];
  private readonly houseStore: HouseStore;
  private readonly apartmentStore = new ApartmentStore();
  private readonly metro: MetroStation[] = [];
  private readonly postOffices: PostOffice[] = [];
  private readonly sources: SourceInfo[] = [];
  private readonly rejects = new Map<string, number>();
  private readonly objectsPerSource = new Map<string, number>();
  private readonly log: (line: string) => void;

  constructor(
    readonly country: Country,
    private readonly options: ModelBuilderOptions = {},
  ) {
    this.log = options.log ?? (() => {});
    this.houseStore = new HouseStore(options.houses);
  }

  // ---- ModelSink ----

  addObject(object: AddressObject): void {
    if (!object.name || !object.key) {
      this.reject(object.source, 'object without name or key');
      return;
    }
    this.count(this.objectsPerSource, object.source);
    const key = this.canonical(object.key);
    const existing = this.objects.get(key) ?? (object.codes.fias ? this.byFiasCode(object.codes.fias) : undefined);
    if (existing) {
      if (existing.key !== object.key) this.keyAlias.set(object.key, existing.key);
      foldInto(existing, object);
      this.noteFias(existing);
      return;
    }
    const copy = held(object);
    this.objects.set(copy.key, copy);
    this.noteFias(copy);
  }

  /** the object with this FIAS code: keyed by it (`fiasKey`, nearly all), or noted in `byFias` */
  private byFiasCode(fias: string): AddressObject | undefined {
    return this.objects.get(fias) ?? this.objects.get(this.byFias.get(fias) ?? '');
  }

  /** `byFias` holds only the objects whose FIAS code is not their key (an OSM or name-joined object given one) */
  private noteFias(object: AddressObject): void {
    const fias = object.codes.fias;
    if (fias && fias !== object.key && !this.byFias.has(fias)) this.byFias.set(fias, object.key);
  }

  addMunicipal(municipal: MunicipalObject): void {
    if (!municipal.name || !municipal.key) {
      this.reject(municipal.source, 'municipal entity without name or key');
      return;
    }
    const existing = this.municipals.get(municipal.key);
    if (existing) {
      for (const [code, value] of Object.entries(municipal.codes) as Array<[keyof MunicipalObject['codes'], string | undefined]>) {
        if (value && !existing.codes[code]) existing.codes[code] = value;
      }
      return;
    }
    this.municipals.set(municipal.key, { ...municipal, codes: { ...municipal.codes } });
  }

  addHouse(house: HouseRecord): void {
    if (!house.number && !house.block && !house.building && !house.construction) {
      this.reject(house.source, 'house without a number');
      return;
    }
    let id = this.houseParentIds.get(house.parent);
    if (id === undefined) {
      id = this.houseParentKeys.length;
      this.houseParentKeys.push(house.parent);
      this.houseParentIds.set(house.parent, id);
    }
    let municipal = -1;
    if (house.municipal !== undefined) {
      municipal = this.houseMunicipalIds.get(house.municipal) ?? -1;
      if (municipal < 0) {
        municipal = this.houseMunicipalKeys.length;
        this.houseMunicipalKeys.push(house.municipal);
        this.houseMunicipalIds.set(house.municipal, municipal);
      }
    }
    this.houseStore.add(house, id, municipal);
  }

  addApartment(apartment: ApartmentRecord): void {
    if (!this.apartmentStore.add(apartment)) this.reject(apartment.source, 'apartment: bad house reference');
  }

  addMetro(station: MetroStation): void {
    this.metro.push(station);
  }

  addPostcode(entry: PostOffice): void {
    this.postOffices.push(entry);
  }

  /** an old registry code of the object that now has `newCode` (KLADR ALTNAMES) */
  addCodeAlias(registry: 'kladr', oldCode: string, newCode: string): void {
    const list = this.kladrAliases.get(newCode) ?? [];
    list.push(oldCode);
    this.kladrAliases.set(newCode, list);
    void registry;
  }

  private readonly kladrAliases = new Map<string, string[]>();

  addSource(info: SourceInfo): void {
    this.sources.push(info);
  }

  reject(source: string, reason: string): void {
    this.count(this.rejects, `${source}: ${reason}`);
  }

  /** a few rejected objects per reason, for the build log */
  readonly rejectSamples = new Map<string, string[]>();

  private rejectObject(object: AddressObject, reason: string): void {
    this.reject(object.source, reason);
    const key = `${object.source}: ${reason}`;
    const samples = this.rejectSamples.get(key) ?? [];
    if (samples.length < 8) samples.push(`${LEVEL_NAMES[object.level]} ${object.type} ${object.name} (${object.key})`);
    this.rejectSamples.set(key, samples);
  }

  get houseCount(): number {
    return this.houseStore.count;
  }

  // ---- finish ----

  /** once: the builder gives up its read-phase state to the model */
  finish(): MergedModel {
    if (this.finished) throw new Error('ModelBuilder.finish() called twice');
    this.finished = true;
    const started = Date.now();
    this.locateParents();
    this.joinByName();
    const { objects, municipals, houseParent } = this.numberObjects();
    const gaCodes = this.assignGa(objects);
    const store = this.houseStore;
    // step 4's order: houses grouped by their parent's index (counting sort, stable within a parent)
    const parentOfId = (parentId: number) => houseParent[parentId];
    const { rows, counts } = store.order(parentOfId, objects.length);
    const droppedHouses = store.count - rows.length;
    if (droppedHouses > 0) this.rejects.set('houses: parent object missing', droppedHouses);

    const houseTally = this.aggregateHouses(objects, parentOfId, counts);
    this.fillTopDown(objects);
    this.applyPopularNames(objects);
    this.applyKladrAliases(objects);
    this.applyNameVariants(objects);

    const apartmentRows = this.placeApartments(rows);
    // the address registry's date is the dictionary's version; without one, the newest source's
    const primary = this.sources.filter((s) => s.primary && s.date);
    const sourceDate = (primary.length ? primary : this.sources).reduce((newest, s) => (s.date > newest ? s.date : newest), '');
    const summary = this.summarize(objects, rows, houseTally, apartmentRows.rows.length);
    summary['finish ms'] = Date.now() - started;
    return mergedModel(this.country, sourceDate, this.sources, objects, gaCodes, municipals, { store, rows, counts }, apartmentRows, this.metro, summary);
  }

  /**
   * Step 3 and the end of the read phase's state: the tree numbered into merged objects, each parent an
   * index. The builder's own maps (objects by key, aliases, FIAS keys) are emptied: at national scale they
   * hold a copy of every object (≈ 0.6 KB each), and nothing after this reads them. `houseParent[id]` is the
   * object index of the parent key houses were interned with as `id` (−1: no such object).
   */
  private numberObjects(): { objects: MergedObject[]; municipals: MergedMunicipal[]; houseParent: Int32Array } {
    const { municipals, municipalIndex } = this.numberMunicipals();
    const { objects, houseParent } = this.buildTree(municipalIndex);
    const houseMunicipal = Int32Array.from(this.houseMunicipalKeys, (key) => municipalIndex(key));
    this.houseStore.remapMunicipal((id) => houseMunicipal[id]);
    this.objects.clear();
    this.keyAlias.clear();
    this.byFias.clear();
    this.houseParentIds.clear();
    this.houseParentKeys.length = 0;
    return { objects, municipals, houseParent };
  }

  private finished = false;

  /** with step 3: municipal entities in a stable order (name, key); `municipalIndex(key)` is −1 for a key never added */
  private numberMunicipals(): { municipals: MergedMunicipal[]; municipalIndex: (key: string | undefined) => number } {
    const list = [...this.municipals.values()].sort((a, b) => compareText(nameKey(a.name), nameKey(b.name)) || compareText(a.key, b.key));
    const index = new Map(list.map((m, i) => [m.key, i]));
    const municipalIndex = (key: string | undefined): number => {
      if (key === undefined) return -1;
      const found = index.get(key);
      if (found === undefined) this.municipalMissing++;
      return found ?? -1;
    };
    const municipals = list.map(({ key, name, type, codes, source }) => ({ key, name, type, codes, source }));
    return { municipals, municipalIndex };
  }

  /** references to a municipal entity that never arrived (objects, and distinct keys of houses) */
  private municipalMissing = 0;

  /** step 1: objects without a parent below region level get one by region name or by coordinates */
  private locateParents(): void {
    const regions = [...this.objects.values()].filter((o) => o.level === Level.region);
    const exact = new Map<string, string>();
    const stems = new Map<string, string | null>();
    for (const region of regions) {
      const names = [region.name, ...(region.aliases ?? [])];
      for (const name of names) {
        const keys = regionKeys(name);
        for (const key of keys.exact) if (!exact.has(key)) exact.set(key, region.key);
        // a stem two regions share (Алтай/Алтайский) names neither
        for (const key of keys.stems) stems.set(key, stems.has(key) && stems.get(key) !== region.key ? null : region.key);
      }
    }
    this.regionExact = exact;
    this.regionStems = stems;
    const places = this.knownPlaces();
    for (const object of this.objects.values()) {
      if (object.level === Level.region || object.parent !== null) continue;
      if (object.regionName) {
        const region = this.findRegion(object.regionName);
        if (region) {
          object.parent = region;
          continue;
        }
      }
      if (object.lat !== undefined && object.lon !== undefined) {
        const near = nearest(places, object.lat, object.lon);
        if (near && near.km <= NEAREST_CITY_MAX_KM) {
          object.parent = near.region;
          continue;
        }
      }
      // left without a parent: a name join may still find it (a place named like a unique place), else rejected
    }
  }

  private regionExact = new Map<string, string>();
  private regionStems = new Map<string, string | null>();

  /** the region key for any spelling of a region name */
  findRegion(name: string): string | undefined {
    const keys = regionKeys(name);
    for (const key of keys.exact) {
      const region = this.regionExact.get(key);
      if (region) return region;
    }
    for (const key of keys.stems) {
      const region = this.regionStems.get(key);
      if (region) return region;
    }
    return undefined;
  }

  /** cities with coordinates whose region is known (registry objects only), for the nearest-city rule */
  private knownPlaces(): Array<{ lat: number; lon: number; region: string }> {
    const places: Array<{ lat: number; lon: number; region: string }> = [];
    for (const object of this.objects.values()) {
      if (object.joinByName || object.lat === undefined || object.lon === undefined) continue;
      if (object.level !== Level.city && object.level !== Level.settlement && object.level !== Level.region) continue;
      const region = this.regionOf(object.key);
      if (region) places.push({ lat: object.lat, lon: object.lon, region });
    }
    return places;
  }

  /** the region key above `key`, or undefined when the chain breaks */
  private regionOf(key: string): string | undefined {
    let current = this.objects.get(this.canonical(key));
    for (let depth = 0; current && depth < 16; depth++) {
      if (current.level === Level.region) return current.key;
      if (current.parent === null) return undefined;
      current = this.objects.get(this.canonical(current.parent));
    }
    return undefined;
  }

  /** step 2: name joins, lowest level first */
  private joinByName(): void {
    const pending = [...this.objects.values()].filter((o) => o.joinByName);
    if (pending.length === 0) return;
    pending.sort((a, b) => a.level - b.level);
    const pendingKeys = new Set(pending.map((o) => o.key));
    // places by region and name; children by parent, level, name
    const places = new Map<string, AddressObject[]>();
    const children = new Map<string, AddressObject[]>();
    const addPlace = (object: AddressObject, region: string | undefined) => {
      const names = new Set([nameKey(object.name), ...(object.aliases ?? []).map(nameKey)]);
      for (const name of names) {
        for (const key of [`${region ?? ''}|${name}`, `*|${name}`]) {
          const list = places.get(key) ?? [];
          list.push(object);
          places.set(key, list);
        }
      }
    };
    const addChild = (object: AddressObject) => {
      if (object.parent === null) return;
      const key = `${this.canonical(object.parent)}|${object.level}|${nameKey(object.name)}`;
      const list = children.get(key) ?? [];
      list.push(object);
      children.set(key, list);
    };
    for (const object of this.objects.values()) {
      if (pendingKeys.has(object.key)) continue;
      if (isPlaceLevel(object.level)) addPlace(object, object.level === Level.region ? object.key : this.regionOf(object.key));
      else addChild(object);
    }
    let joined = 0;
    for (const object of pending) {
      let target: AddressObject | undefined;
      if (isPlaceLevel(object.level)) {
        const region = object.parent === null ? undefined : this.regionOf(object.parent);
        const candidates = places.get(`${region ?? '*'}|${nameKey(object.name)}`) ?? [];
        // outside any region only a unique name is trusted
        const usable = region === undefined ? uniquePlace(candidates) : candidates;
        target = bestPlace(usable, object);
      } else if (object.parent !== null) {
        const candidates = children.get(`${this.canonical(object.parent)}|${object.level}|${nameKey(object.name)}`) ?? [];
        target = candidates.find((c) => c.type === object.type || c.type === '' || object.type === '');
      }
      if (target && target.key !== object.key) {
        this.objects.delete(object.key);
        this.keyAlias.set(object.key, target.key);
        foldInto(target, object);
        joined++;
      } else if (isPlaceLevel(object.level)) {
        addPlace(object, object.parent === null ? undefined : this.regionOf(object.parent));
      } else {
        addChild(object);
      }
    }
    this.joinedByName = joined;
  }

  private joinedByName = 0;

  /**
   * step 3: parents as indexes, rejected orphans, depth-first order with children sorted. Each object is numbered
   * as the walk reaches it (its parent's index comes with it on the stack), and the ids houses were interned
   * with (`houseParent[id]`, −1: no such object) are resolved then: houses name their parent by key, and the keys
   * go after this step. No map from every key to its index (≈50 B per object at national scale).
   */
  private buildTree(municipalIndex: (key: string | undefined) => number): { objects: MergedObject[]; houseParent: Int32Array } {
    const childrenOf = new Map<string, AddressObject[]>();
    const roots: AddressObject[] = [];
    for (const object of this.objects.values()) {
      if (object.parent === null) {
        if (object.level === Level.region) roots.push(object);
        else this.rejectObject(object, `${LEVEL_NAMES[object.level]} without a region`);
        continue;
      }
      const parentKey = this.canonical(object.parent);
      object.parent = parentKey;
      if (!this.objects.has(parentKey)) {
        this.rejectObject(object, 'parent missing');
        continue;
      }
      if (parentKey === object.key) {
        this.rejectObject(object, 'object is its own parent');
        continue;
      }
      const list = childrenOf.get(parentKey) ?? [];
      list.push(object);
      childrenOf.set(parentKey, list);
    }
    // houses that name their object by an alias of its key: by the key it resolves to
    const houseParent = new Int32Array(this.houseParentKeys.length).fill(-1);
    const aliased = new Map<string, number[]>();
    this.houseParentKeys.forEach((key, id) => {
      const canonical = this.canonical(key);
      if (canonical === key) return;
      const ids = aliased.get(canonical) ?? [];
      ids.push(id);
      aliased.set(canonical, ids);
    });
    const objects: MergedObject[] = [];
    const byOrder = (a: AddressObject, b: AddressObject) =>
      a.level - b.level || compareText(nameKey(a.name), nameKey(b.name)) || compareText(a.type, b.type) || compareText(a.key, b.key);
    roots.sort((a, b) => compareText(regionNumber(a) ?? '', regionNumber(b) ?? '') || byOrder(a, b));
    const stack = [...roots].reverse();
    const stackParent: number[] = stack.map(() => -1);
    while (stack.length > 0) {
      const object = stack.pop()!;
      const parent = stackParent.pop()!;
      if (numberedAlready(object)) continue; // a cycle: visited already
      const key = object.key;
      const index = objects.length;
      objects.push(numbered(object, parent, municipalIndex(object.municipal)));
      const id = this.houseParentIds.get(key);
      if (id !== undefined) houseParent[id] = index;
      for (const other of aliased.get(key) ?? []) houseParent[other] = index;
      const kids = childrenOf.get(key);
      if (kids) {
        kids.sort(byOrder);
        for (let i = kids.length - 1; i >= 0; i--) {
          stack.push(kids[i]);
          stackParent.push(index);
        }
      }
    }
    // not reached: under an object rejected above (numbered objects hold their parent's index by now)
    for (const object of this.objects.values()) {
      if (typeof object.parent === 'string' && this.objects.has(object.parent)) this.rejectObject(object, 'ancestor rejected');
    }
    return { objects, houseParent };
  }

  /**
   * `ga` codes, GA_LENGTH bytes per object in one array (`MergedModel.gaCodes`): region number from its
   * KLADR/KATO/KATOTTG code where there is one, else its rank; children by rank, on their parent's digits.
   */
  private assignGa(objects: MergedObject[]): Uint8Array {
    const prefix = this.country.toUpperCase();
    const codes = new Uint8Array(objects.length * GA_LENGTH);
    const nextChild = new Map<number, number>();
    const usedRegions = new Set<number>();
    let overflow = 0;
    // parents come before their children (depth-first order), so one pass suffices
    let regionRank = 0;
    const slotEnd = new Int32Array(objects.length);
    const slotsInOrder = Object.values(GA_SLOTS).sort((a, b) => a.offset - b.offset);
    const previous = this.options.previousGa;
    // with earlier codes: per object, the number it keeps (0: a new one), decided with its siblings (`keptNumbers`)
    const kept = previous && previous.size > 0 ? new Int32Array(objects.length) : undefined;
    const planned = new Uint8Array(kept ? objects.length : 0);
    const slotOf = (object: MergedObject) => {
      const slot = GA_SLOTS[object.level];
      // a child at its parent's level or above (a village under a village) takes the next free slot
      if (object.parent >= 0 && slot.offset < slotEnd[object.parent]) {
        return slotsInOrder.find((s) => s.offset >= slotEnd[object.parent]) ?? slotsInOrder[slotsInOrder.length - 1];
      }
      return slot;
    };
    const childrenOf = kept ? this.childrenByParent(objects) : undefined;
    objects.forEach((object, index) => {
      const slot = slotOf(object);
      const at = index * GA_LENGTH;
      codes[at] = prefix.charCodeAt(0);
      codes[at + 1] = prefix.charCodeAt(1);
      // the parent's digits (zeros for a region), then this object's slot
      if (object.parent >= 0 && object.level !== Level.region) codes.copyWithin(at + 2, object.parent * GA_LENGTH + 2, (object.parent + 1) * GA_LENGTH);
      else codes.fill(ZERO, at + 2, at + GA_LENGTH);
      let number: number;
      if (object.level === Level.region) {
        const fromCode = Number(regionNumber(object) ?? NaN);
        number = Number.isFinite(fromCode) && fromCode > 0 && !usedRegions.has(fromCode) ? fromCode : 900 + ++regionRank;
        usedRegions.add(number);
      } else {
        const counterKey = object.parent * 32 + slot.offset;
        if (kept && childrenOf && !planned[object.parent]) {
          planned[object.parent] = 1;
          this.keptNumbers(childrenOf.get(object.parent) ?? [], objects, codes, object.parent, slotOf, previous!, kept, nextChild);
        }
        if (kept && kept[index] > 0) number = kept[index];
        else {
          number = (nextChild.get(counterKey) ?? 0) + 1;
          nextChild.set(counterKey, number);
        }
      }
      const limit = 10 ** slot.width - 1;
      if (number > limit) {
        overflow++;
        number = limit;
      }
      for (let k = slot.width - 1, rest = number; k >= 0; k--, rest = Math.floor(rest / 10)) codes[at + 2 + slot.offset + k] = ZERO + (rest % 10);
      slotEnd[index] = slot.offset + slot.width;
    });
    if (overflow > 0) this.rejects.set('ga: more children than the slot holds (code shared)', overflow);
    return codes;
  }

  /** the children's indexes of every object that has some, in index order */
  private childrenByParent(objects: MergedObject[]): Map<number, number[]> {
    const children = new Map<number, number[]>();
    objects.forEach((object, index) => {
      if (object.parent < 0 || object.level === Level.region) return;
      const list = children.get(object.parent);
      if (list) list.push(index);
      else children.set(object.parent, [index]);
    });
    return children;
  }

  /**
   * For the children of `parent` (whose code is final in `codes`): each one whose earlier code is its parent's
   * digits, then a number in the slot it takes now, then zeros, keeps that number (`kept[child]`) unless a sibling
   * took it first. Sets each slot's counter to the highest kept number (new children follow it).
   */
  private keptNumbers(
    children: number[],
    objects: MergedObject[],
    codes: Uint8Array,
    parent: number,
    slotOf: (object: MergedObject) => { offset: number; width: number },
    previous: ReadonlyMap<string, string>,
    kept: Int32Array,
    counters: Map<number, number>,
  ): void {
    const taken = new Set<number>();
    const parentAt = parent * GA_LENGTH;
    for (const child of children) {
      const code = previous.get(objects[child].key);
      const slot = slotOf(objects[child]);
      if (code === undefined || code.length !== GA_LENGTH) continue;
      let same = true;
      for (let k = 0; k < 2 + slot.offset && same; k++) same = code.charCodeAt(k) === codes[parentAt + k];
      for (let k = 2 + slot.offset + slot.width; k < GA_LENGTH && same; k++) same = code.charCodeAt(k) === ZERO;
      if (!same) continue;
      const number = Number(code.slice(2 + slot.offset, 2 + slot.offset + slot.width));
      const counterKey = parent * 32 + slot.offset;
      if (!(number > 0) || taken.has(counterKey * 1e6 + number)) continue;
      taken.add(counterKey * 1e6 + number);
      kept[child] = number;
      counters.set(counterKey, Math.max(counters.get(counterKey) ?? 0, number));
    }
  }

  /**
   * step 4: per object the most common postcode and mean coordinates of its houses, rolled up the tree;
   * `parentOfId` resolves a house's interned parent id to its object index (−1: dropped), `counts` the houses of
   * each object in dictionary order (step 4's order, `rows`). Returns how many kept houses have coordinates and a
   * postcode, for the summary.
   *
   * An object's postcode tally is its houses' and, unless it is a region, its children's tallies: the houses of
   * its subtree (one range of objects in depth-first order, so one range of `rows`) less those below a region
   * inside it. It is counted over the postcode ids in dictionary order for each object that has no postcode of
   * its own: a `Map` per object cost ≈0.17 KB each while all were alive (the most common postcode, the least at a
   * tie, does not depend on order). The ids are put in dictionary order by the store-order pass itself (each
   * object's next row, a counting sort as `rows` is), not gathered through an inverse of `rows` (4 B per house).
   */
  private aggregateHouses(
    objects: MergedObject[], parentOfId: (parentId: number) => number, counts: Uint32Array,
  ): { withCoordinates: number; withPostcode: number } {
    const store = this.houseStore;
    const latSum = new Float64Array(objects.length);
    const lonSum = new Float64Array(objects.length);
    const points = new Uint32Array(objects.length);
    let withCoordinates = 0;
    let withPostcode = 0;
    // the postcode ids in dictionary order: an object's houses from its first row on, in store order (as `rows`)
    const firstRow = new Uint32Array(objects.length + 1);
    for (let index = 0; index < objects.length; index++) firstRow[index + 1] = firstRow[index] + counts[index];
    const kept = firstRow[objects.length];
    const ids = store.postcodeIdCount <= 0x10000 ? new Uint16Array(kept) : new Uint32Array(kept);
    const nextRow = firstRow.slice(0, objects.length);
    // rows in the store's order (a spilled store reads its chunks in turn)
    for (let row = 0; row < store.count; row++) {
      const parent = parentOfId(store.parentIdOf(row));
      if (parent < 0) continue;
      const id = store.postcodeIdOf(row);
      if (id !== 0) withPostcode++;
      ids[nextRow[parent]++] = id;
      const lat = store.latOf(row);
      if (!Number.isNaN(lat)) {
        latSum[parent] += lat;
        lonSum[parent] += store.lonOf(row);
        points[parent]++;
        withCoordinates++;
      }
    }
    // children have larger indexes than their parents: walk backwards to roll up
    const subtreeEnd = new Uint32Array(objects.length);
    for (let index = objects.length - 1; index >= 0; index--) {
      const object = objects[index];
      if (subtreeEnd[index] === 0) subtreeEnd[index] = index + 1;
      if (object.lat === undefined && points[index] > 0) {
        object.lat = round6(latSum[index] / points[index]);
        object.lon = round6(lonSum[index] / points[index]);
        object.geoLevel = object.level;
      }
      const parent = object.parent;
      if (parent < 0) continue;
      if (subtreeEnd[parent] < subtreeEnd[index]) subtreeEnd[parent] = subtreeEnd[index];
      latSum[parent] += latSum[index];
      lonSum[parent] += lonSum[index];
      points[parent] += points[index];
    }
    if (withPostcode === 0) return { withCoordinates, withPostcode };
    const tally = new Uint32Array(store.postcodeIdCount);
    const seen: number[] = [];
    const countRows = (index: number) => {
      for (let at = firstRow[index]; at < firstRow[index + 1]; at++) {
        const id = ids[at];
        if (id === 0) continue;
        if (tally[id]++ === 0) seen.push(id);
      }
    };
    for (let index = 0; index < objects.length; index++) {
      const object = objects[index];
      if (object.postcode) continue;
      countRows(index);
      if (object.level !== Level.region) {
        for (let inner = index + 1; inner < subtreeEnd[index]; inner++) {
          countRows(inner);
          // a region inside takes its own houses only
          if (objects[inner].level === Level.region) inner = subtreeEnd[inner] - 1;
        }
      }
      let best = '';
      let bestCount = 0;
      for (const id of seen) {
        const value = store.postcodeText(id);
        if (tally[id] > bestCount || (tally[id] === bestCount && value < best)) {
          best = value;
          bestCount = tally[id];
        }
        tally[id] = 0;
      }
      seen.length = 0;
      if (best) object.postcode = best;
    }
    return { withCoordinates, withPostcode };
  }

  /**
   * step 5: region coordinates from its largest city, Post postcodes by name, inheritance of timezone/postcode (a region
   * its registry gives no zone has its country's: timezones.ts)
   */
  private fillTopDown(objects: MergedObject[]): void {
    // region/area coordinates: the most populous city (the capital in practice) beats the mean of houses
    const largest = new Map<number, MergedObject>();
    for (const object of objects) {
      if (object.level !== Level.city || object.lat === undefined) continue;
      for (let p = object.parent; p >= 0; p = objects[p].parent) {
        const ancestor = objects[p];
        if (ancestor.level !== Level.region && ancestor.level !== Level.area) continue;
        const best = largest.get(p);
        if (!best || (object.population ?? 0) > (best.population ?? 0)) largest.set(p, object);
      }
    }
    for (const [index, city] of largest) {
      const object = objects[index];
      if (object.geoLevel !== undefined && object.geoLevel !== object.level) continue;
      if (object.lat !== undefined && object.geoLevel === undefined) continue; // own coordinates from a registry
      object.lat = city.lat;
      object.lon = city.lon;
      object.geoLevel = Level.city;
    }
    const post = this.postIndex();
    let fromPost = 0;
    let coordinatesFromPost = 0;
    // a place lends its postcode to what lies in it without one only when the place has one postcode (a village, a
    // small town: one post office, or a settlement's, a plan structure's or a street's own); a region's, a
    // district's or a big city's (its main office: Moscow's 101000) would be wrong for most streets in it
    const lends = new Uint8Array(objects.length);
    const single = (entries: PostEntry[] | undefined): boolean => entries !== undefined && new Set(entries.map((e) => e.postcode)).size === 1;
    objects.forEach((object, index) => {
      const parent = object.parent >= 0 ? objects[object.parent] : undefined;
      const entries = !object.postcode || object.lat === undefined || object.level === Level.city ? this.postEntries(post, object, objects) : undefined;
      if (!object.postcode) {
        if (entries) {
          object.postcode = entries.map((e) => e.postcode).sort()[0];
          fromPost++;
          lends[index] = single(entries) ? 1 : 0;
        } else if (parent?.postcode && lends[object.parent]) {
          object.postcode = parent.postcode;
          lends[index] = 1;
        }
      } else {
        lends[index] = object.level >= Level.settlement || (object.level === Level.city && single(entries)) ? 1 : 0;
      }
      if (object.lat === undefined && entries) {
        const located = entries.filter((e) => e.lat !== undefined);
        if (located.length > 0) {
          object.lat = round6(located.reduce((s, e) => s + e.lat!, 0) / located.length);
          object.lon = round6(located.reduce((s, e) => s + e.lon!, 0) / located.length);
          object.geoLevel = object.level;
          coordinatesFromPost++;
        }
      }
      if (!object.timezone) object.timezone = parent ? parent.timezone : regionTimezone(this.country, object.name);
      if (object.lat !== undefined && object.geoLevel === undefined) object.geoLevel = object.level;
    });
    this.postcodesFromPost = fromPost;
    this.coordinatesFromPost = coordinatesFromPost;
  }

  private coordinatesFromPost = 0;

  private postcodesFromPost = 0;

  /** Post offices by region key → place name key → lowest postcode; area kept for disambiguation */
  private postIndex(): PostIndex {
    const index: PostIndex = new Map();
    let unmatched = 0;
    for (const office of this.postOffices) {
      const region = office.region ? this.findRegion(office.region) : undefined;
      if (!region) {
        unmatched++;
        continue;
      }
      const place = nameKey(office.city || office.area || office.region || '');
      let byPlace = index.get(region);
      if (!byPlace) index.set(region, (byPlace = new Map()));
      const list = byPlace.get(place) ?? [];
      list.push({ area: nameKey(office.area ?? ''), postcode: office.postcode, lat: office.lat, lon: office.lon });
      byPlace.set(place, list);
    }
    if (unmatched > 0) this.rejects.set('post: region not matched', unmatched);
    return index;
  }

  private postEntries(index: PostIndex, object: MergedObject, objects: MergedObject[]): PostEntry[] | undefined {
    if (object.level > Level.settlement || object.level === Level.cityArea) return undefined;
    let regionIndex = object.parent;
    let region: MergedObject = object;
    let area = '';
    for (let p = object.parent; p >= 0; p = objects[p].parent) {
      if (objects[p].level === Level.area) area = nameKey(objects[p].name);
      region = objects[p];
      regionIndex = p;
    }
    void regionIndex;
    const byPlace = index.get(region.key);
    if (!byPlace) return undefined;
    const entries = byPlace.get(nameKey(object.name));
    if (!entries || entries.length === 0) return undefined;
    const inArea = area ? entries.filter((e) => e.area === '' || e.area.includes(area) || area.includes(e.area)) : entries;
    return inArea.length > 0 ? inArea : entries;
  }

  /** popular names from `data/aliases.tsv` */
  private applyPopularNames(objects: MergedObject[]): void {
    const file = this.options.aliasesFile ?? ALIASES_FILE;
    const lines = readFileSync(file, 'utf8').split('\n');
    const byLevelName = new Map<string, MergedObject[]>();
    for (const object of objects) {
      const key = `${object.level}|${nameKey(object.name)}`;
      const list = byLevelName.get(key) ?? [];
      list.push(object);
      byLevelName.set(key, list);
    }
    const regionOfIndex = (object: MergedObject): MergedObject => {
      let current = object;
      while (current.parent >= 0) current = objects[current.parent];
      return current;
    };
    let applied = 0;
    lines.forEach((line, lineIndex) => {
      if (line === '' || line.startsWith('#')) return;
      const [country, levelName, name, regionName, aliases] = line.split('\t');
      if (aliases === undefined) throw new Error(`${file}:${lineIndex + 1}: expected 5 tab-separated cells`);
      if (country !== this.country) return;
      const level = LEVEL_NAMES.indexOf(levelName as (typeof LEVEL_NAMES)[number]);
      if (level < 1) throw new Error(`${file}:${lineIndex + 1}: unknown level ${levelName}`);
      let candidates: MergedObject[];
      if (level === Level.region) {
        // a region of that very name first (KZ `г Алматы`, not the `Алматинская обл` its stem finds)
        candidates = byLevelName.get(`${level}|${nameKey(name)}`) ?? [];
        if (candidates.length === 0) {
          const regionKey = this.findRegion(name);
          candidates = regionKey === undefined ? [] : objects.filter((o) => o.key === regionKey);
        }
      } else {
        candidates = byLevelName.get(`${level}|${nameKey(name)}`) ?? [];
        if (regionName) {
          const regionKey = this.findRegion(regionName);
          candidates = candidates.filter((c) => regionOfIndex(c).key === regionKey);
        }
      }
      if (candidates.length === 0) return;
      const target = candidates.reduce((a, b) => ((b.population ?? 0) > (a.population ?? 0) ? b : a));
      for (const cell of aliases.split('|')) {
        // `*свердловск`: a former name
        const former = cell.startsWith('*');
        const alias = former ? cell.slice(1) : cell;
        const list = former ? (target.formerNames ??= []) : (target.aliases ??= []);
        if (alias && !list.includes(alias) && nameKey(alias) !== nameKey(target.name)) list.push(alias);
      }
      applied++;
    });
    this.popularNamesApplied = applied;
  }

  private popularNamesApplied = 0;

  private kladrAliasesApplied = 0;
  private nameVariantsApplied = 0;

  /** `data/name-variants.tsv`: `Карла Маркса|К. Маркса|Маркса` → aliases of streets named `Карла Маркса` */
  private applyNameVariants(objects: MergedObject[]): void {
    const file = this.options.nameVariantsFile ?? NAME_VARIANTS_FILE;
    const variants = new Map<string, string[]>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const [canonical, ...others] = line.split('|').map((s) => s.trim());
      if (others.length > 0) variants.set(nameKey(canonical), others);
    }
    for (const object of objects) {
      if (object.level !== Level.street && object.level !== Level.planStructure) continue;
      const others = variants.get(nameKey(object.name));
      if (!others) continue;
      object.aliases = [...new Set([...(object.aliases ?? []), ...others])];
      this.nameVariantsApplied++;
    }
  }

  private applyKladrAliases(objects: MergedObject[]): void {
    if (this.kladrAliases.size === 0) return;
    for (const object of objects) {
      const kladr = object.codes.kladr;
      if (!kladr) continue;
      const old = this.kladrAliases.get(kladr);
      if (!old) continue;
      object.historicalKladr = [...new Set([...(object.historicalKladr ?? []), ...old])];
      this.kladrAliasesApplied++;
    }
  }

  /** apartments reference their house by `gar:<id>` or `fias:<guid>`; map to the yielded house order */
  private placeApartments(rows: Uint32Array): { store: ApartmentStore; rows: Uint32Array; houses: Uint32Array } {
    const store = this.apartmentStore;
    if (store.count === 0) return { store, rows: new Uint32Array(0), houses: new Uint32Array(0) };
    const placed = store.place((refs) => this.houseStore.positionsOf(rows, refs), (row) => this.reject(store.sourceOf(row), 'apartment: house missing'));
    return { store, ...placed };
  }

  private summarize(objects: MergedObject[], rows: Uint32Array, houses: { withCoordinates: number; withPostcode: number }, apartments: number): Record<string, number | string> {
    const summary: Record<string, number | string> = { country: this.country, objects: objects.length };
    for (let level = 1; level < LEVEL_NAMES.length - 1; level++) {
      summary[`objects ${LEVEL_NAMES[level]}`] = objects.filter((o) => o.level === level).length;
    }
    for (const [source, n] of [...this.objectsPerSource].sort()) summary[`records from ${source}`] = n;
    const bySource = new Map<string, number>();
    for (const object of objects) bySource.set(object.source, (bySource.get(object.source) ?? 0) + 1);
    for (const [source, n] of [...bySource].sort()) summary[`objects from ${source}`] = n;
    summary['objects joined by name'] = this.joinedByName;
    summary['objects with postcode'] = objects.filter((o) => o.postcode).length;
    summary['objects with coordinates'] = objects.filter((o) => o.lat !== undefined).length;
    summary['objects postcode from post'] = this.postcodesFromPost;
    summary['objects coordinates from post/geonames'] = this.coordinatesFromPost;
    summary['popular names applied'] = this.popularNamesApplied;
    summary['objects with old KLADR codes'] = this.kladrAliasesApplied;
    summary['streets with name variants'] = this.nameVariantsApplied;
    summary['municipal entities'] = this.municipals.size;
    summary['objects with a municipal entity'] = objects.filter((o) => o.municipal !== undefined).length;
    if (this.municipalMissing > 0) summary['rejected municipal references: entity missing'] = this.municipalMissing;
    summary.houses = rows.length;
    summary['houses with postcode'] = houses.withPostcode;
    summary['houses with coordinates'] = houses.withCoordinates;
    summary['house labels (distinct part tuples)'] = this.houseStore.labels.count;
    summary.apartments = apartments;
    summary.metro = this.metro.length;
    summary['post offices'] = this.postOffices.length;
    for (const [reason, n] of [...this.rejects].sort()) summary[`rejected ${reason}`] = n;
    return summary;
  }

  private canonical(key: string): string {
    let current = key;
    for (let depth = 0; depth < 32; depth++) {
      const next = this.keyAlias.get(current);
      if (next === undefined) return current;
      current = next;
    }
    return current;
  }

  private count(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}

/** fill what `target` lacks from `other`; a different name of the same object becomes an alias */
function foldInto(target: AddressObject, other: AddressObject): void {
  for (const [code, value] of Object.entries(other.codes) as Array<[keyof AddressObject['codes'], string | undefined]>) {
    if (value && !target.codes[code]) target.codes[code] = value;
  }
  if (target.parent === null && other.parent !== null && target.level !== Level.region) target.parent = other.parent;
  if (target.lat === undefined && other.lat !== undefined) {
    target.lat = other.lat;
    target.lon = other.lon;
  }
  target.postcode ||= other.postcode;
  target.timezone ||= other.timezone;
  target.municipal ??= other.municipal;
  target.iso ||= other.iso;
  if (other.population !== undefined && (target.population ?? 0) < other.population) target.population = other.population;
  if (!target.type && other.type) target.type = other.type;
  const aliases = new Set([...(target.aliases ?? []), ...(other.aliases ?? [])]);
  if (nameKey(other.name) !== nameKey(target.name)) aliases.add(other.name);
  aliases.delete(target.name);
  if (aliases.size > 0) target.aliases = [...aliases];
  if (other.historicalNames) target.historicalNames = [...new Set([...(target.historicalNames ?? []), ...other.historicalNames])];
  // a registry record wins over a name-joined one: it keeps the official name and parent
  if (target.joinByName && !other.joinByName) {
    target.joinByName = false;
    if (nameKey(target.name) !== nameKey(other.name)) target.aliases = [...new Set([...(target.aliases ?? []), target.name])];
    target.name = other.name;
    target.type = other.type || target.type;
    target.level = other.level;
    if (other.parent !== null) target.parent = other.parent;
    target.source = other.source;
  }
}

/** the model `finish()` returns, built outside the builder so its closures hold the columns, not the builder */
function mergedModel(
  country: Country,
  sourceDate: string,
  sources: SourceInfo[],
  objects: MergedObject[],
  gaCodes: Uint8Array,
  municipals: MergedMunicipal[],
  houseRows: { store: HouseStore; rows: Uint32Array; counts: Uint32Array },
  apartmentRows: { store: ApartmentStore; rows: Uint32Array; houses: Uint32Array },
  metro: MetroStation[],
  summary: Record<string, number | string>,
): MergedModel {
  const { store, rows, counts } = houseRows;
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
 * Step 3 in place: the held object becomes the merged one, its parent and municipal entity now indexes. A
 * national build holds millions of objects; a merged copy of each (as this step once made) doubled them for
 * as long as the model lived. Their codes were copied in one order when they arrived (`addObject`), so
 * objects of the same fields share hidden classes.
 */
/** The object was numbered already (`numbered` made its parent an index). */
function numberedAlready(object: AddressObject): boolean {
  return typeof (object as unknown as MergedObject).parent === 'number';
}

function numbered(object: AddressObject, parent: number, municipal: number): MergedObject {
  const merged = object as unknown as MergedObject;
  merged.parent = parent;
  merged.municipal = municipal >= 0 ? municipal : undefined;
  return merged;
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

function isPlaceLevel(level: LevelNumber): boolean {
  return level === Level.region || level === Level.city || level === Level.settlement;
}

function uniquePlace(candidates: AddressObject[]): AddressObject[] {
  const regions = candidates.filter((c) => c.level === Level.region);
  if (regions.length === 1) {
    // a city of special status that is also its own city (Київ): the city holds the streets
    const city = candidates.find((c) => c.level === Level.city && c.parent === regions[0].key);
    return [city ?? regions[0]];
  }
  return candidates.length === 1 ? candidates : [];
}

/** the same level first, then a region (a federal city), then the most populous */
function bestPlace(candidates: AddressObject[], object: AddressObject): AddressObject | undefined {
  if (candidates.length === 0) return undefined;
  const score = (c: AddressObject) =>
    (c.level === object.level ? 4 : 0) + (c.level === Level.region ? 2 : 0) + (c.level === Level.city ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a) || (b.population ?? 0) - (a.population ?? 0))[0];
}

/** a region's own number: KLADR/KATO first two digits, KATOTTG `UA<2 digits>` */
function regionNumber(object: { codes: AddressObject['codes']; key: string }): string | undefined {
  if (object.codes.kladr) return object.codes.kladr.slice(0, 2).padStart(3, '0');
  const katottg = /^katottg:UA(\d\d)/.exec(object.key);
  if (katottg) return katottg[1].padStart(3, '0');
  const kato = /^kato:(\d\d)/.exec(object.key);
  if (kato) return kato[1].padStart(3, '0');
  return undefined;
}

function nearest(places: Array<{ lat: number; lon: number; region: string }>, lat: number, lon: number) {
  let best: { km: number; region: string } | undefined;
  for (const place of places) {
    if (Math.abs(place.lat - lat) > 3) continue;
    const km = distanceKm(lat, lon, place.lat, place.lon);
    if (!best || km < best.km) best = { km, region: place.region };
  }
  return best;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
