/**
 * Writes one country's merged model as a dictionary blob: a msgpack map
 *
 *   { magic: 'ADDRDICT', format: FORMAT_VERSION, country, sourceDate, createdAt, counts, sources,
 *     core: { <section>: bin, … },       // copied into WASM memory by the host, read in place by the core
 *     host: { … },                       // columns the host decodes once to build records
 *     checksums: { <section path>: CRC-32 },   // after every section (format/blob.ts)
 *     buildId }                          // last: SHA-256 of all that precedes it, so one streaming pass
 *
 * Core sections and their record layouts are those of assembly/blob.ts (docs/DESIGN.md, "Blob format").
 * Strings the core matches on are folded by fold.ts, the twin of the core's own folding. The blob is
 * streamed to a temporary file section by section (never held as one buffer) and renamed, so a failed build
 * never replaces a good blob.
 */
import { createHash } from 'node:crypto';
import * as zlib from 'node:zlib';
import { existsSync, readFileSync } from 'node:fs';
import { BackgroundWriter } from './io/background-write.js';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack } from 'msgpackr';
import { distance } from 'fastest-levenshtein';
import { GA_LENGTH, type MergedModel, type MergedObject } from './merged-model.js';
import { foldText, nameWords } from './fold.js';
import { HouseStore, Int32Builder } from './house-store.js';
import { BinBlocks } from './spill.js';
import { f64Column, fixedTextColumn, guidColumn, internKey, pooledColumn, textColumn, u32Column } from './columns.js';
import { ApartmentStore } from './apartment-store.js';
import { Level } from './source-model.js';
import { BLOB_MAGIC, BUILD_ID, CHECKSUMS, FORMAT_VERSION, nativeCrc32 } from '../format/blob.js';
import { byTrieReading, flattenTrie } from '../format/trie.js';

export { byTrieReading, flattenTrie };

export { BLOB_MAGIC, FORMAT_VERSION };
/** zlib's CRC-32 (Node 20.15 on), the same sums as format/blob.ts's JS one */
const sectionCrc = nativeCrc32(zlib.crc32);
export const NO_COORD = 0x7fffffff;
/** the types section's flag of the commonest street type (assembly/blob.ts TYPE_COMMON_STREET) */
const TYPE_COMMON_STREET = 1;

const HERE = dirname(fileURLToPath(import.meta.url));

export interface TypeTable {
  canonical: string[];
  levelMask: number[];
  /** folded synonym → type ids */
  synonyms: Map<string, number[]>;
}

/** Name flags (the names section): an earlier name, another name, and one that is another spelling of the official. */
export const NAME_HISTORICAL = 1;
export const NAME_ALIAS = 2;
export const NAME_SPELLING = 4;
/** with NAME_ALIAS: a town's name with its first word cut to the initial (`Н. Тагил`): read only with both words */
export const NAME_INITIAL = 8;
/** The most edits between a word of another name and one of the official name for it to be a spelling of it. */
const SPELLING_EDITS = 2;

/**
 * Another name of an object is a spelling of its official name when each of its words is one of the official name's
 * or at most SPELLING_EDITS from one (`масква`, `тольяти`, `петерсбург`, `ростов` of Ростов-на-Дону): such a name
 * is a slip or a part, and may be another word's slip (`тольяти` is also Пальмиро Тольятти's). Abbreviations and
 * other names are not (`мск`, `екб`, `питер`, `свердловск`).
 */
/** The halves of a double name joined by a spaced dash (`Кемеровская область - Кузбасс`), none for a single name. */
export function doubleNameHalves(name: string): string[] {
  const halves = name.split(/\s+[-–—]\s+/).map((h) => h.trim()).filter(Boolean);
  return halves.length === 2 ? halves : [];
}

/**
 * The genitive of a region's or district's one-word adjective name, as written after a town (`г. Киров Кировской
 * области`, `Железногорск Красноярского края`, `Заинского района`): `Кировская` → `Кировской`, `Красноярский` →
 * `Красноярского`, `Слободской` → `Слободского`; '' for other names (nouns: `Татарстан` keeps its form).
 */
