import { describe, expect, it } from 'vitest';
import { hash01 } from './hash.ts';

describe('hash01', () => {
  it('is a pure function of its integers', () => {
    expect(hash01(1, 2, 3, 4)).toBe(hash01(1, 2, 3, 4));
    expect(hash01(1, 2)).toBe(hash01(1, 2, 0, 0));
    expect(hash01(1, 2, 3, 4)).not.toBe(hash01(1, 2, 4, 3));
  });

  it('spreads evenly over [0, 1)', () => {
    const bins = new Array(10).fill(0);
    for (let k = 0; k < 10_000; k++) {
      const x = hash01(7, k, -k, 3);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      bins[Math.floor(x * 10)]++;
    }
    for (const count of bins) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });
});
