/**
 * Answer comparison: `npx tsx scripts/compare-answers.ts --base http://127.0.0.1:8080/api/v1 --record before.jsonl`
 * on one tree, then `… --base <the other tree's server> --against before.jsonl` on another, prints how many answers
 * differ and the first of them. It proves that a change of the code's layout changed no answer, or lists what a
 * change of behaviour changed.
 *
 * The requests are the evaluation's dev set written every way the project already compares it: each query as typed,
 * typed in the wrong keyboard layout, transliterated, and every prefix of it from three characters as a hint
 * (`/clean/address`, `/clean/house`, `/suggest/address`), the id and coordinate searches as they are, and the
 * cases of the accuracy probe (`scripts/probe-accuracy.ts --cases-out FILE`, given with `--cases FILE`, several
 * allowed). Only the server is spoken to, over HTTP, so two trees of any layout compare. A record keeps a hash
 * of each answer and a short summary of it (the addresses), which is what a difference shows; with `--baseline
 * URL` (a server of the recorded tree) the first differences are fetched again and shown field by field.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layout, translit } from './query-forms.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name: string, fallback = ''): string => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const options = (name: string): string[] => args.flatMap((arg, i) => (arg === name ? [args[i + 1]] : []));

const BASE = option('--base').replace(/\/$/, '');
const RECORD = option('--record');
const AGAINST = option('--against');
const BASELINE = option('--baseline').replace(/\/$/, '');
const CONCURRENCY = Number(option('--concurrency', '8'));
const SHOW = Number(option('--show', '20'));
const DEV_FILE = option('--dev', join(ROOT, '..', 'shared', 'eval', 'dev.jsonl'));
if (!BASE || (!RECORD && !AGAINST)) {
  console.error('usage: compare-answers --base URL (--record FILE | --against FILE [--baseline URL]) [--cases FILE ...]');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------------
// The requests

interface Request { path: string; body: Record<string, unknown> }


const requests: Request[] = [];
const seen = new Set<string>();
const add = (path: string, body: Record<string, unknown>): void => {
  const key = `${path} ${JSON.stringify(body)}`;
  if (seen.has(key)) return;
  seen.add(key);
  requests.push({ path, body });
};

for (const line of readFileSync(DEV_FILE, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  const countryCode = c.countryCode;
  if (c.endpoint === 'idsearch') { add('/idsearch/address', { query: c.query, type: c.type, countryCode }); continue; }
  if (c.endpoint === 'geosearch') {
    add('/geosearch/address', { latitude: c.latitude, longitude: c.longitude, countryCode, addresslevel: c.addresslevel, radius: c.radius });
    continue;
  }
  const count = c.count ?? 10;
  for (const query of [c.query, layout(c.query), translit(c.query)]) {
    add('/clean/address', { query, countryCode });
    add('/suggest/address', { query, countryCode, count });
  }
  add('/clean/house', { query: c.query, countryCode });
  for (let end = 3; end < c.query.length; end++) add('/suggest/address', { query: c.query.slice(0, end), countryCode, count });
}
for (const file of options('--cases')) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    const countryCode = String(c.country).toUpperCase();
    if (c.check === 'hint' || c.check === 'name-hint') add('/suggest/address', { query: c.query, countryCode, count: c.kind === 'city-hint' ? 10 : 5 });
    else add('/clean/address', { query: c.query, countryCode });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Asking

interface Answer { key: string; hash: string; summary: string }

const keyOf = (r: Request): string => `${r.path} ${JSON.stringify(r.body)}`;

async function ask(base: string, r: Request): Promise<{ status: number; text: string }> {
  const response = await fetch(base + r.path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(r.body),
  });
  return { status: response.status, text: await response.text() };
}

function summarize(status: number, text: string): string {
  if (status !== 200) return `HTTP ${status} ${text.slice(0, 120)}`;
  const json = JSON.parse(text);
  if (Array.isArray(json.suggestions)) return json.suggestions.map((s: { addressFull?: string }) => s.addressFull).join(' | ');
  if (typeof json.addressFull === 'string') return json.addressFull;
  return JSON.stringify(json).slice(0, 200);
}

async function answerAll(base: string): Promise<Answer[]> {
  const answers = new Array<Answer>(requests.length);
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < requests.length) {
      const i = next++;
      const r = requests[i];
      const { status, text } = await ask(base, r);
      answers[i] = { key: keyOf(r), hash: createHash('sha1').update(`${status} ${text}`).digest('hex'), summary: summarize(status, text) };
      if (++done % 20000 === 0) console.error(`${done}/${requests.length} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }));
  console.error(`${requests.length} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return answers;
}

/** the paths of the fields two JSON values differ in */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
  }
  return [`${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`];
}

const answers = await answerAll(BASE);
if (RECORD) {
  writeFileSync(RECORD, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
  console.log(`recorded ${answers.length} answers in ${RECORD}`);
} else {
  if (!existsSync(AGAINST)) { console.error(`no record ${AGAINST}`); process.exit(2); }
  const recorded = new Map<string, Answer>();
  for (const line of readFileSync(AGAINST, 'utf8').split('\n')) {
    if (line) { const a = JSON.parse(line) as Answer; recorded.set(a.key, a); }
  }
  let compared = 0;
  const differ: Array<{ now: Answer; before: Answer }> = [];
  for (const now of answers) {
    const before = recorded.get(now.key);
    if (!before) continue;
    compared++;
    if (before.hash !== now.hash) differ.push({ now, before });
  }
  console.log(`${compared} answers compared (${answers.length - compared} not in the record), ${differ.length} differ`);
  for (const { now, before } of differ.slice(0, SHOW)) {
    console.log(`\n${now.key}\n  before ${before.summary}\n  now    ${now.summary}`);
    if (BASELINE) {
      const r = requests.find((q) => keyOf(q) === now.key)!;
      const [a, b] = await Promise.all([ask(BASELINE, r), ask(BASE, r)]);
      const parse = (t: string): unknown => { try { return JSON.parse(t); } catch { return t; } };
      for (const d of differences(parse(a.text), parse(b.text)).slice(0, 8)) console.log(`    ${d}`);
    }
  }
  process.exitCode = differ.length ? 1 : 0;
}