export function genitiveName(name: string): string {
  if (!/^[А-ЯЁ][а-яё]+(?:-[А-ЯЁа-яё][а-яё]+)*$/.test(name)) return '';
  if (name.endsWith('ая')) return `${name.slice(0, -2)}ой`;
  if (name.endsWith('яя')) return `${name.slice(0, -2)}ей`;
  if (/(?:[кгх]ий|ый|ой)$/.test(name)) return `${name.slice(0, -2)}ого`;
  if (name.endsWith('ий')) return `${name.slice(0, -2)}его`;
  return '';
}

/**
 * A town's name of two words with its first cut to the initial, as people write it (`Нижний Тагил` → `Н. Тагил`,
 * `Великий Новгород` → `В. Новгород`), so that the initial tells it from the other town of the second word (Верхний
 * Тагил); '' for other names.
 */
export function initialName(name: string): string {
  const words = name.split(/\s+/);
  if (words.length !== 2 || words[0].length < 4 || !/^[А-ЯЁ][а-яё]+$/.test(words[0])) return '';
  return `${words[0][0]}. ${words[1]}`;
}

export function isSpelling(other: string, official: string): boolean {
  const words = nameWords(other);
  const officialWords = nameWords(official);
  return words.length > 0 && words.every((w) => officialWords.some((v) => distance(w, v) <= SPELLING_EDITS));
}

/** The longest run of words a type synonym spells (`автономный округ`, `сельское поселение`). */
const TYPE_RUN_MAX = 3;

/**
 * Which words of a name are type words: a word that is a type synonym itself (`тракт`), and each word of a run of
 * two or three that spell one together (`автономный округ` of Ханты-Мансийский Автономный округ - Югра, typed as
 * `АО`: the name is found from the words that are its own).
 */
export function typeWordsIn(words: readonly string[], types: TypeTable): boolean[] {
  const typed = words.map((w) => types.synonyms.has(w));
  for (let i = 0; i < words.length; i++) {
    let run = words[i];
    // words of a few letters are initials and numbers (`А. С. Пушкина`), not the words of a type
    if (run.length < 3) continue;
    for (let j = i + 1; j < words.length && j - i < TYPE_RUN_MAX && words[j].length >= 3; j++) {
      run += words[j];
      if (types.synonyms.has(run)) for (let k = i; k <= j; k++) typed[k] = true;
    }
  }
  return typed;
}

/** Reads dictionaries/data/type-synonyms.txt into the type table. */
export function loadTypeTable(file = join(HERE, 'data', 'type-synonyms.txt')): TypeTable {
  const canonical: string[] = [];
  const levelMask: number[] = [];
  const synonyms = new Map<string, number[]>();
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [levels, list] = line.split('\t');
    const names = list.split('|');
    const id = canonical.length;
    canonical.push(names[0]);
    levelMask.push(levels.split(',').reduce((m, l) => m | (1 << Number(l)), 0));
    for (const name of names) {
      const key = foldText(name).replace(/[\s.\-]/g, '');
      if (!key) continue;
      const ids = synonyms.get(key) ?? [];
      if (!ids.includes(id)) ids.push(id);
      synonyms.set(key, ids);
    }
  }
  return { canonical, levelMask, synonyms };
}

const STOP_WORDS = new Set(['им', 'имени', 'и', 'на', 'в', 'де', 'ла', 'из', 'под', 'у', 'за']);
const TITLES = new Set(
  ('академика академик генерала генерал маршала маршал космонавта космонавт героя героев полковника ' +
    'полковник адмирала адмирал профессора писателя поэта летчика лётчика лейтенанта сержанта капитана майора ' +
    'архитектора доктора святого св композитора художника артиста актера партизана партизан политрука ' +
    'пограничника инженера мичмана старшины рядового матроса командира комиссара')
    .split(' '),
);

