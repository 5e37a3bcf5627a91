/*
 * Particle advection over the field (field.ts): RK2 midpoint steps in lon/lat, respawn, and the
 * line-segment vertices the render worker uploads straight from this memory.
 *
 *   particles: one region of 40 * cap bytes, cap = count rounded up to a multiple of 4 so that
 *   every array starts 16-byte aligned
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
 *               parks each pair's midpoints (2 x f64x2) here between its two passes.
 *   +36 cap     i32 respawn[cap]   scratch of the SIMD kernel: indices to respawn after its loop
 *
 *   rngState: a module global, xorshift32, seeded by particlesInit; respawns draw from it strictly
 *   in particle index order in every kernel, so SIMD, scalar and engine/reference.ts agree.
 *
 * One step of one particle p (lon, lat), speed in degrees per (m/s) per step:
 *   (U1, V1) = sample(p)                   mid = p + (speed / 2) * (U1, V1)
 *   (U2, V2) = sample(mid)                 p'  = p + speed * (U2, V2), lon wrapped into [-180, 180)
 *   age += 1; respawn if age > maxAge, if p' leaves the view, or if a sample was NaN (NaN flows
 *   into p', which then fails the view test, so one test covers all three).
 * V already carries cos(latitude), so on a Web Mercator screen the displacement is proportional to
 * the wind speed at every latitude and zoom (the caller sets speed = px per step * 360 / world px).
 */

import {
  fieldInvDlat, fieldInvDlon, fieldInvPeriod, fieldLat0, fieldLon0, fieldNodes, fieldPeriod,
  fieldRows, fieldStride, NODE_BYTES, sampledV, scalarSample,
} from './field';

const DEFAULT_SEED: u32 = 0x9e3779b9; // used for seed 0, which xorshift cannot leave
const INV_2_32: f64 = 1.0 / 4294967296.0;
const DEG_PER_RAD: f64 = 180.0 / Math.PI;
const TWO_52: f64 = 4503599627370496.0;
/**
 * The wrap constants as f64x2 pairs in static data: V8 rebuilds a v128 constant at each use in a
 * loop (3 instructions), while a vector loaded from memory before the loop is kept like any value.
 */
const WRAP_CONSTANTS = memory.data<f64>([360, 360, -360, -360, 180, 180, -180, -180]);
const TURN: usize = 0;
const MINUS_TURN: usize = 16;
const HALF_TURN: usize = 32;
const MINUS_HALF_TURN: usize = 48;

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
 * Mercator y uniform in [yTop, yBottom], latitude = atan(sinh(pi (1 - 2y))) (inverse Mercator).
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
  const lat = Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * DEG_PER_RAD;
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

/** One particle, scalar; shared by the scalar kernel and the odd tail of the SIMD kernel. */
@inline function stepOne(
  particles: usize, cap: usize, k: i32,
  nodes: usize, stride: i32, rows: i32,
  lon0: f64, lat0: f64, invDlon: f64, invDlat: f64, period: f64, invPeriod: f64,
  centre: f64, centreLat: f64, relWest: f64, relEast: f64, north: f64, south: f64, yTop: f64, yBottom: f64,
  speed: f64, half: f64, maxAge: i32,
): void {
  const o = <usize>k;
  const lonAddr = particles + (o << 3);
  const latAddr = latBase(particles, cap) + (o << 3);
  const ageAddr = ageBase(particles, cap) + (o << 2);
  const lon = load<f64>(lonAddr);
  const lat = load<f64>(latAddr);
  const age = load<i32>(ageAddr) + 1;
  const u1 = scalarSample(nodes, stride, rows, lon0, lat0, invDlon, invDlat, period, invPeriod, lon, lat);
  const v1 = sampledV;
  const u2 = scalarSample(nodes, stride, rows, lon0, lat0, invDlon, invDlat, period, invPeriod, lon + half * u1, lat + half * v1);
  const v2 = sampledV;
  const dLon = speed * u2;
  const newLon = wrapHalfTurn(lon + dLon);
  const newLat = lat + speed * v2;
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
  const rows = fieldRows(field);
  const lon0 = fieldLon0(field);
  const lat0 = fieldLat0(field);
  const invDlon = fieldInvDlon(field);
  const invDlat = fieldInvDlat(field);
  const period = fieldPeriod(field);
  const invPeriod = fieldInvPeriod(field);
  for (let k = 0; k < count; k++) {
    stepOne(
      particles, cap, k, nodes, stride, rows, lon0, lat0, invDlon, invDlat, period, invPeriod,
      centre, centerLat, relWest, relEast, north, south, yTop, yBottom, speed, half, maxAge,
    );
  }
}

