/**
 * Sound keys: a second way into the vocabulary for words spelled as they are heard.
 *
 * People write what they hear: `Маяковскова` for Маяковского, `Брацкая` for Братская, `Касимовская` for
 * Кассимовская, `Чаиковского` for Чайковского, unstressed vowels swapped (`Остошева` for Осташева). By letters these
 * cost two edits or more, more than a word's budget allows, while a random two-letter slip must stay expensive. A
 * sound key collapses what Russian spelling writes apart but speech does not:
 *
 *   о я → а, е э и й → и, ю → у, ы → и after ж ш ц; ь ъ dropped;
 *   т д before с or ц → ц (тс, тьс, дс, тц: `братская` → брацкая), сч зч жч → щ;
 *   a voiced consonant ending the word is voiceless (б в г д ж з → п ф к т ш с);
 *   a letter repeated is written once (`кассимовская` → касимовская);
 *   the genitive ending -ого / -его is written as heard, -ова / -ева (the key ends in ава / ива either way).
 *
 * Two words of five letters or more with the same key are one word by ear. The table (SOUND: one i64 per word of the
 * vocabulary, the key's 31-bit FNV-1a hash in the high half and the word id in the low, sorted) is built from the
 * trie by the first look-up after a dictionary is attached, one walk over the trie's words; a look-up hashes the
 * query's key and reads the run of equal hashes by binary search. Memory: 8 bytes per word of the vocabulary.
 *
 * A word spelled by ear with a slip besides (`Совиская` for Советская, `Чоклова` for Чкалова) is one edit away by
 * key: `soundWordsNear` tries the keys one deletion, transposition, substitution or insertion from the key
 * `soundWords` made (each a look-up of the same table, behind a bit filter), for words of SOUND_NEAR_LETTERS or more,
 * when nothing else read the word. A word not spelled right whose letters are one slip from other words is read by
 * its key besides in standardization (trie.ts `addSoundHits`: `тальяти` for тольятти), an eighth dearer than the
 * slips; hints read it by letters only.
 */
import { reserve, u16At, NORM } from './memory';
import { TRIE, trieCount, trieNode, wordCount } from './blob';
import { heapAt, setHeapAt, sortAscending } from './heap';
import {
  CH_A as A, CH_BE as B, CH_VE as V, CH_GE as G, CH_DE as D, CH_E as E, CH_ZHE as ZH, CH_ZE as Z, CH_I as I,
  CH_I_SHORT as J, CH_O as O, CH_PE as P, CH_ES as S, CH_TE as T, CH_U as U, CH_EF as F, CH_TSE as TS, CH_CHE as CH,
  CH_SHA as SH, CH_SHCHA as SHCH, CH_HARD as HARD, CH_YERU as Y, CH_SOFT as SOFT, CH_E_ROUND as EH, CH_YU as YU,
  CH_YA as YA, CH_KA as K,
} from './text';

/** words shorter than this have no sound key: their spellings are too close to each other */
export const SOUND_MIN_LETTERS: i32 = 5;
/** the most words one key may name before it is no way in (a key that common tells nothing) */
const SOUND_MAX_WORDS: i32 = 8;
/** the shortest word whose key's one-edit neighbours are tried (shorter keys have too many neighbours) */
export const SOUND_NEAR_LETTERS: i32 = 7;
/** the longest word keyed (longer ones are compounds the fuzzy walk reads) */
const SOUND_MAX_LETTERS: i32 = 40;

let SOUND: usize = 0;
let soundCount: i32 = 0;
let builtTrie: usize = 0;
let builtWords: i32 = -1;
/** the letters being keyed (a trie path or a query word) and the key */
let LETTERS: usize = 0;
let KEY: usize = 0;
/** the length of the key `soundWords` last wrote to KEY (−1: none), and of the word it was made from */
let keyLength: i32 = -1;
let keyedLetters: i32 = 0;
/** FNV-1a state after each prefix of the query's key (u32 × (m + 1)), so a neighbour's hash costs its tail only */
let PREFIX: usize = 0;
/** one bit per key hash (low bits): a neighbour whose bit is clear names no word, without a binary search */
let FILTER: usize = 0;
let filterMask: u32 = 0;
let STACK: usize = 0;
/** words found by the last `soundWords` */
let FOUND: usize = 0;
export let foundCount: i32 = 0;

// @ts-ignore: decorator
@inline function letterAt(i: i32): i32 {
  return <i32>load<u16>(LETTERS + (<usize>i << 1));
}

