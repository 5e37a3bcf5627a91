import { describe, expect, it } from 'vitest';
import { createKeyedLimiter } from './keyedLimiter.ts';

describe('createKeyedLimiter', () => {
  it('blocks a key after its limit until its window ends, others unaffected', () => {
    let t = 1000;
    const limiter = createKeyedLimiter(3, 60_000, () => t);
    for (let i = 0; i < 3; i++) {
      expect(limiter.blockedFor('a')).toBe(0);
      limiter.hit('a');
      t += 1000;
    }
    expect(limiter.blockedFor('a')).toBe(57_000);
    expect(limiter.blockedFor('b')).toBe(0);
    t = 1000 + 60_000;
    expect(limiter.blockedFor('a')).toBe(0);
  });

  it('forgets a key on reset', () => {
    const limiter = createKeyedLimiter(1, 60_000, () => 0);
    limiter.hit('a');
    expect(limiter.blockedFor('a')).toBeGreaterThan(0);
    limiter.reset('a');
    expect(limiter.blockedFor('a')).toBe(0);
  });

  it('sweeps ended windows when many keys pile up', () => {
    let t = 0;
    const limiter = createKeyedLimiter(1, 10, () => t);
    for (let i = 0; i < 10_000; i++) limiter.hit(`k${i}`);
    t = 100;
    limiter.hit('late');
    expect(limiter.blockedFor('k1')).toBe(0);
    expect(limiter.blockedFor('late')).toBeGreaterThan(0);
  });
});
