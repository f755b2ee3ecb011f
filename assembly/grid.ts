/**
 * Spatial grid over every house and object with coordinates, built once after the dictionary sections
 * are attached (`buildGrid`), and the metro stations (a small section scanned linearly).
 *
 * Cells are CELL_E6 microdegrees square (0.01°: ≈1.1 km north-south). A cell (row, col) hashes to one of
 * `bucketCount` buckets (a power of two ≥ the number of points); BUCKETS holds bucketCount+1 start
 * offsets into ENTRIES, which lists point refs bucket by bucket (counting sort, two passes, no per-point
 * allocation). A ref ≥ 0 is a house id, a ref < 0 is −(object id + 1). Collisions only cost a distance
 * check: every candidate's real distance is computed.
 *
 * nearest → RESULT: [0] kind (0 none, 1 object, 2 house) [1] id [2] distance in meters (to the point found: for a level
 * above houses, the house or object that lies in the object answered)
 * nearestMetro → RESULT: [0] count, then (station index, distance in meters) pairs, nearest first
 */
import { reserve, RESULT, setI32, i32At } from './memory';
import { obj, objectCount, houseCount, houseLat, houseLon, houseParent, O_LAT, O_LON, O_LEVEL, O_PARENT, NO_COORD } from './blob';
import { subtreeEnd } from './subtree';

const CELL_E6: i32 = 10000;
const METRO_STRIDE: i32 = 2;

let BUCKETS: usize = 0;
let ENTRIES: usize = 0;
let bucketCount: i32 = 0;
let METRO: usize = 0;
let metroCount: i32 = 0;

export function setupGrid(): void {}

export function attachMetro(ptr: usize, count: i32): void {
  METRO = ptr;
  metroCount = count;
}

// @ts-ignore: decorator
@inline function cellOf(e6: i32): i32 {
  return e6 >= 0 ? e6 / CELL_E6 : (e6 - CELL_E6 + 1) / CELL_E6;
}

// @ts-ignore: decorator
@inline function bucketOf(row: i32, col: i32): i32 {
  return <i32>((<u32>row * 73856093) ^ (<u32>col * 19349663)) & (bucketCount - 1);
}

function pointLat(ref: i32): i32 {
  return ref >= 0 ? houseLat(ref) : obj(-ref - 1, O_LAT);
}
function pointLon(ref: i32): i32 {
  return ref >= 0 ? houseLon(ref) : obj(-ref - 1, O_LON);
}

/** Builds the grid over the attached objects and houses; returns the number of points. */
export function buildGrid(): i32 {
  let points = 0;
  for (let i = 0; i < houseCount; i++) if (houseLat(i) != NO_COORD) points++;
  for (let i = 0; i < objectCount; i++) if (obj(i, O_LAT) != NO_COORD) points++;
  bucketCount = 1024;
  while (bucketCount < points) bucketCount <<= 1;
  BUCKETS = reserve(<usize>(bucketCount + 1) << 2);
  ENTRIES = reserve(<usize>(points + 1) << 2);
  memory.fill(BUCKETS, 0, <usize>(bucketCount + 1) << 2);
  // pass 1: counts
  for (let r = -objectCount; r < houseCount; r++) {
    const lat = pointLat(r);
    if (lat == NO_COORD) continue;
    const b = bucketOf(cellOf(lat), cellOf(pointLon(r)));
    setI32(BUCKETS, b + 1, i32At(BUCKETS, b + 1) + 1);
  }
  for (let b = 0; b < bucketCount; b++) setI32(BUCKETS, b + 1, i32At(BUCKETS, b + 1) + i32At(BUCKETS, b));
  // pass 2: fill, using the start offsets as cursors, then shift them back
  for (let r = -objectCount; r < houseCount; r++) {
    const lat = pointLat(r);
    if (lat == NO_COORD) continue;
    const b = bucketOf(cellOf(lat), cellOf(pointLon(r)));
    const at = i32At(BUCKETS, b);
    setI32(ENTRIES, at, r);
    setI32(BUCKETS, b, at + 1);
  }
  for (let b = bucketCount; b > 0; b--) setI32(BUCKETS, b, i32At(BUCKETS, b - 1));
  setI32(BUCKETS, 0, 0);
  return points;
}

/** Distance in meters between two points given in microdegrees (equirectangular, fine below 10 km). */
export function distanceE6(lat1: i32, lon1: i32, lat2: i32, lon2: i32): f64 {
  const midLat = (<f64>(lat1 + lat2) * 0.5) * 1e-6 * (Math.PI / 180.0);
  const dy = <f64>(lat2 - lat1) * 1e-6 * 111195.0;
  const dx = <f64>(lon2 - lon1) * 1e-6 * 111195.0 * Math.cos(midLat);
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * Nearest point of `level` (0: any; 8: houses; 1–7: the object of that level a point lies in, `consider`) within
 * `radius` meters, and inside object `within`'s subtree when it is not −1 (a locality's houses: idsearch/center).
 */
