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
 *               newRelLon = f32 of (lon - view centre) wrapped into [-180, 180), newRelLat = f32
 *               of (lat - view centre latitude): differences taken in f64 before rounding, so a
 *               one-pixel step keeps its precision at zoom 16. prev = new minus the step's f32
 *               displacement (in f32), so a segment across the antimeridian stays short.
 *               A respawned particle gets a degenerate segment (prev = new). The SIMD kernel
 *               uses a group's 64 bytes as scratch between its passes (table further down).
 *   +36 cap     i32 respawn[cap]   scratch of the SIMD kernel: indices to respawn after its loop
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
 *   (dLon, dLat) = f32(speed) (U2, V2) in f32, the step's displacement
 *   p' = p + (dLon, dLat) in f64, lon wrapped into [-180, 180) by one turn (a step moves less
 *        than 360 degrees: |speed U| < 360)
 *   age += 1; respawn if age > maxAge, if p' leaves the view (tested in f32 on the vertex's
 *   offsets from the view's centre, viewSouth below), or if a sample was NaN (NaN flows into p',
 *   which then fails the view test, so one test covers all three).
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
/** Bits of f32 2^23: adding it to a whole number below 2^23 leaves that number in the low bits. */
const MAGIC_BITS: i32 = 0x4b000000;

/**
 * The SIMD kernel's vectors, 16 bytes each at the offsets below, written by particlesStepSimd
 * before its first pass (static data of this module, below __heap_base). Each pass loads the
 * ones it uses before its loop: TurboFan (V8) schedules a splat or a conversion at its use,
 * inside the loop, and redoes it every iteration, while a loaded vector stays loaded (in a
 * register, or spilled and reloaded like any value).
 */
const VECTORS = memory.data(16 * 28, 16);
const MAGIC: usize = 0; // i32x4 MAGIC_BITS
const SIGN: usize = 16; // i32x4 0x80000000
const ONE_BIASED: usize = 32; // i32x4 ONE_BITS ^ 0x80000000: ONE_BITS for a signed compare
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
const CENTRE: usize = 304; // f64x2 from here: the view
const CENTRE_LAT: usize = 320;
const MAX_AGE: usize = 336; // i32x4
const ABS_MASK: usize = 352; // f64x2 all bits but the sign
const WRAP_FREE: usize = 368; // f32x4: wrapColumn leaves every gx in [0, WRAP_FREE) as it is (cellsPass)
const SPEED: usize = 384; // f32x4 f32(speed)
const VIEW_LO: usize = 400; // f32x4 viewBounds: (west, south, west, south)
const VIEW_HI: usize = 416; // (east, north, east, north)


