/**
 * Reverse geocoding to a house: `engine.nearest('ru', lat, lon, 'house', 100)` versus geokdbush `around`
 * (limit 1, 0.1 km) over a kdbush index of the same house points (every ru house with coordinates, from
 * `dictionary.house(id)`). Points: the geosearch cases of the evaluation set plus points scattered up to
 * ~150 m around houses (deterministic), so some have no house within 100 m. Before timing, every point's
 * answers are compared: the same house, or two houses at the same distance (±1 m: the core measures
 * equirectangular distance in whole meters, geokdbush great-circle).
 */
import KDBush from 'kdbush';
import { around, distance as greatCircleKm } from 'geokdbush';
import { geoPoints, rng } from './fixtures.js';
import { consume, isMain, measure, row, runStandalone, type BenchContext, type Row } from './harness.js';

const RADIUS_M = 100;
const SCATTERED = 1000;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const engine = ctx.engine;
  const dict = engine.dictionary('ru')!;
  const ids: number[] = [];
  const lat: number[] = [];
  const lon: number[] = [];
  for (let id = 0; id < dict.houseCount; id++) {
    const h = dict.house(id);
    if (h.lat === 0 && h.lon === 0) continue;
    ids.push(id);
    lat.push(h.lat);
    lon.push(h.lon);
  }
  const t0 = performance.now();
  const index = new KDBush(ids.length);
  for (let k = 0; k < ids.length; k++) index.add(lon[k], lat[k]);
  index.finish();
  const kdBuildMs = performance.now() - t0;

  const random = rng(100);
  const points = geoPoints();
  for (let k = 0; k < SCATTERED; k++) {
    const at = Math.floor(random() * ids.length);
    const angle = random() * 2 * Math.PI;
    const meters = random() * 150;
    points.push({
      lat: lat[at] + (Math.sin(angle) * meters) / 111195,
      lon: lon[at] + (Math.cos(angle) * meters) / (111195 * Math.cos((lat[at] * Math.PI) / 180)),
    });
  }

  const peerNearest = (p: { lat: number; lon: number }): number => {
    const found = around(index, p.lon, p.lat, 1, RADIUS_M / 1000);
    return found.length ? ids[found[0]] : -1;
  };
  let agree = 0;
  let ties = 0;
  const disagreements: string[] = [];
  for (const p of points) {
    const ours = engine.nearest('ru', p.lat, p.lon, 'house', RADIUS_M);
    const oursId = ours && ours.found.kind === 'house' ? ours.found.id : -1;
    const theirs = peerNearest(p);
    if (oursId === theirs) {
      agree++;
      continue;
    }
    const meters = (id: number) => (id < 0 ? Infinity : greatCircleKm(p.lon, p.lat, dict.house(id).lon, dict.house(id).lat) * 1000);
    const a = meters(oursId);
    const b = meters(theirs);
    if (Math.abs(a - b) <= 1 || (Math.min(a, b) > RADIUS_M - 1 && Math.max(a, b) > RADIUS_M - 1)) {
      ties++;
      continue;
    }
    if (disagreements.length < 5) {
      disagreements.push(`(${p.lat.toFixed(6)}, ${p.lon.toFixed(6)}): engine house ${oursId} at ${a.toFixed(1)} m, geokdbush ${theirs} at ${b.toFixed(1)} m`);
    }
  }

  let i = 0;
  const ours = await measure('nearest engine', () => {
    const p = points[i++ % points.length];
    consume(engine.nearest('ru', p.lat, p.lon, 'house', RADIUS_M)?.distance ?? -1);
  });
  let j = 0;
  const peer = await measure('nearest geokdbush', () => consume(peerNearest(points[j++ % points.length])));

  const differ = points.length - agree - ties;
  ctx.notes.push(
    `nearest: ${points.length} points over ${ids.length} houses (kdbush built in ${kdBuildMs.toFixed(1)} ms); answers: ${agree} same house, ` +
      `${ties} equidistant or at the 100 m edge, ${differ} different`,
  );
  for (const d of disagreements) ctx.notes.push(`nearest DIFFERS at ${d}`);
  return [row(`nearest: engine.nearest house ≤${RADIUS_M} m`, ours, 'geokdbush around', peer)];
}

if (isMain(import.meta.url)) await runStandalone(run);
