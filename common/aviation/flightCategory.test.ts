import { describe, expect, it } from 'vitest';
import { flightCategory } from './flightCategory.ts';

// The limits of the Aviation Weather Center's table (flightCategory.ts), each side of each bound.
describe('flightCategory', () => {
  it.each([
    // ceiling ft, visibility SM, category
    [null, 10, 'VFR'],
    [3100, 6, 'VFR'],
    [3000, 10, 'MVFR'],
    [1000, 10, 'MVFR'],
    [999, 10, 'IFR'],
    [500, 10, 'IFR'],
    [499, 10, 'LIFR'],
    [null, 5, 'MVFR'],
    [null, 3, 'MVFR'],
    [null, 2.5, 'IFR'],
    [null, 1, 'IFR'],
    [null, 0.75, 'LIFR'],
    // the worse of the two decides
    [2000, 0.5, 'LIFR'],
    [400, 10, 'LIFR'],
    [800, 4, 'IFR'],
  ] as const)('ceiling %s ft, visibility %s SM: %s', (ceiling, visibility, expected) => {
    expect(flightCategory(ceiling, visibility)).toBe(expected);
  });

  it('has no category without a visibility or any sky condition, and goes by the ceiling alone when only the sky is reported', () => {
    expect(flightCategory(null, null, false)).toBeNull();
    expect(flightCategory(700, null, true)).toBe('IFR');
    expect(flightCategory(null, null, true)).toBe('VFR');
  });
});
