/*
 * Bilinear regridding of a decoded model field onto a regular lon/lat grid (a data tile of the
 * pyramid, a native-resolution store grid, the point-series grid), and the quantizer that turns
 * the result into a data tile's 16-bit q (common/tile.ts). Used by the server's ingest and by the
 * browser worker for GRIB files dropped on the map.
 *
 *   job: a descriptor written by the wrapper (engine/regrid.ts), little-endian
 *   +0   f64  srcLon0    longitude of source column 0 (any frame: 0 or -180 ...)
 *   +8   f64  srcDlon    column spacing, > 0, columns go east
 *   +16  f64  srcLat0    latitude of source row 0 (regular rows)
 *   +24  f64  srcDlat    row spacing, > 0, rows go south (regular rows)
 *   +32  f64  dstLon0    longitude of target column 0
 *   +40  f64  dstDlon    > 0
 *   +48  f64  dstLat0    latitude of target row 0
 *   +56  f64  dstDlat    > 0, rows go south
 *   +64  i32  ni         source columns (>= 2)
 *   +68  i32  nj         source rows (>= 2)
 *   +72  i32  nx         target columns
 *   +76  i32  ny         target rows
 *   +80  i32  flags      bit 0 WRAP: the source goes all the way round (ni * srcDlon = 360), so
 *                        the cell east of the last column is (ni-1, 0);
 *                        bit 1 CLAMP_ROWS: latitudes beyond the first / last source row take
 *                        that row (global grids whose rows stop short of the poles: Gaussian,
 *                        cell-centred); without it they are outside
 *   +84  u32  src  ----> f32[nj * ni], row-major, row 0 north, NaN = missing (engine/grib toNorthUp)
 *   +88  u32  lats ----> f64[nj], latitude of each source row, descending (Gaussian grids);
 *                        0 = regular rows from srcLat0 / srcDlat
 *   +92  u32  dst  ----> f32[ny * nx], row-major, row 0 north
 *   +96  u32  scratch -> i32 c0[nx] | i32 c1[nx] | f64 wx[nx] | i32 r0[ny] | f64 wy[ny]
 *                        (r0 / c0 = -1: outside the source)
 *
 * A target node takes the 4 source nodes around it with bilinear weights, as the tile sampler
 * (workers/tiles/sample.ts) and the raster shader do with missing nodes: NaN nodes are skipped and
 * the others' weights renormalised; fewer than 2 valid nodes give NaN (SPEC §5). Arithmetic is f64,
 * the result is stored as f32; engine/regrid.ts regridBilinearReference repeats it operation for
 * operation, so the two agree bit for bit (the SIMD paths here too: same operations, same order).
 */

export const JOB_SRC_LON0: usize = 0;
export const JOB_SRC_DLON: usize = 8;
export const JOB_SRC_LAT0: usize = 16;
export const JOB_SRC_DLAT: usize = 24;
export const JOB_DST_LON0: usize = 32;
export const JOB_DST_DLON: usize = 40;
export const JOB_DST_LAT0: usize = 48;
export const JOB_DST_DLAT: usize = 56;
export const JOB_NI: usize = 64;
export const JOB_NJ: usize = 68;
export const JOB_NX: usize = 72;
export const JOB_NY: usize = 76;
export const JOB_FLAGS: usize = 80;
export const JOB_SRC: usize = 84;
export const JOB_LATS: usize = 88;
export const JOB_DST: usize = 92;
export const JOB_SCRATCH: usize = 96;

const WRAP: i32 = 1;
const CLAMP_ROWS: i32 = 2;
/** Tolerance, in source cells, for a target node on the source grid's edge. */
const EDGE: f64 = 1e-6;

