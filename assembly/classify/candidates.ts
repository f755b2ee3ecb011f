/**
 * Candidates: the names the hits reach and the objects they make. A posting read (`readPosting`: hit h on name n)
 * adds the hit's token to the name's slot (`hitName`); a name becomes an object candidate when the tokens cover
 * enough of it (`collectObjects`): all its significant words, or half its weight. Every reader of postings
 * (postings.ts, ordered.ts, deferred-areas.ts, places.ts) comes here; the solvers read the object slots.
 *
 * A name is read by one part of the reading only (the part number in its slot, `newPart`: the areas, one range,
 * one sweep, one name read in order), so each name sees its hits as in one full pass.
 *
 * NAME_SLOTS: open-addressing table keyed by name id, NAME_SLOT_BYTES each:
 *   @0 nameId  @4 matched (weight×100 less typo cost)  @8 matchedRaw  @12 wordsMask (name words hit)
 *   @16 firstTok  @20 lastTok  @24 flags (1 = an alpha token hit)  @28 reserve: (gain << 16 | word << 8 | token)
 *   of the other hit of a word hit twice, −1  @32 u64 token mask
 *   @40 u8 × 8 token that hit each of the first 8 words (255 none)  @48 u8 × 8 what that hit gained
 *   @56 the hit that first reached the name (with the name id, its place in a one-pass reading)
 *   @60 the part that read it (a name is read by one part: later parts pass it by)
 * OBJ_SLOTS: the same keyed by object id, OBJ_SLOT_BYTES each:
 *   @0 objectId  @4 score×100  @8 firstTok  @12 lastTok  @16 flags (NAME_HISTORICAL)  @20 typeToken
 *   @24 typeBonus×100  @28 chain score (solve/chain.ts)  @32 u64 token mask
 *   @40 order key: hit, @44 name id of the name that made the candidate (ties go to the earlier, as in one pass)
 * Both tables are reset through their used lists, so a call costs what it touched.
 * A slot's fields are written here, but for the type bonus (@20, @24: type-words.ts `scoreType`) and the chain
 * score (@28: solve/chain.ts).
 */
import { reserve } from '../memory';
import { name, nameWord, nameCount, NAME_HISTORICAL, NAME_INITIAL } from '../blob';
import { isArea } from '../subtree';
import { tok, tokenCount, F_KIND, F_ORDINAL, KIND_ALPHA } from '../tokenize';
import { hitToken, hitWord, hitCost, typoGain, prefixTok } from './hit-log';
import { scoreType } from './type-words';
import { hash } from './id-hash';

const NAME_SLOT_CAP: i32 = 65536;
const NAME_SLOT_BYTES: i32 = 64;
const OBJ_SLOT_CAP: i32 = 65536;
const OBJ_SLOT_BYTES: i32 = 48;
const MAX_POSTINGS_PER_CALL: i32 = 200000;

/** a name word that weighs less is no significant word of a name (`на` of Ростов-на-Дону, a title, a type word) */
export const SIGNIFICANT_WEIGHT: i32 = 100;

let NAME_SLOTS: usize = 0;
let NAME_USED: usize = 0;
export let nameUsed: i32 = 0;
let OBJ_SLOTS: usize = 0;
let OBJ_USED: usize = 0;
export let objUsed: i32 = 0;
let postingsSeen: i32 = 0;

/** the areas whose score turned positive in this call, in that order (solve/scope.ts: what stands above a leaf) */
let RAISED: usize = 0;
export let raisedCount: i32 = 0;

/** names already turned into candidates (collectObjects reads the ones after) */
let namesCollected: i32 = 0;

/** the part being read: the areas, one range, one sweep, one name read in order */
let partNow: i32 = 0;

/** Starts a new part of the reading (names read by earlier parts are passed by). */
export function newPart(): void {
  partNow++;
}

