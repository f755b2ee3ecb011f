/**
 * Messy addresses for the batch benches: dev's clean addresses (EVAL_FILE) repeated with variation (case, spaces
 * and commas, a flat, a trailing `;`, a missing letter), seeded, so every run makes the same rows.
 */
import { cleanQueries, rng } from './fixtures.js';

function vary(query: string, random: () => number, row: number): string {
  let text = query;
  const pick = random();
  if (pick < 0.15) text = text.toUpperCase();
  else if (pick < 0.3) text = text.toLowerCase();
  if (random() < 0.2) text = text.replace(/, /g, ' , ').replace(/ /g, '  ');
  if (random() < 0.25 && !/кв/i.test(text)) text += `, кв ${1 + (row % 180)}`;
  if (random() < 0.1) text = `${text};`;
  if (random() < 0.05) {
    const at = Math.floor(random() * text.length);
    text = text.slice(0, at) + text.slice(at + 1);
  }
  return text;
}

/** `count` rows of [id, address, kind], the same on every call. */
export function* messyRows(count: number): Generator<[number, string, string]> {
  const queries = cleanQueries().filter((q) => q.country === 'ru').map((q) => q.query);
  const random = rng(7);
  for (let i = 0; i < count; i++) yield [i + 1, vary(queries[i % queries.length], random, i), i % 3 === 0 ? 'client' : 'partner'];
}
