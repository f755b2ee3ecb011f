/**
 * Merge step 10, the report: the summary lines of one country's build — objects per level and per source,
 * what each step did (joins, postcodes and coordinates from Post, popular names, old KLADR codes, name
 * variants), houses, apartments, and every reject counted by source and reason (`MergeState.rejects`).
 * `npm run dict:build` prints it; a test reads it to check what a step did.
 */
import { LEVEL_NAMES } from '../source-model.js';
import type { MergedObject } from '../merged-model.js';
import type { HouseTally } from './aggregates.js';
import type { MergeState } from './state.js';

/** the build summary of one country (printed by the builder, kept in the model) */
export function summarize(
  state: MergeState, objects: MergedObject[], rows: Uint32Array, houses: HouseTally, apartments: number,
): Record<string, number | string> {
  const summary: Record<string, number | string> = { country: state.country, objects: objects.length };
  for (let level = 1; level < LEVEL_NAMES.length - 1; level++) {
    summary[`objects ${LEVEL_NAMES[level]}`] = objects.filter((o) => o.level === level).length;
  }
  for (const [source, n] of [...state.objectsPerSource].sort()) summary[`records from ${source}`] = n;
  const bySource = new Map<string, number>();
  for (const object of objects) bySource.set(object.source, (bySource.get(object.source) ?? 0) + 1);
  for (const [source, n] of [...bySource].sort()) summary[`objects from ${source}`] = n;
  summary['objects joined by name'] = state.counts.joinedByName;
  summary['objects with postcode'] = objects.filter((o) => o.postcode).length;
  summary['objects with coordinates'] = objects.filter((o) => o.lat !== undefined).length;
  summary['objects postcode from post'] = state.counts.postcodesFromPost;
  summary['objects coordinates from post/geonames'] = state.counts.coordinatesFromPost;
  summary['popular names applied'] = state.counts.popularNamesApplied;
  summary['objects with old KLADR codes'] = state.counts.kladrAliasesApplied;
  summary['streets with name variants'] = state.counts.nameVariantsApplied;
  summary['municipal entities'] = state.municipals.size;
  summary['objects with a municipal entity'] = objects.filter((o) => o.municipal !== undefined).length;
  if (state.counts.municipalMissing > 0) summary['rejected municipal references: entity missing'] = state.counts.municipalMissing;
  summary.houses = rows.length;
  summary['houses with postcode'] = houses.withPostcode;
  summary['houses with coordinates'] = houses.withCoordinates;
  summary['house labels (distinct part tuples)'] = state.houseStore.labels.count;
  summary.apartments = apartments;
  summary.metro = state.metro.length;
  summary['post offices'] = state.postOffices.length;
  for (const [reason, n] of [...state.rejects].sort()) summary[`rejected ${reason}`] = n;
  return summary;
}
