/**
 * Land and sea for the demo product: Natural Earth land (npm `world-atlas`, public domain)
 * rasterized once by scanline polygon fill and smoothed, so that every field built on it is smooth
 * enough for the client's bilinear interpolation between tile nodes to agree with the point value.
 *
 * Grid layout (one Float32Array, cell-centred, row-major, 4 values per cell):
 *
 *   cell (i, j) at lon -180 + (i + 0.5) * 0.25, lat 90 - (j + 0.5) * 0.25,  i < 1440, j < 720
 *   data[(j * 1440 + i) * 4 + k]:
 *     k = 0  fine     land fraction smoothed over ~1.4° (coasts: temperature, friction, gusts)
 *     k = 1  broad    land fraction smoothed over ~5° (continentality, thermal pressure systems)
 *     k = 2  dBroad/dφ  per radian of latitude
 *     k = 3  dBroad/dλ  per radian of longitude
 *
 * Interleaving the four keeps one bilinear lookup at four neighbouring cells for all of them.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as topojson from 'topojson-client';
import type { Topology, GeometryObject } from 'topojson-specification';

const LAND_CELL_DEG = 0.25;
export const LAND_COLUMNS = 360 / LAND_CELL_DEG;
const LAND_ROWS = 180 / LAND_CELL_DEG;
export const LAND_STRIDE = 4;
export const LandChannel = { Fine: 0, Broad: 1, BroadDLat: 2, BroadDLon: 3 } as const;

/** Samples per cell edge for the binary raster, averaged into fractions (2 -> 0.125° scanlines). */
const SUPERSAMPLE = 2;
/**
 * Box-blur half-widths in 0.25° cells. Three box passes approximate a Gaussian with
 * sigma^2 = r (r + 1) cells^2 (central limit of repeated uniform kernels): r = 5 gives sigma 1.4°,
 * r = 20 gives 5.1°.
 */
const FINE_BLUR_CELLS = 5;
const BROAD_BLUR_CELLS = 20;
const BLUR_PASSES = 3;

export type LandPolygons = number[][][][];

/** Natural Earth land polygons ([polygon][ring][point][lon, lat]) from world-atlas. */
function loadNaturalEarthLand(resolution: '50m' | '110m' = '50m'): LandPolygons {
  const require = createRequire(import.meta.url);
  const path = require.resolve(`world-atlas/land-${resolution}.json`);
  const topology = JSON.parse(readFileSync(path, 'utf8')) as Topology;
  const land = topology.objects.land as GeometryObject;
  const geo = topojson.feature(topology, land) as GeoJSON.Feature | GeoJSON.FeatureCollection;
  const features = geo.type === 'FeatureCollection' ? geo.features : [geo];
  const polygons: LandPolygons = [];
  for (const f of features) {
    if (f.geometry.type === 'Polygon') polygons.push(f.geometry.coordinates);
    else if (f.geometry.type === 'MultiPolygon') polygons.push(...f.geometry.coordinates);
  }
  return polygons;
}

/**
 * Unwraps a ring across the antimeridian (consecutive longitudes never jump by more than 180°) and
 * closes a ring that winds once around a pole (Antarctica) through that pole, so that it is a plain
 * planar polygon in unwrapped longitude. world-atlas rings are spherical: they may cross ±180°.
 */
function planarRing(ring: number[][]): number[][] {
  const out: number[][] = [[ring[0][0], ring[0][1]]];
  for (let k = 1; k < ring.length; k++) {
    const prev = out[k - 1][0];
    let dx = ring[k][0] - ring[k - 1][0];
    if (dx > 180) dx -= 360;
    else if (dx < -180) dx += 360;
    out.push([prev + dx, ring[k][1]]);
  }
  const winding = out[out.length - 1][0] - out[0][0];
  if (Math.abs(winding) > 180) {
    const meanLat = ring.reduce((s, p) => s + p[1], 0) / ring.length;
    const pole = meanLat < 0 ? -90 : 90;
    out.push([out[out.length - 1][0], pole], [out[0][0], pole], [out[0][0], out[0][1]]);
  }
  return out;
}

/**
 * Even-odd scanline fill of all rings at cell-centre rows: each edge adds its crossing to the rows
 * it spans (half-open in latitude so a vertex is never counted twice), then each row fills the
 * cells whose centres lie between consecutive crossings. Holes (lakes) fall out of even-odd. A ring
 * reaching past ±180° after unwrapping is also drawn shifted by 360° so both ends land on the map.
 */
