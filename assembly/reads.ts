/**
 * What a query reads of the posting lists, counted (the debug build's stats 5, testing.ts): the entries of the blob's posting lists
 * (blob.ts `posting`) and of the subtree index's ordered copies of them (subtree.ts `orderedName`, `orderedKeyAt`,
 * `leafFacts`), each read counted once. A query's cost follows it, so a test can say that a hint costs what the place
 * typed holds (counted, not timed: test/unit/assembly/solve/suggest-scale.test.ts). One i32 since start, wrapping at 2^32: a
 * caller takes the difference around a call. Only the debug build counts: it alone exports `stats`, and the
 * release build (`noAssert`) keeps its posting reads free of the increment.
 */
let postingReads: i32 = 0;

/** One entry of a posting list read. */
// @ts-ignore: decorator
@inline export function countRead(): void {
  if (!ASC_NO_ASSERT) postingReads++;
}

/** Entries read since start. */
export function readsSoFar(): i32 {
  return postingReads;
}
