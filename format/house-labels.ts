/**
 * A house label's parts in the blob's `host.houses` label table (written by dictionaries/house-store.ts, read by
 * engine/house-columns.ts and cut into offline packs by engine/packs.ts): this many pool ids a label, in the order
 * number, block (корпус), building (строение), liter, construction (сооружение).
 */
export const LABEL_PARTS = 5;
