/**
 * Fire detections (SPEC §3 pois "firespots") as marks (layers/points): an orange-red disc each,
 * larger for a higher fire radiative power, so the strong fires stand out among many small ones.
 */

import type { PointSet } from '../points/points.ts';

/** Disc size (CSS px) of a detection without FRP and added per decade of FRP (MW). */
const SIZE_BASE_PX = 7;
const SIZE_PER_DECADE_PX = 2.5;
const SIZE_MAX_PX = 16;
const COLOR: [number, number, number, number] = [255, 72, 0, 235];

/** Disc size of a detection of `frpMw` (NaN: none given). */
export function fireSize(frpMw: number): number {
  if (!(frpMw > 0)) return SIZE_BASE_PX;
  return Math.min(SIZE_MAX_PX, SIZE_BASE_PX + SIZE_PER_DECADE_PX * Math.log10(1 + frpMw));
}

export function fireMarks(lon: Float32Array, lat: Float32Array, frpMw: Float32Array): PointSet {
  const n = lon.length;
  const color = new Uint8Array(4 * n);
  const size = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    color.set(COLOR, 4 * i);
    size[i] = fireSize(frpMw[i]);
  }
  return { lon, lat, color, size };
}
