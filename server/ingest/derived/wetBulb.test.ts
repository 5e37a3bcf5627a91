import { describe, expect, it } from 'vitest';
import { stullWetBulbC, wetBulbFrom } from './wetBulb.ts';

describe('Stull (2011) wet-bulb temperature', () => {
  it('gives the paper\'s worked example: T = 20 °C, RH = 50 % -> Tw = 13.7 °C (Stull 2011, p. 2267)', () => {
    expect(stullWetBulbC(20, 50)).toBeCloseTo(13.7, 1);
  });

  it('is NaN outside the fit\'s stated range (RH 5-99 %, T -20..50 °C) and T itself at saturation', () => {
    expect(stullWetBulbC(20, 3)).toBeNaN();
    expect(stullWetBulbC(-30, 50)).toBeNaN();
    expect(stullWetBulbC(15, 100)).toBe(15);
  });

  it('works on fields in kelvin', () => {
    const tw = wetBulbFrom(Float32Array.of(293.15), Float32Array.of(50));
    expect(tw[0] - 273.15).toBeCloseTo(13.7, 1);
  });
});