export function rasterizePolygons(polygons: LandPolygons, columns: number, rows: number): Uint8Array {
  const cellDeg = 360 / columns;
  const crossings: number[][] = Array.from({ length: rows }, () => []);
  const rowOf = (lat: number) => (90 - lat) / cellDeg - 0.5; // fractional row index of a latitude
  for (const polygon of polygons) {
    for (const original of polygon) {
      const ring = planarRing(original);
      let minX = Infinity;
      let maxX = -Infinity;
      for (const [x] of ring) { minX = Math.min(minX, x); maxX = Math.max(maxX, x); }
      for (const shift of [-360, 0, 360]) {
        if (maxX + shift < -180 || minX + shift > 180) continue;
        for (let k = 0; k < ring.length - 1; k++) {
          const x0 = ring[k][0] + shift;
          const y0 = ring[k][1];
          const x1 = ring[k + 1][0] + shift;
          const y1 = ring[k + 1][1];
          if (y0 === y1) continue;
          const r0 = rowOf(Math.max(y0, y1));
          const r1 = rowOf(Math.min(y0, y1));
          // Rows whose centre lies in [r0, r1): latitude in [min, max).
          for (let r = Math.max(0, Math.ceil(r0)); r < Math.min(rows, Math.ceil(r1)); r++) {
            const lat = 90 - (r + 0.5) * cellDeg;
            crossings[r].push(x0 + ((lat - y0) * (x1 - x0)) / (y1 - y0));
          }
        }
      }
    }
  }
  const raster = new Uint8Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const xs = crossings[r].sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const first = Math.max(0, Math.ceil((xs[k] + 180) / cellDeg - 0.5));
      const last = Math.min(columns - 1, Math.ceil((xs[k + 1] + 180) / cellDeg - 0.5) - 1);
      raster.fill(1, r * columns + first, r * columns + last + 1);
    }
  }
  return raster;
}

/** Averages SUPERSAMPLE x SUPERSAMPLE binary samples into a land fraction per 0.25° cell. */
function landFraction(raster: Uint8Array, sub: number): Float32Array {
  const out = new Float32Array(LAND_COLUMNS * LAND_ROWS);
  const subColumns = LAND_COLUMNS * sub;
  const norm = 1 / (sub * sub);
  for (let j = 0; j < LAND_ROWS; j++) {
    for (let i = 0; i < LAND_COLUMNS; i++) {
      let sum = 0;
      for (let b = 0; b < sub; b++) {
        const rowStart = (j * sub + b) * subColumns + i * sub;
        for (let a = 0; a < sub; a++) sum += raster[rowStart + a];
      }
      out[j * LAND_COLUMNS + i] = sum * norm;
    }
  }
  return out;
}

/**
 * Separable box blur, repeated. Along longitude the half-width grows as 1 / cos(lat) so that the
 * smoothing length is the same in kilometres everywhere (near the poles it averages whole rings,
 * which keeps the fields single-valued at the pole); rows wrap around the antimeridian. Along
 * latitude the edge rows are repeated.
 */
function blur(field: Float32Array, radius: number, passes: number): Float32Array {
  const W = LAND_COLUMNS;
  const H = LAND_ROWS;
  let a = field.slice();
  let b = new Float32Array(a.length);
  const prefix = new Float64Array(W + 1);
  for (let pass = 0; pass < passes; pass++) {
    for (let j = 0; j < H; j++) {
      const lat = 90 - (j + 0.5) * LAND_CELL_DEG;
      const r = Math.min(W - 1, Math.round(radius / Math.max(1e-6, Math.cos((lat * Math.PI) / 180))));
      const row = j * W;
      if (2 * r + 1 >= W) {
        let mean = 0;
        for (let i = 0; i < W; i++) mean += a[row + i];
        b.fill(mean / W, row, row + W);
        continue;
      }
      // Prefix sums of the row; a window reaching past either end wraps by adding the row total.
      prefix[0] = 0;
      for (let i = 0; i < W; i++) prefix[i + 1] = prefix[i] + a[row + i];
      const total = prefix[W];
      const norm = 1 / (2 * r + 1);
      for (let i = 0; i < W; i++) {
        const lo = i - r;
        const hi = i + r + 1;
        const upper = hi <= W ? prefix[hi] : prefix[hi - W] + total;
        const lower = lo >= 0 ? prefix[lo] : prefix[lo + W] - total;
        b[row + i] = (upper - lower) * norm;
      }
    }
    [a, b] = [b, a];
    // Along latitude: running window sums of every column at once, row by row (cache friendly).
    const sums = new Float64Array(W);
    for (let k = -radius; k <= radius; k++) {
      const row = Math.min(H - 1, Math.max(0, k)) * W;
      for (let i = 0; i < W; i++) sums[i] += a[row + i];
    }
    const norm = 1 / (2 * radius + 1);
    for (let j = 0; j < H; j++) {
      const row = j * W;
      const entering = Math.min(H - 1, j + radius + 1) * W;
      const leaving = Math.max(0, j - radius) * W;
      for (let i = 0; i < W; i++) {
        b[row + i] = sums[i] * norm;
        sums[i] += a[entering + i] - a[leaving + i];
      }
    }
    [a, b] = [b, a];
  }
  return a;
}

