/**
 * workerModule, cliModule (cli/batch/worker-bundle.ts): the pool's worker and the command line bundled, and bundled
 * anew when a source changes; bin/address-service.js keeps the command line's bundle fresh.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliModule, workerModule } from '../../../../cli/batch/worker-bundle.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The sources a bundle's list names, once it is known to name this tree. */
function inputsOf(bundle: string): string[] {
  const { root, inputs } = JSON.parse(readFileSync(`${bundle}.inputs.json`, 'utf8')) as { root: string; inputs: string[] };
  expect(root).toBe(ROOT);
  return inputs;
}

describe('workerModule()', () => {
  it('is a bundle newer than every source it was made of, the engine and the batch among them', async () => {
    const bundle = fileURLToPath(await workerModule());
    expect(bundle).toBe(join(ROOT, 'build', 'cli', 'batch-worker.mjs'));
    const inputs = inputsOf(bundle);
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
    const inputs = inputsOf(bundle);
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

describe('the worker bundle made by the command line\'s bundle', () => {
  it('keeps each source\'s own import.meta.url: a job then reads the engine\'s files beside its sources', async () => {
    await cliModule();
    const worker = fileURLToPath(await workerModule());
    // the worker's own entry is no source of the command line's: newer than the worker's bundle, it leaves the
    // command line's bundle fresh, and that bundle makes the worker's anew
    const source = join(ROOT, 'cli', 'batch', 'worker.ts');
    const { atime, mtime } = statSync(source);
    const before = statSync(worker).mtimeMs;
    const later = new Date(before + 5000);
    const dir = mkdtempSync(join(tmpdir(), 'worker-bundle-'));
    try {
      utimesSync(source, later, later);
      writeFileSync(join(dir, 'in.csv'), 'id,address\n1,москва спартаковская 10с12\n');
      execFileSync(process.execPath, [join(ROOT, 'bin', 'address-service.js'), 'clean', join(dir, 'in.csv'), '-o', join(dir, 'out.csv'), '--quiet'], { encoding: 'utf8' });
      expect(statSync(worker).mtimeMs).toBeGreaterThan(before);
      expect(readFileSync(worker, 'utf8')).not.toContain('import.meta.url');
      const [header, row] = readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\n');
      expect(header).toContain('region_with_type');
      expect(row).toContain('г Москва');
    } finally {
      utimesSync(source, atime, mtime);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
