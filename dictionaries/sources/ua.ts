/**
 * Ukraine KATOTTG (`katottg-*.csv`, `;`-separated, Ukrainian headers: Перший…Четвертий рівень,
 * Додатковий рівень, Категорія об’єкта, Назва об’єкта). A row's code is its deepest non-empty level; its
 * parent is the row of the level above. Categories: O oblast and K city of special status (Київ,
 * Севастополь) → region; P raion → area; H hromada → not a level of the address (its places hang under
 * the raion); M city → city; X селище, C село → settlement; B city district → cityArea.
 */
import { Level, type LevelNumber, type ModelSink } from '../source-model.js';
import { csvRows } from './hflabs.js';

const CATEGORIES: Record<string, { level: LevelNumber | null; type: string }> = {
  O: { level: Level.region, type: 'обл' },
  K: { level: Level.region, type: 'м' },
  P: { level: Level.area, type: 'р-н' },
  H: { level: null, type: 'громада' },
  M: { level: Level.city, type: 'м' },
  X: { level: Level.settlement, type: 'сел' },
  C: { level: Level.settlement, type: 'с' },
  T: { level: Level.settlement, type: 'смт' },
  B: { level: Level.cityArea, type: 'р-н' },
};

const LEVEL_COLUMNS = ['Перший рівень', 'Другий рівень', 'Третій рівень', 'Четвертий рівень', 'Додатковий рівень'];

export async function readKatottg(path: string, sink: ModelSink, _options: { log?: (line: string) => void } = {}): Promise<{ objects: number; skipped: number }> {
  const date = /(\d{4})-(\d{2})-(\d{2})/.exec(path)?.slice(1).join('') ?? '';
  sink.addSource({ name: 'КАТОТТГ', date, licence: 'official publication', primary: true });
  const keyOf = new Map<string, string>();
  let objects = 0;
  let skipped = 0;
  for await (const { row, line } of csvRows(path, { delimiter: ';' })) {
    const codes = LEVEL_COLUMNS.map((c) => row[c] ?? '');
    if (!codes[0]) throw new Error(`${path}: line ${line}: no first-level code (are the headers ${LEVEL_COLUMNS.join(', ')}?)`);
    const depth = codes.reduce((d, c, i) => (c ? i : d), 0);
    const code = codes[depth];
    if (!/^UA\d{17}$/.test(code)) throw new Error(`${path}: line ${line}: bad KATOTTG code "${code}"`);
    const category = CATEGORIES[row['Категорія об’єкта'] ?? row["Категорія об'єкта"] ?? ''];
    const name = (row['Назва об’єкта'] ?? row["Назва об'єкта"] ?? '').trim();
    if (!category || !name) throw new Error(`${path}: line ${line}: unknown category or empty name for ${code}`);
    let parent: string | null = null;
    for (let i = depth - 1; i >= 0; i--) {
      if (codes[i] && keyOf.has(codes[i])) {
        parent = keyOf.get(codes[i])!;
        break;
      }
    }
    if (category.level === null) {
      if (parent) keyOf.set(code, parent);
      skipped++;
      continue;
    }
    if (category.level !== Level.region && parent === null) throw new Error(`${path}: line ${line}: ${code} has no parent row before it`);
    const key = `katottg:${code}`;
    keyOf.set(code, key);
    const regionName = name === 'Автономна Республіка Крим' ? 'Крим' : name;
    sink.addObject({
      key,
      level: category.level,
      parent: category.level === Level.region ? null : parent,
      name: regionName,
      type: name === 'Автономна Республіка Крим' ? 'АР' : category.type,
      codes: { okato: code },
      source: 'katottg',
    });
    objects++;
    if (category === CATEGORIES.K) {
      // a city of special status is a region and the city in it: people write «м. Київ, вул. …» and expect
      // the city level filled (unlike Russia's federal cities, see docs/DECISIONS.md)
      const cityKey = `${key}:city`;
      sink.addObject({ key: cityKey, level: Level.city, parent: key, name, type: 'м', codes: { okato: code }, source: 'katottg' });
      keyOf.set(code, cityKey);
      objects++;
    }
  }
  return { objects, skipped };
}
