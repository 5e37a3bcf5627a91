/**
 * Plain-TypeScript twins of the engine's WASM kernels over ordinary typed arrays: the baseline
 * for tests and benchmarks, and the 'ts' particle kernel of the /debug window. Each function
 * repeats the WASM arithmetic operation for operation (f32 steps through Math.fround), so results
 * agree bit for bit; respawn latitudes come from the same spawn table (engine/spawn.ts) that the
 * wrapper writes into WASM memory.
 *
 * Tile floats come from decodeDataTile (common/tile.ts), the format's own reference decoder.
 * Layouts are those of engine/assembly: field nodes are [U, V] f32 pairs, row-major, row 0 north,
 * `stride` = nx (+ 1 wrap column when global); particle vertices are [prevRelLon, prevLat,
 * newRelLon, newLat] per particle.
 */

import { Predictor, readTileHeader, type DecodedTile } from '../common/tile.ts';
import type { FieldGrid, InitParticlesParams, StepParticlesParams } from './engine.ts';
import { spawnLatitude, spawnLatitudeTable } from './spawn.ts';

const f32 = Math.fround;
const DEG = Math.PI / 180;
const DEFAULT_SEED = 0x9e3779b9; // as in particles.ts: seed 0 would stay 0 under xorshift
const INV_2_32 = 1 / 4294967296;

/**
 * Texels of a tile (engine.texels): per node (q0 >> 8, q0 & 255, q1 >> 8, q1 & 255) with the
 * un-predicted q of channels 0 and 1; channel 1 bytes are 0 in a one-channel tile.
 */
export function packTexelsReference(bytes: Uint8Array): Uint8Array {
  const header = readTileHeader(bytes);
  const { width, height, channels, predictor } = header;
  const n = width * height;
  const out = new Uint8Array(n * 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let c = 0; c < Math.min(channels, 2); c++) {
    let p = header.dataOffset + c * n * 2;
    for (let j = 0; j < height; j++) {
      let q = 0;
      for (let i = 0; i < width; i++, p += 2) {
        const raw = view.getUint16(p, true);
        q = predictor === Predictor.RowDelta && i > 0 ? (q + raw) & 0xffff : raw;
        const o = (j * width + i) * 4 + c * 2;
        out[o] = q >> 8;
        out[o + 1] = q & 0xff;
      }
    }
  }
  return out;
}

/** out[i] = a[i] * (1 - t) + b[i] * t in f32 (the WASM `blend`). */
export function blendReference(a: Float32Array, b: Float32Array, t: number, out: Float32Array, n = out.length): void {
  const tf = f32(t);
  const s = f32(1 - tf);
  for (let i = 0; i < n; i++) out[i] = f32(f32(a[i] * s) + f32(b[i] * tf));
}

/** The particle field (engine/assembly/field.ts) in plain arrays. */
export class ReferenceField {
  readonly grid: FieldGrid;
  readonly stride: number;
  /** [U, V] per node, stride * ny pairs. */
  readonly nodes: Float32Array;
  readonly rowCos: Float32Array;
  readonly invDlon: number;
  readonly invDlat: number;
  /** Columns per turn and its inverse, rounded to f32 as the samplers use them. */
  private readonly period: number;
  private readonly invPeriod: number;
  /** Last cell column and row a sample may start from (stride - 2, ny - 2). */
  private readonly maxCellX: number;
  private readonly maxCellY: number;
  /** [U, V] of the last sampleInto / sampleGridInto, kept unboxed so the hot loop allocates nothing. */
  readonly sampled = new Float64Array(2);

  constructor(grid: FieldGrid) {
    this.grid = { ...grid };
    const { lat0, dlon, dlat, nx, ny, wrap } = grid;
    this.stride = wrap ? nx + 1 : nx;
    this.nodes = new Float32Array(this.stride * ny * 2).fill(NaN);
    this.rowCos = new Float32Array(ny);
    for (let j = 0; j < ny; j++) this.rowCos[j] = Math.cos((lat0 - j * dlat) * DEG);
    this.invDlon = 1 / dlon;
    this.invDlat = 1 / dlat;
    this.period = f32(wrap ? nx : 360 / dlon);
    this.invPeriod = f32(wrap ? 1 / nx : dlon / 360);
    this.maxCellX = this.stride - 2;
    this.maxCellY = ny - 2;
  }