export function setupCandidates(): void {
  if (NAME_SLOTS != 0) return;
  NAME_SLOTS = reserve(<usize>NAME_SLOT_CAP * NAME_SLOT_BYTES);
  NAME_USED = reserve(<usize>NAME_SLOT_CAP * 4);
  OBJ_SLOTS = reserve(<usize>OBJ_SLOT_CAP * OBJ_SLOT_BYTES);
  OBJ_USED = reserve(<usize>OBJ_SLOT_CAP * 4);
  RAISED = reserve(<usize>OBJ_SLOT_CAP * 4);
  for (let i = 0; i < NAME_SLOT_CAP; i++) store<i32>(NAME_SLOTS + <usize>i * NAME_SLOT_BYTES, -1);
  for (let i = 0; i < OBJ_SLOT_CAP; i++) store<i32>(OBJ_SLOTS + <usize>i * OBJ_SLOT_BYTES, -1);
}

/** Empties both tables through their used lists (a new query). */
export function clearCandidates(): void {
  for (let k = 0; k < nameUsed; k++) {
    store<i32>(NAME_SLOTS + <usize>load<i32>(NAME_USED + (<usize>k << 2)) * NAME_SLOT_BYTES, -1);
  }
  nameUsed = 0;
  for (let k = 0; k < objUsed; k++) {
    store<i32>(OBJ_SLOTS + <usize>load<i32>(OBJ_USED + (<usize>k << 2)) * OBJ_SLOT_BYTES, -1);
  }
  objUsed = 0;
  raisedCount = 0;
  postingsSeen = 0;
  namesCollected = 0;
}

/** Slot of a name id (created when absent, as reached first by hit `hit`), or −1 when the table is full. */
function nameSlot(nameId: i32, hit: i32): usize {
  let i = hash(nameId) & (NAME_SLOT_CAP - 1);
  while (true) {
    const p = NAME_SLOTS + <usize>i * NAME_SLOT_BYTES;
    const id = load<i32>(p);
    if (id == nameId) return p;
    if (id < 0) {
      if (nameUsed >= (NAME_SLOT_CAP * 3) / 4) return 0;
      store<i32>(p, nameId);
      store<i32>(p, 0, 4);
      store<i32>(p, 0, 8);
      store<i32>(p, 0, 12);
      store<i32>(p, 1 << 20, 16);
      store<i32>(p, -1, 20);
      store<i32>(p, 0, 24);
      store<i32>(p, -1, 28);
      store<u64>(p, 0, 32);
      store<u64>(p, 0xffffffffffffffff, 40);
      store<u64>(p, 0, 48);
      store<i32>(p, hit, 56);
      store<i32>(p, partNow, 60);
      store<i32>(NAME_USED + (<usize>nameUsed << 2), i);
      nameUsed++;
      return p;
    }
    i = (i + 1) & (NAME_SLOT_CAP - 1);
  }
}

/** Slot of an object id; `create` adds it. Returns 0 when absent (or the table is full). */
export function objSlot(objectId: i32, create: bool): usize {
  let i = hash(objectId) & (OBJ_SLOT_CAP - 1);
  while (true) {
    const p = OBJ_SLOTS + <usize>i * OBJ_SLOT_BYTES;
    const id = load<i32>(p);
    if (id == objectId) return p;
    if (id < 0) {
      if (!create || objUsed >= (OBJ_SLOT_CAP * 3) / 4) return 0;
      store<i32>(p, objectId);
      store<i32>(p, -1000000, 4);
      store<i32>(p, 0, 8);
      store<i32>(p, 0, 12);
      store<i32>(p, 0, 16);
      store<i32>(p, -1, 20);
      store<i32>(p, 0, 24);
      store<i32>(p, -1000000, 28);
      store<u64>(p, 0, 32);
      store<i32>(p, 0, 40);
      store<i32>(p, 0, 44);
      store<i32>(OBJ_USED + (<usize>objUsed << 2), i);
      objUsed++;
      return p;
    }
    i = (i + 1) & (OBJ_SLOT_CAP - 1);
  }
}

