/**
 * Bilinear regridding onto regular lon/lat grids (engine/assembly/regrid.ts), nearest-node
 * regridding for class fields (codes are never blended: Sampling), and the tile quantizer, wrapped for the server's ingest and the browser worker. Node and browser alike: no
 * Node APIs.
 *
 *   const regridder = new Regridder(engine);
 *   regridder.load(field.values, sourceGridOf(field));      // one copy into WASM memory
 *   regridder.regrid(tileGrid);                              // f32 view, rows north -> south
 *   regridder.quantize(quantization, Predictor.RowDelta);    // u16 view of the last result
 *   regridder.release();
 *
 *   linear memory regions owned by a Regridder (allocated from the engine, released by release()):
 *   source  f32[nj * ni] + f64[nj] Gaussian latitudes     grown by load()
 *   target  f32[ny * nx] result | u16[ny * nx] q            grown by regrid()
 *   scratch i32 c0[nx] | i32 c1[nx] | f64 wx[nx] | i32 r0[ny] | f64 wy[ny], and the 100-byte job
 *
 * Every Float32Array / Uint16Array returned is a view into linear memory, good until the next call
 * on this Regridder or on the engine that may allocate (engine.ts: memory.grow detaches views).
 */

import type { Engine } from './engine.ts';

/** A decoded field's grid, as engine/grib toNorthUp lays it out: rows north -> south, columns west -> east. */
export interface SourceGrid {
  ni: number;
  nj: number;
  /** Longitude of column 0 (any frame) and the column spacing, degrees. */
  lon0: number;
  dLon: number;
  /** Latitude of row 0 and the row spacing going south (regular rows), degrees. */
  lat0: number;
  dLat: number;
  /** Gaussian grids: the latitude of every row, descending. */
  latitudes?: Float64Array;
  /** The columns go all the way round: ni * dLon = 360. */
  global: boolean;
  /**
   * Latitudes north of the first row / south of the last take that row. Default: a global grid
   * whose rows stop within 1.5 row spacings of the poles (Gaussian, cell-centred); otherwise such
   * points are outside the grid (NaN).
   */
  clampRows?: boolean;
}

/** A regular target grid: node (i, j) at lon0 + i * dLon, lat0 - j * dLat. */
export interface TargetGrid {
  nx: number;
  ny: number;
  lon0: number;
  dLon: number;
  lat0: number;
  dLat: number;
}

/**
 * How a target node takes its value: `bilinear` from the 4 source nodes around it, `nearest` the
 * nearest one's value as it is (class fields: SPEC §3 colour scale `qualitative`, METRICS' `classes`).
 */
export type Sampling = 'bilinear' | 'nearest';

export interface Quantization {
  offset: number;
  scale: number;
}

/** The raw exports this file uses (bindings: raw; pointers are byte offsets). */
interface RegridExports {
  regridBilinear(job: number): void;
  regridNearest(job: number): void;
  quantizeRows(src: number, width: number, height: number, offset: number, scale: number, predictor: number, dst: number): void;
}

const JOB_BYTES = 100;
const FLAG_WRAP = 1;
const FLAG_CLAMP_ROWS = 2;
/** Largest grids we agree to regrid: 64 Mi source nodes (a 0.025° global grid), 16 Mi target nodes. */
const MAX_SOURCE_NODES = 1 << 26;
const MAX_TARGET_NODES = 1 << 24;

export class RegridError extends Error {
  override name = 'RegridError';
}

function lastLatitude(grid: SourceGrid): number {
  return grid.latitudes ? grid.latitudes[grid.nj - 1] : grid.lat0 - (grid.nj - 1) * grid.dLat;
}

/** Whether rows beyond the first / last source row take that row (see SourceGrid.clampRows). */
export function clampsRows(grid: SourceGrid): boolean {
  if (grid.clampRows !== undefined) return grid.clampRows;
  if (!grid.global) return false;
  const first = grid.latitudes ? grid.latitudes[0] : grid.lat0;
  const spacing = Math.abs(first - lastLatitude(grid)) / (grid.nj - 1);
  return 90 - first < 1.5 * spacing && lastLatitude(grid) + 90 < 1.5 * spacing;
}

