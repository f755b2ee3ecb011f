/**
 * The hash and the sets of ids the classifier's open-addressing tables share: the name and object candidates
 * (candidates.ts), the hit words (leaf-hits.ts), the deferred areas' words and objects (deferred-areas.ts) and the
 * names two hit words share (bounds.ts). A set of ids is `cap` i32 entries, −1 empty, emptied through the list of
 * the entries it used, so a call costs what it touched.
 */

// @ts-ignore: decorator
@inline export function hash(v: i32): i32 {
  return <i32>((<u32>v * 2654435761) >> 16); // 16 bits: the tables hold 65,536 slots (a street name repeats
  // thousands of times in a national dictionary)
}

/**
 * The entry of `id` in an open-addressing set of ids (`cap` i32 entries, −1 empty: AREA_SEEN, SHARED), or the empty
 * entry where it would go.
 */
export function idEntry(table: usize, cap: i32, id: i32): usize {
  let i = hash(id) & (cap - 1);
  while (true) {
    const at = table + (<usize>i << 2);
    const v = load<i32>(at);
    if (v == id || v < 0) return at;
    i = (i + 1) & (cap - 1);
  }
}

/** Empties the `count` entries of such a set whose indexes `used` lists. */
export function clearIds(table: usize, used: usize, count: i32): void {
  for (let k = 0; k < count; k++) store<i32>(table + (<usize>load<i32>(used + (<usize>k << 2)) << 2), -1);
}
