/**
 * Lightning flashes of the last hour (issue 15 §3) as marks that fade by age: a flash file
 * (common/obs/flashes.ts) becomes a point set (layers/points) whose colour goes from white-yellow
 * (just now) through orange to dark red (an hour old) and whose opacity and size shrink with age.
 * Age counts back from the file's newest flash, so the hour the file covers always spans the whole
 * ramp; how old the newest flash is the UI says beside the layer's name.
 */

import { FLASH_WINDOW_MS, type Flashes } from '../../../common/obs/flashes.ts';
import type { PointSet } from '../points/points.ts';

/** Colour stops by age (share of the hour), straight RGB 0-255. */
const RAMP: [number, [number, number, number]][] = [
  [0, [255, 255, 190]],
  [1 / 12, [255, 230, 60]],
  [1 / 3, [255, 140, 0]],
  [1, [170, 20, 20]],
];
/** Mark size (CSS px) of a new flash and of an hour-old one. */
const SIZE_NEW_PX = 11;
const SIZE_OLD_PX = 6;
/** Opacity of a new flash and of an hour-old one. */
const ALPHA_NEW = 1;
const ALPHA_OLD = 0.35;

/** Colour (r, g, b, alpha 0-255) of a flash `share` of the hour old (0..1, clamped). */
export function flashColor(share: number): [number, number, number, number] {
  const s = Math.max(0, Math.min(1, share));
  let i = 1;
  while (i < RAMP.length - 1 && RAMP[i][0] < s) i++;
  const [s0, c0] = RAMP[i - 1];
  const [s1, c1] = RAMP[i];
  const k = (s - s0) / (s1 - s0);
  const alpha = ALPHA_NEW + (ALPHA_OLD - ALPHA_NEW) * s;
  return [Math.round(c0[0] + (c1[0] - c0[0]) * k), Math.round(c0[1] + (c1[1] - c0[1]) * k), Math.round(c0[2] + (c1[2] - c0[2]) * k), Math.round(255 * alpha)];
}

/** The marks of a flash file, oldest first (so the newest are drawn on top). */
export function flashMarks(flashes: Flashes): PointSet {
  const n = flashes.lon.length;
  const color = new Uint8Array(4 * n);
  const size = new Float32Array(n);
  const windowS = FLASH_WINDOW_MS / 1000;
  for (let i = 0; i < n; i++) {
    const share = flashes.ageSeconds[i] / windowS;
    color.set(flashColor(share), 4 * i);
    size[i] = SIZE_NEW_PX + (SIZE_OLD_PX - SIZE_NEW_PX) * Math.max(0, Math.min(1, share));
  }
  return { lon: flashes.lon, lat: flashes.lat, color, size };
}