/** The box a source grid covers: west..east in its own frame (east may pass 180), north, south. */
export function sourceBounds(grid: SourceGrid): { west: number; east: number; north: number; south: number } {
  const clamp = clampsRows(grid);
  const first = grid.latitudes ? grid.latitudes[0] : grid.lat0;
  return {
    west: grid.lon0,
    east: grid.global ? grid.lon0 + 360 : grid.lon0 + (grid.ni - 1) * grid.dLon,
    north: clamp ? 90 : first,
    south: clamp ? -90 : lastLatitude(grid),
  };
}

/** Checks a source grid; throws RegridError naming what is wrong. */
function validateSourceGrid(values: ArrayLike<number>, grid: SourceGrid): void {
  const { ni, nj, lon0, dLon, lat0, dLat, latitudes } = grid;
  if (!Number.isInteger(ni) || !Number.isInteger(nj) || ni < 2 || nj < 2) {
    throw new RegridError(`Source grid ${ni}x${nj} must be whole numbers of at least 2x2 nodes`);
  }
  if (ni * nj > MAX_SOURCE_NODES) throw new RegridError(`Source grid ${ni}x${nj} exceeds ${MAX_SOURCE_NODES} nodes`);
  if (values.length !== ni * nj) throw new RegridError(`${values.length} values for a ${ni}x${nj} source grid`);
  if (![lon0, dLon].every(Number.isFinite) || !(dLon > 0) || dLon * (ni - 1) > 360 + 1e-6) {
    throw new RegridError(`Source columns lon0 ${lon0}, dLon ${dLon} x ${ni} are not a west-to-east grid within one turn`);
  }
  if (grid.global && Math.abs(ni * dLon - 360) > 1e-6 * 360) {
    throw new RegridError(`A global source grid needs ni * dLon = 360, not ${ni} * ${dLon}`);
  }
  if (latitudes) {
    if (latitudes.length !== nj) throw new RegridError(`${latitudes.length} latitudes for ${nj} rows`);
    for (let j = 0; j < nj; j++) {
      if (!(latitudes[j] <= 90 && latitudes[j] >= -90) || (j > 0 && !(latitudes[j] < latitudes[j - 1]))) {
        throw new RegridError(`Source row latitudes must descend within ±90 (row ${j}: ${latitudes[j]})`);
      }
    }
  } else if (![lat0, dLat].every(Number.isFinite) || !(dLat > 0) || lat0 > 90 + 1e-9 || lat0 - (nj - 1) * dLat < -90 - 1e-9) {
    throw new RegridError(`Source rows lat0 ${lat0}, dLat ${dLat} x ${nj} must run north to south within ±90`);
  }
}

function validateTargetGrid(target: TargetGrid): void {
  const { nx, ny, lon0, dLon, lat0, dLat } = target;
  if (!Number.isInteger(nx) || !Number.isInteger(ny) || nx < 1 || ny < 1 || nx * ny > MAX_TARGET_NODES) {
    throw new RegridError(`Target grid ${nx}x${ny} must be whole numbers of 1..${MAX_TARGET_NODES} nodes`);
  }
  if (![lon0, dLon, lat0, dLat].every(Number.isFinite) || !(dLon > 0) || !(dLat > 0)) {
    throw new RegridError(`Target grid needs finite lon0, lat0 and positive dLon, dLat: ${JSON.stringify(target)}`);
  }
}

/** Bilinear (or nearest-node) regridding in WASM, reusing its memory across calls. */
export class Regridder {
  private readonly exports: RegridExports;
  private readonly memory: WebAssembly.Memory;
  private readonly alloc: (bytes: number) => number;
  private readonly free: (ptr: number) => void;
  private job = 0;
  private source = { ptr: 0, bytes: 0, lats: 0 };
  private target = { ptr: 0, bytes: 0, nodes: 0, width: 0, height: 0 };
  private scratch = { ptr: 0, bytes: 0 };
  private grid: SourceGrid | null = null;

  constructor(engine: Engine) {
    const { exports, memory, allocator } = engine.extension();
    const raw = exports as unknown as Partial<RegridExports>;
    if (typeof raw.regridBilinear !== 'function' || typeof raw.regridNearest !== 'function' || typeof raw.quantizeRows !== 'function') {
      throw new RegridError('The engine module has no regrid kernels: rebuild it with npm run build:engine');
    }
    this.exports = raw as RegridExports;
    this.memory = memory;
    this.alloc = (bytes) => allocator.alloc(bytes);
    this.free = (ptr) => allocator.release(ptr);
    this.job = this.alloc(JOB_BYTES);
  }

