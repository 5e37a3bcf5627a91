/*
 * Isolines: marching squares over a float32 grid, one level at a time, with the segments of each
 * level joined into polylines as they are found; and the candidates for H / L markers (nodes that
 * are the largest or smallest of the square around them).
 *
 *   job: a descriptor written by the wrapper (engine/engine.ts contour), little-endian
 *   +0   u32  values --> f32[ny * nx], row-major, row 0 north (the engine's tiles and fields),
 *                        NaN = missing: a cell with a NaN corner gives no segment
 *   +4   i32  nx         columns (>= 2)
 *   +8   i32  ny         rows (>= 2)
 *   +12  i32  flags      bit 0 WRAP: the columns go all the way round, the cell east of the last
 *                        column joins it to column 0 (cells: nx per row instead of nx - 1)
 *   +16  u32  cells  --> u8[(ny - 1) * ncx] per cell (i, j) of nodes (i, j) (i+1, j) (i+1, j+1)
 *                        (i, j+1): bits 0-3 the edges the level crosses and no line has taken yet
 *                        (0 top, 1 right, 2 bottom, 3 left), bit 4 PAIR_A for a saddle, bit 7
 *                        MISSING (a NaN corner). Every edge bit is 0 between two levels.
 *   +20  u32  lists  --> i32[total]: per level, the cells it crosses, in row-major order
 *   +24  u32  offsets -> i32[2 * (levelCount + 1)]: where each level's list starts (the last:
 *                        total), then the bucketing cursors
 *   +28  u32  points --> f32[2 * capacity] output vertices (x, y) in grid units: x = column,
 *                        y = row. With WRAP, x stays continuous along a line across the seam, so
 *                        it may leave [0, nx) by whole turns (x mod nx is the column).
 *   +32  i32  pointCount    vertices written so far (in / out)
 *   +36  u32  lines  --> i32[4 * capacity] output table, per polyline:
 *                        first vertex, vertex count, level index, flags
 *                        (bit 0 CLOSED; bit 1 / bit 2: a closed line around the globe, whose
 *                        vertex after the last is the first one turn east / west, x + nx / x - nx)
 *   +40  i32  lineCount     polylines written so far (in / out)
 *   +44  i32  smoothPasses  passes of the 1-2-1 filter over each polyline (0: the raw crossings)
 *   +48  u32  levels --> f64[levelCount], ascending
 *   +52  i32  levelCount
 *   +56  i32  levelIndex    the level isolinesClassify / isolinesTrace work on
 *
 * Calls: isolinesPrepare (one pass over the cells: marks the NaN cells, counts the cells each
 * level crosses: a cell crosses the levels L with min < L <= max of its corners; returns the
 * total), isolinesBucket (a second pass: the lists), then per level isolinesClassify (the states
 * of the level's cells; returns a bound on its vertices: the sum of the crossed edges over the
 * cells, each vertex takes one edge of one cell or two) and, once the wrapper has made room for
 * that many, isolinesTrace. A level only ever visits the cells it crosses.
 *
 * Marching squares (Lorensen & Cline's table in two dimensions): a node is above when
 * value >= level, as d3-contour does. Each crossed edge gets one vertex, by linear interpolation
 * between its two nodes, always from the west / north node to the east / south one, so the cells
 * on both sides of the edge would compute the same vertex. A saddle (two opposite corners above)
 * is resolved by the mean of its four corners, the value at the cell centre of the bilinear
 * surface: centre above joins the two corners above through the centre, centre below keeps them
 * apart (pairOf). d3-contour keeps them apart always.
 *
 * Lines are traced, not stitched: first from every crossing on an edge whose other side has no
 * cell (the grid border, a cell with a NaN corner): open lines, from end to end; then the cells
 * left hold closed rings only, each traced from any of its crossings back to it.
 */

export const JOB_VALUES: usize = 0;
export const JOB_NX: usize = 4;
export const JOB_NY: usize = 8;
export const JOB_FLAGS: usize = 12;
export const JOB_CELLS: usize = 16;
export const JOB_LISTS: usize = 20;
export const JOB_OFFSETS: usize = 24;
export const JOB_POINTS: usize = 28;
export const JOB_POINT_COUNT: usize = 32;
export const JOB_LINES: usize = 36;
export const JOB_LINE_COUNT: usize = 40;
export const JOB_SMOOTH: usize = 44;
export const JOB_LEVELS: usize = 48;
export const JOB_LEVEL_COUNT: usize = 52;
export const JOB_LEVEL_INDEX: usize = 56;
export const JOB_BYTES: usize = 64;