  /** Blends two 2-channel tiles (u, v) at t and writes [u, v cos φ] with node (0, 0) at (x, y). */
  writeTile({ a, b, t, x, y }: { a: DecodedTile; b: DecodedTile; t: number; x: number; y: number }): void {
    const { width, height } = a.header;
    const [a0, a1] = a.channels;
    const [b0, b1] = b.channels;
    const c0 = Math.max(0, -x);
    const c1 = Math.min(width, this.stride - x);
    const r0 = Math.max(0, -y);
    const r1 = Math.min(height, this.grid.ny - y);
    const tf = f32(t);
    const s = f32(1 - tf);
    for (let r = r0; r < r1; r++) {
      const cos = this.rowCos[y + r];
      for (let c = c0; c < c1; c++) {
        const src = r * width + c;
        const dst = ((y + r) * this.stride + x + c) * 2;
        this.nodes[dst] = f32(f32(a0[src] * s) + f32(b0[src] * tf));
        this.nodes[dst + 1] = f32(f32(f32(a1[src] * s) + f32(b1[src] * tf)) * cos);
      }
    }
  }

  /** Copies column 0 into the wrap column. */
  finish(): void {
    if (!this.grid.wrap) return;
    const last = (this.stride - 1) * 2;
    for (let j = 0; j < this.grid.ny; j++) {
      const row = j * this.stride * 2;
      this.nodes[row + last] = this.nodes[row];
      this.nodes[row + last + 1] = this.nodes[row + 1];
    }
  }

  sample(lon: number, lat: number): [number, number] {
    this.sampleInto(lon, lat);
    return [this.sampled[0], this.sampled[1]];
  }

  /** Bilinear [U, V] at a point into `sampled`; both NaN outside the grid or next to a NaN node. */
  sampleInto(lon: number, lat: number): void {
    this.sampleGridInto(this.gridX(lon), this.gridY(lat));
  }

  /** Column coordinate of a longitude, f32, wrapped (field.ts gridX). */
  gridX(lon: number): number {
    return this.wrapColumn(f32((lon - this.grid.lon0) * this.invDlon));
  }

  /** Row coordinate of a latitude, f32 (field.ts gridY). */
  gridY(lat: number): number {
    return f32((this.grid.lat0 - lat) * this.invDlat);
  }

  /** A column coordinate into [0, period] by whole turns (field.ts wrapColumn). */
  wrapColumn(gx: number): number {
    const { period } = this;
    const w = f32(gx - f32(period * Math.floor(f32(gx * this.invPeriod))));
    const a = w < 0 ? 0 : w;
    return period < a ? period : a;
  }

  /** sampleInto at grid coordinates (field.ts sampleGrid). */
  sampleGridInto(gx: number, gy: number): void {
    const { stride, nodes, sampled } = this;
    const cx = cellOf(gx, this.maxCellX);
    const cy = cellOf(gy, this.maxCellY);
    const wx = f32(gx - cx);
    const wy = f32(gy - cy);
    if (!isUnitWeight(wx) || !isUnitWeight(wy)) {
      sampled[0] = NaN;
      sampled[1] = NaN;
      return;
    }
    const p = (cy * stride + cx) * 2;
    const q = p + stride * 2;
    const u00 = nodes[p];
    const v00 = nodes[p + 1];
    const u10 = nodes[p + 2];
    const v10 = nodes[p + 3];
    const u01 = nodes[q];
    const v01 = nodes[q + 1];
    const u11 = nodes[q + 2];
    const v11 = nodes[q + 3];
    const uw = f32(u00 + f32(wy * f32(u01 - u00)));
    const ue = f32(u10 + f32(wy * f32(u11 - u10)));
    const vw = f32(v00 + f32(wy * f32(v01 - v00)));
    const ve = f32(v10 + f32(wy * f32(v11 - v10)));
    sampled[0] = f32(uw + f32(wx * f32(ue - uw)));
    sampled[1] = f32(vw + f32(wx * f32(ve - vw)));
  }
}

/** field.ts cellOf: floor clamped to [0, maxCell]; NaN gives maxCell. */
function cellOf(g: number, maxCell: number): number {
  const f = Math.floor(g);
  const m = f < maxCell ? f : maxCell;
  return 0 < m ? m : 0;
}

/** A weight in [+0, 1], as field.ts tests it on the f32 bits (so -0 is outside, and NaN). */
function isUnitWeight(w: number): boolean {
  return w >= 0 && w <= 1 && (w !== 0 || 1 / w > 0);
}

function wrapLongitude(lon: number): number {
  return lon - 360 * Math.floor((lon + 180) / 360);
}

function wrapHalfTurn(lon: number): number {
  if (lon >= 180) return lon - 360;
  if (lon < -180) return lon + 360;
  return lon;
}

