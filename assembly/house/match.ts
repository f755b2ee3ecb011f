/**
 * The parts once the solver took a house read another way than the grammar's parts (key.ts): the wide reading
 * (`84-86`, `59б1`, `35д-253`) or the alternative key's (`5 1` → 5к1, `14 к2` → 14/2, `12к4Б` → 12бк4). The answer's
 * parts then say what the house taken was typed as.
 */
import { setTok, F_ROLE, ROLE_HOUSE } from '../tokenize';
import { partFirst, partLast, setPart, P_HOUSE, P_CASE, P_BUILD, P_LITER, P_FLAT } from './parts';
import { wideLast, wideTakesFlat, altFraction, altCaseLiter, altSpaced } from './key';
import { keywordLetter, spacedFlatAt, flatAfterHyphen, mark } from './grammar';

/**
 * The parts when the solver took the house read wide: the house runs to `wideLast`, and the flat it took is gone
 * (or, after a keyword letter, the number after the hyphen is the flat and no corpus is read from the letter).
 */
export function takeWideHouse(): void {
  if (wideLast < 0) return;
  if (wideLast == keywordLetter) {
    // the letter is the house's: a corpus or building read from it goes, the number after the hyphen is the flat
    setPart(P_HOUSE, partFirst(P_HOUSE), wideLast);
    if (partFirst(P_CASE) == wideLast + 1) setPart(P_CASE, -1, -1);
    if (partFirst(P_BUILD) == wideLast + 1) setPart(P_BUILD, -1, -1);
    setPart(P_FLAT, wideLast + 1, wideLast + 1);
    mark(wideLast, wideLast + 1, ROLE_HOUSE);
    return;
  }
  setPart(P_HOUSE, partFirst(P_HOUSE), wideLast);
  if (wideTakesFlat) setPart(P_FLAT, -1, -1);
  setTok(wideLast, F_ROLE, ROLE_HOUSE);
  // 84-86-283 → flat 283, as 20-18 → flat 18
  const next = wideLast + 1;
  if (partFirst(P_FLAT) < 0 && flatAfterHyphen(next)) {
    setPart(P_FLAT, next, next);
    mark(next, next, ROLE_HOUSE);
  }
}

/**
 * The parts when the solver took the alternative key's house: the number after a space was its corpus (`5 1` →
 * 5к1; `35 4, кв 5` → 35к4, flat 5).
 */
export function takeAltHouse(): void {
  // the corpus typed is the fraction's number: the registry's house spells it
  if (altFraction) setPart(P_CASE, -1, -1);
  if (altCaseLiter) {
    setPart(P_LITER, partLast(P_CASE), partLast(P_CASE));
    setPart(P_CASE, partFirst(P_CASE), partLast(P_CASE) - 1);
  }
  if (!altSpaced) return;
  if (partFirst(P_FLAT) == spacedFlatAt) setPart(P_FLAT, -1, -1);
  setPart(P_CASE, spacedFlatAt, spacedFlatAt);
  mark(spacedFlatAt, spacedFlatAt, ROLE_HOUSE);
}
