/**
 * Binary max-heaps of i64 in memory the caller reserved (an array of `size` values at `base`), and an
 * in-place heapsort. Callers pack what they order into one i64 (a bound or key in the high half, a tie-break
 * and an index in the low half), so one comparison orders records without indirection.
 */

// @ts-ignore: decorator
@inline export function heapAt(base: usize, i: i32): i64 {
  return load<i64>(base + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline export function setHeapAt(base: usize, i: i32, v: i64): void {
  store<i64>(base + (<usize>i << 3), v);
}

/** Moves the value at i down to its place among the first `size`. */
export function siftDown(base: usize, size: i32, i: i32): void {
  const v = heapAt(base, i);
  while (true) {
    let child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && heapAt(base, child + 1) > heapAt(base, child)) child++;
    if (heapAt(base, child) <= v) break;
    setHeapAt(base, i, heapAt(base, child));
    i = child;
  }
  setHeapAt(base, i, v);
}

/** Moves the value at i up to its place (a value just added at the end of a heap). */
export function siftUp(base: usize, i: i32): void {
  const v = heapAt(base, i);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heapAt(base, parent) >= v) break;
    setHeapAt(base, i, heapAt(base, parent));
    i = parent;
  }
  setHeapAt(base, i, v);
}

/** Orders the first `size` values as a max-heap. */
export function heapify(base: usize, size: i32): void {
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(base, size, i);
}

/** Removes the greatest value (at 0); returns the new size. */
export function popHeap(base: usize, size: i32): i32 {
  size--;
  if (size > 0) {
    setHeapAt(base, 0, heapAt(base, size));
    siftDown(base, size, 0);
  }
  return size;
}

/** Sorts `size` values ascending in place. */
export function sortAscending(base: usize, size: i32): void {
  heapify(base, size);
  for (let end = size - 1; end > 0; end--) {
    const top = heapAt(base, 0);
    setHeapAt(base, 0, heapAt(base, end));
    setHeapAt(base, end, top);
    siftDown(base, end, 0);
  }
}

/**
 * A max-heap entry (the reader's, the deferred areas' and their words'): the key, then index i, the earlier index
 * first at a tie.
 */
// @ts-ignore: decorator
@inline export function entryOf(key: i32, i: i32): i64 {
  return (<i64>key << 32) | <i64>(0x7fffffff - i);
}

/** The index of an `entryOf` entry. */
// @ts-ignore: decorator
@inline export function entryIndex(entry: i64): i32 {
  return 0x7fffffff - <i32>(entry & 0xffffffff);
}
