/**
 * Offline packs (docs/OFFLINE.md): each country's web dictionary (build-web-dict.ts) cut into an entry pack and a
 * pack per place (engine/packs.ts), so that a page gives offline hints for a national dictionary by loading the
 * entry pack at once and a place's pack when the typed words settle on the place.
 *
 *   <to>/<country>/manifest.json          the entry pack and every place pack: id, file, bytes, gzip bytes, place
 *                                         code, name, level, objects, houses, its codes pack (for tools; pages and
 *                                         the service worker read the entry alone)
 *   <to>/<country>/entry.dict             regions, areas, cities, settlements, their names' words, the type words,
 *                                         and each one's pack id (the registry codes of places with a pack are in it)
 *   <to>/<country>/places/<id>.dict       a place's streets, sub-places and houses, with the words of their names,
 *                                         and the place's own codes (id: the pack's index in base 36)
 *   <to>/<country>/codes/<id>-<n>.dict    the registry codes of the place's houses, CODES_CHUNK houses a file (the
 *                                         one of a picked house is fetched)
 *
 * each with a .gz twin. Packs are blobs (format/blob.ts: magic, version, section checksums) written by the builder's
 * writer (dictionaries/blob-writer.ts), their tables under `pack`.
 *
 *   tsx web/build-packs.ts [--from build/dictionaries] [--to build/web] [ru kz …]
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { decodeBlob } from '../engine/dictionary.js';
import { PooledColumn, TextColumn } from '../engine/columns.js';
import {
  PACKS_FORMAT, chunkHouseCodes, codeHouseCodes, codesChunk, codesFile, codesInPack, cut, cutIndex, encodeColumn, encodeFragment, houseCodesPart, packFile, packId, placeCodes, withPlaceCodes, withoutPlaceCodes, fragmentOfBlob, planPacks, type Fragment, type PackEntry, type PackGlobal, type PacksManifest,
} from '../engine/packs.js';
import { COUNTRIES } from '../engine/types.js';
import { levelFullName } from '../engine/type-placement.js';
import { guidText } from '../format/guid.js';
import { blobMapBytes } from '../dictionaries/blob-writer.js';
import { kb, runCountriesCli, webBlob, writeAtomically, type BuildOptions } from './build-web-dict.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const rows = (bytes: Uint8Array) => bytes.byteLength / 4;

/** Cuts one country's web dictionary blob into packs under `<to>/<country>/`; returns its manifest. */
export async function buildCountryPacks(webBytes: Uint8Array, to: string, source = 'blob'): Promise<PacksManifest> {
  const blob = decodeBlob(webBytes, source);
  const { fragment: whole, global } = fragmentOfBlob(blob);
  const plan = planPacks(whole);
  const index = cutIndex(whole);
  const objects = new Int32Array(whole.objects.buffer.slice(whole.objects.byteOffset, whole.objects.byteOffset + whole.objects.byteLength));
  const o = blob.host.objects as Record<string, unknown>;
  const names = new TextColumn(o.name);
  const types = new PooledColumn(o.type);
  const kladr = new TextColumn(o.kladr);
  const ga = new TextColumn(o.ga);
  const osm = new TextColumn(o.osm);
  const fias = o.fias instanceof Uint8Array ? o.fias : new Uint8Array(0);
  const fullName = (id: number): string => {
    const parts: string[] = [];
    for (let at = id; at >= 0; at = objects[at * 10]) parts.unshift(levelFullName(names.get(at), types.get(at)));
    return parts.join(', ');
  };

  const dir = join(to, blob.country);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'places'), { recursive: true });
  await mkdir(join(dir, 'codes'), { recursive: true });
  const write = async (file: string, kind: 'entry' | 'place' | 'codes', content: Record<string, unknown>) => {
    const bytes = blobMapBytes({
      magic: blob.magic, format: blob.format, country: blob.country, sourceDate: blob.sourceDate, createdAt: blob.createdAt,
      packsFormat: PACKS_FORMAT, kind, source: blob.buildId, ...content,
    });
    const gzip = gzipSync(bytes, { level: 9 });
    await writeAtomically(join(dir, file), bytes);
    await writeAtomically(join(dir, `${file}.gz`), gzip);
    return { bytes: bytes.length, gzipBytes: gzip.length };
  };

  // per pack: its objects below the entry levels, and the houses of every object it holds (ids ascending)
  const packObjects: number[][] = plan.places.map(() => []);
  const packHouses: number[][] = plan.places.map(() => []);
  const entryIds = new Set(plan.entry);
  // the entry objects whose codes each pack holds (withPlaceCodes)
  const packPlaces: number[][] = plan.places.map(() => []);
  for (const id of plan.entry) if (codesInPack(objects, plan.placePack, id)) packPlaces[plan.placePack[id]].push(id);
  for (let id = 0; id < plan.packOf.length; id++) {
    const k = plan.packOf[id];
    if (k < 0) continue;
    if (!entryIds.has(id)) packObjects[k].push(id);
    const start = objects[id * 10 + 6];
    for (let h = start; h < start + objects[id * 10 + 7]; h++) packHouses[k].push(h);
  }

  const packs: PackEntry[] = [];
  for (let k = 0; k < plan.places.length; k++) {
    const place = plan.places[k];
    const code = placeCodes({ fias: guidText(fias, place), kladr: kladr.get(place), ga: ga.get(place), osm: osm.get(place) })[0] ?? `place-${place}`;
    const id = packId(k);
    const cutPack = withPlaceCodes(whole, cut(whole, index, Uint32Array.from(packObjects[k]), Uint32Array.from(packHouses[k])), Uint32Array.from(packPlaces[k]));
    const { pack: fragment, codes } = houseCodesPart(cutPack);
    const size = await write(packFile(id), 'place', { place: id, pack: encodeFragment(fragment) });
    const chunks = chunkHouseCodes(codes);
    const codesSize = { chunks: chunks.length, bytes: 0, gzipBytes: 0 };
    for (let j = 0; j < chunks.length; j++) {
      const chunk = codesChunk(id, j);
      const written = await write(codesFile(chunk), 'codes', { place: chunk, codes: codeHouseCodes(chunks[j], true) });
      codesSize.bytes += written.bytes;
      codesSize.gzipBytes += written.gzipBytes;
    }
    packs.push({
      id, file: packFile(id), code, name: names.get(place), fullName: fullName(place), level: objects[place * 10 + 1],
      objects: packObjects[k].length, houses: packHouses[k].length, ...size, codes: chunks.length > 0 ? codesSize : null,
    });
  }

  // the entry: its objects and the type words
  const entryFragment = withoutPlaceCodes(whole, cut(whole, index, plan.entry, new Uint32Array(0), index.lonelyWords), plan.placePack);
  // per entry object the pack of its place: its index, whose base-36 form is the pack's id and file name (−1: none)
  const entryPlace = Int32Array.from(plan.entry, (id) => plan.placePack[id]);
  const entryGlobal: PackGlobal = { ...global };
  const entrySize = await write('entry.dict', 'entry', {
    global: entryGlobal,
    places: { entryPlace: encodeColumn(new Uint8Array(entryPlace.buffer)), packs: plan.places.length },
    pack: encodeFragment(entryFragment),
  });

  const manifest: PacksManifest = {
    packsFormat: PACKS_FORMAT,
    country: blob.country,
    sourceDate: blob.sourceDate,
    buildId: blob.buildId,
    entry: {
      file: 'entry.dict', objects: plan.entry.length, words: rows(entryFragment.ids.words), names: rows(entryFragment.ids.names), ...entrySize,
    },
    packs,
    totals: {
      packs: packs.length,
      houses: packs.reduce((sum, p) => sum + p.houses, 0),
      bytes: entrySize.bytes + packs.reduce((sum, p) => sum + p.bytes + (p.codes?.bytes ?? 0), 0),
      gzipBytes: entrySize.gzipBytes + packs.reduce((sum, p) => sum + p.gzipBytes + (p.codes?.gzipBytes ?? 0), 0),
    },
  };
  // one pack a line: a national manifest lists 150,000 of them
  const { packs: listed, ...head } = manifest;
  const json = JSON.stringify({ ...head, packs: [] }, null, 1).replace('"packs": []', `"packs": [\n${listed.map((p) => JSON.stringify(p)).join(',\n')}\n ]`);
  await writeAtomically(join(dir, 'manifest.json'), `${json}\n`);
  return manifest;
}

