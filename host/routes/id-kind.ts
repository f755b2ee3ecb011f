/**
 * Registry identifiers: the registries an id of UNKNOWN type may belong to, judged by its shape, and the
 * canonical spelling each registry's lookup expects.
 */
import type { Dictionary, Found, IdKind } from '../engine/types.js';

type KnownKind = Exclude<IdKind, 'UNKNOWN'>;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OSM = /^[RWN]\d+$/i;
const GA = /^[A-Z]{2}\d{25}$/i;

/** GUID → FIAS; 13/17/19 digits → KLADR (then GAR); other digits → GAR; R/W/N+digits → OSM; 2 letters + 25 digits → GA. */
export function candidateKinds(id: string): KnownKind[] {
  if (GUID.test(id)) return ['FIAS'];
  if (/^\d+$/.test(id)) return [13, 17, 19].includes(id.length) ? ['KLADR', 'GAR'] : ['GAR'];
  if (OSM.test(id)) return ['OSM'];
  if (GA.test(id)) return ['GA'];
  return [];
}

export function canonicalId(kind: KnownKind, id: string): string {
  const trimmed = id.trim();
  if (kind === 'FIAS') return trimmed.toLowerCase();
  if (kind === 'OSM' || kind === 'GA') return trimmed.toUpperCase();
  return trimmed;
}

/** Looks the id up in the registries `kind` allows (all plausible ones for UNKNOWN). */
export function findById(dictionary: Dictionary, kind: IdKind, id: string): Found | null {
  const kinds: KnownKind[] = kind === 'UNKNOWN' ? candidateKinds(id.trim()) : [kind];
  for (const candidate of kinds) {
    const found = dictionary.findById(candidate, canonicalId(candidate, id));
    if (found) return found;
  }
  return null;
}
