/**
 * Deterministic synthetic place names for the scale generator: pronounceable Cyrillic words built from
 * syllables by a seeded PRNG (mulberry32), unique within one generator. They exist so that every copy of
 * the template region is a distinct city (`г Ламировск`) that a query can name, not to look like real
 * toponyms; accuracy figures must never come from them (shared/data/README.md).
 */

const ONSETS = ['б', 'в', 'г', 'д', 'ж', 'з', 'к', 'л', 'м', 'н', 'п', 'р', 'с', 'т', 'ф', 'х', 'ч', 'ш', 'бр', 'гр', 'кр', 'ст', 'тр', 'зл', 'пл', 'св'];
const VOWELS = ['а', 'о', 'е', 'и', 'у', 'я'];
const CITY_ENDINGS = ['ск', 'ов', 'ино', 'ево', 'град', 'поль', 'овка', 'анск', 'орск', 'инск'];
const REGION_ENDINGS = ['ская', 'инская', 'овская', 'анская'];

/** mulberry32: a 32-bit seeded PRNG, uniform in [0, 1) */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class NameGenerator {
  private readonly used = new Set<string>();
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = randomFrom(seed ^ 0x5eed);
  }

  /** a new city name (`Ламировск`), never returned before by this generator */
  city(): string {
    return this.unique(CITY_ENDINGS);
  }

  /** a new region adjective (`Кременская`), to be typed `обл` */
  region(): string {
    return this.unique(REGION_ENDINGS);
  }

  private unique(endings: string[]): string {
    for (let syllables = 2; ; syllables++) {
      for (let attempt = 0; attempt < 16; attempt++) {
        let stem = '';
        for (let i = 0; i < syllables; i++) stem += this.pick(ONSETS) + this.pick(VOWELS);
        const name = capitalize(stem.slice(0, -1) + this.pick(endings));
        if (!this.used.has(name)) {
          this.used.add(name);
          return name;
        }
      }
    }
  }

  private pick<T>(list: T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }
}

function capitalize(word: string): string {
  return word[0].toUpperCase() + word.slice(1);
}