const WRAP: i32 = 1;
const EDGES: u8 = 15;
const PAIR_A: u8 = 16;
const MISSING: u8 = 128;

const CLOSED: i32 = 1;
const AROUND_EAST: i32 = 2;
const AROUND_WEST: i32 = 4;

@inline function value(values: usize, nx: i32, i: i32, j: i32): f64 {
  return <f64>load<f32>(values + (<usize>(j * nx + i) << 2));
}

/** The first index of the ascending levels whose level is above `v` (count when none is). */
@inline function firstAbove(levels: usize, count: i32, v: f64): i32 {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<f64>(levels + (<usize>mid << 3)) > v) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One pass over the cells: with `fill` false, marks the NaN cells (every other cell 0) and counts
 * the cells each level crosses; with `fill` true, appends each cell to the lists of its levels.
 */
function bucketCells(job: usize, fill: bool): i32 {
  const values = <usize>load<u32>(job, JOB_VALUES);
  const nx = load<i32>(job, JOB_NX);
  const ny = load<i32>(job, JOB_NY);
  const wrap = (load<i32>(job, JOB_FLAGS) & WRAP) != 0;
  const cells = <usize>load<u32>(job, JOB_CELLS);
  const lists = <usize>load<u32>(job, JOB_LISTS);
  const offsets = <usize>load<u32>(job, JOB_OFFSETS);
  const levels = <usize>load<u32>(job, JOB_LEVELS);
  const count = load<i32>(job, JOB_LEVEL_COUNT);
  const cursors = offsets + (<usize>(count + 1) << 2);
  const lowest = load<f64>(levels);
  const highest = load<f64>(levels + (<usize>(count - 1) << 3));
  const ncx = wrap ? nx : nx - 1;
  let total = 0;
  for (let j = 0; j < ny - 1; j++) {
    const top = values + (<usize>(j * nx) << 2);
    const bottom = top + (<usize>nx << 2);
    const row = cells + <usize>(j * ncx);
    let tl = <f64>load<f32>(top);
    let bl = <f64>load<f32>(bottom);
    for (let i = 0; i < ncx; i++) {
      const east = i + 1 == nx ? 0 : i + 1;
      const tr = <f64>load<f32>(top + (<usize>east << 2));
      const br = <f64>load<f32>(bottom + (<usize>east << 2));
      const low = min(min(tl, tr), min(bl, br));
      const high = max(max(tl, tr), max(bl, br));
      tl = tr;
      bl = br;
      // NaN corners: min and max of a NaN are NaN, and every compare with it is false.
      if (!(low == low)) {
        if (!fill) store<u8>(row + <usize>i, MISSING);
        continue;
      }
      if (!fill) store<u8>(row + <usize>i, 0);
      if (high < lowest || low >= highest) continue;
      const from = firstAbove(levels, count, low);
      if (from == count || load<f64>(levels + (<usize>from << 3)) > high) continue;
      const to = firstAbove(levels, count, high);
      const cell = j * ncx + i;
      for (let k = from; k < to; k++) {
        const at = offsets + (<usize>k << 2);
        if (fill) {
          const cursor = cursors + (<usize>k << 2);
          const n = load<i32>(cursor);
          store<i32>(lists + (<usize>n << 2), cell);
          store<i32>(cursor, n + 1);
        } else {
          store<i32>(at, load<i32>(at) + 1);
        }
      }
      total += to - from;
    }
  }
  return total;
}

/**
 * Marks the NaN cells and counts the cells each level crosses, then turns the counts into the
 * lists' offsets. Returns the total length of the lists. Offsets must be zero on entry.
 */
export function isolinesPrepare(job: usize): i32 {
  const offsets = <usize>load<u32>(job, JOB_OFFSETS);
  const count = load<i32>(job, JOB_LEVEL_COUNT);
  const total = bucketCells(job, false);
  let sum = 0;
  for (let k = 0; k <= count; k++) {
    const n = k < count ? load<i32>(offsets + (<usize>k << 2)) : 0;
    store<i32>(offsets + (<usize>k << 2), sum);
    store<i32>(offsets + (<usize>(count + 1 + k) << 2), sum);
    sum += n;
  }
  return total;
}

