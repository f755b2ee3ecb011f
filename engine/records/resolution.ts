/**
 * A `Resolution` for an object the host found by itself (idsearch, idsearch/center, geosearch): the
 * levels come from the dictionary's chain of the object, the house part from the registry house and
 * apartment, the quality from what was found (`{0,0,0,1,9,1}` for a region, `{0,0,0,8,3,8}` for a house).
 */
import { LEVEL_KEYS, type Dictionary, type Found, type LevelKey, type Resolution } from '../types.js';
import { emptyHouseParts } from './house-details.js';
import { HOUSE_LEVEL, LEVEL_NUMBER } from './address-record.js';

const LEVEL_BY_NUMBER = new Map<number, LevelKey>(
  (Object.entries(LEVEL_NUMBER) as [LevelKey, number][]).filter(([, n]) => n > 0).map(([key, n]) => [n, key]),
);

function emptyLevels(): Record<LevelKey, number> {
  const levels = {} as Record<LevelKey, number>;
  for (const key of LEVEL_KEYS) levels[key] = -1;
  return levels;
}

/** Fills the levels of `objectId` and its ancestors; returns the deepest quality level seen. */
function fillChain(dictionary: Dictionary, objectId: number, levels: Record<LevelKey, number>): number {
  let deepest = 0;
  const chain = objectId >= 0 ? [...dictionary.chain(objectId)] : [];
  if (objectId >= 0 && chain[chain.length - 1] !== objectId) chain.push(objectId);
  for (const id of chain) {
    const level = dictionary.object(id).level;
    const key = LEVEL_BY_NUMBER.get(level);
    if (!key) continue;
    levels[key] = id;
    if (level > deepest) deepest = level;
  }
  return deepest;
}

export function resolutionOfFound(dictionary: Dictionary, found: Found): Resolution {
  const levels = emptyLevels();
  let house = -1;
  let apartment = -1;
  let objectId = -1;
  if (found.kind === 'apartment') {
    apartment = found.id;
    house = dictionary.apartment(found.id).house;
  } else if (found.kind === 'house') {
    house = found.id;
  } else {
    objectId = found.id;
  }
  if (house >= 0) objectId = dictionary.houseLabel(house).parent;
  const deepest = fillChain(dictionary, objectId, levels);
  const level = house >= 0 ? HOUSE_LEVEL : deepest;
  return {
    levels,
    house,
    apartment,
    parts: emptyHouseParts(),
    postcodeIn: '',
    // geo is recomputed by the record builder from the object that holds the coordinates
    quality: { unique: 0, actuality: 0, undefined: 0, level, house: house >= 0 ? 3 : 9, geo: 0 },
    undefinedParts: '',
    matched: true,
  };
}
