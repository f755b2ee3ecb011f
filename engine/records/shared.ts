/**
 * Parts of records that many responses share (the level of a region, city or street, the empty level, the
 * country, an empty house part): frozen, so no response can change another's, and registered, so the
 * JSON writer (`json.ts`) encodes each once and copies its bytes after that. No Node API here: the
 * record builders run in the browser too (web/).
 */
import { foldCase } from '../../format/fold.js';

/** A shared part's JSON bytes (null until written once), or the JSON writer of an object that writes itself (`writesJson`). */
const SHARED = new WeakMap<object, Uint8Array | null | JsonWriter>();

/** Where a writer puts an object's JSON (json.ts): text, and bytes kept from before (UTF-8), in order. */
export interface JsonOut {
  text(text: string): void;
  bytes(bytes: Uint8Array): void;
}

/** Writes an object's JSON, equal to `JSON.stringify(value)`. */
export type JsonWriter = (value: any, out: JsonOut) => void;

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
  const known = SHARED.get(value);
  if (known === undefined || typeof known === 'function') SHARED.set(freezeDeep(value), null);
  return value;
}

/**
 * The JSON bytes of a shared part: its bytes once `keepSharedBytes` kept them, null while it has none yet, its writer
 * when it writes itself (`writesJson`), undefined for a value that is neither.
 */
export function sharedBytes(value: object): Uint8Array | null | JsonWriter | undefined {
  return SHARED.get(value);
}

/** Keeps the JSON bytes of a shared part (json.ts writes a part the first time it meets it, and copies these after). */
export function keepSharedBytes(value: object, bytes: Uint8Array): void {
  if (SHARED.get(value) === null) SHARED.set(value, bytes);
}

/**
 * `value`'s JSON is written by `writer` (json.ts calls it with the value as it is then, not frozen, not shared): for
 * a record of a fixed shape whose writer knows its members and keeps the text of the runs of them that repeat.
 */
export function writesJson<T extends object>(value: T, writer: JsonWriter): T {
  if (!SHARED.has(value)) SHARED.set(value, writer);
  return value;
}
