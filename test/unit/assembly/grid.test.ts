/**
 * The spatial grid (assembly/grid.ts) through engine.nearest, against a brute-force search over every
 * house and object of the real ru dictionary, on 500 random points inside Екатеринбург's bounding box.
 * Distances are the core's (equirectangular, microdegrees) recomputed in JS; they must agree within 1 m,
 * and the point found must be the brute-force nearest or one at the same distance. For a level above houses a
 * point answers with the object of that level on its chain (the street, city or region it lies in).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AddressEngine } from '../../../engine/engine.js';
import type { Dictionary, GeoLevel } from '../../../engine/types.js';
import { debugEngine, objectByPath } from '../../helpers/engine.js';

/** mulberry32: a seeded PRNG, so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** assembly/grid.ts distanceE6 on coordinates given in degrees. */
function distance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = Math.round(lat1 * 1e6);
  const b = Math.round(lon1 * 1e6);
  const c = Math.round(lat2 * 1e6);
  const d = Math.round(lon2 * 1e6);
  const midLat = (a + c) * 0.5 * 1e-6 * (Math.PI / 180);
  const dy = (c - a) * 1e-6 * 111195;
  const dx = (d - b) * 1e-6 * 111195 * Math.cos(midLat);
  return Math.sqrt(dx * dx + dy * dy);
}

/** A point of the dictionary; `chain` its objects from the region down (a house's: its owner's chain). */
interface Point { kind: 'house' | 'object'; id: number; lat: number; lon: number; level: number; chain: number[] }

const LEVEL_OF: Record<GeoLevel, number> = { region: 1, area: 2, city: 3, settlement: 5, planStructure: 6, street: 7, house: 8 };

