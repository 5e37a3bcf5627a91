import { describe, expect, it } from 'vitest';
import {
  dewpointFromMixingRatio, dewpointFromRelativeHumidity, dewpointFromVapourPressure, dryLapseRate, equivalentPotentialTemperature, KAPPA, KELVIN,
  liftedCondensationLevel, mixingRatio, moistAdiabat, moistLapseRate, potentialTemperature, relativeHumidity,
  saturationMixingRatio, saturationVapourPressure, temperatureFromPotential, virtualTemperature,
} from './thermo.ts';

describe('saturation vapour pressure (Bolton 1980 eq. 10)', () => {
  // Saturation vapour pressure over water, hPa, of the Goff-Gratch formulation (Smithsonian
  // Meteorological Tables; WMO-No. 8 annex 4.B), which Bolton fitted Wexler's values of.
  const table: [number, number][] = [[-20, 1.2540], [-10, 2.8627], [0, 6.1121], [10, 12.281], [20, 23.388], [30, 42.455], [35, 56.236]];
  it.each(table)('at %d °C is within 0.3 %% of the table (%f hPa)', (t, es) => {
    expect(Math.abs(saturationVapourPressure(t) / es - 1)).toBeLessThan(0.003);
  });
  it('gives 6.112 hPa at 0 °C, its constant', () => {
    expect(saturationVapourPressure(0)).toBeCloseTo(6.112, 6);
  });
  it('is inverted by eq. (11) for the dew point', () => {
    for (const t of [-60, -25, 0, 12.3, 33]) expect(dewpointFromVapourPressure(saturationVapourPressure(t))).toBeCloseTo(t, 9);
  });
});

describe('humidity', () => {
  it('mixing ratio: 10 hPa of vapour at 1000 hPa is 0.622 x 10 / 990 = 6.283 g/kg', () => {
    expect(1000 * mixingRatio(10, 1000)).toBeCloseTo(6.2828, 3);
    expect(dewpointFromMixingRatio(mixingRatio(10, 1000), 1000)).toBeCloseTo(dewpointFromVapourPressure(10), 9);
  });
  it('20 °C at 50 % has a dew point of 9.3 °C, and back', () => {
    expect(dewpointFromRelativeHumidity(20, 50)).toBeCloseTo(9.26, 1);
    expect(relativeHumidity(20, dewpointFromRelativeHumidity(20, 50))).toBeCloseTo(50, 9);
    expect(dewpointFromRelativeHumidity(20, 100)).toBeCloseTo(20, 9);
    // No finite dew point at 0 %: the floor of 0.1 % keeps it a number.
    expect(Number.isFinite(dewpointFromRelativeHumidity(20, 0))).toBe(true);
  });
  it('virtual temperature adds about 0.61 w T (Wallace & Hobbs 2006 eq. 3.60)', () => {
    const t = 30;
    const td = 25;
    const w = saturationMixingRatio(td, 1000);
    expect(Math.abs(virtualTemperature(t, 1000, td) - t - 0.608 * w * (t + KELVIN))).toBeLessThan(0.1);
    expect(virtualTemperature(t, 1000, null)).toBe(t);
  });
});

describe('potential temperatures', () => {
  it('Poisson: 0 °C at 500 hPa is θ = 273.15 x 2^0.2854 = 332.9 K, and back', () => {
    expect(potentialTemperature(0, 500)).toBeCloseTo(273.15 * 2 ** 0.2854, 9);
    expect(potentialTemperature(0, 500)).toBeCloseTo(332.9, 1);
    expect(temperatureFromPotential(potentialTemperature(-17.3, 612), 612)).toBeCloseTo(-17.3, 9);
  });
  it('θe of nearly dry air is its θ, and grows with the moisture', () => {
    expect(equivalentPotentialTemperature(850, 10, -80)).toBeCloseTo(potentialTemperature(10, 850), 1);
    expect(equivalentPotentialTemperature(1000, 25, 20)).toBeGreaterThan(equivalentPotentialTemperature(1000, 25, 10));
  });
});

