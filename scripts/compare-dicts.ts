/**
 * Compares dictionary blobs section by section, ignoring what differs between any two builds of the same
 * data (`createdAt`, the summary's `finish ms`, their checksums, and `buildId`, which hashes them). A change meant to leave the dictionaries as they are
 * (a faster or leaner builder) is checked with it.
 *
 * Usage: tsx scripts/compare-dicts.ts <before.dict | before-dir> <after.dict | after-dir>
 * With two directories, every `*.dict` of the first is compared with the same name in the second.
 * Prints one line per differing section and exits 1 when anything differs.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { unpack } from 'msgpackr';

const VOLATILE = new Set(['createdAt', 'buildId', 'summary.finish ms', 'checksums.createdAt', 'checksums.summary', 'checksums.summary.finish ms']);

/** section path → digest of its msgpack-decoded value (binary sections hashed as bytes) */
function sections(file: string): Map<string, string> {
  const blob = unpack(readFileSync(file)) as Record<string, unknown>;
  const out = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (value instanceof Uint8Array) {
      out.set(path, createHash('sha256').update(value).digest('hex'));
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (!VOLATILE.has(at)) walk(child, at);
      }
    } else {
      out.set(path, createHash('sha256').update(JSON.stringify(value) ?? 'undefined').digest('hex'));
    }
  };
  walk(blob, '');
  return out;
}

function compare(before: string, after: string): string[] {
  const a = sections(before);
  const b = sections(after);
  const differences: string[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (!a.has(path)) differences.push(`${basename(after)}: ${path} only after`);
    else if (!b.has(path)) differences.push(`${basename(after)}: ${path} only before`);
    else if (a.get(path) !== b.get(path)) differences.push(`${basename(after)}: ${path} differs`);
  }
  return differences;
}

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: tsx scripts/compare-dicts.ts <before.dict|dir> <after.dict|dir>');
  process.exit(2);
}
const pairs = statSync(before).isDirectory()
  ? readdirSync(before).filter((f) => f.endsWith('.dict')).map((f) => [join(before, f), join(after, f)])
  : [[before, after]];
let differing = 0;
for (const [a, b] of pairs) {
  const differences = compare(a, b);
  differing += differences.length;
  console.log(differences.length === 0 ? `${basename(b)}: identical (but for ${[...VOLATILE].join(', ')})` : differences.join('\n'));
}
process.exit(differing === 0 ? 0 : 1);
