/*
 * Particle advection over the field (field.ts): RK2 midpoint steps in lon/lat, respawn, and the
 * line-segment vertices the render worker uploads straight from this memory.
 *
 *   particles: one region of 40 * cap bytes, cap = count rounded up to a multiple of 4 so that
 *   every array starts 16-byte aligned and every group of 4 particles is whole vectors
 *   +0          f64 lon[cap]       degrees east, kept in [-180, 180)
 *   +8 cap      f64 lat[cap]       degrees north
 *   +16 cap     i32 age[cap]       steps since the particle was (re)spawned
 *   +20 cap     f32 vertex[cap][4] one line segment per particle, for WebGL:
 *                 +0 prevRelLon  +4 prevRelLat  +8 newRelLon  +12 newRelLat      (16 bytes)
 *               relLon = lon - view centre wrapped into [-180, 180); prevRelLon = newRelLon minus
 *               the unwrapped longitude increment, so a segment across the antimeridian stays short.
 *               relLat = lat - view centre latitude. Both are differences taken in f64 before the
 *               f32 store, so a one-pixel step keeps its precision at zoom 16.
 *               A respawned particle gets a degenerate segment (prev = new). The SIMD kernel
 *               uses a group's 64 bytes as scratch between its passes (table further down).
 *   +36 cap     i32 respawn[cap]   scratch of the SIMD kernel: indices to respawn after its loop,
 *                                  and a group's 16 bytes between its passes
 *
 *   rngState: a module global, xorshift32, seeded by particlesInit; respawns draw from it strictly
 *   in particle index order in every kernel, so SIMD, scalar and engine/reference.ts agree.
 *
 * One step of one particle p (lon, lat), speed in degrees per (m/s) per step:
 *   (gx, gy) = grid coordinates of p in f32 (field.ts gridX, gridY)
 *   (U1, V1) = sample(gx, gy)
 *   (U2, V2) = sample(wrap(gx + kx U1), gy + ky V1), all f32, kx = f32(speed / 2 * invDlon),
 *              ky = f32(-speed / 2 * invDlat): the midpoint p + (speed / 2) (U1, V1) in grid
 *              coordinates, only ever sampled, never a position
 *   p' = p + speed (U2, V2) in f64, lon wrapped into [-180, 180) by one turn (a step moves less
 *        than 360 degrees: |speed U| < 360)
 *   age += 1; respawn if age > maxAge, if p' leaves the view, or if a sample was NaN (NaN flows
 *   into p', which then fails the view test, so one test covers all three).
 * V already carries cos(latitude), so on a Web Mercator screen the displacement is proportional to
 * the wind speed at every latitude and zoom (the caller sets speed = px per step * 360 / world px).
 * Positions stay f64 (a step at zoom 16 is ~1e-6 degrees); only the sampling coordinates are f32,
 * where 1e-4 of a cell at 2000 cells is nothing to a bilinear weight.
 */

import {
  fieldInvDlat, fieldInvDlon, fieldInvPeriod, fieldLat0, fieldLon0, fieldNodes, fieldPeriod,
  fieldRows, fieldStride, gridX, gridY, ONE_BITS, sampledV, sampleGrid, wrapColumn,
} from './field';

const DEFAULT_SEED: u32 = 0x9e3779b9; // used for seed 0, which xorshift cannot leave
const INV_2_32: f64 = 1.0 / 4294967296.0;
const DEG_PER_RAD: f64 = 180.0 / Math.PI;
/** Bits of f32 2^23: adding it to a whole number below 2^23 leaves that number in the low bits. */
const MAGIC_BITS: i32 = 0x4b000000;

/**
 * The SIMD kernel's vectors, 16 bytes each at the offsets below, written by particlesStepSimd
 * before its first pass (static data of this module, below __heap_base). Each pass loads the
 * ones it uses before its loop: TurboFan (V8) schedules a splat or a conversion at its use,
 * inside the loop, and redoes it every iteration, while a loaded vector stays loaded (in a
 * register, or spilled and reloaded like any value).
 */
