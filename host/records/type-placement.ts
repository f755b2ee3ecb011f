/** A level's fullName: its type abbreviation before or after the name, by the table in `type-placement.json`. */
import { readFileSync } from 'node:fs';

interface PlacementTable {
  before: string[];
  after: string[];
}

const TABLE = JSON.parse(readFileSync(new URL('./type-placement.json', import.meta.url), 'utf8')) as PlacementTable;

const fold = (type: string): string => type.trim().toLowerCase().replace(/ё/g, 'е').replace(/\.$/, '');

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

/** `г` + `Москва` → `г Москва`; `обл` + `Кировская` → `Кировская обл`; either part empty → the other. */
export function levelFullName(name: string, type: string): string {
  if (!name) return '';
  if (!type) return name;
  return typePlacement(type) === 'after' ? `${name} ${type}` : `${type} ${name}`;
}