/** The words of an anniversary's name around its number (`40-летия Комсомола`, `50 лет Октября`): a title's weight. */
const ANNIVERSARY_WORDS = new Set(['летия', 'лет', 'летию', 'годовщины']);

/** Weight (×100) of a word in a name: what leaving it out costs. */
export function wordWeight(w: string): number {
  if (STOP_WORDS.has(w)) return 10;
  if (/^[а-яa-z]$/.test(w)) return 20;
  if (TITLES.has(w) || ANNIVERSARY_WORDS.has(w)) return 30;
  return 100;
}

function i32Section(values: ArrayLike<number>): Buffer {
  const arr = Int32Array.from(values as ArrayLike<number>);
  return Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength);
}

function e6(v: number | undefined): number {
  return v === undefined || !Number.isFinite(v) ? NO_COORD : Math.round(v * 1e6);
}

/**
 * Gives the words ids in the core's reading order (`byTrieReading`), in place: `words[id]`, `ids` and the word ids in
 * `nameWords` ((word id, weight) pairs). The words under a trie node are then one run of ids in the order the core
 * reads them, so a prefix's hits are that run's first MAX_HITS ids, and a thousand hits (three letters of a national
 * vocabulary) read one stretch of each per-word table, the core's and those it builds at load, instead of a cache
 * line each. The core relies on it (format 4).
 */
export function renumberWords(words: string[], ids: Map<string, number>, nameWords: Int32Builder): void {
  const order = Uint32Array.from(words.keys()).sort((a, b) => byTrieReading(words[a], words[b]));
  const newId = new Int32Array(words.length);
  order.forEach((old, id) => (newId[old] = id));
  const sorted = Array.from(order, (old) => words[old]);
  sorted.forEach((w, id) => {
    words[id] = w;
    ids.set(w, id);
  });
  for (let k = 0; k < nameWords.length; k += 2) nameWords.data[k] = newId[nameWords.data[k]];
}

export interface BlobStats {
  bytes: number;
  objects: number;
  houses: number;
  words: number;
  names: number;
  /** what the name sections were built from (`namesDigest`) */
  namesDigest: string;
  /** the name sections were copied from an earlier blob (`ReusedNames`) */
  namesReused: boolean;
}

/** the sections built from the objects' names alone (and the type table): the vocabulary, its trie, the names */
export const NAME_SECTIONS = ['core.trie', 'core.words', 'core.postings', 'core.names', 'core.nameWords'] as const;

/**
 * The name sections of an earlier blob, offered to the writer: when that blob's `namesDigest` is this model's,
 * its sections (`sections(NAME_SECTIONS)`: path → the section's bytes, a damaged one left out) are written as
 * they are instead of built again: a GAR delta that changes houses leaves every name as it was.
 */
export interface ReusedNames {
  digest: string;
  sections: (paths: readonly string[]) => ReadonlyMap<string, Uint8Array>;
}

/** this module's and fold.ts's own source: a change to how names are built changes every digest */
let writerSource: string | undefined;

/**
 * The digest of what the name sections are built from: each object's level and names (official, former,
 * aliases, earlier ones) in object order, the type table's synonyms, and the code that builds them.
 */
export function namesDigest(objects: readonly MergedObject[], types: TypeTable): string {
  writerSource ??= [fileURLToPath(import.meta.url), join(HERE, 'fold.ts')].map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : file)).join('\u0000');
  const hash = createHash('sha256').update(writerSource).update(JSON.stringify([...types.synonyms]));
  // the same bytes as one update per object, hashed a few hundred kilobytes at a time (an update per object was
  // ≈ 0.5 s at 1 M houses)
  let text = '';
  for (const o of objects) {
    text += `\u0002${o.level}\u0001${o.name}\u0001${o.formerNames ? o.formerNames.join('\u0003') : ''}\u0001${o.aliases ? o.aliases.join('\u0003') : ''}\u0001${o.historicalNames ? o.historicalNames.join('\u0003') : ''}`;
    if (text.length >= 1 << 18) {
      hash.update(text);
      text = '';
    }
  }
  return hash.update(text).digest('hex');
}

