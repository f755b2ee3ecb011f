/**
 * Synthetic national GAR with the country's name frequencies: the scale generator's copies of the template region
 * (gar-scale.ts), each copy's streets and settlements renamed as a country names them. In real Russia a few street
 * names stand in thousands of towns (Центральная, Молодёжная, Школьная, Ленина, Советская, Мира, 8 Марта, Набережная)
 * and the rest is a long tail of names few towns share; settlements repeat too (Октябрьский, Первомайский, Берёзовка),
 * less. Identical copies of the template give every street name to every town instead, and unique names to none: this
 * generator measures the national pattern (bench/build-scale.ts `--generator national`), where a town and the start of
 * a common street (`кстово 8 мар`) meet the thousands of towns that have one.
 *
 * Streets of a copy: a share COMMON_SHARE of them draw a common name (COMMON_STREETS, most frequent first) by Zipf's
 * law (P(rank k) ∝ 1 / k^COMMON_EXPONENT: of the template's 87 streets, Центральная is in nearly every town, the 60th
 * name in about one in eight), the others a made-up name of a tail of TAIL_PER_TOWN names a town, by Zipf's law too
 * (exponent TAIL_EXPONENT: a few tail names in hundreds of towns, most in one or two); no name twice in a town. Settlements (the
 * template's two villages): a common village name with probability VILLAGE_COMMON_SHARE, else a made-up one. A pure
 * function of (seed, copy, object), so every record that spells a name spells the same one. Load and speed figures
 * only: no accuracy figure may come from these names (shared/data/README.md).
 *
 * The archives are generated (and reused) by bench/scale-hints.ts: build/synth/gar-national-<houses>.zip.
 */
import { generateGarScale, existingArchive, type GarScaleOptions, type GarScaleResult } from './gar-scale.js';
import { randomFrom } from './names.js';

/** the commonest street names of Russian settlements, most frequent first (GAR's own ranking, rounded) */
export const COMMON_STREETS = [
  'Центральная', 'Молодежная', 'Школьная', 'Лесная', 'Садовая', 'Советская', 'Новая', 'Набережная', 'Заречная', 'Полевая',
  'Луговая', 'Мира', 'Зеленая', 'Ленина', 'Солнечная', 'Октябрьская', 'Комсомольская', 'Береговая', 'Первомайская', 'Северная',
  'Гагарина', 'Пионерская', 'Южная', 'Колхозная', 'Рабочая', 'Речная', 'Полевой', 'Строителей', 'Трудовая', 'Юбилейная',
  '8 Марта', 'Кирова', 'Чапаева', 'Пушкина', 'Восточная', 'Весенняя', 'Дачная', 'Западная', 'Клубная', 'Степная',
  'Победы', 'Калинина', 'Механизаторов', 'Нагорная', 'Озерная', 'Партизанская', 'Почтовая', 'Придорожная', 'Родниковая', 'Сосновая',
  'Гоголя', 'Горького', 'Лермонтова', 'Куйбышева', 'Фрунзе', 'Свердлова', 'Маяковского', '1 Мая', 'Интернациональная', 'Кооперативная',
];
/** the share of a town's streets named from COMMON_STREETS, and Zipf's exponent over them */
const COMMON_SHARE = 0.25;
const COMMON_EXPONENT = 0.8;
/** the commonest village names */
export const COMMON_VILLAGES = [
  'Октябрьский', 'Первомайский', 'Березовка', 'Александровка', 'Михайловка', 'Ивановка', 'Никольское', 'Покровка', 'Новоселовка',
  'Садовый', 'Сосновка', 'Советский', 'Ясная Поляна', 'Красный Октябрь', 'Заречный', 'Вознесенка',
];
const VILLAGE_COMMON_SHARE = 0.4;
/** made-up tail names per town (the tail's size), and Zipf's exponent over them */
const TAIL_PER_TOWN = 40;
const TAIL_EXPONENT = 1.05;

const ONSETS = ['б', 'в', 'г', 'д', 'ж', 'з', 'к', 'л', 'м', 'н', 'п', 'р', 'с', 'т', 'ф', 'х', 'ч', 'ш', 'бр', 'гр', 'кр', 'ст', 'тр', 'пл'];
const VOWELS = ['а', 'о', 'е', 'и', 'у'];
const STREET_ENDINGS = ['ская', 'овая', 'ная', 'ина', 'ова', 'евская', 'инская'];
const VILLAGE_ENDINGS = ['овка', 'ино', 'ево', 'ское', 'ский', 'ец'];

