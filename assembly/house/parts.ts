/**
 * The house parts the grammar (grammar.ts) finds, by index (HouseDetails order of conventions.md):
 *   0 house 1 case 2 build 3 liter 4 lend 5 constr 6 stead 7 entr 8 floor 9 flat 10 office 11 room
 *   12 kab 13 place 14 block 15 pav 16 sek 17 abon 18 munit
 * PARTS: PART_COUNT × [firstToken, lastToken] (−1 when absent), an i32 pair per part, carved once at setup.
 */
import { reserve, i32At, setI32 } from '../memory';
import { PART_COUNT } from '../layout';

export { PART_COUNT };
export const P_HOUSE: i32 = 0;
export const P_CASE: i32 = 1;
export const P_BUILD: i32 = 2;
export const P_LITER: i32 = 3;
export const P_LEND: i32 = 4;
export const P_CONSTR: i32 = 5;
export const P_STEAD: i32 = 6;
export const P_ENTR: i32 = 7;
export const P_FLOOR: i32 = 8;
export const P_FLAT: i32 = 9;
export const P_OFFICE: i32 = 10;
export const P_ROOM: i32 = 11;
export const P_KAB: i32 = 12;
export const P_PLACE: i32 = 13;
export const P_BLOCK: i32 = 14;
export const P_PAV: i32 = 15;
export const P_SEK: i32 = 16;
export const P_ABON: i32 = 17;
export const P_MUNIT: i32 = 18;

export let PARTS: usize = 0;

export function setupParts(): void {
  if (PARTS == 0) PARTS = reserve(<usize>(PART_COUNT * 2) << 2);
}

// @ts-ignore: decorator
@inline export function partFirst(p: i32): i32 { return i32At(PARTS, p * 2); }
// @ts-ignore: decorator
@inline export function partLast(p: i32): i32 { return i32At(PARTS, p * 2 + 1); }
// @ts-ignore: decorator
@inline export function setPart(p: i32, first: i32, last: i32): void {
  setI32(PARTS, p * 2, first);
  setI32(PARTS, p * 2 + 1, last);
}
