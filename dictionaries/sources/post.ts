/**
 * Russian Post PIndx (`pindx.csv`: index, opsname, opstype, opssubm, region, autonom, area, city, city1,
 * actdate, indexold): one `addPostcode` per delivery office, with the Post's own spelling of the region
 * (`Чувашия Республика`), area and city, matched to objects by name in the merge. Sorting centres,
 * parcel lockers and other non-delivery types are skipped.
 */
import { type ModelSink } from '../source-model.js';
import { csvRows } from './hflabs.js';

/** office types that deliver to addresses: О отделение, П пункт, ГСП/Оп городские и опорные */
const DELIVERY_TYPES = new Set(['О', 'П', 'ГСП', 'Оп']);

export async function readPost(path: string, sink: ModelSink, _options: { log?: (line: string) => void } = {}): Promise<{ offices: number; skipped: number }> {
  let offices = 0;
  let skipped = 0;
  let date = '';
  for await (const { row, line } of csvRows(path)) {
    if (!/^\d{6}$/.test(row.index ?? '')) throw new Error(`${path}: line ${line}: bad index "${row.index ?? ''}"`);
    if (!DELIVERY_TYPES.has(row.opstype)) {
      skipped++;
      continue;
    }
    const region = row.region || row.autonom;
    if (!region) {
      skipped++;
      continue;
    }
    if (row.actdate > date) date = row.actdate;
    sink.addPostcode({
      postcode: row.index,
      region,
      ...(row.area ? { area: row.area } : {}),
      ...(row.city && !/^\d+$/.test(row.city) ? { city: row.city } : {}),
    });
    offices++;
  }
  sink.addSource({ name: 'Почта России PIndx', date, licence: 'Apache-2.0 (sanmai/pindx); data: Почта России' });
  return { offices, skipped };
}
