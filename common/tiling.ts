/**
 * The equirectangular data pyramid (DESIGN.md "Data tile"; SPEC §9: data zoom 0–6).
 *
 * At data zoom z the globe is cut into 2^(z+1) columns by 2^z rows of square tiles, each
 * 180 / 2^z degrees on a side, column 0 starting at 180° W and row 0 at 90° N. Every tile holds
 * TILE_NODES x TILE_NODES grid nodes, edge to edge, so neighbours share their edge nodes and the
 * node spacing is span / (TILE_NODES - 1): 0.706° at zoom 0, 0.353° at 1, 0.176° at 2, ...
 */

export const TILE_NODES = 256;
export const MIN_DATA_ZOOM = 0;
export const MAX_DATA_ZOOM = 6;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

export interface TileBounds {
  west: number;
  north: number;
  east: number;
  south: number;
}

export function tileSpan(z: number): number {
  return 180 / 2 ** z;
}

export function tileColumns(z: number): number {
  return 2 ** (z + 1);
}

export function tileRows(z: number): number {
  return 2 ** z;
}

/** Degrees between neighbouring nodes at data zoom z. */
export function nodeSpacing(z: number): number {
  return tileSpan(z) / (TILE_NODES - 1);
}

export function isValidTile({ z, x, y }: TileAddress): boolean {
  return Number.isInteger(z) && Number.isInteger(x) && Number.isInteger(y)
    && z >= MIN_DATA_ZOOM && z <= MAX_DATA_ZOOM
    && x >= 0 && x < tileColumns(z) && y >= 0 && y < tileRows(z);
}

export function tileBounds({ z, x, y }: TileAddress): TileBounds {
  const span = tileSpan(z);
  const west = -180 + x * span;
  const north = 90 - y * span;
  return { west, north, east: west + span, south: north - span };
}

/** Wraps a longitude into [-180, 180). */
export function wrapLon(lon: number): number {
  const w = ((((lon + 180) % 360) + 360) % 360) - 180;
  return w;
}

/** Which tile holds a point (longitude wrapped; latitude clamped). */
export function tileAt(z: number, lon: number, lat: number): TileAddress {
  const span = tileSpan(z);
  const x = Math.min(tileColumns(z) - 1, Math.floor((wrapLon(lon) + 180) / span));
  const y = Math.min(tileRows(z) - 1, Math.max(0, Math.floor((90 - lat) / span)));
  return { z, x, y };
}
