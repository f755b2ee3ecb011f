/**
 * The hand-written WASM adapter: a few dozen lines around WebAssembly.instantiate (docs/DESIGN.md,
 * "WASM ABI"). One instance per loaded dictionary. Strings go in as UTF-16 code units written with
 * charCodeAt into the input region; results come back as i32 records read from the result region.
 * Typed-array views are rebuilt whenever memory has grown: growing detaches the old buffer, and a view of a
 * detached buffer has length 0, a test cheaper than asking `memory.buffer` on every read.
 */

export interface CoreExports {
  memory: WebAssembly.Memory;
  setup(): void;
  reserve(bytes: number): number;
  attach(kind: number, ptr: number, count: number): number;
  index(): number;
  inputPtr(): number;
  inputCapacity(): number;
  resultPtr(): number;
  ping(x: number): number;
  standardize(len: number): number;
  parseHouse(len: number): number;
  suggest(len: number, max: number, prefix: number): number;
  /** 1 when the last `suggest` read a land plot's number, typed with its keyword, as the house (`участок 2`) */
  hintsAskStead(): number;
  /** nearest point of `level` (0 any, 8 houses) within `radius` m, in object `within`'s subtree (−1 any); RESULT [kind, id, distance] */
  nearest(lat: number, lon: number, level: number, radius: number, within: number): number;
  nearestMetro(lat: number, lon: number, max: number, radius: number): number;
  parentOfHouse(id: number): number;
  /** the next house after `after` of house `id`'s object keyed as house `id` is (−1 none): `2` and stead `№2` */
  houseTwin(id: number, after: number): number;
}

/** The test hooks of the debug build (assembly/testing.ts); the release build has none (`WasmCore.hooks`). */
export interface CoreTestHooks {
  /** diagnostics: 0 fuzzy walks, 1 trie nodes they visited (since start), 2 candidates the last call collected, 3 lookups answered from the call's memo, 4 names of the ordered rest the last call bounded one by one */
  stats(kind: number): number;
  /** the input folded as `variant` looked up as one word; `cells` 1 for the reference walk; RESULT [count, (word, cost)…] */
  lookupWord(len: number, variant: number, budget: number, prefix: number, cells: number): number;
  /** 1 makes standardize read every variant in order, none settling the call (its reference) */
  setEveryReading(on: number): void;
  /** how standardize passes the rest by once a runner-up is within the margin: 0 off, 1 on (the default), 2 checked */
  setStandardizeRaising(mode: number): void;
  /** the input folded as `variant` and tokenized (`glued` 1 splits two words glued, 2 the last as typed; `compounds` 1 joins hyphened runs); RESULT [count, (start, length, source start, source end, kind, sep, segment, value)…] */
  tokenizeText(len: number, variant: number, glued: number, compounds: number): number;
  /** the end of object o's subtree (its descendants are o + 1 … end − 1); −1 without the subtree index */
  subtreeEndOf(o: number): number;
  /** the objects the subtree index lists under a postcode (not their parent's); RESULT [count, ids…]; −1 without the index */
  postcodeObjects(postcode: number): number;
  /** house leads of object o: bit 0 a key starts with c1, bit 1 with c1 c2, bit 2 a key is the two digits c1 c2 (and one more) */
  houseLeadsOf(o: number, c1: number, c2: number): number;
}

/** Section kinds of assembly/blob.ts and abi.ts, by blob `core` member name. */
export const SECTION_KINDS: Record<string, number> = {
  objects: 0, houses: 1, houseKeys: 2, trie: 3, words: 4, postings: 5, names: 6, nameWords: 7, types: 8, metro: 11,
  houseLabels: 12, houseCoords: 13,
};
/** Record width in bytes of each section, to pass record counts to `attach`. */
export const SECTION_STRIDES: Record<string, number> = {
  objects: 40, houses: 4, houseKeys: 2, trie: 16, words: 16, postings: 4, names: 20, nameWords: 8, types: 8, metro: 8,
  houseLabels: 12, houseCoords: 8,
};

export class CoreError extends Error {}

export class WasmCore {
  readonly exports: CoreExports;
  private inputPtr: number;
  private resultPtr: number;
  private capacity: number;
  private u16!: Uint16Array;
  private i32!: Int32Array;
  private results!: Int32Array;
  /** where each attached section starts in core memory, in i32 units */
  private readonly sectionAt = new Map<string, number>();
  lastAbort = '';