/** One line per country: the entry pack, the largest and the median place pack. */
export function describePacks(m: PacksManifest): string {
  const bySize = [...m.packs].sort((a, b) => a.gzipBytes - b.gzipBytes);
  const largest = bySize[bySize.length - 1];
  const median = bySize[Math.floor(bySize.length / 2)];
  return `offline packs ${m.country}: entry ${kb(m.entry.bytes)} (${kb(m.entry.gzipBytes)} gzip, ${m.entry.objects} places), ` +
    `${m.packs.length} place packs` +
    (largest ? `, largest ${largest.fullName} ${kb(largest.bytes)} (${kb(largest.gzipBytes)} gzip, ${largest.houses} houses), median ${kb(median.bytes)} (${kb(median.gzipBytes)} gzip)` : '');
}

/** Cuts the packs of every country blob found in <from> (made into web dictionaries first). */
export async function buildPacks(options: BuildOptions = {}): Promise<PacksManifest[]> {
  const from = resolve(options.from ?? join(ROOT, 'build', 'dictionaries'));
  const to = resolve(options.to ?? join(ROOT, 'build', 'web'));
  const out: PacksManifest[] = [];
  for (const country of options.countries ?? COUNTRIES) {
    const file = join(from, `${country}.dict`);
    if (!existsSync(file)) continue;
    const { bytes } = webBlob(await readFile(file), file);
    const manifest = await buildCountryPacks(bytes, to, file);
    options.log?.(describePacks(manifest));
    out.push(manifest);
  }
  if (out.length === 0) throw new Error(`no dictionary blobs in ${from}: build them first with npm run dict:build`);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCountriesCli('build-packs', buildPacks);
}
