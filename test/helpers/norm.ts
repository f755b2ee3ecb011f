/**
 * A white-box window on the core's folded text (NORM, assembly/memory.ts), for the tests that compare
 * the core's folding with its builder twin (dictionaries/fold.ts) and check that the PLAIN variant keeps
 * length. NORM is not exported; it is found once by folding a marker and searching memory for the result,
 * so the test does not depend on the arena layout. `parseHouse` runs only the PLAIN variant and the
 * tokenizer (which joins `пр-кт` into `пркт` in place), so after it NORM holds exactly what fold.ts's
 * `foldText` should produce.
 */
import type { WasmCore } from '../../engine/wasm-core.js';

const MARKER = 'ЩЪЁЖЩЪЁЖЩЪЁЖЪЩ';
const MARKER_FOLDED = 'щъежщъежщъежъщ';

export class NormWindow {
  private constructor(private readonly core: WasmCore, private readonly offset: number) {}

  static locate(core: WasmCore): NormWindow {
    core.exports.parseHouse(core.write(MARKER));
    const u16 = new Uint16Array(core.exports.memory.buffer);
    const input = core.exports.inputPtr() >>> 1;
    outer: for (let i = 0; i + MARKER_FOLDED.length <= u16.length; i++) {
      if (i === input) continue;
      for (let k = 0; k < MARKER_FOLDED.length; k++) if (u16[i + k] !== MARKER_FOLDED.charCodeAt(k)) continue outer;
      return new NormWindow(core, i);
    }
    throw new Error('folded text of the marker not found in core memory');
  }

  /**
   * The core's PLAIN folding of `text` (after the tokenizer joined abbreviations), `length` code units;
   * past the end of the folded text come spaces (NORM is blanked first).
   */
  fold(text: string, length: number): string {
    this.core.exports.parseHouse(this.core.write(' '.repeat(Math.min(length, this.core.exports.inputCapacity()))));
    this.core.exports.parseHouse(this.core.write(text));
    const u16 = new Uint16Array(this.core.exports.memory.buffer, this.offset * 2, length);
    return String.fromCharCode(...u16);
  }
}