/** Fills the lists (after isolinesPrepare, into a lists region of its total). */
export function isolinesBucket(job: usize): void {
  bucketCells(job, true);
}

/**
 * The states of the cells of level levelIndex. Returns the bound on the vertices of the level
 * (sum over its cells of the edges crossed).
 */
export function isolinesClassify(job: usize): i32 {
  const values = <usize>load<u32>(job, JOB_VALUES);
  const nx = load<i32>(job, JOB_NX);
  const wrap = (load<i32>(job, JOB_FLAGS) & WRAP) != 0;
  const cells = <usize>load<u32>(job, JOB_CELLS);
  const lists = <usize>load<u32>(job, JOB_LISTS);
  const offsets = <usize>load<u32>(job, JOB_OFFSETS);
  const k = load<i32>(job, JOB_LEVEL_INDEX);
  const level = load<f64>(<usize>load<u32>(job, JOB_LEVELS) + (<usize>k << 3));
  const ncx = wrap ? nx : nx - 1;
  const first = load<i32>(offsets + (<usize>k << 2));
  const end = load<i32>(offsets + (<usize>(k + 1) << 2));
  let bound = 0;
  for (let n = first; n < end; n++) {
    const cell = load<i32>(lists + (<usize>n << 2));
    const i = cell % ncx;
    const j = cell / ncx;
    const east = i + 1 == nx ? 0 : i + 1;
    const tl = value(values, nx, i, j);
    const tr = value(values, nx, east, j);
    const br = value(values, nx, east, j + 1);
    const bl = value(values, nx, i, j + 1);
    const a = <i32>(tl >= level);
    const b = <i32>(tr >= level);
    const c = <i32>(br >= level);
    const d = <i32>(bl >= level);
    const edges = (a ^ b) | ((b ^ c) << 1) | ((c ^ d) << 2) | ((d ^ a) << 3);
    let state = <u8>edges;
    if (edges == 15) {
      // Saddle: the centre's side decides which corners are joined (pairOf).
      const centreAbove = <i32>((tl + tr + br + bl) * 0.25 >= level);
      if (a == centreAbove) state |= PAIR_A;
      bound += 4;
    } else {
      bound += 2;
    }
    store<u8>(cells + <usize>cell, state);
  }
  return bound;
}

/**
 * The edge a line entering a cell by `edge` leaves it by. A saddle's four crossings pair up
 * (A) top-right and bottom-left, cutting off the top-right and bottom-left corners, or (B)
 * left-top and right-bottom. Cutting off the corners that are below joins the two above through
 * the centre: with corners top-left and bottom-right above, A when the centre is above; with
 * top-right and bottom-left above, B when the centre is above (isolinesClassify sets PAIR_A when
 * the top-left corner and the centre are on the same side).
 */
@inline function pairOf(state: u8, edge: i32): i32 {
  const edges = <i32>(state & EDGES);
  if (edges == 15) return (state & PAIR_A) != 0 ? edge ^ 1 : 3 - edge;
  return ctz(edges & ~(1 << edge));
}

/** Vertex of the crossing on `edge` of cell (i, j), x shifted by `shift` columns. */
@inline function crossing(values: usize, nx: i32, level: f64, i: i32, j: i32, edge: i32, shift: i32, out: usize): void {
  const east = i + 1 == nx ? 0 : i + 1;
  let x: f64;
  let y: f64;
  if (edge == 0 || edge == 2) {
    const row = edge == 0 ? j : j + 1;
    const a = value(values, nx, i, row);
    const b = value(values, nx, east, row);
    x = <f64>i + (level - a) / (b - a);
    y = <f64>row;
  } else {
    const column = edge == 3 ? i : east;
    const a = value(values, nx, column, j);
    const b = value(values, nx, column, j + 1);
    x = <f64>(edge == 3 ? i : i + 1);
    y = <f64>j + (level - a) / (b - a);
  }
  store<f32>(out, <f32>(x + <f64>shift));
  store<f32>(out, <f32>y, 4);
}

