/**
 * Tide stations (SPEC §3 pois "tide") as marks (layers/points): a sea-blue disc each, one size, so
 * a coast's stations read as a row of gauges; the picker names the nearest and opens its tides.
 */

import type { PointSet } from '../points/points.ts';

/** Disc size, CSS px. */
export const TIDE_MARK_PX = 8;
const COLOR: [number, number, number, number] = [40, 150, 255, 235];

export function tideMarks(lon: Float32Array, lat: Float32Array): PointSet {
  const n = lon.length;
  const color = new Uint8Array(4 * n);
  for (let i = 0; i < n; i++) color.set(COLOR, 4 * i);
  return { lon, lat, color, size: new Float32Array(n).fill(TIDE_MARK_PX) };
}
