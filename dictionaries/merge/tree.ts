/**
 * Merge step 3, the tree: objects whose parent never arrived (or who are their own parent) are rejected with
 * their descendants; the rest are numbered depth-first from the regions (by region number, then name),
 * children in a stable order (level, name, type, key). The index is the object id of the dictionary, and a
 * subtree is one range of ids (assembly/subtree.ts relies on it). Municipal entities (GAR levels 3 and 4) are
 * numbered here too, by name and key; objects and houses refer to them by that index.
 *
 * The held object becomes the merged one in place (`numbered`: its parent and municipal entity now indexes):
 * a national build holds millions of objects, and a merged copy of each doubled them for as long as the model
 * lived. The read phase's maps (objects by key, key aliases, FIAS keys, house parent keys) are emptied at the
 * end of the step: nothing after it reads them, and they hold ≈ 0.6 KB per object.
 */
import { LEVEL_NAMES, Level, type AddressObject } from '../source-model.js';
import type { MergedMunicipal, MergedObject } from '../merged-model.js';
import { nameKeys } from '../join-keys.js';
import { canonical, compareText, rejectObject, type MergeState } from './state.js';

export interface NumberedTree {
  objects: MergedObject[];
  municipals: MergedMunicipal[];
  /** `houseParent[id]`: the object index of the parent key houses were interned with as `id` (−1: no such object) */
  houseParent: Int32Array;
}

/** step 3, and the end of the read phase's state: the tree numbered into merged objects, each parent an index */
export function numberObjects(state: MergeState): NumberedTree {
  const { municipals, municipalIndex } = numberMunicipals(state);
  const { objects, houseParent } = buildTree(state, municipalIndex);
  const houseMunicipal = Int32Array.from(state.houseMunicipalKeys, (key) => municipalIndex(key));
  state.houseStore.remapMunicipal((id) => houseMunicipal[id]);
  state.objects.clear();
  state.keyAlias.clear();
  state.byFias.clear();
  state.houseParentIds.clear();
  state.houseParentKeys.length = 0;
  return { objects, municipals, houseParent };
}

/** municipal entities in a stable order (name, key); `municipalIndex(key)` is −1 for a key never added */
function numberMunicipals(state: MergeState): { municipals: MergedMunicipal[]; municipalIndex: (key: string | undefined) => number } {
  const keyOf = nameKeys();
  const list = [...state.municipals.values()].sort((a, b) => compareText(keyOf(a.name), keyOf(b.name)) || compareText(a.key, b.key));
  const index = new Map(list.map((m, i) => [m.key, i]));
  const municipalIndex = (key: string | undefined): number => {
    if (key === undefined) return -1;
    const found = index.get(key);
    if (found === undefined) state.counts.municipalMissing++;
    return found ?? -1;
  };
  const municipals = list.map(({ key, name, type, codes, source }) => ({ key, name, type, codes, source }));
  return { municipals, municipalIndex };
}

/**
 * Parents as indexes, rejected orphans, depth-first order with children sorted. Each object is numbered as the
 * walk reaches it (its parent's index comes with it on the stack), and the ids houses were interned with
 * (`houseParent[id]`, −1: no such object) are resolved then: houses name their parent by key, and the keys go
 * after this step. No map from every key to its index (≈50 B per object at national scale).
 */
function buildTree(state: MergeState, municipalIndex: (key: string | undefined) => number): { objects: MergedObject[]; houseParent: Int32Array } {
  const childrenOf = new Map<string, AddressObject[]>();
  const roots: AddressObject[] = [];
  for (const object of state.objects.values()) {
    if (object.parent === null) {
      if (object.level === Level.region) roots.push(object);
      else rejectObject(state, object, `${LEVEL_NAMES[object.level]} without a region`);
      continue;
    }
    const parentKey = canonical(state, object.parent);
    object.parent = parentKey;
    if (!state.objects.has(parentKey)) {
      rejectObject(state, object, 'parent missing');
      continue;
    }
    if (parentKey === object.key) {
      rejectObject(state, object, 'object is its own parent');
      continue;
    }
    const list = childrenOf.get(parentKey) ?? [];
    list.push(object);
    childrenOf.set(parentKey, list);
  }
  // houses that name their object by an alias of its key: by the key it resolves to
  const houseParent = new Int32Array(state.houseParentKeys.length).fill(-1);
  const aliased = new Map<string, number[]>();
  state.houseParentKeys.forEach((key, id) => {
    const resolved = canonical(state, key);
    if (resolved === key) return;
    const ids = aliased.get(resolved) ?? [];
    ids.push(id);
    aliased.set(resolved, ids);
  });
  const objects: MergedObject[] = [];
  // a name's key once, not at each comparison of the sorts
  const keyOf = nameKeys();
  const byOrder = (a: AddressObject, b: AddressObject) =>
    a.level - b.level || compareText(keyOf(a.name), keyOf(b.name)) || compareText(a.type, b.type) || compareText(a.key, b.key);
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
    const id = state.houseParentIds.get(key);
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
  for (const object of state.objects.values()) {
    if (typeof object.parent === 'string' && state.objects.has(object.parent)) rejectObject(state, object, 'ancestor rejected');
  }
  return { objects, houseParent };
}

/** a region's own number: KLADR/KATO first two digits, KATOTTG `UA<2 digits>` */
export function regionNumber(object: { codes: AddressObject['codes']; key: string }): string | undefined {
  if (object.codes.kladr) return object.codes.kladr.slice(0, 2).padStart(3, '0');
  const katottg = /^katottg:UA(\d\d)/.exec(object.key);
  if (katottg) return katottg[1].padStart(3, '0');
  const kato = /^kato:(\d\d)/.exec(object.key);
  if (kato) return kato[1].padStart(3, '0');
  return undefined;
}

/** The object was numbered already (`numbered` made its parent an index). */
function numberedAlready(object: AddressObject): boolean {
  return typeof (object as unknown as MergedObject).parent === 'number';
}

/**
 * The held object becomes the merged one, its parent and municipal entity now indexes. Their codes were copied
 * in one order when they arrived (`held` in sink.ts), so objects of the same fields share hidden classes.
 */
function numbered(object: AddressObject, parent: number, municipal: number): MergedObject {
  const merged = object as unknown as MergedObject;
  merged.parent = parent;
  merged.municipal = municipal >= 0 ? municipal : undefined;
  return merged;
}
