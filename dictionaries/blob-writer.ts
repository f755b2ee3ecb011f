/**
 * Writes one country's merged model as a dictionary blob: a msgpack map
 *
 *   { magic: 'ADDRDICT', format: FORMAT_VERSION, country, sourceDate, buildId, createdAt, counts, sources,
 *     core: { <section>: bin, … },       // copied into WASM memory by the host, read in place by the core
 *     host: { … } }                      // columns the host decodes once to build records
 *
 * Core sections and their record layouts are those of assembly/blob.ts (docs/DESIGN.md, "Blob format").
 * Strings the core matches on are folded by fold.ts, the twin of the core's own folding. The blob is
 * written to a temporary file and renamed, so a failed build never replaces a good blob.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rename, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack } from 'msgpackr';
import type { MergedModel } from './merged.js';
import { foldText, houseKey, nameWords } from './fold.js';

export const BLOB_MAGIC = 'ADDRDICT';
export const FORMAT_VERSION = 1;
export const NO_COORD = 0x7fffffff;

const HERE = dirname(fileURLToPath(import.meta.url));

export interface TypeTable {
  canonical: string[];
  levelMask: number[];
  /** folded synonym → type ids */
  synonyms: Map<string, number[]>;
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

/** Weight (×100) of a word in a name: what leaving it out costs. */
export function wordWeight(w: string): number {
  if (STOP_WORDS.has(w)) return 10;
  if (/^[а-яa-z]$/.test(w)) return 20;
  if (TITLES.has(w)) return 30;
  return 100;
}

function i32Section(values: ArrayLike<number>): Buffer {
  const arr = Int32Array.from(values as ArrayLike<number>);
  return Buffer.from(arr.buffer, arr.byteOffset, arr.byteLength);
}

class Int32Builder {
  data = new Int32Array(1024);
  length = 0;
  push(...values: number[]): void {
    this.pushAll(values);
  }
  /** appends a list of any length (a spread call overflows the stack past ≈ 125 k arguments) */
  pushAll(values: ArrayLike<number>): void {
    if (this.length + values.length > this.data.length) {
      const next = new Int32Array(Math.max(this.data.length * 2, this.length + values.length));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    for (let i = 0; i < values.length; i++) this.data[this.length++] = values[i];
  }
  buffer(): Buffer {
    return Buffer.from(this.data.buffer, 0, this.length * 4);
  }
}

/** Interns strings into a pool; index 0 is the empty string. */
class StringPool {
  strings: string[] = [''];
  index = new Map<string, number>([['', 0]]);
  id(s: string | undefined): number {
    if (!s) return 0;
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.index.set(s, i);
    }
    return i;
  }
}

function e6(v: number | undefined): number {
  return v === undefined || !Number.isFinite(v) ? NO_COORD : Math.round(v * 1e6);
}

function guidBytes(guid: string | undefined, out: Buffer, at: number): void {
  if (!guid) return;
  const hex = guid.replace(/-/g, '');
  if (hex.length === 32) out.write(hex, at, 'hex');
}

function osmSplit(osm: string | undefined): [number, number] {
  const m = /^([NWR])(\d+)$/.exec(osm ?? '');
  if (!m) return [0, 0];
  return ['NWR'.indexOf(m[1]) + 1, Number(m[2])];
}

interface TrieNode {
  children: Map<number, TrieNode>;
  word: number;
}

/** Flattens a trie into first-child/next-sibling records, children sorted by char. */
function flattenTrie(words: string[]): Int32Builder {
  const root: TrieNode = { children: new Map(), word: -1 };
  words.forEach((w, id) => {
    let node = root;
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      let next = node.children.get(c);
      if (!next) {
        next = { children: new Map(), word: -1 };
        node.children.set(c, next);
      }
      node = next;
    }
    node.word = id;
  });
  const out = new Int32Builder();
  out.push(-1, -1, 0, -1);
  // breadth-first: assign ids, then link
  const queue: [TrieNode, number][] = [[root, 0]];
  while (queue.length) {
    const [node, id] = queue.shift()!;
    const kids = [...node.children.entries()].sort((a, b) => a[0] - b[0]);
    let prev = -1;
    for (const [c, kid] of kids) {
      const kidId = out.length / 4;
      out.push(-1, -1, c, kid.word);
      if (prev < 0) out.data[id * 4] = kidId;
      else out.data[prev * 4 + 1] = kidId;
      prev = kidId;
      queue.push([kid, kidId]);
    }
  }
  return out;
}