describe('nearest(lat, lon, level, radius)', () => {
  let engine: AddressEngine;
  let dict: Dictionary;
  let points: Point[];
  let box: { lat0: number; lat1: number; lon0: number; lon1: number };

  beforeAll(async () => {
    engine = await debugEngine();
    dict = engine.dictionary('ru')!;
    points = [];
    for (let id = 0; id < dict.houseCount; id++) {
      const h = dict.house(id);
      if (h.lat !== 0 || h.lon !== 0) points.push({ kind: 'house', id, lat: h.lat, lon: h.lon, level: 8, chain: dict.chain(h.parent) });
    }
    for (let id = 0; id < dict.objectCount; id++) {
      const o = dict.object(id);
      if (o.lat !== 0 || o.lon !== 0) points.push({ kind: 'object', id, lat: o.lat, lon: o.lon, level: o.level, chain: dict.chain(id) });
    }
    const city = objectByPath(dict, 'Свердловская обл > г Екатеринбург');
    const inCity = points.filter((p) => p.kind === 'house' && dict.chain(dict.house(p.id).parent).includes(city));
    expect(inCity.length).toBeGreaterThan(1000);
    box = {
      lat0: Math.min(...inCity.map((p) => p.lat)), lat1: Math.max(...inCity.map((p) => p.lat)),
      lon0: Math.min(...inCity.map((p) => p.lon)), lon1: Math.max(...inCity.map((p) => p.lon)),
    };
  });

  /** What point p answers for `level`: itself (any level, houses), else the object of that level on its chain. */
  function answerOf(p: Point, level: number): { kind: 'house' | 'object'; id: number } | null {
    if (level === 0 || level === 8) return level === 8 && p.kind !== 'house' ? null : p;
    const id = p.chain.find((o) => dict.object(o).level === level);
    return id === undefined ? null : { kind: 'object', id };
  }

  /** The least distance to a point that answers for `level`, and what each point at that distance answers. */
  function bruteForce(lat: number, lon: number, level: number, radius: number, within = -1): { best: number; at: { kind: 'house' | 'object'; id: number }[] } {
    let best = Infinity;
    let at: { kind: 'house' | 'object'; id: number }[] = [];
    for (const p of points) {
      if (within >= 0 && !p.chain.includes(within)) continue;
      const answer = answerOf(p, level);
      if (!answer) continue;
      const d = distance(lat, lon, p.lat, p.lon);
      if (d > radius || d > best + 1e-6) continue;
      if (d < best - 1e-6) {
        best = d;
        at = [answer];
      } else at.push(answer);
    }
    return { best, at };
  }

  function check(count: number, seed: number, level: GeoLevel | undefined, radius: number, within = -1): number {
    const next = random(seed);
    let found = 0;
    for (let i = 0; i < count; i++) {
      const lat = Math.round((box.lat0 + next() * (box.lat1 - box.lat0)) * 1e6) / 1e6;
      const lon = Math.round((box.lon0 + next() * (box.lon1 - box.lon0)) * 1e6) / 1e6;
      const hit = engine.nearest('ru', lat, lon, level, radius, within);
      const brute = bruteForce(lat, lon, level ? LEVEL_OF[level] : 0, radius, within);
      const where = `${lat},${lon} r=${radius} level=${level ?? 'any'}`;
      if (brute.best === Infinity) {
        expect(hit, where).toBeNull();
        continue;
      }
      found++;
      expect(hit, where).not.toBeNull();
      expect(Math.abs(hit!.distance - brute.best), where).toBeLessThanOrEqual(1);
      if (!level || level === 'house') {
        const p = hit!.found.kind === 'house' ? dict.house(hit!.found.id) : dict.object(hit!.found.id);
        expect(Math.abs(distance(lat, lon, p.lat, p.lon) - brute.best), `${where}: found a farther point`).toBeLessThan(1e-6);
      }
      expect(brute.at.some((q) => q.kind === hit!.found.kind && q.id === hit!.found.id), where).toBe(true);
    }
    return found;
  }

  it('finds the nearest house of 500 random points in Екатеринбург within 1000 m', () => {
    expect(check(500, 1, 'house', 1000)).toBeGreaterThan(200);
  });

  it('finds the nearest house inside an object (a street, a city), never one nearer the point outside it', () => {
    const city = objectByPath(dict, 'Свердловская обл > г Екатеринбург');
    const street = objectByPath(dict, 'Свердловская обл > г Екатеринбург > ул Малышева');
    expect(check(200, 7, 'house', 3000, street)).toBeGreaterThan(10);
    expect(check(100, 8, 'house', 20000, city)).toBe(100);
  });

  it('finds the nearest point of any level within 300 m, or nothing when brute force finds nothing', () => {
    const found = check(500, 2, undefined, 300);
    expect(found).toBeGreaterThan(50);
    expect(found).toBeLessThan(500);
  });

  it('finds the street of the nearest house or street centre within 1000 m', () => {
    expect(check(200, 3, 'street', 1000)).toBeGreaterThan(50);
  });

  it('finds the city and the region a point lies in through its nearest house, where their centres are far', () => {
    expect(check(200, 5, 'city', 1000)).toBeGreaterThan(50);
    expect(check(100, 6, 'region', 1000)).toBeGreaterThan(25);
    // a street's house at its own point, 1.5 km or more from its city's centre: the city, the region and the street
    const city = objectByPath(dict, 'Свердловская обл > г Екатеринбург');
    const region = objectByPath(dict, 'Свердловская обл');
    const house = points.find((q) => q.kind === 'house' && q.chain.includes(city) && dict.object(q.chain.at(-1)!).level === 7 && distance(q.lat, q.lon, dict.object(city).lat, dict.object(city).lon) > 1500)!;
    expect(engine.nearest('ru', house.lat, house.lon, 'city', 100)).toEqual({ found: { kind: 'object', id: city }, distance: 0 });
    expect(engine.nearest('ru', house.lat, house.lon, 'region', 100)).toEqual({ found: { kind: 'object', id: region }, distance: 0 });
    expect(engine.nearest('ru', house.lat, house.lon, 'street', 100)).toEqual({ found: { kind: 'object', id: house.chain.at(-1) }, distance: 0 });
    // no city on the chain of anything near a point in the sea: nothing, not the nearest city's centre
    expect(engine.nearest('ru', 0.5, -30.5, 'city', 1000)).toBeNull();
  });

  it('finds a house exactly at its own coordinates, at distance 0', () => {
    const next = random(4);
    const houses = points.filter((q) => q.kind === 'house');
    for (let i = 0; i < 200; i++) {
      const p = houses[Math.floor(next() * houses.length)];
      const hit = engine.nearest('ru', p.lat, p.lon, 'house', 10)!;
      expect(hit.distance).toBe(0);
      const h = dict.house(hit.found.id);
      expect([h.lat, h.lon]).toEqual([p.lat, p.lon]);
    }
  });

  it('finds a house at its own coordinates with a 20 km radius', () => {
    const h = points.find((q) => q.kind === 'house' && q.lat > 56.7 && q.lat < 57)!;
    expect(engine.nearest('ru', h.lat, h.lon, 'house', 20_000)).toMatchObject({ distance: 0 });
  });

  // was a bug until fcb0a46: a window of more than 4096 cells gave «nothing» (any radius above ≈25 km)
  it('finds a house at its own coordinates with a 30 km and a 50 km radius (idsearch/center\'s widest ring)', () => {
    const h = points.find((q) => q.kind === 'house' && q.lat > 56.7 && q.lat < 57)!;
    expect(engine.nearest('ru', h.lat, h.lon, 'house', 30_000)).toMatchObject({ distance: 0 });
    expect(engine.nearest('ru', h.lat, h.lon, 'house', 50_000)).toMatchObject({ distance: 0 });
  });

  it('agrees with brute force on 50 random points within 50 km', () => {
    expect(check(50, 5, 'house', 50_000)).toBe(50);
  });

  it('finds nothing far from every point, and refuses coordinates off the globe', () => {
    expect(engine.nearest('ru', 0.5, -150, undefined, 1000)).toBeNull();
    expect(engine.nearest('ru', 91, 60, 'house', 1000)).toBeNull();
    expect(engine.nearest('ru', 56.8, 181, 'house', 1000)).toBeNull();
    expect(engine.nearest('ru', Number.NaN, 60, 'house', 1000)).toBeNull();
    expect(engine.nearest('ru', 56.8, 60.6, 'house', -1)).toBeNull();
  });
});
