/**
 * Registry identifiers: the registries an id of UNKNOWN type may belong to, judged by its shape, and the
 * canonical spelling each registry's lookup expects.
 */
import type { Dictionary, Found, IdKind } from '../../engine/types.js';

type KnownKind = Exclude<IdKind, 'UNKNOWN'>;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OSM = /^[RWN]\d+$/i;
const GA = /^[A-Z]{2}\d{25}$/i;

/**
 * GUID → FIAS; 13/17/19 digits → KLADR (then GAR); 11/15 digits → GAR (then KLADR without its actuality); other
 * digits → GAR; R/W/N+digits → OSM; 2 letters + 25 digits → GA.
 */
export function candidateKinds(id: string): KnownKind[] {
  if (GUID.test(id)) return ['FIAS'];
  if (/^\d+$/.test(id)) return [13, 17, 19].includes(id.length) ? ['KLADR', 'GAR'] : [11, 15].includes(id.length) ? ['GAR', 'KLADR'] : ['GAR'];
  if (OSM.test(id)) return ['OSM'];
  if (GA.test(id)) return ['GA'];
  return [];
}

/**
 * The id as its registry writes it, from the other ways clients write it: a GUID in braces or without its dashes, an
 * OSM id as OSM's own path or address (`way/123`, https://www.openstreetmap.org/node/5) or with a space (`W 123`).
 */
export function spelledId(id: string): string {
  const trimmed = id.trim();
  const braced = /^\{(.*)\}$/.exec(trimmed);
  const bare = braced ? braced[1].trim() : trimmed;
  if (/^[0-9a-f]{32}$/i.test(bare)) return bare.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  if (GUID.test(bare)) return bare;
  const osmPath = /^(?:https?:\/\/(?:www\.)?openstreetmap\.org\/)?(node|way|relation)\/(\d+)\/?$/i.exec(trimmed);
  if (osmPath) return `${osmPath[1][0].toUpperCase()}${osmPath[2]}`;
  const spaced = /^([NWR])\s+(\d+)$/i.exec(trimmed);
  if (spaced) return `${spaced[1]}${spaced[2]}`;
  return trimmed;
}

export function canonicalId(kind: KnownKind, id: string): string {
  const trimmed = id.trim();
  if (kind === 'FIAS') return trimmed.toLowerCase();
  if (kind === 'OSM' || kind === 'GA') return trimmed.toUpperCase();
  return trimmed;
}

/** Looks the id up in the registries `kind` allows (all plausible ones for UNKNOWN). */
export function findById(dictionary: Dictionary, kind: IdKind, id: string): Found | null {
  const spelled = spelledId(id);
  const kinds: KnownKind[] = kind === 'UNKNOWN' ? candidateKinds(spelled) : [kind];
  for (const candidate of kinds) {
    // an OSM id typed as a bare number: a building is most often a way, then a node, then a relation
    const ids = candidate === 'OSM' && /^\d+$/.test(spelled) ? ['W', 'N', 'R'].map((letter) => letter + spelled) : [spelled];
    for (const each of ids) {
      const found = dictionary.findById(candidate, canonicalId(candidate, each));
      if (found) return found;
    }
  }
  return null;
}