// @ts-ignore: decorator
@inline function skipSigns(i: i32, n: i32): i32 {
  while (i < n && (letterAt(i) == SOFT || letterAt(i) == HARD)) i++;
  return i;
}

/** The letter c as heard after the key's last letter `prev`, inside a word (no devoicing), or 0 when it is dropped. */
function heardLetter(c: i32, prev: i32): i32 {
  switch (c) {
    case SOFT: case HARD: return 0;
    case O: case YA: return A;
    case E: case EH: case J: return I;
    case YU: return U;
    case Y: return prev == ZH || prev == SH || prev == TS ? I : Y;
  }
  return c;
}

/**
 * The letter as heard, at position i of n (`prev`: the key's last letter), or 0 when it is dropped; `whole`: the
 * letters are a whole word, whose last letter is devoiced (not a word's first letters being typed).
 */
function heard(i: i32, n: i32, prev: i32, whole: bool): i32 {
  const c = letterAt(i);
  const h = heardLetter(c, prev);
  if (h != c) return h;
  if (whole && i + 1 >= n) {
    switch (c) {
      case B: return P; case V: return F; case G: return K; case D: return T; case ZH: return SH; case Z: return S;
    }
  }
  return c;
}

/** Writes the key of LETTERS[0 … n) to KEY (`whole`: a whole word, else a word's first letters); returns its length. */
function keyOf(n: i32, whole: bool = true): i32 {
  let m = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const c = letterAt(i);
    let h: i32;
    const next = skipSigns(i + 1, n);
    if ((c == T || c == D) && next < n && (letterAt(next) == S || letterAt(next) == TS)) {
      h = TS; // тс, тьс, дс, тц → ц
      i = next;
    } else if ((c == S || c == Z || c == ZH) && next == i + 1 && next < n && letterAt(next) == CH) {
      h = SHCH; // сч, зч, жч → щ
      i = next;
    } else {
      h = heard(i, n, prev, whole);
    }
    if (h == 0 || h == prev) continue;
    store<u16>(KEY + (<usize>m << 1), <u16>h);
    m++;
    prev = h;
  }
  // -ого / -его as heard: the key's ага / ига is ава / ива
  if (whole && m >= 4 && load<u16>(KEY + (<usize>(m - 2) << 1)) == G && load<u16>(KEY + (<usize>(m - 1) << 1)) == A) {
    const vowel = <i32>load<u16>(KEY + (<usize>(m - 3) << 1));
    if (vowel == A || vowel == I) store<u16>(KEY + (<usize>(m - 2) << 1), <u16>V);
  }
  return m;
}

/** 31 bits of FNV-1a over the key's m letters. */
function hashKey(m: i32): i64 {
  return finalHash(fnvKey(FNV_OFFSET, 0, m));
}

/** Builds SOUND from the trie's words (once per attached vocabulary). */
function ensureSoundKeys(): void {
  if (builtTrie == TRIE && builtWords == wordCount) return;
  builtTrie = TRIE;
  builtWords = wordCount;
  soundCount = 0;
  if (trieCount == 0 || wordCount == 0) return;
  if (LETTERS == 0) {
    LETTERS = reserve(<usize>(SOUND_MAX_LETTERS + 1) << 1);
    KEY = reserve(<usize>(SOUND_MAX_LETTERS + 1) << 1);
    PREFIX = reserve(<usize>(SOUND_MAX_LETTERS + 2) << 2);
    STACK = reserve(<usize>(SOUND_MAX_LETTERS + 2) << 4);
    FOUND = reserve(<usize>SOUND_MAX_WORDS << 2);
  }
  SOUND = reserve(<usize>wordCount << 3);
  // depth-first over the trie (first child, next sibling); a pending sibling per depth, so the stack holds a
  // node and its depth for at most one entry a level
  store<i32>(STACK, trieNode(0, 0));
  store<i32>(STACK, 1, 4);
  let sp = 1;
  while (sp > 0) {
    sp--;
    const node = load<i32>(STACK + (<usize>sp << 3));
    const depth = load<i32>(STACK + (<usize>sp << 3), 4);
    if (node < 0) continue;
    const sibling = trieNode(node, 1);
    if (sibling >= 0) {
      store<i32>(STACK + (<usize>sp << 3), sibling);
      store<i32>(STACK + (<usize>sp << 3), depth, 4);
      sp++;
    }
    if (depth > SOUND_MAX_LETTERS) continue;
    store<u16>(LETTERS + (<usize>(depth - 1) << 1), <u16>trieNode(node, 2));
    const wordId = trieNode(node, 3);
    if (wordId >= 0 && depth >= SOUND_MIN_LETTERS && soundCount < wordCount) {
      setHeapAt(SOUND, soundCount++, (hashKey(keyOf(depth)) << 32) | <i64>wordId);
    }
    const child = trieNode(node, 0);
    if (child >= 0 && sp < SOUND_MAX_LETTERS + 1) {
      store<i32>(STACK + (<usize>sp << 3), child);
      store<i32>(STACK + (<usize>sp << 3), depth + 1, 4);
      sp++;
    }
  }
  sortAscending(SOUND, soundCount);
  // the filter: 16 bits a word or more (a power of two), so about one neighbour in ten passes it by chance
  let bits: u32 = 1 << 16;
  while (bits < <u32>soundCount * 16 && bits < (1 << 30)) bits <<= 1;
  FILTER = reserve(<usize>(bits >>> 3));
  memory.fill(FILTER, 0, <usize>(bits >>> 3));
  filterMask = bits - 1;
  for (let k = 0; k < soundCount; k++) {
    const bit = filterBit(heapAt(SOUND, k) >> 32);
    store<u8>(FILTER + (bit >>> 3), load<u8>(FILTER + (bit >>> 3)) | <u8>((<u32>1) << (bit & 7)));
  }
}

