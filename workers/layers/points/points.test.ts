import { describe, expect, it } from 'vitest';
import { mercatorOf } from './points.ts';

describe('mercatorOf', () => {
  it('puts the equator at y 0.5, the antimeridians at x 0 and 1, and clamps the poles to the square world', () => {
    const m = mercatorOf(Float32Array.of(-180, 0, 180, 0), Float32Array.of(0, 0, 0, 90));
    expect([...m.subarray(0, 6)]).toEqual([0, 0.5, 0.5, 0.5, 1, 0.5]);
    expect(m[7]).toBeCloseTo(0, 6);
    // 45° N: y = 0.5 - ln(tan(67.5°)) / 2π = 0.35972 (Snyder 1987, eq. 7-2, normalised).
    expect(mercatorOf(Float32Array.of(0), Float32Array.of(45))[1]).toBeCloseTo(0.359725, 5);
  });
});
