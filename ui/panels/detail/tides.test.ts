import { describe, expect, it } from 'vitest';
import { extremesByDay, localMidnight, tideCurvePath } from './tides.ts';

describe('the detail window\'s tide row', () => {
  it('finds the local midnight of a place, across time zones and daylight saving', () => {
    // 15 July 2026 00:20 UTC is 14 July 17:20 in Friday Harbor (PDT, UTC-7).
    expect(new Date(localMidnight(Date.UTC(2026, 6, 15, 0, 20), 'America/Los_Angeles')).toISOString()).toBe('2026-07-14T07:00:00.000Z');
    expect(new Date(localMidnight(Date.UTC(2026, 0, 15, 12), 'America/Los_Angeles')).toISOString()).toBe('2026-01-15T08:00:00.000Z');
    expect(new Date(localMidnight(Date.UTC(2026, 6, 15, 23, 30), 'Asia/Kolkata')).toISOString()).toBe('2026-07-15T18:30:00.000Z');
    expect(localMidnight(Date.UTC(2026, 6, 15), 'UTC')).toBe(Date.UTC(2026, 6, 15));
  });

  it('groups high and low waters by the place\'s day', () => {
    const at = (iso: string, high: boolean) => ({ time: Date.parse(iso), height: 1, high });
    // In Los Angeles time: 14 July 19:52, 15 July 03:58 and 12:02, 16 July 00:55.
    const days = extremesByDay([at('2026-07-15T02:52:00Z', true), at('2026-07-15T10:58:00Z', false), at('2026-07-15T19:02:00Z', true), at('2026-07-16T07:55:00Z', false)], 'America/Los_Angeles');
    expect(days.map((d) => d.extremes.length)).toEqual([1, 2, 1]);
    expect(days[1].day).toBe(Date.parse('2026-07-15T07:00:00Z'));
  });

  it('draws the curve from the range\'s start to its end, the highest water at the top', () => {
    const from = 0;
    const { path, x, y } = tideCurvePath({ from, to: 3_600_000, curve: { start: 0, step: 1_800_000, heights: [1, 3, 2] } }, 300, 100, 10);
    expect(path).toBe('M0.0,90.0L150.0,10.0L300.0,50.0');
    expect(x(1_800_000)).toBe(150);
    expect(y(3)).toBe(10);
  });
});
