import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logDestination } from '../../../host/log-destination.js';

describe('logDestination(options).flushOnExit()', () => {
  it('writes every line still batched (sonic-boom keeps them below minLength)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
    const fd = openSync(file, 'w');
    const destination = logDestination({ fd, minLength: 4096, maxWrite: 8192, periodicFlush: 0 });
    const logger = pino({ base: null, timestamp: false }, destination.stream);
    for (let i = 0; i < 10; i++) logger.info({ i }, 'line');
    expect(readFileSync(file, 'utf8')).toBe('');
    destination.flushOnExit();
    closeSync(fd);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).i);
    expect(lines).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(destination.closed).toBe(false);
  });

  it.runIf(process.platform === 'linux')('gives up on a write that fails, and drops the lines after it', () => {
    // every write to /dev/full fails (ENOSPC), as one to a pipe with no reader fails (EPIPE)
    const fd = openSync('/dev/full', 'w');
    const destination = logDestination({ fd, minLength: 4096, maxWrite: 8192, periodicFlush: 0 });
    const logger = pino({ base: null, timestamp: false }, destination.stream);
    logger.info('before');
    destination.flushOnExit();
    expect(destination.closed).toBe(true);
    logger.info('after');
    destination.flushOnExit();
    closeSync(fd);
  });
});