/** The filter's bit of a key hash. */
// @ts-ignore: decorator
@inline function filterBit(hash: i64): u32 {
  return <u32>hash & filterMask;
}

const FNV_OFFSET: u32 = 2166136261;
const FNV_PRIME: u32 = 16777619;

// @ts-ignore: decorator
@inline function fnv(h: u32, c: u32): u32 {
  return (h ^ c) * FNV_PRIME;
}

/** A key's hash, 31 bits, from its final FNV-1a state. */
// @ts-ignore: decorator
@inline function finalHash(h: u32): i64 {
  return <i64>(h >>> 1);
}

/** The hash state after feeding KEY[from … m) to state h. */
function fnvKey(h: u32, from: i32, m: i32): u32 {
  for (let k = from; k < m; k++) h = fnv(h, <u32>load<u16>(KEY + (<usize>k << 1)));
  return h;
}

/** The words of a neighbour's final hash state h, unless the filter says there are none. */
function collectNear(h: u32): bool {
  const hash = finalHash(h);
  const bit = filterBit(hash);
  if ((load<u8>(FILTER + (bit >>> 3)) & <u8>((<u32>1) << (bit & 7))) == 0) return true;
  return collect(hash);
}

/**
 * The words of the vocabulary that sound as NORM[start … start+len) does: their ids in `foundWord(0 …
 * foundCount)`. None for a word shorter than SOUND_MIN_LETTERS, or when its key names more than SOUND_MAX_WORDS.
 */
export function soundWords(start: i32, len: i32): i32 {
  foundCount = 0;
  keyLength = -1;
  if (len < SOUND_MIN_LETTERS || len > SOUND_MAX_LETTERS) return 0;
  ensureSoundKeys();
  if (soundCount == 0) return 0;
  for (let k = 0; k < len; k++) store<u16>(LETTERS + (<usize>k << 1), <u16>u16At(NORM, start + k));
  keyLength = keyOf(len);
  keyedLetters = len;
  if (!collect(hashKey(keyLength))) foundCount = 0;
  return foundCount;
}

/** The letters a key is written in (what `heard` leaves): the substitutions and insertions tried. */
const KEY_LETTERS = 'абвгджзиклмнпрстуфхцчшщы';

/**
 * The words whose key is one edit from the key of the word `soundWords` was last given (its own key excluded: that
 * is `soundWords`), in `foundWord(0 … foundCount)`; none for a word shorter than SOUND_NEAR_LETTERS, or when the
 * neighbours name more than SOUND_MAX_WORDS words.
 */
