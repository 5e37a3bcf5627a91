/*
 * The particle field: a regular lon/lat grid of wind, blended from two decoded forecast steps,
 * with the northward component pre-multiplied by cos(latitude) so the particle step needs no trig.
 *
 *   field: one region, allocated and described by the wrapper (setFieldGrid)
 *   +0    f64  lon0        longitude of column 0, degrees (west edge node)
 *   +8    f64  lat0        latitude of row 0, degrees (north row)
 *   +16   f64  invDlon     1 / dlon (columns per degree)
 *   +24   f64  invDlat     1 / dlat (rows per degree; rows go south)
 *   +32   f64  period      columns per 360 degrees (nx when the grid is global in longitude)
 *   +40   f64  invPeriod   1 / period
 *   +48   i32  stride      columns stored per row: nx, plus the wrap column when global
 *   +52   i32  rows        ny
 *   +56   u32  nodes  ---> f32 [U, V] x stride x rows, row-major, row 0 north, 8 bytes per node:
 *                           U = u (m/s east), V = v * cos(latitude of the row) (m/s north * cos)
 *                           a global grid repeats column 0 as column nx (copied by fieldFinish),
 *                           so bilinear sampling never branches on the wrap.
 *   +60   u32  rowCos ---> f32[rows]: cos(latitude of each row), computed once by the wrapper
 *
 * Sampling a point, in every sampler (sampleGrid here, the SIMD one in particles.ts and
 * engine/reference.ts), operation for operation in f32 once the grid coordinates are formed:
 *   gx = f32 of the f64 (lon - lon0) * invDlon, wrapped into [0, period] by whole turns with
 *   f32 period and invPeriod (wrapColumn);
 *   gy = f32 of the f64 (lat0 - lat) * invDlat;
 *   cell (cx, cy) = floor, clamped to [0, stride - 2] x [0, rows - 2], so that the east column and
 *   the south row are sampled from the cell before them; weights wx = gx - cx, wy = gy - cy;
 *   inside [0, stride - 1] x [0, rows - 1] exactly when both weights are in [+0, 1] (the clamp
 *   pushes them out otherwise); then the bilinear blend of the 4 nodes around the point, down the
 *   column first, then across. Outside, or when any of the 4 nodes is NaN, the sample is NaN.
 * f32 grid coordinates are within 1e-4 of a cell at 2000 columns: nothing to a weight. Positions
 * stay f64 (particles.ts); only where the sample is taken is rounded.
 */

export const FIELD_LON0: usize = 0;
export const FIELD_LAT0: usize = 8;
export const FIELD_INV_DLON: usize = 16;
export const FIELD_INV_DLAT: usize = 24;
export const FIELD_PERIOD: usize = 32;
export const FIELD_INV_PERIOD: usize = 40;
export const FIELD_STRIDE: usize = 48;
export const FIELD_ROWS: usize = 52;
export const FIELD_NODES: usize = 56;
export const FIELD_ROW_COS: usize = 60;

/** Bytes per node: an interleaved f32 pair [U, V]. */
export const NODE_BYTES: i32 = 8;
const NODES_PER_VECTOR: i32 = 4;

@inline export function fieldLon0(field: usize): f64 {
  return load<f64>(field, FIELD_LON0);
}
@inline export function fieldLat0(field: usize): f64 {
  return load<f64>(field, FIELD_LAT0);
}
@inline export function fieldInvDlon(field: usize): f64 {
  return load<f64>(field, FIELD_INV_DLON);
}
@inline export function fieldInvDlat(field: usize): f64 {
  return load<f64>(field, FIELD_INV_DLAT);
}
@inline export function fieldPeriod(field: usize): f64 {
  return load<f64>(field, FIELD_PERIOD);
}
@inline export function fieldInvPeriod(field: usize): f64 {
  return load<f64>(field, FIELD_INV_PERIOD);
}
@inline export function fieldStride(field: usize): i32 {
  return load<i32>(field, FIELD_STRIDE);
}
@inline export function fieldRows(field: usize): i32 {
  return load<i32>(field, FIELD_ROWS);
}
@inline export function fieldNodes(field: usize): usize {
  return load<u32>(field, FIELD_NODES);
}
@inline export function fieldRowCos(field: usize): usize {
  return load<u32>(field, FIELD_ROW_COS);
}

