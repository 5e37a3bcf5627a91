/**
 * The spawn latitude table: where a fresh particle lands in latitude for a Web Mercator y drawn
 * uniformly over the view (engine/assembly/particles.ts, respawn). Latitude is the inverse
 * Mercator gd(pi (1 - 2y)) (gd the Gudermannian function); evaluating it takes an exp and an atan,
 * which cost a respawn more than the rest of it. Instead, y in [0, 1] (the whole Mercator world) is
 * cut into SPAWN_SEGMENTS segments, and on each the cubic Hermite interpolant of gd through the
 * segment's ends, with gd's slopes there, stands in for it: within 6e-9 degrees of gd everywhere
 * (engine/spawn.test.ts), under a millimetre on the ground, a thousandth of a pixel at zoom 16.
 *
 * The wrapper (engine/engine.ts) writes this table into WASM memory once and both the kernels and
 * the plain-TS reference (engine/reference.ts) evaluate the same bits with the same operations,
 * so spawned latitudes agree bit for bit.
 *
 *   table: f64[SPAWN_SEGMENTS][4], per segment i the coefficients (a, b, c, d) of
 *   lat(t) = a + t (b + t (c + t d)) in degrees, t = y SPAWN_SEGMENTS - i in [0, 1].
 */

import { latFromMercY } from '../common/map.ts';

const DEG = Math.PI / 180;

export const SPAWN_SEGMENTS = 512;

let table: Float64Array | null = null;

/** The table (built once, shared; callers must not write it). */
export function spawnLatitudeTable(): Float64Array {
  if (table) return table;
  const n = SPAWN_SEGMENTS;
  // At each segment end: the latitude, and its slope per unit t, dlat/dy / n, where
  // dlat/dy = gd'(x) dx/dy in degrees = cos(lat) (-2 pi) (180 / pi) = -360 cos(lat).
  const lat = Float64Array.from({ length: n + 1 }, (_, i) => latFromMercY(i / n));
  const slope = lat.map((l) => (-360 * Math.cos(l * DEG)) / n);
  table = hermite(lat, slope);
  return table;
}

let sphere: Float64Array | null = null;

/**
 * The globe's table (common/globe.ts; the renderer writes it in place of the Mercator one while
 * the globe is shown): latitude = asin(1 - 2u) for u in [0, 1], so that u drawn uniformly between
 * (1 - sin north) / 2 and (1 - sin south) / 2 spreads particles evenly over the sphere's area
 * (Archimedes' hat-box theorem: the area of a zone is proportional to the difference of the sines
 * of its bounding latitudes), with no crowding towards the poles. Same layout as the Mercator
 * table; dlat/du = -2 / cos(lat) (degrees: times 180 / pi) is infinite at the poles, where the end
 * segments take their chord's slope instead, which puts them within 1.5 degrees of asin.
 */
export function sphereSpawnTable(): Float64Array {
  if (sphere) return sphere;
  const n = SPAWN_SEGMENTS;
  const lat = Float64Array.from({ length: n + 1 }, (_, i) => Math.asin(Math.max(-1, Math.min(1, 1 - (2 * i) / n))) / DEG);
  const slope = lat.map((l, i) => {
    if (i === 0) return lat[1] - lat[0];
    if (i === n) return lat[n] - lat[n - 1];
    return (-2 / Math.cos(l * DEG) / DEG) / n;
  });
  sphere = hermite(lat, slope);
  return sphere;
}

/** Per segment the cubic Hermite coefficients (a, b, c, d) through the ends' values and slopes. */
function hermite(lat: Float64Array, slope: Float64Array): Float64Array {
  const n = lat.length - 1;
  const out = new Float64Array(n * 4);
  for (let i = 0; i < n; i++) {
    const [p0, p1, m0, m1] = [lat[i], lat[i + 1], slope[i], slope[i + 1]];
    out[i * 4] = p0;
    out[i * 4 + 1] = m0;
    out[i * 4 + 2] = 3 * (p1 - p0) - 2 * m0 - m1;
    out[i * 4 + 3] = 2 * (p0 - p1) + m0 + m1;
  }
  return out;
}

/** The globe's spawn range of a latitude band: u of its north and south edges (sphereSpawnTable). */
export function sphereSpawnRange(north: number, south: number): { yTop: number; yBottom: number } {
  return { yTop: (1 - Math.sin(north * DEG)) / 2, yBottom: (1 - Math.sin(south * DEG)) / 2 };
}

/**
 * The latitude of Web Mercator y from the table, the operations of particles.ts spawnLatitude:
 * the segment floor(y n) clamped to [0, n - 1] (NaN to 0), so y outside [0, 1] extends the end
 * segments' cubics.
 */
export function spawnLatitude(table: Float64Array, y: number): number {
  const s = y * SPAWN_SEGMENTS;
  const f = Math.floor(s);
  const i = f >= 0 ? (f <= SPAWN_SEGMENTS - 1 ? f : SPAWN_SEGMENTS - 1) : 0;
  const t = s - i;
  const o = i * 4;
  return table[o] + t * (table[o + 1] + t * (table[o + 2] + t * table[o + 3]));
}