  private constructor(instance: WebAssembly.Instance, core: WasmCore | null) {
    void core;
    this.exports = instance.exports as unknown as CoreExports;
    this.exports.setup();
    this.inputPtr = this.exports.inputPtr();
    this.resultPtr = this.exports.resultPtr();
    this.capacity = this.exports.inputCapacity();
    this.refresh();
  }

  static async create(wasm: BufferSource | WebAssembly.Module): Promise<WasmCore> {
    let self: WasmCore | null = null;
    const imports = {
      env: {
        abort(message: number, file: number, line: number, column: number) {
          const text = `core abort at ${line}:${column}`;
          if (self) self.lastAbort = text;
          void message;
          void file;
          throw new CoreError(text);
        },
      },
    };
    const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
    const instance = await WebAssembly.instantiate(module, imports);
    self = new WasmCore(instance, null);
    return self;
  }

  private refresh(): void {
    if (this.i32 !== undefined && this.i32.length !== 0) return;
    const buffer = this.exports.memory.buffer;
    this.u16 = new Uint16Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.results = this.i32.subarray(this.resultPtr >>> 2);
  }

  /** The debug build's test hooks; throws on the release build, which has none. */
  get hooks(): CoreTestHooks {
    const hooks = this.exports as unknown as Partial<CoreTestHooks>;
    if (typeof hooks.stats !== 'function') throw new CoreError('the core has no test hooks: load the debug build (build/wasm/core.debug.wasm)');
    return hooks as CoreTestHooks;
  }

  /** Copies a section into core memory once and attaches it. */
  attach(name: string, bytes: Uint8Array): void {
    this.reserveSection(name, bytes.byteLength)?.set(bytes);
    this.attachReserved(name);
  }

  /**
   * Room for section `name` in core memory, to be filled before `attachReserved(name)` and before anything
   * else runs in the core (memory may grow then, which detaches the view); null for a section the core
   * does not take. A blob read from a file section by section lands here with no copy in between.
   */
  reserveSection(name: string, byteLength: number): Uint8Array | null {
    if (SECTION_KINDS[name] === undefined) return null;
    const ptr = this.exports.reserve(Math.max(byteLength, 8));
    this.reserved.set(name, { ptr, byteLength });
    this.refresh();
    return new Uint8Array(this.exports.memory.buffer, ptr, byteLength);
  }

  /** Hands the core a section `reserveSection` made room for (and the caller filled). */
  attachReserved(name: string): void {
    const at = this.reserved.get(name);
    if (at === undefined) return;
    this.reserved.delete(name);
    if (this.exports.attach(SECTION_KINDS[name], at.ptr, at.byteLength / SECTION_STRIDES[name]) !== 0) {
      throw new CoreError(`core refused section ${name}`);
    }
    this.sectionAt.set(name, at.ptr >>> 2);
    this.sectionBytes.set(name, at.byteLength);
  }

  private readonly reserved = new Map<string, { ptr: number; byteLength: number }>();

  /** The byte length of an attached section (0 when absent). */
  sectionLength(name: string): number {
    return this.sectionBytes.get(name) ?? 0;
  }

  private readonly sectionBytes = new Map<string, number>();

  /** Whether a section was attached (optional ones, such as houseCoords, may be absent). */
  has(name: string): boolean {
    return this.sectionAt.has(name);
  }

  /** Where an attached section starts in core memory, in i32 units (for `i32At`); −1 when it is absent. Sections never move. */
  sectionIndex(name: string): number {
    return this.sectionAt.get(name) ?? -1;
  }

  /**
   * The i32 at `index` of core memory (a section's `sectionIndex` plus the offset within it), read in place: the
   * host keeps no copy of core sections. Callers resolve the section once; a lookup by name per read cost as
   * much as the rest of reading a hint list's levels.
   */
  i32At(index: number): number {
    this.refresh();
    return this.i32[index];
  }

  /** Writes the query into the input region; returns its length in code units. */
  write(text: string): number {
    this.refresh();
    const len = Math.min(text.length, this.capacity);
    const base = this.inputPtr >>> 1;
    for (let i = 0; i < len; i++) this.u16[base + i] = text.charCodeAt(i);
    return len;
  }

  /** The result region as i32 (valid until the next call). */
  result(): Int32Array {
    this.refresh();
    return this.results;
  }

  memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }
}
