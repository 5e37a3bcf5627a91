import { describe, expect, it } from 'vitest';
import { isValidTile, nodeSpacing, tileAt, tileBounds, tileColumns, tileRows, wrapLon } from './tiling.ts';

describe('data tile pyramid', () => {
  it.each([
    [0, 2, 1, 180 / 255],
    [1, 4, 2, 90 / 255],
    [3, 16, 8, 22.5 / 255],
  ])('zoom %i has %i x %i tiles with node spacing %f', (z, cols, rows, spacing) => {
    expect(tileColumns(z)).toBe(cols);
    expect(tileRows(z)).toBe(rows);
    expect(nodeSpacing(z)).toBeCloseTo(spacing, 12);
  });

  it('tiles cover the globe edge to edge', () => {
    expect(tileBounds({ z: 0, x: 0, y: 0 })).toEqual({ west: -180, north: 90, east: 0, south: -90 });
    expect(tileBounds({ z: 2, x: 7, y: 3 })).toEqual({ west: 135, north: -45, east: 180, south: -90 });
  });

  it('finds the tile of a point with longitude wrap', () => {
    expect(tileAt(1, 10, 45)).toEqual({ z: 1, x: 2, y: 0 });
    expect(tileAt(1, 370, 45)).toEqual(tileAt(1, 10, 45));
    expect(tileAt(1, -180, -90)).toEqual({ z: 1, x: 0, y: 1 });
    expect(tileAt(1, 179.999, 90)).toEqual({ z: 1, x: 3, y: 0 });
  });

  it('validates addresses', () => {
    expect(isValidTile({ z: 0, x: 1, y: 0 })).toBe(true);
    expect(isValidTile({ z: 0, x: 2, y: 0 })).toBe(false);
    expect(isValidTile({ z: 7, x: 0, y: 0 })).toBe(false);
    expect(isValidTile({ z: 1, x: 0.5, y: 0 })).toBe(false);
  });

  it('wraps longitudes into [-180, 180)', () => {
    expect([wrapLon(180), wrapLon(-180), wrapLon(540), wrapLon(-190)]).toEqual([-180, -180, -180, 170]);
  });
});
