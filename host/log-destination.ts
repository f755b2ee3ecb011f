/**
 * The log stream of a process: pino's sonic-boom on stdout, written synchronously in batches
 * (`logDestination(options)`), and `flushOnExit()`, which writes what is still batched when the process exits.
 *
 * A reader of stdout may go away (`… | head -2`, a log shipper that died): every write then fails with EPIPE. The
 * service keeps serving and stops logging: the first failed write (any error, not only pino's EPIPE) turns the
 * stream into one that drops its lines, and says so once on stderr. When the first write to fail is the one at exit,
 * sonic-boom's own `flushSync` retries it forever whatever the error, EPIPE included: an exit handler that called it
 * never returned, and no exit (SIGTERM's, the forced one) happened. `flushOnExit` writes the batch once and gives up
 * on any error but a full pipe's (EAGAIN), which it retries a bounded number of times.
 */
import { writeSync } from 'node:fs';
import pino from 'pino';

type SonicBoom = ReturnType<typeof pino.destination>;

/** What sonic-boom holds between writes: the chunk being written and the chunks after it (its own fields). */
interface Batched {
  _writingBuf?: string | Buffer;
  _bufs?: (string | Buffer)[];
  _len?: number;
}

/** A full pipe (EAGAIN) is waited for this many times, this long each, at exit, before the lines are dropped. */
const FULL_PIPE_RETRIES = 20;
const FULL_PIPE_WAIT_MS = 25;

export interface LogDestination {
  stream: SonicBoom;
  /** true once a write failed: the stream drops its lines from then on */
  readonly closed: boolean;
  /** writes the batched lines, bounded: never blocks the exit on a reader that is gone */
  flushOnExit(): void;
}

export function logDestination(options: { fd: number; minLength: number; maxWrite: number; periodicFlush: number }): LogDestination {
  const stream = pino.destination({ dest: options.fd, sync: true, minLength: options.minLength, maxWrite: options.maxWrite, periodicFlush: options.periodicFlush });
  let closed = false;
  const close = (err: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    // pino calls the stream's write for every line: from now on it drops them
    stream.write = () => true;
    const batched = stream as unknown as Batched;
    batched._bufs = [];
    batched._writingBuf = '';
    batched._len = 0;
    try {
      writeSync(2, `log output on fd ${options.fd} failed (${err.code ?? err.message}): logging stops, the service goes on\n`);
    } catch {
      // stderr is gone too
    }
  };
  stream.on('error', close);
  return {
    stream,
    get closed() {
      return closed;
    },
    flushOnExit() {
      if (closed) return;
      const batched = stream as unknown as Batched;
      const pending = [batched._writingBuf ?? '', ...(batched._bufs ?? [])].filter((chunk) => chunk.length > 0);
      batched._writingBuf = '';
      batched._bufs = [];
      batched._len = 0;
      for (const chunk of pending) {
        let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        let waits = 0;
        while (bytes.length > 0) {
          try {
            bytes = bytes.subarray(writeSync(options.fd, bytes));
          } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            if ((code !== 'EAGAIN' && code !== 'EBUSY') || waits++ >= FULL_PIPE_RETRIES) {
              close(err as NodeJS.ErrnoException);
              return;
            }
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FULL_PIPE_WAIT_MS);
          }
        }
      }
    },
  };
}