const VECTORS = memory.data(16 * 31, 16);
const MAGIC: usize = 0; // i32x4 MAGIC_BITS
const ONE: usize = 16; // i32x4 ONE_BITS
const GUARD: usize = 32; // i32x4 address of the field's NaN guard rows
const TURN: usize = 48; // f64x2 360
const MINUS_TURN: usize = 64; // -360
const HALF_TURN: usize = 80; // 180
const MINUS_HALF_TURN: usize = 96; // -180
const LON0: usize = 112; // f64x2, then the grid constants of field.ts
const LAT0: usize = 128;
const INV_DLON: usize = 144;
const INV_DLAT: usize = 160;
const PERIOD: usize = 176; // f32x4 from here
const INV_PERIOD: usize = 192;
const MAX_CELL_X: usize = 208;
const MAX_CELL_Y: usize = 224;
const KX: usize = 240;
const KY: usize = 256;
const ROW_BYTES: usize = 272; // i32x4
const NODE_BASE: usize = 288; // i32x4: nodes - (8 + rowBytes) MAGIC_BITS, modulo 2^32
const SPEED: usize = 304; // f64x2 from here: the view
const CENTRE: usize = 320;
const CENTRE_LAT: usize = 336;
const REL_WEST: usize = 352;
const REL_EAST: usize = 368;
const NORTH: usize = 384;
const SOUTH: usize = 400;
const MAX_AGE: usize = 416; // i32x4
const REL_LIMIT: usize = 432; // f64x2: the one side newLon - centre can leave [-180, 180) by (stepPass)
const REL_FLIP: usize = 448; // all ones or zero
const REL_SHIFT: usize = 464; // f64x2
const ABS_MASK: usize = 480; // f64x2 all bits but the sign

/** Writes VECTORS for a call (the fixed ones too: seven stores, cheaper than a flag). */
function setVectors(
  field: usize, centre: f64, centerLat: f64, relWest: f64, relEast: f64, north: f64, south: f64,
  speed: f64, maxAge: i32, kx: f32, ky: f32,
): void {
  const v = VECTORS;
  v128.store(v + MAGIC, i32x4.splat(MAGIC_BITS));
  v128.store(v + ONE, i32x4.splat(ONE_BITS));
  v128.store(v + TURN, f64x2.splat(360));
  v128.store(v + MINUS_TURN, f64x2.splat(-360));
  v128.store(v + HALF_TURN, f64x2.splat(180));
  v128.store(v + MINUS_HALF_TURN, f64x2.splat(-180));
  const stride = fieldStride(field);
  const rowBytes = stride << 3;
  v128.store(v + LON0, f64x2.splat(fieldLon0(field)));
  v128.store(v + LAT0, f64x2.splat(fieldLat0(field)));
  v128.store(v + INV_DLON, f64x2.splat(fieldInvDlon(field)));
  v128.store(v + INV_DLAT, f64x2.splat(fieldInvDlat(field)));
  v128.store(v + PERIOD, f32x4.splat(<f32>fieldPeriod(field)));
  v128.store(v + INV_PERIOD, f32x4.splat(<f32>fieldInvPeriod(field)));
  v128.store(v + MAX_CELL_X, f32x4.splat(<f32>(stride - 2)));
  v128.store(v + MAX_CELL_Y, f32x4.splat(<f32>(fieldRows(field) - 2)));
  v128.store(v + KX, f32x4.splat(kx));
  v128.store(v + KY, f32x4.splat(ky));
  v128.store(v + ROW_BYTES, i32x4.splat(rowBytes));
  const nodes = fieldNodes(field);
  v128.store(v + NODE_BASE, i32x4.splat(<i32>nodes - (MAGIC_BITS << 3) - MAGIC_BITS * rowBytes));
  v128.store(v + GUARD, i32x4.splat(<i32>nodes + fieldRows(field) * rowBytes));
  v128.store(v + SPEED, f64x2.splat(speed));
  v128.store(v + CENTRE, f64x2.splat(centre));
  v128.store(v + CENTRE_LAT, f64x2.splat(centerLat));
  v128.store(v + REL_WEST, f64x2.splat(relWest));
  v128.store(v + REL_EAST, f64x2.splat(relEast));
  v128.store(v + NORTH, f64x2.splat(north));
  v128.store(v + SOUTH, f64x2.splat(south));
  v128.store(v + MAX_AGE, i32x4.splat(maxAge));
  // newLon is in [-180, 180) and centre in [-180, 180] (180 when wrapLongitude rounds up), so
  // d = newLon - centre is in [-360, 180) when centre >= 0 and in (-180, 360) when centre < 0:
  // wrapHalfTurn(d) has one side to wrap, d < -180 or d >= 180, tested as ge(d, limit) xor flip.
  const east = centre < 0;
  v128.store(v + REL_LIMIT, f64x2.splat(east ? 180 : -180));
  v128.store(v + REL_FLIP, i32x4.splat(east ? 0 : -1));
  v128.store(v + REL_SHIFT, f64x2.splat(east ? 360 : -360));
  v128.store(v + ABS_MASK, i64x2.splat(0x7fffffffffffffff));
}

