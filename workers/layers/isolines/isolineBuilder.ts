/**
 * Isolines of the tiles in view (issue 14 §1), made in the render worker: the loaded tiles of the
 * isoline field are put together into one grid (NaN where a tile has not arrived), blended between
 * the two forecast steps around the shown time like the colour layer, contoured by the engine
 * (WebAssembly: marching squares, lines joined and smoothed) at the levels of common/isolines.ts in
 * the user's unit, and turned into Mercator polylines for the GL layer, label places along them
 * (upright, spaced) and, for pressure, H and L markers at the extrema.
 */

import { isolineLabel, isolineLevels, isolineMetric, type IsolineLevel, type IsolineType } from '../../../common/isolines.ts';
import { latFromMercY, mercY, worldSize } from '../../../common/map.ts';
import { TILE_NODES, tileSpan, type TileAddress } from '../../../common/tiling.ts';
import type { Engine } from '../../../engine/engine.ts';
import type { IsolineLabelPlace, IsolineMarker } from '../../api.ts';
import type { TilePlan } from '../../tiles/tilePlan.ts';
import { fieldColumnOf, fieldColumns } from '../../tiles/tileSet.ts';

/** Grids with more nodes than this are contoured at every other node: isolines need no finer detail. */
export const FULL_RESOLUTION_MAX_NODES = 300_000;
/** H and L markers: the extremum must be the largest or smallest over this many degrees around it (about 1 000 km: one marker per pressure system of a synoptic chart). */
export const EXTREMUM_RADIUS_DEG = 10;
/** ...found on a grid no finer than this (degrees between nodes), which keeps the search cheap. */
export const EXTREMUM_GRID_DEG = 0.5;
/** Labels along a line: one every this many CSS pixels, the first half that far from a line's start. */
export const LABEL_SPACING_PX = 320;
/** Lines shorter than this on screen get no label. */
export const LABEL_MIN_LINE_PX = 80;
/**
 * Closed rings enclosing less than this many grid cells are noise of the data (one node off its
 * neighbours, a sliver along a flat ridge), not drawn.
 */
export const MIN_RING_CELLS = 2;
/** At most this many label places go to the page (it keeps those clear of each other and the city labels). */
export const MAX_LABELS = 400;

/** One grid of the view's tiles, row 0 north; values in the field's base unit. */
export interface IsolineGrid {
  values: Float32Array;
  nx: number;
  ny: number;
  lon0: number;
  lat0: number;
  /** Degrees between nodes. */
  spacing: number;
  /** The columns go all the way round. */
  wrap: boolean;
  /** Tiles that had data. */
  filled: number;
}

/** The blended values of one data tile (TILE_NODES x TILE_NODES, row 0 north), null when not loaded. */
export type TileValues = (address: TileAddress) => Float32Array | null;

