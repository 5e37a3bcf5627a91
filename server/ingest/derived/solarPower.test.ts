import { describe, expect, it } from 'vitest';
import { cellTemperatureC, pvOutputPercent, solarPowerFrom } from './solarPower.ts';

describe('PVWatts v5 module model with the NOCT cell temperature', () => {
  it('gives the rated power at standard test conditions (1000 W/m², cell 25 °C)', () => {
    // Air 25 - 31.25 °C makes the cell 25 °C at 1000 W/m².
    expect(pvOutputPercent(1000, 25 - 31.25)).toBeCloseTo(100, 10);
  });

  it('heats the cell to NOCT (45 °C) at 800 W/m² and 20 °C air, and loses 0.47 %/°C', () => {
    expect(cellTemperatureC(20, 800)).toBe(45);
    expect(pvOutputPercent(800, 20)).toBeCloseTo(80 * (1 - 0.0047 * 20), 10);
  });

  it('gives nothing at night', () => {
    expect([...solarPowerFrom(Float32Array.of(0, -1), Float32Array.of(280, 280))]).toEqual([0, 0]);
  });
});