/** Bytes of one group of 4 particles in the f64, vertex and i32 arrays. */
const GROUP_F64_BYTES: usize = 32;
const GROUP_VERTEX_BYTES: usize = 64;
const GROUP_I32_BYTES: usize = 16;

/**
 * Groups of 4 particles per block: the SIMD kernel's passes run one block at a time, so the
 * block's positions and scratch are still in L1 when the next pass reads them.
 */
const BLOCK_GROUPS: i32 = 32;

let rngState: u32 = DEFAULT_SEED;

@inline function capacity(count: i32): usize {
  return <usize>((count + 3) & ~3);
}
@inline function latBase(particles: usize, cap: usize): usize {
  return particles + (cap << 3);
}
@inline function ageBase(particles: usize, cap: usize): usize {
  return particles + (cap << 4);
}
@inline function vertexBase(particles: usize, cap: usize): usize {
  return particles + cap * 20;
}
@inline function respawnBase(particles: usize, cap: usize): usize {
  return particles + cap * 36;
}

/** xorshift32 (Marsaglia 2003, "Xorshift RNGs", shifts 13, 17, 5), as a double in [0, 1). */
@inline function nextRandom(): f64 {
  let x = rngState;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  rngState = x;
  return <f64>x * INV_2_32;
}

/** Any longitude into [-180, 180). */
@inline function wrapLongitude(lon: f64): f64 {
  return lon - 360 * Math.floor((lon + 180) / 360);
}

/** A longitude at most one turn outside [-180, 180) back into it, without floor. */
@inline function wrapHalfTurn(lon: f64): f64 {
  if (lon >= 180) return lon - 360;
  if (lon < -180) return lon + 360;
  return lon;
}

/** wrapHalfTurn on two lanes: subtracting (mask & ±360) gives x ∓ 360 or exactly x, as the scalar does. */
@inline function wrapHalfTurn2(lon: v128, turn: v128, minusTurn: v128, halfTurn: v128, minusHalfTurn: v128): v128 {
  const a = f64x2.sub(lon, v128.and(turn, f64x2.ge(lon, halfTurn)));
  return f64x2.sub(a, v128.and(minusTurn, f64x2.lt(a, minusHalfTurn)));
}

/**
 * A fresh particle uniformly over the view on screen: longitude uniform in [west, east], Web
 * Mercator y uniform in [yTop, yBottom], latitude = gd(pi (1 - 2y)) (inverse Mercator; gd the
 * Gudermannian function).
 * Kept out of line: it runs for a few particles per step and calls into Math.
 */
function respawn(
  particles: usize, cap: usize, k: i32,
  centre: f64, centreLat: f64, relWest: f64, relEast: f64, yTop: f64, yBottom: f64,
): void {
  const r1 = nextRandom();
  const r2 = nextRandom();
  const lon = wrapLongitude(centre + (relWest + r1 * (relEast - relWest)));
  const y = yTop + r2 * (yBottom - yTop);
  // atan(sinh(x)) (the Gudermannian) as 2 atan(e^x) - pi/2: a third faster here, and within
  // 1e-14 degrees of it (the subtraction loses at most an ulp of pi/2).
  const lat = (2 * Math.atan(Math.exp(Math.PI * (1 - 2 * y))) - Math.PI / 2) * DEG_PER_RAD;
  const rel = <f32>wrapHalfTurn(lon - centre);
  const o = <usize>k;
  store<f64>(particles + (o << 3), lon);
  store<f64>(latBase(particles, cap) + (o << 3), lat);
  store<i32>(ageBase(particles, cap) + (o << 2), 0);
  const v = vertexBase(particles, cap) + (o << 4);
  const relLat = <f32>(lat - centreLat);
  store<f32>(v, rel, 0);
  store<f32>(v, relLat, 4);
  store<f32>(v, rel, 8);
  store<f32>(v, relLat, 12);
}

/**
 * Seeds the generator and spawns `count` particles over the view, each with a random age in
 * [0, maxAge) so that they do not all respawn on the same step.
 */
