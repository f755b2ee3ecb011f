/**
 * A response body as JSON bytes, always equal to `Buffer.from(JSON.stringify(body))`, for less work: the
 * parts many responses share (`shared.ts`: the level of a region, city or street, the country, an empty
 * house part, a whole hint) are written the first time as any other part and their UTF-8 bytes kept beside
 * them in a WeakMap; a record is then written as short texts between copies of kept bytes, straight into the
 * slab the answer is cut from. A shared part lives as long as something holds it (the dictionary's object cache
 * holds the objects behind the levels).
 *
 * The walk goes WALK_DEPTH levels into plain objects and arrays, far enough to reach the levels of the
 * records in a hint list (`{suggestions: [record]}`), and hands what lies deeper to `JSON.stringify`
 * whole (a house part of 23 short members is written faster there). On its levels it writes strings,
 * numbers and booleans itself (one `JSON.stringify` call per member costs more than the test that a
 * string needs no escape), keeping JSON.stringify's rules: own enumerable keys in order (for-in over a plain
 * object, whose prototype adds none unless someone has polluted Object.prototype), `undefined`
 * and functions skipped as members and `null` as array items, non-finite numbers `null`; class
 * instances and `toJSON` go to `JSON.stringify`. Text between two shared parts is gathered into one
 * string before it is encoded: one encoder call per stretch.
 */
import { keepSharedBytes, sharedBytes, type JsonOut } from './shared.js';

const WALK_DEPTH = 3;

const KEYS = new Map<string, string>();
const LATER_KEYS = new Map<string, string>();

/** `"key":` */
function keyText(key: string): string {
  let text = KEYS.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (KEYS.size < 1000) KEYS.set(key, text);
  }
  return text;
}

/** `,"key":`, the text of a member after the first (kept as one string: no concatenation per member) */
function laterKeyText(key: string): string {
  let text = LATER_KEYS.get(key);
  if (text === undefined) {
    text = `,${keyText(key)}`;
    if (LATER_KEYS.size < 1000) LATER_KEYS.set(key, text);
  }
  return text;
}

/**
 * Answers are written straight into slabs, as Buffer.allocUnsafe carves small buffers from its pool (which takes
 * only buffers under 4 KB; a hint list is 5 KB): an answer is the stretch of the slab it was written in, the slab
 * is never written again below the answers it holds, and goes when the last of them does. An answer that outgrows
 * what is left of the slab moves to a fresh slab, or to a buffer of its own when larger than a slab.
 */
const SLAB_SIZE = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
let slabUsed = 0;

/**
 * The output of one `toJsonBytes` call: the buffer it is written in from `base` (the slab, or its own), the bytes
 * written so far up to `length`, and text not yet encoded.
 */
let out = slab;
let base = 0;
let length = 0;
let pending = '';

function reserve(bytes: number): void {
  if (length + bytes <= out.length) return;
  const written = length - base;
  const own = written + bytes > SLAB_SIZE;
  const next = Buffer.allocUnsafeSlow(own ? Math.max(written + bytes, written * 2) : SLAB_SIZE);
  next.set(out.subarray(base, length));
  if (!own) {
    slab = next;
    slabUsed = 0;
  }
  out = next;
  base = 0;
  length = written;
}

/**
 * Most stretches between two shared parts are a key or two (`,"area":`): ASCII, a few bytes, written here
 * byte by byte, as a call into the encoder costs more than such a stretch. Others go to the encoder.
 */
const SHORT_STRETCH = 48;

function flush(): void {
  if (pending === '') return;
  const count = pending.length;
  reserve(count * 3);
  if (count <= SHORT_STRETCH) {
    let i = 0;
    for (; i < count; i++) {
      const code = pending.charCodeAt(i);
      if (code >= 0x80) break;
      out[length + i] = code;
    }
    if (i === count) {
      length += count;
      pending = '';
      return;
    }
  }
  length += out.write(pending, length, 'utf8');
  pending = '';
}

function copy(bytes: Uint8Array): void {
  flush();
  reserve(bytes.length);
  out.set(bytes, length);
  length += bytes.length;
}

/** What an object that writes its own JSON (shared.ts `writesJson`) writes to. */
const WRITER_OUT: JsonOut = {
  text(text: string): void {
    pending += text;
  },
  bytes: copy,
};

/** A string JSON writes as it is between quotes: no quote, backslash, control character or surrogate. */
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

export function stringText(text: string): string {
  return text === '' ? '""' : PLAIN_STRING.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * Writes the JSON of `value`; false when JSON has nothing for it (`undefined`, a function, a symbol).
 * Strings, numbers and plain objects are written here: most members of a record are short or empty
 * strings, and one `JSON.stringify` call per member costs more than the test that a string needs no escape.
 */
function walk(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      pending += stringText(value);
      return true;
    case 'number':
      pending += Number.isFinite(value) ? String(value) : 'null';
      return true;
    case 'boolean':
      pending += value ? 'true' : 'false';
      return true;
    case 'undefined':
    case 'function':
    case 'symbol':
      return false;
    case 'object':
      break;
    default: {
      // bigint: JSON.stringify throws what it throws
      pending += JSON.stringify(value);
      return true;
    }
  }
  if (value === null) {
    pending += 'null';
    return true;
  }
  const known = sharedBytes(value);
  if (known === undefined) return writeObject(value, depth);
  if (typeof known === 'function') {
    known(value, WRITER_OUT);
    return true;
  }
  if (known !== null) {
    copy(known);
    return true;
  }
  // a shared part met for the first time is written here as any other, and its bytes kept
  flush();
  // from the answer's start: the answer may move to another buffer meanwhile (reserve)
  const start = length - base;
  if (!writeObject(value, depth)) return false;
  flush();
  // a copy, from Buffer's pool when small: the answer's buffer is not the part's
  keepSharedBytes(value, Buffer.from(out.subarray(base + start, length)));
  return true;
}

/** An array or an object, not a shared part. */
function writeObject(value: object, depth: number): boolean {
  if (Array.isArray(value)) {
    if (depth === 0) return writeStringified(value);
    pending += '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) pending += ',';
      if (!walk(value[i], depth - 1)) pending += 'null';
    }
    pending += ']';
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (depth === 0 || (prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return writeStringified(value);
  }
  pending += '{';
  let first = true;
  // for-in over a plain object is its own enumerable keys in order (its prototype is Object.prototype or null, tested
  // above), read from V8's enum cache: no array of keys per object
  for (const key in value) {
    // a member JSON has nothing for is dropped with its key (walk returned false before writing anything)
    const before = pending;
    pending += first ? keyText(key) : laterKeyText(key);
    if (walk((value as Record<string, unknown>)[key], depth - 1)) first = false;
    else pending = before;
  }
  pending += '}';
  return true;
}

/** What the walk does not write itself: class instances, `toJSON`, what lies deeper than WALK_DEPTH. */
function writeStringified(value: object): boolean {
  const text = JSON.stringify(value);
  if (text === undefined) return false;
  pending += text;
  return true;
}

/** `Buffer.from(JSON.stringify(value))` (`null` when JSON has nothing for it), with shared parts copied as bytes. */
export function toJsonBytes(value: unknown): Buffer {
  out = slab;
  base = slabUsed;
  length = base;
  pending = '';
  try {
    if (!walk(value, WALK_DEPTH)) pending = 'null';
    flush();
    const answer = out.subarray(base, length);
    // the slab's next answer starts past this one (8-byte aligned)
    if (out === slab) slabUsed = (length + 7) & ~7;
    return answer;
  } finally {
    pending = '';
  }
}
