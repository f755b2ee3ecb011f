/**
 * Merge step 8, names: the names and codes people use that no registry gives an object. Popular and former
 * names of places from `data/aliases.tsv` (tab-separated: `ru city Екатеринбург Свердловская екб|е-бург|*свердловск`),
 * the old KLADR codes of objects (KLADR ALTNAMES), and the usual short forms of streets named after people
 * from `data/name-variants.tsv` (`Карла Маркса|К. Маркса|Маркса`). Both tables are data files, not code.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LEVEL_NAMES, Level } from '../source-model.js';
import type { MergedObject } from '../merged-model.js';
import { nameKey, nameKeys } from '../join-keys.js';
import { findRegion } from './regions.js';
import type { MergeState } from './state.js';

const ALIASES_FILE = fileURLToPath(new URL('../data/aliases.tsv', import.meta.url));
const NAME_VARIANTS_FILE = fileURLToPath(new URL('../data/name-variants.tsv', import.meta.url));

/** popular names from `data/aliases.tsv` */
export function applyPopularNames(state: MergeState, objects: MergedObject[]): void {
  const file = state.options.aliasesFile ?? ALIASES_FILE;
  const lines = readFileSync(file, 'utf8').split('\n');
  const byLevelName = new Map<string, MergedObject[]>();
  const keyOf = nameKeys();
  for (const object of objects) {
    const key = `${object.level}|${keyOf(object.name)}`;
    const list = byLevelName.get(key) ?? [];
    list.push(object);
    byLevelName.set(key, list);
  }
  const regionOfIndex = (object: MergedObject): MergedObject => {
    let current = object;
    while (current.parent >= 0) current = objects[current.parent];
    return current;
  };
  let applied = 0;
  lines.forEach((line, lineIndex) => {
    if (line === '' || line.startsWith('#')) return;
    const [country, levelName, name, regionName, aliases] = line.split('\t');
    if (aliases === undefined) throw new Error(`${file}:${lineIndex + 1}: expected 5 tab-separated cells`);
    if (country !== state.country) return;
    const level = LEVEL_NAMES.indexOf(levelName as (typeof LEVEL_NAMES)[number]);
    if (level < 1) throw new Error(`${file}:${lineIndex + 1}: unknown level ${levelName}`);
    let candidates: MergedObject[];
    if (level === Level.region) {
      // a region of that very name first (KZ `г Алматы`, not the `Алматинская обл` its stem finds)
      candidates = byLevelName.get(`${level}|${nameKey(name)}`) ?? [];
      if (candidates.length === 0) {
        const regionKey = findRegion(state.regions, name);
        candidates = regionKey === undefined ? [] : objects.filter((o) => o.key === regionKey);
      }
    } else {
      candidates = byLevelName.get(`${level}|${nameKey(name)}`) ?? [];
      if (regionName) {
        const regionKey = findRegion(state.regions, regionName);
        candidates = candidates.filter((c) => regionOfIndex(c).key === regionKey);
      }
    }
    if (candidates.length === 0) return;
    const target = candidates.reduce((a, b) => ((b.population ?? 0) > (a.population ?? 0) ? b : a));
    for (const cell of aliases.split('|')) {
      // `*свердловск`: a former name
      const former = cell.startsWith('*');
      const alias = former ? cell.slice(1) : cell;
      const list = former ? (target.formerNames ??= []) : (target.aliases ??= []);
      if (alias && !list.includes(alias) && nameKey(alias) !== nameKey(target.name)) list.push(alias);
    }
    applied++;
  });
  state.counts.popularNamesApplied = applied;
}

/** `data/name-variants.tsv`: `Карла Маркса|К. Маркса|Маркса` → aliases of streets named `Карла Маркса` */
export function applyNameVariants(state: MergeState, objects: MergedObject[]): void {
  const file = state.options.nameVariantsFile ?? NAME_VARIANTS_FILE;
  const variants = new Map<string, string[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [canonical, ...others] = line.split('|').map((s) => s.trim());
    if (others.length > 0) variants.set(nameKey(canonical), others);
  }
  const keyOf = nameKeys();
  for (const object of objects) {
    if (object.level !== Level.street && object.level !== Level.planStructure) continue;
    const others = variants.get(keyOf(object.name));
    if (!others) continue;
    object.aliases = [...new Set([...(object.aliases ?? []), ...others])];
    state.counts.nameVariantsApplied++;
  }
}

/** old KLADR codes (KLADR ALTNAMES, `addCodeAlias`) of the objects that now have a code */
export function applyKladrAliases(state: MergeState, objects: MergedObject[]): void {
  if (state.kladrAliases.size === 0) return;
  for (const object of objects) {
    const kladr = object.codes.kladr;
    if (!kladr) continue;
    const old = state.kladrAliases.get(kladr);
    if (!old) continue;
    object.historicalKladr = [...new Set([...(object.historicalKladr ?? []), ...old])];
    state.counts.kladrAliasesApplied++;
  }
}