export function particlesInit(
  particles: usize, count: i32, seed: u32, maxAge: i32,
  centerLon: f64, centerLat: f64, west: f64, east: f64, yTop: f64, yBottom: f64,
): void {
  rngState = seed == 0 ? DEFAULT_SEED : seed;
  const cap = capacity(count);
  const centre = wrapLongitude(centerLon);
  const relWest = west - centerLon;
  const relEast = east - centerLon;
  const ages = ageBase(particles, cap);
  for (let k = 0; k < count; k++) {
    respawn(particles, cap, k, centre, centerLat, relWest, relEast, yTop, yBottom);
    store<i32>(ages + (<usize>k << 2), <i32>(nextRandom() * <f64>maxAge));
  }
}

/**
 * One particle, scalar; the scalar kernel and the tail (count % 4) of the SIMD kernel. The field
 * arguments are its descriptor, hoisted by the caller out of its loop, in the precision used.
 */
@inline function stepOne(
  particles: usize, cap: usize, k: i32,
  nodes: usize, stride: i32, maxCellX: f32, maxCellY: f32,
  lon0: f64, lat0: f64, invDlon: f64, invDlat: f64, period: f32, invPeriod: f32, kx: f32, ky: f32,
  centre: f64, centreLat: f64, relWest: f64, relEast: f64, north: f64, south: f64, yTop: f64, yBottom: f64,
  speed: f64, maxAge: i32,
): void {
  const o = <usize>k;
  const lonAddr = particles + (o << 3);
  const latAddr = latBase(particles, cap) + (o << 3);
  const ageAddr = ageBase(particles, cap) + (o << 2);
  const lon = load<f64>(lonAddr);
  const lat = load<f64>(latAddr);
  const age = load<i32>(ageAddr) + 1;
  const gx = gridX(lon, lon0, invDlon, period, invPeriod);
  const gy = gridY(lat, lat0, invDlat);
  const u1 = sampleGrid(nodes, stride, maxCellX, maxCellY, gx, gy);
  const v1 = sampledV;
  const u2 = sampleGrid(nodes, stride, maxCellX, maxCellY, wrapColumn(gx + kx * u1, period, invPeriod), gy + ky * v1);
  const v2 = sampledV;
  const dLon = speed * <f64>u2;
  const newLon = wrapHalfTurn(lon + dLon);
  const newLat = lat + speed * <f64>v2;
  const rel = wrapHalfTurn(newLon - centre);
  if (age > maxAge || !(rel >= relWest && rel <= relEast && newLat >= south && newLat <= north)) {
    respawn(particles, cap, k, centre, centreLat, relWest, relEast, yTop, yBottom);
    return;
  }
  store<f64>(lonAddr, newLon);
  store<f64>(latAddr, newLat);
  store<i32>(ageAddr, age);
  const v = vertexBase(particles, cap) + (o << 4);
  store<f32>(v, <f32>(rel - dLon), 0);
  store<f32>(v, <f32>(lat - centreLat), 4);
  store<f32>(v, <f32>rel, 8);
  store<f32>(v, <f32>(newLat - centreLat), 12);
}

/** The scalar kernel: the same arithmetic as the SIMD one, one particle at a time. */
export function particlesStepScalar(
  particles: usize, count: i32, field: usize,
  centerLon: f64, centerLat: f64, west: f64, east: f64, north: f64, south: f64, yTop: f64, yBottom: f64,
  speed: f64, maxAge: i32,
): void {
  const cap = capacity(count);
  const centre = wrapLongitude(centerLon);
  const relWest = west - centerLon;
  const relEast = east - centerLon;
  const half = 0.5 * speed;
  const nodes = fieldNodes(field);
  const stride = fieldStride(field);
  const maxCellX = <f32>(stride - 2);
  const maxCellY = <f32>(fieldRows(field) - 2);
  const lon0 = fieldLon0(field);
  const lat0 = fieldLat0(field);
  const invDlon = fieldInvDlon(field);
  const invDlat = fieldInvDlat(field);
  const period = <f32>fieldPeriod(field);
  const invPeriod = <f32>fieldInvPeriod(field);
  const kx = <f32>(half * invDlon);
  const ky = <f32>(-half * invDlat);
  for (let k = 0; k < count; k++) {
    stepOne(
      particles, cap, k, nodes, stride, maxCellX, maxCellY, lon0, lat0, invDlon, invDlat, period, invPeriod, kx, ky,
      centre, centerLat, relWest, relEast, north, south, yTop, yBottom, speed, maxAge,
    );
  }
}