/** The particle system (engine/assembly/particles.ts) in plain arrays. */
export class ReferenceParticles {
  readonly count: number;
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  readonly age: Int32Array;
  /** count * 4: [prevRelLon, prevRelLat, newRelLon, newRelLat] per particle. */
  readonly vertices: Float32Array;
  private rng: number;
  private readonly spawnTable = spawnLatitudeTable();

  constructor(params: InitParticlesParams) {
    const { count, seed, maxAge, centerLon, centerLat, west, east, yTop, yBottom } = params;
    this.count = count;
    this.lon = new Float64Array(count);
    this.lat = new Float64Array(count);
    this.age = new Int32Array(count);
    this.vertices = new Float32Array(count * 4);
    this.rng = seed >>> 0 === 0 ? DEFAULT_SEED : seed >>> 0;
    const centre = wrapLongitude(centerLon);
    for (let k = 0; k < count; k++) {
      this.respawn(k, centre, centerLat, west - centerLon, east - centerLon, yTop, yBottom);
      this.age[k] = Math.trunc(this.random() * maxAge);
    }
  }

  /** xorshift32 (13, 17, 5) as a double in [0, 1). */
  private random(): number {
    let x = this.rng;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.rng = x >>> 0;
    return this.rng * INV_2_32;
  }

  private respawn(k: number, centre: number, centreLat: number, relWest: number, relEast: number, yTop: number, yBottom: number): void {
    const r1 = this.random();
    const r2 = this.random();
    const lon = wrapLongitude(centre + (relWest + r1 * (relEast - relWest)));
    const lat = spawnLatitude(this.spawnTable, yTop + r2 * (yBottom - yTop));
    const rel = wrapHalfTurn(lon - centre);
    this.lon[k] = lon;
    this.lat[k] = lat;
    this.age[k] = 0;
    const v = k * 4;
    this.vertices[v] = rel;
    this.vertices[v + 1] = lat - centreLat;
    this.vertices[v + 2] = rel;
    this.vertices[v + 3] = lat - centreLat;
  }

  /** One RK2 step of every particle (the kernel field of the params is ignored). */
  step(field: ReferenceField, params: Omit<StepParticlesParams, 'kernel'>): void {
    const { centerLon, centerLat, west, east, north, south, yTop, yBottom, speed, maxAge } = params;
    const centre = wrapLongitude(centerLon);
    const relWest = west - centerLon;
    const relEast = east - centerLon;
    const half = 0.5 * speed;
    // The midpoint p + (speed / 2) (U1, V1) in grid coordinates (particles.ts).
    const kx = f32(half * field.invDlon);
    const ky = f32(-half * field.invDlat);
    // The step and the view test in f32 (particles.ts): the displacement f32(speed) * sample, the
    // view's bounds relative to its centre.
    const speedF = f32(speed);
    const viewWest = f32(relWest);
    const viewEast = f32(relEast);
    const viewSouth = f32(south - centerLat);
    const viewNorth = f32(north - centerLat);
    const { lon: lons, lat: lats, age: ages, vertices } = this;
    const sampled = field.sampled;
    for (let k = 0; k < this.count; k++) {
      const lon = lons[k];
      const lat = lats[k];
      const age = ages[k] + 1;
      const gx = field.gridX(lon);
      const gy = field.gridY(lat);
      field.sampleGridInto(gx, gy);
      const u1 = sampled[0];
      const v1 = sampled[1];
      field.sampleGridInto(field.wrapColumn(f32(gx + f32(kx * u1))), f32(gy + f32(ky * v1)));
      const u2 = sampled[0];
      const v2 = sampled[1];
      const dLon = f32(speedF * u2);
      const dLat = f32(speedF * v2);
      const newLon = wrapHalfTurn(lon + dLon);
      const newLat = lat + dLat;
      const rel = f32(wrapHalfTurn(newLon - centre));
      const relLat = f32(newLat - centerLat);
      if (age > maxAge || !(rel >= viewWest && rel <= viewEast && relLat >= viewSouth && relLat <= viewNorth)) {
        this.respawn(k, centre, centerLat, relWest, relEast, yTop, yBottom);
        continue;
      }
      lons[k] = newLon;
      lats[k] = newLat;
      ages[k] = age;
      const v = k * 4;
      vertices[v] = rel - dLon;
      vertices[v + 1] = relLat - dLat;
      vertices[v + 2] = rel;
      vertices[v + 3] = relLat;
    }
  }
}