/** Column tables: for each target column, the two source columns and the weight of the second. */
function columnTable(job: usize, c0: usize, c1: usize, wx: usize): void {
  const ni = load<i32>(job, JOB_NI);
  const nx = load<i32>(job, JOB_NX);
  const wrap = (load<i32>(job, JOB_FLAGS) & WRAP) != 0;
  const srcLon0 = load<f64>(job, JOB_SRC_LON0);
  const srcDlon = load<f64>(job, JOB_SRC_DLON);
  const dstLon0 = load<f64>(job, JOB_DST_LON0);
  const dstDlon = load<f64>(job, JOB_DST_DLON);
  const turn = 360.0 / srcDlon;
  const last = <f64>(ni - 1);
  for (let i = 0; i < nx; i++) {
    let x = dstLon0 + <f64>i * dstDlon - srcLon0;
    x -= 360.0 * Math.floor(x / 360.0);
    let gx = x / srcDlon;
    let a: i32 = -1;
    let b: i32 = -1;
    let w: f64 = 0;
    if (wrap) {
      let cell = Math.floor(gx);
      w = gx - cell;
      a = <i32>cell;
      if (a >= ni) a -= ni;
      b = a + 1 == ni ? 0 : a + 1;
    } else {
      // East of the last column: perhaps just west of column 0 once a turn is taken off.
      if (gx > last + EDGE && gx - turn >= -EDGE) gx = Math.max(0.0, gx - turn);
      if (gx <= last + EDGE) {
        gx = Math.min(gx, last);
        const cell = Math.min(Math.floor(gx), last - 1.0);
        a = <i32>cell;
        b = a + 1;
        w = gx - cell;
      }
    }
    store<i32>(c0 + (<usize>i << 2), a);
    store<i32>(c1 + (<usize>i << 2), b);
    store<f64>(wx + (<usize>i << 3), w);
  }
}

/** Row tables: for each target row, the source row above it and the weight of the row below. */
function rowTable(job: usize, r0: usize, wy: usize): void {
  const nj = load<i32>(job, JOB_NJ);
  const ny = load<i32>(job, JOB_NY);
  const clamp = (load<i32>(job, JOB_FLAGS) & CLAMP_ROWS) != 0;
  const lats = <usize>load<u32>(job, JOB_LATS);
  const srcLat0 = load<f64>(job, JOB_SRC_LAT0);
  const srcDlat = load<f64>(job, JOB_SRC_DLAT);
  const dstLat0 = load<f64>(job, JOB_DST_LAT0);
  const dstDlat = load<f64>(job, JOB_DST_DLAT);
  const last = <f64>(nj - 1);
  let search: i32 = 0;
  for (let j = 0; j < ny; j++) {
    const lat = dstLat0 - <f64>j * dstDlat;
    let gy: f64;
    if (lats == 0) {
      gy = (srcLat0 - lat) / srcDlat;
    } else {
      // Descending latitudes. Target rows go south, so the search only moves on.
      const first = load<f64>(lats);
      const end = load<f64>(lats + (<usize>(nj - 1) << 3));
      if (lat > first) {
        gy = -(lat - first) / (first - load<f64>(lats, 8));
      } else if (lat < end) {
        gy = last + (end - lat) / (load<f64>(lats + (<usize>(nj - 2) << 3)) - end);
      } else {
        while (search < nj - 2 && load<f64>(lats + (<usize>(search + 1) << 3)) >= lat) search++;
        const above = load<f64>(lats + (<usize>search << 3));
        const below = load<f64>(lats + (<usize>(search + 1) << 3));
        gy = <f64>search + (above - lat) / (above - below);
      }
    }
    let a: i32 = -1;
    let w: f64 = 0;
    if ((gy >= -EDGE && gy <= last + EDGE) || clamp) {
      gy = Math.min(Math.max(gy, 0.0), last);
      const cell = Math.min(Math.floor(gy), last - 1.0);
      a = <i32>cell;
      w = gy - cell;
    }
    store<i32>(r0 + (<usize>j << 2), a);
    store<f64>(wy + (<usize>j << 3), w);
  }
}

@inline function isNaN64(v: f64): bool {
  return v != v;
}

/** Bilinear over the 4 nodes, skipping NaN nodes (fewer than 2 valid: NaN). */
@inline function blend4(a: f64, b: f64, c: f64, d: f64, wx: f64, wy: f64): f64 {
  if (!(isNaN64(a) || isNaN64(b) || isNaN64(c) || isNaN64(d))) {
    return (a * (1.0 - wx) + b * wx) * (1.0 - wy) + (c * (1.0 - wx) + d * wx) * wy;
  }
  return blendMissing(a, b, c, d, wx, wy);
}

