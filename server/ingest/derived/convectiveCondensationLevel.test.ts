import { describe, expect, it } from 'vitest';
import { cclFrom, cclHeight, mixingRatio } from './convectiveCondensationLevel.ts';

const R_D = 287.05;
const G0 = 9.80665;

describe('convective condensation level (AWS/TR-79/006 skew-T construction)', () => {
  it('meets a sounding where w_s(T, p) equals the surface mixing ratio, at the hypsometric height', () => {
    // T linear in ln p: 288 K at 1000 hPa, 6.5 K cooler per 10 % fall of ln p (-61.7 K per unit
    // of ln p). Surface dew point 278 K. The crossing by bisection on the continuous sounding; its
    // height R (mean T) / g ln(ps / p) for a temperature linear in ln p.
    const temp = (p: number) => 288 + 61.7 * Math.log(p / 100_000);
    const w = mixingRatio(278, 100_000);
    let lo = 30_000;
    let hi = 100_000;
    for (let k = 0; k < 80; k++) {
      const mid = (lo + hi) / 2;
      if (mixingRatio(temp(mid), mid) > w) hi = mid;
      else lo = mid;
    }
    const expected = (R_D * (288 + temp(lo)) / 2) / G0 * Math.log(100_000 / lo);
    const pressures = [97_500, 95_000, 92_500, 90_000, 85_000, 80_000, 70_000, 60_000, 50_000, 40_000];
    const got = cclHeight(288, 278, 100_000, { pressures, temps: pressures.map(temp) });
    // w_s interpolated in ln p between the levels: within 1 % of the continuous answer.
    expect(Math.abs(got - expected) / expected).toBeLessThan(0.01);
    expect(expected).toBeGreaterThan(1000);
  });

  it('is the ground for saturated surface air and NaN when the sounding never gets as dry', () => {
    expect(cclHeight(280, 280, 100_000, { pressures: [90_000], temps: [275] })).toBe(0);
    expect(cclHeight(300, 280, 100_000, { pressures: [90_000], temps: [310] })).toBeNaN();
  });

  it('works on fields', () => {
    const one = (v: number) => Float32Array.of(v);
    const temp = (p: number) => 288 + 61.7 * Math.log(p / 100_000);
    const levels = [85_000, 70_000, 50_000].map((pressure) => ({ pressure, temp: one(temp(pressure)) }));
    const pressures = levels.map((l) => l.pressure);
    expect(cclFrom(one(288), one(278), one(100_000), levels)[0]).toBeCloseTo(cclHeight(288, 278, 100_000, { pressures, temps: pressures.map((p) => Math.fround(temp(p))) }), 1);
  });
});