/** Bits of f32 1.0: a weight w is in [+0, 1] exactly when its bits, unsigned, are at most these. */
export const ONE_BITS: u32 = 0x3f800000;

/**
 * A column coordinate into [0, period] by whole turns (any number of them). The floor rounds in
 * f32, so a point within one f32 step of a turn can land a hair outside [0, period]; the clamp
 * puts it on the edge it is a hair from (0 and period are the same meridian). The two selects are
 * f32x4.pmax(w, 0) and f32x4.pmin(w, period) lane for lane, which keep NaN.
 */
@inline export function wrapColumn(gx: f32, period: f32, invPeriod: f32): f32 {
  const w = gx - period * floor<f32>(gx * invPeriod);
  const a = w < 0 ? <f32>0 : w;
  return period < a ? period : a;
}

/** Column coordinate of a longitude: f32 of the f64 (lon - lon0) * invDlon, wrapped. */
@inline export function gridX(lon: f64, lon0: f64, invDlon: f64, period: f32, invPeriod: f32): f32 {
  return wrapColumn(<f32>((lon - lon0) * invDlon), period, invPeriod);
}

/** Row coordinate of a latitude: f32 of the f64 (lat0 - lat) * invDlat (rows go south). */
@inline export function gridY(lat: f64, lat0: f64, invDlat: f64): f32 {
  return <f32>((lat0 - lat) * invDlat);
}

/**
 * Cell column (row) of a coordinate: floor, clamped to [0, maxCell] so that the east column
 * (south row) itself is sampled from the cell before it and every read stays inside the nodes.
 * The selects are f32x4.pmin(maxCell, f) and f32x4.pmax(0, m) lane for lane: NaN gives maxCell.
 */
@inline export function cellOf(g: f32, maxCell: f32): f32 {
  const f = floor<f32>(g);
  const m = f < maxCell ? f : maxCell;
  return <f32>0 < m ? m : <f32>0;
}

/**
 * V of the last sampleGrid: AssemblyScript returns one value, and this keeps the scalar sampler
 * free of memory traffic. Read it right after the call.
 */
export let sampledV: f32 = 0;

/**
 * Scalar bilinear sample at grid coordinates (gx wrapped, gy); returns U and leaves V in sampledV,
 * both NaN outside the grid or next to a NaN node. The same operations as the SIMD sampler
 * (particles.ts), lane for lane.
 */
@inline export function sampleGrid(nodes: usize, stride: i32, maxCellX: f32, maxCellY: f32, gx: f32, gy: f32): f32 {
  const cx = cellOf(gx, maxCellX);
  const cy = cellOf(gy, maxCellY);
  const wx = gx - cx;
  const wy = gy - cy;
  // Inside the grid exactly when both weights are in [+0, 1] (the cell clamp pushes them out
  // otherwise); a NaN coordinate fails too.
  if (reinterpret<u32>(wx) > ONE_BITS || reinterpret<u32>(wy) > ONE_BITS) {
    sampledV = NaN;
    return NaN;
  }
  const p = nodes + (<usize>(<i32>cy * stride + <i32>cx) << 3);
  const q = p + (<usize>stride << 3);
  const u00 = load<f32>(p, 0);
  const v00 = load<f32>(p, 4);
  const u10 = load<f32>(p, 8);
  const v10 = load<f32>(p, 12);
  const u01 = load<f32>(q, 0);
  const v01 = load<f32>(q, 4);
  const u11 = load<f32>(q, 8);
  const v11 = load<f32>(q, 12);
  // Down the column first, then across, as the SIMD sampler does (particles.ts).
  const uw = u00 + wy * (u01 - u00);
  const ue = u10 + wy * (u11 - u10);
  const vw = v00 + wy * (v01 - v00);
  const ve = v10 + wy * (v11 - v10);
  sampledV = vw + wx * (ve - vw);
  return uw + wx * (ue - uw);
}

/** Samples the field at one point and writes f64 [U, V] to `out`. */
export function fieldSample(field: usize, lon: f64, lat: f64, out: usize): void {
  const period = <f32>fieldPeriod(field);
  const stride = fieldStride(field);
  const u = sampleGrid(
    fieldNodes(field), stride, <f32>(stride - 2), <f32>(fieldRows(field) - 2),
    gridX(lon, fieldLon0(field), fieldInvDlon(field), period, <f32>fieldInvPeriod(field)),
    gridY(lat, fieldLat0(field), fieldInvDlat(field)),
  );
  store<f64>(out, <f64>u, 0);
  store<f64>(out, <f64>sampledV, 8);
}

