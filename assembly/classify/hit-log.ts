/**
 * The hit log: every vocabulary word the lookups (lookups.ts) found for a token, in lookup order, so that the
 * postings can be read in parts (postings.ts, ordered.ts, deferred-areas.ts, places.ts) without a second trie walk.
 *
 * HIT_WORDS i32 per hit: the word id. HIT_INFO i32 per hit: token << 8 | cost in eighths of the word (`hitCost`).
 * At most HIT_CAP hits a call, written by `logHit` alone. What a hit gains on a word of some weight (`typoGain`,
 * `gainAt`) is worked out here too: every reader and every bound asks it.
 */
import { reserve } from '../memory';
import { MAX_HITS } from '../trie';

/** every hit of one call: MAX_HITS per token, 64 tokens */
export const HIT_CAP: i32 = MAX_HITS * 64;

let HIT_WORDS: usize = 0;
let HIT_INFO: usize = 0;
export let hitTotal: i32 = 0;

/** the token read as a prefix (hints), or −1 */
export let prefixTok: i32 = -1;

export function setupHitLog(): void {
  if (HIT_WORDS != 0) return;
  HIT_WORDS = reserve(<usize>HIT_CAP << 2);
  HIT_INFO = reserve(<usize>HIT_CAP << 2);
}

/** Starts this call's log; `prefixToken` is the token read as a prefix (hints), or −1. */
export function startHitLog(prefixToken: i32): void {
  prefixTok = prefixToken;
  hitTotal = 0;
}

/** Empties the log (a new query). */
export function clearHitLog(): void {
  hitTotal = 0;
}

/** Logs a hit of token t on word w at `cost` eighths of the word (`hitCost`); the caller keeps within HIT_CAP. */
// @ts-ignore: decorator
@inline export function logHit(w: i32, t: i32, cost: i32): void {
  store<i32>(HIT_WORDS + (<usize>hitTotal << 2), w);
  store<i32>(HIT_INFO + (<usize>hitTotal << 2), (t << 8) | cost);
  hitTotal++;
}

// @ts-ignore: decorator
@inline export function hitToken(h: i32): i32 {
  return load<i32>(HIT_INFO + (<usize>h << 2)) >> 8;
}
/**
 * What a word of `weight` gains hit at `cost`: a typo costs a quarter of the word per edit (`cost` in eighths:
 * `hitCost`), a prefix that is not the whole word a little.
 */
// @ts-ignore: decorator
@inline export function typoGain(weight: i32, cost: i32, prefix: bool): i32 {
  return weight - (weight * cost) / 8 - (prefix ? weight / 20 : 0);
}

/**
 * Hit h's cost in eighths of its word: two per edit, one more when an edit changed the word's first letter, one more
 * when it is a slip a typist rarely makes (trie.ts FAR_KEY).
 */
// @ts-ignore: decorator
@inline export function hitCost(h: i32): i32 {
  return load<i32>(HIT_INFO + (<usize>h << 2)) & 0xff;
}
// @ts-ignore: decorator
@inline export function hitWord(h: i32): i32 {
  return load<i32>(HIT_WORDS + (<usize>h << 2));
}

export function hitWordOf(h: i32): i32 {
  return hitWord(h);
}

/**
 * What hit h gains on its word when the word weighs at most `weight` in the name: `hitName`'s gain (weight less a
 * quarter per edit, less a twentieth for a prefix) at that weight or up to five below (the rounded terms can make
 * a smaller weight gain one or two more; six below it gains less).
 */
let gainMemoKey: i32 = -1;
let gainMemo: i32 = 0;
// @ts-ignore: decorator
@inline export function gainAt(h: i32, weight: i32): i32 {
  // one remembered (weight, cost, prefix): most words weigh the same, and a call asks thousands of times (the test
  // inline, the rest not)
  const key = (weight << 9) | (hitCost(h) << 1) | (hitToken(h) == prefixTok ? 1 : 0);
  return key == gainMemoKey && weight >= 0 ? gainMemo : gainOf(key, weight);
}

/** `gainAt` worked out for (weight, cost, prefix) packed in `key`, and remembered. */
function gainOf(key: i32, weight: i32): i32 {
  const cost = (key >> 1) & 0xff;
  const prefix = (key & 1) != 0;
  let best = 0;
  for (let w = weight; w >= 0 && w >= weight - 5; w--) {
    const gained = typoGain(w, cost, prefix);
    if (gained > best) best = gained;
  }
  gainMemoKey = key;
  gainMemo = best;
  return best;
}

/** Every hit is token t's. */
export function onlyToken(t: i32): bool {
  if (t < 0 || hitTotal == 0) return false;
  for (let h = 0; h < hitTotal; h++) if (hitToken(h) != t) return false;
  return true;
}