/** Takes the next bytes of the blob; they are valid only during the call (a streamed section reuses its block). */
type Chunk = (bytes: Uint8Array) => void;

/** msgpack map header for `n` entries */
function mapHeader(n: number): Buffer {
  if (n < 16) return Buffer.from([0x80 | n]);
  const header = Buffer.alloc(5);
  header[0] = 0xdf;
  header.writeUInt32BE(n, 1);
  return header;
}

/**
 * Writes `section` as msgpack through `out`: objects as maps key by key, binary sections as bin32 followed by
 * the section's own bytes (never copied into one buffer; a `BinBlocks` section block by block), anything else packed by msgpackr. A function is
 * called for its value just before it is written. Together with
 * a streamed file this keeps the writer's memory at the model's, not model + blob (+ blob again).
 * Each value that is not a map is a section: its CRC-32 goes into `sums` under `path` (format/blob.ts).
 */
function writeMsgpack(section: unknown, out: Chunk, path: string, sums: Map<string, number>): void {
  // a section given as a function is built now, written, and dropped (house-store.ts)
  const value = typeof section === 'function' ? section() : section;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array) && !(value instanceof BinBlocks)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    out(mapHeader(entries.length));
    for (const [key, v] of entries) {
      out(Buffer.from(pack(key))); // msgpackr packs into a reused buffer: copy the small result
      writeMsgpack(v, out, `${path}.${key}`, sums);
    }
    return;
  }
  let crc = 0;
  const summed: Chunk = (bytes) => {
    crc = sectionCrc(bytes, crc);
    out(bytes);
  };
  if (value instanceof Uint8Array || value instanceof BinBlocks) {
    const header = Buffer.alloc(5);
    header[0] = 0xc6;
    header.writeUInt32BE(value.byteLength, 1);
    summed(header);
    if (value instanceof Uint8Array) summed(value);
    else {
      let written = 0;
      for (const block of value.blocks()) {
        summed(block);
        written += block.byteLength;
      }
      if (written !== value.byteLength) throw new Error(`blob writer: a streamed section gave ${written} bytes, ${value.byteLength} announced`);
    }
  } else {
    summed(Buffer.from(pack(value)));
  }
  sums.set(path.slice(1), crc);
}

/**
 * Streams the blob map through `out`: its entries, the sections' `checksums`, and `buildId` (the first 16 hex
 * digits of the SHA-256 of everything before it) last, so both are known without a second pass. `blob` holds
 * neither (a copy of a decoded blob has them dropped).
 */
export function writeBlobMap(blob: Record<string, unknown>, out: Chunk): string {
  const hash = createHash('sha256');
  const entries = Object.entries(blob).filter(([key, v]) => v !== undefined && key !== CHECKSUMS && key !== BUILD_ID);
  const hashed: Chunk = (bytes) => {
    hash.update(bytes);
    out(bytes);
  };
  const sums = new Map<string, number>();
  hashed(mapHeader(entries.length + 2));
  for (const [key, value] of entries) {
    hashed(Buffer.from(pack(key)));
    writeMsgpack(value, hashed, `.${key}`, sums);
  }
  hashed(Buffer.from(pack(CHECKSUMS)));
  hashed(Buffer.from(pack(Object.fromEntries(sums))));
  const buildId = hash.digest('hex').slice(0, 16);
  out(Buffer.from(pack(BUILD_ID)));
  out(Buffer.from(pack(buildId)));
  return buildId;
}

/** The bytes of a blob map (`writeBlobMap`), in memory: tests, small dictionaries and the web's. */
export function blobMapBytes(blob: Record<string, unknown>): Buffer {
  const chunks: Uint8Array[] = [];
  // a chunk is valid only during the call, and a Buffer's own slice() is a view: copy it
  writeBlobMap(blob, (bytes) => chunks.push(Uint8Array.prototype.slice.call(bytes)));
  return Buffer.concat(chunks);
}

