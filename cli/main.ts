/**
 * `address-service`: the one command line of the service (package.json `bin`, bin/address-service.js).
 *   clean      standardize the addresses of a file (CSV/TSV, XLSX, NDJSON, stdin) on every core
 *   geocode    the address at each point of a file of coordinates
 *   dict build build the dictionaries from the sources (dictionaries/build.ts)
 *   dict update apply GAR delta archives to the ru dictionary (scripts/dict-update.ts)
 *   serve      run the HTTP server (host/server.ts)
 * Every subcommand has --help. A job's progress and summary go to stderr; its rows to the output (or stdout).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseCountryCode } from '../engine/countries.js';
import type { Country, GeoLevel } from '../engine/types.js';
import { CLEAN_FIELDS, GEOCODE_FIELDS, parseFields } from './batch/fields.js';
import { JobError, runJob, type JobOptions, type JobSummary } from './batch/job.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_DICTIONARIES = process.env.DICTIONARIES_DIR ?? resolve(ROOT, 'build', 'dictionaries');

const QC_NAMES: Record<string, string> = {
  0: 'sure', 1: 'leftovers or doubtful', 2: 'nothing found', 3: 'several candidates', exception: 'bad row', found: 'an address near', 'not found': 'nothing near',
};
const QC_GEO_NAMES: Record<string, string> = { 0: 'house', 2: 'street', 3: 'settlement', 4: 'city', 5: 'none', '-': 'no result' };

function country(value: string): Country {
  const parsed = parseCountryCode(value);
  if (!parsed?.country) throw new InvalidArgumentError('one of RU, KZ, BY, UA (or their alpha-3 or numeric codes).');
  return parsed.country;
}

function count(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a whole number.');
  return Number(value);
}

/**
 * A CSV delimiter: one character (`\\t` or `tab` for a tab), not a quote or a line break. The record scanner and
 * the quoting read one character, so a longer one would split fields it wrote.
 */
