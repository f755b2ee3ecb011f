/**
 * Builds the page the host serves at `/` into build/web/:
 *
 *   index.html      web/index.html with the build id and the manifest (countries, sizes) filled in
 *   app.js          web/app.ts bundled by esbuild for the browser: the hints widget and the chosen address's fields
 *   sw.js           web/sw.ts, the service worker, with the build id and the files it precaches
 *   engine.mjs      web/engine.ts as an ES module (createEngine): the widget's offline hints (the page's too) import it
 *   widget.mjs      the hints widget as an ES module exporting attach and detach (web/widget-bundle.ts)
 *   core.wasm       the release core, as the server runs it
 *   <country>.dict  web dictionaries (build-web-dict.ts)
 *   <country>/      offline packs cut from them (build-packs.ts): manifest.json, entry.dict, places/<id>.dict, codes/<id>-<n>.dict
 *   manifest.json   the same manifest, for the host and the report
 *
 * and a .gz twin of each big file for clients that accept gzip. The build id is a hash of every output
 * but sw.js, so a changed dictionary, core or page makes a new service worker and a new cache.
 *
 *   tsx web/build.ts [--dictionaries build/dictionaries] [--wasm build/wasm/core.wasm] [--out build/web] [--sourcemap]
 *
 * No source map by default: a production page ships none. `--sourcemap` adds app.js.map (the sources whole)
 * to the build and to the files the host serves.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { buildWebDictionaries, type WebDictionaryStats } from './build-web-dict.js';
import { buildCountryPacks, describePacks } from './build-packs.js';
import { bundleWidget } from './widget-bundle.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');

export const DEFAULT_OUT_DIR = join(ROOT, 'build', 'web');
export const DEFAULT_WASM_FILE = join(ROOT, 'build', 'wasm', 'core.wasm');
export const DEFAULT_DICTIONARIES_DIR = join(ROOT, 'build', 'dictionaries');

/** Paths the service worker precaches at install; the page's widget adds its country's dictionary. */
export const SHELL = ['/', '/web/app.js', '/web/engine.mjs', '/web/core.wasm'];

/** Built files besides the dictionaries, the page and its worker; each gets a .gz twin. */
const SCRIPTS = ['app.js', 'engine.mjs', 'widget.mjs', 'core.wasm'];

export interface WebManifest {
  buildId: string;
  builtAt: string;
  countries: { country: string; bytes: number; gzipBytes: number; objects: number; houses: number; sourceDate: string }[];
  files: Record<string, { bytes: number; gzipBytes?: number }>;
}

export interface WebBuildOptions {
  dictionariesDir?: string;
  wasmFile?: string;
  outDir?: string;
  /** write app.js.map beside app.js, with the sources (default: none) */
  sourcemap?: boolean;
  log?: (line: string) => void;
}

async function writeAtomically(file: string, bytes: Uint8Array | string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
}

function newest(path: string, filter: (name: string) => boolean = () => true): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return filter(path) ? stat.mtimeMs : 0;
  let time = 0;
  for (const entry of readdirSync(path)) time = Math.max(time, newest(join(path, entry), filter));
  return time;
}

/** True when build/web is missing or older than anything it is made of. */
export function webBuildIsStale(options: WebBuildOptions = {}): boolean {
  const outDir = options.outDir ?? DEFAULT_OUT_DIR;
  const manifest = join(outDir, 'manifest.json');
  if (!existsSync(manifest) || ![...SCRIPTS, 'sw.js'].every((name) => existsSync(join(outDir, name)))) return true;
  // a build from before the offline packs, or one whose packs were removed
  const { countries } = JSON.parse(readFileSync(manifest, 'utf8')) as Partial<WebManifest>;
  if (!(countries ?? []).every(({ country }) => existsSync(join(outDir, country, 'manifest.json')))) return true;
  const built = statSync(manifest).mtimeMs;
  const sources = Math.max(
    newest(WEB),
    newest(join(ROOT, 'engine')),
    newest(join(ROOT, 'format')),
    newest(options.wasmFile ?? DEFAULT_WASM_FILE),
    newest(options.dictionariesDir ?? DEFAULT_DICTIONARIES_DIR, (name) => name.endsWith('.dict')),
  );
  return sources > built;
}