export interface BlobStats {
  bytes: number;
  objects: number;
  houses: number;
  words: number;
  names: number;
}

/** Serializes a merged model into blob bytes. */
export function encodeBlob(model: MergedModel, types = loadTypeTable()): { bytes: Buffer; stats: BlobStats } {
  const objects = model.objects;
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
  const wordId = (w: string): number => {
    let id = vocab.get(w);
    if (id === undefined) {
      id = vocabWords.length;
      vocabWords.push(w);
      vocab.set(w, id);
    }
    return id;
  };
  const names = new Int32Builder();
  const nameWordsOut = new Int32Builder();
  let nameCount = 0;
  const addName = (objectId: number, text: string, flags: number) => {
    let words = nameWords(text);
    // aliases and earlier names often carry their type (`Красная улица`): the type is not part of the name
    if (flags !== 0) {
      const named = words.filter((w) => !types.synonyms.has(w));
      if (named.length) words = named;
    }
    if (!words.length) return;
    let total = 0;
    const start = nameWordsOut.length / 2;
    for (const w of words) {
      // a type word inside a name (Сибирский тракт 7 километр) is weak evidence for that name
      const weight = types.synonyms.has(w) ? Math.min(30, wordWeight(w)) : wordWeight(w);
      total += weight;
      nameWordsOut.push(wordId(w), weight);
    }
    names.push(objectId, start, words.length, flags, total);
    nameCount++;
  };
  const objTypeIds = new Int32Array(objects.length);
  objects.forEach((o, id) => {
    objTypeIds[id] = typeOf(o.type, o.level);
    const seen = new Set<string>();
    const variants: [string, number][] = [[o.name, 0]];
    for (const a of o.aliases ?? []) variants.push([a, 2]);
    for (const h of o.historicalNames ?? []) variants.push([h, 1]);
    for (const [text, flags] of variants) {
      const key = nameWords(text).join(' ');
      if (!key || seen.has(key)) continue;
      seen.add(key);
      addName(id, text, flags);
    }
  });
  // type words join the vocabulary with their type ids
  for (const syn of types.synonyms.keys()) wordId(syn);
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

  // houses, grouped by parent
  const houseStart = new Int32Array(objects.length).fill(0);
  const houseCountOf = new Int32Array(objects.length).fill(0);
  const coreHouses = new Int32Builder();
  let houseKeys = '';
  const pool = new StringPool();
  const hNumber: number[] = [];
  const hBlock: number[] = [];
  const hBuilding: number[] = [];
  const hLiter: number[] = [];
  const hConstr: number[] = [];
  const hFlags: number[] = [];
  const hPostcode: number[] = [];
  const hCadnum: number[] = [];
  const hFlatCount: number[] = [];
  const hGar: number[] = [];
  const hOsmType: number[] = [];
  const hOsmId: number[] = [];
  const hFias = Buffer.alloc(model.houseCount * 16);
  const houseWeight = new Int32Array(objects.length);
  let h = 0;
  let lastParent = -1;
  for (const house of model.houses()) {
    if (house.parent !== lastParent) {
      if (houseCountOf[house.parent] > 0) throw new Error(`houses of object ${house.parent} are not consecutive`);
      houseStart[house.parent] = h;
      lastParent = house.parent;
    }
    houseCountOf[house.parent]++;
    houseWeight[house.parent]++;
    const { key, base } = houseKey(house.number, house.block, house.building, house.liter);
    coreHouses.push(house.parent, houseKeys.length, key.length, e6(house.lat), e6(house.lon), base);
    houseKeys += key;
    hNumber.push(pool.id(house.number));
    hBlock.push(pool.id(house.block));
    hBuilding.push(pool.id(house.building));
    hLiter.push(pool.id(house.liter));
    hConstr.push(pool.id(house.construction));
    hFlags.push((house.possession ? 1 : 0) | (house.stead ? 2 : 0) | (house.multiFlat ? 4 : 0));
    hPostcode.push(Number(house.postcode ?? 0) || 0);
    hCadnum.push(pool.id(house.cadnum));
    hFlatCount.push(house.flatCount ?? 0);
    hGar.push(Number(house.codes.gar ?? 0) || 0);
    const [ot, oid] = osmSplit(house.codes.osm);
    hOsmType.push(ot);
    hOsmId.push(oid);
    guidBytes(house.codes.fias, hFias, h * 16);
    h++;
  }
  // weights: population, else the houses below
  const weight = new Int32Array(objects.length);
  for (let i = objects.length - 1; i >= 0; i--) {
    weight[i] = Math.max(weight[i], objects[i].population ?? 0, houseWeight[i]);
  }
  const coreObjects = new Int32Builder();
  objects.forEach((o, id) => {
    coreObjects.push(
      o.parent, o.level, objTypeIds[id], e6(o.lat), e6(o.lon), Math.min(weight[id], 0x7fffffff),
      houseStart[id], houseCountOf[id], Number(o.postcode ?? 0) || 0, o.codes.fias ? 1 : 0,
    );
  });
  const keyChars = new Uint16Array(houseKeys.length);
  for (let i = 0; i < houseKeys.length; i++) keyChars[i] = houseKeys.charCodeAt(i);
  const metroCoords = new Int32Builder();
  for (const m of model.metro) metroCoords.push(e6(m.lat), e6(m.lon));

  const col = <T>(f: (o: (typeof objects)[number]) => T) => objects.map(f);
  const blob = {
    magic: BLOB_MAGIC,
    format: FORMAT_VERSION,
    country: model.country,
    sourceDate: model.sourceDate,
    buildId: '',
    createdAt: new Date().toISOString(),
    sources: model.sources,
    summary: model.summary,
    counts: { objects: objects.length, houses: h, apartments: model.apartments.length, words: vocabWords.length, names: nameCount, metro: model.metro.length },
    core: {
      objects: coreObjects.buffer(),
      houses: coreHouses.buffer(),
      houseKeys: Buffer.from(keyChars.buffer),
      trie: trie.buffer(),
      words: words.buffer(),
      postings: postings.buffer(),
      names: names.buffer(),
      nameWords: nameWordsOut.buffer(),
      types: i32Section(levelMask.flatMap((m) => [m, 0])),
      metro: metroCoords.buffer(),
    },
    host: {
      types: canonical,
      objects: {
        name: col((o) => o.name),
        type: col((o) => o.type),
        parent: col((o) => o.parent),
        level: col((o) => o.level),
        fias: col((o) => o.codes.fias ?? ''),
        gar: col((o) => o.codes.gar ?? ''),
        kladr: col((o) => o.codes.kladr ?? ''),
        osm: col((o) => o.codes.osm ?? ''),
        okato: col((o) => o.codes.okato ?? ''),
        oktmo: col((o) => o.codes.oktmo ?? ''),
        ifns: col((o) => o.codes.ifns ?? ''),
        ga: col((o) => o.ga),
        postcode: col((o) => o.postcode ?? ''),
        timezone: col((o) => o.timezone ?? ''),
        lat: col((o) => o.lat ?? 0),
        lon: col((o) => o.lon ?? 0),
      },
      houses: {
        pool: pool.strings,
        number: i32Section(hNumber),
        block: i32Section(hBlock),
        building: i32Section(hBuilding),
        liter: i32Section(hLiter),
        construction: i32Section(hConstr),
        flags: Buffer.from(Uint8Array.from(hFlags)),
        postcode: i32Section(hPostcode),
        cadnum: i32Section(hCadnum),
        flatCount: i32Section(hFlatCount),
        gar: Buffer.from(Uint32Array.from(hGar).buffer),
        osmType: Buffer.from(Uint8Array.from(hOsmType)),
        osmId: Buffer.from(Float64Array.from(hOsmId).buffer),
        fias: hFias,
      },
      apartments: {
        house: model.apartments.map((a) => a.house),
        number: model.apartments.map((a) => a.number),
        type: model.apartments.map((a) => a.type),
        fias: model.apartments.map((a) => a.codes.fias ?? ''),
        gar: model.apartments.map((a) => a.codes.gar ?? ''),
        cadnum: model.apartments.map((a) => a.cadnum ?? ''),
      },
      metro: {
        name: model.metro.map((m) => m.name),
        line: model.metro.map((m) => m.line),
        city: model.metro.map((m) => m.city),
      },
    },
  };
  const body = pack(blob);
  blob.buildId = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const bytes = pack(blob);
  return { bytes, stats: { bytes: bytes.length, objects: objects.length, houses: h, words: vocabWords.length, names: nameCount } };
}

/** Writes the blob atomically (temporary file, then rename). */
export async function writeBlob(model: MergedModel, outFile: string): Promise<BlobStats> {
  const { bytes, stats } = encodeBlob(model);
  await mkdir(dirname(outFile), { recursive: true });
  const tmp = `${outFile}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, outFile);
  return stats;
}
