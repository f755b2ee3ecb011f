/**
 * Flat XML: files of one root element holding one element per record, attributes only — the shape of
 * every GAR table (`<HOUSES><HOUSE ID="1" OBJECTID="5" HOUSENUM="7а" … /><HOUSE … />…</HOUSES>`). A byte
 * scanner for that shape instead of a general parser (saxes), because the national GAR is ≈ 90 GB of
 * such XML and a general parser spends its time on characters nobody reads.
 *
 * How: the inflated chunks are scanned as bytes, one table lookup per byte (≈ 3.5 ns a byte on the 2-core
 * build machine, ≈ 2.5× a loop that only compares bytes). Attribute names are matched against the few the
 * caller asked for (the layout) by length, first and last byte, then compared; values are not decoded: a
 * record holds their byte offsets, and the reader takes a number (digits parsed in place), a string
 * (decoded from UTF-8 only for the attributes it keeps) or a comparison (`is`, `compare`) that never
 * makes a string. A record cut by a chunk boundary is completed with the start of the next chunk (the
 * chunk itself is not copied).
 *
 * XML as saxes reads it, for what this shape can hold: the five entities and character references
 * (`&quot;`, `&#1040;`, `&#x411;`), attribute-value normalization (tab, CR, LF, CRLF → one space), either
 * quote, spaces around `=`, a BOM, the declaration, comments, whitespace or text between records, and
 * `<R …></R>` as well as `<R …/>`. Stops with the file, the record number and the byte offset on what a
 * broken file shows: a truncated file, unclosed or mismatched tags, a `<` or an unknown entity in a value,
 * a missing quote or `=`, a duplicate attribute the reader asked for, control characters, a nested element
 * inside a record. Not a validating parser: names are not checked against the XML name grammar, and an
 * attribute nobody asked for is skipped without looking at it beyond its quotes.
 */

import { WasmRecords } from './flat-xml-wasm.js';

/** The record element and the attributes to read from it, in slot order. */
export interface RecordShape {
  readonly element: string;
  readonly names: readonly string[];
}

/** Attribute names and their slots: `layout.OBJECTID` is the slot a record's accessors take. */
export type RecordLayout<Name extends string> = RecordShape & { readonly names: readonly Name[] } & { readonly [K in Name]: number };

/** The record element and the attributes a reader wants from it, in slot order. */
export function recordLayout<const Name extends string>(element: string, names: readonly Name[]): RecordLayout<Name> {
  const layout: Record<string, unknown> = { element, names };
  names.forEach((name, slot) => {
    if (name === 'element' || name === 'names') throw new Error(`recordLayout: attribute name ${name} is reserved`);
    layout[name] = slot;
  });
  return layout as RecordLayout<Name>;
}

// byte classes inside a quoted value: 0 plain, else one of these
const VALUE_QUOTE = 1;
const VALUE_AMP = 2;
const VALUE_LESS = 3;
const VALUE_SPACE = 4; // tab, CR, LF: normalized to a space
const VALUE_CONTROL = 5; // other C0 controls: not XML characters
const VALUE_GREATER = 6; // allowed, but may be the end of the scanned bytes
const VALUE_CLASS = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) VALUE_CLASS[b] = VALUE_CONTROL;
VALUE_CLASS[0x09] = VALUE_CLASS[0x0a] = VALUE_CLASS[0x0d] = VALUE_SPACE;
VALUE_CLASS[0x22] = VALUE_CLASS[0x27] = VALUE_QUOTE;
VALUE_CLASS[0x26] = VALUE_AMP;
VALUE_CLASS[0x3c] = VALUE_LESS;
VALUE_CLASS[0x3e] = VALUE_GREATER;

// flags of a value
const HAS_ENTITY = 1;
const HAS_SPACE_CONTROL = 2;

