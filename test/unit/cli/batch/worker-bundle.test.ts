/**
 * workerModule, cliModule (cli/batch/worker-bundle.ts): the pool's worker and the command line bundled, and bundled
 * anew when a source changes; bin/address-service.js keeps the command line's bundle fresh.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliModule, workerModule } from '../../../../cli/batch/worker-bundle.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('workerModule()', () => {
  it('is a bundle newer than every source it was made of, the engine and the batch among them', async () => {
    const bundle = fileURLToPath(await workerModule());
    expect(bundle).toBe(join(ROOT, 'build', 'cli', 'batch-worker.mjs'));
    const inputs = JSON.parse(readFileSync(`${bundle}.inputs.json`, 'utf8')) as string[];
    expect(inputs).toEqual(expect.arrayContaining(['cli/batch/batch.ts', 'engine/engine.ts', 'engine/records/dadata-record.ts']));
    const built = statSync(bundle).mtimeMs;
    for (const input of inputs) expect(statSync(join(ROOT, input)).mtimeMs, input).toBeLessThanOrEqual(built);
    // each source keeps its own import.meta.url (the engine reads its files beside its sources)
    expect(readFileSync(bundle, 'utf8')).not.toContain('import.meta.url');
  });

  it('is made anew once a source is newer than it', async () => {
    const bundle = fileURLToPath(await workerModule());
    const source = join(ROOT, 'cli', 'batch', 'fields.ts');
    const { atime, mtime } = statSync(source);
    const before = statSync(bundle).mtimeMs;
    const later = new Date(before + 5000);
    try {
      utimesSync(source, later, later);
      await workerModule();
      expect(statSync(bundle).mtimeMs).toBeGreaterThan(before);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });
});

describe('cliModule()', () => {
  it('is a bundle of the command line, the batch job among its sources, newer than each', async () => {
    const bundle = fileURLToPath((await cliModule())!);
    expect(bundle).toBe(join(ROOT, 'build', 'cli', 'main.mjs'));
    const inputs = JSON.parse(readFileSync(`${bundle}.inputs.json`, 'utf8')) as string[];
    expect(inputs).toEqual(expect.arrayContaining(['cli/main.ts', 'cli/batch/job.ts', 'cli/batch/batch.ts']));
    const built = statSync(bundle).mtimeMs;
    for (const input of inputs) expect(statSync(join(ROOT, input)).mtimeMs, input).toBeLessThanOrEqual(built);
  });

  it('is made anew by the bin once a source is newer than it, and the bin then runs', async () => {
    const bundle = fileURLToPath((await cliModule())!);
    const source = join(ROOT, 'cli', 'batch', 'progress.ts');
    const { atime, mtime } = statSync(source);
    const before = statSync(bundle).mtimeMs;
    const later = new Date(before + 5000);
    try {
      utimesSync(source, later, later);
      const help = execFileSync(process.execPath, [join(ROOT, 'bin', 'address-service.js'), '--help'], { encoding: 'utf8' });
      expect(help).toContain('clean');
      expect(statSync(bundle).mtimeMs).toBeGreaterThan(before);
      // fresh again: the next command runs the bundle
      expect(execFileSync(process.execPath, [join(ROOT, 'bin', 'address-service.js'), '--help'], { encoding: 'utf8' })).toBe(help);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });
});