function blendMissing(a: f64, b: f64, c: f64, d: f64, wx: f64, wy: f64): f64 {
  const wa = (1.0 - wx) * (1.0 - wy);
  const wb = wx * (1.0 - wy);
  const wc = (1.0 - wx) * wy;
  const wd = wx * wy;
  let count = 0;
  let sum: f64 = 0;
  let weight: f64 = 0;
  let first: f64 = NaN;
  if (!isNaN64(a)) { count++; sum += a * wa; weight += wa; first = a; }
  if (!isNaN64(b)) { count++; sum += b * wb; weight += wb; if (isNaN64(first)) first = b; }
  if (!isNaN64(c)) { count++; sum += c * wc; weight += wc; if (isNaN64(first)) first = c; }
  if (!isNaN64(d)) { count++; sum += d * wd; weight += wd; if (isNaN64(first)) first = d; }
  if (count < 2) return NaN;
  return weight > 0 ? sum / weight : first;
}

/** One target node (column i of the rows `above` / `below`), the scalar path. */
@inline function regridNode(above: usize, below: usize, c0: usize, c1: usize, wx: usize, i: i32, w: f64, w1: f64): f64 {
  const a = load<i32>(c0 + (<usize>i << 2));
  if (a < 0) return NaN;
  const b = load<i32>(c1 + (<usize>i << 2));
  const oa = <usize>a << 2;
  const ob = <usize>b << 2;
  const va = <f64>load<f32>(above + oa);
  const vb = <f64>load<f32>(above + ob);
  const vc = <f64>load<f32>(below + oa);
  const vd = <f64>load<f32>(below + ob);
  const x = load<f64>(wx + (<usize>i << 3));
  const x1 = 1.0 - x;
  // blend4's first case; a NaN result means a missing node (or infinities): blend4 decides.
  const value = (va * x1 + vb * x) * w1 + (vc * x1 + vd * x) * w;
  return value != value ? blend4(va, vb, vc, vd, x, w) : value;
}

/**
 * The kernel. Target nodes go two at a time through f64x2 lanes doing blend4's operations in
 * blend4's order (so the same f64, the same f32); a pair with a node outside the source or a NaN
 * result goes through the scalar path instead.
 */
export function regridBilinear(job: usize): void {
  const ni = load<i32>(job, JOB_NI);
  const nx = load<i32>(job, JOB_NX);
  const ny = load<i32>(job, JOB_NY);
  const src = <usize>load<u32>(job, JOB_SRC);
  const dst = <usize>load<u32>(job, JOB_DST);
  const scratch = <usize>load<u32>(job, JOB_SCRATCH);
  const c0 = scratch;
  const c1 = c0 + (<usize>nx << 2);
  const wx = c1 + (<usize>nx << 2);
  const r0 = wx + (<usize>nx << 3);
  const wy = r0 + (<usize>ny << 2);
  columnTable(job, c0, c1, wx);
  rowTable(job, r0, wy);
  const rowBytes = <usize>ni << 2;
  const one = f64x2.splat(1.0);
  for (let j = 0; j < ny; j++) {
    const out = dst + (<usize>(j * nx) << 2);
    const row = load<i32>(r0 + (<usize>j << 2));
    if (row < 0) {
      for (let i = 0; i < nx; i++) store<f32>(out + (<usize>i << 2), NaN);
      continue;
    }
    const w = load<f64>(wy + (<usize>j << 3));
    const w1 = 1.0 - w;
    const wv = f64x2.splat(w);
    const w1v = f64x2.splat(w1);
    const above = src + <usize>row * rowBytes;
    const below = above + rowBytes;
    let i = 0;
    for (; i + 2 <= nx; i += 2) {
      const o = out + (<usize>i << 2);
      const a0 = load<i32>(c0 + (<usize>i << 2));
      const a1 = load<i32>(c0 + (<usize>i << 2), 4);
      if ((a0 | a1) >= 0) {
        const b0 = load<i32>(c1 + (<usize>i << 2));
        const b1 = load<i32>(c1 + (<usize>i << 2), 4);
        // f32 lanes [a(i), a(i+1), b(i), b(i+1)] of the row above, and of the row below.
        let up = v128.load32_zero(above + (<usize>a0 << 2));
        up = v128.load32_lane(above + (<usize>a1 << 2), up, 1);
        up = v128.load32_lane(above + (<usize>b0 << 2), up, 2);
        up = v128.load32_lane(above + (<usize>b1 << 2), up, 3);
        let down = v128.load32_zero(below + (<usize>a0 << 2));
        down = v128.load32_lane(below + (<usize>a1 << 2), down, 1);
        down = v128.load32_lane(below + (<usize>b0 << 2), down, 2);
        down = v128.load32_lane(below + (<usize>b1 << 2), down, 3);
        const x = v128.load(wx + (<usize>i << 3));
        const x1 = f64x2.sub(one, x);
        const top = f64x2.add(f64x2.mul(f64x2.promote_low_f32x4(up), x1), f64x2.mul(f64x2.promote_low_f32x4(i64x2.shuffle(up, up, 1, 1)), x));
        const bottom = f64x2.add(f64x2.mul(f64x2.promote_low_f32x4(down), x1), f64x2.mul(f64x2.promote_low_f32x4(i64x2.shuffle(down, down, 1, 1)), x));
        const value = f64x2.add(f64x2.mul(top, w1v), f64x2.mul(bottom, wv));
        if (!v128.any_true(f64x2.ne(value, value))) {
          v128.store64_lane(o, f32x4.demote_f64x2_zero(value), 0);
          continue;
        }
      }
      store<f32>(o, <f32>regridNode(above, below, c0, c1, wx, i, w, w1));
      store<f32>(o, <f32>regridNode(above, below, c0, c1, wx, i + 1, w, w1), 4);
    }
    if (i < nx) store<f32>(out + (<usize>i << 2), <f32>regridNode(above, below, c0, c1, wx, i, w, w1));
  }
}

