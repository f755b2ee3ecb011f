/**
 * Merge step 4, GA codes: the global address code of every object (conventions.md: the country's two letters
 * and 25 digits), `GA_LENGTH` ASCII bytes per object in one array (`MergedModel.gaCodes`; a 27-character string
 * per object cost ≈ 48 B of heap). A code is its parent's digits with the object's own number in the slot of its
 * level (`GA_SLOTS`), zeros after it. A region's number is its KLADR/KATO/KATOTTG number where it has one, else
 * 900 + its rank; other objects are numbered in tree order under their parent, so the same data gives the same
 * codes. With the codes of an earlier build (`ModelBuilderOptions.previousGa`) an object that sits in the same
 * slot under a parent of the same code keeps its number, and new siblings take the numbers after the kept ones.
 * Parents come before their children in the tree's depth-first order, so one pass over the objects suffices.
 */
import { Level } from '../source-model.js';
import { GA_LENGTH, type MergedObject } from '../merged-model.js';
import { regionNumber } from './tree.js';
import type { MergeState } from './state.js';

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

/**
 * The GA codes of an earlier build (`ModelBuilderOptions.previousGa`): GA_LENGTH ASCII bytes per object in
 * `codes`, found by the object's key. Packed, not a map of strings: a national dictionary has ≈ 1 M objects.
 */
export interface PreviousGa {
  readonly size: number;
  /** the index of the code of the object of `key` (−1: none) */
  indexOf(key: string): number;
  readonly codes: Uint8Array;
}

/** `keys[i]`'s code at `codes[i * GA_LENGTH]` */
export function previousGa(keys: readonly string[], codes: Uint8Array): PreviousGa {
  if (codes.length !== keys.length * GA_LENGTH) throw new Error(`GA codes: ${codes.length} bytes for ${keys.length} objects`);
  const index = new Map<string, number>();
  keys.forEach((key, i) => index.set(key, i));
  return { size: keys.length, indexOf: (key) => index.get(key) ?? -1, codes };
}

type Slot = { offset: number; width: number };

/**
 * `ga` codes, GA_LENGTH bytes per object in one array (`MergedModel.gaCodes`): region number from its
 * KLADR/KATO/KATOTTG code where there is one, else its rank; children by rank, on their parent's digits.
 */
export function assignGa(state: MergeState, objects: MergedObject[]): Uint8Array {
  const prefix = state.country.toUpperCase();
  const codes = new Uint8Array(objects.length * GA_LENGTH);
  const nextChild = new Map<number, number>();
  const usedRegions = new Set<number>();
  let overflow = 0;
  // parents come before their children (depth-first order), so one pass suffices
  let regionRank = 0;
  const slotEnd = new Int32Array(objects.length);
  const slotsInOrder = Object.values(GA_SLOTS).sort((a, b) => a.offset - b.offset);
  const previous = state.options.previousGa;
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
  const childrenOf = kept ? childrenByParent(objects) : undefined;
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
        keptNumbers(childrenOf.get(object.parent) ?? [], objects, codes, object.parent, slotOf, previous!, kept, nextChild);
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
  if (overflow > 0) state.rejects.set('ga: more children than the slot holds (code shared)', overflow);
  return codes;
}

/** the children's indexes of every object that has some, in index order */
function childrenByParent(objects: MergedObject[]): Map<number, number[]> {
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
function keptNumbers(
  children: number[],
  objects: MergedObject[],
  codes: Uint8Array,
  parent: number,
  slotOf: (object: MergedObject) => Slot,
  previous: PreviousGa,
  kept: Int32Array,
  counters: Map<number, number>,
): void {
  const taken = new Set<number>();
  const parentAt = parent * GA_LENGTH;
  const earlier = previous.codes;
  for (const child of children) {
    const found = previous.indexOf(objects[child].key);
    if (found < 0) continue;
    const code = found * GA_LENGTH;
    const slot = slotOf(objects[child]);
    let same = true;
    for (let k = 0; k < 2 + slot.offset && same; k++) same = earlier[code + k] === codes[parentAt + k];
    for (let k = 2 + slot.offset + slot.width; k < GA_LENGTH && same; k++) same = earlier[code + k] === ZERO;
    if (!same) continue;
    let number = 0;
    for (let k = 2 + slot.offset; k < 2 + slot.offset + slot.width; k++) {
      const digit = earlier[code + k] - ZERO;
      number = digit >= 0 && digit <= 9 ? number * 10 + digit : NaN;
    }
    const counterKey = parent * 32 + slot.offset;
    if (!(number > 0) || taken.has(counterKey * 1e6 + number)) continue;
    taken.add(counterKey * 1e6 + number);
    kept[child] = number;
    counters.set(counterKey, Math.max(counters.get(counterKey) ?? 0, number));
  }
}
