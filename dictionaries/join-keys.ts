/**
 * Name folding for joins inside the dictionary builder (not the matcher's folding, which lives in
 * `assembly/text.ts`): lower case, ё→е, punctuation to spaces, and the region-name form used to match
 * registries that write a region differently (`Чувашия Республика`, `Респ Чувашская - Чувашия`,
 * `Чувашская Республика - Чувашия` all share the key `чувашия`... when a type word is dropped).
 */
import { foldCase } from '../format/fold.js';

export function fold(text: string): string {
  return foldCase(text).replace(/[«»"'`’]/g, '').trim();
}

/** a join key for place names: folded, hyphens and dots as spaces, whitespace collapsed */
export function nameKey(text: string): string {
  return fold(text).replace(/[.,()\-–—/]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** `nameKey` remembered by text, for a pass over many objects whose names repeat (Ленина, Центральная, …) */
export function nameKeys(): (text: string) => string {
  const keys = new Map<string, string>();
  return (text) => {
    let key = keys.get(text);
    if (key === undefined) keys.set(text, (key = nameKey(text)));
    return key;
  };
}

const REGION_TYPE_WORDS = new Set([
  'респ', 'республика', 'обл', 'область', 'край', 'ао', 'автономный', 'округ', 'аобл', 'автономная',
  'г', 'город', 'федерального', 'значения', 'гфз', 'облысы', 'обласць', 'область', 'м',
]);

/**
 * Names a region may be called by, without type words: `Республика Северная Осетия - Алания` →
 * exact [`северная осетия алания`, `северная осетия`, `алания`], stems [`северн осетия`, `алан`].
 * `Чувашия Республика` (Post) and `Чувашская Республика - Чувашия` (FIAS) meet at the stem `чуваш`.
 */
export function regionKeys(text: string): { exact: string[]; stems: string[] } {
  const exact = new Set<string>();
  const core = (part: string) =>
    nameKey(part)
      .split(' ')
      .filter((w) => w !== '' && !REGION_TYPE_WORDS.has(w))
      .join(' ');
  const whole = core(text);
  if (whole) exact.add(whole);
  for (const part of fold(text).split(/\s[-–—]\s|[()/]/)) {
    const partCore = core(part);
    if (partCore) exact.add(partCore);
  }
  const stems = new Set<string>();
  for (const key of exact) stems.add(key.split(' ').map(stemWord).join(' '));
  return { exact: [...exact], stems: [...stems] };
}

/** crude stem, `чувашская`/`чувашия` → `чуваш`, `алтайский` → `алтай` */
function stemWord(word: string): string {
  return word.length > 4 ? word.replace(/(ская|ский|ское|ия|ья|ая|ий|ой|ый)$/, '') : word;
}

/** great-circle distance in km */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(a));
}
