/**
 * Cyrillic → Latin as Russian passports write names (ICAO Doc 9303: ж zh, х kh, ц ts, щ shch, ю iu, я ia, ъ ie,
 * ь dropped), with the Ukrainian (і ї є ґ) and Kazakh (ә ғ қ ң ө ұ ү һ) letters: the English (`language: en`)
 * records of the DaData facade. The engine reads this spelling back (assembly/text.ts), so a name written here can
 * be typed to find its place again. Case follows the letter: `Щ` → `Shch`, a word in capitals stays in capitals.
 */
const TABLE: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'i', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch',
  ъ: 'ie', ы: 'y', ь: '', э: 'e', ю: 'iu', я: 'ia',
  і: 'i', ї: 'i', є: 'ie', ґ: 'g',
  ә: 'a', ғ: 'g', қ: 'q', ң: 'n', ө: 'o', ұ: 'u', ү: 'u', һ: 'h',
};

const CYRILLIC = /[\u0400-\u04ff]/;

export function transliterate(text: string): string {
  if (!CYRILLIC.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const lower = char.toLowerCase();
    const latin = TABLE[lower];
    if (latin === undefined) {
      out += char;
      continue;
    }
    if (lower === char || latin === '') {
      out += latin;
      continue;
    }
    // a capital: the whole sequence in capitals inside a word in capitals (`ЩУКА` → `SHCHUKA`), else only its first letter
    const next = text[i + 1] ?? '';
    const shouting = next !== '' && next !== next.toLowerCase();
    out += shouting ? latin.toUpperCase() : latin[0].toUpperCase() + latin.slice(1);
  }
  return out;
}
