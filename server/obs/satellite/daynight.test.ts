import { describe, expect, it } from 'vitest';
import { composite, dayWeight, irBrightness, solarZenithDeg, visibleBrightness, zenithGrid } from './daynight.ts';

describe('day/night blend', () => {
  it('gives the solar zenith of Meeus\'s worked example 25.a (1992 Oct 13.0 TD: apparent declination -7.78507°)', () => {
    // At the South Pole the Sun stands as high as minus its declination; suncalc's altitude is
    // apparent, so refraction at 7.8° (Saemundsson, Meeus eq. 16.4: 1.02' / tan(h + 10.3' / (h + 5.11')) = 0.112°) lifts it.
    const time = Date.UTC(1992, 9, 13, 0, 0, 0) - 59_000; // TD - ΔT (59 s in 1992)
    expect(solarZenithDeg(time, 0, -90)).toBeCloseTo(90 - 7.78507 - 0.112, 1);
    expect(solarZenithDeg(time, 123, -90)).toBeCloseTo(90 - 7.78507 - 0.112, 1);
  });

  it('blends by the solar zenith: visible by day, infrared by night, linear across 80°..90°', () => {
    expect(dayWeight(30)).toBe(1);
    expect(dayWeight(85)).toBeCloseTo(0.5, 12);
    expect(dayWeight(95)).toBe(0);
    expect(irBrightness(310)).toBe(0);
    expect(irBrightness(200)).toBe(1);
    expect(irBrightness(255)).toBeCloseTo(0.5, 12);
    expect(visibleBrightness(0.25, 60)).toBeCloseTo(0.5, 12);
    expect(composite(255, 0.25, 60)).toBeCloseTo(0.5, 12);
    expect(composite(255, 0.9, 100)).toBeCloseTo(0.5, 12);
    const vis = visibleBrightness(0.5, 85);
    expect(composite(310, 0.5, 85)).toBeCloseTo(0.5 * vis, 12);
    expect(composite(Number.NaN, 0.5, 100)).toBeNaN();
    expect(composite(200, Number.NaN, 30)).toBe(1);
  });

  it('interpolates the zenith over a tile within 0.02° of suncalc at every node', () => {
    let worst = 0;
    for (const span of [45, 22.5, 5.625]) {
      for (const [west, north, time] of [[-90, 45, Date.UTC(2025, 5, 1, 18)], [0, 60, Date.UTC(2025, 11, 21, 15)], [-180, 90, Date.UTC(2025, 2, 20, 6)]]) {
        const step = span / 255;
        const grid = zenithGrid(time, west, north, step, 256);
        for (let k = 0; k < 256 * 256; k += 13) {
          const i = k % 256;
          const j = Math.floor(k / 256);
          worst = Math.max(worst, Math.abs(grid[k] - solarZenithDeg(time, west + i * step, north - j * step)));
        }
      }
    }
    expect(worst).toBeLessThan(0.02);
  });
});