/**
 * out[i] = a[i] * (1 - t) + b[i] * t in f32, 4 lanes at a time. This form (not a + t * (b - a))
 * gives a exactly at t = 0 and b exactly at t = 1. A NaN in either input gives NaN.
 */
export function blend(a: usize, b: usize, t: f32, out: usize, n: i32): void {
  const s: f32 = 1 - t;
  const sv = f32x4.splat(s);
  const tv = f32x4.splat(t);
  let i = 0;
  for (; i + NODES_PER_VECTOR <= n; i += NODES_PER_VECTOR) {
    const o = <usize>i << 2;
    v128.store(out + o, f32x4.add(f32x4.mul(v128.load(a + o), sv), f32x4.mul(v128.load(b + o), tv)));
  }
  for (; i < n; i++) {
    const o = <usize>i << 2;
    store<f32>(out + o, load<f32>(a + o) * s + load<f32>(b + o) * t);
  }
}

/**
 * Blends tile a (earlier step) and b (later step) at t and writes them into the field with tile
 * node (0, 0) at field column x, row y, clipped to the field: U = u, V = v * cos(row latitude).
 * a0/a1 and b0/b1 are the u and v channel blocks of the two tiles (same width and height).
 */
export function fieldWriteTile(
  field: usize, a0: usize, a1: usize, b0: usize, b1: usize, t: f32,
  tileWidth: i32, tileHeight: i32, x: i32, y: i32,
): void {
  const stride = fieldStride(field);
  const rows = fieldRows(field);
  const nodes = fieldNodes(field);
  const rowCos = fieldRowCos(field);
  const c0 = max(0, -x);
  const c1 = min(tileWidth, stride - x);
  const r0 = max(0, -y);
  const r1 = min(tileHeight, rows - y);
  if (c0 >= c1 || r0 >= r1) return;
  const n = c1 - c0;
  const s: f32 = 1 - t;
  const sv = f32x4.splat(s);
  const tv = f32x4.splat(t);
  for (let r = r0; r < r1; r++) {
    const cosRow = load<f32>(rowCos + (<usize>(y + r) << 2));
    const cv = f32x4.splat(cosRow);
    const src = <usize>(r * tileWidth + c0) << 2;
    const dst = nodes + (<usize>((y + r) * stride + x + c0) << 3);
    let i = 0;
    for (; i + NODES_PER_VECTOR <= n; i += NODES_PER_VECTOR) {
      const o = src + (<usize>i << 2);
      const u = f32x4.add(f32x4.mul(v128.load(a0 + o), sv), f32x4.mul(v128.load(b0 + o), tv));
      const v = f32x4.mul(f32x4.add(f32x4.mul(v128.load(a1 + o), sv), f32x4.mul(v128.load(b1 + o), tv)), cv);
      const d = dst + (<usize>i << 3);
      v128.store(d, f32x4.shuffle(u, v, 0, 4, 1, 5));
      v128.store(d, f32x4.shuffle(u, v, 2, 6, 3, 7), 16);
    }
    for (; i < n; i++) {
      const o = src + (<usize>i << 2);
      const d = dst + (<usize>i << 3);
      store<f32>(d, load<f32>(a0 + o) * s + load<f32>(b0 + o) * t, 0);
      store<f32>(d, (load<f32>(a1 + o) * s + load<f32>(b1 + o) * t) * cosRow, 4);
    }
  }
}

/** Copies column 0 into the wrap column of a global field (no-op when the grid is not global). */
export function fieldFinish(field: usize): void {
  const stride = fieldStride(field);
  // Global grids store one turn of columns plus the wrap column; regional ones have no wrap column.
  if (fieldPeriod(field) != <f64>(stride - 1)) return;
  const rows = fieldRows(field);
  const nodes = fieldNodes(field);
  const rowBytes = <usize>stride << 3;
  const last = <usize>(stride - 1) << 3;
  for (let j = 0; j < rows; j++) {
    const row = nodes + <usize>j * rowBytes;
    store<u64>(row + last, load<u64>(row));
  }
}
