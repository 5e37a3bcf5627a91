import { describe, expect, it } from 'vitest';
import { viewBounds } from '../../common/map.ts';
import { tileBounds, tileColumns } from '../../common/tiling.ts';
import { byDistanceFrom, fieldColumnOf, fieldColumns, tileRangeFor, visibleTiles, type VisibleTile } from './tileSet.ts';

/** Unwrapped columns of the first row's tiles holding a longitude (of the unwrapped frame). */
function columnsAt(tiles: VisibleTile[], lon: number): number[] {
  const row = Math.min(...tiles.map((t) => t.y));
  return tiles.filter((t) => t.y === row && t.west <= lon && lon < t.west + t.span).map((t) => t.column);
}

describe('visible tiles', () => {
  it('keeps every copy of the world under a view wider than the world, and marks it global', () => {
    // 2200 px at zoom 3 (a 2048 px world): 386.7° from 193.4° W to 193.4° E.
    const range = tileRangeFor({ lon: 0, lat: 0, zoom: 3, width: 2200, height: 1200 }, 0);
    expect(range).toMatchObject({ c0: -1, c1: 2, r0: 0, r1: 0, global: true });
    const tiles = visibleTiles(range);
    expect(tiles.map((t) => [t.column, t.x, t.west])).toEqual([[-1, 1, -360], [0, 0, -180], [1, 1, 0], [2, 0, 180]]);
    const { west, east } = viewBounds({ lon: 0, lat: 0, zoom: 3, width: 2200, height: 1200 });
    for (const lon of [west, -185, -180, 0, 180, 185, east]) expect(columnsAt(tiles, lon)).toHaveLength(1);
  });

  // SPEC §9: the world repeats, so the weather is drawn on each copy the view shows.
  for (const [name, lon] of [['westwards', -90], ['eastwards', 90], ['at the antimeridian', 180]] as const) {
    it(`covers a view across the antimeridian ${name} with the same data tiles in each copy`, () => {
      const view = { lon, lat: 0, zoom: 3, width: 1280, height: 720 };
      const { west, east } = viewBounds(view);
      for (const z of [0, 1, 2, 3]) {
        const range = tileRangeFor(view, z);
        const tiles = visibleTiles(range);
        const cols = tileColumns(z);
        for (const t of tiles) {
          expect(((t.column % cols) + cols) % cols).toBe(t.x);
          expect(t.west).toBeCloseTo(tileBounds(t).west + 360 * Math.floor(t.column / cols), 9);
        }
        // Every longitude of the screen, on either side of ±180°, lies in a visible tile.
        for (let i = 0; i <= 64; i++) {
          const at = west + ((east - west) * i) / 64;
          expect(columnsAt(tiles, at), `z ${z}, lon ${at}`).toHaveLength(1);
        }
        expect(tiles.some((t) => t.west < -180 || t.west + t.span > 180)).toBe(true);
      }
    });
  }

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

  it('places each data tile once in a global particle field, and in its own column otherwise', () => {
    const global = tileRangeFor({ lon: -90, lat: 0, zoom: 3, width: 1280, height: 720 }, 1);
    expect(global.global).toBe(true);
    expect(fieldColumns(global)).toEqual({ first: 0, count: 4 });
    for (const t of visibleTiles(global)) expect(fieldColumnOf(t, global)).toBe(t.x);

    const regional = tileRangeFor({ lon: 178, lat: 10, zoom: 5, width: 1280, height: 720 }, 2);
    expect(regional.global).toBe(false);
    const { first, count } = fieldColumns(regional);
    expect(first).toBe(regional.c0);
    expect(count).toBe(regional.c1 - regional.c0 + 1);
    const placed = visibleTiles(regional).filter((t) => t.y === regional.r0).map((t) => fieldColumnOf(t, regional));
    expect(placed).toEqual(Array.from({ length: count }, (_, i) => i));
  });
});
