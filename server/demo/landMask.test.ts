import { describe, expect, it } from 'vitest';
import { getLandMask, LandChannel, LandMask, rasterizePolygons } from './landMask.ts';

describe('rasterizePolygons', () => {
  it('fills a square and leaves its hole empty (even-odd)', () => {
    const outer = [[-90, 45], [90, 45], [90, -45], [-90, -45], [-90, 45]];
    const hole = [[-45, 20], [45, 20], [45, -20], [-45, -20], [-45, 20]];
    const raster = rasterizePolygons([[outer, hole]], 36, 18); // 10° cells
    const at = (lon: number, lat: number) => raster[Math.floor((90 - lat) / 10) * 36 + Math.floor((lon + 180) / 10)];
    expect(at(-60, 30)).toBe(1);
    expect(at(60, -30)).toBe(1);
    expect(at(0, 0)).toBe(0); // hole
    expect(at(120, 0)).toBe(0); // outside
    expect(at(0, 60)).toBe(0);
  });

  it('draws a ring that crosses the antimeridian on both edges of the map', () => {
    const ring = [[170, 10], [-170, 10], [-170, -10], [170, -10], [170, 10]];
    const raster = rasterizePolygons([[ring]], 36, 18);
    const row = Math.floor(90 / 10);
    expect(raster[row * 36 + 35]).toBe(1); // 175° E
    expect(raster[row * 36 + 0]).toBe(1); // 175° W
    expect(raster[row * 36 + 18]).toBe(0); // 5° E
  });

  it('closes a ring that winds around the south pole through the pole', () => {
    const ring = [[-180, -70], [-90, -72], [0, -70], [90, -72], [180, -70]];
    const raster = rasterizePolygons([[ring]], 36, 18);
    expect(raster[17 * 36 + 5]).toBe(1); // 85° S
    expect(raster[8 * 36 + 5]).toBe(0); // 5° N
  });
});

describe('Natural Earth land mask', () => {
  const land = getLandMask();
  const fine = (lat: number, lon: number) => land.sample(lat, lon, LandChannel.Fine);

  it.each([
    ['interior Sahara', 23, 12],
    ['Siberia', 62, 110],
    ['Amazon', -5, -62],
    ['Antarctic plateau', -85, 40],
    ['central Australia', -25, 134],
  ])('finds land in %s', (_name, lat, lon) => {
    expect(fine(lat, lon)).toBeGreaterThan(0.95);
  });

  it.each([
    ['mid Atlantic', 30, -40],
    ['central Pacific', 0, -150],
    ['Southern Ocean', -55, 90],
    ['North Pole', 89.9, 10],
  ])('finds sea in the %s', (_name, lat, lon) => {
    expect(fine(lat, lon)).toBeLessThan(0.05);
  });

  it('keeps fractions in [0, 1] and wraps around the antimeridian', () => {
    for (let lat = -89; lat <= 89; lat += 7) {
      for (let lon = -180; lon < 180; lon += 11) {
        const value = fine(lat, lon);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
    expect(fine(65, 180)).toBeCloseTo(fine(65, -180), 6);
    expect(fine(65, 539)).toBeCloseTo(fine(65, 179), 6);
  });

  it('is smooth: neighbouring 0.1° samples differ little', () => {
    let largest = 0;
    for (let lon = 0; lon < 30; lon += 0.1) largest = Math.max(largest, Math.abs(fine(51, lon + 0.1) - fine(51, lon)));
    expect(largest).toBeLessThan(0.1);
  });

  it('rejects a grid of the wrong size', () => {
    expect(() => new LandMask(new Float32Array(10))).toThrow(/wrong size/);
  });
});
