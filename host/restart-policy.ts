/**
 * When the primary starts a worker in place of one that died (`RestartPolicy`), and the exit codes of the service
 * (`EXIT`, docs/OPERATIONS.md). Deaths in a row, none of them `QUIET_MS` after the one before, make a streak; the
 * n-th death of a streak waits `FIRST_DELAY_MS × 2^(n−1)`, at most `MAX_DELAY_MS`, before its worker is started
 * again, and a streak longer than `gateway.RestartLimit` ends the service with exit code 4: a worker that cannot
 * stay up is refused loudly, for the supervisor to see, not restarted forever.
 */

export const EXIT = {
  /** stopped by SIGTERM or SIGINT, requests in flight answered */
  STOPPED: 0,
  /** could not start: a bad configuration, a fatal error */
  FAILED: 1,
  /** could not listen: address in use, no permission, no such address */
  CANNOT_LISTEN: 3,
  /** workers kept dying: more than gateway.RestartLimit deaths in a row */
  CRASH_LOOP: 4,
  /** stopped, but workers or requests were still running ShutdownTimeout + 5 s after the signal and were cut */
  SHUTDOWN_FORCED: 5,
} as const;

/** The listen errors (node's `err.code`) no restart can mend. */
const LISTEN_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ERR_SOCKET_BAD_PORT', 'ENOTFOUND', 'EAI_AGAIN']);

export function isListenError(err: unknown): boolean {
  const error = err as NodeJS.ErrnoException | null;
  return !!error && (error.syscall === 'listen' || error.syscall === 'bind' || LISTEN_ERRORS.has(error.code ?? ''));
}

export const FIRST_DELAY_MS = 500;
export const MAX_DELAY_MS = 30_000;
/** a death this long after the one before starts a new streak */
export const QUIET_MS = 60_000;

export class RestartPolicy {
  private streak = 0;
  private lastDeath = -Infinity;

  constructor(private readonly limit: number) {}

  /** A worker died at `now` (ms): how long to wait before starting another, or null when the limit is passed. */
  died(now: number): number | null {
    if (now - this.lastDeath >= QUIET_MS) this.streak = 0;
    this.lastDeath = now;
    this.streak++;
    if (this.streak > this.limit) return null;
    return Math.min(FIRST_DELAY_MS * 2 ** (this.streak - 1), MAX_DELAY_MS);
  }

  /** deaths in the current streak */
  get deaths(): number {
    return this.streak;
  }
}