/** wrapColumn on 4 lanes. */
@inline function wrapColumns(gx: v128, period: v128, invPeriod: v128): v128 {
  const w = f32x4.sub(gx, f32x4.mul(period, f32x4.floor(f32x4.mul(gx, invPeriod))));
  return f32x4.pmin(f32x4.pmax(w, f32x4.splat(0)), period);
}

/** cellOf (field.ts) on 4 lanes. */
@inline function cellsOf(g: v128, maxCell: v128): v128 {
  return f32x4.pmax(f32x4.splat(0), f32x4.pmin(maxCell, f32x4.floor(g)));
}

/*
 * The SIMD kernel runs in passes over blocks of BLOCK_GROUPS groups of 4 particles, each pass a
 * short loop with few live vectors, so the CPU overlaps many groups (one long loop body leaves
 * the out-of-order window full of one group's dependency chain). Per group g, scratch lives in
 * the particle region itself: the group's 64 vertex bytes (V) and its 16 respawn-list bytes (R).
 *
 *   pass         reads                         writes
 *   coordinates  lon, lat                      V+0 gx (raw), V+16 gy        f32x4 each
 *   cells        V+0 gx, V+16 gy               V+0 gx (wrapped), V+32 i32x4 address of the
 *                                              north-west node (of the NaN guard rows when
 *                                              outside the grid), V+48 wx, R+0 wy
 *   midpoints    V+0..63, R+0..15              V+0 gx + kx U1 (raw), V+16 gy + ky V1
 *   cells        (again, on the midpoints)
 *   samples      V+32..63, R+0..15             V+0 (U0, U1, V0, V1), V+16 (U2, U3, V2, V3)
 *   step         V+0..31, lon, lat, age        lon, lat, age, V+0..63 vertices, respawn list
 *
 * The respawn list only ever holds entries of particles already stepped, so its writes land in R
 * bytes of groups whose scratch is spent; the next block's cells pass writes R bytes of groups
 * beyond every entry.
 */

/** Grid coordinates of the positions: f32 of the f64 (lon - lon0) / dlon, (lat0 - lat) / dlat. */
function coordinatesPass(lon: usize, lat: usize, v: usize, end: usize): void {
  const lon0 = v128.load(VECTORS + LON0);
  const lat0 = v128.load(VECTORS + LAT0);
  const invDlon = v128.load(VECTORS + INV_DLON);
  const invDlat = v128.load(VECTORS + INV_DLAT);
  for (; v < end; v += GROUP_VERTEX_BYTES, lon += GROUP_F64_BYTES, lat += GROUP_F64_BYTES) {
    v128.store(v, f32x4.shuffle(
      f32x4.demote_f64x2_zero(f64x2.mul(f64x2.sub(v128.load(lon), lon0), invDlon)),
      f32x4.demote_f64x2_zero(f64x2.mul(f64x2.sub(v128.load(lon, 16), lon0), invDlon)), 0, 1, 4, 5,
    ));
    v128.store(v, f32x4.shuffle(
      f32x4.demote_f64x2_zero(f64x2.mul(f64x2.sub(lat0, v128.load(lat)), invDlat)),
      f32x4.demote_f64x2_zero(f64x2.mul(f64x2.sub(lat0, v128.load(lat, 16)), invDlat)), 0, 1, 4, 5,
    ), 16);
  }
}

/** The i32x4 addresses, wx and wy of each group: f32 cells, weights and the inside test. */
function cellsPass(v: usize, w: usize, end: usize): void {
  const period = v128.load(VECTORS + PERIOD);
  const invPeriod = v128.load(VECTORS + INV_PERIOD);
  const maxCellX = v128.load(VECTORS + MAX_CELL_X);
  const maxCellY = v128.load(VECTORS + MAX_CELL_Y);
  const rowBytes = v128.load(VECTORS + ROW_BYTES);
  const nodeBase = v128.load(VECTORS + NODE_BASE);
  const magic = v128.load(VECTORS + MAGIC);
  const one = v128.load(VECTORS + ONE);
  const guard = v128.load(VECTORS + GUARD);
  for (; v < end; v += GROUP_VERTEX_BYTES, w += GROUP_I32_BYTES) {
    const gx = wrapColumns(v128.load(v), period, invPeriod);
    const gy = v128.load(v, 16);
    // cellOf: gx is wrapped into [0, period] or NaN, so its floor needs no clamp at 0.
    const cx = f32x4.pmin(maxCellX, f32x4.floor(gx));
    const cy = cellsOf(gy, maxCellY);
    const wx = f32x4.sub(gx, cx);
    const wy = f32x4.sub(gy, cy);
    // nodes + 8 cx + rowBytes cy = 8 bits(cx + 2^23) + rowBytes bits(cy + 2^23) + nodeBase.
    const at = i32x4.add(
      i32x4.add(i32x4.shl(f32x4.add(cx, magic), 3), i32x4.mul(f32x4.add(cy, magic), rowBytes)), nodeBase,
    );
    // sampleGrid's inside test: both weights' bits, unsigned, at most those of 1.0. Outside lanes
    // read the NaN guard rows instead, above every clamped cell: max(at, guard) is the guard.
    const inside = i32x4.le_u(i32x4.max_u(wx, wy), one);
    v128.store(v, gx);
    v128.store(v, i32x4.max_u(at, v128.andnot(guard, inside)), 32);
    v128.store(v, wx, 48);
    v128.store(w, wy);
  }
}

