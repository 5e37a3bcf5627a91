import { describe, expect, it } from 'vitest';
import { latFromMercY, mercY } from '../common/map.ts';
import { SPAWN_SEGMENTS, spawnLatitude, spawnLatitudeTable } from './spawn.ts';

describe('spawn latitude table', () => {
  const table = spawnLatitudeTable();

  it('stays within 6e-9 degrees of the inverse Mercator over the whole world', () => {
    let worst = 0;
    for (let k = 0; k <= 1_000_000; k++) {
      const y = k / 1_000_000;
      worst = Math.max(worst, Math.abs(spawnLatitude(table, y) - latFromMercY(y)));
    }
    expect(worst).toBeLessThan(6e-9);
  });

  it('passes through the segment ends and the edges of the Mercator world', () => {
    for (let i = 0; i <= SPAWN_SEGMENTS; i++) {
      const y = i / SPAWN_SEGMENTS;
      expect(Math.abs(spawnLatitude(table, y) - latFromMercY(y))).toBeLessThan(1e-12);
    }
    expect(spawnLatitude(table, 0)).toBeCloseTo(85.0511287798, 9);
    expect(spawnLatitude(table, 0.5)).toBe(0);
    expect(spawnLatitude(table, 1)).toBeCloseTo(-85.0511287798, 9);
  });

  it('is the inverse of mercY, decreasing in y', () => {
    for (const lat of [-80, -45.5, -1e-3, 0.25, 33, 60, 84.9]) {
      expect(spawnLatitude(table, mercY(lat))).toBeCloseTo(lat, 8);
    }
    let previous = Infinity;
    for (let k = 0; k <= 10_000; k++) {
      const lat = spawnLatitude(table, k / 10_000);
      expect(lat).toBeLessThan(previous);
      previous = lat;
    }
  });

  it('extends the end segments outside [0, 1] and gives NaN for NaN', () => {
    expect(Number.isFinite(spawnLatitude(table, -0.01))).toBe(true);
    expect(spawnLatitude(table, -0.01)).toBeGreaterThan(spawnLatitude(table, 0));
    expect(spawnLatitude(table, 1.01)).toBeLessThan(spawnLatitude(table, 1));
    expect(spawnLatitude(table, NaN)).toBeNaN();
  });

  it('is built once and shared', () => {
    expect(spawnLatitudeTable()).toBe(table);
    expect(table.length).toBe(SPAWN_SEGMENTS * 4);
  });
});
