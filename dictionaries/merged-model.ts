/**
 * The merged model: the tree of one country that the merge (merge/) produces and `blob-writer.ts` serializes,
 * as opposed to the source model (source-model.ts) the readers stream into the merge.
 * Objects are in an array whose index is the object id used by the core; `parent` is an index.
 * Houses are grouped by their parent object (`houseStart`/`houseCount` on the object) so the
 * writer can emit them in one pass.
 */
import type { AddressObject, ApartmentRecord, HouseRecord, MetroStation, MunicipalObject, SourceInfo } from './source-model.js';
import type { HouseStore } from './house-store.js';
import type { ApartmentStore } from './apartment-store.js';

export interface MergedObject extends Omit<AddressObject, 'parent' | 'key' | 'municipal'> {
  key: string;
  /** index of the parent object in `objects`, -1 for a region */
  parent: number;
  /** index of the object's municipal entity in `municipals`; absent: none */
  municipal?: number;
  /**
   * global address code: `RU` + 25 digits (conventions.md), stable for the same data. The builder's model keeps
   * every code in `MergedModel.gaCodes` instead (a 27-character string per object costs ≈48 B of heap); read
   * either with `gaOf`.
   */
  ga?: string;
}

export interface MergedHouse extends Omit<HouseRecord, 'parent' | 'municipal'> {
  /** index of the parent object in `objects` */
  parent: number;
  /** index in `municipals`, only when the house's municipal entity is not its parent object's */
  municipal?: number;
}

/** A municipal entity (source-model.ts `MunicipalObject`); objects and houses refer to it by its index. */
export type MergedMunicipal = MunicipalObject;

export interface MergedApartment extends Omit<ApartmentRecord, 'house'> {
  /** index of the house in the order `houses()` yields them */
  house: number;
}

export interface MergedModel {
  country: 'ru' | 'kz' | 'by' | 'ua';
  /** newest date of the sources, YYYYMMDD */
  sourceDate: string;
  sources: SourceInfo[];
  objects: MergedObject[];
  /** municipal entities (GAR levels 3 and 4), the `municipal` level of records; absent: none */
  municipals?: MergedMunicipal[];
  /** every house, grouped by parent (all houses of one parent are consecutive) */
  houses(): Iterable<MergedHouse>;
  houseCount: number;
  /**
   * The same houses as columns, when the model keeps them so (the merge): `rows` are rows of `store` in
   * `houses()` order, `counts[index]` the houses of object `index` (so its houses follow those of the objects
   * before it). The writer reads these without a JS object per house.
   */
  houseRows?: { store: HouseStore; rows: Uint32Array; counts: Uint32Array };
  apartments: MergedApartment[];
  /** The same apartments as columns (the merge): `rows` of `store` in house order, `houses` their house positions. */
  apartmentRows?: { store: ApartmentStore; rows: Uint32Array; houses: Uint32Array };
  metro: MetroStation[];
  /** the GA code of every object, GA_LENGTH ASCII bytes each, in object order (the merge); else each object's `ga` */
  gaCodes?: Uint8Array;
  /** build summary lines, printed by the builder */
  summary: Record<string, number | string>;
}

/** Characters of a GA code: the country's two letters and 25 digits. */
export const GA_LENGTH = 27;

/** The GA code of object `index` of a model: from `gaCodes` when it has them, else the object's own (`''`: none). */
export function gaOf(model: Pick<MergedModel, 'objects' | 'gaCodes'>, index: number): string {
  const codes = model.gaCodes;
  if (codes === undefined) return model.objects[index].ga ?? '';
  let text = '';
  for (let at = index * GA_LENGTH; at < (index + 1) * GA_LENGTH; at++) text += String.fromCharCode(codes[at]);
  return text;
}
