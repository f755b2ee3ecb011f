/**
 * Progress of a long job on stderr: a bar with rows/s and ETA on a terminal (cli-progress), a plain line every
 * `everyMs` otherwise (logs, pipes). The ETA comes from the bytes read out of the input's size; without a size
 * (stdin) there is none.
 */
import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';

export interface ProgressOptions {
  stream: Writable & { isTTY?: boolean };
  label: string;
  /** the input's size in bytes; 0 when unknown */
  totalBytes: number;
  /** a bar (terminal), plain lines, or nothing */
  mode: 'bar' | 'lines' | 'off';
  everyMs?: number;
}

export class Progress {
  private readonly started = performance.now();
  private readonly bar: cliProgress.SingleBar | null = null;
  private lastLine = 0;

  constructor(private readonly options: ProgressOptions) {
    if (options.mode === 'bar') {
      const total = options.totalBytes > 0;
      this.bar = new cliProgress.SingleBar(
        {
          stream: options.stream,
          format: `${options.label} ${total ? '{bar} {percentage}% | ' : ''}{rows} rows | {speed} rows/s${total ? ' | ETA {eta_formatted}' : ''}`,
          hideCursor: true,
          etaBuffer: 50,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(total ? options.totalBytes : 1, 0, { rows: 0, speed: 0 });
    }
  }

  update(rows: number, bytes: number): void {
    const seconds = (performance.now() - this.started) / 1000;
    const speed = seconds > 0 ? Math.round(rows / seconds) : 0;
    if (this.bar) {
      this.bar.update(this.options.totalBytes > 0 ? Math.min(bytes, this.options.totalBytes) : 0, { rows, speed });
      return;
    }
    if (this.options.mode !== 'lines') return;
    const now = performance.now();
    if (now - this.lastLine < (this.options.everyMs ?? 10_000)) return;
    this.lastLine = now;
    const share = this.options.totalBytes > 0 ? bytes / this.options.totalBytes : 0;
    const eta = share > 0 ? ` | ${Math.round(share * 100)}% | ETA ${Math.round((seconds / share) - seconds)} s` : '';
    this.options.stream.write(`${this.options.label} ${rows} rows | ${speed} rows/s${eta}\n`);
  }

  stop(): void {
    this.bar?.stop();
  }
}
