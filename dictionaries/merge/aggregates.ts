/**
 * Merge step 6, aggregates: what an object's houses say about the object, rolled up the tree bottom-up in one
 * pass over the house store (objects are in depth-first order, so children have larger indexes than their
 * parents and a subtree is one range). An object without coordinates of its own takes the mean of its
 * subtree's houses; one without a postcode the most common postcode of its subtree's houses (the least at a
 * tie; a region counts only the houses it holds itself, and no subtree counts a region inside it). Returns the
 * house counts the report prints.
 */
import { Level } from '../source-model.js';
import type { MergedObject } from '../merged-model.js';
import { round6, type MergeState } from './state.js';

export interface HouseTally {
  withCoordinates: number;
  withPostcode: number;
}

/**
 * Step 6: per object the most common postcode and mean coordinates of its houses, rolled up the tree;
 * `parentOfId` resolves a house's interned parent id to its object index (−1: dropped), `counts` the houses of
 * each object in dictionary order (step 5's order, `rows`). Returns how many kept houses have coordinates and a
 * postcode, for the summary.
 *
 * An object's postcode tally is its houses' and, unless it is a region, its children's tallies: the houses of
 * its subtree (one range of objects in depth-first order, so one range of `rows`) less those below a region
 * inside it. It is counted over the postcode ids in dictionary order for each object that has no postcode of
 * its own: a `Map` per object cost ≈0.17 KB each while all were alive (the most common postcode, the least at a
 * tie, does not depend on order). The ids are put in dictionary order by the store-order pass itself (each
 * object's next row, a counting sort as `rows` is), not gathered through an inverse of `rows` (4 B per house).
 */
export function aggregateHouses(
  state: MergeState, objects: MergedObject[], parentOfId: (parentId: number) => number, counts: Uint32Array,
): HouseTally {
  const store = state.houseStore;
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