/**
 * The bilinear blend of particles k, k + 1 of a group after cellsPass -> (U_k, U_k+1, V_k, V_k+1),
 * sampleGrid's operations lane for lane. [U, V] of nodes (i, j) and (i + 1, j) are 16 contiguous
 * bytes: one v128 load per row. The weights come in by broadcast loads (no shuffles).
 */
@inline function blendPair(v: usize, w: usize, rowBytes: usize, k: usize): v128 {
  const p = <usize>load<u32>(v + (k << 2), 32);
  const q = <usize>load<u32>(v + (k << 2), 36);
  const northP = v128.load(p); // U00 V00 U10 V10
  const southP = v128.load(p + rowBytes); // U01 V01 U11 V11
  const northQ = v128.load(q);
  const southQ = v128.load(q + rowBytes);
  // Down the column: (Uw, Vw, Ue, Ve) per particle.
  const colP = f32x4.add(northP, f32x4.mul(v128.load32_splat(w + (k << 2)), f32x4.sub(southP, northP)));
  const colQ = f32x4.add(northQ, f32x4.mul(v128.load32_splat(w + (k << 2), 4), f32x4.sub(southQ, northQ)));
  // Across: west (Uwp, Uwq, Vwp, Vwq) to east (Uep, Ueq, Vep, Veq), wx = (wxp, wxq, wxp, wxq).
  const west = f32x4.shuffle(colP, colQ, 0, 4, 1, 5);
  const east = f32x4.shuffle(colP, colQ, 2, 6, 3, 7);
  return f32x4.add(west, f32x4.mul(v128.load64_splat(v + (k << 2), 48), f32x4.sub(east, west)));
}

/** Samples after cellsPass; the midpoints in grid coordinates into V+0, V+16. */
function midpointsPass(v: usize, w: usize, end: usize, rowBytes: usize): void {
  const kx = v128.load(VECTORS + KX);
  const ky = v128.load(VECTORS + KY);
  for (; v < end; v += GROUP_VERTEX_BYTES, w += GROUP_I32_BYTES) {
    const s01 = blendPair(v, w, rowBytes, 0);
    const s23 = blendPair(v, w, rowBytes, 2);
    v128.store(v, f32x4.add(v128.load(v), f32x4.mul(kx, f32x4.shuffle(s01, s23, 0, 1, 4, 5))));
    v128.store(v, f32x4.add(v128.load(v, 16), f32x4.mul(ky, f32x4.shuffle(s01, s23, 2, 3, 6, 7))), 16);
  }
}

/** Samples after cellsPass, as (U0, U1, V0, V1), (U2, U3, V2, V3) into V+0, V+16. */
function samplesPass(v: usize, w: usize, end: usize, rowBytes: usize): void {
  for (; v < end; v += GROUP_VERTEX_BYTES, w += GROUP_I32_BYTES) {
    const s01 = blendPair(v, w, rowBytes, 0);
    const s23 = blendPair(v, w, rowBytes, 2);
    v128.store(v, s01);
    v128.store(v, s23, 16);
  }
}

/** rel = wrapHalfTurn(d) for d = newLon - centre, on the one side it can leave (setVectors). */
@inline function wrapRelative(d: v128, limit: v128, flip: v128, shift: v128): v128 {
  return f64x2.sub(d, v128.and(shift, v128.xor(f64x2.ge(d, limit), flip)));
}

/**
 * The vertices of two particles: (prevRel, prevRelLat, rel, newRelLat) each, from the f64
 * differences, demoted.
 */
