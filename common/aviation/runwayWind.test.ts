import { describe, expect, it } from 'vitest';
import { headingFromDesignator, runwayWind } from './runwayWind.ts';

describe('runwayWind', () => {
  // Worked values of V cos θ and V sin θ at angles whose sine and cosine are known exactly.
  it.each([
    // wind from, speed, runway heading, headwind, crosswind
    [270, 20, 270, 20, 0],
    [300, 20, 270, 20 * Math.sqrt(3) / 2, 10], // 30° off the right: half the speed across
    [240, 20, 270, 20 * Math.sqrt(3) / 2, -10], // 30° off the left
    [360, 15, 270, 0, 15], // straight across from the right
    [90, 12, 270, -12, 0], // a tailwind
    [10, 10, 340, 10 * Math.sqrt(3) / 2, 5], // across north
  ])('wind %s° %s on runway %s°', (from, speed, heading, head, cross) => {
    const w = runwayWind(from, speed, heading);
    expect(w.headwind).toBeCloseTo(head, 9);
    expect(w.crosswind).toBeCloseTo(cross, 9);
  });
});

describe('headingFromDesignator', () => {
  it.each([['09L', 90], ['27', 270], ['4', 40], ['36R', 360], ['H1', null], ['NE', null], ['00', null], ['18W', 180]])('%s: %s', (ident, heading) => {
    expect(headingFromDesignator(ident)).toBe(heading);
  });
});
