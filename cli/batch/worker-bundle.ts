/**
 * The pool's worker as one plain JavaScript module (esbuild), so a worker thread starts without tsx: no loader
 * thread of its own, no module resolved and read through loader hooks one by one. A worker that loads TypeScript
 * through tsx (worker.mjs) spent as much CPU starting as a hundred thousand rows' worth of CSV reading and writing.
 *
 * The bundle is built on first use into build/cli/ (gitignored, like the core and the dictionaries) and used while it
 * is newer than every source file it was made of (its metafile lists them): a changed source is bundled anew at the
 * next job, so the workers never run older code than the main thread. Packages stay outside the bundle (resolved
 * from node_modules as usual), and each source's `import.meta.url` is its own file's, so the engine finds its files
 * (dadata-regions.tsv, build/) where it always does. Anything that goes wrong (no esbuild, a read-only folder) is no
 * error: the job then runs worker.mjs through tsx, as before.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** An entry and its bundle; `${file}.inputs.json` lists the sources the bundle was made of (relative to ROOT). */
interface Bundle { entry: string; file: string }

const WORKER: Bundle = { entry: fileURLToPath(new URL('./worker.ts', import.meta.url)), file: join(ROOT, 'build', 'cli', 'batch-worker.mjs') };
/** The command line (bin/address-service.js runs it while it is fresh: the same test, written there in JavaScript). */
const CLI: Bundle = { entry: fileURLToPath(new URL('../main.ts', import.meta.url)), file: join(ROOT, 'build', 'cli', 'main.mjs') };

/**
 * What `${file}.inputs.json` holds: the tree the bundle was made in (its sources' `import.meta.url` are written into
 * it: a tree moved or copied elsewhere bundles anew) and its sources, relative to that tree.
 */
interface BundleInputs { root: string; inputs: string[] }

/** Whether the bundle is there, made in this tree, and newer than each of its sources. */
function fresh({ file }: Bundle): boolean {
  const list = `${file}.inputs.json`;
  try {
    if (!existsSync(file) || !existsSync(list)) return false;
    const built = statSync(file).mtimeMs;
    const { root, inputs } = JSON.parse(readFileSync(list, 'utf8')) as BundleInputs;
    return root === ROOT && inputs.length > 0 && inputs.every((input) => statSync(join(ROOT, input)).mtimeMs <= built);
  } catch {
    return false;
  }
}

/** A source's own module URL, as written in it. */
const OWN_URL = /\bimport\.meta\.url\b/g;

async function build({ entry, file }: Bundle): Promise<void> {
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [{
      name: 'own-import-meta-url',
      setup(on) {
        // each source's import.meta.url stays its own file's, not the bundle's (a pattern, not the words as a
        // string: this file is bundled too, into the command line's bundle, which builds the worker's)
        on.onLoad({ filter: /\.ts$/ }, (args) => ({
          contents: readFileSync(args.path, 'utf8').replace(OWN_URL, JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
        }));
      },
    }],
  });
  const inputs = Object.keys(result.metafile.inputs);
  const list = `${file}.inputs.json`;
  mkdirSync(dirname(file), { recursive: true });
  // written aside and renamed: a job starting meanwhile (another process, or another thread of this one) reads the
  // old bundle or the new, never half of one
  const aside = `${process.pid}.${threadId}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(`${file}.${aside}`, result.outputFiles[0].contents);
  writeFileSync(`${list}.${aside}`, JSON.stringify({ root: ROOT, inputs } satisfies BundleInputs));
  renameSync(`${list}.${aside}`, list);
  renameSync(`${file}.${aside}`, file);
}

/** The bundle's module, built or rebuilt when it is missing or stale; null when `switchOff` is set to 0 or it cannot be made. */
async function bundled(bundle: Bundle, switchOff: string): Promise<string | null> {
  if (process.env[switchOff] === '0') return null;
  try {
    if (!fresh(bundle)) await build(bundle);
    return pathToFileURL(bundle.file).href;
  } catch {
    return null;
  }
}

/** The worker module a pool should start: the bundle (built or rebuilt when it is missing or stale), else worker.mjs. */
export async function workerModule(): Promise<string> {
  return (await bundled(WORKER, 'ADDRESS_BATCH_BUNDLE')) ?? new URL('./worker.mjs', import.meta.url).href;
}

/**
 * The command line's bundle (build/cli/main.mjs), built or rebuilt when it is missing or stale; null when it cannot
 * be (the command then runs through tsx, as before). bin/address-service.js asks for it when it had to start through
 * tsx, so the next command starts without: ≈0.5 s of CPU less per command (a job of a hundred thousand rows spent
 * a tenth of its CPU starting the TypeScript loader and reading the sources through it).
 */
export function cliModule(): Promise<string | null> {
  return bundled(CLI, 'ADDRESS_CLI_BUNDLE');
}
