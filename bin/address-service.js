#!/usr/bin/env node
// `address-service`: runs the command line (cli/main.ts) from its bundle, build/cli/main.mjs (plain JavaScript: no
// TypeScript loader to start, no source read through it), while the bundle is newer than each source it was made of
// (cli/batch/worker-bundle.ts `cliModule` makes it). Else, or with ADDRESS_CLI_BUNDLE=0: makes the TypeScript sources
// loadable (tsx), bundles the command line anew for the next command, and runs cli/main.ts.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = join(ROOT, 'build', 'cli', 'main.mjs');

/** worker-bundle.ts `fresh`: the bundle is there, made in this tree, and newer than each source its list names. */
function fresh() {
  try {
    if (!existsSync(BUNDLE)) return false;
    const built = statSync(BUNDLE).mtimeMs;
    const { root, inputs } = JSON.parse(readFileSync(`${BUNDLE}.inputs.json`, 'utf8'));
    return root === ROOT && inputs.length > 0 && inputs.every((input) => statSync(join(ROOT, input)).mtimeMs <= built);
  } catch {
    return false;
  }
}

let main;
if (process.env.ADDRESS_CLI_BUNDLE !== '0' && fresh()) ({ main } = await import(pathToFileURL(BUNDLE).href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  await (await import('../cli/batch/worker-bundle.ts')).cliModule();
  ({ main } = await import('../cli/main.ts'));
}
await main(process.argv);