export function soundWordsNear(): i32 {
  foundCount = 0;
  if (keyLength < 0 || keyedLetters < SOUND_NEAR_LETTERS) return 0;
  const m = keyLength;
  // the hash state after each prefix of the key: a neighbour's hash is its prefix's state and its tail
  let h = FNV_OFFSET;
  store<u32>(PREFIX, h);
  for (let k = 0; k < m; k++) {
    h = fnv(h, <u32>load<u16>(KEY + (<usize>k << 1)));
    store<u32>(PREFIX + (<usize>(k + 1) << 2), h);
  }
  for (let i = 0; i < m; i++) {
    const before = load<u32>(PREFIX + (<usize>i << 2));
    const here = <u32>load<u16>(KEY + (<usize>i << 1));
    // a letter typed in more: the key without it
    if (!collectNear(fnvKey(before, i + 1, m))) return (foundCount = 0);
    // two letters swapped
    if (i + 1 < m) {
      const next = <u32>load<u16>(KEY + (<usize>(i + 1) << 1));
      if (next != here && !collectNear(fnvKey(fnv(fnv(before, next), here), i + 2, m))) return (foundCount = 0);
    }
    for (let c = 0; c < KEY_LETTERS.length; c++) {
      const letter = <u32>KEY_LETTERS.charCodeAt(c);
      // a letter typed for another, and a letter left out (not before the first: people rarely mistype it)
      if (i > 0 && letter != here && !collectNear(fnvKey(fnv(before, letter), i + 1, m))) return (foundCount = 0);
      if (i > 0 && !collectNear(fnvKey(fnv(before, letter), i, m))) return (foundCount = 0);
    }
  }
  // a letter left out at the end
  for (let c = 0; c < KEY_LETTERS.length; c++) {
    if (!collectNear(fnv(load<u32>(PREFIX + (<usize>m << 2)), <u32>KEY_LETTERS.charCodeAt(c)))) return (foundCount = 0);
  }
  return foundCount;
}

/** Adds the words of key hash `hash` to FOUND (each once); false when they would pass SOUND_MAX_WORDS. */
function collect(hash: i64): bool {
  // the first entry of the hash: binary search on the high half
  let low = 0;
  let high = soundCount;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((heapAt(SOUND, mid) >> 32) < hash) low = mid + 1;
    else high = mid;
  }
  for (let k = low; k < soundCount && (heapAt(SOUND, k) >> 32) == hash; k++) {
    const wordId = <i32>(heapAt(SOUND, k) & 0xffffffff);
    let seen = false;
    for (let f = 0; f < foundCount && !seen; f++) seen = load<i32>(FOUND + (<usize>f << 2)) == wordId;
    if (seen) continue;
    if (foundCount == SOUND_MAX_WORDS) return false;
    store<i32>(FOUND + (<usize>foundCount << 2), wordId);
    foundCount++;
  }
  return true;
}

/** The k-th word `soundWords` found. */
export function foundWord(k: i32): i32 {
  return load<i32>(FOUND + (<usize>k << 2));
}

/** the shortest key of a word's first letters that is looked up, and the most letters its key may drop */
const PREFIX_KEY_LETTERS: i32 = 4;
const PREFIX_KEY_LOST: i32 = 3;
/** the most trie nodes one `soundPrefixNodes` walk visits, and the most subtrees it finds */
const PREFIX_VISITS: i32 = 20000;
const PREFIX_NODES: i32 = 16;
/** the query's first letters' key, its length, and the walk's stack: (node, key letters matched, last key letter, flags) */
let PREFIX_KEY: usize = 0;
let prefixKeyLength: i32 = 0;
let WALK: usize = 0;
/** the nodes found by the last `soundPrefixNodes` */
let NODES: usize = 0;
let nodeCount: i32 = 0;
/** a flag of a walk's entry: the last letter was т or д read as itself, so с or ц may not follow (they would be ц) */
const AFTER_TD: i32 = 1;
/** the last letter was с, з or ж read as itself, so ч may not follow at once (it would be щ) */
const AFTER_SZ: i32 = 2;

/**
 * The trie nodes whose path sounds as NORM[start … start+len), a word's first letters being typed, does (`кувшен`:
 * кувшин…, `чернаго`: черного…), each the root of the words it starts: `nodeFound(0 … nodeCount)`. The walk follows
 * only the letters that keep the path's key (`keyOf`, no devoicing at the end) on the query's, so it reads few nodes.
 * None for fewer than SOUND_MIN_LETTERS letters, or when more than PREFIX_NODES subtrees match.
 */