  /** Copies a field into WASM memory; later regrid calls read it. */
  load(values: Float32Array, grid: SourceGrid): void {
    this.requireLive();
    validateSourceGrid(values, grid);
    // f64 Gaussian latitudes after the f32 values, 8-byte aligned (the region itself is 16-aligned).
    const latsOffset = Math.ceil((values.length * 4) / 8) * 8;
    const bytes = latsOffset + (grid.latitudes ? grid.nj * 8 : 0);
    this.source.ptr = this.grow(this.source.ptr, this.source.bytes, bytes);
    this.source.bytes = Math.max(this.source.bytes, bytes);
    new Float32Array(this.memory.buffer, this.source.ptr, values.length).set(values);
    this.source.lats = grid.latitudes ? this.source.ptr + latsOffset : 0;
    if (grid.latitudes) new Float64Array(this.memory.buffer, this.source.lats, grid.nj).set(grid.latitudes);
    this.grid = { ...grid };
  }

  /** The loaded field at every node of `target`: a view, rows north -> south, NaN outside / missing. */
  regrid(target: TargetGrid, sampling: Sampling = 'bilinear'): Float32Array {
    this.requireLive();
    const grid = this.grid;
    if (!grid) throw new RegridError('No source field: call load first');
    validateTargetGrid(target);
    const nodes = target.nx * target.ny;
    const targetBytes = nodes * 6; // f32 result + u16 q
    this.target.ptr = this.grow(this.target.ptr, this.target.bytes, targetBytes);
    this.target.bytes = Math.max(this.target.bytes, targetBytes);
    this.target.nodes = nodes;
    this.target.width = target.nx;
    this.target.height = target.ny;
    const scratchBytes = target.nx * 16 + target.ny * 16;
    this.scratch.ptr = this.grow(this.scratch.ptr, this.scratch.bytes, scratchBytes);
    this.scratch.bytes = Math.max(this.scratch.bytes, scratchBytes);

    const job = new DataView(this.memory.buffer, this.job, JOB_BYTES);
    job.setFloat64(0, grid.lon0, true);
    job.setFloat64(8, grid.dLon, true);
    job.setFloat64(16, grid.lat0, true);
    job.setFloat64(24, grid.dLat, true);
    job.setFloat64(32, target.lon0, true);
    job.setFloat64(40, target.dLon, true);
    job.setFloat64(48, target.lat0, true);
    job.setFloat64(56, target.dLat, true);
    job.setInt32(64, grid.ni, true);
    job.setInt32(68, grid.nj, true);
    job.setInt32(72, target.nx, true);
    job.setInt32(76, target.ny, true);
    job.setInt32(80, (grid.global ? FLAG_WRAP : 0) | (clampsRows(grid) ? FLAG_CLAMP_ROWS : 0), true);
    job.setUint32(84, this.source.ptr, true);
    job.setUint32(88, this.source.lats, true);
    job.setUint32(92, this.target.ptr, true);
    job.setUint32(96, this.scratch.ptr, true);
    if (sampling === 'nearest') this.exports.regridNearest(this.job);
    else this.exports.regridBilinear(this.job);
    return new Float32Array(this.memory.buffer, this.target.ptr, nodes);
  }

  /**
   * Takes `values` (nx * ny, rows north -> south) as the last result, without regridding: for
   * quantizing a field on its own grid.
   */
  setResult(values: Float32Array, nx: number, ny: number): void {
    this.requireLive();
    const nodes = nx * ny;
    if (!Number.isInteger(nx) || !Number.isInteger(ny) || nx < 1 || ny < 1 || values.length !== nodes) {
      throw new RegridError(`${values.length} values for a ${nx}x${ny} grid`);
    }
    this.target.ptr = this.grow(this.target.ptr, this.target.bytes, nodes * 6);
    this.target.bytes = Math.max(this.target.bytes, nodes * 6);
    this.target.nodes = nodes;
    this.target.width = nx;
    this.target.height = ny;
    new Float32Array(this.memory.buffer, this.target.ptr, nodes).set(values);
  }

