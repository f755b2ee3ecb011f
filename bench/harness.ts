/**
 * What every bench shares: the engine (loaded once), a tinybench wrapper that returns ops/s and p99, the
 * row every bench reports (case, ops/s, p99, peer, peer ops/s), the table printer, and the entry point
 * that lets each `*.bench.ts` run alone (`npx tsx bench/suggest.bench.ts`).
 *
 * Timing: one tinybench task per measured function, `BENCH_TIME_MS` (default 1000) per task after a short
 * warm-up. ops/s is runs / total time (not the mean of per-sample rates). Functions far below a
 * microsecond are run `batch` times per sample so the timer's own cost does not dominate; their p99 is
 * then the p99 of a batch divided by its size (marked "batched" in the notes).
 */
import { Bench } from 'tinybench';
import { createEngine, type AddressEngine } from '../engine/index.js';
import { ROOT } from './fixtures.js';

export { ROOT };

export const BENCH_TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1000);

export interface Row {
  case: string;
  hz: number;
  p99_us: number;
  peer: string | null;
  peer_hz: number | null;
  /** a peer's p99, kept in results.json */
  peer_p99_us?: number | null;
  note?: string;
}

export interface Measure {
  hz: number;
  p99_us: number;
  samples: number;
}

export interface BenchContext {
  engine: AddressEngine;
  /** lines printed under the table: fixture sources, agreement checks, findings */
  notes: string[];
  /** extra figures a bench reports beside its rows (load: memory) */
  extra: Record<string, unknown>;
}

/** Defeats dead-code elimination: every measured function feeds its result here. */
export let sink = 0;
export function consume(value: number): void {
  sink = (sink + value) | 0;
}

export async function measure(
  name: string,
  fn: () => unknown,
  options: { batch?: number; time?: number; iterations?: number } = {},
): Promise<Measure> {
  const batch = options.batch ?? 1;
  const time = options.time ?? BENCH_TIME_MS;
  const bench = new Bench({
    name,
    time,
    warmupTime: Math.min(200, time / 3),
    iterations: options.iterations ?? 16,
    throws: true,
  });
  bench.add(name, fn as () => void);
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`bench ${name}: ${result.state}${'error' in result ? `: ${result.error.message}` : ''}`);
  const meanMs = result.totalTime / result.latency.samplesCount;
  return { hz: (1000 / meanMs) * batch, p99_us: (result.latency.p99 * 1000) / batch, samples: result.latency.samplesCount };
}

/** One row: our case, and the peer measured the same way over the same inputs. */
export function row(name: string, ours: Measure, peerName: string | null, peer: Measure | null, note?: string): Row {
  return { case: name, hz: ours.hz, p99_us: ours.p99_us, peer: peerName, peer_hz: peer?.hz ?? null, peer_p99_us: peer?.p99_us ?? null, note };
}

export async function createContext(): Promise<BenchContext> {
  const engine = await createEngine({});
  if (!engine.dictionary('ru')) throw new Error('no ru dictionary in build/dictionaries: run npx tsx scripts/prepare.ts');
  return { engine, notes: [], extra: {} };
}

function formatRate(hz: number | null): string {
  if (hz === null || !Number.isFinite(hz)) return '—';
  if (hz >= 1e6) return `${(hz / 1e6).toFixed(2)} M`;
  if (hz >= 1e3) return `${(hz / 1e3).toFixed(1)} k`;
  return hz.toFixed(1);
}

function formatMicros(us: number): string {
  if (!Number.isFinite(us)) return '—';
  if (us >= 1000) return us.toFixed(0);
  if (us >= 10) return us.toFixed(1);
  return us.toFixed(3);
}

export function formatTable(rows: Row[]): string {
  const header = ['case', 'ops/s', 'p99 µs', 'peer', 'peer ops/s', 'ratio'];
  const body = rows.map((r) => [
    r.case,
    formatRate(r.hz),
    formatMicros(r.p99_us),
    r.peer ?? '—',
    formatRate(r.peer_hz),
    r.peer_hz ? `×${(r.hz / r.peer_hz).toFixed(2)}` : '—',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 || i === 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 || i === 3 ? ':' : '-') + '-'.repeat(w) + (i === 0 || i === 3 ? '-' : ':')).join('|')}|`, ...body.map(line)].join('\n');
}

export type BenchRun = (ctx: BenchContext) => Promise<Row[]>;

/** True when `url` (a bench's import.meta.url) is the script node was started with. */
export function isMain(url: string): boolean {
  const argv1 = process.argv[1] ?? '';
  return url === `file://${argv1}` || fileFromUrl(url) === argv1;
}

function fileFromUrl(url: string): string {
  return decodeURIComponent(new URL(url).pathname);
}

/** Runs one bench file alone and prints its rows. */
export async function runStandalone(run: BenchRun): Promise<void> {
  try {
    const ctx = await createContext();
    const rows = await run(ctx);
    console.log(formatTable(rows));
    for (const note of ctx.notes) console.log(`- ${note}`);
    if (Object.keys(ctx.extra).length) console.log(JSON.stringify(ctx.extra, null, 2));
  } catch (err) {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  }
}