/** The i-th area whose score turned positive in this call (scores only grow: it stays positive). */
export function raisedArea(i: i32): i32 {
  return load<i32>(RAISED + (<usize>i << 2));
}

/** The k-th object candidate slot. */
export function objAt(k: i32): usize {
  return OBJ_SLOTS + <usize>load<i32>(OBJ_USED + (<usize>k << 2)) * OBJ_SLOT_BYTES;
}

/** The name id of the k-th name slot taken in this call (k < nameUsed). */
// @ts-ignore: decorator
@inline export function usedName(k: i32): i32 {
  return load<i32>(NAME_SLOTS + <usize>load<i32>(NAME_USED + (<usize>k << 2)) * NAME_SLOT_BYTES);
}

/**
 * Adds token t, matched to word w at `cost` edits, to name `nameId` (hit `hit` of the log). Returns false when the
 * name table is full (the caller stops reading).
 */
function hitName(nameId: i32, t: i32, w: i32, cost: i32, prefix: bool, hit: i32): bool {
  const alpha = tok(t, F_KIND) == KIND_ALPHA;
  const bit: u64 = (<u64>1) << <u64>t;
  const p = nameSlot(nameId, hit);
  if (p == 0) return false;
  if (load<i32>(p, 60) != partNow) return true;
  const mask = load<u64>(p, 32);
  if ((mask & bit) != 0) return true;
  // which word of the name: the first one with this id not hit yet
  const ws = name(nameId, 1);
  const wc = name(nameId, 2);
  let wordsMask = load<i32>(p, 12);
  let at = -1;
  let replace = -1;
  for (let j = 0; j < wc && j < 31; j++) {
    if (nameWord(ws + j, 0) != w) continue;
    if ((wordsMask & (1 << j)) == 0) { at = j; break; }
    if (replace < 0 && j < 8) replace = j;
  }
  const weight = nameWord(ws + (at >= 0 ? at : replace >= 0 ? replace : 0), 1);
  const gained = typoGain(weight, cost, prefix);
  if (at < 0) {
    // a word already hit by a worse token (хабаровский ~ хабаровск) is taken by the better one
    if (replace < 0) return true;
    const oldGained = <i32>load<u8>(p + 48 + <usize>replace);
    const oldToken = <i32>load<u8>(p + 40 + <usize>replace);
    if (oldToken == 255) return true;
    const kept = load<i32>(p, 28) >= 0;
    if (gained <= oldGained) {
      // the same word twice (Ханты-Мансийский АО, г Ханты-Мансийск; г Ханнты-Мансийск with a typo): the other token
      // is kept in reserve, and the one next to the name's other words is chosen when the name is collected
      if (!kept) store<i32>(p, reserveOf(replace, t, gained), 28);
      return true;
    }
    if (!kept) store<i32>(p, reserveOf(replace, oldToken, oldGained), 28);
    store<i32>(p, load<i32>(p, 4) - oldGained + gained, 4);
    const newMask = (mask & ~((<u64>1) << <u64>oldToken)) | bit;
    store<u64>(p, newMask, 32);
    store<u8>(p + 40 + <usize>replace, <u8>t);
    store<u8>(p + 48 + <usize>replace, <u8>gained);
    let first = 1 << 20;
    let last = -1;
    for (let k = 0; k < 64; k++) {
      if ((newMask & ((<u64>1) << <u64>k)) != 0) {
        if (k < first) first = k;
        if (k > last) last = k;
      }
    }
    store<i32>(p, first, 16);
    store<i32>(p, last, 20);
    if (alpha) store<i32>(p, load<i32>(p, 24) | 1, 24);
    return true;
  }
  if (at < 8) {
    store<u8>(p + 40 + <usize>at, <u8>t);
    store<u8>(p + 48 + <usize>at, <u8>(gained < 0 ? 0 : gained));
  }
  wordsMask |= 1 << at;
  store<i32>(p, load<i32>(p, 4) + gained, 4);
  store<i32>(p, load<i32>(p, 8) + weight, 8);
  store<i32>(p, wordsMask, 12);
  if (t < load<i32>(p, 16)) store<i32>(p, t, 16);
  if (t > load<i32>(p, 20)) store<i32>(p, t, 20);
  if (alpha) store<i32>(p, load<i32>(p, 24) | 1, 24);
  store<u64>(p, mask | bit, 32);
  return true;
}

