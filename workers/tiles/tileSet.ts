/**
 * Which data tiles a view needs. Columns are counted unwrapped (a view across the antimeridian
 * runs past the last column), so each visible tile also knows which copy of the world it is
 * drawn in. The world repeats (SPEC §9: map bounds lon ±720): a column of another copy is the
 * same data tile (x = column mod columns), fetched once and drawn in every copy.
 */

import { viewBounds, type View } from '../../common/map.ts';
import { tileBounds, tileColumns, tileRows, tileSpan, type TileAddress } from '../../common/tiling.ts';

export interface VisibleTile extends TileAddress {
  /** Unwrapped column: x + copy * columns. */
  column: number;
  /** Longitude of the tile's west edge in the unwrapped frame. */
  west: number;
  north: number;
  south: number;
  span: number;
}

export interface TileRange {
  z: number;
  /** Unwrapped first and last column (may span several copies of the world), first and last row. */
  c0: number;
  c1: number;
  r0: number;
  r1: number;
  /** The range covers every column at least once: the particle field wraps around the globe. */
  global: boolean;
}

/** Tiles under the view at data zoom z, plus a margin of `margin` tiles (fractional allowed). */
export function tileRangeFor(view: View, z: number, margin = 0): TileRange {
  const b = viewBounds(view);
  const span = tileSpan(z);
  const cols = tileColumns(z);
  const c0 = Math.floor((b.west + 180) / span - margin);
  const c1 = Math.floor((b.east + 180) / span + margin);
  const r0 = Math.max(0, Math.floor((90 - b.north) / span - margin));
  const r1 = Math.min(tileRows(z) - 1, Math.floor((90 - b.south) / span + margin));
  // Every copy under the view keeps its columns, even when the view is wider than the world.
  return { z, c0, c1, r0, r1, global: c1 - c0 + 1 >= cols };
}

/**
 * The particle field's columns of tiles: one world from 180° W when the range is global (the
 * field wraps, so each data tile has one place), else the range's own unwrapped columns.
 */
export function fieldColumns(range: TileRange): { first: number; count: number } {
  if (range.global) return { first: 0, count: tileColumns(range.z) };
  return { first: range.c0, count: range.c1 - range.c0 + 1 };
}

/** Which column of tiles of the particle field (fieldColumns) a visible tile fills. */
export function fieldColumnOf(tile: VisibleTile, range: TileRange): number {
  return (range.global ? tile.x : tile.column) - fieldColumns(range).first;
}

export function visibleTiles(range: TileRange): VisibleTile[] {
  const { z, c0, c1, r0, r1 } = range;
  const cols = tileColumns(z);
  const span = tileSpan(z);
  const out: VisibleTile[] = [];
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const x = ((c % cols) + cols) % cols;
      const { north, south } = tileBounds({ z, x, y: r });
      out.push({ z, x, y: r, column: c, west: -180 + c * span, north, south, span });
    }
  }
  return out;
}

/** Nearest tiles to the view centre first, so the middle of the screen fills in first. */
export function byDistanceFrom(tiles: VisibleTile[], lon: number, lat: number): VisibleTile[] {
  const d = (t: VisibleTile) => {
    const cx = t.west + t.span / 2;
    const cy = (t.north + t.south) / 2;
    let dx = Math.abs(cx - lon) % 360;
    if (dx > 180) dx = 360 - dx;
    return dx * dx + (cy - lat) * (cy - lat);
  };
  return [...tiles].sort((a, b) => d(a) - d(b));
}