export function soundPrefixNodes(start: i32, len: i32): i32 {
  nodeCount = 0;
  if (len < SOUND_MIN_LETTERS || len > SOUND_MAX_LETTERS || trieCount == 0) return 0;
  ensureSoundKeys();
  if (PREFIX_KEY == 0) {
    PREFIX_KEY = reserve(<usize>(SOUND_MAX_LETTERS + 1) << 1);
    NODES = reserve(<usize>PREFIX_NODES << 2);
    // one entry per node pushed: at most the children of every node on the path, bounded by the visits
    WALK = reserve(<usize>PREFIX_VISITS << 4);
  }
  for (let k = 0; k < len; k++) store<u16>(LETTERS + (<usize>k << 1), <u16>u16At(NORM, start + k));
  prefixKeyLength = keyOf(len, false);
  keyLength = -1; // KEY no longer holds the key `soundWordsNear` reads
  // a key much shorter than the letters is no spelling by ear (`ййййяяяя` keys as иа) and would start too many words
  if (prefixKeyLength < PREFIX_KEY_LETTERS || prefixKeyLength < len - PREFIX_KEY_LOST) return 0;
  memory.copy(PREFIX_KEY, KEY, <usize>prefixKeyLength << 1);
  let sp = 0;
  sp = pushChildren(trieNode(0, 0), 0, 0, 0, sp);
  let visits = 0;
  while (sp > 0 && visits < PREFIX_VISITS) {
    sp--;
    visits++;
    const at = WALK + (<usize>sp << 4);
    const node = load<i32>(at);
    const matched = load<i32>(at, 4);
    const prev = load<i32>(at, 8);
    const flags = load<i32>(at, 12);
    const c = trieNode(node, 2);
    if (c == SOFT || c == HARD) {
      // тьс is ц still; сьч is no щ
      sp = pushChildren(trieNode(node, 0), matched, prev, flags & AFTER_TD, sp);
      continue;
    }
    if ((flags & AFTER_TD) != 0 && (c == S || c == TS)) continue;
    if ((flags & AFTER_SZ) != 0 && c == CH) continue;
    // т or д before с or ц (signs between) is ц, с з ж before ч is щ: read at the second letter
    if ((flags & AFTER_TD) == 0 && (c == T || c == D)) sp = pushMerged(node, matched, prev, TS, sp);
    if ((flags & AFTER_SZ) == 0 && (c == S || c == Z || c == ZH)) sp = pushMerged(node, matched, prev, SHCH, sp);
    const next = (c == T || c == D ? AFTER_TD : 0) | (c == S || c == Z || c == ZH ? AFTER_SZ : 0);
    sp = step(node, matched, prev, heardLetter(c, prev), next, sp);
    if (sp < 0) return (nodeCount = 0);
  }
  return nodeCount;
}

/** The path goes on through `node`, heard as h: pushes its children, or keeps the node when the key is matched. */
function step(node: i32, matched: i32, prev: i32, h: i32, flags: i32, sp: i32): i32 {
  if (h != prev) {
    if (h != <i32>load<u16>(PREFIX_KEY + (<usize>matched << 1))) return sp;
    matched++;
    prev = h;
  }
  if (matched == prefixKeyLength) {
    if (nodeCount == PREFIX_NODES) return -1;
    store<i32>(NODES + (<usize>nodeCount << 2), node);
    nodeCount++;
    return sp;
  }
  return pushChildren(trieNode(node, 0), matched, prev, flags, sp);
}

/** The letter at `node` (т д, or с з ж) read with the next one as `merged` (ц, щ): steps on from each such child. */
function pushMerged(node: i32, matched: i32, prev: i32, merged: i32, sp: i32): i32 {
  for (let child = trieNode(node, 0); child >= 0 && sp >= 0; child = trieNode(child, 1)) {
    const c = trieNode(child, 2);
    if (merged == TS && (c == S || c == TS)) sp = step(child, matched, prev, TS, 0, sp);
    else if (merged == SHCH && c == CH) sp = step(child, matched, prev, SHCH, 0, sp);
    else if (merged == TS && (c == SOFT || c == HARD)) sp = pushMerged(child, matched, prev, merged, sp);
  }
  return sp;
}

/** Pushes `first` and its siblings with the walk's state; returns the new stack size (the stack is bounded). */
function pushChildren(first: i32, matched: i32, prev: i32, flags: i32, sp: i32): i32 {
  if (sp < 0) return sp;
  for (let child = first; child >= 0 && sp < PREFIX_VISITS; child = trieNode(child, 1)) {
    const at = WALK + (<usize>sp << 4);
    store<i32>(at, child);
    store<i32>(at, matched, 4);
    store<i32>(at, prev, 8);
    store<i32>(at, flags, 12);
    sp++;
  }
  return sp;
}

/** The k-th node `soundPrefixNodes` found. */
export function nodeFound(k: i32): i32 {
  return load<i32>(NODES + (<usize>k << 2));
}
