/**
 * Parts of records that many responses share (the level of a region, city or street, the empty level, the
 * country, an empty house part): frozen, so no response can change another's, and registered, so the
 * JSON writer (`json.ts`) encodes each once and copies its bytes after that. No Node API here: the
 * record builders run in the browser too (web/).
 */
import { foldCase } from '../../format/fold.js';

const SHARED = new WeakMap<object, Uint8Array | null>();

/** A name folded for comparing (trimmed, lower case, ё as е): places, countries and DaData's location names. */
export function foldName(text: string): string {
  return foldCase(text.trim());
}

function freezeDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) freezeDeep(member);
    Object.freeze(value);
  }
  return value;
}

/** Freezes `value` (deeply) and registers it: it may now appear in any number of responses. */
export function shared<T extends object>(value: T): T {
  if (!SHARED.has(value)) SHARED.set(freezeDeep(value), null);
  return value;
}

/**
 * The JSON bytes of a shared part: its bytes once `keepSharedBytes` kept them, null while it has none yet,
 * undefined for a value that is not shared.
 */
export function sharedBytes(value: object): Uint8Array | null | undefined {
  return SHARED.get(value);
}

/** Keeps the JSON bytes of a shared part (json.ts writes a part the first time it meets it, and copies these after). */
export function keepSharedBytes(value: object, bytes: Uint8Array): void {
  if (SHARED.has(value)) SHARED.set(value, bytes);
}
