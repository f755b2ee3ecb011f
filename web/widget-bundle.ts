/**
 * The widget's two builds, one esbuild configuration: `script` is `/widget.js` (widget-script.ts, a classic script
 * that attaches itself; host/routes/widget.ts serves it), `module` is `widget.mjs` (widget-module.ts, an ES module
 * exporting attach and detach; web/build.ts writes it into build/web). Both leave the in-page engine out: offline
 * hints import `engine.mjs` from the service when a page opts in (widget-offline.ts).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRIES = {
  script: { file: 'widget-script.ts', format: 'iife' },
  module: { file: 'widget-module.ts', format: 'esm' },
} as const;

export type WidgetBuild = keyof typeof ENTRIES;

/** The widget's `kind` build, minified, as bytes. */
export async function bundleWidget(kind: WidgetBuild): Promise<Uint8Array> {
  const entry = ENTRIES[kind];
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry.file, import.meta.url))],
    bundle: true,
    format: entry.format,
    platform: 'browser',
    // dynamic import() of the engine module
    target: 'es2020',
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  for (const warning of result.warnings) throw new Error(`widget build: ${warning.text}`);
  return result.outputFiles[0].contents;
}
