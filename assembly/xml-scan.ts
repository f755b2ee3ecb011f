/**
 * The flat-XML record scanner of the dictionary builder (dictionaries/io/flat-xml.ts), a module of its own
 * (build/wasm/xml-scan.wasm), not part of the query core. It reads the records of the canonical shape, the one
 * every GAR file has: `<R NAME="value" NAME="value" …/>`, names of letters, digits and `_:.-`, double quotes,
 * values with no entity, tab, line break, other control character or `<`. For each it writes where the
 * attributes the caller asked for (the layout) have their values; it stops at the first thing of another shape
 * (a comment, a closing tag, text, an entity, a record with content, a duplicate attribute, a broken tag, the
 * end of the complete bytes) and leaves it to the scanner in JavaScript, which reads every shape XML allows and
 * names every error. So what the two read together is what the JavaScript scanner reads alone.
 *
 * Values are searched 16 bytes at a time (SIMD): a quote, `&`, `<`, `>` or a control character ends the stretch.
 * The bytes are the caller's, copied into INPUT; a record is a few hundred bytes, so the 16-byte loads past the
 * end of a value stay inside INPUT and its padding.
 *
 * Memory: NAMES (the element and the attribute names, written by the caller), NAME_CHAR (a byte table),
 * OFFSETS (each record's offset), STARTS and ENDS (slot s of record r at r × slots + s: its value's start, −1
 * when absent, and end), INPUT (grown on demand). No allocation per call.
 */

/** slots (attributes of the layout) at most, and bytes of one name */
const MAX_SLOTS: i32 = 16;
const NAME_BYTES: i32 = 64;
/** records written per call at most */
const MAX_RECORDS: i32 = 1024;
const PADDING: i32 = 64;

const NAMES: usize = 1024;
/** the element name at NAMES, slot names at NAMES + NAME_BYTES * (1 + slot), their lengths after them */
const NAME_LENS: usize = NAMES + <usize>(NAME_BYTES * (1 + MAX_SLOTS));
const NAME_CHAR: usize = NAME_LENS + <usize>(MAX_SLOTS * 4);
const OFFSETS: usize = NAME_CHAR + 256;
const STARTS: usize = OFFSETS + <usize>(MAX_RECORDS * 4);
const ENDS: usize = STARTS + <usize>(MAX_RECORDS * MAX_SLOTS * 4);
const INPUT: usize = (ENDS + <usize>(MAX_RECORDS * MAX_SLOTS * 4) + 15) & ~15;

let elementLength: i32 = 0;
let slots: i32 = 0;
let capacity: i32 = 0;
let written: i32 = 0;

const QUOTE: u8 = 0x22;
const LT: u8 = 0x3c;
const GT: u8 = 0x3e;
const SLASH: u8 = 0x2f;
const EQUALS: u8 = 0x3d;

// @ts-ignore: decorator
@inline function byteAt(p: i32): u8 {
  return load<u8>(INPUT + <usize>p);
}

// @ts-ignore: decorator
@inline function isSpace(b: u8): bool {
  return b == 0x20 || b == 0x0a || b == 0x09 || b == 0x0d;
}

/** Where the caller writes the element name and the slot names (see NAMES). */
export function namesPtr(): usize {
  return NAMES;
}