/** Reads one posting of hit h; false when the call may read no more. */
export function readPosting(h: i32, nameId: i32): bool {
  if (postingsSeen >= MAX_POSTINGS_PER_CALL) return false;
  postingsSeen++;
  if (nameId < 0 || nameId >= nameCount) return true;
  const t = hitToken(h);
  return hitName(nameId, t, hitWord(h), hitCost(h), t == prefixTok, h);
}

/** The name has been read in this call (it has a slot). */
export function nameRead(nameId: i32): bool {
  let i = hash(nameId) & (NAME_SLOT_CAP - 1);
  while (true) {
    const id = load<i32>(NAME_SLOTS + <usize>i * NAME_SLOT_BYTES);
    if (id == nameId) return true;
    if (id < 0) return false;
    i = (i + 1) & (NAME_SLOT_CAP - 1);
  }
}

/**
 * Turns the names read since the last call into object candidates: coverage check, score, best name per
 * object. An object's names are all read by one part (classifyNames or one expandLeaves), so each object is
 * made whole by one call.
 */
export function collectObjects(typing: bool = false): void {
  const firstObject = objUsed;
  for (let k = namesCollected; k < nameUsed; k++) {
    const p = NAME_SLOTS + <usize>load<i32>(NAME_USED + (<usize>k << 2)) * NAME_SLOT_BYTES;
    const nameId = load<i32>(p);
    const wordHit = (load<i32>(p, 24) & 1) != 0;
    if (!wordHit && !ordinalOnly(p)) continue;
    const total = name(nameId, 4);
    const matchedRaw = load<i32>(p, 8);
    const wordsMask = load<i32>(p, 12);
    // a town's initial and word (`Н. Тагил`) names it with both, never with one of them alone (`Тагил`, `№` folded to н)
    if ((name(nameId, 3) & NAME_INITIAL) != 0 && (wordsMask & 3) != 3) continue;
    // every significant word (weight ≥ 1) hit, or half the weight of the significant words (`имени Геннадия
    // Дмитриенко` by `Дмитриенко`, `Вильгельма де Геннина` by `Геннина`: a particle or title left out does not count)
    let significantMissed = false;
    let weakMissed = 0;
    const ws = name(nameId, 1);
    const wc = name(nameId, 2);
    for (let j = 0; j < wc && j < 31; j++) {
      if ((wordsMask & (1 << j)) != 0) continue;
      const weight = nameWord(ws + j, 1);
      if (weight >= SIGNIFICANT_WEIGHT) significantMissed = true;
      else weakMissed += weight;
    }
    // a name hit by an ordinal alone is that number's (7-й мкр), not a street's with a word missed (`1-я ул.
    // Неизвестная` is no `1-й Подъёмный`); while typing the word may still come
    if (!wordHit && significantMissed && !typing) continue;
    // while typing (hints), a name hit from its first word is still being written: Комсомольск-на-Амуре
    const fromStart = typing && (wordsMask & 1) != 0;
    if (!fromStart && significantMissed && matchedRaw * 2 < total - weakMissed) continue;
    if (!fromStart && matchedRaw * 3 < total) continue;
    // an earlier or other name loses a tie against the current official one (ул Титова, г Ростов)
    preferAdjacent(p);
    const score = load<i32>(p, 4) - (total - matchedRaw) / 5 - (name(nameId, 3) != 0 ? 5 : 0);
    const objectId = name(nameId, 0);
    const created = objUsed;
    const o = objSlot(objectId, true);
    if (o == 0) continue;
    if (objUsed > created) {
      store<i32>(o, load<i32>(p, 56), 40);
      store<i32>(o, nameId, 44);
    }
    if (score > load<i32>(o, 4)) {
      if (score > 0 && load<i32>(o, 4) <= 0 && isArea(objectId)) {
        store<i32>(RAISED + (<usize>raisedCount << 2), objectId);
        raisedCount++;
      }
      store<i32>(o, score, 4);
      store<i32>(o, load<i32>(p, 16), 8);
      store<i32>(o, load<i32>(p, 20), 12);
      store<i32>(o, name(nameId, 3) & NAME_HISTORICAL, 16);
      store<u64>(o, load<u64>(p, 32), 32);
    }
  }
  namesCollected = nameUsed;
  for (let k = firstObject; k < objUsed; k++) scoreType(objAt(k));
}

