import { describe, expect, it } from 'vitest';
import { createKeyedLimiter } from './keyedLimiter.ts';

describe('createKeyedLimiter', async () => {
  it('blocks a key after its limit until its window ends, others unaffected', async () => {
    let t = 1000;
    const limiter = createKeyedLimiter(3, 60_000, () => t);
    for (let i = 0; i < 3; i++) {
      expect(await limiter.blockedFor('a')).toBe(0);
      await limiter.hit('a');
      t += 1000;
    }
    expect(await limiter.blockedFor('a')).toBe(57_000);
    expect(await limiter.blockedFor('b')).toBe(0);
    t = 1000 + 60_000;
    expect(await limiter.blockedFor('a')).toBe(0);
  });

  it('forgets a key on reset', async () => {
    const limiter = createKeyedLimiter(1, 60_000, () => 0);
    await limiter.hit('a');
    expect(await limiter.blockedFor('a')).toBeGreaterThan(0);
    await limiter.reset('a');
    expect(await limiter.blockedFor('a')).toBe(0);
  });

  it('sweeps ended windows when many keys pile up', async () => {
    let t = 0;
    const limiter = createKeyedLimiter(1, 10, () => t);
    for (let i = 0; i < 10_000; i++) await limiter.hit(`k${i}`);
    t = 100;
    await limiter.hit('late');
    expect(await limiter.blockedFor('k1')).toBe(0);
    expect(await limiter.blockedFor('late')).toBeGreaterThan(0);
  });
});
