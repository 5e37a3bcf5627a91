import { describe, expect, it } from 'vitest';
import { TIDE_MARK_PX, tideMarks } from './tides.ts';

describe('tide station marks', () => {
  it('one blue mark of one size per station, at the station', () => {
    const marks = tideMarks(Float32Array.of(-123.0125, 10), Float32Array.of(48.5453, 50));
    expect(marks.lon[0]).toBeCloseTo(-123.0125, 4);
    expect([...marks.size]).toEqual([TIDE_MARK_PX, TIDE_MARK_PX]);
    expect([...marks.color.subarray(0, 4)]).toEqual([...marks.color.subarray(4, 8)]);
    expect(marks.color[2]).toBeGreaterThan(marks.color[0]);
  });
});
