/**
 * Which data tiles the globe needs: those of the visible cap (common/globe.ts visibleCapRadius) at
 * the data zoom, nearest the centre first, in the same TilePlan as the flat map's (tilePlan.ts), so
 * loading, keeping, the raster's stand-ins and the particle field work alike. The range is the
 * cap's longitude/latitude box (capBounds), whole columns of the world when a pole is in view;
 * within it only tiles that reach into the cap are kept (the box's corners lie outside the disc).
 */

import { bracketSteps, type Calendar } from '../../common/minifest.ts';
import { angularDistance, capBounds, visibleCapRadius, type GlobeView } from '../../common/globe.ts';
import { tileColumns, tileRows, tileSpan } from '../../common/tiling.ts';
import type { TilePlan } from './tilePlan.ts';
import { byDistanceFrom, visibleTiles, type TileRange, type VisibleTile } from './tileSet.ts';

/** Points per tile edge tested against the cap. */
const EDGE_SAMPLES = 9;

/** The tile range of the visible cap at data zoom z. */
export function globeTileRange(view: GlobeView, z: number): TileRange {
  const b = capBounds(view.lon, view.lat, visibleCapRadius(view));
  const span = tileSpan(z);
  const cols = tileColumns(z);
  const r0 = Math.max(0, Math.floor((90 - b.north) / span));
  const r1 = Math.min(tileRows(z) - 1, Math.floor((90 - b.south) / span));
  if (b.fullLon) return { z, c0: 0, c1: cols - 1, r0, r1, global: true };
  const c0 = Math.floor((b.west + 180) / span);
  const c1 = Math.floor((b.east + 180) / span);
  return { z, c0, c1, r0, r1, global: c1 - c0 + 1 >= cols };
}

/**
 * Whether any of a tile reaches into the cap: the nearest of its edge and inner sample points, with
 * half a sample spacing to spare (a tile between two samples is kept, never dropped).
 */
export function tileInCap(tile: VisibleTile, lon: number, lat: number, radius: number): boolean {
  const step = tile.span / (EDGE_SAMPLES - 1);
  const latStep = (tile.north - tile.south) / (EDGE_SAMPLES - 1);
  const slack = Math.hypot(step, latStep) / 2;
  // The point of the tile nearest the centre in longitude and latitude separately: inside the tile when the centre is.
  let dl = lon - (tile.west + tile.span / 2);
  dl -= 360 * Math.floor((dl + 180) / 360);
  const nearLon = tile.west + tile.span / 2 + Math.max(-tile.span / 2, Math.min(tile.span / 2, dl));
  const nearLat = Math.max(tile.south, Math.min(tile.north, lat));
  if (angularDistance(lon, lat, nearLon, nearLat) <= radius + slack) return true;
  for (let i = 0; i < EDGE_SAMPLES; i++) {
    for (let j = 0; j < EDGE_SAMPLES; j++) {
      if (angularDistance(lon, lat, tile.west + i * step, tile.south + j * latStep) <= radius + slack) return true;
    }
  }
  return false;
}

export function globePlanFor(view: GlobeView, z: number, calendar: Calendar, time: number): TilePlan {
  const range = globeTileRange(view, z);
  const radius = visibleCapRadius(view);
  const visible = byDistanceFrom(visibleTiles(range).filter((t) => tileInCap(t, view.lon, view.lat, radius)), view.lon, view.lat);
  const { before, after, t } = bracketSteps(calendar, time);
  return { z, range, visible, before, after, t };
}