@inline function storeVertices(v: usize, rel: v128, dLon: v128, lat: v128, newLat: v128, centreLat: v128): void {
  const a = f32x4.shuffle(
    f32x4.demote_f64x2_zero(f64x2.sub(rel, dLon)), f32x4.demote_f64x2_zero(f64x2.sub(lat, centreLat)), 0, 4, 1, 5,
  ); // prevRel0 prevRelLat0 prevRel1 prevRelLat1
  const b = f32x4.shuffle(
    f32x4.demote_f64x2_zero(rel), f32x4.demote_f64x2_zero(f64x2.sub(newLat, centreLat)), 0, 4, 1, 5,
  ); // rel0 newRelLat0 rel1 newRelLat1
  v128.store(v, f32x4.shuffle(a, b, 0, 1, 4, 5));
  v128.store(v, f32x4.shuffle(a, b, 2, 3, 6, 7), 16);
}

/** Lanes of a pair inside the view: relWest <= rel <= relEast, south <= lat <= north (NaN is not). */
@inline function inView(rel: v128, lat: v128, relWest: v128, relEast: v128, south: v128, north: v128): v128 {
  return v128.and(
    v128.and(f64x2.ge(rel, relWest), f64x2.le(rel, relEast)),
    v128.and(f64x2.ge(lat, south), f64x2.le(lat, north)),
  );
}

/**
 * The RK2 step of each group from its midpoint samples (V+0..31); NaN anywhere fails the view
 * test. Appends the group's respawns (particle indices from k) to the list at `list`, lowest index
 * first; returns the list length.
 */
function stepPass(lon: usize, lat: usize, age: usize, v: usize, end: usize, k: i32, list: usize, respawns: i32): i32 {
  const speed = v128.load(VECTORS + SPEED);
  const centre = v128.load(VECTORS + CENTRE);
  const centreLat = v128.load(VECTORS + CENTRE_LAT);
  const relWest = v128.load(VECTORS + REL_WEST);
  const relEast = v128.load(VECTORS + REL_EAST);
  const north = v128.load(VECTORS + NORTH);
  const south = v128.load(VECTORS + SOUTH);
  const maxAge = v128.load(VECTORS + MAX_AGE);
  const limit = v128.load(VECTORS + REL_LIMIT);
  const flip = v128.load(VECTORS + REL_FLIP);
  const shift = v128.load(VECTORS + REL_SHIFT);
  const absMask = v128.load(VECTORS + ABS_MASK);
  const halfTurn = v128.load(VECTORS + HALF_TURN);
  const minusOne = i32x4.splat(-1); // all ones: V8 makes it with one pcmpeqd, unlike splat(1)
  for (; v < end; v += GROUP_VERTEX_BYTES, lon += GROUP_F64_BYTES, lat += GROUP_F64_BYTES, age += GROUP_I32_BYTES) {
    const s01 = v128.load(v); // U0 U1 V0 V1
    const s23 = v128.load(v, 16);
    const ages = i32x4.sub(v128.load(age), minusOne);
    v128.store(age, ages);
    const lon01 = v128.load(lon);
    const lon23 = v128.load(lon, 16);
    const lat01 = v128.load(lat);
    const lat23 = v128.load(lat, 16);
    const dLon01 = f64x2.mul(speed, f64x2.promote_low_f32x4(s01));
    const dLon23 = f64x2.mul(speed, f64x2.promote_low_f32x4(s23));
    let newLon01 = f64x2.add(lon01, dLon01);
    let newLon23 = f64x2.add(lon23, dLon23);
    // Only a particle crossing the antimeridian needs the wrap (-180 itself takes it too, a no-op).
    if (i64x2.bitmask(v128.or(
      f64x2.ge(v128.and(newLon01, absMask), halfTurn), f64x2.ge(v128.and(newLon23, absMask), halfTurn),
    )) != 0) {
      const turn = v128.load(VECTORS + TURN);
      const minusTurn = v128.load(VECTORS + MINUS_TURN);
      const minusHalfTurn = v128.load(VECTORS + MINUS_HALF_TURN);
      newLon01 = wrapHalfTurn2(newLon01, turn, minusTurn, halfTurn, minusHalfTurn);
      newLon23 = wrapHalfTurn2(newLon23, turn, minusTurn, halfTurn, minusHalfTurn);
    }
    const newLat01 = f64x2.add(lat01, f64x2.mul(speed, f64x2.promote_low_f32x4(f32x4.shuffle(s01, s01, 2, 3, 2, 3))));
    const newLat23 = f64x2.add(lat23, f64x2.mul(speed, f64x2.promote_low_f32x4(f32x4.shuffle(s23, s23, 2, 3, 2, 3))));
    const rel01 = wrapRelative(f64x2.sub(newLon01, centre), limit, flip, shift);
    const rel23 = wrapRelative(f64x2.sub(newLon23, centre), limit, flip, shift);
    v128.store(lon, newLon01);
    v128.store(lon, newLon23, 16);
    v128.store(lat, newLat01);
    v128.store(lat, newLat23, 16);
    storeVertices(v, rel01, dLon01, lat01, newLat01, centreLat);
    storeVertices(v + 32, rel23, dLon23, lat23, newLat23, centreLat);
    // Lane n: particle k + n stays (in the view, not too old); bit n of flags set: it respawns.
    const stays = v128.andnot(i32x4.shuffle(
      inView(rel01, newLat01, relWest, relEast, south, north),
      inView(rel23, newLat23, relWest, relEast, south, north), 0, 2, 4, 6,
    ), i32x4.gt_s(ages, maxAge));
    let flags = ~i32x4.bitmask(stays) & 15;
    if (flags != 0) {
      do {
        store<i32>(list + (<usize>respawns << 2), k + ctz(flags));
        respawns++;
        flags &= flags - 1;
      } while (flags != 0);
    }
    k += 4;
  }
  return respawns;
}

