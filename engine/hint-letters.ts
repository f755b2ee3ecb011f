/**
 * The hints' letter rule (conventions.md: below 3 letters, no hints), shared by the suggest routes and the browser
 * engine (web/engine.ts), with no schema or route module behind it.
 */
export const MIN_LETTERS = 3;

const LETTER = /\p{L}/u;

/** The keys of the Latin layout that type Russian letters: ; ж, , б, . ю, [ х, ] ъ, ' э, ` ё. */
const isLayoutKey = (code: number): boolean =>
  code === 0x3b || code === 0x2c || code === 0x2e || code === 0x5b || code === 0x5d || code === 0x27 || code === 0x60;

/**
 * Letters (`\p{L}`) in `text`, counted up to `enough` (the search needs only to know there are 3), and the layout
 * keys of a run of Latin letters and such keys (`,k.[t` is «блюхе», five letters typed in the wrong layout; `.;f` is
 * «южа»). Latin and Russian letters are told by their codes; any other character above ASCII by the pattern, one
 * code point at a time.
 */
export function letterCount(text: string, enough = Infinity): number {
  let count = 0;
  // layout keys of the current run before its first Latin letter, and whether the run has one yet
  let keysBefore = 0;
  let latinRun = false;
  for (let i = 0; i < text.length && count < enough; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      const lower = code | 0x20;
      if (lower >= 0x61 && lower <= 0x7a) {
        count += 1 + keysBefore;
        keysBefore = 0;
        latinRun = true;
      } else if (isLayoutKey(code)) {
        if (latinRun) count++;
        else keysBefore++;
      } else {
        keysBefore = 0;
        latinRun = false;
      }
      continue;
    }
    keysBefore = 0;
    latinRun = false;
    if ((code >= 0x410 && code <= 0x44f) || code === 0x401 || code === 0x451) {
      count++;
    } else {
      const point = text.codePointAt(i)!;
      if (LETTER.test(String.fromCodePoint(point))) count++;
      if (point > 0xffff) i++;
    }
  }
  return Math.min(count, enough);
}
