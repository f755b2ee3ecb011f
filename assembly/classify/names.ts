/**
 * Name classifier: every free token is looked up in the vocabulary trie (with typos; the last token of a
 * hint query as a prefix) and each hit adds the token to the names that contain the word. A name becomes
 * an object candidate when the tokens cover enough of it: all its significant words, or half its weight.
 * The same lookup marks type words (`ул`, `г`, `пр-кт`, …) on the token.
 *
 * Lookups come first and go to a hit log (hit-log.ts, in lookup order), so the postings can be read in parts
 * without a second trie walk. `classifyNames` reads the names of areas (objects with children, see subtree.ts) in
 * full; the leaves are read in parts as the solver asks (solve/scope.ts): `expandLeaves(lo, hi)` the leaves whose
 * object lies in [lo, hi), `readLeaf` one posting of a sweep, `readOrdered` the next object of an order with all its
 * names (`beginOrdered`, `orderedKey`). Every part applies the hits in log order, and a name is read by one part only
 * (the part number in its slot), so each name sees its hits as in one full pass. Bounds on what names not read yet
 * can score: `leafGainBound` (per token), `leafNameBound` (per word and its companions), `orderedBound` (the next
 * object's own names). A hint typed as one word (every hit is the prefix token's) defers its area names too: they are
 * read object by object, best bound first (`orderDeferredAreas`, `readDeferredArea`), as a place's chain is then the
 * place alone; so does a hint whose other words are in no leaf's name, for the places only the word being typed
 * reaches and no place of the other words stands above or below (`deferPrefixAreas`: `екатеринбург лен`). Without
 * the subtree index (`scoped` false) `classifyNames` reads every posting at once.
 *
 * The classifiers, one concern each, in the order a call runs them (this file only runs them):
 *   lookups.ts         tokens looked up into the hit log; type words and place words marked on the way
 *   hit-log.ts         the hits of a call, in lookup order, and what a hit gains on a word
 *   deferred-areas.ts  a hint's areas read object by object, best bound first
 *   postings.ts        postings read in parts: the areas, a range of leaves, a sweep, one object, one name
 *   places.ts          the regions and cities typed, and their leaves read at once
 *   candidates.ts      the name and object candidate tables: a posting read, `collectObjects`
 *   leaf-hits.ts       the hits that reach leaves, by token and by word
 *   bounds.ts          what the names not read yet can score; the solver's charges for the rest
 *   ordered.ts         the ordered reading of leaf names, passing names by on their facts
 *   type-words.ts      type words beside a name, and their bonus
 *   id-hash.ts         the hash and the sets of ids the tables share
 */
import { clearLeadsWanted, ensureSubtrees, scoped } from '../subtree';
import { setupHitLog, startHitLog, clearHitLog, hitTotal } from './hit-log';
import { lookUpTokens } from './lookups';
import { setupCandidates, clearCandidates } from './candidates';
import { setupPostings, readHit } from './postings';
import { setupLeafHits, listLeafHits } from './leaf-hits';
import { setupBounds, clearCharges } from './bounds';
import { setupOrdered, clearRestLooks, rankTokens } from './ordered';
import { beginPlaces, readPlaces } from './places';
import { setupDeferredAreas, chooseDeferredAreas } from './deferred-areas';

/** Reserves the tables of every classifier (once). */
export function setupNames(): void {
  setupHitLog();
  setupLeafHits();
  setupPostings();
  setupDeferredAreas();
  setupOrdered();
  setupCandidates();
  setupBounds();
}

/** Forgets the last query: its candidates, hit log, names looked at, the solver's charges and the leads wanted. */
export function resetCandidates(): void {
  clearCandidates();
  clearRestLooks();
  clearHitLog();
  clearCharges();
  clearLeadsWanted();
}

/**
 * Looks up every free token (letters, ordinals and numbers inside names) into the hit log, then reads the
 * names the hits reach: those of areas when the dictionary has its subtree index (leaves wait for
 * `expandLeaves`), every name otherwise. `prefixToken` is the token read as a prefix (hints), or −1. `hints`: the
 * call lists hints (solve/suggest.ts), whose places of the word being typed are deferred (deferred-areas.ts).
 */
export function classifyNames(prefixToken: i32, hints: bool = false): void {
  ensureSubtrees();
  startHitLog(prefixToken);
  beginPlaces();
  lookUpTokens(prefixToken, hints);
  if (!chooseDeferredAreas(prefixToken, hints)) for (let h = 0; h < hitTotal; h++) readHit(h, scoped);
  readPlaces();
  listLeafHits();
  rankTokens();
}
