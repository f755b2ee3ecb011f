/**
 * A level's fullName: its type abbreviation before or after the name, by the table in `type-placement.json`.
 * The table comes in by a JSON import, not the file system, so the browser bundle (web/) carries it too.
 */
import PLACEMENT from './type-placement.json' with { type: 'json' };
import { foldCase } from '../format/fold.js';

interface PlacementTable {
  before: string[];
  after: string[];
  /** a type abbreviation's words written out, lower case (обл: область) */
  written: Record<string, string>;
}

const TABLE: PlacementTable = PLACEMENT;

const fold = (type: string): string => foldCase(type.trim()).replace(/\.$/, '');

const EXACT = new Map<string, 'before' | 'after'>();
const FOLDED = new Map<string, 'before' | 'after'>();
for (const side of ['before', 'after'] as const) {
  for (const type of TABLE[side]) {
    EXACT.set(type, side);
    if (!FOLDED.has(fold(type))) FOLDED.set(fold(type), side);
  }
}

export function typePlacement(type: string): 'before' | 'after' {
  return EXACT.get(type) ?? FOLDED.get(fold(type)) ?? 'before';
}

/** Whether `name` holds its type's words written out (`Кемеровская область - Кузбасс` for обл). */
function typeWrittenIn(name: string, type: string): boolean {
  const written = Object.hasOwn(TABLE.written, type) ? TABLE.written[type] : undefined;
  return written !== undefined && ` ${name.toLowerCase()} `.includes(` ${written} `);
}

/**
 * `г` + `Москва` → `г Москва`; `обл` + `Кировская` → `Кировская обл`; either part empty → the other; a name that
 * writes its type out is alone (`Кемеровская область - Кузбасс`).
 */
export function levelFullName(name: string, type: string): string {
  if (!name) return '';
  if (!type || typeWrittenIn(name, type)) return name;
  return typePlacement(type) === 'after' ? `${name} ${type}` : `${type} ${name}`;
}
