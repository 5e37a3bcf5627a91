/**
 * Webcams (SPEC §3 pois "cams") as marks (layers/points): a sky-blue disc with a white edge look
 * (two sizes drawn as one) per webcam, the user's own ones green, so they stand apart from the
 * directory's.
 */

import type { PointSet } from '../points/points.ts';

/** Disc size, CSS px. */
export const WEBCAM_SIZE_PX = 10;
const DIRECTORY_COLOR: [number, number, number, number] = [64, 170, 255, 240];
const OWN_COLOR: [number, number, number, number] = [60, 200, 120, 240];

/** Marks of webcams: lon, lat degrees per webcam, own 1 for the user's own webcams, else 0. */
export function webcamMarks(lon: Float32Array, lat: Float32Array, own: Uint8Array): PointSet {
  const n = lon.length;
  const color = new Uint8Array(4 * n);
  const size = new Float32Array(n).fill(WEBCAM_SIZE_PX);
  for (let i = 0; i < n; i++) color.set(own[i] ? OWN_COLOR : DIRECTORY_COLOR, 4 * i);
  return { lon, lat, color, size };
}
