/**
 * City labels on the globe (SPEC §2 window "globe"): the label tiles (Web Mercator XYZ, as the
 * flat map's, common/labels.ts) under the visible cap, and where a label stands: projected by the
 * globe's own projection (common/globe.ts), only on the visible hemisphere and not squeezed
 * against the limb.
 */

import { capBounds, globeProject, visibleCapRadius, type GlobeView } from '../../common/globe.ts';
import type { TileXY } from '../../common/labels.ts';
import { clampLat, mercX, mercY } from '../../common/map.ts';

/** Labels nearer the limb than this (cos of the angle from the centre) are left out: they would crowd there. */
export const LABEL_MIN_FACING = 0.2;

/** The label tiles of zoom z under the globe's visible cap, nearest the centre first, each once. */
export function globeLabelTiles(view: GlobeView, z: number): TileXY[] {
  const n = 2 ** z;
  const b = capBounds(view.lon, view.lat, visibleCapRadius(view));
  const x0 = Math.floor(mercX(b.west) * n);
  const x1 = Math.min(Math.floor(mercX(b.east) * n), x0 + n - 1);
  const y0 = Math.max(0, Math.floor(mercY(clampLat(b.north)) * n));
  const y1 = Math.min(n - 1, Math.floor(mercY(clampLat(b.south)) * n));
  const cx = mercX(view.lon) * n;
  const cy = mercY(view.lat) * n;
  const out: (TileXY & { d: number })[] = [];
  for (let ty = y0; ty <= y1; ty++) {
    for (let tx = x0; tx <= x1; tx++) {
      let dx = Math.abs(tx + 0.5 - cx) % n;
      if (dx > n / 2) dx = n - dx;
      out.push({ x: ((tx % n) + n) % n, y: ty, d: dx * dx + (ty + 0.5 - cy) ** 2 });
    }
  }
  return out.sort((a, b) => a.d - b.d).map(({ x, y }) => ({ x, y }));
}

/** Where a label stands on the globe (CSS px), or null on the far side or against the limb. */
export function globeLabelAt(view: GlobeView, lon: number, lat: number): { x: number; y: number } | null {
  const p = globeProject(view, lon, lat);
  return p.z < LABEL_MIN_FACING ? null : { x: p.x, y: p.y };
}