function delimiter(value: string): string {
  const char = value === '\\t' || value === 'tab' ? '\t' : value;
  if (char.length !== 1 || /["\r\n]/.test(char)) throw new InvalidArgumentError('one character (\\t or tab for a tab), not a quote or a line break.');
  return char;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function counts(byKey: Record<string, number>, names: Record<string, string>): string {
  return Object.entries(byKey)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${key}${names[key] ? ` (${names[key]})` : ''} ${n}`)
    .join(', ');
}

/** The end-of-job lines on stderr. */
export function summaryText(op: string, summary: JobSummary): string {
  const lines = [
    `${op}: ${summary.rows} rows in ${summary.seconds.toFixed(1)} s (${Math.round(summary.rowsPerSecond)} rows/s) → ${summary.output}` +
      (summary.skipped ? `, ${summary.skipped} skipped` : ''),
    `  qc: ${counts(summary.qc, QC_NAMES) || '-'}`,
    `  qc_geo: ${counts(summary.qcGeo, QC_GEO_NAMES) || '-'}`,
    `  exceptions: ${summary.exceptions}${summary.errors ? ` → ${summary.errors}` : summary.exceptions ? ' (write them to a file with --errors PATH)' : ''}`,
  ];
  if (summary.interrupted) {
    lines.push(`interrupted: ${summary.resumeAt} data rows are done and written; resume with --skip ${summary.resumeAt}` +
      (summary.format === 'xlsx' ? ' and another -o (an XLSX file cannot be appended to)' : ' and the same -o (the rows are appended)'));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Runs a job with Ctrl-C wired: the first stops cleanly, the second at once. Returns the exit code. The options are
 * made here, so that one refused (an unknown --fields name) is said in one line and exits 2, as a job that cannot start.
 */
async function runWithSignals(op: string, makeOptions: () => JobOptions): Promise<number> {
  let options: JobOptions;
  try {
    options = makeOptions();
  } catch (err) {
    process.stderr.write(`${op}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\n${op}: stopping — writing the batches in flight (Ctrl-C again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const summary = await runJob({ ...options, signal: controller.signal });
    process.stderr.write(summaryText(op, summary));
    return summary.interrupted ? 130 : 0;
  } catch (err) {
    process.stderr.write(`${op}: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof JobError ? 2 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Options every file job shares. */
function fileJob(command: Command, defaults: readonly string[]): Command {
  return command
    .option('-o, --output <path>', 'output file (default: stdout); its extension picks the format unless --format says')
    .addOption(new Option('--format <format>', 'output format (default: the input\'s)').choices(['csv', 'tsv', 'xlsx', 'ndjson']))
    .option('--country <code>', 'country of the addresses: RU, KZ, BY, UA', country, 'ru' as Country)
    .option('--fields <names>', `result columns, comma-separated, repeatable: DaData's names or our record's paths (default: ${defaults.join(',')})`, collect)
    .option('--errors <path>', 'write bad rows here: line, reason, text (tab-separated)')
    .option('--skip <n>', 'pass over the first n data rows (resume an interrupted run: appends to the same -o)', count, 0)
    .option('--no-header', 'the first row is data, not column names (columns are then numbered from 1)')
    .option('--sheet <name>', 'XLSX: the sheet to read (default: the first)')
    .option('--delimiter <char>', 'CSV: the field delimiter, one character (default: detected among ; , tab |)', delimiter)
    .addOption(new Option('--encoding <encoding>', 'CSV: the input encoding (default: detected; UTF-8 with or without BOM, else cp1251)').choices(['utf-8', 'cp1251']))
    .option('--threads <n>', 'worker threads (default: one per core)', count)
    .option('--batch <rows>', 'rows per batch sent to a worker', count, 1000)
    .addOption(new Option('--dictionaries <dir>', 'folder of the built dictionaries (DICTIONARIES_DIR)').default(DEFAULT_DICTIONARIES, 'build/dictionaries'))
    .option('--quiet', 'no progress on stderr');
}

type FileJobFlags = {
  output?: string; format?: JobOptions['format']; country: Country; fields?: string[]; errors?: string; skip: number;
  header: boolean; sheet?: string; delimiter?: string; encoding?: JobOptions['encoding']; threads?: number; batch: number;
  dictionaries: string; quiet?: boolean;
};

function jobOptions(input: string, flags: FileJobFlags, op: JobOptions['op'], defaults: readonly string[]): JobOptions {
  return {
    op,
    input,
    output: flags.output,
    format: flags.format,
    country: flags.country,
    fields: parseFields(flags.fields, defaults),
    errors: flags.errors,
    skip: flags.skip,
    header: flags.header,
    sheet: flags.sheet,
    delimiter: flags.delimiter,
    encoding: flags.encoding,
    threads: flags.threads,
    batchRows: flags.batch,
    dictionaries: resolve(flags.dictionaries),
    progress: flags.quiet ? 'off' : undefined,
  };
}

/**
 * Runs a TypeScript entry of the repository in a child node (tsx loaded) in the installation's folder, as `npm start`
 * and `npm run dict:build` do (relative paths of the configuration are read from there), passing signals on;
 * resolves to its exit code.
 */
function runScript(script: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), resolve(ROOT, script), ...args], { stdio: 'inherit', cwd: ROOT });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((done) => {
    child.on('exit', (code, signal) => {
      for (const [name, handler] of handlers) process.off(name, handler);
      done(code ?? (signal ? 128 + 2 : 1));
    });
  });
}

export function program(exit: (code: number) => void = (code) => process.exit(code)): Command {
  const cli = new Command('address-service')
    .description('Address standardization, hints and search for RU, KZ, BY, UA: files in batch, dictionaries, the HTTP server')
    .showHelpAfterError('(add --help for usage)')
    // a usage error (an unknown command or option, a bad value) exits 2, as a job that cannot start does; help 0
    .exitOverride((err) => exit(err.exitCode === 0 ? 0 : 2));

  fileJob(
    cli.command('clean')
      .description('Standardize the addresses of a file on every core: the input\'s columns unchanged, then the result columns (DaData\'s cleaner names by default)')
      .argument('<input>', 'CSV/TSV (any delimiter; UTF-8 or cp1251), XLSX, NDJSON file, or - for stdin')
      .option('-c, --column <name|number>', 'address column, repeatable: several are joined with ", " (default: a column named address/адрес/query, or the only one)', collect),
    CLEAN_FIELDS,
  )
    .addHelpText('after', '\nExamples:\n  address-service clean clients.csv -o clients.clean.csv --errors bad-rows.tsv\n' +
      '  address-service clean book.xlsx --column city --column street --column house -o book.clean.xlsx\n' +
      '  cat list.ndjson | address-service clean - --column query --fields result,house_fias_id,qc > out.ndjson')
    .action(async (input: string, flags: FileJobFlags & { column?: string[] }) => {
      exit(await runWithSignals('clean', () => ({ ...jobOptions(input, flags, 'clean', CLEAN_FIELDS), columns: flags.column })));
    });

  fileJob(
    cli.command('geocode')
      .description('The address at each point of a file of coordinates (reverse geocoding on the engine\'s nearest search)')
      .argument('<input>', 'CSV/TSV, XLSX or NDJSON file with latitude and longitude columns, or - for stdin')
      .option('--lat <name|number>', 'latitude column (default: lat/latitude/широта/geo_lat)')
      .option('--lon <name|number>', 'longitude column (default: lon/lng/longitude/долгота/geo_lon)')
      .addOption(new Option('--level <level>', 'level of the object sought (default: the nearest of any)').choices(['region', 'area', 'city', 'settlement', 'planStructure', 'street', 'house']))
      .option('--radius <metres>', 'search radius in metres, at most 1000', count, 100),
    GEOCODE_FIELDS,
  )
    .addHelpText('after', '\nExample:\n  address-service geocode points.csv --lat lat --lon lon --level house -o points.address.csv')
    .action(async (input: string, flags: FileJobFlags & { lat?: string; lon?: string; level?: GeoLevel; radius: number }) => {
      if (flags.radius < 1 || flags.radius > 1000) {
        process.stderr.write('geocode: --radius is 1 to 1000 metres\n');
        exit(2);
        return;
      }
      exit(await runWithSignals('geocode', () => ({ ...jobOptions(input, flags, 'geocode', GEOCODE_FIELDS), lat: flags.lat, lon: flags.lon, level: flags.level, radius: flags.radius })));
    });

  const dict = cli.command('dict').description('Dictionaries');
  dict.command('build')
    .description('Build the dictionaries from the sources under DATA_DIR (default ../shared/data) into build/dictionaries')
    .argument('[countries...]', 'ru, kz, by, ua (default: all)')
    .option('--out <dir>', 'output folder (default: build/dictionaries)')
    .action(async (countries: string[], flags: { out?: string }) => {
      exit(await runScript('dictionaries/build.ts', [...(flags.out ? ['--out', resolve(flags.out)] : []), ...countries]));
    });

  dict.command('update')
    .description('Apply GAR delta archives (gar_delta_xml.zip) to the built ru dictionary, without the full archive; a running server takes the result on SIGHUP')
    .requiredOption('--delta <file>', 'a delta archive; repeat for several, oldest first', collect)
    .option('--dir <dir>', 'the dictionaries folder (ru.dict and its update store ru.gar.mdb; default: build/dictionaries)')
    .option('--data-dir <dir>', 'the other sources of the dictionary (default: DATA_DIR, ../shared/data)')
    .option('--as-of <date>', 'the date parameters must be valid on, YYYY-MM-DD (default: today)')
    .addHelpText('after', '\nExample:\n  address-service dict update --delta gar_delta_xml_20230703.zip --delta gar_delta_xml_20230710.zip')
    .action(async (flags: { delta: string[]; dir?: string; dataDir?: string; asOf?: string }) => {
      const args = flags.delta.flatMap((file) => ['--delta', resolve(file)]);
      if (flags.dir) args.push('--dir', resolve(flags.dir));
      if (flags.dataDir) args.push('--data-dir', resolve(flags.dataDir));
      if (flags.asOf) args.push('--as-of', flags.asOf);
      exit(await runScript('scripts/dict-update.ts', args));
    });

  cli.command('serve')
    .description('Run the HTTP server (one worker per core; SIGHUP reloads the dictionaries, SIGTERM drains and stops)')
    .option('--config <file>', 'configuration file (default: config/address-service.yaml)')
    .option('--port <n>', 'listen on this port')
    .option('--license-server', 'run the license server instead')
    .allowUnknownOption()
    .action(async (flags: { config?: string; port?: string; licenseServer?: boolean }, command: Command) => {
      const args = [
        ...(flags.config ? ['--config', resolve(flags.config)] : []),
        ...(flags.port ? ['--port', flags.port] : []),
        ...(flags.licenseServer ? ['--license-server'] : []),
        ...command.args,
      ];
      exit(await runScript('host/server.ts', args));
    });

  return cli;
}

export async function main(argv = process.argv): Promise<void> {
  await program().parseAsync(argv);
}
