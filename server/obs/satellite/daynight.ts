/**
 * The day/night image of the satellite overlay: visible by day, infrared by night, blended across
 * twilight by the solar zenith angle.
 *
 *   - Solar zenith angle θ = 90° - the Sun's altitude from suncalc's getPosition (suncalc 2.x, the
 *     formulas of J. Meeus, "Astronomical Algorithms", 2nd ed., ch. 25 (solar coordinates) and 13
 *     (horizontal coordinates); apparent altitude, refraction included).
 *   - Visible brightness: the reflectance factor normalised by the solar zenith, R / cos θ (the
 *     usual solar-zenith correction of reflectance; cos θ held at cos 80° or more so it does not
 *     blow up near the terminator), clamped to [0, 1].
 *   - Infrared brightness: a linear greyscale of the brightness temperature, 0 at 310 K (warm
 *     ground) to 1 at 200 K (cold cloud tops), clamped (common/satellite.ts IR_WARM_K, IR_COLD_K).
 *   - Blend: day weight w = clamp((90° - θ) / 10°, 0, 1): all visible while the Sun is 10° or more
 *     up, all infrared once it has set, linear between.
 */

import { getPosition } from 'suncalc';
import { IR_COLD_K, IR_WARM_K } from '../../../common/satellite.ts';

export { IR_COLD_K, IR_WARM_K };
/** Solar zenith at and below which the image is all visible, and at and above which all infrared. */
export const DAY_ZENITH_DEG = 80;
export const NIGHT_ZENITH_DEG = 90;
const MIN_COS = Math.cos((DAY_ZENITH_DEG * Math.PI) / 180);

/** Solar zenith angle (degrees) at a place and time (ms UTC). */
export function solarZenithDeg(time: number, lon: number, lat: number): number {
  return 90 - getPosition(new Date(time), lat, lon).altitude;
}

export function irBrightness(kelvin: number): number {
  return Math.min(1, Math.max(0, (IR_WARM_K - kelvin) / (IR_WARM_K - IR_COLD_K)));
}

export function visibleBrightness(reflectance: number, zenithDeg: number): number {
  const c = Math.max(MIN_COS, Math.cos((zenithDeg * Math.PI) / 180));
  return Math.min(1, Math.max(0, reflectance / c));
}

export function dayWeight(zenithDeg: number): number {
  return Math.min(1, Math.max(0, (NIGHT_ZENITH_DEG - zenithDeg) / (NIGHT_ZENITH_DEG - DAY_ZENITH_DEG)));
}

/**
 * The composite brightness of one place: NaN inputs count as missing (no visible: infrared alone;
 * no infrared: visible alone by day, NaN at night).
 */
export function composite(kelvin: number, reflectance: number, zenithDeg: number): number {
  const ir = Number.isNaN(kelvin) ? Number.NaN : irBrightness(kelvin);
  if (Number.isNaN(reflectance)) return ir;
  const w = dayWeight(zenithDeg);
  if (w === 0) return ir;
  const vis = visibleBrightness(reflectance, zenithDeg);
  if (Number.isNaN(ir)) return w === 1 ? vis : Number.NaN;
  return w * vis + (1 - w) * ir;
}

/**
 * Solar zenith over a tile's nodes: suncalc on a lattice at most ZENITH_LATTICE_DEG apart (and at
 * most 15 nodes), bilinear between; the zenith angle varies smoothly enough that this stays within
 * 0.02° of suncalc at every node (measured over tiles of zooms 2 to 5, daynight.test.ts).
 */
export const ZENITH_LATTICE_DEG = 0.5;

export function zenithGrid(time: number, west: number, north: number, nodeStep: number, nodes: number): Float32Array {
  const step = Math.max(1, Math.min(15, Math.floor(ZENITH_LATTICE_DEG / nodeStep)));
  const m = Math.ceil((nodes - 1) / step) + 1;
  const lattice = new Float64Array(m * m);
  for (let b = 0; b < m; b++) {
    for (let a = 0; a < m; a++) {
      const lat = Math.max(-90, north - Math.min(nodes - 1, b * step) * nodeStep);
      lattice[b * m + a] = solarZenithDeg(time, west + Math.min(nodes - 1, a * step) * nodeStep, lat);
    }
  }
  const out = new Float32Array(nodes * nodes);
  for (let j = 0; j < nodes; j++) {
    const b = Math.min(m - 2, Math.floor(j / step));
    const fb = (j - b * step) / (Math.min(nodes - 1, (b + 1) * step) - b * step);
    for (let i = 0; i < nodes; i++) {
      const a = Math.min(m - 2, Math.floor(i / step));
      const fa = (i - a * step) / (Math.min(nodes - 1, (a + 1) * step) - a * step);
      const top = lattice[b * m + a] * (1 - fa) + lattice[b * m + a + 1] * fa;
      const bottom = lattice[(b + 1) * m + a] * (1 - fa) + lattice[(b + 1) * m + a + 1] * fa;
      out[j * nodes + i] = top * (1 - fb) + bottom * fb;
    }
  }
  return out;
}