/** Traces every line of the level marked by isolinesClassify into the output regions. */
export function isolinesTrace(job: usize): void {
  const nx = load<i32>(job, JOB_NX);
  const ny = load<i32>(job, JOB_NY);
  const wrap = (load<i32>(job, JOB_FLAGS) & WRAP) != 0;
  const cells = <usize>load<u32>(job, JOB_CELLS);
  const offsets = <usize>load<u32>(job, JOB_OFFSETS);
  const level = load<i32>(job, JOB_LEVEL_INDEX);
  const active = <usize>load<u32>(job, JOB_LISTS) + (<usize>load<i32>(offsets + (<usize>level << 2)) << 2);
  const count = load<i32>(offsets + (<usize>(level + 1) << 2)) - load<i32>(offsets + (<usize>level << 2));
  const ncx = wrap ? nx : nx - 1;
  const ncy = ny - 1;
  // Open lines: from each crossing whose edge has no cell on its other side.
  for (let k = 0; k < count; k++) {
    const cell = load<i32>(active + (<usize>k << 2));
    const i = cell % ncx;
    const j = cell / ncx;
    for (let edge = 0; edge < 4; edge++) {
      if ((load<u8>(cells + <usize>cell) & (<u8>1 << <u8>edge)) == 0) continue;
      const n = neighbour(i, j, edge, ncx, ncy, wrap);
      if (n < 0 || (load<u8>(cells + <usize>n) & MISSING) != 0) traceLine(job, i, j, edge);
    }
  }
  // Closed rings: whatever is left.
  for (let k = 0; k < count; k++) {
    const cell = load<i32>(active + (<usize>k << 2));
    const state = load<u8>(cells + <usize>cell);
    if ((state & EDGES) == 0) continue;
    traceLine(job, cell % ncx, cell / ncx, <i32>ctz(<i32>(state & EDGES)));
  }
  // Every crossing is taken; a saddle's PAIR_A goes too, so the next level finds 0 or MISSING.
  for (let k = 0; k < count; k++) store<u8>(cells + <usize>load<i32>(active + (<usize>k << 2)), 0);
}

/** The cell across `edge` of cell (i, j), or -1 outside the grid. */
@inline function neighbour(i: i32, j: i32, edge: i32, ncx: i32, ncy: i32, wrap: bool): i32 {
  if (edge == 0) return j == 0 ? -1 : (j - 1) * ncx + i;
  if (edge == 2) return j + 1 == ncy ? -1 : (j + 1) * ncx + i;
  if (edge == 1) {
    if (i + 1 < ncx) return j * ncx + i + 1;
    return wrap ? j * ncx : -1;
  }
  if (i > 0) return j * ncx + i - 1;
  return wrap ? j * ncx + ncx - 1 : -1;
}