/** Builds everything into outDir; returns the manifest. */
export async function buildWeb(options: WebBuildOptions = {}): Promise<WebManifest> {
  const outDir = resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const wasmFile = resolve(options.wasmFile ?? DEFAULT_WASM_FILE);
  const log = options.log ?? (() => {});
  if (!existsSync(wasmFile)) throw new Error(`web build: ${wasmFile} is missing; build it with npx tsx scripts/prepare.ts`);
  await mkdir(outDir, { recursive: true });
  // a map of an earlier build would outlive it
  await rm(join(outDir, 'app.js.map'), { force: true });

  const dictionaries: WebDictionaryStats[] = await buildWebDictionaries({ from: options.dictionariesDir, to: outDir, log });
  for (const { country } of dictionaries) {
    const file = join(outDir, `${country}.dict`);
    log(describePacks(await buildCountryPacks(await readFile(file), outDir, file)));
  }
  await copyFile(wasmFile, join(outDir, 'core.wasm'));

  const bundle = await build({
    entryPoints: [join(WEB, 'app.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: options.sourcemap ? 'linked' : false,
    legalComments: 'none',
    outfile: join(outDir, 'app.js'),
    logLevel: 'silent',
  });
  for (const warning of bundle.warnings) log(`esbuild: ${warning.text}`);
  await build({
    entryPoints: [join(WEB, 'engine.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    outfile: join(outDir, 'engine.mjs'),
    logLevel: 'silent',
  });
  await writeAtomically(join(outDir, 'widget.mjs'), await bundleWidget('module'));

  const hash = createHash('sha256');
  const files: WebManifest['files'] = {};
  for (const name of [...SCRIPTS, ...dictionaries.map((d) => `${d.country}.dict`)]) {
    const bytes = await readFile(join(outDir, name));
    hash.update(name).update(bytes);
    const gzip = gzipSync(bytes, { level: 9 });
    if (!name.endsWith('.dict')) await writeAtomically(join(outDir, `${name}.gz`), gzip);
    files[name] = { bytes: bytes.length, gzipBytes: gzip.length };
  }
  const template = await readFile(join(WEB, 'index.html'), 'utf8');
  hash.update(template);
  const buildId = hash.digest('hex').slice(0, 16);

  const manifest: WebManifest = {
    buildId,
    builtAt: new Date().toISOString(),
    countries: dictionaries.map((d) => ({
      country: d.country, bytes: d.bytes, gzipBytes: d.gzipBytes, objects: d.objects, houses: d.houses, sourceDate: d.sourceDate,
    })),
    files,
  };
  const pageManifest = JSON.stringify({ buildId, countries: manifest.countries });
  const html = template
    .replaceAll('%BUILD_ID%', buildId)
    .replace('%MANIFEST%', pageManifest.replace(/</g, '\\u003c'));
  await writeAtomically(join(outDir, 'index.html'), html);
  files['index.html'] = { bytes: Buffer.byteLength(html) };

  await build({
    entryPoints: [join(WEB, 'sw.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    outfile: join(outDir, 'sw.js'),
    define: { BUILD_ID: JSON.stringify(buildId), SHELL: JSON.stringify(SHELL) },
    logLevel: 'silent',
  });
  files['sw.js'] = { bytes: statSync(join(outDir, 'sw.js')).size };
  if (options.sourcemap) files['app.js.map'] = { bytes: statSync(join(outDir, 'app.js.map')).size };

  await writeAtomically(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`web page ${buildId}: app.js ${(files['app.js'].bytes / 1024).toFixed(1)} KB (${(files['app.js'].gzipBytes! / 1024).toFixed(1)} KB gzip), ` +
    `core.wasm ${(files['core.wasm'].bytes / 1024).toFixed(1)} KB, ${dictionaries.length} dictionaries in ${outDir}`);
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  try {
    await buildWeb({
      dictionariesDir: option('--dictionaries'),
      wasmFile: option('--wasm'),
      outDir: option('--out'),
      sourcemap: args.includes('--sourcemap'),
      log: (line) => console.log(line),
    });
  } catch (err) {
    console.error(`web build failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
