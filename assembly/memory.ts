/**
 * Fixed memory regions of the core. Everything the core touches per call lives in arenas carved once
 * at start (`setupArenas`) with the stub runtime's bump allocator; nothing is allocated per request.
 *
 *   INPUT    u16 × INPUT_CAPACITY   the query, written by the host with charCodeAt
 *   RESULT   i32 × RESULT_CAPACITY  fixed-width records read by the host
 *   NORM     u16 × NORM_CAPACITY    folded text of the current variant
 *   SRC      i32 × NORM_CAPACITY    NORM index → INPUT index (translit shortens text)
 *   scratch  arenas of the stages (tokens, trie hits, candidate tables), see each stage
 */

export const INPUT_CAPACITY: i32 = 4096;
export const NORM_CAPACITY: i32 = 4096 * 2;
export const RESULT_CAPACITY: i32 = 8192;

export let INPUT: usize = 0;
export let RESULT: usize = 0;
export let NORM: usize = 0;
export let SRC: usize = 0;

let ready = false;

/** Bump-allocates `bytes` (8-aligned) that live for the life of the instance. */
export function reserve(bytes: usize): usize {
  return heap.alloc((bytes + 7) & ~7);
}

export function setupArenas(): void {
  if (ready) return;
  ready = true;
  INPUT = reserve(<usize>INPUT_CAPACITY << 1);
  RESULT = reserve(<usize>RESULT_CAPACITY << 2);
  NORM = reserve(<usize>NORM_CAPACITY << 1);
  SRC = reserve(<usize>(NORM_CAPACITY + 1) << 2);
}

// @ts-ignore: decorator
@inline export function i32At(base: usize, index: i32): i32 {
  return load<i32>(base + (<usize>index << 2));
}
// @ts-ignore: decorator
@inline export function setI32(base: usize, index: i32, value: i32): void {
  store<i32>(base + (<usize>index << 2), value);
}
// @ts-ignore: decorator
@inline export function u16At(base: usize, index: i32): i32 {
  return <i32>load<u16>(base + (<usize>index << 1));
}
// @ts-ignore: decorator
@inline export function setU16(base: usize, index: i32, value: i32): void {
  store<u16>(base + (<usize>index << 1), <u16>value);
}
