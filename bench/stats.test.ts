import { describe, expect, it } from 'vitest';
import { median, parseCpuTimes, stolenShare } from './stats.ts';

describe('bench statistics', () => {
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('reads the cpu line of /proc/stat and the stolen share between two readings', () => {
    const at = (user: number, idle: number, steal: number) =>
      `cpu  ${user} 0 100 ${idle} 0 0 0 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 12345\n`;
    const a = parseCpuTimes(at(1000, 5000, 100));
    const b = parseCpuTimes(at(1500, 5200, 400));
    expect(a).toEqual({ total: 6200, steal: 100 });
    expect(stolenShare(a, b)).toBeCloseTo(300 / 1000);
    expect(parseCpuTimes('intr 1\n')).toBeNull();
    expect(parseCpuTimes('cpu 1 2 x 4 5 6 7 8\n')).toBeNull();
    expect(stolenShare(null, b)).toBeNull();
    expect(stolenShare(b, a)).toBeNull();
  });
});
