/**
 * The word classifier: every free token (letters, ordinals and numbers inside names) is looked up in the vocabulary
 * trie (trie.ts: with typos; the token being typed as a prefix; by its sound when its letters hit nothing), and each
 * hit goes to the hit log (hit-log.ts) with what it cost. The same lookup marks type words (`ул`, `г`, `пр-кт`, …)
 * on the token (type-words.ts) and notes the tokens that spell a region's or a city's name (places.ts).
 */
import { lookup, lookupLong, lookupSound, lookupSoundPrefix, addSoundHits, exactWord, editBudget, firstLetterRange, firstLetterLow, firstLetterHigh, HITS, FAR_KEY, costOf } from '../trie';
import { isLatin, normVariant, VARIANT_PLAIN } from '../text';
import { tok, tokChar, tokenCount, F_START, F_LEN, F_KIND, F_ROLE, KIND_ALPHA, KIND_DIGIT, ROLE_FREE } from '../tokenize';
import { hitTotal, HIT_CAP, logHit } from './hit-log';
import { addTypeHit } from './type-words';
import { notePlaceWord } from './places';

/**
 * A word of six letters or more hit no word of the vocabulary, even with its slips, in the plain reading since the last
 * `clearUnhitWord` (it may be two words glued: solve/readings.ts reads the hints again with them split).
 */
export let unhitWord = false;
export function clearUnhitWord(): void {
  unhitWord = false;
}

/** III, IV, XX: Roman numerals stay Latin in names (ул III Интернационала). */
function isRoman(t: i32): bool {
  const len = tok(t, F_LEN);
  if (len > 5) return false;
  for (let k = 0; k < len; k++) {
    const c = tokChar(t, k);
    if (c != 105 && c != 118 && c != 120 && c != 108 && c != 99) return false; // i v x l c
  }
  return true;
}

/** the fewest letters a word typed with two slips of a word of nine or more is read from (`lookupLong`) */
const LONG_TYPED_LETTERS: i32 = 7;

/** Some of the last lookup's n hits is the word as spelled. */
function spelledRight(n: i32): bool {
  for (let h = 0; h < n; h++) if (costOf(load<i32>(HITS + (<usize>h << 3), 4)) == 0) return true;
  return false;
}

/**
 * Looks up every free token into the hit log (started by hit-log.ts `startHitLog`). `prefixToken` is the token read
 * as a prefix (hints), or −1; `hints`: the call lists hints, which read a word with slips by its letters only (a
 * sound-alike beside them, one more place or street of a short word, would push the hints of the slip down).
 */
export function lookUpTokens(prefixToken: i32, hints: bool): void {
  for (let t = 0; t < tokenCount && t < 64; t++) {
    if (tok(t, F_ROLE) != ROLE_FREE) continue;
    const kind = tok(t, F_KIND);
    const len = tok(t, F_LEN);
    const prefix = t == prefixToken;
    let budget = kind == KIND_DIGIT ? 0 : editBudget(len);
    if (len == 4 && !prefix) budget = 1; // азиа → азина: a missed letter in a short name
    if (prefix && len < 3) budget = 0;
    // the vocabulary is Cyrillic: a Latin word left as typed (the PLAIN reading) is read by the other variants
    if (isLatin(tokChar(t, 0)) && !isRoman(t)) continue;
    // the word being typed may be a whole type word already (`сибирский тракт 1`: тракт types the street; of four
    // letters or more: `ул`, `пр`, `пер` start too many names while typed, and cost the bounds of every prefix)
    if (prefix && len >= 4) {
      const exact = exactWord(tok(t, F_START), len);
      if (exact >= 0) addTypeHit(t, exact);
    }
    // one edit first: most typos are one, and the two-edit walk costs far more
    let n = lookup(tok(t, F_START), len, budget > 1 ? 1 : budget, prefix);
    if (n == 0 && budget > 1) n = lookup(tok(t, F_START), len, budget, prefix);
    // a word of four being typed, with the house's number after it, is whole: a missed or wrong letter, as in a word
    // of four not being typed (`мипа 46`, `щоса 103`), when it starts no word as spelled
    if (n == 0 && prefix && len == 4 && kind != KIND_DIGIT && t + 1 < tokenCount && tok(t + 1, F_KIND) == KIND_DIGIT) {
      budget = 1;
      n = lookup(tok(t, F_START), len, 1, prefix);
    }
    // a word written as it is heard, two edits or more by letters (`маяковскова`, `брацкая`): its sound key; and
    // one whose letters are also a slip of another word (`тальяти`: тольятти by ear), where by ear it costs one edit
    // and an eighth, behind the slips (`лениина` is ленина before линейная), and the names around it choose
    const slips = n;
    if (n == 0 && kind == KIND_ALPHA) n = lookupSound(tok(t, F_START), len);
    // the word being typed spelled by ear: the words its first letters start by sound (`кувшен`: кувшиново)
    if (n == 0 && kind == KIND_ALPHA && prefix) n = lookupSoundPrefix(tok(t, F_START), len);
    // (with no slip the sound key was read just above: its words are hits already)
    else if (slips > 0 && kind == KIND_ALPHA && !hints && !spelledRight(n)) n = addSoundHits(tok(t, F_START), len);
    // two slips in a long word that left it shorter than nine letters (`чйковсий` for чайковский)
    if (n == 0 && kind == KIND_ALPHA && !prefix && len >= LONG_TYPED_LETTERS && budget == 1) n = lookupLong(tok(t, F_START), len);
    if (n == 0 && len >= 6 && kind == KIND_ALPHA && normVariant == VARIANT_PLAIN) unhitWord = true;
    // a typo rarely touches a word's first letter: an edit that changes it costs an eighth of the word more
    // (`талинский` is таллинский before шалинский)
    if (budget > 0) firstLetterRange(tokChar(t, 0));
    for (let h = 0; h < n && hitTotal < HIT_CAP; h++) {
      const w = load<i32>(HITS + (<usize>h << 3));
      const walked = load<i32>(HITS + (<usize>h << 3), 4);
      const cost = costOf(walked);
      const firstChanged = cost > 0 && (w < firstLetterLow || w > firstLetterHigh) ? 1 : 0;
      // and so does a slip a typist rarely makes: a letter typed for one far from it on the keyboard and unlike in
      // sound (`вмдная` is видная before водная: м is и's neighbour), a stray letter typed in more (trie.ts farSlip)
      const farSlip = (walked & FAR_KEY) != 0 ? 1 : 0;
      if (cost == 0 && !prefix) {
        addTypeHit(t, w);
        notePlaceWord(t, w, len);
      } else if (cost == 1 && !prefix && len >= 4 && firstChanged == 0) {
        // a type word with one slip, its first letter kept (`улца`, `проспкт`): the type, not a leftover
        addTypeHit(t, w);
      }
      const byEar = slips > 0 && h >= slips ? 1 : 0;
      logHit(w, t, cost * 2 + firstChanged + farSlip + byEar);
    }
  }
}
