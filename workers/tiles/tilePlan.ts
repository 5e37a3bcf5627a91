/**
 * Which data tiles a frame needs: the data zoom for the view (SPEC §9), the tiles under it nearest
 * the centre first, the two forecast steps around the shown time and the blend between them, and
 * from those the tile requests to load and the keys to keep in the cache (the parents of the
 * visible tiles too: they stand in while their children load).
 */

import { bracketSteps, type Calendar } from '../../common/minifest.ts';
import { tileAt, type TileAddress } from '../../common/tiling.ts';
import type { View } from '../../common/map.ts';
import type { TileState } from '../api.ts';
import { byDistanceFrom, tileRangeFor, visibleTiles, type TileRange, type VisibleTile } from './tileSet.ts';

export interface TilePlan {
  /** Data zoom. */
  z: number;
  range: TileRange;
  /** Nearest the view centre first. */
  visible: VisibleTile[];
  /** The forecast steps (valid times, ms) around the shown time, and the blend from before to after. */
  before: number;
  after: number;
  t: number;
}

export function planFor(view: View, z: number, calendar: Calendar, time: number): TilePlan {
  const range = tileRangeFor(view, z);
  const visible = byDistanceFrom(visibleTiles(range), view.lon, view.lat);
  const { before, after, t } = bracketSteps(calendar, time);
  return { z, range, visible, before, after, t };
}

export function sameRange(a: TileRange | undefined, b: TileRange): boolean {
  return !!a && a.z === b.z && a.c0 === b.c0 && a.c1 === b.c1 && a.r0 === b.r0 && a.r1 === b.r1;
}

/** The steps a plan draws: one when the shown time is a forecast step, else both around it. */
export function planSteps(plan: TilePlan): number[] {
  return plan.t > 0 ? [plan.before, plan.after] : [plan.before];
}

/** Each data tile of the view once (a view wider than the world shows a tile in several copies). */
export function uniqueTiles(plan: TilePlan): TileAddress[] {
  const unique = new Map<string, TileAddress>();
  for (const { z, x, y } of plan.visible) unique.set(`${z}/${x}/${y}`, { z, x, y });
  return [...unique.values()];
}

/**
 * What a plan loads and keeps: every file at every step of every visible tile (`load`, nearest the
 * centre first), and besides those the parents of the visible tiles down to zoom 0 in the colour
 * file (`keep` holds both), which stand in while the children load.
 */
export function planTiles<K>(plan: TilePlan, files: readonly string[], colorFile: string, key: (file: string, step: number, address: TileAddress) => K): { load: K[]; keep: K[] } {
  const steps = planSteps(plan);
  const tiles = uniqueTiles(plan);
  const load: K[] = [];
  for (const step of steps) for (const file of files) for (const address of tiles) load.push(key(file, step, address));
  const keep = [...load];
  for (let pz = plan.z - 1; pz >= 0; pz--) {
    for (const { x, y } of tiles) {
      const parent = { z: pz, x: x >> (plan.z - pz), y: y >> (plan.z - pz) };
      for (const step of steps) keep.push(key(colorFile, step, parent));
    }
  }
  return { load, keep };
}

/** The tiles covering a point from data zoom z down to 0, finest first. */
export function tilesAt(z: number, lon: number, lat: number): TileAddress[] {
  const out: TileAddress[] = [];
  for (let zz = z; zz >= 0; zz--) out.push(tileAt(zz, lon, lat));
  return out;
}

/**
 * Stand-ins for failed colour tiles where the map cannot draw the grey "No data!" square (the
 * globe, whose tiles are not squares on screen): for each visible tile whose data failed at a step
 * the plan draws, with no covering coarser tile loaded or loading, the nearest coarser tile that has
 * not failed, to be loaded; the raster's draws show a loaded parent over a child (rasterDraws.ts),
 * as on the flat map while a tile loads. Each once.
 */
export function failedStandIns(plan: TilePlan, state: (step: number, address: TileAddress) => TileState | undefined): { step: number; address: TileAddress }[] {
  const out = new Map<string, { step: number; address: TileAddress }>();
  for (const step of planSteps(plan)) {
    for (const tile of uniqueTiles(plan)) {
      if (state(step, tile) !== 'failed') continue;
      for (let zz = tile.z - 1; zz >= 0; zz--) {
        const address = { z: zz, x: tile.x >> (tile.z - zz), y: tile.y >> (tile.z - zz) };
        const s = state(step, address);
        if (s === 'failed') continue;
        if (s === undefined) out.set(`${step}/${zz}/${address.x}/${address.y}`, { step, address });
        break;
      }
    }
  }
  return [...out.values()];
}
