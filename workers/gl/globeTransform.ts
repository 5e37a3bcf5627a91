/**
 * The per-frame transform of the globe (common/globe.ts), in device pixels: the drawing buffer,
 * the globe's radius, the centre's trigonometry the shaders take, and each tile's screen rectangle
 * (the bounding box of its visible part, which the colour raster's quad covers; the fragment
 * shader projects each pixel back and keeps those of the tile).
 */

import { capBounds, globeRadius, globeUnproject, visibleCapRadius, type GlobeView } from '../../common/globe.ts';
import type { ParticleView } from '../../engine/engine.ts';
import { sphereSpawnRange } from '../../engine/spawn.ts';
import type { VisibleTile } from '../tiles/tileSet.ts';
import { pixelRatioFor } from './transform.ts';

const DEG = Math.PI / 180;
/** Points per tile edge projected for its rectangle; points around the limb for tiles cut by it. */
const EDGE_SAMPLES = 9;
const LIMB_POINTS = 180;

export interface GlobeFrame {
  view: GlobeView;
  pixelRatio: number;
  /** Drawing buffer, device pixels. */
  width: number;
  height: number;
  /** Radius of the globe, device pixels. */
  radius: number;
  /** The flat map's world width at the same scale (2π radius), device pixels: the particles' speed scale. */
  worldPx: number;
  /** Centre longitude (degrees), sin and cos of the centre latitude. */
  center: [number, number, number];
  /** Radius in clip units per axis. */
  clipRadius: [number, number];
  /** The limb as lon/lat, for the rectangles of tiles it cuts. */
  limb: { lon: number; lat: number }[];
}

export function globeFrame(view: GlobeView, devicePixelRatio: number): GlobeFrame {
  const pixelRatio = pixelRatioFor(devicePixelRatio);
  const width = Math.max(1, Math.round(view.width * pixelRatio));
  const height = Math.max(1, Math.round(view.height * pixelRatio));
  const radius = globeRadius(view.zoom) * pixelRatio;
  const r = globeRadius(view.zoom);
  const limb: { lon: number; lat: number }[] = [];
  for (let i = 0; i < LIMB_POINTS; i++) {
    const a = (2 * Math.PI * i) / LIMB_POINTS;
    // Just inside the limb, so the inverse projection answers.
    const p = globeUnproject(view, view.width / 2 + Math.cos(a) * r * (1 - 1e-9), view.height / 2 + Math.sin(a) * r * (1 - 1e-9));
    if (p) limb.push(p);
  }
  return {
    view,
    pixelRatio,
    width,
    height,
    radius,
    worldPx: 2 * Math.PI * radius,
    center: [view.lon, Math.sin(view.lat * DEG), Math.cos(view.lat * DEG)],
    clipRadius: [(2 * radius) / width, (2 * radius) / height],
    limb,
  };
}

/** Same globe on the same canvas: the trails on the canvas still lie where they were drawn. */
export function sameGlobe(a: GlobeFrame | null, b: GlobeFrame): boolean {
  return !!a && a.width === b.width && a.height === b.height && a.view.lon === b.view.lon && a.view.lat === b.view.lat && a.view.zoom === b.view.zoom;
}

/** Device-pixel position of a point, y downwards, and whether it is on the visible side. */
function project(f: GlobeFrame, lon: number, lat: number): { x: number; y: number; z: number } {
  const dl = (lon - f.center[0]) * DEG;
  const phi = lat * DEG;
  const cp = Math.cos(phi);
  const [, s0, c0] = f.center;
  return {
    x: f.width / 2 + f.radius * cp * Math.sin(dl),
    y: f.height / 2 - f.radius * (c0 * Math.sin(phi) - s0 * cp * Math.cos(dl)),
    z: s0 * Math.sin(phi) + c0 * cp * Math.cos(dl),
  };
}

function inTile(tile: VisibleTile, lon: number, lat: number): boolean {
  if (lat > tile.north || lat < tile.south) return false;
  let d = lon - tile.west;
  d -= 360 * Math.floor(d / 360);
  return d <= tile.span;
}

/**
 * A tile's clip-space rectangle on the globe, [x0, y0 (top), x1, y1 (bottom)], or null when none
 * of it is on the visible side: the box of its projected sample points and of the limb's points
 * within it, grown by the most an arc between two samples bulges beyond their chord.
 */
export function globeTileRect(f: GlobeFrame, tile: VisibleTile): [number, number, number, number] | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let hidden = false;
  const add = (x: number, y: number) => {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  };
  const n = EDGE_SAMPLES - 1;
  const latSpan = tile.north - tile.south;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const p = project(f, tile.west + (tile.span * i) / n, tile.south + (latSpan * j) / n);
      if (p.z >= 0) add(p.x, p.y);
      else hidden = true;
    }
  }
  if (hidden) {
    for (const p of f.limb) {
      if (!inTile(tile, p.lon, p.lat)) continue;
      const q = project(f, p.lon, p.lat);
      add(q.x, q.y);
    }
  }
  if (x0 > x1) return null;
  const spacing = (Math.max(tile.span, latSpan) / n) * DEG;
  const pad = f.radius * (1 - Math.cos(spacing / 2)) + 2;
  const cx = f.width / 2;
  const cy = f.height / 2;
  // Never beyond the disc.
  x0 = Math.max(x0 - pad, cx - f.radius - 2);
  x1 = Math.min(x1 + pad, cx + f.radius + 2);
  y0 = Math.max(y0 - pad, cy - f.radius - 2);
  y1 = Math.min(y1 + pad, cy + f.radius + 2);
  return [(x0 - cx) / cx, -(y0 - cy) / cy, (x1 - cx) / cx, -(y1 - cy) / cy];
}

/**
 * The particles' view on the globe: the box of the visible cap (capBounds), every longitude when a
 * pole shows, with the spawn range of the sphere table (engine/spawn.ts sphereSpawnRange), so
 * particles spawn evenly over the visible part of the sphere and respawn when they leave it.
 */
export function globeParticleView(view: GlobeView): ParticleView {
  const b = capBounds(view.lon, view.lat, visibleCapRadius(view));
  return { centerLon: view.lon, centerLat: view.lat, west: b.west, east: b.east, north: b.north, south: b.south, ...sphereSpawnRange(b.north, b.south) };
}
