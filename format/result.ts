/**
 * The core's result region: what `standardize` and `parseHouse` (assembly/abi.ts) write and the engine
 * (engine/engine.ts) reads, as i32 indices into it. assembly/ takes these through assembly/layout.ts, generated
 * from this file by scripts/assembly-layout.ts (test/unit/assembly/layout.test.ts fails when it is stale). No Node API here.
 *
 *   [R_STATUS] 0 matched, 1 nothing matched; [1] … [10] the answer's ids and quality (abi.ts)
 *   [R_PARTS + 2p, R_PARTS + 2p + 1] start, length of house part p in the parts' text (−1 when absent)
 *   [R_LEFT] leftover span count, then (start, length) pairs indexing the input string
 *   [R_TEXT …] the parts' folded text, one char per i32, at most R_TEXT_CAPACITY
 */

export const R_STATUS = 0;
export const R_PARTS = 11;
/** the house parts of a result, in the order of engine/types.ts HOUSE_PART_KEYS */
export const PART_COUNT = 19;
export const R_LEFT = R_PARTS + PART_COUNT * 2;
/** the leftover spans a result holds at most */
export const MAX_LEFT = 32;
export const R_TEXT = R_LEFT + 1 + MAX_LEFT * 2;
export const R_TEXT_CAPACITY = 1024;