/**
 * The SIMD kernel: groups of 4 particles, f32x4 for the sampling (coordinates, weights, blend),
 * f64x2 pairs for the positions, in passes over blocks of groups (see above). Respawns are listed
 * during the step pass and done after the last block, in particle order, so no call sits inside
 * the hot loops; the last count % 4 particles take the scalar step after them.
 */
export function particlesStepSimd(
  particles: usize, count: i32, field: usize,
  centerLon: f64, centerLat: f64, west: f64, east: f64, north: f64, south: f64, yTop: f64, yBottom: f64,
  speed: f64, maxAge: i32,
): void {
  const cap = capacity(count);
  const centre = wrapLongitude(centerLon);
  const relWest = west - centerLon;
  const relEast = east - centerLon;
  const half = 0.5 * speed;
  const invDlon = fieldInvDlon(field);
  const invDlat = fieldInvDlat(field);
  const kx = <f32>(half * invDlon);
  const ky = <f32>(-half * invDlat);
  setVectors(field, centre, centerLat, relWest, relEast, north, south, speed, maxAge, kx, ky);
  const stride = fieldStride(field);
  const rowBytes = <usize>stride << 3;

  const groups = count >> 2;
  const lats = latBase(particles, cap);
  const ages = ageBase(particles, cap);
  const vertices = vertexBase(particles, cap);
  const respawnList = respawnBase(particles, cap);
  let respawns = 0;
  for (let first = 0; first < groups; first += BLOCK_GROUPS) {
    const n = <usize>min(BLOCK_GROUPS, groups - first);
    const g = <usize>first;
    const v = vertices + g * GROUP_VERTEX_BYTES;
    const vEnd = v + n * GROUP_VERTEX_BYTES;
    const w = respawnList + g * GROUP_I32_BYTES;
    const lon = particles + g * GROUP_F64_BYTES;
    const lat = lats + g * GROUP_F64_BYTES;
    coordinatesPass(lon, lat, v, vEnd);
    cellsPass(v, w, vEnd);
    midpointsPass(v, w, vEnd, rowBytes);
    cellsPass(v, w, vEnd);
    samplesPass(v, w, vEnd, rowBytes);
    respawns = stepPass(lon, lat, ages + g * GROUP_I32_BYTES, v, vEnd, first << 2, respawnList, respawns);
  }
  for (let r = 0; r < respawns; r++) {
    const k = load<i32>(respawnList + (<usize>r << 2));
    respawn(particles, cap, k, centre, centerLat, relWest, relEast, yTop, yBottom);
  }
  for (let k = groups << 2; k < count; k++) {
    stepOne(
      particles, cap, k, fieldNodes(field), stride, <f32>(stride - 2), <f32>(fieldRows(field) - 2),
      fieldLon0(field), fieldLat0(field), invDlon, invDlat, <f32>fieldPeriod(field), <f32>fieldInvPeriod(field), kx, ky,
      centre, centerLat, relWest, relEast, north, south, yTop, yBottom, speed, maxAge,
    );
  }
}