/** The layout written at NAMES: the element's name and `count` slot names with their lengths. */
export function configure(element: i32, count: i32): void {
  elementLength = element;
  slots = count < MAX_SLOTS ? count : MAX_SLOTS;
  for (let b = 0; b < 256; b++) {
    const name = (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b == 0x5f || b == 0x3a || b == 0x2e || b == 0x2d;
    store<u8>(NAME_CHAR + <usize>b, name ? 1 : 0);
  }
}

/** The most slots and bytes of a name `configure` takes. */
export function maxSlots(): i32 {
  return MAX_SLOTS;
}
export function maxNameBytes(): i32 {
  return NAME_BYTES;
}

/** Room for `length` bytes at INPUT (grows the memory: the caller's views of it are then stale). Returns INPUT. */
export function input(length: i32): usize {
  if (length > capacity) {
    const end = INPUT + <usize>length + <usize>PADDING;
    const pages = <i32>((end + 0xffff) >> 16) - memory.size();
    if (pages > 0 && memory.grow(pages) < 0) unreachable();
    capacity = length;
  }
  memory.fill(INPUT + <usize>length, 0, PADDING);
  return INPUT;
}

export function offsetsPtr(): usize {
  return OFFSETS;
}
export function startsPtr(): usize {
  return STARTS;
}
export function endsPtr(): usize {
  return ENDS;
}

/** Records written by the last `scan`. */
export function records(): i32 {
  return written;
}

/** The slot whose name is INPUT[start, end), −1 for none. */
function slotOf(start: i32, end: i32): i32 {
  const length = end - start;
  const first = byteAt(start);
  for (let slot = 0; slot < slots; slot++) {
    if (load<i32>(NAME_LENS + (<usize>slot << 2)) != length) continue;
    const name = NAMES + <usize>(NAME_BYTES * (1 + slot));
    if (load<u8>(name) != first) continue;
    let same = true;
    for (let i = 1; i < length; i++) {
      if (load<u8>(name + <usize>i) != byteAt(start + i)) {
        same = false;
        break;
      }
    }
    if (same) return slot;
  }
  return -1;
}

/**
 * The end of the value that starts at p (its closing quote), or −1 when the value is not of the canonical shape
 * or reaches the `>` at `limit` (the last one of the complete bytes: the tag goes on in the next chunk).
 */
function valueEnd(p: i32, limit: i32): i32 {
  const quote = i8x16.splat(<i8>QUOTE);
  const amp = i8x16.splat(0x26);
  const lt = i8x16.splat(<i8>LT);
  const gt = i8x16.splat(<i8>GT);
  const space = i8x16.splat(0x20);
  while (true) {
    const v = v128.load(INPUT + <usize>p);
    const stop = v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, amp)), v128.or(v128.or(i8x16.eq(v, lt), i8x16.eq(v, gt)), i8x16.lt_u(v, space)));
    const mask = i8x16.bitmask(stop);
    if (mask == 0) {
      p += 16;
      continue;
    }
    p += ctz<i32>(mask);
    const b = byteAt(p);
    if (b == QUOTE) return p;
    if (b != GT || p == limit) return -1;
    p++;
  }
}

/**
 * One record at p (`<`): its offset and slots as record `written`; returns the offset after it, or −1 when it is
 * not of the canonical shape or not complete before `limit`.
 */
function record(p: i32, limit: i32): i32 {
  if (limit < p) return -1;
  let q = p + 1;
  for (let i = 0; i < elementLength; i++) if (byteAt(q + i) != load<u8>(NAMES + <usize>i)) return -1;
  q += elementLength;
  store<i32>(OFFSETS + (<usize>written << 2), p);
  const first = <usize>(written * slots) << 2;
  for (let slot = 0; slot < slots; slot++) store<i32>(STARTS + first + (<usize>slot << 2), -1);
  while (true) {
    let spaced = false;
    let b = byteAt(q);
    while (isSpace(b)) {
      b = byteAt(++q);
      spaced = true;
    }
    if (b == SLASH) {
      // `/>` with its `>` at or before `limit`: the one at `limit` is the last of the complete bytes
      return byteAt(q + 1) == GT && q + 1 <= limit ? q + 2 : -1;
    }
    if (!spaced) return -1;
    const nameStart = q;
    while (load<u8>(NAME_CHAR + <usize>b) != 0) b = byteAt(++q);
    if (q == nameStart || b != EQUALS || byteAt(q + 1) != QUOTE) return -1;
    const nameEnd = q;
    const start = q + 2;
    const end = valueEnd(start, limit);
    if (end < 0) return -1;
    q = end + 1;
    const slot = slotOf(nameStart, nameEnd);
    if (slot < 0) continue;
    const at = first + (<usize>slot << 2);
    if (load<i32>(STARTS + at) >= 0) return -1; // a duplicate: the JavaScript scanner names it
    store<i32>(STARTS + at, start);
    store<i32>(ENDS + at, end);
  }
  return -1;
}

/**
 * Reads records of the canonical shape from `at` in INPUT[0, length) while there are, at most MAX_RECORDS
 * (`records()` says how many); `limit` is the offset of the last `>` in the bytes. Returns where it stopped:
 * the first construct it left to the caller, or after the last record it read.
 */
export function scan(at: i32, limit: i32, length: i32): i32 {
  written = 0;
  while (at < length && written < MAX_RECORDS) {
    let b = byteAt(at);
    while (isSpace(b) && at < length) b = byteAt(++at);
    if (at >= length || b != LT) break;
    const next = record(at, limit);
    if (next < 0) break;
    written++;
    at = next;
  }
  return at;
}