/**
 * The nearest-node kernel, for class fields (precipitation type codes, index levels: SPEC §3 colour
 * scale `qualitative`), whose codes must never be blended into codes that are not there: a target
 * node takes the value of the nearest of the 4 source nodes around it (a weight of exactly 0.5 goes
 * to the second node), NaN included. The same column and row tables as regridBilinear, so a node
 * inside the source for one kernel is inside for the other; engine/regrid.ts
 * regridNearestReference repeats it.
 */
export function regridNearest(job: usize): void {
  const ni = load<i32>(job, JOB_NI);
  const nx = load<i32>(job, JOB_NX);
  const ny = load<i32>(job, JOB_NY);
  const src = <usize>load<u32>(job, JOB_SRC);
  const dst = <usize>load<u32>(job, JOB_DST);
  const scratch = <usize>load<u32>(job, JOB_SCRATCH);
  const c0 = scratch;
  const c1 = c0 + (<usize>nx << 2);
  const wx = c1 + (<usize>nx << 2);
  const r0 = wx + (<usize>nx << 3);
  const wy = r0 + (<usize>ny << 2);
  columnTable(job, c0, c1, wx);
  rowTable(job, r0, wy);
  const rowBytes = <usize>ni << 2;
  for (let j = 0; j < ny; j++) {
    const out = dst + (<usize>(j * nx) << 2);
    const row = load<i32>(r0 + (<usize>j << 2));
    if (row < 0) {
      for (let i = 0; i < nx; i++) store<f32>(out + (<usize>i << 2), NaN);
      continue;
    }
    const line = src + <usize>(load<f64>(wy + (<usize>j << 3)) < 0.5 ? row : row + 1) * rowBytes;
    for (let i = 0; i < nx; i++) {
      const a = load<i32>(c0 + (<usize>i << 2));
      if (a < 0) {
        store<f32>(out + (<usize>i << 2), NaN);
        continue;
      }
      const column = load<f64>(wx + (<usize>i << 3)) < 0.5 ? a : load<i32>(c1 + (<usize>i << 2));
      store<f32>(out + (<usize>i << 2), load<f32>(line + (<usize>column << 2)));
    }
  }
}

const NO_DATA: i32 = 0xffff;
const Q_MAX: f64 = 65534;

/**
 * q of a data tile channel (common/tile.ts encodeDataTile with a fixed quantization, which this
 * repeats operation for operation): q = round((v - offset) / scale) clamped to 0..65534, 65535
 * for NaN or infinite; with predictor 1 each row keeps its first q and then q[i] - q[i-1] mod 2^16.
 *
 *   src  f32[width * height], row 0 north      dst  u16[width * height], little-endian
 *   offset, scale: the f32 values the tile header carries, widened to f64 (scale > 0)
 *
 * Eight nodes at a time in f64x2 lanes (the same f64 operations as the scalar tail, so the same
 * q), the row's last width % 8 nodes one by one.
 */
