import { describe, expect, it } from 'vitest';
import { fireMarks, fireSize } from './firespots.ts';

describe('firespot marks', () => {
  it('grow by a step per decade of FRP, to a cap; no FRP is the base size', () => {
    expect(fireSize(Number.NaN)).toBe(7);
    expect(fireSize(9)).toBeCloseTo(9.5, 6);
    expect(fireSize(99)).toBeCloseTo(12, 6);
    expect(fireSize(1e9)).toBe(16);
  });
  it('one mark per detection', () => {
    const marks = fireMarks(Float32Array.of(1, 2), Float32Array.of(3, 4), Float32Array.of(Number.NaN, 9));
    expect(marks.color.length).toBe(8);
    expect([...marks.size]).toEqual([7, 9.5]);
  });
});
