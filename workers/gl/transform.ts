/**
 * The per-frame view transform, computed once on the CPU in double precision and handed to every
 * layer's draw command: canvas size in device pixels, world size, the centre in normalised
 * Mercator and which copies of the world the view touches (horizontal wrap).
 */

import { MAX_PIXEL_RATIO, clampLat, mercX, mercY, viewBounds, worldSize, type View } from '../../common/map.ts';

export interface FrameTransform {
  view: View;
  pixelRatio: number;
  /** Drawing buffer size in device pixels. */
  width: number;
  height: number;
  /** World width in device pixels. */
  worldPx: number;
  /** View centre, normalised Mercator (x unwrapped, like view.lon). */
  center: [number, number];
  /** Normalised Mercator -> clip space scale per axis. */
  scale: [number, number];
  /** World copies (integer x offsets) the view overlaps. */
  copies: number[];
  bounds: ReturnType<typeof viewBounds>;
}

export function pixelRatioFor(devicePixelRatio: number): number {
  return Math.min(MAX_PIXEL_RATIO, Math.max(1, devicePixelRatio || 1));
}

export function frameTransform(view: View, devicePixelRatio: number): FrameTransform {
  const pixelRatio = pixelRatioFor(devicePixelRatio);
  const width = Math.max(1, Math.round(view.width * pixelRatio));
  const height = Math.max(1, Math.round(view.height * pixelRatio));
  const worldPx = worldSize(view.zoom) * pixelRatio;
  // Not wrapped: tile columns are counted from the same unwrapped longitude (tiles/tileSet.ts).
  const cx = mercX(view.lon);
  const cy = mercY(clampLat(view.lat));
  const half = width / 2 / worldPx;
  const copies: number[] = [];
  for (let k = Math.floor(cx - half); k <= Math.floor(cx + half); k++) copies.push(k);
  return {
    view,
    pixelRatio,
    width,
    height,
    worldPx,
    center: [cx, cy],
    scale: [(2 * worldPx) / width, (2 * worldPx) / height],
    copies,
    bounds: viewBounds(view),
  };
}

/** Same zoom and size: the view only moved, so screen content can be shifted instead of redrawn. */
export function isPanOnly(a: FrameTransform, b: FrameTransform): boolean {
  return a.worldPx === b.worldPx && a.width === b.width && a.height === b.height;
}

/** Device-pixel shift of screen content from frame a to frame b (content moves opposite to the centre). */
export function panShift(a: FrameTransform, b: FrameTransform): [number, number] {
  let dx = b.center[0] - a.center[0];
  dx -= Math.round(dx);
  return [-dx * b.worldPx, -(b.center[1] - a.center[1]) * b.worldPx];
}
