import { describe, expect, it } from 'vitest';
import { deadFuelMoistureFrom, simardEmc, tenHourFuelMoisture } from './deadFuelMoisture.ts';

describe('NFDRS 1978 10-hour dead fuel moisture (Cohen & Deeming 1985)', () => {
  it('uses the three Simard (1968) EMC branches of Cohen & Deeming (1985) p. 3', () => {
    // 70 °F: RH 5 % -> 0.03229 + 1.405365 - 0.2023; RH 30 % -> 2.22749 + 4.80321 - 1.03488; RH 80 % -> 21.0606 + 35.616 - 1.96 - 38.65592.
    expect(simardEmc(70, 5)).toBeCloseTo(1.235355, 5);
    expect(simardEmc(70, 30)).toBeCloseTo(5.99582, 5);
    expect(simardEmc(70, 80)).toBeCloseTo(16.06068, 5);
  });

  it('is 1.28 times the EMC', () => {
    expect(tenHourFuelMoisture(70, 30)).toBeCloseTo(1.28 * 5.99582, 5);
  });

  it('takes kelvin and % fields', () => {
    expect(deadFuelMoistureFrom(Float32Array.of(294.261111), Float32Array.of(30))[0]).toBeCloseTo(1.28 * 5.99582, 3);
  });
});
