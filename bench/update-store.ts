/**
 * The two embedded stores a GAR update could keep its rows in, measured on the row shape `dictionaries/update/`
 * uses: key (region, table, record id), value the record's read attributes joined into one string. For each:
 * a bulk load of `--rows` rows in one transaction, one ordered scan of them all (what a rebuild reads), and
 * 100 k random upserts (a delta). `better-sqlite3` is not a dependency: install it beside to run its half.
 * Usage: tsx bench/update-store.ts [--rows 1000000] [--dir /tmp/update-store]
 */
import { rmSync, mkdirSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ROWS = Number(option('--rows', '1000000'));
const DIR = option('--dir', '/tmp/update-store');
const UPDATES = 100_000;
const require = createRequire(import.meta.url);

const value = (id: number) => `${id}\u0001${'0b8f2a31-6c1e-4b8e-9d4f-' + String(id).padStart(12, '0')}\u0001${id % 300}\u00012\u0001\u0001\u0001\u0001\u00011\u00011`;
const time = (label: string, run: () => number | void) => {
  const started = performance.now();
  const n = run();
  const ms = performance.now() - started;
  console.log(`${label.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms${n ? `  (${n} rows)` : ''}`);
};
const sizeOf = (path: string): number =>
  statSync(path).isDirectory() ? readdirSync(path).reduce((sum, f) => sum + sizeOf(join(path, f)), 0) : statSync(path).size;

async function lmdbCase() {
  const { open } = await import('lmdb');
  const path = join(DIR, 'lmdb');
  rmSync(path, { recursive: true, force: true });
  const db = open<string, [string, string, number]>({ path, encoding: 'string', noSync: true });
  time('lmdb: load', () => {
    db.transactionSync(() => {
      for (let id = 1; id <= ROWS; id++) db.put(['99', 'AS_HOUSES', id], value(id));
    });
  });
  time('lmdb: ordered scan', () => {
    let n = 0;
    for (const { value: v } of db.getRange({ start: ['99', 'AS_HOUSES'], end: ['99', 'AS_HOUSES\u0001'] })) n += v.length > 0 ? 1 : 0;
    return n;
  });
  time('lmdb: 100 k upserts', () => {
    db.transactionSync(() => {
      for (let i = 0; i < UPDATES; i++) db.put(['99', 'AS_HOUSES', 1 + ((i * 7919) % ROWS)], value(i));
    });
  });
  await db.close();
  console.log(`lmdb: ${(sizeOf(path) / 2 ** 20).toFixed(0)} MB on disk`);
}

function sqliteCase() {
  let Database;
  try {
    Database = require('better-sqlite3');
  } catch {
    console.log('better-sqlite3 is not installed: its half is skipped');
    return;
  }
  const file = join(DIR, 'rows.sqlite');
  rmSync(file, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec('CREATE TABLE rows (region TEXT, tab TEXT, id INTEGER, value TEXT, PRIMARY KEY (region, tab, id)) WITHOUT ROWID');
  const put = db.prepare('INSERT OR REPLACE INTO rows VALUES (?, ?, ?, ?)');
  time('sqlite: load', () => db.transaction(() => { for (let id = 1; id <= ROWS; id++) put.run('99', 'AS_HOUSES', id, value(id)); })());
  time('sqlite: ordered scan', () => {
    let n = 0;
    for (const row of db.prepare('SELECT value FROM rows WHERE region = ? AND tab = ? ORDER BY id').raw().iterate('99', 'AS_HOUSES')) n += (row as string[])[0].length > 0 ? 1 : 0;
    return n;
  });
  time('sqlite: 100 k upserts', () => db.transaction(() => { for (let i = 0; i < UPDATES; i++) put.run('99', 'AS_HOUSES', 1 + ((i * 7919) % ROWS), value(i)); })());
  db.close();
  console.log(`sqlite: ${(statSync(file).size / 2 ** 20).toFixed(0)} MB on disk`);
}

mkdirSync(DIR, { recursive: true });
console.log(`${ROWS} rows`);
await lmdbCase();
sqliteCase();
