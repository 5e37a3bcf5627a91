import { describe, expect, it } from 'vitest';
import { latFromMercY, mercY } from '../common/map.ts';
import { SPAWN_SEGMENTS, spawnLatitude, spawnLatitudeTable, sphereSpawnRange, sphereSpawnTable } from './spawn.ts';

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

describe('sphere spawn table (the globe)', () => {
  const table = sphereSpawnTable();
  const asinLat = (u: number) => (Math.asin(1 - 2 * u) * 180) / Math.PI;

  it('follows asin(1 - 2u) closely away from the poles and within 1.5 degrees next to them', () => {
    let inner = 0;
    let ends = 0;
    for (let k = 0; k <= 200_000; k++) {
      const u = k / 200_000;
      const e = Math.abs(spawnLatitude(table, u) - asinLat(u));
      if (u < 1 / SPAWN_SEGMENTS || u > 1 - 1 / SPAWN_SEGMENTS) ends = Math.max(ends, e);
      else if (u >= 2 / SPAWN_SEGMENTS && u <= 1 - 2 / SPAWN_SEGMENTS) inner = Math.max(inner, e);
    }
    expect(inner).toBeLessThan(1e-3);
    expect(ends).toBeLessThan(1.5);
    expect(spawnLatitude(table, 0)).toBeCloseTo(90, 9);
    expect(spawnLatitude(table, 0.5)).toBeCloseTo(0, 9);
    expect(spawnLatitude(table, 1)).toBeCloseTo(-90, 9);
  });

  it('spreads particles evenly over the area of a band: as many north of 60° as in an equal-area band at the equator', () => {
    const { yTop, yBottom } = sphereSpawnRange(90, -90);
    const n = 100_000;
    let polar = 0;
    let equatorial = 0;
    // Equal areas: 60°N..90°N and 0..asin(1 - sin 60°) N.
    const band = (Math.asin(1 - Math.sin(Math.PI / 3)) * 180) / Math.PI;
    for (let k = 0; k < n; k++) {
      const lat = spawnLatitude(table, yTop + ((k + 0.5) / n) * (yBottom - yTop));
      if (lat >= 60) polar++;
      else if (lat >= 0 && lat < band) equatorial++;
    }
    expect(Math.abs(polar - equatorial) / equatorial).toBeLessThan(0.01);
  });

  it('maps a band to the spawn range of its edges', () => {
    const { yTop, yBottom } = sphereSpawnRange(50, -20);
    expect(spawnLatitude(table, yTop)).toBeCloseTo(50, 3);
    expect(spawnLatitude(table, yBottom)).toBeCloseTo(-20, 3);
  });
});