export class LandMask {
  /** See the layout at the top of this file. */
  readonly data: Float32Array;

  constructor(data: Float32Array) {
    if (data.length !== LAND_COLUMNS * LAND_ROWS * LAND_STRIDE) throw new Error('Land mask grid has the wrong size');
    this.data = data;
  }

  static fromPolygons(polygons: LandPolygons): LandMask {
    const raster = rasterizePolygons(polygons, LAND_COLUMNS * SUPERSAMPLE, LAND_ROWS * SUPERSAMPLE);
    const fraction = landFraction(raster, SUPERSAMPLE);
    const fine = blur(fraction, FINE_BLUR_CELLS, BLUR_PASSES);
    const broad = blur(fraction, BROAD_BLUR_CELLS, BLUR_PASSES);
    const W = LAND_COLUMNS;
    const H = LAND_ROWS;
    const cellRad = (LAND_CELL_DEG * Math.PI) / 180;
    const data = new Float32Array(W * H * LAND_STRIDE);
    for (let j = 0; j < H; j++) {
      const north = Math.max(0, j - 1);
      const south = Math.min(H - 1, j + 1);
      for (let i = 0; i < W; i++) {
        const o = (j * W + i) * LAND_STRIDE;
        data[o] = fine[j * W + i];
        data[o + 1] = broad[j * W + i];
        // Central differences; latitude grows northwards, i.e. towards smaller j.
        data[o + 2] = (broad[north * W + i] - broad[south * W + i]) / ((south - north) * cellRad);
        data[o + 3] = (broad[j * W + ((i + 1) % W)] - broad[j * W + ((i + W - 1) % W)]) / (2 * cellRad);
      }
    }
    return new LandMask(data);
  }

  /** Bilinear value of one channel (see LandChannel) at a point; the demo model inlines the same sampling. */
  sample(lat: number, lon: number, channel: number): number {
    const c = landColumn(lon);
    const r = landRow(lat);
    const d = this.data;
    const k = channel;
    const top = d[(r.j0 * LAND_COLUMNS + c.i0) * LAND_STRIDE + k] * (1 - c.fx) + d[(r.j0 * LAND_COLUMNS + c.i1) * LAND_STRIDE + k] * c.fx;
    const bottom = d[(r.j1 * LAND_COLUMNS + c.i0) * LAND_STRIDE + k] * (1 - c.fx) + d[(r.j1 * LAND_COLUMNS + c.i1) * LAND_STRIDE + k] * c.fx;
    return top * (1 - r.fy) + bottom * r.fy;
  }
}

/** Neighbouring grid columns of a longitude (wrapping) and the weight of the eastern one. */
export function landColumn(lon: number): { i0: number; i1: number; fx: number } {
  const x = (((lon + 180) / LAND_CELL_DEG - 0.5) % LAND_COLUMNS + LAND_COLUMNS) % LAND_COLUMNS;
  const i0 = Math.floor(x);
  return { i0: i0 % LAND_COLUMNS, i1: (i0 + 1) % LAND_COLUMNS, fx: x - i0 };
}

/** Neighbouring grid rows of a latitude (clamped at the edge rows) and the weight of the southern one. */
export function landRow(lat: number): { j0: number; j1: number; fy: number } {
  const y = Math.min(LAND_ROWS - 1, Math.max(0, (90 - lat) / LAND_CELL_DEG - 0.5));
  const j0 = Math.min(LAND_ROWS - 2, Math.floor(y));
  return { j0, j1: j0 + 1, fy: y - j0 };
}

let shared: LandMask | undefined;

/** The land mask, built on first use (a few hundred ms) and kept for the life of the process. */
export function getLandMask(): LandMask {
  shared ??= LandMask.fromPolygons(loadNaturalEarthLand('50m'));
  return shared;
}