export function quantizeRows(src: usize, width: i32, height: i32, offset: f64, scale: f64, predictor: i32, dst: usize): void {
  // Dividing by a power of two is multiplying by its reciprocal, exactly: the usual case (every
  // catalogue quantization), and several times faster than the division.
  if ((reinterpret<u64>(scale) & 0x000fffffffffffff) == 0) quantizeBy(src, width, height, offset, 1.0 / scale, true, predictor, dst);
  else quantizeBy(src, width, height, offset, scale, false, predictor, dst);
}

/** q of one node: the scalar path. */
@inline function quantizeOne(v: f64, offset: f64, factor: f64, multiply: bool): i32 {
  if (v - v != 0) return NO_DATA;
  const x = multiply ? (v - offset) * factor : (v - offset) / factor;
  // Math.round as JavaScript rounds: half-way goes up; x - floor(x) is exact below 2^52.
  let r = Math.floor(x);
  if (x - r >= 0.5) r += 1.0;
  return <i32>Math.min(Q_MAX, Math.max(0.0, r));
}

/**
 * q of two nodes (f64x2 of (v - offset) / scale) as i32x4 [q0, q1, 0, 0]: floor, half-way up,
 * clamp to 0..Q_MAX. pmax / pmin are the plain compares of Math.max / Math.min here: a NaN x only
 * comes from a NaN or infinite value, whose q the caller replaces with NO_DATA.
 */
@inline function quantizePair(x: v128, half: v128, one: v128, zero: v128, qMax: v128): v128 {
  let r = f64x2.floor(x);
  r = f64x2.add(r, v128.and(f64x2.ge(f64x2.sub(x, r), half), one));
  return i32x4.trunc_sat_f64x2_s_zero(f64x2.pmin(qMax, f64x2.pmax(zero, r)));
}

@inline function scaledPair(v: v128, offset: v128, factor: v128, multiply: bool): v128 {
  const d = f64x2.sub(f64x2.promote_low_f32x4(v), offset);
  return multiply ? f64x2.mul(d, factor) : f64x2.div(d, factor);
}

@inline function quantizeBy(src: usize, width: i32, height: i32, offset: f64, factor: f64, multiply: bool, predictor: i32, dst: usize): void {
  const offsetV = f64x2.splat(offset);
  const factorV = f64x2.splat(factor);
  const half = f64x2.splat(0.5);
  const one = f64x2.splat(1.0);
  const zero = f64x2.splat(0.0);
  const qMax = f64x2.splat(Q_MAX);
  const zero4 = f32x4.splat(0);
  const delta = predictor == 1;
  for (let j = 0; j < height; j++) {
    const base = <usize>(j * width);
    // The previous chunk's q in lane 7 (0 before the row's first: its q is stored as it is).
    let previous = i16x8.splat(0);
    let i = 0;
    for (; i + 8 <= width; i += 8) {
      const k = base + <usize>i;
      const lo = v128.load(src + (k << 2));
      const hi = v128.load(src + (k << 2), 16);
      // v - v != 0: NaN or infinite, as i16 lanes of all ones.
      const bad = i16x8.narrow_i32x4_s(f32x4.ne(f32x4.sub(lo, lo), zero4), f32x4.ne(f32x4.sub(hi, hi), zero4));
      const q0 = quantizePair(scaledPair(lo, offsetV, factorV, multiply), half, one, zero, qMax);
      const q1 = quantizePair(scaledPair(i64x2.shuffle(lo, lo, 1, 1), offsetV, factorV, multiply), half, one, zero, qMax);
      const q2 = quantizePair(scaledPair(hi, offsetV, factorV, multiply), half, one, zero, qMax);
      const q3 = quantizePair(scaledPair(i64x2.shuffle(hi, hi, 1, 1), offsetV, factorV, multiply), half, one, zero, qMax);
      const q = v128.or(i16x8.narrow_i32x4_u(i64x2.shuffle(q0, q1, 0, 2), i64x2.shuffle(q2, q3, 0, 2)), bad);
      v128.store(dst + (k << 1), delta ? i16x8.sub(q, i16x8.shuffle(previous, q, 7, 8, 9, 10, 11, 12, 13, 14)) : q);
      previous = q;
    }
    let last: i32 = <i32>i16x8.extract_lane_u(previous, 7);
    for (; i < width; i++) {
      const k = base + <usize>i;
      const q = quantizeOne(<f64>load<f32>(src + (k << 2)), offset, factor, multiply);
      store<u16>(dst + (k << 1), <u16>(delta && i > 0 ? (q - last) & 0xffff : q));
      last = q;
    }
  }
}
