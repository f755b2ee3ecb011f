/**
 * Where a country's offline packs lie under its folder (docs/OFFLINE.md): a place's pack in `places/`, its house
 * codes packs in `codes/`. The builder (web/build-packs.ts) writes them there, the web routes serve them, the widget
 * fetches and caches them: one definition for all. No imports, so the widget's bundle takes it as it is.
 */

/** A place's pack under its country's folder: its streets, sub-places and houses (`id`: packId). */
export const packFile = (id: string): string => `places/${id}.dict`;
/** A house codes pack's id: chunk `chunk` of place pack `id` (CODES_CHUNK houses a chunk, in the pack's house order). */
export const codesChunk = (id: string, chunk: number): string => `${id}-${chunk}`;
/** A house codes pack under its country's folder (`chunk`: codesChunk). */
export const codesFile = (chunk: string): string => `codes/${chunk}.dict`;
/** Every house codes pack of a place pack of the manifest, in chunk order (none for a place without houses). */
export const codesFiles = (pack: { id: string; codes: { chunks: number } | null }): string[] =>
  Array.from({ length: pack.codes?.chunks ?? 0 }, (_, chunk) => codesFile(codesChunk(pack.id, chunk)));

/** A place's pack or a house codes pack under the country's folder (packFile, codesFile) */
const PACK_FILE = /^(?:places|codes)\/([0-9a-z-]+)\.dict$/;
/** The id of the pack at `file` (a place pack's id, or a house codes pack's codesChunk), null for another file. */
export function packOfFile(file: string): string | null {
  return PACK_FILE.exec(file)?.[1] ?? null;
}