/** Serializes a merged model into blob bytes (in memory: tests and small dictionaries). */
export function encodeBlob(model: MergedModel, types = loadTypeTable()): { bytes: Buffer; stats: BlobStats } {
  const { blob, stats } = blobOf(model, types);
  const bytes = blobMapBytes(blob);
  return { bytes, stats: { ...stats, bytes: bytes.length } };
}

/**
 * The blob as a map of plain values and binary sections, not yet serialized. `consume`: the model's objects are
 * let go (`model.objects` emptied) once the sections read from them are written, before the house sections: at
 * national scale they are most of the writer's heap (≈0.45 KB each) and the house columns its largest buffers.
 */
function blobOf(model: MergedModel, types: TypeTable, consume = false, reuse?: ReusedNames): { blob: Record<string, unknown>; stats: BlobStats } {
  const objects = model.objects;
  const digest = namesDigest(objects, types);
  const offered = reuse?.digest === digest ? reuse.sections(NAME_SECTIONS) : undefined;
  const reused = offered && NAME_SECTIONS.every((path) => offered.has(path)) ? offered : undefined;
  // type ids: canonical types first, then any other type the data carries
  const typeIds = new Map<string, number>();
  types.canonical.forEach((c, i) => typeIds.set(c, i));
  const canonical = [...types.canonical];
  const levelMask = [...types.levelMask];
  const typeOf = (t: string, level: number): number => {
    let id = typeIds.get(t);
    if (id === undefined) {
      const syn = types.synonyms.get(foldText(t).replace(/[\s.\-]/g, ''));
      id = syn ? syn.find((s) => (levelMask[s] & (1 << level)) !== 0) ?? syn[0] : undefined;
    }
    if (id === undefined) {
      id = canonical.length;
      canonical.push(t);
      levelMask.push(0);
      typeIds.set(t, id);
    }
    levelMask[id] |= 1 << level;
    return id;
  };

  // vocabulary and names
  const vocab = new Map<string, number>();
  const vocabWords: string[] = [];
  const wordId = (w: string): number => internKey(vocab, vocabWords, w);
  const names = new Int32Builder();
  const nameWordsOut = new Int32Builder();
  let nameCount = 0;
  const addName = (objectId: number, text: string, flags: number, initial = false) => {
    let words = nameWords(text);
    // aliases and earlier names often carry their type (`Красная улица`): the type is not part of the name (an
    // initial is no type, though it may spell one: `С. Посад`)
    if (flags !== 0 && !initial) {
      const named = words.filter((w) => !types.synonyms.has(w));
      if (named.length) words = named;
    }
    if (!words.length) return;
    let total = 0;
    const start = nameWordsOut.length / 2;
    const typed = typeWordsIn(words, types);
    words.forEach((w, i) => {
      // a type word inside a name (Сибирский тракт 7 километр, Ханты-Мансийский Автономный округ - Югра) is weak
      // evidence for that name
      // (an initial weighs as the word it stands for; the core reads the name only with both: NAME_INITIAL)
      const weight = initial && i === 0 ? 100 : typed[i] ? Math.min(30, wordWeight(w)) : wordWeight(w);
      total += weight;
      nameWordsOut.push(wordId(w), weight);
    });
    names.push(objectId, start, words.length, flags, total);
    nameCount++;
  };
  const objTypeIds = new Int32Array(objects.length);
  // streets per type id, for the commonest street type (the types section's flag, below)
  const streetTypes = new Map<number, number>();
  objects.forEach((o, id) => {
    objTypeIds[id] = typeOf(o.type, o.level);
    if (o.level === Level.street) streetTypes.set(objTypeIds[id], (streetTypes.get(objTypeIds[id]) ?? 0) + 1);
    if (reused) return;
    const seen = new Set<string>();
    const variants: [string, number, boolean?][] = [[o.name, 0]];
    // a former name people still use: a popular name (placeName in assembly/classify/names.ts), and an earlier one
    for (const f of o.formerNames ?? []) variants.push([f, NAME_ALIAS | NAME_HISTORICAL]);
    for (const a of o.aliases ?? []) variants.push([a, NAME_ALIAS | (isSpelling(a, o.name) ? NAME_SPELLING : 0)]);
    for (const h of o.historicalNames ?? []) variants.push([h, NAME_HISTORICAL]);
    // a region's double name (`Кемеровская область - Кузбасс`, `Ханты-Мансийский Автономный округ - Югра`): each half
    // names it alone, as people write it (`Кемеровская обл`, `Югра`)
    if (o.level === Level.region) for (const half of doubleNameHalves(o.name)) variants.push([half, NAME_ALIAS]);
    // and a region's or district's adjective in the genitive (`Кировской области`)
    const genitive = o.level === Level.region || o.level === Level.area ? genitiveName(o.name) : '';
    if (genitive) variants.push([genitive, NAME_ALIAS]);
    // and a town's first word cut to its initial (`Н. Тагил`)
    const initial = o.level === Level.city || o.level === Level.settlement ? initialName(o.name) : '';
    if (initial) variants.push([initial, NAME_ALIAS | NAME_INITIAL, true]);
    for (const [text, flags, initialOf] of variants) {
      const key = nameWords(text).join(' ');
      if (!key || seen.has(key)) continue;
      seen.add(key);
      addName(id, text, flags, initialOf === true);
    }
  });
  const nameSections = reused
    ? {
        trie: reused.get('core.trie')!,
        words: reused.get('core.words')!,
        postings: reused.get('core.postings')!,
        names: reused.get('core.names')!,
        nameWords: reused.get('core.nameWords')!,
        // four i32 a word, five a name
        wordCount: reused.get('core.words')!.byteLength / 16,
        nameCount: reused.get('core.names')!.byteLength / 20,
      }
    : (() => {
        // type words join the vocabulary with their type ids
        for (const syn of types.synonyms.keys()) wordId(syn);
        renumberWords(vocabWords, vocab, nameWordsOut);
        const postingLists: number[][] = vocabWords.map(() => []);
        for (let n = 0; n < nameCount; n++) {
          const start = names.data[n * 5 + 1];
          const count = names.data[n * 5 + 2];
          const seen = new Set<number>();
          for (let k = 0; k < count; k++) {
            const w = nameWordsOut.data[(start + k) * 2];
            if (seen.has(w)) continue;
            seen.add(w);
            postingLists[w].push(n);
          }
        }
        const words = new Int32Builder();
        const postings = new Int32Builder();
        vocabWords.forEach((w, id) => {
          const syn = types.synonyms.get(w) ?? [];
          words.push(postings.length, postingLists[id].length, syn[0] ?? -1, syn[1] ?? -1);
          postings.pushAll(postingLists[id]);
        });
        const trie = flattenTrie(vocabWords);
        return { trie: Buffer.from(trie.buffer, trie.byteOffset, trie.byteLength), words: words.buffer(), postings: postings.buffer(), names: names.buffer(), nameWords: nameWordsOut.buffer(), wordCount: vocabWords.length, nameCount };
      })();

  // houses, grouped by parent in object order: an object's houseStart never decreases (empty ones included),
  // so the core finds a house's parent by binary search instead of storing it
  const houseStart = new Int32Array(objects.length);
  const houseCountOf = new Int32Array(objects.length);
  let h = 0;
  let lastParent = -1;
  const place = (parent: number) => {
    if (parent !== lastParent) {
      if (parent < lastParent || houseCountOf[parent] > 0) {
        throw new Error(`houses must come grouped by parent in object order (object ${parent} after ${lastParent})`);
      }
      houseStart[parent] = h;
      lastParent = parent;
    }
    houseCountOf[parent]++;
    h++;
  };
  let store: HouseStore;
  let rows: Uint32Array;
  if (model.houseRows) {
    // the merge's own store: its columns are gathered into dictionary order as they are written
    ({ store, rows } = model.houseRows);
    const counts = model.houseRows.counts;
    if (counts.length !== objects.length) throw new Error(`house counts for ${counts.length} objects, the model has ${objects.length}`);
    for (let parent = 0; parent < counts.length; parent++) {
      if (counts[parent] === 0) continue;
      houseStart[parent] = h;
      houseCountOf[parent] = counts[parent];
      h += counts[parent];
    }
    if (h !== rows.length) throw new Error(`house counts add up to ${h}, the model has ${rows.length} rows`);
  } else {
    store = new HouseStore();
    for (const house of model.houses()) {
      place(house.parent);
      store.add(house, house.parent, house.municipal ?? -1);
    }
    rows = store.allRows();
  }
  for (let i = objects.length - 1, next = h; i >= 0; i--) {
    if (houseCountOf[i] > 0) next = houseStart[i];
    else houseStart[i] = next;
  }
  const houses = store.sections(rows);
  // weights: population, else the houses below
  const weight = new Int32Array(objects.length);
  for (let i = objects.length - 1; i >= 0; i--) {
    weight[i] = Math.max(weight[i], objects[i].population ?? 0, houseCountOf[i]);
  }
  const coreObjects = new Int32Builder();
  objects.forEach((o, id) => {
    coreObjects.push(
      o.parent, o.level, objTypeIds[id], e6(o.lat), e6(o.lon), Math.min(weight[id], 0x7fffffff),
      houseStart[id], houseCountOf[id], Number(o.postcode ?? 0) || 0, o.codes.fias ? 1 : 0,
    );
  });
  // the commonest type of streets (ул, вул): a tie between streets of one name, no type typed, goes to it
  let commonStreetType = -1;
  for (const [id, n] of streetTypes) if (commonStreetType < 0 || n > streetTypes.get(commonStreetType)!) commonStreetType = id;
  const metroCoords = new Int32Builder();
  for (const m of model.metro) metroCoords.push(e6(m.lat), e6(m.lon));

  const gaCodes = model.gaCodes;
  // the lazy columns read the objects through `held` (no closure holds `objects`), which `consume` lets go
  let held: MergedObject[] | null = objects;
  const col = <T>(f: (o: MergedObject) => T) => {
    if (held === null) throw new Error('blob writer: an object column written after the objects were let go');
    // the previous column's garbage (its values and buffers, tens of MB at national scale) collected first: left to
    // the collector, the columns' garbage rose ≈ 100 MB above the objects at 10 M houses, the build's peak
    collectGarbage();
    return held.map(f);
  };
  const municipals = model.municipals ?? [];
  const municipalCol = <T>(f: (m: (typeof municipals)[number]) => T) => municipals.map(f);
  // apartments in house order: the host finds a house's apartments by binary search
  const apartmentRows = model.apartmentRows ?? (() => {
    const store = new ApartmentStore();
    for (const apartment of model.apartments) store.add(apartment);
    return { store, ...store.positioned() };
  })();
  const blob = {
    magic: BLOB_MAGIC,
    format: FORMAT_VERSION,
    country: model.country,
    sourceDate: model.sourceDate,
    createdAt: new Date().toISOString(),
    sources: model.sources,
    summary: model.summary,
    counts: { objects: objects.length, municipal: municipals.length, houses: h, apartments: apartmentRows.rows.length, words: nameSections.wordCount, names: nameSections.nameCount, metro: model.metro.length },
    host: {
      types: canonical,
      // parent and level are the core's (objects section); each column is built when it is written
      objects: {
        name: () => textColumn(col((o) => o.name)),
        type: () => pooledColumn(col((o) => o.type)),
        fias: () => guidColumn(col((o) => o.codes.fias)),
        gar: () => u32Column(col((o) => o.codes.gar)),
        kladr: () => textColumn(col((o) => o.codes.kladr)),
        osm: () => textColumn(col((o) => o.codes.osm)),
        okato: () => textColumn(col((o) => o.codes.okato)),
        oktmo: () => textColumn(col((o) => o.codes.oktmo)),
        ifns: () => pooledColumn(col((o) => o.codes.ifns)),
        ga: () => (gaCodes ? fixedTextColumn(gaCodes, GA_LENGTH) : textColumn(col((o) => o.ga))),
        postcode: () => pooledColumn(col((o) => o.postcode)),
        timezone: () => pooledColumn(col((o) => o.timezone)),
        lat: () => f64Column(col((o) => o.lat)),
        lon: () => f64Column(col((o) => o.lon)),
        // index + 1 of the object's municipal entity in host.municipal, 0: none
        municipal: () => u32Column(col((o) => (o.municipal === undefined ? 0 : o.municipal + 1))),
      },
      // municipal entities: the `municipal` level of records, never matched (not in the core)
      municipal: {
        name: () => textColumn(municipalCol((m) => m.name)),
        type: () => pooledColumn(municipalCol((m) => m.type)),
        fias: () => guidColumn(municipalCol((m) => m.codes.fias)),
        gar: () => u32Column(municipalCol((m) => m.codes.gar)),
        kladr: () => textColumn(municipalCol((m) => m.codes.kladr)),
        okato: () => textColumn(municipalCol((m) => m.codes.okato)),
        oktmo: () => textColumn(municipalCol((m) => m.codes.oktmo)),
      },
      houses: consume
        ? () => {
            held = null;
            model.objects = [];
            // the objects (≈ 0.4 KB each) are garbage now: collected before the house columns are gathered beside them
            collectGarbage();
            return houses.host;
          }
        : houses.host,
      apartments: apartmentRows.store.sections(apartmentRows.rows, apartmentRows.houses),
      metro: {
        name: model.metro.map((m) => m.name),
        line: model.metro.map((m) => m.line),
        city: model.metro.map((m) => m.city),
      },
    },
    // after the host sections: the house columns (core.houses among them) come once the objects are let go
    core: {
      objects: coreObjects.buffer(),
      ...houses.core,
      trie: nameSections.trie,
      words: nameSections.words,
      postings: nameSections.postings,
      names: nameSections.names,
      nameWords: nameSections.nameWords,
      types: i32Section(levelMask.flatMap((m, id) => [m, id === commonStreetType ? TYPE_COMMON_STREET : 0])),
      metro: metroCoords.buffer(),
    },
  };
  return { blob, stats: { bytes: 0, objects: objects.length, houses: h, words: nameSections.wordCount, names: nameSections.nameCount, namesDigest: digest, namesReused: reused !== undefined } };
}

