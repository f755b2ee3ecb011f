/**
 * The builder's twin of assembly/text.ts and assembly/tokenize.ts: folds and splits names exactly as
 * the core folds and splits queries, so a word in the vocabulary is spelled as the core will look it up.
 * A test (test/unit/dictionaries/fold.test.ts) runs both over the same strings.
 */

import { FOLD, foldCase } from '../format/fold.js';

export function foldChar(ch: string): string {
  const c = ch.toLowerCase();
  if (c.length !== 1) return ' '; // İ lowers to two code points; the core reads one char at a time
  if (FOLD[c]) return FOLD[c];
  if (/^[0-9a-zа-я]$/.test(c) && ch.charCodeAt(0) < 0x2000) return c; // not the Kelvin sign K
  if (',;/-.'.includes(c)) return c;
  return ' ';
}

/** Latin letters that look like Cyrillic ones, read so inside a word of Cyrillic letters (text.ts wordLookalike) */
const WORD_LOOKALIKES: Record<string, string> = {
  a: 'а', A: 'а', B: 'в', c: 'с', C: 'с', e: 'е', E: 'е', k: 'к', K: 'к', m: 'м', M: 'м', H: 'н',
  o: 'о', O: 'о', p: 'р', P: 'р', T: 'т', x: 'х', X: 'х', y: 'у',
};

/**
 * Latin letters typed for their Cyrillic look-alikes in house numbers (`44c1`, `12a`, `89b`; B is В, b is б), or for
 * the letter they transliterate where none looks alike (`6d` д, `67v` в: text.ts houseLookalike)
 */
export const HOUSE_LOOKALIKES: Record<string, string> = {
  ...WORD_LOOKALIKES, b: 'б', d: 'д', D: 'д', v: 'в', V: 'в', g: 'г', G: 'г', z: 'з', Z: 'з', l: 'л', L: 'л', n: 'н', N: 'н',
  s: 'с', S: 'с',
};

/**
 * The Cyrillic letter of a lone Latin look-alike right after a digit, or after a space or hyphen that follows a
 * house's number and its letter, or after the литера's word (text.ts PLAIN `keyAfterNumber`: `45a`, `40c4`; `5 a`,
 * `4-a`, `15 k2`, `6А c3`; `лит A`), else undefined.
 */
function houseLetterAt(text: string, i: number): string | undefined {
  const next = i + 1 < text.length ? foldChar(text[i + 1]) : ' ';
  if (i === 0 || LETTER.test(next)) return undefined;
  if (/[0-9]/.test(text[i - 1])) return HOUSE_LOOKALIKES[text[i]];
  let k = i - 1;
  let hyphen = false;
  while (k >= 0 && ' -."\'«»'.includes(text[k])) {
    if (text[k] === '-') hyphen = true;
    k--;
  }
  if (k < 1 || k === i - 1) return undefined;
  let start = k;
  while (start > 0 && LETTER.test(foldChar(text[start - 1]))) start--;
  if (['лит', 'литер', 'литера'].includes([...text.slice(start, k + 1)].map(foldChar).join(''))) return HOUSE_LOOKALIKES[text[i]];
  if (text[i - 1] === '.') return undefined;
  // after a hyphen only а б в г е з (`4-a`, not `40-k`, `5-y`: text.ts hyphenLetter)
  if (hyphen && !'abvgez'.includes(text[i].toLowerCase())) return undefined;
  if (k > 0 && LETTER.test(foldChar(text[k])) && /[0-9]/.test(text[k - 1])) k--;
  return /[0-9]/.test(text[k]) ? HOUSE_LOOKALIKES[text[i]] : undefined;
}

const LATIN = /^[A-Za-z]$/;

/** The Cyrillic look-alike of a Latin letter whose run of letters holds a Cyrillic one (text.ts cyrillicInWord), else undefined. */
function wordLetterAt(text: string, i: number): string | undefined {
  if (!LATIN.test(text[i])) return undefined;
  const cyrillic = (k: number): boolean => /^[а-я]$/.test(foldChar(text[k]));
  let inWord = false;
  for (let k = i - 1; k >= 0 && !inWord; k--) {
    if (cyrillic(k)) inWord = true;
    else if (!LATIN.test(text[k])) break;
  }
  for (let k = i + 1; k < text.length && !inWord; k++) {
    if (cyrillic(k)) inWord = true;
    else if (!LATIN.test(text[k])) break;
  }
  return inWord ? WORD_LOOKALIKES[text[i]] : undefined;
}