/** Follows one line from its crossing on `edge` of cell (i, j), appends it, and smooths it. */
function traceLine(job: usize, i0: i32, j0: i32, edge0: i32): void {
  const values = <usize>load<u32>(job, JOB_VALUES);
  const nx = load<i32>(job, JOB_NX);
  const ny = load<i32>(job, JOB_NY);
  const wrap = (load<i32>(job, JOB_FLAGS) & WRAP) != 0;
  const cells = <usize>load<u32>(job, JOB_CELLS);
  const points = <usize>load<u32>(job, JOB_POINTS);
  const level = load<f64>(<usize>load<u32>(job, JOB_LEVELS) + (<usize>load<i32>(job, JOB_LEVEL_INDEX) << 3));
  const ncx = wrap ? nx : nx - 1;
  const ncy = ny - 1;
  const first = load<i32>(job, JOB_POINT_COUNT);
  let n = first;
  crossing(values, nx, level, i0, j0, edge0, 0, points + (<usize>n << 3));
  n++;
  let i = i0;
  let j = j0;
  let entry = edge0;
  let shift = 0;
  let flags = 0;
  while (true) {
    const at = cells + <usize>(j * ncx + i);
    const state = load<u8>(at);
    const exit = pairOf(state, entry);
    const taken: i32 = (1 << entry) | (1 << exit);
    store<u8>(at, <u8>(<i32>state & ~taken));
    // Into the cell across the exit edge.
    let ni = i;
    let nj = j;
    let nshift = shift;
    let inside = true;
    if (exit == 0) {
      nj--;
      inside = nj >= 0;
    } else if (exit == 2) {
      nj++;
      inside = nj < ncy;
    } else if (exit == 1) {
      ni++;
      if (ni == ncx) {
        ni = 0;
        nshift += nx;
        inside = wrap;
      }
    } else {
      ni--;
      if (ni < 0) {
        ni = ncx - 1;
        nshift -= nx;
        inside = wrap;
      }
    }
    const back = (exit + 2) & 3;
    if (inside && ni == i0 && nj == j0 && back == edge0) {
      // Back at the first crossing: a ring (around the globe when the columns went a turn).
      flags = CLOSED | (nshift > 0 ? AROUND_EAST : nshift < 0 ? AROUND_WEST : 0);
      break;
    }
    crossing(values, nx, level, i, j, exit, shift, points + (<usize>n << 3));
    n++;
    if (!inside || (load<u8>(cells + <usize>(nj * ncx + ni)) & (<u8>1 << <u8>back)) == 0) break;
    i = ni;
    j = nj;
    entry = back;
    shift = nshift;
  }
  const lines = <usize>load<u32>(job, JOB_LINES);
  const line = load<i32>(job, JOB_LINE_COUNT);
  const row = lines + (<usize>line << 4);
  store<i32>(row, first);
  store<i32>(row, n - first, 4);
  store<i32>(row, load<i32>(job, JOB_LEVEL_INDEX), 8);
  store<i32>(row, flags, 12);
  store<i32>(job, line + 1, JOB_LINE_COUNT);
  store<i32>(job, n, JOB_POINT_COUNT);
  const passes = load<i32>(job, JOB_SMOOTH);
  const shiftColumns: i32 = (flags & AROUND_EAST) != 0 ? nx : (flags & AROUND_WEST) != 0 ? -nx : 0;
  const turn = <f32>shiftColumns;
  for (let p = 0; p < passes; p++) smoothLine(points + (<usize>first << 3), n - first, (flags & CLOSED) != 0, turn);
}

/**
 * One pass of the 1-2-1 filter (each vertex becomes a quarter of each neighbour plus half of
 * itself): an open line keeps its two ends where they are, a ring wraps round (its last vertex
 * is next to its first, `turn` columns apart for a ring around the globe).
 */
function smoothLine(line: usize, count: i32, closed: bool, turn: f32): void {
  if (count < 3) return;
  const lastAt = line + (<usize>(count - 1) << 3);
  const x0 = load<f32>(line);
  const y0 = load<f32>(line, 4);
  const xl = load<f32>(lastAt);
  const yl = load<f32>(lastAt, 4);
  // Previous vertex before this pass.
  let px = closed ? xl - turn : x0;
  let py = closed ? yl : y0;
  const start = closed ? 0 : 1;
  const end = closed ? count : count - 1;
  for (let k = start; k < end; k++) {
    const at = line + (<usize>k << 3);
    const x = load<f32>(at);
    const y = load<f32>(at, 4);
    let nxv: f32;
    let nyv: f32;
    if (k + 1 < count) {
      nxv = load<f32>(at, 8);
      nyv = load<f32>(at, 12);
    } else {
      nxv = x0 + turn;
      nyv = y0;
    }
    store<f32>(at, <f32>0.25 * px + <f32>0.5 * x + <f32>0.25 * nxv);
    store<f32>(at, <f32>0.25 * py + <f32>0.5 * y + <f32>0.25 * nyv, 4);
    px = x;
    py = y;
  }
}

/*
 * H / L candidates.
 *
 *   values  f32[ny * nx] as for the isolines
 *   hi, lo  f32[ny * nx] scratch: the largest / smallest value over each node's row window
 *   pad     f32[2 * (nx + 2r + 4)] scratch: one row padded by r each side, for each of the two
 *   out     i32[ny * nx]: the candidates, node index (j * nx + i) for a maximum, -1 - index for
 *           a minimum; returns how many
 *
 * A node is a candidate maximum when it is not NaN, no value in the square of (2r + 1) x (2r + 1)
 * nodes around it is larger and some value there is smaller (a flat square is no extremum); NaN
 * nodes are left out of the square. Nodes whose square the grid's border cuts are skipped (their
 * extremum may lie beyond the border), except across the seam of a WRAP grid. A plateau gives
 * several equal candidates: the wrapper joins them into one marker.
 */
