import { describe, expect, it } from 'vitest';
import { isListenError, MAX_DELAY_MS, QUIET_MS, RestartPolicy } from '../../../host/restart-policy.js';

describe('RestartPolicy.died(now)', () => {
  it('doubles the wait from 0.5 s per death in a row, up to 30 s', () => {
    const policy = new RestartPolicy(20);
    const waits = Array.from({ length: 9 }, (_, i) => policy.died(1_000 * i));
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, MAX_DELAY_MS, MAX_DELAY_MS, MAX_DELAY_MS]);
  });

  it('gives up (null) at the death past the limit', () => {
    const policy = new RestartPolicy(2);
    expect([policy.died(0), policy.died(10), policy.died(20)]).toEqual([500, 1_000, null]);
    expect(policy.deaths).toBe(3);
  });

  it('starts a new streak after a minute without deaths', () => {
    const policy = new RestartPolicy(2);
    policy.died(0);
    policy.died(10);
    expect(policy.died(10 + QUIET_MS)).toBe(500);
    expect(policy.deaths).toBe(1);
  });
});

describe('isListenError(err)', () => {
  it('tells the errors of listen from others', () => {
    expect(isListenError(Object.assign(new Error('in use'), { code: 'EADDRINUSE', syscall: 'listen' }))).toBe(true);
    expect(isListenError(Object.assign(new Error('in use'), { code: 'EADDRINUSE', syscall: 'bind' }))).toBe(true);
    expect(isListenError(Object.assign(new RangeError('port'), { code: 'ERR_SOCKET_BAD_PORT' }))).toBe(true);
    expect(isListenError(new Error('ru.dict: bad magic'))).toBe(false);
    expect(isListenError(null)).toBe(false);
  });
});