const INVISIBLE = /^[\u200b-\u200d\u2060\u00ad\ufeff]$/;

export function foldText(text: string): string {
  let out = '';
  let i = 0;
  for (const ch of text) {
    // characters that show nothing are dropped (text.ts `invisible`)
    if (!INVISIBLE.test(ch)) out += ch.length === 1 ? houseLetterAt(text, i) ?? wordLetterAt(text, i) ?? foldChar(ch) : ' ';
    i += ch.length;
  }
  return joinAbbreviations(out);
}

const LETTER = /[a-zа-я]/;

/** пр-кт → пркт: a hyphen between two letter runs of at most 3 letters and 5 together is dropped (tokenize.ts). */
export function joinAbbreviations(s: string): string {
  let i = 1;
  while (i < s.length - 1) {
    if (s[i] === '-' && LETTER.test(s[i - 1]) && LETTER.test(s[i + 1])) {
      let a = i - 1;
      while (a > 0 && LETTER.test(s[a - 1])) a--;
      let b = i + 1;
      while (b < s.length && LETTER.test(s[b])) b++;
      if (i - a <= 3 && b - i - 1 <= 3 && b - a - 1 <= 5) {
        s = s.slice(0, i) + s.slice(i + 1);
        continue;
      }
    }
    i++;
  }
  return s;
}

const ORDINAL_SUFFIXES = new Set(['й', 'я', 'ой', 'ий', 'ая', 'го', 'е', 'ый', 'ое', 'ья', 'ого', 'ей']);

/**
 * Words of a name as the core tokenizes them: runs of letters and runs of digits; an ordinal suffix after
 * a number (7-й, 22-го) is dropped, the number stays.
 */
export function nameWords(text: string): string[] {
  // a number sign is a word of its own, glued to a word or not (tokenize.ts `numberSignAt`)
  const folded = foldText(text.replace(/№/g, ' № '));
  const words: string[] = [];
  const re = /[0-9]+|[a-zа-я]+/g;
  let m: RegExpExecArray | null;
  let prevDigitEnd = -2;
  while ((m = re.exec(folded))) {
    const w = m[0];
    const between = folded.slice(prevDigitEnd, m.index);
    if (prevDigitEnd >= 0 && (between === '' || between === '-') && ORDINAL_SUFFIXES.has(w)) {
      prevDigitEnd = -2;
      continue;
    }
    words.push(w);
    prevDigitEnd = /[0-9]/.test(w) ? m.index + w.length : -2;
  }
  return words;
}

/** Key of a house as the core builds it from the parsed parts: 10, 10а, 10/2, 10к2, 10с12. */
export function houseKey(number: string, block?: string, building?: string, liter?: string): { key: string; base: number } {
  const clean = (s: string | undefined) =>
    foldCase(s ?? '')
      .replace(/корпус|корп\.?/g, 'к')
      .replace(/строение|стр\.?/g, 'с')
      .replace(/литера|литер|лит\.?/g, '')
      .replace(/[\s."«»]/g, '')
      .replace(/(?<!\d)-|-(?!\d)/g, '') // a hyphen between digits stays: 84-86 is a house of its own (house.ts wide key)
      .replace(/^(?:дом|д)?№?(?=\d)/, ''); // «№ 2», «д. № 2»: the number sign is the query grammar's «номер»
  let key = clean(number);
  // a литера is the house's letter, but «дом 31» still finds «31 лит А» as the same number (base)
  const literBase = liter && !/[а-яa-z]$/.test(key) ? key.length : -1;
  if (literBase >= 0) key += clean(liter);
  const combined = /^(\d+[а-яa-z]?(?:\/\d+[а-яa-z]?)?)[кс]\d/.exec(key);
  let base = combined ? combined[1].length : literBase >= 0 && !block && !building ? literBase : key.length;
  if (block) key += 'к' + clean(block);
  if (building) key += 'с' + clean(building);
  if (!combined && !block && !building && literBase < 0) base = key.length;
  return { key, base };
}