export function isolinesExtrema(values: usize, nx: i32, ny: i32, radius: i32, wrap: bool, hi: usize, lo: usize, out: usize, pad: usize): i32 {
  const r = radius;
  const inf = f32.POSITIVE_INFINITY;
  // Row windows, four nodes at a time over a padded copy of the row (a NaN, or a node beyond the
  // border, counts as -inf for the maximum and +inf for the minimum; across the seam of a WRAP
  // grid the row goes on from its other end).
  const width = nx + 2 * r;
  const padHi = pad;
  const padLo = pad + (<usize>(width + 4) << 2);
  for (let j = 0; j < ny; j++) {
    const row = values + (<usize>(j * nx) << 2);
    for (let t = 0; t < width; t++) {
      let c = t - r;
      let v: f32 = NaN;
      if (wrap) {
        c %= nx;
        if (c < 0) c += nx;
        v = load<f32>(row + (<usize>c << 2));
      } else if (c >= 0 && c < nx) {
        v = load<f32>(row + (<usize>c << 2));
      }
      const ok = v == v;
      store<f32>(padHi + (<usize>t << 2), ok ? v : -inf);
      store<f32>(padLo + (<usize>t << 2), ok ? v : inf);
    }
    const base = <usize>(j * nx) << 2;
    let i = 0;
    for (; i + 4 <= nx; i += 4) {
      let high = f32x4.splat(-inf);
      let low = f32x4.splat(inf);
      for (let k = 0; k <= 2 * r; k++) {
        const at = <usize>(i + k) << 2;
        high = f32x4.max(high, v128.load(padHi + at));
        low = f32x4.min(low, v128.load(padLo + at));
      }
      v128.store(hi + base + (<usize>i << 2), high);
      v128.store(lo + base + (<usize>i << 2), low);
    }
    for (; i < nx; i++) {
      let high = -inf;
      let low = inf;
      for (let k = 0; k <= 2 * r; k++) {
        high = max(high, load<f32>(padHi + (<usize>(i + k) << 2)));
        low = min(low, load<f32>(padLo + (<usize>(i + k) << 2)));
      }
      store<f32>(hi + base + (<usize>i << 2), high);
      store<f32>(lo + base + (<usize>i << 2), low);
    }
  }
  // Column windows of the row windows: four nodes at a time, then the last few one by one.
  let count = 0;
  const i0 = wrap ? 0 : r;
  const i1 = wrap ? nx : nx - r;
  for (let j = r; j < ny - r; j++) {
    let i = i0;
    for (; i + 4 <= i1; i += 4) {
      let high = f32x4.splat(-inf);
      let low = f32x4.splat(inf);
      for (let k = j - r; k <= j + r; k++) {
        const at = <usize>(k * nx + i) << 2;
        high = f32x4.max(high, v128.load(hi + at));
        low = f32x4.min(low, v128.load(lo + at));
      }
      const node = j * nx + i;
      count = emitExtremum(values, node, f32x4.extract_lane(high, 0), f32x4.extract_lane(low, 0), out, count);
      count = emitExtremum(values, node + 1, f32x4.extract_lane(high, 1), f32x4.extract_lane(low, 1), out, count);
      count = emitExtremum(values, node + 2, f32x4.extract_lane(high, 2), f32x4.extract_lane(low, 2), out, count);
      count = emitExtremum(values, node + 3, f32x4.extract_lane(high, 3), f32x4.extract_lane(low, 3), out, count);
    }
    for (; i < i1; i++) {
      let high = -inf;
      let low = inf;
      for (let k = j - r; k <= j + r; k++) {
        const at = <usize>(k * nx + i) << 2;
        high = max(high, load<f32>(hi + at));
        low = min(low, load<f32>(lo + at));
      }
      count = emitExtremum(values, j * nx + i, high, low, out, count);
    }
  }
  return count;
}

@inline function emitExtremum(values: usize, node: i32, high: f32, low: f32, out: usize, count: i32): i32 {
  const v = load<f32>(values + (<usize>node << 2));
  if (v != v || !(high > low)) return count;
  if (v == high) {
    store<i32>(out + (<usize>count << 2), node);
    return count + 1;
  }
  if (v == low) {
    store<i32>(out + (<usize>count << 2), -1 - node);
    return count + 1;
  }
  return count;
}