  /**
   * The q of the last regrid result, as common/tile.ts encodeDataTile computes them for a fixed
   * quantization (offset and scale are rounded to f32 first, as the tile header stores them),
   * with the row-delta predictor applied when asked. A view, little-endian u16.
   */
  quantize(quantization: Quantization, predictor: 0 | 1): Uint16Array {
    this.requireLive();
    if (!this.target.nodes) throw new RegridError('Nothing to quantize: call regrid first');
    const offset = Math.fround(quantization.offset);
    const scale = Math.fround(quantization.scale);
    if (!Number.isFinite(offset) || !(scale > 0) || !Number.isFinite(scale)) {
      throw new RegridError(`Quantization needs a finite offset and a positive scale, not ${offset}, ${scale}`);
    }
    const q = this.target.ptr + this.target.nodes * 4;
    this.exports.quantizeRows(this.target.ptr, this.target.width, this.target.height, offset, scale, predictor, q);
    return new Uint16Array(this.memory.buffer, q, this.target.nodes);
  }

  /** Gives the regions back to the engine; the Regridder cannot be used afterwards. */
  release(): void {
    for (const ptr of [this.source.ptr, this.target.ptr, this.scratch.ptr, this.job]) if (ptr) this.free(ptr);
    this.source = { ptr: 0, bytes: 0, lats: 0 };
    this.target = { ptr: 0, bytes: 0, nodes: 0, width: 0, height: 0 };
    this.scratch = { ptr: 0, bytes: 0 };
    this.job = 0;
    this.grid = null;
  }

  private requireLive(): void {
    if (!this.job) throw new RegridError('This Regridder was released');
  }

  /** A region of at least `bytes`: the old one if it is big enough, else a new one (the old is freed). */
  private grow(ptr: number, have: number, bytes: number): number {
    if (ptr && have >= bytes) return ptr;
    const next = this.alloc(bytes);
    if (ptr) this.free(ptr);
    return next;
  }
}

/** One-shot convenience: regrid `values` onto `target` and copy the result out. */
export function regridBilinear(engine: Engine, values: Float32Array, grid: SourceGrid, target: TargetGrid, sampling: Sampling = 'bilinear'): Float32Array {
  const regridder = new Regridder(engine);
  try {
    regridder.load(values, grid);
    return regridder.regrid(target, sampling).slice();
  } finally {
    regridder.release();
  }
}

// ------------------------------------------------------------------------------------------------
// Plain-TypeScript twin of the WASM kernel: the baseline for tests and benchmarks. Same f64
// arithmetic in the same order, so the results agree bit for bit.

const EDGE = 1e-6;

function columnTable(grid: SourceGrid, target: TargetGrid): { c0: Int32Array; c1: Int32Array; wx: Float64Array } {
  const { ni, lon0, dLon, global } = grid;
  const c0 = new Int32Array(target.nx);
  const c1 = new Int32Array(target.nx);
  const wx = new Float64Array(target.nx);
  const turn = 360 / dLon;
  const last = ni - 1;
  for (let i = 0; i < target.nx; i++) {
    let x = target.lon0 + i * target.dLon - lon0;
    x -= 360 * Math.floor(x / 360);
    let gx = x / dLon;
    let a = -1;
    let b = -1;
    let w = 0;
    if (global) {
      const cell = Math.floor(gx);
      w = gx - cell;
      a = cell;
      if (a >= ni) a -= ni;
      b = a + 1 === ni ? 0 : a + 1;
    } else {
      if (gx > last + EDGE && gx - turn >= -EDGE) gx = Math.max(0, gx - turn);
      if (gx <= last + EDGE) {
        gx = Math.min(gx, last);
        const cell = Math.min(Math.floor(gx), last - 1);
        a = cell;
        b = a + 1;
        w = gx - cell;
      }
    }
    c0[i] = a;
    c1[i] = b;
    wx[i] = w;
  }
  return { c0, c1, wx };
}

