/**
 * Houses and apartments in dictionary order. Houses are grouped by the index of their parent object
 * (`orderHouses`, step 5: a counting sort of the house store's rows, stable within a parent), so the writer
 * emits each object's houses in one run and an object's subtree is one range of houses; a house whose parent
 * object was rejected is dropped here. Apartments follow their house (`placeApartments`, step 9): they name
 * it by `gar:<id>` or `fias:<guid>`, resolved to its position in the order `orderHouses` gave.
 * Both work on the columnar stores (house-store.ts, apartment-store.ts): no JS object per house.
 */
import type { ApartmentStore } from '../apartment-store.js';
import type { HouseStore } from '../house-store.js';
import { reject, type MergeState } from './state.js';

export interface OrderedHouses {
  store: HouseStore;
  /** rows of `store` in dictionary order */
  rows: Uint32Array;
  /** `counts[index]`: the houses of object `index` */
  counts: Uint32Array;
  /** a house's interned parent id → its object index (−1: dropped) */
  parentOfId: (parentId: number) => number;
}

export interface PlacedApartments {
  store: ApartmentStore;
  rows: Uint32Array;
  houses: Uint32Array;
}

/** step 5: houses grouped by their parent's index (counting sort, stable within a parent); `houseParent` from the tree */
export function orderHouses(state: MergeState, houseParent: Int32Array, objectCount: number): OrderedHouses {
  const store = state.houseStore;
  const parentOfId = (parentId: number) => houseParent[parentId];
  const { rows, counts } = store.order(parentOfId, objectCount);
  const droppedHouses = store.count - rows.length;
  if (droppedHouses > 0) state.rejects.set('houses: parent object missing', droppedHouses);
  return { store, rows, counts, parentOfId };
}

/** step 9: apartments reference their house by `gar:<id>` or `fias:<guid>`; map to the yielded house order */
export function placeApartments(state: MergeState, rows: Uint32Array): PlacedApartments {
  const store = state.apartmentStore;
  if (store.count === 0) return { store, rows: new Uint32Array(0), houses: new Uint32Array(0) };
  const placed = store.place((refs) => state.houseStore.positionsOf(rows, refs), (row) => reject(state, store.sourceOf(row), 'apartment: house missing'));
  return { store, ...placed };
}
