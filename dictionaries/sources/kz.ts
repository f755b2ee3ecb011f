/**
 * Kazakhstan KATO (`kato.csv`: kato, kato_version, level, type_code, name_ru, name_kk). The 9-digit code
 * is hierarchical (AB oblast, CD district, EF rural okrug / town, HIJ settlement), so a record's parent is
 * the nearest existing code with its tail zeroed. Levels: oblast → region (Астана, Алматы, Шымкент are
 * cities of republican significance: regions, like Москва); district → area (`… район`, `… Г.А.` city
 * administrations), or cityArea inside a city-region; sub_district → city (`г.…`), settlement (`п.…`), or
 * nothing for rural okrugs (`… с.о.`), whose villages hang under the district; settlement → settlement
 * (`с.…`) or city (`г.…`). Kazakh names become aliases.
 */
import { Level, type AddressObject, type LevelNumber, type ModelSink } from '../source-model.js';
import { csvRows } from './hflabs.js';

interface Parsed {
  name: string;
  type: string;
  level: LevelNumber | null;
}

/** `область Абай` → Абай обл; `г.Семей` → г Семей; `Абайский район` → Абайский р-н; `Карааульский с.о.` → skipped */
export function parseKatoName(raw: string, katoLevel: string, insideCityRegion: boolean): Parsed {
  const text = raw.trim().replace(/\s+/g, ' ');
  const strip = (pattern: RegExp) => text.replace(pattern, '').trim();
  if (katoLevel === 'oblast') {
    if (/^г\.\s*/i.test(text)) return { name: strip(/^г\.\s*/i), type: 'г', level: Level.region };
    return { name: strip(/\s*область\s*/i), type: 'обл', level: Level.region };
  }
  if (/(^|\s)с\.о\.?$|сельский округ$/i.test(text)) return { name: strip(/\s*(с\.о\.?|сельский округ)$/i), type: 'с.о.', level: null };
  if (/^г\.\s*/i.test(text)) return { name: strip(/^г\.\s*/i), type: 'г', level: Level.city };
  if (/Г\.А\.$/.test(text)) return { name: strip(/\s*Г\.А\.$/), type: 'г.а.', level: Level.area };
  if (/^район\s/i.test(text)) return { name: strip(/^район\s+/i), type: 'р-н', level: insideCityRegion ? Level.cityArea : Level.area };
  if (/\sрайон$/i.test(text)) return { name: strip(/\s+район$/i), type: 'р-н', level: insideCityRegion ? Level.cityArea : Level.area };
  if (/^п\.\s*/i.test(text)) return { name: strip(/^п\.\s*/i), type: 'п', level: Level.settlement };
  if (/^с\.\s*/i.test(text)) return { name: strip(/^с\.\s*/i), type: 'с', level: Level.settlement };
  if (/^(ст\.|разъезд|ж\.?д\.)/i.test(text)) return { name: text, type: '', level: Level.settlement };
  if (katoLevel === 'district') return { name: text, type: '', level: insideCityRegion ? Level.cityArea : Level.area };
  // other sub-districts are rural okrugs written `а. Бирсуат`, `о.Малика Габдуллина`: not an address level
  if (katoLevel === 'sub_district') return { name: text, type: '', level: null };
  return { name: text, type: '', level: Level.settlement };
}

export async function readKato(path: string, sink: ModelSink, _options: { log?: (line: string) => void } = {}): Promise<{ objects: number; skipped: number }> {
  sink.addSource({ name: 'КАТО (stat.gov.kz)', date: '20251101', licence: 'MIT (siaarzh/kz-tax-rates); data: stat.gov.kz', primary: true });
  /** code → key of the object standing for it (a skipped rural okrug maps to its district's key) */
  const keyOf = new Map<string, string>();
  const cityRegions = new Set<string>();
  let objects = 0;
  let skipped = 0;
  for await (const { row, line } of csvRows(path)) {
    const code = row.kato ?? '';
    if (!/^\d{9}$/.test(code)) throw new Error(`${path}: line ${line}: bad KATO code "${code}"`);
    if (!row.name_ru) throw new Error(`${path}: line ${line}: KATO ${code} without name_ru`);
    const region = code.slice(0, 2);
    const parsed = parseKatoName(row.name_ru, row.level, cityRegions.has(region));
    let parent: string | null = null;
    for (const length of [6, 4, 2]) {
      const ancestor = code.slice(0, length).padEnd(9, '0');
      if (ancestor !== code && keyOf.has(ancestor)) {
        parent = keyOf.get(ancestor)!;
        break;
      }
    }
    if (parsed.level === null) {
      if (parent) keyOf.set(code, parent);
      skipped++;
      continue;
    }
    if (parsed.level === Level.region && parsed.type === 'г') cityRegions.add(region);
    if (parsed.level !== Level.region && parent === null) throw new Error(`${path}: line ${line}: KATO ${code} has no parent in the file`);
    const key = `kato:${code}`;
    keyOf.set(code, key);
    const object: AddressObject = { key, level: parsed.level, parent: parsed.level === Level.region ? null : parent, name: parsed.name, type: parsed.type, codes: { okato: code }, source: 'kato' };
    if (row.name_kk && row.name_kk !== row.name_ru) object.aliases = [row.name_kk];
    sink.addObject(object);
    objects++;
  }
  return { objects, skipped };
}