function rowTable(grid: SourceGrid, target: TargetGrid): { r0: Int32Array; wy: Float64Array } {
  const { nj, lat0, dLat, latitudes } = grid;
  const clamp = clampsRows(grid);
  const r0 = new Int32Array(target.ny);
  const wy = new Float64Array(target.ny);
  const last = nj - 1;
  let search = 0;
  for (let j = 0; j < target.ny; j++) {
    const lat = target.lat0 - j * target.dLat;
    let gy: number;
    if (!latitudes) {
      gy = (lat0 - lat) / dLat;
    } else {
      const first = latitudes[0];
      const end = latitudes[nj - 1];
      if (lat > first) {
        gy = -(lat - first) / (first - latitudes[1]);
      } else if (lat < end) {
        gy = last + (end - lat) / (latitudes[nj - 2] - end);
      } else {
        while (search < nj - 2 && latitudes[search + 1] >= lat) search++;
        const above = latitudes[search];
        const below = latitudes[search + 1];
        gy = search + (above - lat) / (above - below);
      }
    }
    let a = -1;
    let w = 0;
    if ((gy >= -EDGE && gy <= last + EDGE) || clamp) {
      gy = Math.min(Math.max(gy, 0), last);
      const cell = Math.min(Math.floor(gy), last - 1);
      a = cell;
      w = gy - cell;
    }
    r0[j] = a;
    wy[j] = w;
  }
  return { r0, wy };
}

function blendReference(a: number, b: number, c: number, d: number, wx: number, wy: number): number {
  if (!(Number.isNaN(a) || Number.isNaN(b) || Number.isNaN(c) || Number.isNaN(d))) {
    return (a * (1 - wx) + b * wx) * (1 - wy) + (c * (1 - wx) + d * wx) * wy;
  }
  const nodes: [number, number][] = [[a, (1 - wx) * (1 - wy)], [b, wx * (1 - wy)], [c, (1 - wx) * wy], [d, wx * wy]];
  let count = 0;
  let sum = 0;
  let weight = 0;
  let first = NaN;
  for (const [v, w] of nodes) {
    if (Number.isNaN(v)) continue;
    count++;
    sum += v * w;
    weight += w;
    if (Number.isNaN(first)) first = v;
  }
  if (count < 2) return NaN;
  return weight > 0 ? sum / weight : first;
}

/** The WASM kernel in plain TypeScript (tests, benchmarks, and hosts without the engine). */
export function regridBilinearReference(values: Float32Array, grid: SourceGrid, target: TargetGrid): Float32Array {
  validateSourceGrid(values, grid);
  validateTargetGrid(target);
  const { c0, c1, wx } = columnTable(grid, target);
  const { r0, wy } = rowTable(grid, target);
  const out = new Float32Array(target.nx * target.ny);
  const ni = grid.ni;
  for (let j = 0; j < target.ny; j++) {
    const row = r0[j];
    for (let i = 0; i < target.nx; i++) {
      const k = j * target.nx + i;
      if (row < 0 || c0[i] < 0) {
        out[k] = NaN;
        continue;
      }
      const above = row * ni;
      const below = above + ni;
      out[k] = blendReference(values[above + c0[i]], values[above + c1[i]], values[below + c0[i]], values[below + c1[i]], wx[i], wy[j]);
    }
  }
  return out;
}

/** The nearest-node kernel (engine/assembly/regrid.ts regridNearest) in plain TypeScript. */
export function regridNearestReference(values: Float32Array, grid: SourceGrid, target: TargetGrid): Float32Array {
  validateSourceGrid(values, grid);
  validateTargetGrid(target);
  const { c0, c1, wx } = columnTable(grid, target);
  const { r0, wy } = rowTable(grid, target);
  const out = new Float32Array(target.nx * target.ny);
  for (let j = 0; j < target.ny; j++) {
    const row = r0[j] < 0 ? -1 : wy[j] < 0.5 ? r0[j] : r0[j] + 1;
    for (let i = 0; i < target.nx; i++) {
      out[j * target.nx + i] = row < 0 || c0[i] < 0 ? NaN : values[row * grid.ni + (wx[i] < 0.5 ? c0[i] : c1[i])];
    }
  }
  return out;
}

/** The reference kernel of a sampling. */
export function regridReference(values: Float32Array, grid: SourceGrid, target: TargetGrid, sampling: Sampling = 'bilinear'): Float32Array {
  return sampling === 'nearest' ? regridNearestReference(values, grid, target) : regridBilinearReference(values, grid, target);
}
