/**
 * Builds what `npm start`, `npm test` and `npm run bench` need, when it is missing or older than its
 * inputs: assembly/layout.ts from format/ (scripts/assembly-layout.ts), the wasm (release; with --debug also the debug build the tests run; the builder's XML scanner), the default
 * dictionaries from DATA_DIR (default ../shared/data) and the page at `/` (build/web: without it the page's first
 * request would build it). Fails loudly with the step that failed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDictionaries } from '../dictionaries/build.js';
import { writeAssemblyLayout } from './assembly-layout.js';
import { buildWeb, webBuildIsStale } from '../web/build.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const debug = process.argv.includes('--debug');

function newest(dir: string, filter: (f: string) => boolean = () => true): number {
  let t = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) t = Math.max(t, newest(p, filter));
    else if (filter(entry.name)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

function mtime(file: string): number {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

/** the wasm builds: the query core (release, debug) and the builder's XML scanner (dictionaries/io/flat-xml-wasm.ts) */
const WASM = {
  release: { entry: 'assembly/index.ts', out: 'core.wasm' },
  debug: { entry: 'assembly/debug.ts', out: 'core.debug.wasm' },
  'xml-scan': { entry: 'assembly/xml-scan.ts', out: 'xml-scan.wasm' },
} as const;

function asc(target: keyof typeof WASM): void {
  const { entry, out: file } = WASM[target];
  const out = join(ROOT, 'build', 'wasm', file);
  const sources = Math.max(newest(join(ROOT, 'assembly')), mtime(join(ROOT, 'asconfig.json')));
  if (mtime(out) > sources) return;
  console.log(`building wasm (${target})`);
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'assemblyscript', 'bin', 'asc.js'), entry, '--target', target], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

async function dictionaries(): Promise<void> {
  const dataDir = resolve(ROOT, process.env.DATA_DIR ?? '../shared/data');
  const outDir = join(ROOT, 'build', 'dictionaries');
  if (!existsSync(dataDir)) throw new Error(`DATA_DIR ${dataDir} does not exist: point DATA_DIR at the registry extracts`);
  const inputs = Math.max(newest(dataDir), newest(join(ROOT, 'dictionaries')), newest(join(ROOT, 'format')));
  const blobs = ['ru', 'kz', 'by', 'ua'].map((c) => mtime(join(outDir, `${c}.dict`)));
  if (Math.min(...blobs) > inputs) return;
  console.log(`building dictionaries from ${dataDir}`);
  await buildDictionaries({ dataDir, outDir, log: (s) => console.log(`  ${s}`) });
}

try {
  if (writeAssemblyLayout()) console.log('wrote assembly/layout.ts from format/');
  asc('release');
  if (debug) asc('debug');
  asc('xml-scan');
  await dictionaries();
  if (webBuildIsStale()) {
    console.log('building the page at / (build/web)');
    await buildWeb();
  }
} catch (err) {
  console.error(`prepare failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
