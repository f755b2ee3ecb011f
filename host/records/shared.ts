/**
 * Parts of records that many responses share (the level of a region, city or street, the empty level, the
 * country, an empty house part): frozen, so no response can change another's, and registered, so the
 * JSON writer (`json.ts`) encodes each once and copies its bytes after that. No Node API here: the
 * record builders run in the browser too (web/).
 */
const SHARED = new WeakMap<object, Uint8Array | null>();

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

/** The JSON bytes of a shared part (encoded with `encode` the first time), or undefined for another value. */
export function sharedBytes(value: object, encode: (value: object) => Uint8Array): Uint8Array | undefined {
  const bytes = SHARED.get(value);
  if (bytes !== null) return bytes;
  const encoded = encode(value);
  SHARED.set(value, encoded);
  return encoded;
}