/**
 * Bilinear samples for two particles (lanes of lon, lat as f64x2) -> f32x4 (U0, U1, V0, V1). The
 * same operations as scalarSample, lane for lane. [U, V] of nodes (i, j) and (i + 1, j) are 16
 * contiguous bytes, so each particle needs two v128 loads, one per row. A point outside the grid
 * reads the field's NaN guard rows instead of branching, so it comes out NaN like any no-data.
 */
@inline function samplePair(
  lon: v128, lat: v128, nodes: usize, rowBytes: usize,
  lon0: v128, lat0: v128, invDlon: v128, invDlat: v128, period: v128, invPeriod: v128,
  maxGx: v128, maxGy: v128, maxCellX: v128, maxCellY: v128, rowBytesV: v128, guardOffset: v128,
): v128 {
  const zero = f64x2.splat(0);
  let gx = f64x2.mul(f64x2.sub(lon, lon0), invDlon);
  gx = f64x2.sub(gx, f64x2.mul(period, f64x2.floor(f64x2.mul(gx, invPeriod))));
  const gy = f64x2.mul(f64x2.sub(lat0, lat), invDlat);
  const inside = v128.and(
    v128.and(f64x2.ge(gx, zero), f64x2.le(gx, maxGx)),
    v128.and(f64x2.ge(gy, zero), f64x2.le(gy, maxGy)),
  );
  // pmin is a plain minpd; in lanes outside (or NaN) its result is replaced below anyway.
  const i = f64x2.pmin(f64x2.floor(gx), maxCellX);
  const j = f64x2.pmin(f64x2.floor(gy), maxCellY);
  // Byte offset of node (i, j), exact in f64; + 2^52 puts it in the low 32 bits of each lane.
  const offset = v128.bitselect(
    f64x2.add(f64x2.add(f64x2.mul(i, f64x2.splat(NODE_BYTES)), f64x2.mul(j, rowBytesV)), f64x2.splat(TWO_52)),
    guardOffset,
    inside,
  );
  const p0 = nodes + <usize>i32x4.extract_lane(offset, 0);
  const p1 = nodes + <usize>i32x4.extract_lane(offset, 2);
  const north0 = v128.load(p0); // U00 V00 U10 V10 of particle 0
  const south0 = v128.load(p0 + rowBytes); // U01 V01 U11 V11
  const north1 = v128.load(p1);
  const south1 = v128.load(p1 + rowBytes);
  const wx = f32x4.demote_f64x2_zero(f64x2.sub(gx, i)); // (wx0, wx1, 0, 0)
  const wy = f32x4.demote_f64x2_zero(f64x2.sub(gy, j));
  // Down the column: (Uw, Vw, Ue, Ve) per particle.
  const col0 = f32x4.add(north0, f32x4.mul(f32x4.shuffle(wy, wy, 0, 0, 0, 0), f32x4.sub(south0, north0)));
  const col1 = f32x4.add(north1, f32x4.mul(f32x4.shuffle(wy, wy, 1, 1, 1, 1), f32x4.sub(south1, north1)));
  // Across: west (Uw0, Uw1, Vw0, Vw1) to east (Ue0, Ue1, Ve0, Ve1).
  const west = f32x4.shuffle(col0, col1, 0, 4, 1, 5);
  const east = f32x4.shuffle(col0, col1, 2, 6, 3, 7);
  return f32x4.add(west, f32x4.mul(f32x4.shuffle(wx, wx, 0, 1, 0, 1), f32x4.sub(east, west)));
}

