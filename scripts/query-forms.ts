/**
 * The ways a query is rewritten to compare answers and probe accuracy: typed in the wrong keyboard layout (ЙЦУКЕН
 * keys read as QWERTY) and transliterated into Latin letters the way people type them.
 */
const LAYOUT_FROM = 'йцукенгшщзхъфывапролджэячсмитьбюё';
const LAYOUT_TO = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`";

/** the text as typed with the Russian layout's keys and the English layout switched on */
export const layout = (text: string): string =>
  [...text.toLowerCase()].map((ch) => { const at = LAYOUT_FROM.indexOf(ch); return at >= 0 ? LAYOUT_TO[at] : ch; }).join('');

const TRANSLIT: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch',
  ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya', і: 'i', ї: 'yi', є: 'ye', ў: 'u',
};

/** the text in Latin letters, one Cyrillic letter at a time */
export const translit = (text: string): string => [...text.toLowerCase()].map((ch) => TRANSLIT[ch] ?? ch).join('');
