import { describe, expect, it } from 'vitest';
import { frameTransform } from '../gl/transform.ts';
import { mapTileZoom, mapTilesFor } from './mapTiles.ts';

describe('base map tiles of a view', () => {
  it('picks the zoom whose tiles show at 1x to 2x, within the source', () => {
    expect(mapTileZoom(12, 256, 0, 19)).toBe(12);
    expect(mapTileZoom(12.9, 256, 0, 19)).toBe(12);
    // Protomaps vector tiles are drawn at 512 px: one zoom less.
    expect(mapTileZoom(12, 512, 0, 15)).toBe(11);
    expect(mapTileZoom(18, 512, 0, 15)).toBe(15);
    expect(mapTileZoom(2, 256, 3, 15)).toBe(3);
  });

  it('covers the view with the tiles around its centre, Prague at zoom 12', () => {
    const t = frameTransform({ lon: 14.42, lat: 50.08, zoom: 12, width: 1280, height: 720 }, 1);
    const tiles = mapTilesFor(t, 12);
    // 1280 x 720 px of 256 px tiles: 6 or 7 columns, 3 or 4 rows.
    expect(tiles.length).toBeGreaterThanOrEqual(18);
    expect(tiles.length).toBeLessThanOrEqual(28);
    // The tile under the centre (OSM numbering: 14.42° E, 50.08° N at z12 is 2212/1387) comes first.
    expect(tiles[0]).toEqual({ z: 12, x: 2212, y: 1387, column: 2212 });
    for (const tile of tiles) expect(tile.x).toBe(tile.column);
  });

  it('wraps columns across the antimeridian and keeps rows inside the world', () => {
    const t = frameTransform({ lon: 179.9, lat: 84, zoom: 3, width: 1024, height: 512 }, 1);
    const tiles = mapTilesFor(t, 3);
    expect(tiles.some((tile) => tile.column === 8 && tile.x === 0)).toBe(true);
    expect(tiles.every((tile) => tile.x >= 0 && tile.x < 8 && tile.y >= 0 && tile.y < 8)).toBe(true);
    expect(Math.min(...tiles.map((tile) => tile.y))).toBe(0);
  });
});
