import { describe, expect, it } from 'vitest';
import { icingFrom, icingPotential } from './icing.ts';

describe('Schultz & Politovich (1992) icing algorithm', () => {
  it('forecasts icing between 0 and -16 °C at 63 % relative humidity and more', () => {
    expect(icingPotential(-5, 80)).toBe(1);
    expect(icingPotential(0, 63)).toBe(1);
    expect(icingPotential(-16, 63)).toBe(1);
    expect(icingPotential(-16.1, 90)).toBe(0);
    expect(icingPotential(0.1, 90)).toBe(0);
    expect(icingPotential(-8, 62.9)).toBe(0);
    expect(icingPotential(NaN, 80)).toBeNaN();
  });

  it('works on fields in kelvin, in %', () => {
    expect([...icingFrom(Float32Array.of(268.15, 280), Float32Array.of(80, 80))]).toEqual([100, 0]);
  });
});
