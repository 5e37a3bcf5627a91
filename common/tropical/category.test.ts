import { describe, expect, it } from 'vitest';
import { CATEGORY_MIN_KT, isSuperTyphoon, hurricaneNumber, stormCategory } from './category.ts';

describe('Saffir-Simpson classes (NHC) and super typhoon (JTWC)', () => {
  // NHC's table (https://www.nhc.noaa.gov/aboutsshws.php): each class's knots, both ends.
  it.each([
    [0, 'TD'], [33, 'TD'], [34, 'TS'], [63, 'TS'], [64, 'H1'], [82, 'H1'], [83, 'H2'], [95, 'H2'],
    [96, 'H3'], [112, 'H3'], [113, 'H4'], [136, 'H4'], [137, 'H5'], [155, 'H5'],
  ] as const)('%d kt is %s', (kt, category) => {
    expect(stormCategory(kt)).toBe(category);
  });

  it('numbers hurricanes 1-5 and refuses what is not a wind', () => {
    expect(hurricaneNumber('H3')).toBe(3);
    expect(hurricaneNumber('TS')).toBe(0);
    expect(CATEGORY_MIN_KT.H5).toBe(137);
    expect(() => stormCategory(Number.NaN)).toThrow(RangeError);
    expect(() => stormCategory(-5)).toThrow(/not a wind speed/);
  });

  it('calls a western Pacific storm of 130 kt or more a super typhoon, nothing elsewhere', () => {
    expect(isSuperTyphoon('WP', 130)).toBe(true);
    expect(isSuperTyphoon('WP', 129)).toBe(false);
    expect(isSuperTyphoon('AL', 160)).toBe(false);
  });
});