describe('lifted condensation level', () => {
  /** The LCL by iteration, the method Bolton's eq. (15) approximates: the dry adiabat meets the saturation mixing ratio. */
  function iterativeLcl(p: number, t: number, td: number): { pressure: number; temp: number } {
    const w = saturationMixingRatio(td, p);
    const theta = potentialTemperature(t, p);
    let lo = 300;
    let hi = p;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (saturationMixingRatio(temperatureFromPotential(theta, mid), mid) > w) hi = mid;
      else lo = mid;
    }
    return { pressure: hi, temp: temperatureFromPotential(theta, hi) };
  }
  it.each([[1000, 30, 20], [1000, 30, 5], [966, 3.6, -1.2], [850, 10, 9], [700, -5, -30]])('from %f hPa, %f °C, dew point %f: Bolton eq. (15) within 0.3 K of the iteration', (p, t, td) => {
    const bolton = liftedCondensationLevel(p, t, td);
    const exact = iterativeLcl(p, t, td);
    expect(Math.abs(bolton.temp - exact.temp)).toBeLessThan(0.3);
    expect(Math.abs(bolton.pressure - exact.pressure)).toBeLessThan(4);
  });
  it('is the start when the air is saturated', () => {
    const lcl = liftedCondensationLevel(900, 12, 12);
    expect(lcl.pressure).toBeCloseTo(900, 6);
    expect(lcl.temp).toBeCloseTo(12, 1);
  });
});

describe('lapse rates', () => {
  it('dry: dT/dp = κ T / p, 9.8 K/km through the hydrostatic equation', () => {
    // dz = -Rd T dp / (g p): dT/dz = dT/dp x (-g p / (Rd T)) = -κ g / Rd = -g / cp.
    const perKm = (dryLapseRate(1000, 15) * 1000 * 9.80665) / (287.04 * (15 + KELVIN)) * 1000;
    expect(perKm).toBeCloseTo((KAPPA * 9.80665 * 1000) / 287.04, 6);
    expect(perKm).toBeCloseTo(9.75, 1);
  });
  /** K/km from K/hPa through the hydrostatic equation with the saturated air's virtual temperature. */
  const perKm = (p: number, t: number): number => (moistLapseRate(p, t) * p * 9.80665) / (287.04 * (virtualTemperature(t, p, t) + KELVIN)) * 1000;
  it('moist: near 4.3 K/km in warm saturated air at 1000 hPa, 6.4 at 0 °C, nearly dry in cold air', () => {
    // The textbook saturated-adiabatic lapse rates (e.g. the AMS Glossary of Meteorology's
    // "saturation-adiabatic lapse rate"): about 4 K/km in warm air near the ground, the dry rate in cold air.
    expect(Math.abs(perKm(1000, 20) - 4.3)).toBeLessThan(0.3);
    expect(Math.abs(perKm(1000, 0) - 6.4)).toBeLessThan(0.3);
    const dry = (KAPPA * 9.80665 * 1000) / 287.04;
    expect(Math.abs(perKm(300, -60) - dry)).toBeLessThan(0.3);
    expect(perKm(1000, 30)).toBeLessThan(perKm(1000, 10));
  });
  it('a saturated parcel lifted and brought back returns to its temperature', () => {
    expect(moistAdiabat(300, moistAdiabat(950, 22, 300), 950)).toBeCloseTo(22, 3);
  });
  it('the moist adiabat of 5 °C at 925 hPa is MetPy\'s moist_lapse worked example within 0.5 K to 200 hPa', () => {
    // metpy.calc.moist_lapse([925, 850, 700, 500, 300, 200] hPa, 5 degC) ->
    // 5, 0.99635104, -8.88958079, -28.38862857, -60.12003999, -83.34321585 degC. MetPy integrates the
    // saturated lapse rate with its own constants; this keeps Bolton's θe (eq. 43) constant, as the
    // published indices of the fixture soundings do: 0.03 K apart to 700 hPa, 0.40 K at 300 hPa.
    const expected = [5, 0.99635104, -8.88958079, -28.38862857, -60.12003999, -83.34321585];
    [925, 850, 700, 500, 300, 200].forEach((p, i) => expect(Math.abs(moistAdiabat(925, 5, p) - expected[i])).toBeLessThan(i <= 2 ? 0.05 : 0.5));
  });
  it('dry adiabat of 15 °C at 1000 hPa is MetPy\'s dry_lapse worked example within 0.05 K (κ 0.2854 against MetPy\'s 2/7)', () => {
    const expected = [15, 8.65249458, 1.92593808, -12.91786723];
    [1000, 925, 850, 700].forEach((p, i) => expect(Math.abs(temperatureFromPotential(15 + KELVIN, p) - expected[i])).toBeLessThan(0.05));
  });
});