/** Writes VECTORS for a call (the fixed ones too: a few stores, cheaper than a flag). */
function setVectors(
  field: usize, centre: f64, centerLat: f64, relWest: f64, relEast: f64, north: f64, south: f64,
  speed: f64, maxAge: i32, kx: f32, ky: f32,
): void {
  const v = VECTORS;
  v128.store(v + MAGIC, i32x4.splat(MAGIC_BITS));
  v128.store(v + SIGN, i32x4.splat(0x80000000));
  v128.store(v + ONE_BIASED, i32x4.splat(ONE_BITS ^ 0x80000000));
  v128.store(v + TURN, f64x2.splat(360));
  v128.store(v + MINUS_TURN, f64x2.splat(-360));
  v128.store(v + HALF_TURN, f64x2.splat(180));
  v128.store(v + MINUS_HALF_TURN, f64x2.splat(-180));
  const stride = fieldStride(field);
  const rowBytes = stride << 3;
  const period = <f32>fieldPeriod(field);
  v128.store(v + LON0, f64x2.splat(fieldLon0(field)));
  v128.store(v + LAT0, f64x2.splat(fieldLat0(field)));
  v128.store(v + INV_DLON, f64x2.splat(fieldInvDlon(field)));
  v128.store(v + INV_DLAT, f64x2.splat(fieldInvDlat(field)));
  v128.store(v + PERIOD, f32x4.splat(period));
  v128.store(v + INV_PERIOD, f32x4.splat(<f32>fieldInvPeriod(field)));
  v128.store(v + MAX_CELL_X, f32x4.splat(<f32>(stride - 2)));
  v128.store(v + MAX_CELL_Y, f32x4.splat(<f32>(fieldRows(field) - 2)));
  v128.store(v + KX, f32x4.splat(kx));
  v128.store(v + KY, f32x4.splat(ky));
  v128.store(v + ROW_BYTES, i32x4.splat(rowBytes));
  v128.store(v + NODE_BASE, i32x4.splat(<i32>fieldNodes(field) - (MAGIC_BITS << 3) - MAGIC_BITS * rowBytes));
  v128.store(v + CENTRE, f64x2.splat(centre));
  v128.store(v + CENTRE_LAT, f64x2.splat(centerLat));
  v128.store(v + MAX_AGE, i32x4.splat(maxAge));
  v128.store(v + ABS_MASK, i64x2.splat(0x7fffffffffffffff));
  // gx * invPeriod < 1 - 2^-17 below this, so floor(gx * invPeriod) is 0 and wrapColumn(gx) = gx.
  v128.store(v + WRAP_FREE, f32x4.splat(period * <f32>(1 - 1.0 / 65536)));
  v128.store(v + SPEED, f32x4.splat(<f32>speed));
  const west = <f32>relWest;
  const east = <f32>relEast;
  const southF = viewSouth(south, centerLat);
  const northF = viewNorth(north, centerLat);
  v128.store(v + VIEW_LO, f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(west), 1, southF), 3, southF));
  v128.store(v + VIEW_HI, f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(east), 1, northF), 3, northF));
}

/*
 * The view test of every kernel, in f32 on the values the vertex gets: a particle stays while
 * f32(relWest) <= rel <= f32(relEast) and viewSouth <= relLat <= viewNorth, with rel and relLat
 * the f32 offsets from the view's centre (NaN fails).
 */
