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
 * decodes (engine/dictionary.ts); both use this module, so the two sides cannot disagree.
 */

export const CADNUM_EXCEPTION = 127;
const N_LIMIT = 1 << 25;
const COLON = 0x3a;

/** the value of `count` ASCII digits of `text` from `at`, −1 when one is not a digit */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Writes `text` at `out[at]`, `out[at + 1]`; a text of another shape is appended to `other` and referenced.
 * An empty text writes zeros. The shape, `^(\d{2}):(\d{2}):(\d{6,7}):([1-9]\d{0,7}|0)$`, is read from the
 * char codes (a regular expression and four `Number`s took ≈0.3 µs a house).
 */
export function encodeCadnum(text: string | undefined, out: Uint32Array, at: number, other: string[]): void {
  if (!text) {
    out[at] = 0;
    out[at + 1] = 0;
    return;
  }
  const length = text.length;
  const region = length >= 14 && text.charCodeAt(2) === COLON && text.charCodeAt(5) === COLON ? digitsAt(text, 0, 2) : -1;
  const district = region < 0 ? -1 : digitsAt(text, 3, 2);
  // the quarter: 6 or 7 digits, then `:`
  const wide = text.charCodeAt(12) === COLON ? 0 : text.charCodeAt(13) === COLON ? 1 : -1;
  const quarter = district < 0 || wide < 0 ? -1 : digitsAt(text, 6, 6 + wide);
  // N: one to eight digits, no leading zero unless it is 0
  const nAt = 13 + wide;
  const nLength = length - nAt;
  const n =
    quarter < 0 || nLength < 1 || nLength > 8 || (nLength > 1 && text.charCodeAt(nAt) === 0x30) ? -1 : digitsAt(text, nAt, nLength);
  if (n < 0 || n >= N_LIMIT) {
    out[at] = CADNUM_EXCEPTION;
    out[at + 1] = other.length;
    other.push(text);
    return;
  }
  out[at] = (region + 1) | (district << 7) | (wide << 14) | ((quarter & 0x1ffff) << 15);
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