/**
 * True when candidate a came before candidate b in a one-pass reading (hits in order, names in id order):
 * the tie-breaker that keeps answers independent of the order subtrees are opened in.
 */
export function readEarlier(a: usize, b: usize): bool {
  const hitA = load<i32>(a, 40);
  const hitB = load<i32>(b, 40);
  return hitA < hitB || (hitA == hitB && load<i32>(a, 44) < load<i32>(b, 44));
}

/** Span of the tokens in a mask (last − first), 64 when empty. */
function spanOf(mask: u64): i32 {
  if (mask == 0) return 64;
  return 63 - <i32>clz<u64>(mask) - <i32>ctz<u64>(mask);
}

/** A name slot's reserve (@28): the second token to hit word `word` of the name, and what that hit gained. */
// @ts-ignore: decorator
@inline function reserveOf(word: i32, t: i32, gained: i32): i32 {
  return ((gained < 0 ? 0 : gained) << 16) | (word << 8) | t;
}

/**
 * Takes the reserve token of a word hit twice when it makes the name's tokens lie closer together: as good a hit
 * when the span shrinks, a worse one (a typo) only when the name's tokens then lie side by side, as a name is typed
 * (`Ханты-Мансийский АО, г Ханнты-Мансийск`: the city's `ханнты`, not the region's `ханты`). The name's score
 * takes the reserve's gain.
 */
function preferAdjacent(p: usize): void {
  const reserve = load<i32>(p, 28);
  if (reserve < 0) return;
  const word = (reserve >> 8) & 0xff;
  const t = reserve & 0xff;
  const gained = reserve >> 16;
  const oldToken = <i32>load<u8>(p + 40 + <usize>word);
  if (oldToken == 255) return;
  const mask = load<u64>(p, 32);
  const swapped = (mask & ~((<u64>1) << <u64>oldToken)) | ((<u64>1) << <u64>t);
  if ((mask & ((<u64>1) << <u64>t)) != 0 || spanOf(swapped) >= spanOf(mask)) return;
  const oldGained = <i32>load<u8>(p + 48 + <usize>word);
  if (gained < oldGained && spanOf(swapped) != <i32>popcnt<u64>(swapped) - 1) return;
  store<u64>(p, swapped, 32);
  store<u8>(p + 40 + <usize>word, <u8>t);
  store<u8>(p + 48 + <usize>word, <u8>gained);
  store<i32>(p, load<i32>(p, 4) - oldGained + gained, 4);
  store<i32>(p, 63 - <i32>clz<u64>(swapped), 20);
  store<i32>(p, <i32>ctz<u64>(swapped), 16);
}

/** A name hit only by an ordinal number (7-й мкр) counts when the number carried its suffix. */
function ordinalOnly(p: usize): bool {
  const t = load<i32>(p, 16);
  return t >= 0 && t < tokenCount && tok(t, F_ORDINAL) != 0;
}
