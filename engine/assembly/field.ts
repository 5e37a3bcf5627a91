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
 *                           Then 2 guard rows of NaN (stride x 2 nodes): the SIMD sampler reads
 *                           them for points outside the grid instead of branching (particles.ts).
 *   +60   u32  rowCos ---> f32[rows]: cos(latitude of each row), computed once by the wrapper
 *
 * Sampling a point: gx = (lon - lon0) / dlon, wrapped into [0, period) (one turn); gy =
 * (lat0 - lat) / dlat. Inside [0, stride - 1] x [0, rows - 1] the sample is the bilinear blend of
 * the 4 nodes around it (weights rounded to f32, arithmetic in f32); outside, or when any of the
 * 4 nodes is NaN, it is NaN. engine/reference.ts repeats these operations in the same order.
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

/**
 * V of the last scalarSample: AssemblyScript returns one value, and this keeps the scalar sampler
 * free of memory traffic. Read it right after the call.
 */
export let sampledV: f64 = 0;

/**
 * Scalar bilinear sample; returns U and leaves V in sampledV (both NaN outside the grid or next
 * to a NaN node). The arguments are the field descriptor, hoisted by the caller out of its loop.
 */
@inline export function scalarSample(
  nodes: usize, stride: i32, rows: i32,
  lon0: f64, lat0: f64, invDlon: f64, invDlat: f64, period: f64, invPeriod: f64,
  lon: f64, lat: f64,
): f64 {
  let gx = (lon - lon0) * invDlon;
  gx = gx - period * Math.floor(gx * invPeriod);
  const gy = (lat0 - lat) * invDlat;
  if (!(gx >= 0 && gx <= <f64>(stride - 1) && gy >= 0 && gy <= <f64>(rows - 1))) {
    sampledV = NaN;
    return NaN;
  }
  // Clamped so that the east column and the south row themselves are sampled from the cell before.
  const i = min(<i32>gx, stride - 2);
  const j = min(<i32>gy, rows - 2);
  const wx = <f32>(gx - <f64>i);
  const wy = <f32>(gy - <f64>j);
  const p = nodes + (<usize>(j * stride + i) << 3);
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
  sampledV = <f64>(vw + wx * (ve - vw));
  return <f64>(uw + wx * (ue - uw));
}

/** Samples the field at one point and writes f64 [U, V] to `out`. */
export function fieldSample(field: usize, lon: f64, lat: f64, out: usize): void {
  const u = scalarSample(
    fieldNodes(field), fieldStride(field), fieldRows(field),
    fieldLon0(field), fieldLat0(field), fieldInvDlon(field), fieldInvDlat(field),
    fieldPeriod(field), fieldInvPeriod(field), lon, lat,
  );
  store<f64>(out, u, 0);
  store<f64>(out, sampledV, 8);
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
