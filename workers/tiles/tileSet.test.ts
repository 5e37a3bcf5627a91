import { describe, expect, it } from 'vitest';
import { byDistanceFrom, tileRangeFor, visibleTiles } from './tileSet.ts';

describe('visible tiles', () => {
  it('covers the whole world at low zoom on a wide screen and marks it global', () => {
    const range = tileRangeFor({ lon: 0, lat: 0, zoom: 3, width: 2200, height: 1200 }, 0);
    expect(range).toMatchObject({ c0: 0, c1: 1, r0: 0, r1: 0, global: true });
  });

  it('counts columns unwrapped across the antimeridian', () => {
    const range = tileRangeFor({ lon: 178, lat: 10, zoom: 5, width: 1280, height: 720 }, 2);
    expect(range.global).toBe(false);
    expect(range.c1).toBeGreaterThanOrEqual(8);
    const tiles = visibleTiles(range);
    const east = tiles.filter((t) => t.column >= 8);
    expect(east.length).toBeGreaterThan(0);
    for (const t of east) {
      expect(t.x).toBe(t.column - 8);
      expect(t.west).toBeGreaterThanOrEqual(180);
    }
  });

  it('orders tiles from the centre outwards', () => {
    const tiles = visibleTiles(tileRangeFor({ lon: 10, lat: 50, zoom: 6, width: 1280, height: 720 }, 3));
    const sorted = byDistanceFrom(tiles, 10, 50);
    expect(sorted[0].west).toBeLessThanOrEqual(10);
    expect(sorted[0].west + sorted[0].span).toBeGreaterThanOrEqual(10);
    expect(sorted[0].north).toBeGreaterThanOrEqual(50);
    expect(sorted[0].south).toBeLessThanOrEqual(50);
  });
});