/**
 * A full collection where the writer knows that much is garbage, in a build run with `--expose-gc` (npm run
 * dict:build's tuned child, bench/build-scale.ts); nothing otherwise (small builds in-process, tests). One takes
 * ≈0.3 s at 10 M houses: 16 of them cost ≈4 s of a 3-minute build, and the write's peak 737–759 → 656–685 MB
 * (collecting only once 48 MB more are held: 696 MB, ≈2 s).
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Writes the blob atomically (streamed to a temporary file, then renamed), so a failed build never replaces a good
 * blob. It consumes the model's objects: `model.objects` is empty once it returns (the rest of the model stays).
 */
export async function writeBlob(model: MergedModel, outFile: string, types = loadTypeTable(), reuse?: ReusedNames): Promise<BlobStats> {
  const { blob, stats } = blobOf(model, types, true, reuse);
  await mkdir(dirname(outFile), { recursive: true });
  const tmp = `${outFile}.tmp-${process.pid}`;
  // written by another thread while the sections are built here (io/background-write.ts)
  const file = new BackgroundWriter(tmp);
  try {
    writeBlobMap(blob, (chunk) => file.write(chunk));
    await file.close();
  } catch (error) {
    await file.abort();
    await rm(tmp, { force: true });
    throw error;
  }
  const bytes = file.bytes;
  await rename(tmp, outFile);
  return { ...stats, bytes };
}