/** the n-th made-up name of a list (a bijection of n to syllables, so names of different n differ) */
function madeUp(n: number, endings: string[]): string {
  let stem = '';
  let rest = n;
  // two syllables at least: `Гросовая`, not `Брская`
  for (let syllables = 0; rest > 0 || syllables < 2; syllables++) {
    stem += ONSETS[rest % ONSETS.length] + VOWELS[Math.floor(rest / ONSETS.length) % VOWELS.length];
    rest = Math.floor(rest / (ONSETS.length * VOWELS.length));
  }
  const name = stem.slice(0, -1) + endings[n % endings.length];
  return name[0].toUpperCase() + name.slice(1);
}

/** Zipf's law over ranks 1…n: a draw from its cumulative table */
class Zipf {
  private readonly cumulative: Float64Array;

  constructor(n: number, exponent: number) {
    this.cumulative = new Float64Array(n);
    let sum = 0;
    for (let k = 0; k < n; k++) this.cumulative[k] = sum += 1 / (k + 1) ** exponent;
    for (let k = 0; k < n; k++) this.cumulative[k] /= sum;
  }

  /** the rank (from 0) of uniform u */
  draw(u: number): number {
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.cumulative[mid] < u) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/**
 * The names of one copy: its template objects renamed in their order (streets, then villages), drawn from
 * (seed, copy) alone. A few copies are kept, as the tables are rendered copy by copy.
 */
export class NationalNames {
  private readonly tail: Zipf;
  private readonly common = new Zipf(COMMON_STREETS.length, COMMON_EXPONENT);
  private readonly cache = new Map<number, Map<number, string>>();

  constructor(
    private readonly seed: number,
    towns: number,
  ) {
    this.tail = new Zipf(Math.max(1000, towns * TAIL_PER_TOWN), TAIL_EXPONENT);
  }

  rename(copy: number, object: number, level: string): string {
    let names = this.cache.get(copy);
    if (!names) {
      if (this.cache.size >= 8) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(copy, (names = new Map()));
    }
    let name = names.get(object);
    if (name === undefined) names.set(object, (name = this.draw(copy, object, level, names)));
    return name;
  }

  /** a name of the copy's, not given to another of its objects; drawn from (seed, copy, object) */
  private draw(copy: number, object: number, level: string, taken: Map<number, string>): string {
    const random = randomFrom((this.seed * 0x9e3779b1) ^ (copy * 0x85ebca6b) ^ (object * 0xc2b2ae35));
    const used = new Set(taken.values());
    for (let attempt = 0; ; attempt++) {
      let name: string;
      if (level === '6') {
        name = random() < VILLAGE_COMMON_SHARE ? COMMON_VILLAGES[Math.floor(random() * COMMON_VILLAGES.length)] : madeUp(Math.floor(random() * 1e9), VILLAGE_ENDINGS);
      } else {
        name = random() < COMMON_SHARE ? COMMON_STREETS[this.common.draw(random())] : madeUp(this.tail.draw(random()), STREET_ENDINGS);
      }
      if (!used.has(name) || attempt > 64) return name;
    }
  }
}

/** Generates the archive (gar-scale.ts with its copies named by `NationalNames`). */
export async function generateGarNational(options: GarScaleOptions): Promise<GarScaleResult> {
  const seed = (options.seed ?? 1) >>> 0;
  // the number of towns is known only once the template is read: the tail is sized from the houses asked for (the
  // template region has ≈600 houses), or the places
  const names = new NationalNames(seed, options.places?.copies ?? Math.ceil(options.houses / 600));
  // one city (`oneCity`): the first copy's streets named as a town's, the others' each a name of its own (a city has
  // one Ленина, not one a copy)
  const rename = options.oneCity
    ? (copy: number, object: number, level: string) => (copy === 0 ? names.rename(copy, object, level) : madeUp(copy * 4096 + object, level === '6' ? VILLAGE_ENDINGS : STREET_ENDINGS))
    : (copy: number, object: number, level: string) => names.rename(copy, object, level);
  return generateGarScale({ ...options, names: 'national', rename });
}

/** existingArchive for an archive of this generator */
export function existingNational(options: GarScaleOptions): Promise<GarScaleResult | undefined> {
  return existingArchive({ ...options, names: 'national' });
}
