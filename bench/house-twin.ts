/**
 * The pure-JS twin of the core's first stages, for the tokenize and house benches: a folding tokenizer
 * (lower case, ё→е; runs of letters or digits, with the separator before each) and a small house-part
 * parser over its tokens. Deliberately small: it reads the house, case, build, liter and flat members
 * and a 6-digit postcode (`д. 5 корп. 2 стр. 1 кв. 17`, `5к2 кв17`, `д 10а`, `д.20-18`, `123456, д 7`),
 * not the other 13 members, ordinals, phones or fractions the core's grammar handles. So it does less
 * work than the core; read its ratio as an upper bound of what plain JS would cost.
 */
import { foldCase } from '../format/fold.js';

export const KIND_ALPHA = 1;
export const KIND_DIGIT = 2;
/** tokens: [start, length, kind, separator-before (0 none, 1 space, 2 '-', 3 ',', 4 '/', 5 other)] */
export const TOKEN_STRIDE = 4;
const MAX_TOKENS = 64;

export class TwinTokenizer {
  readonly tokens = new Int32Array(MAX_TOKENS * TOKEN_STRIDE);
  count = 0;
  folded = '';

  /** Folds and splits `text`; returns the token count. */
  tokenize(text: string): number {
    const folded = foldCase(text);
    this.folded = folded;
    let count = 0;
    let sep = 0;
    let i = 0;
    const n = folded.length;
    while (i < n && count < MAX_TOKENS) {
      const c = folded.charCodeAt(i);
      const kind = c >= 48 && c <= 57 ? KIND_DIGIT : (c >= 0x430 && c <= 0x44f) || (c >= 97 && c <= 122) ? KIND_ALPHA : 0;
      if (!kind) {
        const s = c === 32 ? 1 : c === 45 ? 2 : c === 44 ? 3 : c === 47 ? 4 : 5;
        if (s > sep) sep = s;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < n) {
        const d = folded.charCodeAt(j);
        const k = d >= 48 && d <= 57 ? KIND_DIGIT : (d >= 0x430 && d <= 0x44f) || (d >= 97 && d <= 122) ? KIND_ALPHA : 0;
        if (k !== kind) break;
        j++;
      }
      const at = count * TOKEN_STRIDE;
      this.tokens[at] = i;
      this.tokens[at + 1] = j - i;
      this.tokens[at + 2] = kind;
      this.tokens[at + 3] = sep;
      count++;
      sep = 0;
      i = j;
    }
    this.count = count;
    return count;
  }
}

export interface TwinParts {
  house: string;
  case: string;
  build: string;
  liter: string;
  flat: string;
  postcode: string;
}

type PartKey = keyof TwinParts;

const KEYWORDS = new Map<string, PartKey>([
  ['д', 'house'], ['дом', 'house'], ['вл', 'house'], ['влд', 'house'], ['владение', 'house'], ['двлд', 'house'], ['домовладение', 'house'],
  ['к', 'case'], ['корп', 'case'], ['корпус', 'case'],
  ['с', 'build'], ['стр', 'build'], ['строение', 'build'],
  ['лит', 'liter'], ['литер', 'liter'], ['литера', 'liter'],
  ['кв', 'flat'], ['квартира', 'flat'],
]);

/** Parses the house members of `text` with the twin tokenizer. */
export function parseHouseTwin(tokenizer: TwinTokenizer, text: string): TwinParts {
  const parts: TwinParts = { house: '', case: '', build: '', liter: '', flat: '', postcode: '' };
  const count = tokenizer.tokenize(text);
  const t = tokenizer.tokens;
  const s = tokenizer.folded;
  const word = (k: number) => s.substr(t[k * TOKEN_STRIDE], t[k * TOKEN_STRIDE + 1]);
  let pending: PartKey | null = null;
  let last: PartKey | null = null;
  for (let k = 0; k < count; k++) {
    const at = k * TOKEN_STRIDE;
    const kind = t[at + 2];
    const sep = t[at + 3];
    if (kind === KIND_ALPHA) {
      const w = word(k);
      const keyword = KEYWORDS.get(w);
      // a letter glued to the value before it is part of it (10а), unless it opens a member (10к2)
      if (last && sep === 0 && w.length === 1 && !(keyword && k + 1 < count && t[at + TOKEN_STRIDE + 2] === KIND_DIGIT && t[at + TOKEN_STRIDE + 3] === 0)) {
        parts[last] += w;
        continue;
      }
      if (keyword) {
        pending = keyword;
        last = null;
      } else if (pending === 'liter' && w.length === 1) {
        parts.liter = w;
        pending = null;
      } else {
        pending = null;
        last = null;
      }
      continue;
    }
    const digits = word(k);
    if (pending) {
      parts[pending] = digits;
      last = pending;
      pending = null;
    } else if (digits.length === 6 && !parts.postcode && !parts.house) {
      parts.postcode = digits;
      last = null;
    } else if (!parts.house) {
      parts.house = digits;
      last = 'house';
    } else if (sep === 2 && !parts.flat) {
      parts.flat = digits; // 20-18: house 20, flat 18
      last = 'flat';
    } else {
      last = null;
    }
  }
  return parts;
}