@inline function viewSouth(south: f64, centerLat: f64): f32 {
  return <f32>(south - centerLat);
}
@inline function viewNorth(north: f64, centerLat: f64): f32 {
  return <f32>(north - centerLat);
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
/** W: each group's wy (cellsPass) for the block being stepped (table below). */
const BLOCK_SCRATCH = memory.data(BLOCK_GROUPS * 16, 16);

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

/*
 * A fresh particle uniformly over the view on screen: longitude uniform in [west, east], Web
 * Mercator y uniform in [yTop, yBottom], latitude = gd(pi (1 - 2y)) (inverse Mercator; gd the
 * Gudermannian function) from the spawn table.
 *
 *   SPAWN_TABLE: f64[SPAWN_SEGMENTS][4], written once by the wrapper (engine/spawn.ts, which
 *   draws it): per segment i of y in [0, 1], the coefficients (a, b, c, d) of the cubic Hermite
 *   interpolant of the latitude, lat = a + t (b + t (c + t d)), t = y SPAWN_SEGMENTS - i.
 *   Within 6e-9 degrees of gd: a lookup and a cubic per respawn instead of an exp and an atan.
 */
const SPAWN_SEGMENTS: i32 = 512;
const SPAWN_TABLE = memory.data(SPAWN_SEGMENTS * 32, 16);

/** Where the wrapper writes the spawn table (engine/spawn.ts), and its size in bytes. */
export function particlesSpawnTable(): usize {
  return SPAWN_TABLE;
}
export function particlesSpawnTableBytes(): i32 {
  return SPAWN_SEGMENTS * 32;
}

@inline function spawnLongitude(r1: f64, centre: f64, relWest: f64, relEast: f64): f64 {
  return wrapLongitude(centre + (relWest + r1 * (relEast - relWest)));
}
/**
 * The latitude of y = yTop + r2 (yBottom - yTop) from the spawn table: segment floor(y n) clamped
 * to [0, n - 1] (NaN to 0), so a y outside [0, 1] extends an end segment's cubic.
 */
@inline function spawnLatitude(r2: f64, yTop: f64, yBottom: f64): f64 {
  const s = (yTop + r2 * (yBottom - yTop)) * <f64>SPAWN_SEGMENTS;
  const f = Math.floor(s);
  const i = f >= 0 ? (f <= <f64>(SPAWN_SEGMENTS - 1) ? f : <f64>(SPAWN_SEGMENTS - 1)) : 0;
  const t = s - i;
  const c = SPAWN_TABLE + (<usize>(<i32>i) << 5);
  return load<f64>(c) + t * (load<f64>(c, 8) + t * (load<f64>(c, 16) + t * load<f64>(c, 24)));
}
/** Stores a spawned particle: age 0 and a degenerate segment (prev = new). */
@inline function storeSpawned(particles: usize, cap: usize, o: usize, lon: f64, lat: f64, centre: f64, centreLat: f64): void {
  store<f64>(particles + (o << 3), lon);
  store<f64>(latBase(particles, cap) + (o << 3), lat);
  store<i32>(ageBase(particles, cap) + (o << 2), 0);
  const v = vertexBase(particles, cap) + (o << 4);
  const rel = <f32>wrapHalfTurn(lon - centre);
  const relLat = <f32>(lat - centreLat);
  store<f32>(v, rel, 0);
  store<f32>(v, relLat, 4);
  store<f32>(v, rel, 8);
  store<f32>(v, relLat, 12);
}

/** Respawns particle k (two draws of the generator). */
@inline function respawn(
  particles: usize, cap: usize, k: i32,
  centre: f64, centreLat: f64, relWest: f64, relEast: f64, yTop: f64, yBottom: f64,
): void {
  const r1 = nextRandom();
  const r2 = nextRandom();
  const lon = spawnLongitude(r1, centre, relWest, relEast);
  const lat = spawnLatitude(r2, yTop, yBottom);
  storeSpawned(particles, cap, <usize>k, lon, lat, centre, centreLat);
}

/**
 * respawn for each of the n particle indices at `list`, in list order (the generator's draws are
 * those of n respawn calls).
 */
function respawnBatch(
  particles: usize, cap: usize, list: usize, n: i32,
  centre: f64, centreLat: f64, relWest: f64, relEast: f64, yTop: f64, yBottom: f64,
): void {
  const end = list + (<usize>n << 2);
  for (let at = list; at < end; at += 4) {
    respawn(particles, cap, load<i32>(at), centre, centreLat, relWest, relEast, yTop, yBottom);
  }
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
  centre: f64, centreLat: f64, relWest: f64, relEast: f64, yTop: f64, yBottom: f64,
  viewWest: f32, viewEast: f32, viewSouth: f32, viewNorth: f32, speedF: f32, maxAge: i32,
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
  const dLon = speedF * u2;
  const dLat = speedF * v2;
  const newLon = wrapHalfTurn(lon + <f64>dLon);
  const newLat = lat + <f64>dLat;
  const rel = <f32>wrapHalfTurn(newLon - centre);
  const relLat = <f32>(newLat - centreLat);
  if (age > maxAge || !(rel >= viewWest && rel <= viewEast && relLat >= viewSouth && relLat <= viewNorth)) {
    respawn(particles, cap, k, centre, centreLat, relWest, relEast, yTop, yBottom);
    return;
  }
  store<f64>(lonAddr, newLon);
  store<f64>(latAddr, newLat);
  store<i32>(ageAddr, age);
  const v = vertexBase(particles, cap) + (o << 4);
  store<f32>(v, rel - dLon, 0);
  store<f32>(v, relLat - dLat, 4);
  store<f32>(v, rel, 8);
  store<f32>(v, relLat, 12);
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
      centre, centerLat, relWest, relEast, yTop, yBottom,
      <f32>relWest, <f32>relEast, viewSouth(south, centerLat), viewNorth(north, centerLat), <f32>speed, maxAge,
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
 * the group's 64 vertex bytes (V) and in 16 bytes (W) of BLOCK_SCRATCH, which the next block
 * reuses: it stays in L1, where a particle-sized array would stream 60 KB through the caches.
 *
 *   pass         reads                         writes
 *   coordinates  lon, lat                      V+0 gx (raw), V+16 gy        f32x4 each
 *   cells        V+0 gx, V+16 gy               V+0 gx (wrapped), V+32 i32x4 address of the
 *                                              north-west node of the (clamped) cell, V+48 wx,
 *                                              W+0 wy (NaN when outside the grid)
 *   midpoints    V+0..63, W+0..15              V+0 gx + kx U1 (raw), V+16 gy + ky V1
 *   cells        (again, on the midpoints)
 *   samples      V+32..63, W+0..15             V+0 f32(speed) (U0, U1, V0, V1), V+16 (U2, U3,
 *                                              V2, V3): the displacements (dLon0, dLon1, dLat0, ...)
 *   step         V+0..31, lon, lat, age        lon, lat, age, V+0..63 vertices, respawn list
 *
 * Cost per 15 000-particle step (bench/kernels.ts field and view; passes timed by removing the
 * later ones, in Node, quiet machine, whole step ~118 us): coordinates ~10 us, cells ~11 us each,
 * midpoints ~29 us, samples ~22 us, step and respawns ~33 us. The loops run near the CPU's vector
 * throughput; the gathers also wait on L2 (the field's nodes in the view span ~370 KB, over L1,
 * and particles visit them in no spatial order): with every read inside 16 KB the step is ~11 %
 * faster. Fusing passes was slower every way tried
 * (coordinates + cells, midpoints + cells, samples + step, midpoints with the previous block's
 * samples), as was loading the next block's nodes early in the step pass (the loads hold up
 * retirement); unrolling the passes by two groups gained nothing (the loop's scalar work runs
 * beside the vectors). The step pass tests the view and forms the segment starts in f32, 4 lanes
 * at once, where f64 took 2: the whole step ~4 % faster than with those in f64 (A/B in one
 * process, alternating). Forming the node index in f32 instead of the i32 multiply gained ~1 %
 * (not kept: fields over 2^23 nodes would need the multiply anyway).
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

/**
 * The i32x4 addresses, wx and wy of each group: f32 cells and weights, and sampleGrid's inside
 * test. An outside lane keeps a clamped cell (its reads stay in the nodes) and gets wy = NaN (all
 * bits set), which turns both of its blends into NaN: NaN * anything is NaN.
 */
function cellsPass(v: usize, w: usize, end: usize): void {
  const period = v128.load(VECTORS + PERIOD);
  const invPeriod = v128.load(VECTORS + INV_PERIOD);
  const wrapFree = v128.load(VECTORS + WRAP_FREE);
  const maxCellX = v128.load(VECTORS + MAX_CELL_X);
  const maxCellY = v128.load(VECTORS + MAX_CELL_Y);
  const rowBytes = v128.load(VECTORS + ROW_BYTES);
  const nodeBase = v128.load(VECTORS + NODE_BASE);
  const magic = v128.load(VECTORS + MAGIC);
  const oneBiased = v128.load(VECTORS + ONE_BIASED);
  const sign = v128.load(VECTORS + SIGN);
  for (; v < end; v += GROUP_VERTEX_BYTES, w += GROUP_I32_BYTES) {
    let gx = v128.load(v);
    // wrapColumns is the identity on [+0, WRAP_FREE), where nearly every gx is (a turn of columns
    // is wider than the view): test the sign bit (so -0 and NaN take the wrap) and the bound.
    if (i32x4.bitmask(v128.and(i32x4.gt_s(gx, i32x4.splat(-1)), f32x4.lt(gx, wrapFree))) != 15) {
      gx = wrapColumns(gx, period, invPeriod);
    }
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
    // Inside exactly when both weights' bits, unsigned, are at most ONE_BITS: an unsigned compare
    // made signed by flipping the sign bits (SSE has no unsigned one).
    const outside = i32x4.gt_s(v128.xor(i32x4.max_u(wx, wy), sign), oneBiased);
    v128.store(v, gx);
    v128.store(v, at, 32);
    v128.store(v, wx, 48);
    v128.store(w, v128.or(wy, outside));
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

/** Displacements f32(speed) times the samples after cellsPass, (U0, U1, V0, V1), (U2, U3, V2, V3), into V+0, V+16. */
function samplesPass(v: usize, w: usize, end: usize, rowBytes: usize): void {
  const speed = v128.load(VECTORS + SPEED);
  for (; v < end; v += GROUP_VERTEX_BYTES, w += GROUP_I32_BYTES) {
    const s01 = blendPair(v, w, rowBytes, 0);
    const s23 = blendPair(v, w, rowBytes, 2);
    v128.store(v, f32x4.mul(speed, s01));
    v128.store(v, f32x4.mul(speed, s23), 16);
  }
}

/**
 * The vertices of a pair: new = (rel, newRelLat) demoted from the f64 differences, prev = new - d
 * in f32, d = (dLon0, dLat0, dLon1, dLat1); stored by 8-byte halves, so that no shuffle puts each
 * particle's four together. Returns new, (rel0, newRelLat0, rel1, newRelLat1), for the view test.
 */
@inline function storeVertexPair(v: usize, rel: v128, newLat: v128, centreLat: v128, d: v128): v128 {
  const b = f32x4.shuffle(
    f32x4.demote_f64x2_zero(rel), f32x4.demote_f64x2_zero(f64x2.sub(newLat, centreLat)), 0, 4, 1, 5,
  );
  const a = f32x4.sub(b, d);
  v128.store64_lane(v, a, 0);
  v128.store64_lane(v, b, 0, 8);
  v128.store64_lane(v, a, 1, 16);
  v128.store64_lane(v, b, 1, 24);
  return b;
}

/**
 * The RK2 step of each group from its midpoint displacements (V+0..31); NaN anywhere fails the
 * view test. Appends the group's respawns (particle indices from k) to the list at `list`, lowest
 * index first; returns the list length. rel = wrapHalfTurn(newLon - centre) has one side to wrap:
 * newLon is in [-180, 180) and centre in [-180, 180] (180 when wrapLongitude rounds up), so
 * d = newLon - centre is in (-180, 360) when centre < 0 (east: d >= 180 takes -360) and in
 * [-360, 180) otherwise (west: d < -180 takes +360). One loop for each, so neither tests the other.
 */
function stepPass(lon: usize, lat: usize, age: usize, v: usize, end: usize, k: i32, list: usize, respawns: i32): i32 {
  return load<f64>(VECTORS + CENTRE) < 0
    ? stepPassEast(lon, lat, age, v, end, k, list, respawns)
    : stepPassWest(lon, lat, age, v, end, k, list, respawns);
}

function stepPassEast(lon: usize, lat: usize, age: usize, v: usize, end: usize, k: i32, list: usize, respawns: i32): i32 {
  return stepLoop(lon, lat, age, v, end, k, list, respawns, true);
}

function stepPassWest(lon: usize, lat: usize, age: usize, v: usize, end: usize, k: i32, list: usize, respawns: i32): i32 {
  return stepLoop(lon, lat, age, v, end, k, list, respawns, false);
}

/**
 * stepPass for one side (east a constant after inlining). The displacements are promoted straight
 * from memory for the positions and shuffled into vertex order for the segments; the view test
 * runs on the new vertices, 4 lanes at a time. Both groups' displacements are loaded before pair
 * 01's vertices overwrite V+0..31.
 */
@inline function stepLoop(lon: usize, lat: usize, age: usize, v: usize, end: usize, k: i32, list: usize, respawns: i32, east: bool): i32 {
  const centre = v128.load(VECTORS + CENTRE);
  const centreLat = v128.load(VECTORS + CENTRE_LAT);
  const viewLo = v128.load(VECTORS + VIEW_LO);
  const viewHi = v128.load(VECTORS + VIEW_HI);
  const maxAge = v128.load(VECTORS + MAX_AGE);
  const absMask = v128.load(VECTORS + ABS_MASK);
  const halfTurn = v128.load(VECTORS + HALF_TURN);
  const shift = v128.load(VECTORS + (east ? TURN : MINUS_TURN));
  const limit = v128.load(VECTORS + (east ? HALF_TURN : MINUS_HALF_TURN));
  const minusOne = i32x4.splat(-1); // all ones: V8 makes it with one pcmpeqd, unlike splat(1)
  for (; v < end; v += GROUP_VERTEX_BYTES, lon += GROUP_F64_BYTES, lat += GROUP_F64_BYTES, age += GROUP_I32_BYTES) {
    // V+0 (dLon0, dLon1, dLat0, dLat1), V+16 (dLon2, dLon3, dLat2, dLat3)
    const s01 = v128.load(v);
    const s23 = v128.load(v, 16);
    let newLon01 = f64x2.add(v128.load(lon), f64x2.promote_low_f32x4(s01));
    let newLon23 = f64x2.add(v128.load(lon, 16), f64x2.promote_low_f32x4(s23));
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
    v128.store(lon, newLon01);
    v128.store(lon, newLon23, 16);
    const newLat01 = f64x2.add(v128.load(lat), f64x2.promote_low_f32x4(v128.load64_zero(v, 8)));
    const newLat23 = f64x2.add(v128.load(lat, 16), f64x2.promote_low_f32x4(v128.load64_zero(v, 24)));
    v128.store(lat, newLat01);
    v128.store(lat, newLat23, 16);
    const d01 = f64x2.sub(newLon01, centre);
    const rel01 = f64x2.sub(d01, v128.and(shift, east ? f64x2.ge(d01, limit) : f64x2.lt(d01, limit)));
    const d23 = f64x2.sub(newLon23, centre);
    const rel23 = f64x2.sub(d23, v128.and(shift, east ? f64x2.ge(d23, limit) : f64x2.lt(d23, limit)));
    const b01 = storeVertexPair(v, rel01, newLat01, centreLat, i32x4.shuffle(s01, s01, 0, 2, 1, 3));
    const b23 = storeVertexPair(v + 32, rel23, newLat23, centreLat, i32x4.shuffle(s23, s23, 0, 2, 1, 3));
    const in01 = v128.and(f32x4.ge(b01, viewLo), f32x4.le(b01, viewHi));
    const in23 = v128.and(f32x4.ge(b23, viewLo), f32x4.le(b23, viewHi));
    // Lane n: particle k + n inside in longitude and in latitude.
    const inside = v128.and(i32x4.shuffle(in01, in23, 0, 2, 4, 6), i32x4.shuffle(in01, in23, 1, 3, 5, 7));
    const ages = i32x4.sub(v128.load(age), minusOne);
    v128.store(age, ages);
    // Lane n: particle k + n stays (in the view, not too old); bit n of flags set: it respawns.
    const stays = v128.andnot(inside, i32x4.gt_s(ages, maxAge));
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
 * during the step pass and done after the last block, in particle order (respawnBatch), so no call
 * sits inside the hot loops; the last count % 4 particles take the scalar step after them.
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
    const w = BLOCK_SCRATCH;
    const lon = particles + g * GROUP_F64_BYTES;
    const lat = lats + g * GROUP_F64_BYTES;
    coordinatesPass(lon, lat, v, vEnd);
    cellsPass(v, w, vEnd);
    midpointsPass(v, w, vEnd, rowBytes);
    cellsPass(v, w, vEnd);
    samplesPass(v, w, vEnd, rowBytes);
    respawns = stepPass(lon, lat, ages + g * GROUP_I32_BYTES, v, vEnd, first << 2, respawnList, respawns);
  }
  respawnBatch(particles, cap, respawnList, respawns, centre, centerLat, relWest, relEast, yTop, yBottom);
  for (let k = groups << 2; k < count; k++) {
    stepOne(
      particles, cap, k, fieldNodes(field), stride, <f32>(stride - 2), <f32>(fieldRows(field) - 2),
      fieldLon0(field), fieldLat0(field), invDlon, invDlat, <f32>fieldPeriod(field), <f32>fieldInvPeriod(field), kx, ky,
      centre, centerLat, relWest, relEast, yTop, yBottom,
      <f32>relWest, <f32>relEast, viewSouth(south, centerLat), viewNorth(north, centerLat), <f32>speed, maxAge,
    );
  }
}