/** Puts the plan's tiles together, each tile's nodes once (neighbours share their edge nodes). */
export function assembleGrid(plan: TilePlan, values: TileValues): IsolineGrid {
  const cells = TILE_NODES - 1;
  const { range } = plan;
  const { first, count: cols } = fieldColumns(range);
  const rows = range.r1 - range.r0 + 1;
  const full = { nx: range.global ? cols * cells : cols * cells + 1, ny: rows * cells + 1 };
  const stride = full.nx * full.ny > FULL_RESOLUTION_MAX_NODES ? 2 : 1;
  const nx = range.global ? Math.floor(full.nx / stride) : Math.floor((full.nx - 1) / stride) + 1;
  const ny = Math.floor((full.ny - 1) / stride) + 1;
  const grid = new Float32Array(nx * ny).fill(NaN);
  let filled = 0;
  const seen = new Set<string>();
  for (const tile of plan.visible) {
    const key = `${tile.x}/${tile.y}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const v = values(tile);
    if (!v) continue;
    filled++;
    const x0 = fieldColumnOf(tile, range) * cells;
    const y0 = (tile.y - range.r0) * cells;
    // The grid nodes inside this tile (edges included) at the stride.
    const gx0 = Math.ceil(x0 / stride);
    const gx1 = Math.floor((x0 + cells) / stride);
    const gy0 = Math.ceil(y0 / stride);
    const gy1 = Math.floor((y0 + cells) / stride);
    for (let gy = gy0; gy <= gy1 && gy < ny; gy++) {
      const row = (gy * stride - y0) * TILE_NODES;
      for (let gx = gx0; gx <= gx1; gx++) {
        const col = gx % nx;
        grid[gy * nx + col] = v[row + gx * stride - x0];
      }
    }
  }
  return {
    values: grid, nx, ny, lon0: -180 + first * tileSpan(plan.z), lat0: 90 - range.r0 * tileSpan(plan.z),
    spacing: (tileSpan(plan.z) / cells) * stride, wrap: range.global, filled,
  };
}

/** Polylines in normalised Mercator (x = (lon + 180) / 360 unwrapped, y = mercY). */
export interface IsolineSet {
  /** Vertex k of every line at (points[2k], points[2k + 1]). */
  points: Float64Array;
  lines: { start: number; count: number; closed: boolean; heavy: boolean; label: string }[];
  extrema: IsolineMarker[];
  /** The grid went all the way round: the lines are drawn in every copy of the world. */
  wrap: boolean;
}

/** Min and max of the finite values; null for none. */
function finiteRange(values: Float32Array): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : null;
}

export function buildIsolines(engine: Engine, grid: IsolineGrid, type: IsolineType, unit: string): IsolineSet {
  const empty: IsolineSet = { points: new Float64Array(0), lines: [], extrema: [], wrap: grid.wrap };
  const span = finiteRange(grid.values);
  if (!span) return empty;
  const levels: IsolineLevel[] = isolineLevels(type, unit, span[0], span[1]);
  if (!levels.length) return empty;
  const contours = engine.contour({ values: grid.values, nx: grid.nx, ny: grid.ny, wrap: grid.wrap, levels: levels.map((l) => l.value), smooth: true });
  let total = 0;
  const kept = contours.lines.filter((line) => !line.closed || line.xShift !== 0 || ringArea(contours.points, line) >= MIN_RING_CELLS);
  for (const line of kept) total += line.count + (line.closed ? 1 : 0);
  const points = new Float64Array(total * 2);
  const lines: IsolineSet['lines'] = [];
  let k = 0;
  for (const line of kept) {
    const start = k;
    const count = line.count + (line.closed ? 1 : 0);
    for (let i = 0; i < count; i++) {
      // A ring repeats its first vertex at the end (shifted by a turn for a ring around the globe).
      const j = line.start + (i % line.count);
      const x = contours.points[2 * j] + (i === line.count ? line.xShift : 0);
      const y = contours.points[2 * j + 1];
      points[2 * k] = (grid.lon0 + x * grid.spacing + 180) / 360;
      points[2 * k + 1] = mercY(grid.lat0 - y * grid.spacing);
      k++;
    }
    const level = levels[line.level];
    lines.push({ start, count, closed: line.closed, heavy: level.heavy, label: isolineLabel(type, unit, level) });
  }
  // A marker stands out from its surroundings by a line's spacing at least: no H on a flat ridge.
  const prominence = levels.length > 1 ? Math.abs(levels[1].value - levels[0].value) : Infinity;
  return { points, lines, extrema: type === 'pressure' ? markers(engine, grid, type, unit, prominence) : [], wrap: grid.wrap };
}

/** H and L at the extrema of a coarse copy of the grid (every n-th node, n from EXTREMUM_GRID_DEG). */
function markers(engine: Engine, grid: IsolineGrid, type: IsolineType, unit: string, prominence: number): IsolineMarker[] {
  const n = Math.max(1, Math.floor(EXTREMUM_GRID_DEG / grid.spacing));
  const nx = grid.wrap ? Math.floor(grid.nx / n) : Math.floor((grid.nx - 1) / n) + 1;
  const ny = Math.floor((grid.ny - 1) / n) + 1;
  if (nx < 3 || ny < 3) return [];
  const coarse = new Float32Array(nx * ny);
  for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) coarse[y * nx + x] = grid.values[y * n * grid.nx + x * n];
  const spacing = grid.spacing * n;
  const radius = Math.max(1, Math.round(EXTREMUM_RADIUS_DEG / spacing));
  const found = engine.extrema({ values: coarse, nx, ny, wrap: grid.wrap, radius });
  const out: IsolineMarker[] = [];
  for (const e of found) {
    // Near an open edge of the grid an extremum may only be the edge of the view's data: left out.
    if (!grid.wrap && (e.x < radius || e.x > nx - 1 - radius)) continue;
    if (e.y < radius || e.y > ny - 1 - radius) continue;
    if (depth(coarse, nx, ny, grid.wrap, e, radius) < prominence) continue;
    // The extremum's own value in the user's unit (the label rounds it to the unit's decimals).
    const text = isolineLabel(type, unit, { display: isolineMetric(type).conv[unit].to(e.value) });
    out.push({ kind: e.kind === 'max' ? 'H' : 'L', lon: grid.lon0 + e.x * spacing, lat: grid.lat0 - e.y * spacing, text });
  }
  return out;
}

/** The area a ring encloses, grid cells (shoelace formula). */
function ringArea(points: Float32Array, line: { start: number; count: number }): number {
  let twice = 0;
  for (let k = 0; k < line.count; k++) {
    const i = line.start + k;
    const j = line.start + ((k + 1) % line.count);
    twice += points[2 * i] * points[2 * j + 1] - points[2 * j] * points[2 * i + 1];
  }
  return Math.abs(twice) / 2;
}

/** How far an extremum stands above (max) or below (min) the lowest / highest value of its window. */
function depth(values: Float32Array, nx: number, ny: number, wrap: boolean, e: { kind: 'max' | 'min'; x: number; y: number; value: number }, radius: number): number {
  const cx = Math.round(e.x);
  const cy = Math.round(e.y);
  let other = e.value;
  for (let y = Math.max(0, cy - radius); y <= Math.min(ny - 1, cy + radius); y++) {
    for (let dx = -radius; dx <= radius; dx++) {
      let x = cx + dx;
      if (wrap) x = ((x % nx) + nx) % nx;
      else if (x < 0 || x >= nx) continue;
      const v = values[y * nx + x];
      if (Number.isNaN(v)) continue;
      other = e.kind === 'max' ? Math.min(other, v) : Math.max(other, v);
    }
  }
  return Math.abs(e.value - other);
}

/**
 * Places for the labels: along each line long enough on screen at `zoom`, one every
 * LABEL_SPACING_PX from half that from its start, at the line's direction there made upright.
 */
export function labelPlaces(set: IsolineSet, zoom: number): IsolineLabelPlace[] {
  const world = worldSize(zoom);
  const spacing = LABEL_SPACING_PX / world;
  const out: IsolineLabelPlace[] = [];
  const p = set.points;
  for (const line of set.lines) {
    let length = 0;
    for (let i = 1; i < line.count; i++) {
      const a = line.start + i - 1;
      length += Math.hypot(p[2 * a + 2] - p[2 * a], p[2 * a + 3] - p[2 * a + 1]);
    }
    if (length * world < LABEL_MIN_LINE_PX) continue;
    let next = Math.min(spacing / 2, length / 2);
    let walked = 0;
    for (let i = 1; i < line.count && out.length < MAX_LABELS; i++) {
      const a = line.start + i - 1;
      const dx = p[2 * a + 2] - p[2 * a];
      const dy = p[2 * a + 3] - p[2 * a + 1];
      const d = Math.hypot(dx, dy);
      while (d > 0 && walked + d >= next) {
        const f = (next - walked) / d;
        const x = p[2 * a] + dx * f;
        const y = p[2 * a + 1] + dy * f;
        let angle = (Math.atan2(dy, dx) * 180) / Math.PI;
        if (angle > 90) angle -= 180;
        else if (angle < -90) angle += 180;
        out.push({ lon: x * 360 - 180, lat: latFromMercY(y), angle, text: line.label, heavy: line.heavy });
        next += spacing;
      }
      walked += d;
    }
  }
  return out;
}
