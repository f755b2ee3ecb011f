/**
 * The processes' CPU scheduling policy (`gateway.Scheduling`), set once at start, before the primary forks: the
 * workers and every thread they start inherit it. `batch` is Linux's SCHED_BATCH: the same share of the CPU as the
 * normal policy, but a worker woken by a request does not preempt the task running on its core; it takes an idle
 * core or waits for its turn. A worker per core is busy by design, and where the service shares the cores with its
 * clients (a sidecar, or the load test), a worker that preempts a client on the client's core leaves the other core
 * idle meanwhile (docs/DECISIONS.md, "API and HTTP"). Node has no call for it, so util-linux's `chrt` sets it;
 * where there is no `chrt` or no Linux, the policy stays normal and the log says so.
 */
import { execFileSync } from 'node:child_process';
import type { Logger } from 'pino';
import type { Config } from './config.js';

export function applyScheduling(policy: Config['gateway']['Scheduling'], logger: Logger): void {
  if (policy !== 'batch') return;
  if (process.platform !== 'linux') {
    logger.info({ scheduling: 'normal' }, 'SCHED_BATCH is Linux only: normal scheduling');
    return;
  }
  try {
    execFileSync('chrt', ['--all-tasks', '--batch', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5_000 });
    logger.info({ scheduling: 'batch' }, 'scheduling policy set');
  } catch (err) {
    logger.warn({ err: (err as Error).message, scheduling: 'normal' }, 'SCHED_BATCH not set (chrt missing or refused): normal scheduling');
  }
}