/** tab, LF, CR, space */
const SPACE = new Uint8Array(256);
SPACE[0x09] = SPACE[0x0a] = SPACE[0x0d] = SPACE[0x20] = 1;
/** what ends a name: space, `=`, `/`, `>` */
const NAME_STOP = new Uint8Array(SPACE);
NAME_STOP[0x3d] = NAME_STOP[0x2f] = NAME_STOP[0x3e] = 1;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const QUESTION = 0x3f;
const BANG = 0x21;
const isSpace = (b: number) => SPACE[b] === 1;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** the key of an attribute name in the layout's table: its length, first and last byte (collisions are compared) */
const nameKey = (length: number, first: number, last: number) => (Math.imul((length << 16) | (first << 8) | last, 0x9e3779b1) >>> 16) | 0;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An XML 1.0 Char, as character references must be. */
function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** Node's decoding behind `toString('utf8', start, end)`, without its argument checks (untyped in @types/node) */
interface Utf8Slice {
  utf8Slice(start: number, end: number): string;
}

/** An entity or character reference that is not one (checked for every value with a `&` as it is scanned). */
class MalformedValue extends Error {}

function decodeEntities(text: string): string {
  return text.replace(/&([^;&]*);|&/g, (match, entity: string | undefined) => {
    if (entity === undefined) throw new MalformedValue(`"&" not part of an entity or character reference`);
    if (entity[0] !== '#') {
      const known = ENTITIES[entity];
      if (known === undefined) throw new MalformedValue(`undefined entity &${entity};`);
      return known;
    }
    const code = entity[1] === 'x' ? (/^#x[0-9a-f]+$/i.test(entity) ? parseInt(entity.slice(2), 16) : NaN) : /^#[0-9]+$/.test(entity) ? parseInt(entity.slice(1), 10) : NaN;
    if (!isXmlChar(code)) throw new MalformedValue(`malformed character reference ${match}`);
    return String.fromCodePoint(code);
  });
}

/**
 * One record of the current chunk: valid only inside the callback that receives it (the scanner reuses it
 * and its bytes for the next record). Accessors take a slot of the layout; absent attributes read as
 * `undefined` (`optional`), `''` (`text`) or `NaN` (`int`), as `Number(attributes.X)` would.
 */
export class FlatRecord {
  /** the element name of the record (the layout's, or another element under the root) */
  element = '';
  /** records seen in this file so far, this one included */
  index = 0;
  /** byte offset of the record in the file */
  offset = 0;
  /** @internal */ bytes: Buffer = Buffer.alloc(0);
  /**
   * @internal slot s of the record is at `base + s` of these: its value's start (−1 when absent) and end in
   * `bytes`, and its flags. They are the scanner's own arrays, or those of many records read at once (the
   * WebAssembly scanner's, a batch from a scan thread), stepped through by `base`.
   */
  starts: Int32Array;
  ends: Int32Array;
  flags: Uint8Array;
  base = 0;

  constructor(slots: number) {
    this.starts = new Int32Array(slots).fill(-1);
    this.ends = new Int32Array(slots);
    this.flags = new Uint8Array(slots);
  }

  has(slot: number): boolean {
    return this.starts[this.base + slot] >= 0;
  }

  /** the decoded value, or `undefined` when the attribute is absent */
  optional(slot: number): string | undefined {
    const at = this.base + slot;
    const start = this.starts[at];
    if (start < 0) return undefined;
    const text = (this.bytes as Buffer & Utf8Slice).utf8Slice(start, this.ends[at]);
    const flags = this.flags[at];
    if (flags === 0) return text;
    const normalized = flags & HAS_SPACE_CONTROL ? text.replace(/\r\n|[\t\n\r]/g, ' ') : text;
    return flags & HAS_ENTITY ? decodeEntities(normalized) : normalized;
  }

  /** the decoded value, `''` when absent */
  text(slot: number): string {
    return this.optional(slot) ?? '';
  }

  /** `Number(value)`: digits are read in place; `NaN` when absent */
  int(slot: number): number {
    const i = this.base + slot;
    const start = this.starts[i];
    if (start < 0) return NaN;
    const end = this.ends[i];
    if (this.flags[i] === 0 && end > start && end - start <= 15) {
      const bytes = this.bytes;
      let n = 0;
      let at = start;
      for (; at < end; at++) {
        const digit = bytes[at] - 0x30;
        if (digit < 0 || digit > 9) break;
        n = n * 10 + digit;
      }
      if (at === end) return n;
    }
    return Number(this.optional(slot));
  }

  /**
   * The numbers of a dot-separated path (GAR's `PATH="1460768.1461520.72668575"`, root first) into `out`,
   * read in place; returns how many there are, or −1 when the attribute is absent or not such a path
   * (empty parts, other characters, more numbers than `out` holds).
   */
  path(slot: number, out: Float64Array): number {
    const i = this.base + slot;
    let bytes: Uint8Array = this.bytes;
    let start = this.starts[i];
    if (start < 0) return -1;
    let end = this.ends[i];
    if (this.flags[i] !== 0) {
      bytes = Buffer.from(this.text(slot), 'latin1');
      start = 0;
      end = bytes.length;
    }
    let count = 0;
    let n = 0;
    let digits = 0;
    for (let at = start; at <= end; at++) {
      const byte = at === end ? 0x2e : bytes[at];
      if (byte === 0x2e) {
        if (digits === 0 || count === out.length) return -1;
        out[count++] = n;
        n = 0;
        digits = 0;
      } else if (byte >= 0x30 && byte <= 0x39) {
        n = n * 10 + byte - 0x30;
        digits++;
      } else {
        return -1;
      }
    }
    return count;
  }

  /**
   * The value is ASCII digits only (`/^\d+$/`), exactly `count` of them when given. Read in place unless
   * the value holds an entity or a tab or line break.
   */
  isDigits(slot: number, count = 0): boolean {
    const i = this.base + slot;
    const start = this.starts[i];
    if (start < 0) return false;
    if (this.flags[i] !== 0) {
      const value = this.text(slot);
      return (count === 0 || value.length === count) && /^\d+$/.test(value);
    }
    const end = this.ends[i];
    if (end === start || (count !== 0 && end - start !== count)) return false;
    const bytes = this.bytes;
    for (let at = start; at < end; at++) if (bytes[at] < 0x30 || bytes[at] > 0x39) return false;
    return true;
  }

  /** the value is `expected`, an ASCII string (an absent attribute is nothing) */
  is(slot: number, expected: string): boolean {
    const k = this.base + slot;
    const start = this.starts[k];
    if (start < 0) return false;
    const length = this.ends[k] - start;
    if (this.flags[k] !== 0) return this.optional(slot) === expected;
    if (length !== expected.length) return false; // `expected` is ASCII, one byte per character
    const bytes = this.bytes;
    for (let i = 0; i < length; i++) if (bytes[start + i] !== expected.charCodeAt(i)) return false;
    return true;
  }

  /**
   * Sign of the value against `other` in JavaScript string order (UTF-8 byte order is the same while
   * `other` is ASCII; past a non-ASCII character of `other` the value is decoded); the attribute must be
   * present.
   */
  compare(slot: number, other: string): number {
    const k = this.base + slot;
    if (this.flags[k] !== 0) {
      const value = this.text(slot);
      return value < other ? -1 : value > other ? 1 : 0;
    }
    const bytes = this.bytes;
    const start = this.starts[k];
    const length = this.ends[k] - start;
    const common = Math.min(length, other.length);
    for (let i = 0; i < common; i++) {
      const code = other.charCodeAt(i);
      if (code > 0x7f) {
        const value = this.text(slot);
        return value < other ? -1 : value > other ? 1 : 0;
      }
      const difference = bytes[start + i] - code;
      if (difference !== 0) return difference < 0 ? -1 : 1;
    }
    return length === other.length ? 0 : length < other.length ? -1 : 1;
  }
}

/** the part of the file the scanner is in */
const enum Part {
  prolog, // before the root element
  records, // inside the root, between records
  recordContent, // inside `<R …>` until `</R>`
  epilog, // after the root element
}

/** longest record (or carried construct) accepted: a GAR record is a few hundred bytes */
const MAX_CARRY = 16 * 2 ** 20;

/**
 * The scanner of one file: `write` chunks, `end` at the end. Calls `onRecord` for every record element
 * (the layout's element and any other under the root: check `record.element`).
 */
export class FlatXmlScanner {
  private readonly record: FlatRecord;
  /** the record's arrays for the records read here (one at a time, at base 0) */
  private readonly own: { starts: Int32Array; ends: Int32Array; flags: Uint8Array };
  /** open addressing: hash of an attribute name → slot + 1 */
  private readonly table: Int32Array;
  private readonly tableHashes: Int32Array;
  private readonly nameBytes: Buffer[];
  private readonly elementBytes: Buffer;
  private carry: Buffer | undefined;
  /** file offset of the current buffer's first byte */
  private base = 0;
  private part = Part.prolog;
  private first = true;
  private root = '';
  private records = 0;
  /** the records of the canonical shape are read by the WebAssembly scanner (flat-xml-wasm.ts) when it is built */
  private fast: WasmRecords | null;

  constructor(
    private readonly file: string,
    private readonly layout: RecordShape,
    private readonly onRecord: (record: FlatRecord) => void,
    options: FlatXmlOptions = {},
  ) {
    this.fast = options.wasm === false ? null : WasmRecords.get();
    this.record = new FlatRecord(layout.names.length);
    this.own = { starts: this.record.starts, ends: this.record.ends, flags: this.record.flags };
    this.elementBytes = Buffer.from(layout.element, 'utf8');
    this.nameBytes = layout.names.map((name) => Buffer.from(name, 'utf8'));
    let size = 16;
    while (size < layout.names.length * 4) size *= 2;
    this.table = new Int32Array(size);
    this.tableHashes = new Int32Array(size);
    this.nameBytes.forEach((bytes, slot) => {
      const hash = nameKey(bytes.length, bytes[0], bytes[bytes.length - 1]);
      let at = hash & (size - 1);
      while (this.table[at] !== 0) at = (at + 1) & (size - 1);
      this.table[at] = slot + 1;
      this.tableHashes[at] = hash;
    });
  }

  /** records seen so far */
  get count(): number {
    return this.records;
  }

  /** of those, the records the WebAssembly scanner read */
  wasmRecords = 0;

  write(chunk: Buffer): void {
    if (this.first) {
      if (this.carry) {
        chunk = Buffer.concat([this.carry, chunk]);
        this.carry = undefined;
      }
      if (chunk.length < 3 && BOM.subarray(0, chunk.length).equals(chunk)) {
        this.carry = chunk;
        return;
      }
      this.first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        chunk = chunk.subarray(3);
        this.base = 3;
      }
    }
    let from = 0;
    if (this.carry) {
      from = this.joinCarry(chunk);
      if (from < 0) return;
    }
    // scanned where the WebAssembly scanner reads it (a copy, valid until the next chunk); the rest is kept from
    // the chunk itself
    const stopped = this.fast ? this.scan(this.fast.load(chunk), from, true) : this.scan(chunk, from);
    if (stopped < chunk.length) this.keep(chunk.subarray(stopped));
    this.base += stopped;
  }

  /**
   * The construct cut by the last chunk boundary, completed with the start of `chunk` (a few KB, more
   * only if it needs them: the whole chunk is not copied). Returns where scanning goes on in `chunk`, or
   * -1 when all of it went into the carry.
   */
  private joinCarry(chunk: Buffer): number {
    const carry = this.carry!;
    this.carry = undefined;
    for (let take = Math.min(chunk.length, 4096); ; take = Math.min(chunk.length, take * 4)) {
      const joined = Buffer.concat([carry, chunk.subarray(0, take)]);
      // up to the end of the carried construct: the records after it are read where the chunk is
      const stopped = this.scan(joined, 0, false, carry.length);
      if (stopped >= carry.length) {
        this.base += carry.length;
        return stopped - carry.length;
      }
      if (take === chunk.length) {
        this.keep(joined.subarray(stopped));
        this.base += stopped;
        return -1;
      }
    }
  }

  private keep(rest: Buffer): void {
    if (rest.length > MAX_CARRY) this.fail(0, `a construct longer than ${MAX_CARRY} bytes (not a flat record file?)`);
    this.carry = rest;
  }

  /** the end of the file: everything must be closed */
  end(): number {
    if (this.carry && this.carry.length > 0) {
      const rest = this.carry;
      if (!(this.part === Part.epilog || this.part === Part.prolog) || rest.some((b) => !isSpace(b))) {
        this.fail(0, this.part === Part.prolog && !this.root ? 'truncated XML: no root element' : `truncated XML: the file ends inside ${this.describe(rest)}`);
      }
    }
    if (this.part === Part.prolog) this.fail(0, 'truncated XML: no root element');
    if (this.part !== Part.epilog) this.fail(0, `truncated XML: <${this.root}> not closed`);
    return this.records;
  }

  private describe(rest: Buffer): string {
    const text = rest.subarray(0, 60).toString('utf8');
    return `"${text}${rest.length > 60 ? '…' : ''}"`;
  }

  private fail(at: number, message: string): never {
    const where = this.records > 0 ? `after element ${this.records} <${this.record.element}>` : 'before the first record';
    throw new Error(`${this.file}: malformed XML at byte ${this.base + at}, ${where}: ${message}`);
  }

  /**
   * Scans what is complete in `bytes` from `at` (up to `until`, or past it to the end of a construct there);
   * returns where the unfinished rest starts. `fast`: `bytes` is the WebAssembly scanner's input, which reads
   * the records of the canonical shape, this the rest.
   */
  private scan(bytes: Buffer, at: number, fast = false, until = bytes.length): number {
    const length = bytes.length;
    const limit = bytes.lastIndexOf(GT);
    while (at < until) {
      if (fast && this.part === Part.records) {
        at = this.fastRecords(bytes, at, limit);
        if (at >= length) break;
      }
      const b = bytes[at];
      if (b !== LT) {
        if (isSpace(b)) {
          at++;
          continue;
        }
        if (this.part === Part.prolog || this.part === Part.epilog) this.fail(at, `text outside the root element`);
        // text between records or inside one: not read, but it must not hide a broken entity or tag
        const next = bytes.indexOf(LT, at);
        if (next < 0) return length;
        at = next;
        continue;
      }
      if (at + 1 >= length) return at;
      const kind = bytes[at + 1];
      if (kind === QUESTION) {
        const close = bytes.indexOf('?>', at + 2);
        if (close < 0) return at;
        at = close + 2;
        continue;
      }
      if (kind === BANG) {
        if (length - at < 4) return at;
        if (bytes[at + 2] !== 0x2d || bytes[at + 3] !== 0x2d) this.fail(at, `unsupported markup ${this.describe(bytes.subarray(at))} (DOCTYPE, CDATA)`);
        const close = bytes.indexOf('-->', at + 4);
        if (close < 0) return at;
        at = close + 3;
        continue;
      }
      if (kind === SLASH) {
        const close = bytes.indexOf(GT, at + 2);
        if (close < 0) return at;
        this.closeTag(bytes, at, close);
        at = close + 1;
        continue;
      }
      const next = this.startTag(bytes, at, limit);
      if (next < 0) return at;
      at = next;
    }
    return at < length ? at : length;
  }

  /** The canonical records from `at` on, read by the WebAssembly scanner; returns where it stopped. */
  private fastRecords(bytes: Buffer, at: number, limit: number): number {
    const fast = this.fast!;
    if (!fast.use(this.layout)) {
      this.fast = null;
      return at;
    }
    const record = this.record;
    const slots = this.layout.names.length;
    for (;;) {
      const next = fast.scan(at, limit, bytes.length);
      const count = fast.count;
      if (count === 0) return next;
      this.wasmRecords += count;
      // the record steps through the scanner's arrays (views of its memory: set after `scan`, which may grow it)
      record.bytes = bytes;
      record.element = this.layout.element;
      record.starts = fast.starts;
      record.ends = fast.ends;
      record.flags = fast.flags;
      const offsets = fast.offsets;
      for (let r = 0; r < count; r++) {
        record.base = r * slots;
        record.index = ++this.records;
        record.offset = this.base + offsets[r];
        try {
          this.onRecord(record);
        } catch (error) {
          throw recordError(this.file, record, error);
        }
      }
      at = next;
    }
  }

  private closeTag(bytes: Buffer, at: number, close: number): void {
    let end = close;
    while (end > at + 2 && isSpace(bytes[end - 1])) end--;
    const name = bytes.toString('utf8', at + 2, end);
    if (this.part === Part.recordContent) {
      if (name !== this.record.element) this.fail(at, `</${name}> closes <${this.record.element}>`);
      this.part = Part.records;
    } else if (this.part === Part.records) {
      if (name !== this.root) this.fail(at, `</${name}> closes <${this.root}>`);
      this.part = Part.epilog;
    } else this.fail(at, `</${name}> without an open element`);
  }

  /** A start tag at `at` (`<` then a name): returns the offset after it, or -1 when it is not complete. */
  private startTag(bytes: Buffer, at: number, limit: number): number {
    if (limit < at) return -1;
    let p = at + 1;
    while (NAME_STOP[bytes[p]] === 0) p++;
    if (p === at + 1) this.fail(at, `"<" without an element name`);
    const nameEnd = p;
    if (this.part === Part.records) return this.recordTag(bytes, at, nameEnd, limit);
    if (this.part === Part.recordContent) this.fail(at, `<${bytes.toString('utf8', at + 1, nameEnd)}> inside the record <${this.record.element}> (records are elements with attributes only)`);
    if (this.part === Part.epilog) this.fail(at, `<${bytes.toString('utf8', at + 1, nameEnd)}> after the root element`);
    // the root: its attributes are not read, only skipped
    const end = this.skipAttributes(bytes, nameEnd);
    if (end < 0) return -1;
    this.root = bytes.toString('utf8', at + 1, nameEnd);
    this.part = bytes[end - 2] === SLASH ? Part.epilog : Part.records;
    return end;
  }

  private skipAttributes(bytes: Buffer, from: number): number {
    const length = bytes.length;
    let quote = 0;
    for (let p = from; p < length; p++) {
      const b = bytes[p];
      if (quote !== 0) {
        if (b === quote) quote = 0;
        else if (b === LT) this.fail(p, `"<" in an attribute value`);
      } else if (b === 0x22 || b === 0x27) quote = b;
      else if (b === GT) return p + 1;
      else if (b === LT) this.fail(p, `"<" inside a tag`);
    }
    return -1;
  }

  /**
   * A record `<NAME a="v" …/>`: attributes of the layout noted, the others skipped. Returns the offset
   * after the tag, or -1 when the tag is not complete in `bytes`. `limit` is the offset of the last `>`
   * in `bytes`, after `at`.
   */
  private recordTag(bytes: Buffer, at: number, elementEnd: number, limit: number): number {
    const record = this.record;
    const index = this.records + 1;
    const { starts, ends, flags } = this.own;
    starts.fill(-1);
    record.starts = starts;
    record.ends = ends;
    record.flags = flags;
    record.base = 0;
    const table = this.table;
    const tableHashes = this.tableHashes;
    const mask = table.length - 1;
    let p = elementEnd;
    let previousEnd = elementEnd;
    // every loop below stops at the `>` at `limit` (the last one in `bytes`): no length checks
    for (;;) {
      // whitespace, then the end of the tag or an attribute name
      let b = bytes[p];
      while (SPACE[b] === 1) b = bytes[++p];
      if (b === SLASH || b === GT) break;
      if (p === previousEnd) this.fail(p, 'no space before an attribute');
      const nameStart = p;
      while (NAME_STOP[b] === 0) b = bytes[++p];
      const nameStop = p;
      if (nameStop === nameStart) this.fail(p, 'an attribute without a name');
      // `name="` is the rule; spaces around `=` and single quotes the exception
      let quote = bytes[p + 1];
      if (b === EQUALS && quote === 0x22) p += 2;
      else {
        while (SPACE[b] === 1) b = bytes[++p];
        if (b !== EQUALS) this.fail(p, `attribute ${bytes.toString('utf8', nameStart, nameStop)} without "="`);
        b = bytes[++p];
        while (SPACE[b] === 1) b = bytes[++p];
        if (b !== 0x22 && b !== 0x27) this.fail(p, `attribute ${bytes.toString('utf8', nameStart, nameStop)}: value not quoted`);
        quote = b;
        p++;
      }
      const valueStart = p;
      let valueFlags = 0;
      for (; ; p++) {
        const kind = VALUE_CLASS[bytes[p]];
        if (kind === 0) continue;
        if (kind === VALUE_QUOTE) {
          if (bytes[p] === quote) break;
        } else if (kind === VALUE_GREATER) {
          // `>` may stand in a value; the one at `limit` does, so the tag goes on in the next chunk
          if (p === limit) return -1;
        } else if (kind === VALUE_AMP) valueFlags |= HAS_ENTITY;
        else if (kind === VALUE_SPACE) valueFlags |= HAS_SPACE_CONTROL;
        else if (kind === VALUE_LESS) this.fail(p, `"<" in the value of ${bytes.toString('utf8', nameStart, nameStop)}`);
        else this.fail(p, `control character 0x${bytes[p].toString(16)} in the value of ${bytes.toString('utf8', nameStart, nameStop)}`);
      }
      const valueEnd = p++;
      previousEnd = p;
      if (valueFlags & HAS_ENTITY) this.checkEntities(bytes, valueStart, valueEnd);
      // one of the layout's attributes?
      const hash = nameKey(nameStop - nameStart, bytes[nameStart], bytes[nameStop - 1]);
      let probe = hash & mask;
      for (let slot1 = table[probe]; slot1 !== 0; slot1 = table[(probe = (probe + 1) & mask)]) {
        if (tableHashes[probe] !== hash) continue;
        const slot = slot1 - 1;
        const wanted = this.nameBytes[slot];
        if (wanted.length !== nameStop - nameStart || !sameBytes(bytes, nameStart, wanted)) continue;
        if (starts[slot] >= 0) this.fail(nameStart, `duplicate attribute ${this.layout.names[slot]}`);
        starts[slot] = valueStart;
        ends[slot] = valueEnd;
        flags[slot] = valueFlags;
        break;
      }
    }
    // `/>` or `>` (a `/` is before `limit`: there is a byte after it)
    let end = p + 1;
    if (bytes[p] === SLASH) {
      if (bytes[p + 1] !== GT) this.fail(p, '"/" not followed by ">"');
      end = p + 2;
    } else this.part = Part.recordContent;
    // the record is complete: hand it out
    this.records = index;
    record.index = index;
    record.offset = this.base + at;
    record.bytes = bytes;
    const element = this.elementBytes;
    record.element =
      elementEnd - at - 1 === element.length && sameBytes(bytes, at + 1, element) ? this.layout.element : bytes.toString('utf8', at + 1, elementEnd);
    try {
      this.onRecord(record);
    } catch (error) {
      throw recordError(this.file, record, error);
    }
    return end;
  }

  /** every value with a `&` is checked when scanned, read or not, as a parser would */
  private checkEntities(bytes: Buffer, start: number, end: number): void {
    try {
      decodeEntities(bytes.toString('latin1', start, end));
    } catch (error) {
      if (!(error instanceof MalformedValue)) throw error;
      this.fail(start, error.message);
    }
  }
}

