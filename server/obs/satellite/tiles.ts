/**
 * Reprojection of a satellite scene into the data-tile pyramid (common/tiling.ts, common/tile.ts),
 * as the radar does it (server/obs/radar/tiles.ts): for every node of a tile, the nearest cell of the
 * instrument's fixed grid through the geostationary projection. Two channels (common/satellite.ts):
 * the infrared brightness temperature and the day/night composite (daynight.ts). Tiles wholly off
 * the satellite's disk are not written.
 */

import { SATELLITE_CHANNELS } from '../../../common/satellite.ts';
import { NO_DATA, packDataTile, Predictor } from '../../../common/tile.ts';
import { TILE_NODES, tileBounds, type TileAddress, type TileBounds } from '../../../common/tiling.ts';
import { gridLocator } from '../radar/field.ts';
import { composite, zenithGrid } from './daynight.ts';
import type { GeosGrid, SatelliteImage } from './field.ts';

/** One scene: the infrared channel and, when the satellite gives it, the visible one (possibly on another grid). */
export interface SatelliteScene {
  /** Scan start, ms UTC: the time of the solar zenith. */
  time: number;
  ir: SatelliteImage;
  visible: SatelliteImage | null;
}

/**
 * Longitude/latitude boxes of the part of the grid the satellite sees (0.5° lattice, widened by a
 * step): one box, or two when the disk crosses the antimeridian (GOES-West, Himawari), split there.
 */
export function sceneExtents(grid: GeosGrid): TileBounds[] {
  const at = gridLocator(grid);
  const out = new Float64Array(2);
  const step = 0.5;
  const columns = Math.round(360 / step);
  const seen = new Uint8Array(columns);
  let north = -90;
  let south = 90;
  for (let c = 0; c < columns; c++) {
    const lon = -180 + (c + 0.5) * step;
    for (let lat = -89.75; lat < 90; lat += step) {
      at(lon, lat, out);
      if (out[0] >= -0.5 && out[0] < grid.width - 0.5 && out[1] >= -0.5 && out[1] < grid.height - 0.5) {
        seen[c] = 1;
        north = Math.max(north, lat);
        south = Math.min(south, lat);
      }
    }
  }
  if (north < south) throw new Error('satellite grid covers no longitude/latitude point');
  // The longest run of unseen columns (around the circle) is what the disk leaves out.
  let gapStart = -1;
  let gapLength = 0;
  for (let c = 0; c < columns; c++) {
    if (seen[c]) continue;
    let n = 0;
    while (n < columns && !seen[(c + n) % columns]) n++;
    if (n > gapLength) {
      gapLength = n;
      gapStart = c;
    }
  }
  const lat = { north: Math.min(90, north + step), south: Math.max(-90, south - step) };
  if (gapLength === 0) return [{ west: -180, east: 180, ...lat }];
  const first = (gapStart + gapLength) % columns; // first seen column after the gap
  const last = (gapStart - 1 + columns) % columns; // last seen column before it
  const west = -180 + first * step - step;
  const east = -180 + (last + 1) * step + step;
  if (first <= last) return [{ west: Math.max(-180, west), east: Math.min(180, east), ...lat }];
  return [{ west, east: 180, ...lat }, { west: -180, east, ...lat }];
}

/** One box of the scene for its frame's `bounds` (west > east when it crosses the antimeridian). */
export function sceneBounds(grid: GeosGrid): TileBounds {
  const boxes = sceneExtents(grid);
  return boxes.length === 1 ? boxes[0] : { ...boxes[0], east: boxes[1].east };
}

function sameGrid(a: GeosGrid, b: GeosGrid): boolean {
  return a.width === b.width && a.height === b.height && a.x0 === b.x0 && a.y0 === b.y0 && a.dx === b.dx && a.dy === b.dy && a.projection.projDef === b.projection.projDef;
}

const [IR_Q, COMPOSITE_Q] = SATELLITE_CHANNELS;
const Q_TOP = 0xfffe;

function quantize(v: number, q: { offset: number; scale: number }): number {
  return Math.min(Q_TOP, Math.max(0, Math.round((v - q.offset) / q.scale)));
}

/** The two quantized channels of a tile, or null when no node of it is on the satellite's disk. */
export function renderSatelliteTile(address: TileAddress, scene: SatelliteScene): [Uint16Array, Uint16Array] | null {
  const bounds = tileBounds(address);
  const n = TILE_NODES;
  const step = (bounds.east - bounds.west) / (n - 1);
  const ir = new Uint16Array(n * n).fill(NO_DATA);
  const comp = new Uint16Array(n * n).fill(NO_DATA);
  const irGrid = scene.ir.grid;
  const atIr = gridLocator(irGrid);
  const vis = scene.visible;
  const visShared = vis !== null && sameGrid(vis.grid, irGrid);
  const atVis = vis && !visShared ? gridLocator(vis.grid) : null;
  const zenith = vis ? zenithGrid(scene.time, bounds.west, bounds.north, step, n) : null;
  const out = new Float64Array(2);
  let any = false;
  for (let j = 0; j < n; j++) {
    const lat = bounds.north - j * step;
    for (let i = 0; i < n; i++) {
      const lon = bounds.west + i * step;
      atIr(lon, lat, out);
      const c = Math.round(out[0]);
      const r = Math.round(out[1]);
      const onIr = c >= 0 && c < irGrid.width && r >= 0 && r < irGrid.height;
      const kelvin = onIr ? scene.ir.values[r * irGrid.width + c] : Number.NaN;
      let reflectance = Number.NaN;
      if (vis) {
        if (visShared) {
          if (onIr) reflectance = vis.values[r * irGrid.width + c];
        } else {
          atVis!(lon, lat, out);
          const vc = Math.round(out[0]);
          const vr = Math.round(out[1]);
          if (vc >= 0 && vc < vis.grid.width && vr >= 0 && vr < vis.grid.height) reflectance = vis.values[vr * vis.grid.width + vc];
        }
      }
      const k = j * n + i;
      if (!Number.isNaN(kelvin)) {
        ir[k] = quantize(kelvin, IR_Q);
        any = true;
      }
      const b = composite(kelvin, reflectance, zenith ? zenith[k] : 180);
      if (!Number.isNaN(b)) {
        comp[k] = quantize(b, COMPOSITE_Q);
        any = true;
      }
    }
  }
  return any ? [ir, comp] : null;
}

/** Packs a rendered tile in the data-tile format (row-delta predictor). */
export function packSatelliteTile(address: TileAddress, channels: [Uint16Array, Uint16Array]): Uint8Array {
  return packDataTile({
    ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta,
    channels: [{ offset: IR_Q.offset, scale: IR_Q.scale, q: channels[0] }, { offset: COMPOSITE_Q.offset, scale: COMPOSITE_Q.scale, q: channels[1] }],
  });
}
