/**
 * FIAS GUIDs as 16 bytes, the form every GUID column of the blob has (houses, objects, apartments); pure,
 * shared by the builder and the host (and the browser's engine).
 */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const GUID_HEX = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** Writes a GUID (any case, with or without dashes) as 16 bytes at `out[at]`; false for another shape. */
export function guidInto(text: string, out: Uint8Array, at: number): boolean {
  if (!GUID_HEX.test(text)) return false;
  const hex = text.replace(/-/g, '');
  for (let i = 0; i < 16; i++) out[at + i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return true;
}

/** The GUID at `bytes[row * 16]` in lower case with dashes; '' when absent (all zero, or past the end). */
export function guidText(bytes: ArrayLike<number>, row: number): string {
  const at = row * 16;
  if (at < 0 || at + 16 > bytes.length) return '';
  let hex = '';
  let zero = true;
  for (let i = at; i < at + 16; i++) {
    if (bytes[i] !== 0) zero = false;
    hex += HEX[bytes[i]];
  }
  if (zero) return '';
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