/** an error of the code that read `record`, naming the file, the record and where it is */
export function recordError(file: string, record: FlatRecord, error: unknown): Error {
  return new Error(`${file}: element ${record.index} <${record.element}> at byte ${record.offset}: ${(error as Error).message}`, { cause: error });
}

function sameBytes(bytes: Uint8Array, at: number, expected: Uint8Array): boolean {
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

export interface FlatXmlOptions {
  /** read the records of the canonical shape with the WebAssembly scanner when it is built (default true) */
  wasm?: boolean;
}

/**
 * Scan a stream of a flat XML file (`file` names it in errors); resolves with the number of records.
 * `onRecord` gets a reused `FlatRecord`, valid only during the call.
 */
export async function streamFlatXml(
  stream: AsyncIterable<Buffer>,
  file: string,
  layout: RecordShape,
  onRecord: (record: FlatRecord) => void,
  /** awaited after each chunk when it returns a promise (backpressure of a consumer of the records) */
  afterChunk?: () => Promise<void> | undefined,
  options: FlatXmlOptions = {},
): Promise<number> {
  const scanner = new FlatXmlScanner(file, layout, onRecord, options);
  try {
    for await (const chunk of stream) {
      scanner.write(chunk);
      const pause = afterChunk?.();
      if (pause) await pause;
    }
  } catch (error) {
    if ((error as Error).message.startsWith(`${file}: `)) throw error;
    throw new Error(`${file}: read failed after element ${scanner.count}: ${(error as Error).message}`, { cause: error });
  }
  return scanner.end();
}
