/** Bits of a house's `host.houses.flags` byte: written by house-store.ts, read by engine/dictionary.ts. */
export const FLAG_POSSESSION = 1;
/** a land plot (a GAR stead), not a building */
export const FLAG_STEAD = 2;
export const FLAG_MULTI_FLAT = 4;
/** FLAG_MULTI_FLAT is known (a source said how many flats, or that there are none) */
export const FLAG_MULTI_FLAT_KNOWN = 8;