export function nearestInto(lat: f64, lon: f64, level: i32, radius: f64, within: i32 = -1): i32 {
  setI32(RESULT, 0, 0);
  if (bucketCount == 0 || !(radius >= 0) || !(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) return 0;
  const latE6 = <i32>Math.round(lat * 1e6);
  const lonE6 = <i32>Math.round(lon * 1e6);
  const dLat = <i32>(radius / 111195.0 * 1e6) + 1;
  const cosLat = Math.cos(lat * Math.PI / 180.0);
  const dLon = <i32>(radius / (111195.0 * (cosLat > 0.01 ? cosLat : 0.01)) * 1e6) + 1;
  const r0 = cellOf(latE6 - dLat);
  const r1 = cellOf(latE6 + dLat);
  const c0 = cellOf(lonE6 - dLon);
  const c1 = cellOf(lonE6 + dLon);
  nearBest = radius;
  nearPoint = 0;
  nearRef = 0;
  nearFound = false;
  nearLat = latE6;
  nearLon = lonE6;
  nearLevel = level;
  nearWithin = within >= 0 && within < objectCount ? within : -1;
  nearWithinEnd = nearWithin >= 0 ? subtreeEnd(nearWithin) : 0;
  if ((r1 - r0 + 1) * (c1 - c0 + 1) > 4096) {
    // a wide radius (a locality's centre): one pass over every point beats thousands of empty cells
    const total = i32At(BUCKETS, bucketCount);
    for (let e = 0; e < total; e++) consider(i32At(ENTRIES, e), -1, 0);
  } else {
    for (let row = r0; row <= r1; row++) {
      for (let col = c0; col <= c1; col++) {
        const b = bucketOf(row, col);
        const end = i32At(BUCKETS, b + 1);
        for (let e = i32At(BUCKETS, b); e < end; e++) consider(i32At(ENTRIES, e), row, col);
      }
    }
  }
  if (!nearFound) return 0;
  setI32(RESULT, 0, nearRef >= 0 ? 2 : 1);
  setI32(RESULT, 1, nearRef >= 0 ? nearRef : -nearRef - 1);
  setI32(RESULT, 2, <i32>Math.round(nearBest));
  return 1;
}

let nearBest: f64 = 0;
/** the point found (its distance is nearBest) and what it answers: itself, or the object of the level on its chain */
let nearPoint = 0;
let nearRef = 0;
let nearFound = false;
let nearLat = 0;
let nearLon = 0;
let nearLevel = 0;
/** the subtree [nearWithin, nearWithinEnd) of objects a point must lie in (−1: any) */
let nearWithin = -1;
let nearWithinEnd = 0;

/**
 * The object of `level` on point `ref`'s chain, the point itself included (a house of ул Малышева is on the street,
 * in г Екатеринбург, in Свердловская обл), as a ref (−(object id + 1)); 0 when its chain has none at that level.
 */
function onLevel(ref: i32, level: i32): i32 {
  let o = ref >= 0 ? houseParent(ref) : -ref - 1;
  while (o >= 0) {
    const at = obj(o, O_LEVEL);
    if (at == level) return -o - 1;
    if (at < level) return 0;
    o = obj(o, O_PARENT);
  }
  return 0;
}

/**
 * Keeps point `ref` when it is nearer (ties: the smaller ref) and of the level asked: houses for the house level,
 * for a level above it the object of that level on the point's chain (`onLevel`: the street, city or region the
 * point lies in, where its own centre may be kilometres away); `row` −1 skips the cell check.
 */
function consider(ref: i32, row: i32, col: i32): void {
  if (nearLevel == 8 && ref < 0) return;
  if (nearLevel != 0 && nearLevel != 8 && ref < 0 && obj(-ref - 1, O_LEVEL) < nearLevel) return;
  const plat = pointLat(ref);
  const plon = pointLon(ref);
  // a bucket holds other cells too (hash collisions): only the cell being scanned counts
  if (row >= 0 && (cellOf(plat) != row || cellOf(plon) != col)) return;
  const d = distanceE6(nearLat, nearLon, plat, plon);
  if (d > nearBest || (nearFound && d == nearBest && ref > nearPoint)) return;
  if (nearWithin >= 0) {
    const o = ref >= 0 ? houseParent(ref) : -ref - 1;
    if (o < nearWithin || o >= nearWithinEnd) return;
  }
  let found = ref;
  if (nearLevel != 0 && nearLevel != 8) {
    found = onLevel(ref, nearLevel);
    if (found == 0) return;
  }
  nearBest = d;
  nearPoint = ref;
  nearRef = found;
  nearFound = true;
}

/** Up to `max` metro stations within `radius` meters, nearest first (insertion into RESULT). */
export function nearestMetroInto(lat: f64, lon: f64, max: i32, radius: f64): i32 {
  setI32(RESULT, 0, 0);
  if (METRO == 0 || max <= 0 || !(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) return 0;
  if (max > 16) max = 16;
  const latE6 = <i32>Math.round(lat * 1e6);
  const lonE6 = <i32>Math.round(lon * 1e6);
  let count = 0;
  for (let s = 0; s < metroCount; s++) {
    const slat = load<i32>(METRO + (<usize>(s * METRO_STRIDE) << 2));
    const slon = load<i32>(METRO + (<usize>(s * METRO_STRIDE + 1) << 2));
    const d = <i32>Math.round(distanceE6(latE6, lonE6, slat, slon));
    if (<f64>d > radius) continue;
    let i = count < max ? count : max - 1;
    if (count >= max && d >= i32At(RESULT, 2 + 2 * i)) continue;
    while (i > 0 && i32At(RESULT, 2 + 2 * (i - 1)) > d) {
      setI32(RESULT, 1 + 2 * i, i32At(RESULT, 1 + 2 * (i - 1)));
      setI32(RESULT, 2 + 2 * i, i32At(RESULT, 2 + 2 * (i - 1)));
      i--;
    }
    setI32(RESULT, 1 + 2 * i, s);
    setI32(RESULT, 2 + 2 * i, d);
    if (count < max) count++;
  }
  setI32(RESULT, 0, count);
  return count;
}
