/**
 * The layers' dependencies go one way (docs/DESIGN.md, "Layers"): `format ← assembly`, `format ← dictionaries`,
 * `format ← engine ← host`, `engine ← web`. Each import statement of the layers' files is read and checked
 * against what its layer may import; a forbidden direction fails with the file and the import named.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// not the engine's helpers: this test reads the tree, it loads none of it
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The specifiers a module imports: static imports and re-exports (one line or many), `import 'x'` and `import('x')`. */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.ts$/.test(entry.name) ? [join(dir, entry.name)] : []);
}

/** What an import of `file` names: a folder of the tree (`engine`, `format`), `node:` for Node's modules, or `package`. */
function target(file: string, specifier: string): string {
  if (specifier.startsWith('node:')) return 'node:';
  if (!specifier.startsWith('.')) return 'package';
  const path = relative(ROOT, resolve(dirname(file), specifier));
  return path.startsWith('..') ? 'outside the tree' : path.split(sep)[0];
}

/** `from` layer: the folders (and `node:`, `package`) its files may import. */
const ALLOWED: Record<string, string[]> = {
  format: ['format'],
  assembly: ['assembly'],
  dictionaries: ['dictionaries', 'format', 'node:', 'package'],
  engine: ['engine', 'format', 'node:', 'package'],
  /** the page and the widget, bundled for the browser */
  web: ['web', 'engine', 'format', 'package'],
};

/** web/'s build scripts run in Node and write the page's files and web dictionaries with the builder's blob writer. */
const WEB_BUILD = new Set(['web/build.ts', 'web/build-web-dict.ts', 'web/build-packs.ts', 'web/widget-bundle.ts']);

function violations(layer: string): string[] {
  const out: string[] = [];
  for (const file of sources(join(ROOT, layer))) {
    const name = relative(ROOT, file).split(sep).join('/');
    const allowed = WEB_BUILD.has(name) ? [...ALLOWED.web, 'dictionaries', 'node:'] : ALLOWED[layer];
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      // assembly/ compiles alone: its only shared constants come generated from format/ (assembly/layout.ts)
      const where = target(file, specifier);
      if (!allowed.includes(where)) out.push(`${name} imports ${specifier} (${where})`);
    }
  }
  return out;
}

describe('import directions between the layers', () => {
  for (const layer of Object.keys(ALLOWED)) {
    it(`${layer}/ imports only ${ALLOWED[layer].join(', ')}`, () => {
      expect(violations(layer)).toEqual([]);
    });
  }
});

/** The files `entry` imports, and theirs, within the tree. */
function closure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const specifier of importSpecifiers(readFileSync(entry, 'utf8'))) {
    if (specifier.startsWith('.') && !specifier.endsWith('.json')) closure(resolve(dirname(entry), specifier).replace(/\.js$/, '.ts'), seen);
  }
  return seen;
}

describe('the browser bundles (web/app.ts, web/sw.ts, the widget\'s two entries, web/engine.ts as engine.mjs)', () => {
  it('reaches no Node module through engine/ or format/', () => {
    const nodeImports: string[] = [];
    for (const entry of ['app.ts', 'sw.ts', 'widget-script.ts', 'widget-module.ts', 'engine.ts']) {
      for (const file of closure(join(ROOT, 'web', entry))) {
        for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
          if (specifier.startsWith('node:')) nodeImports.push(`${relative(ROOT, file)} imports ${specifier}`);
        }
      }
    }
    expect(nodeImports).toEqual([]);
  });
});

describe('importSpecifiers(source)', () => {
  it('finds imports on one line or many, re-exports, bare and dynamic imports, and skips comments', () => {
    const source = [
      "import { a } from '../host/app.js';",
      'import {',
      '  b,',
      "} from '../engine/types.js';",
      "export { c } from './c.js';",
      "import type { D } from 'node:fs';",
      "import './side-effect.js';",
      "const e = await import('../web/build.js');",
      "// import { f } from '../host/f.js';",
      "/** import { g } from '../host/g.js'; */",
    ].join('\n');
    expect(importSpecifiers(source).sort()).toEqual(['../engine/types.js', '../host/app.js', '../web/build.js', './c.js', './side-effect.js', 'node:fs'].sort());
  });
});
