/**
 * Cadastral numbers in 8 bytes. A Rosreestr number is `AA:BB:CCCCCC[C]:N` (region, district, quarter of 6 or
 * 7 digits, plot or building number without leading zeros); ≈60 % of GAR houses carry one, each different,
 * so as text they would be the biggest house column. Packed into two u32 words (`hi`, `lo`):
 *
 *   hi  bits 0–6   AA + 1 (0: no number; EXCEPTION: see `lo`)
 *       bits 7–13  BB
 *       bit  14    the quarter has 7 digits (else 6)
 *       bits 15–31 quarter, low 17 bits
 *   lo  bits 0–24  N (< 2^25)
 *       bits 25–31 quarter, high 7 bits
 *
 * A number of another shape (leading zeros in N, N ≥ 2^25, other groups) is kept as text: `hi` = EXCEPTION
 * and `lo` is its index in a list of such texts. The builder encodes (dictionaries/house-store.ts), the host
 * decodes (host/engine/dictionary.ts); both use this module, so the two sides cannot disagree.
 */

export const CADNUM_EXCEPTION = 127;
const CANONICAL = /^(\d{2}):(\d{2}):(\d{6,7}):([1-9]\d{0,7}|0)$/;
const N_LIMIT = 1 << 25;

/**
 * Writes `text` at `out[at]`, `out[at + 1]`; a text of another shape is appended to `other` and referenced.
 * An empty text writes zeros.
 */
export function encodeCadnum(text: string | undefined, out: Uint32Array, at: number, other: string[]): void {
  if (!text) {
    out[at] = 0;
    out[at + 1] = 0;
    return;
  }
  const m = CANONICAL.exec(text);
  const n = m ? Number(m[4]) : N_LIMIT;
  if (!m || n >= N_LIMIT) {
    out[at] = CADNUM_EXCEPTION;
    out[at + 1] = other.length;
    other.push(text);
    return;
  }
  const quarter = Number(m[3]);
  out[at] = (Number(m[1]) + 1) | (Number(m[2]) << 7) | ((m[3].length === 7 ? 1 : 0) << 14) | ((quarter & 0x1ffff) << 15);
  out[at + 1] = n | ((quarter >>> 17) << 25);
}

/** The text of the number at `words[at]`, `words[at + 1]` ('' when there is none). */
export function decodeCadnum(words: Uint32Array, at: number, other: readonly string[]): string {
  const hi = words[at];
  const region = hi & 127;
  if (region === 0) return '';
  const lo = words[at + 1];
  if (region === CADNUM_EXCEPTION) return other[lo] ?? '';
  const quarter = (hi >>> 15) | ((lo >>> 25) << 17);
  const digits = (hi >>> 14) & 1 ? 7 : 6;
  return `${String(region - 1).padStart(2, '0')}:${String((hi >>> 7) & 127).padStart(2, '0')}:` +
    `${String(quarter).padStart(digits, '0')}:${lo & 0x1ffffff}`;
}