/**
 * The SIMD kernel: two particles per f64x2 for positions, f32x4 for the bilinear blend. Two passes
 * over the pairs (midpoints, then the full step) keep each dependency chain short enough for the
 * CPU to overlap several pairs. Respawns are listed during the second pass and done after it, in
 * particle order, so no call sits inside the hot loop; an odd last particle takes the scalar step.
 */
export function particlesStepSimd(
  particles: usize, count: i32, field: usize,
  centerLon: f64, centerLat: f64, west: f64, east: f64, north: f64, south: f64, yTop: f64, yBottom: f64,
  speed: f64, maxAge: i32,
): void {
  const cap = capacity(count);
  const lats = latBase(particles, cap);
  const ages = ageBase(particles, cap);
  const vertices = vertexBase(particles, cap);
  const respawnList = respawnBase(particles, cap);
  const centre = wrapLongitude(centerLon);
  const relWest = west - centerLon;
  const relEast = east - centerLon;
  const half = 0.5 * speed;

  const nodes = fieldNodes(field);
  const stride = fieldStride(field);
  const rows = fieldRows(field);
  const rowBytes = <usize>stride << 3;
  const lon0 = fieldLon0(field);
  const lat0 = fieldLat0(field);
  const invDlon = fieldInvDlon(field);
  const invDlat = fieldInvDlat(field);
  const period = fieldPeriod(field);
  const invPeriod = fieldInvPeriod(field);

  const lon0v = f64x2.splat(lon0);
  const lat0v = f64x2.splat(lat0);
  const invDlonV = f64x2.splat(invDlon);
  const invDlatV = f64x2.splat(invDlat);
  const periodV = f64x2.splat(period);
  const invPeriodV = f64x2.splat(invPeriod);
  const maxGx = f64x2.splat(<f64>(stride - 1));
  const maxGy = f64x2.splat(<f64>(rows - 1));
  const maxCellX = f64x2.splat(<f64>(stride - 2));
  const maxCellY = f64x2.splat(<f64>(rows - 2));
  const rowBytesV = f64x2.splat(<f64>rowBytes);
  const guardOffset = f64x2.splat(TWO_52 + <f64>(<usize>rows * rowBytes));

  const halfV = f64x2.splat(half);
  const speedV = f64x2.splat(speed);
  const centreV = f64x2.splat(centre);
  const centreLatV = f64x2.splat(centerLat);
  const relWestV = f64x2.splat(relWest);
  const relEastV = f64x2.splat(relEast);
  const northV = f64x2.splat(north);
  const southV = f64x2.splat(south);
  const maxAgeV = i32x4.splat(maxAge);
  const minusOne = i32x4.splat(-1); // all ones: V8 makes it with one pcmpeqd, unlike splat(1)
  const turnV = v128.load(WRAP_CONSTANTS + TURN);
  const minusTurnV = v128.load(WRAP_CONSTANTS + MINUS_TURN);
  const halfTurnV = v128.load(WRAP_CONSTANTS + HALF_TURN);
  const minusHalfTurnV = v128.load(WRAP_CONSTANTS + MINUS_HALF_TURN);

  const pairs = count >> 1;
  // Pass 1: midpoints, parked in the pair's 32 vertex bytes (2 f64x2) until pass 2 reads them.
  for (let pair = 0; pair < pairs; pair++) {
    const o = <usize>pair << 4;
    const lon = v128.load(particles + o);
    const lat = v128.load(lats + o);
    const s1 = samplePair(
      lon, lat, nodes, rowBytes, lon0v, lat0v, invDlonV, invDlatV, periodV, invPeriodV,
      maxGx, maxGy, maxCellX, maxCellY, rowBytesV, guardOffset,
    );
    const v = vertices + (<usize>pair << 5);
    v128.store(v, f64x2.add(lon, f64x2.mul(halfV, f64x2.promote_low_f32x4(s1))));
    v128.store(v, f64x2.add(lat, f64x2.mul(halfV, f64x2.promote_low_f32x4(f32x4.shuffle(s1, s1, 2, 3, 2, 3)))), 16);
  }
  // Pass 2: the step from the midpoint samples; NaN anywhere fails the view test below.
  let respawns = 0;
  for (let pair = 0; pair < pairs; pair++) {
    const o = <usize>pair << 4;
    const v = vertices + (<usize>pair << 5);
    const s2 = samplePair(
      v128.load(v), v128.load(v, 16), nodes, rowBytes, lon0v, lat0v, invDlonV, invDlatV, periodV, invPeriodV,
      maxGx, maxGy, maxCellX, maxCellY, rowBytesV, guardOffset,
    );
    const lon = v128.load(particles + o);
    const lat = v128.load(lats + o);
    const dLon = f64x2.mul(speedV, f64x2.promote_low_f32x4(s2));
    const newLon = wrapHalfTurn2(f64x2.add(lon, dLon), turnV, minusTurnV, halfTurnV, minusHalfTurnV);
    const newLat = f64x2.add(lat, f64x2.mul(speedV, f64x2.promote_low_f32x4(f32x4.shuffle(s2, s2, 2, 3, 2, 3))));
    const rel = wrapHalfTurn2(f64x2.sub(newLon, centreV), turnV, minusTurnV, halfTurnV, minusHalfTurnV);
    const inView = v128.and(
      v128.and(f64x2.ge(rel, relWestV), f64x2.le(rel, relEastV)),
      v128.and(f64x2.ge(newLat, southV), f64x2.le(newLat, northV)),
    );

    const ageAddr = ages + (<usize>pair << 3);
    const age = i32x4.sub(v128.load64_zero(ageAddr), minusOne);
    v128.store64_lane(ageAddr, age, 0);
    v128.store(particles + o, newLon);
    v128.store(lats + o, newLat);

    // Vertices (prevRel, prevLat, rel, newLat) of both particles from four demoted pairs.
    const prev = f32x4.shuffle(
      f32x4.demote_f64x2_zero(f64x2.sub(rel, dLon)), f32x4.demote_f64x2_zero(f64x2.sub(lat, centreLatV)), 0, 4, 1, 5,
    ); // (prevRel0, prevRelLat0, prevRel1, prevRelLat1)
    const next = f32x4.shuffle(
      f32x4.demote_f64x2_zero(rel), f32x4.demote_f64x2_zero(f64x2.sub(newLat, centreLatV)), 0, 4, 1, 5,
    );
    v128.store(v, f32x4.shuffle(prev, next, 0, 1, 4, 5));
    v128.store(v, f32x4.shuffle(prev, next, 2, 3, 6, 7), 16);

    // Append the pair's respawns to the list, lower index first (branch-free inside).
    const flags = (~i64x2.bitmask(inView) | i32x4.bitmask(i32x4.gt_s(age, maxAgeV))) & 3;
    if (flags != 0) {
      const k = pair << 1;
      store<i32>(respawnList + (<usize>respawns << 2), k);
      respawns += flags & 1;
      store<i32>(respawnList + (<usize>respawns << 2), k + 1);
      respawns += flags >> 1;
    }
  }
  for (let r = 0; r < respawns; r++) {
    respawn(particles, cap, load<i32>(respawnList + (<usize>r << 2)), centre, centerLat, relWest, relEast, yTop, yBottom);
  }
  if (count & 1) {
    stepOne(
      particles, cap, count - 1, nodes, stride, rows, lon0, lat0, invDlon, invDlat, period, invPeriod,
      centre, centerLat, relWest, relEast, north, south, yTop, yBottom, speed, half, maxAge,
    );
  }
}
