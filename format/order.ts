/**
 * Row orders without comparison sorts, shared by the builder and the host (no Node API): a national
 * dictionary sorts tens of millions of rows, and a typed-array radix sort does it in linear time and
 * 4 bytes per row.
 */

/** Row numbers 0…n−1 ordered by `keys` (stable LSD radix sort, two 16-bit passes). */
export function orderBy(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  const first = new Uint32Array(n);
  const out = new Uint32Array(n);
  const counts = new Uint32Array(0x10001);
  for (let i = 0; i < n; i++) counts[(keys[i] & 0xffff) + 1]++;
  for (let b = 1; b <= 0x10000; b++) counts[b] += counts[b - 1];
  for (let i = 0; i < n; i++) first[counts[keys[i] & 0xffff]++] = i;
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(keys[i] >>> 16) + 1]++;
  for (let b = 1; b <= 0x10000; b++) counts[b] += counts[b - 1];
  for (let j = 0; j < n; j++) {
    const row = first[j];
    out[counts[keys[row] >>> 16]++] = row;
  }
  return out;
}

/** The first index of `sorted` (ascending) whose value is ≥ `key`. */
export function lowerBound(sorted: ArrayLike<number>, key: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of `key` in `sorted` (ascending), −1 when it is not there. */
export function indexOfSorted(sorted: ArrayLike<number>, key: number): number {
  const at = lowerBound(sorted, key);
  return at < sorted.length && sorted[at] === key ? at : -1;
}

/** The big-endian u32 of the first four bytes of each 16-byte GUID (`count` of them). */
export function guidPrefixes(guids: Uint8Array, count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count && i * 16 + 16 <= guids.length; i++) {
    const at = i * 16;
    out[i] = ((guids[at] << 24) | (guids[at + 1] << 16) | (guids[at + 2] << 8) | guids[at + 3]) >>> 0;
  }
  return out;
}
