/**
 * The colour raster's quads for one frame (raster.ts draws them): for each visible tile its own
 * data, else a loaded parent's (drawn over the child's quad), else the grey "No data!" tile if it
 * failed (SPEC §8), else, while it loads, the step shown before where that is still cached, so the
 * map does not go blank between two times.
 */

import type REGL from 'regl';
import { mercY } from '../../../common/map.ts';
import type { TileHeader } from '../../../common/tile.ts';
import { tileSpan, type TileAddress } from '../../../common/tiling.ts';
import type { FrameTransform } from '../../gl/transform.ts';
import type { TilePlan } from '../../tiles/tilePlan.ts';
import type { VisibleTile } from '../../tiles/tileSet.ts';
import type { RasterTileDraw, Vec4 } from './raster.ts';

/** A colour-file tile ready to draw. */
export interface LoadedTile {
  header: TileHeader;
  texture: REGL.Texture2D;
}

/** The colour file's tiles as the cache holds them, by step and address. */
export interface RasterTiles {
  loaded(step: number, address: TileAddress): LoadedTile | null;
  failed(step: number, address: TileAddress): boolean;
}

export interface RasterFrame {
  draws: RasterTileDraw[];
  /** Clip-space rectangles of failed tiles. */
  noData: Vec4[];
  /** Some tile showed this plan's own step (it becomes the step shown). */
  ownData: boolean;
}

/**
 * `shownStep`: the step the map showed before this plan, or null. `rectOf`: a tile's clip-space
 * rectangle, null when none of it shows (the globe's, workers/gl/globeTransform.ts); the flat map's by default.
 */
export function rasterDraws(
  t: FrameTransform, plan: TilePlan, tiles: RasterTiles, shownStep: number | null,
  rectOf: (tile: VisibleTile) => Vec4 | null = (tile) => tileRect(t, tile),
): RasterFrame {
  const draws: RasterTileDraw[] = [];
  const noData: Vec4[] = [];
  let ownData = false;
  for (const tile of plan.visible) {
    const rect = rectOf(tile);
    if (!rect) continue;
    const quadY: [number, number] = [mercY(tile.north), mercY(tile.south)];
    /** One quad of `tile` from the data of a tile covering it whose west edge is `west`, blending a to b by `blend`. */
    const push = (west: number, a: LoadedTile, b: LoadedTile, blend: number) => {
      const h = a.header;
      draws.push({
        rect,
        quadLon: [tile.west, tile.span],
        quadY,
        quadLat: [tile.north, tile.south],
        tile: [west, h.north, h.east - h.west, h.north - h.south],
        grid: [h.width, h.height],
        a: a.texture,
        b: b.texture,
        qa: quantization(a.header),
        qb: quantization(b.header),
        t: blend,
      });
    };
    let drawn = false;
    for (let zz = tile.z; zz >= 0 && !drawn; zz--) {
      const shiftZ = tile.z - zz;
      const parent = { z: zz, x: tile.x >> shiftZ, y: tile.y >> shiftZ };
      const a = tiles.loaded(plan.before, parent);
      if (!a) continue;
      const b = plan.t > 0 ? tiles.loaded(plan.after, parent) : a;
      // The parent's west edge in the child's unwrapped frame.
      const west = tile.west - (tile.x * tileSpan(tile.z) - parent.x * tileSpan(zz));
      // Until the later step arrives, show the earlier one.
      if (b) push(west, a, b, plan.t);
      else push(west, a, a, 0);
      drawn = true;
    }
    if (drawn) {
      ownData = true;
      continue;
    }
    if (tiles.failed(plan.before, tile)) {
      noData.push(rect);
      continue;
    }
    // Still loading: the step shown before stands in, where its tile is still cached.
    if (shownStep === null || shownStep === plan.before) continue;
    const shown = tiles.loaded(shownStep, tile);
    if (shown) push(tile.west, shown, shown, 0);
  }
  return { draws, noData, ownData };
}

/** A tile's quantization (offset and scale of its two channels) as the raster shader takes it. */
export function quantization(h: TileHeader): Vec4 {
  return [h.offsets[0], h.scales[0], h.offsets[1] ?? 0, h.scales[1] ?? 0];
}

/** A tile's clip-space rectangle, computed in double precision relative to the view centre. */
export function tileRect(t: FrameTransform, tile: VisibleTile): Vec4 {
  const x0 = (tile.west + 180) / 360;
  const x1 = (tile.west + tile.span + 180) / 360;
  const y0 = mercY(tile.north);
  const y1 = mercY(tile.south);
  return [
    (x0 - t.center[0]) * t.scale[0],
    -(y0 - t.center[1]) * t.scale[1],
    (x1 - t.center[0]) * t.scale[0],
    -(y1 - t.center[1]) * t.scale[1],
  ];
}
