/**
 * The one folding table: the letters a name or a query folds to another (ё to е; the Ukrainian, Belarusian and
 * Kazakh letters to their Russian look-alikes) and the characters read as another (dashes as a hyphen, a backslash
 * as a slash, the number sign as н). The builder folds names with it (dictionaries/fold.ts); the core's per-char
 * table (assembly/text.ts `foldChar`) is its twin, held equal by test/unit/dictionaries/fold.test.ts. No Node API here.
 */
export const FOLD: Readonly<Record<string, string>> = {
  ё: 'е', є: 'е', і: 'и', ї: 'и', ґ: 'г', ў: 'у', ә: 'а', ғ: 'г', қ: 'к', ң: 'н', ө: 'о', ұ: 'у', ү: 'у', һ: 'х',
  '–': '-', '—': '-', '−': '-', '\\': '/', '№': 'н',
};

const YO = /ё/g;

/**
 * `text` in lower case with ё as е (`Ёлкино` → `елкино`): how names are compared outside the core (places, types,
 * scopes, house parts, the page's highlighted words). Only ё folds here; `FOLD`'s other letters are the core's.
 */
export function foldCase(text: string): string {
  return text.toLowerCase().replace(YO, FOLD['ё']);
}
