/**
 * The WebAssembly half of the flat-XML scanner (assembly/xml-scan.ts, built to build/wasm/xml-scan.wasm by
 * `npm run asbuild`): one instance per thread, shared by the scanners of that thread, configured for the layout
 * of the scanner that calls it. `FlatXmlScanner` copies each chunk into its INPUT, lets it read the records of
 * the canonical shape and reads the rest itself (flat-xml.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordShape } from './flat-xml.js';

interface XmlScanExports {
  memory: WebAssembly.Memory;
  namesPtr(): number;
  configure(element: number, count: number): void;
  maxSlots(): number;
  maxNameBytes(): number;
  input(length: number): number;
  offsetsPtr(): number;
  startsPtr(): number;
  endsPtr(): number;
  records(): number;
  scan(at: number, limit: number, length: number): number;
}

export const XML_SCAN_WASM = fileURLToPath(new URL('../../build/wasm/xml-scan.wasm', import.meta.url));

export class WasmRecords {
  private static instance: WasmRecords | null | undefined;

  /** The thread's instance; null when the module is not built (the scanner then reads every record itself). */
  static get(): WasmRecords | null {
    if (WasmRecords.instance === undefined) {
      WasmRecords.instance = existsSync(XML_SCAN_WASM) ? new WasmRecords(new WebAssembly.Module(readFileSync(XML_SCAN_WASM))) : null;
    }
    return WasmRecords.instance;
  }

  private readonly exports: XmlScanExports;
  private configured: RecordShape | null = null;
  private bytes: Buffer;
  /** per record read by the last `scan`: its offset in the chunk */
  offsets = new Int32Array(0);
  /** slot s of record r at r × slots + s: its value's start (−1: absent) and end */
  starts = new Int32Array(0);
  ends = new Int32Array(0);
  /** the flags of every value it reads: none (no entity, no tab or line break) */
  readonly flags: Uint8Array;

  private constructor(module: WebAssembly.Module) {
    this.exports = new WebAssembly.Instance(module, {}).exports as unknown as XmlScanExports;
    this.bytes = Buffer.alloc(0);
    this.views();
    this.flags = new Uint8Array(((this.exports.startsPtr() - this.exports.offsetsPtr()) / 4) * this.exports.maxSlots());
  }

  private views(): void {
    const { buffer } = this.exports.memory;
    if (this.bytes.buffer === buffer) return;
    this.bytes = Buffer.from(buffer);
    const records = (this.exports.startsPtr() - this.exports.offsetsPtr()) / 4;
    const values = records * this.exports.maxSlots();
    this.offsets = new Int32Array(buffer, this.exports.offsetsPtr(), records);
    this.starts = new Int32Array(buffer, this.exports.startsPtr(), values);
    this.ends = new Int32Array(buffer, this.exports.endsPtr(), values);
  }

  /** Takes this layout unless it is the one taken last; false when it has more slots or longer names than the module holds. */
  use(layout: RecordShape): boolean {
    if (this.configured === layout) return true;
    const element = Buffer.from(layout.element, 'utf8');
    const names = layout.names.map((name) => Buffer.from(name, 'utf8'));
    const max = this.exports.maxNameBytes();
    if (names.length > this.exports.maxSlots() || element.length > max || names.some((name) => name.length > max)) return false;
    const at = this.exports.namesPtr();
    this.bytes.set(element, at);
    names.forEach((name, slot) => this.bytes.set(name, at + max * (1 + slot)));
    const lengths = new Int32Array(this.exports.memory.buffer, at + max * (1 + this.exports.maxSlots()), names.length);
    names.forEach((name, slot) => (lengths[slot] = name.length));
    this.exports.configure(element.length, names.length);
    this.configured = layout;
    return true;
  }

  /** `chunk` copied into the module's input; the returned view of it is valid until the next call. */
  load(chunk: Uint8Array): Buffer {
    const at = this.exports.input(chunk.length);
    this.views();
    const view = this.bytes.subarray(at, at + chunk.length);
    view.set(chunk);
    return view;
  }

  /** Reads canonical records of the loaded chunk from `at`; returns where it stopped; `count`, `offsets`, `starts` and `ends` say what it read. */
  scan(at: number, limit: number, length: number): number {
    return this.exports.scan(at, limit, length);
  }

  get count(): number {
    return this.exports.records();
  }
}
