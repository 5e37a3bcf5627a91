/**
 * Which tiles of a base map tile source cover a view: Web Mercator XYZ tiles (x east from 180° W,
 * y south from 85.05° N) at the zoom whose tiles show about at their own size, within the
 * source's zooms (beyond its max zoom the max zoom's tiles are drawn larger).
 */

import type { FrameTransform } from '../gl/transform.ts';

/** The map's own zoom counts 256 px tiles (common/map.ts worldSize). */
const MAP_TILE_PX = 256;

export interface MapTile {
  z: number;
  /** Column as fetched, 0..2^z - 1. */
  x: number;
  y: number;
  /** Column in the view's unwrapped frame (x plus whole worlds): where it is drawn. */
  column: number;
}

export const mapTileKey = (z: number, x: number, y: number) => `${z}/${x}/${y}`;

/** The tile zoom for a view: tiles of tilePx CSS pixels shown at 1x to 2x their size. */
export function mapTileZoom(viewZoom: number, tilePx: number, minZoom: number, maxZoom: number): number {
  const z = Math.floor(viewZoom + Math.log2(MAP_TILE_PX / tilePx) + 1e-9);
  return Math.max(minZoom, Math.min(maxZoom, z));
}

/** The tiles covering the frame at zoom z, nearest the centre first. */
export function mapTilesFor(t: FrameTransform, z: number): MapTile[] {
  const n = 2 ** z;
  const halfW = t.width / 2 / t.worldPx;
  const halfH = t.height / 2 / t.worldPx;
  const [cx, cy] = t.center;
  const c0 = Math.floor((cx - halfW) * n);
  const c1 = Math.floor((cx + halfW) * n);
  const r0 = Math.max(0, Math.floor((cy - halfH) * n));
  const r1 = Math.min(n - 1, Math.floor((cy + halfH) * n));
  const tiles: MapTile[] = [];
  for (let column = c0; column <= c1; column++) {
    for (let y = r0; y <= r1; y++) tiles.push({ z, x: ((column % n) + n) % n, y, column });
  }
  const distance = (tile: MapTile) => Math.hypot((tile.column + 0.5) / n - cx, (tile.y + 0.5) / n - cy);
  return tiles.sort((a, b) => distance(a) - distance(b));
}
