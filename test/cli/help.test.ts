/** `--help` of the command and each subcommand: what a user reads before the first run. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { program } from '../../cli/main.js';

function help(...path: string[]): string {
  let command: Command = program();
  for (const name of path) command = command.commands.find((sub) => sub.name() === name)!;
  return command.helpInformation();
}

describe('address-service --help', () => {
  it('lists the subcommands', () => {
    const text = help();
    for (const name of ['clean', 'geocode', 'dict', 'serve']) expect(text).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('clean --help names the input, the column, output, format, fields, errors and resume options', () => {
    const text = help('clean');
    expect(text).toContain('Usage: address-service clean [options] <input>');
    for (const option of ['-c, --column <name|number>', '-o, --output <path>', '--format <format>', '--country <code>', '--fields <names>', '--errors <path>', '--skip <n>', '--no-header', '--sheet <name>', '--encoding <encoding>', '--threads <n>']) {
      expect(text).toContain(option);
    }
    expect(text).toContain('"csv", "tsv", "xlsx", "ndjson"');
  });

  it('geocode --help names the coordinate columns, level and radius', () => {
    const text = help('geocode');
    for (const option of ['--lat <name|number>', '--lon <name|number>', '--level <level>', '--radius <metres>']) expect(text).toContain(option);
  });

  it('dict build --help and serve --help say what they run', () => {
    expect(help('dict', 'build')).toContain('Usage: address-service dict build [options] [countries...]');
    expect(help('dict', 'update')).toContain('--delta <file>');
    expect(help('serve')).toContain('--config <file>');
  });

  it('scripts/standardize.ts --help prints its usage instead of standardizing "--help"', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/standardize.ts', '--help'], { timeout: 30_000 });
    expect(stdout).toMatch(/^Usage: npx tsx scripts\/standardize\.ts \[--country ru\|kz\|by\|ua\] "query" …/);
  });

  it('the bin prints the help and exits 0; an unknown subcommand exits 2 with a hint', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['bin/address-service.js', 'clean', '--help'], { timeout: 30_000 });
    expect(stdout).toContain('Usage: address-service clean [options] <input>');
    await expect(run(process.execPath, ['bin/address-service.js', 'cleen'], { timeout: 30_000 })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'cleen'") });
  });

  it('a bad option exits 2 with its reason, as a job that cannot start does', async () => {
    const run = promisify(execFile);
    await expect(run(process.execPath, ['bin/address-service.js', 'clean', 'x.csv', '--colum', 'a'], { timeout: 30_000 })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--colum'") });
    await expect(run(process.execPath, ['bin/address-service.js', 'clean', 'x.csv', '--country', 'xx'], { timeout: 30_000 })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('xx') });
    await expect(run(process.execPath, ['bin/address-service.js', 'clean'], { timeout: 30_000 })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("missing required argument 'input'") });
  });

  it('refuses a delimiter longer than one character, a quote or a line break, with exit 2', async () => {
    const run = promisify(execFile);
    for (const bad of ['||', '"', '\n']) {
      await expect(run(process.execPath, ['bin/address-service.js', 'clean', 'x.csv', '--delimiter', bad], { timeout: 30_000 })).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining("option '--delimiter <char>' argument"),
      });
    }
  });
});
