/**
 * Smooth deterministic noise on the sphere for the demo product (cloud texture, shower cells).
 *
 * Value noise on a "reduced" latitude-longitude lattice: lattice row r lies at latitude
 * 90° - r * cell and holds n_r = round(360° cos(lat_r) / cell) values around the circle (one at each
 * pole), so cells are about `cell` degrees of arc everywhere and the noise is single-valued at
 * the poles. Within a row values are interpolated with a smoothstep along longitude, between rows
 * with a smoothstep along latitude: the result is C1 and wraps around the antimeridian.
 *
 * Time: each lattice value is a hashed random number per keyframe (every `keyframeHours`),
 * smoothstep-blended between keyframes, and every row drifts with the mean flow of its latitude
 * (eastward in mid-latitudes, westward in the trades), so the texture moves like weather instead
 * of blinking. Everything is a pure function of (lat, lon, t).
 *
 * Layout of a NoiseField (one time): `values` holds all rows back to back; row r starts at
 * `rowStart[r]`, has `rowCount[r]` values and is shifted east by `rowOffset[r]` radians.
 */

import { HOUR_MS } from '../../common/time.ts';
import { hash01 } from './hash.ts';
import { EARTH_RADIUS_M } from './systems.ts';

export interface NoiseDefinition {
  /** Keeps different noises independent. */
  salt: number;
  /** Lattice spacing, degrees; 180 / cellDeg must be an integer. */
  cellDeg: number;
  keyframeHours: number;
}

export interface NoiseField {
  cellDeg: number;
  rows: number;
  rowStart: Int32Array;
  rowCount: Int32Array;
  /** Eastward shift of each row now, radians in [0, 2π). */
  rowOffset: Float64Array;
  /** Values in [-1, 1]. */
  values: Float64Array;
}

// Mean surface steering flow, m/s: westerlies peaking near 45°, easterly trades near the equator.
const WESTERLY_MS = 10;
const TRADE_MS = 6;
const TRADE_WIDTH_DEG = 12;
const TWO_PI = 2 * Math.PI;

/**
 * Angular drift of the texture at a latitude, rad/s: U(φ) / (R cos φ) with
 * U = 10 sin²(2φ) - 6 exp(-(φ/12°)²) m/s, written so that the cos φ cancels in the westerly part.
 */
function noiseDrift(latDeg: number): number {
  const phi = (latDeg * Math.PI) / 180;
  const s = Math.sin(phi);
  const c = Math.cos(phi);
  const westerly = WESTERLY_MS * 4 * s * s * c; // 10 sin²(2φ) / cos φ
  const trade = (TRADE_MS * Math.exp(-((latDeg / TRADE_WIDTH_DEG) ** 2))) / Math.max(c, 0.5);
  return (westerly - trade) / EARTH_RADIUS_M;
}

const smoothstep01 = (t: number) => t * t * (3 - 2 * t);

export function noiseAt(def: NoiseDefinition, timeMs: number): NoiseField {
  const rows = Math.round(180 / def.cellDeg) + 1;
  const rowStart = new Int32Array(rows);
  const rowCount = new Int32Array(rows);
  const rowOffset = new Float64Array(rows);
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const lat = 90 - r * def.cellDeg;
    rowCount[r] = Math.max(1, Math.round((360 * Math.cos((lat * Math.PI) / 180)) / def.cellDeg));
    rowStart[r] = total;
    total += rowCount[r];
    const offset = (noiseDrift(lat) * timeMs) / 1000;
    rowOffset[r] = ((offset % TWO_PI) + TWO_PI) % TWO_PI;
  }
  const keyframe = timeMs / (def.keyframeHours * HOUR_MS);
  const key = Math.floor(keyframe);
  const blend = smoothstep01(keyframe - key);
  const values = new Float64Array(total);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < rowCount[r]; c++) {
      const before = 2 * hash01(def.salt, r, c, key) - 1;
      const after = 2 * hash01(def.salt, r, c, key + 1) - 1;
      values[rowStart[r] + c] = before + (after - before) * blend;
    }
  }
  return { cellDeg: def.cellDeg, rows, rowStart, rowCount, rowOffset, values };
}

/** Value of one lattice row at a longitude (radians). */
function rowValue(field: NoiseField, r: number, lonRad: number): number {
  const count = field.rowCount[r];
  const start = field.rowStart[r];
  if (count === 1) return field.values[start];
  let x = ((lonRad - field.rowOffset[r]) / TWO_PI) * count;
  x -= count * Math.floor(x / count); // wrap into [0, count)
  let i0 = Math.floor(x);
  const t = smoothstep01(x - i0);
  if (i0 >= count) i0 -= count; // x a hair under count can round up
  const i1 = i0 + 1 === count ? 0 : i0 + 1;
  const a = field.values[start + i0];
  return a + (field.values[start + i1] - a) * t;
}

/**
 * Samples a noise field along the rows of one lat x lon grid. A lattice row's values at the grid's
 * columns are computed once and reused by every grid row between that lattice row and the next,
 * so a 256 x 256 tile touches each lattice row once instead of twice per node. Reusable: reset()
 * points it at another field (another time) with the same columns.
 */
export class NoiseGridSampler {
  private static readonly SLOTS = 4;
  private field: NoiseField | undefined;
  /** Lattice row held by each slot, -1 = empty; slots are reused round robin. */
  private readonly slotRow = new Int32Array(NoiseGridSampler.SLOTS).fill(-1);
  private readonly slotValues: Float64Array[];
  private nextSlot = 0;

  constructor(private readonly lonRad: Float64Array) {
    this.slotValues = [];
    for (let k = 0; k < NoiseGridSampler.SLOTS; k++) this.slotValues.push(new Float64Array(lonRad.length));
  }

  reset(field: NoiseField): void {
    this.field = field;
    this.slotRow.fill(-1);
  }

  private latticeRow(field: NoiseField, r: number): Float64Array {
    for (let k = 0; k < NoiseGridSampler.SLOTS; k++) if (this.slotRow[k] === r) return this.slotValues[k];
    const slot = this.nextSlot;
    this.nextSlot = (slot + 1) % NoiseGridSampler.SLOTS;
    const values = this.slotValues[slot];
    for (let i = 0; i < values.length; i++) values[i] = rowValue(field, r, this.lonRad[i]);
    this.slotRow[slot] = r;
    return values;
  }

  /** Adds weight * noise at (latDeg, each column) into out. */
  addRow(latDeg: number, weight: number, out: Float64Array): void {
    const field = this.field;
    if (!field) throw new Error('NoiseGridSampler: reset() with a field first');
    const y = Math.min(field.rows - 1, Math.max(0, (90 - latDeg) / field.cellDeg));
    const r0 = Math.min(field.rows - 2, Math.floor(y));
    const t = smoothstep01(y - r0);
    const a = this.latticeRow(field, r0);
    const b = this.latticeRow(field, r0 + 1);
    for (let i = 0; i < out.length; i++) out[i] += weight * (a[i] + (b[i] - a[i]) * t);
  }
}

/** Sum of octaves, each half the cell size and half the weight of the one before: a fractal texture. */
export interface FractalNoise {
  octaves: NoiseField[];
  weights: number[];
}

export function fractalNoiseAt(base: NoiseDefinition, octaves: number, timeMs: number): FractalNoise {
  const fields: NoiseField[] = [];
  const weights: number[] = [];
  let norm = 0;
  for (let k = 0; k < octaves; k++) {
    fields.push(noiseAt({ salt: base.salt + 17 * k, cellDeg: base.cellDeg / 2 ** k, keyframeHours: base.keyframeHours / 2 ** (k / 2) }, timeMs));
    weights.push(0.5 ** k);
    norm += 0.25 ** k;
  }
  // Normalise so the sum has about the variance of one octave.
  return { octaves: fields, weights: weights.map((w) => w / Math.sqrt(norm)) };
}

/** Samples fractal noise along grid rows (see NoiseGridSampler). */
export class FractalGridSampler {
  private readonly samplers: NoiseGridSampler[] = [];
  private weights: readonly number[] = [];

  constructor(octaves: number, lonRad: Float64Array) {
    for (let k = 0; k < octaves; k++) this.samplers.push(new NoiseGridSampler(lonRad));
  }

  reset(noise: FractalNoise): void {
    if (noise.octaves.length !== this.samplers.length) throw new Error('FractalGridSampler: octave count mismatch');
    for (let k = 0; k < this.samplers.length; k++) this.samplers[k].reset(noise.octaves[k]);
    this.weights = noise.weights;
  }

  /** Writes the noise at (latDeg, each column) into out. */
  row(latDeg: number, out: Float64Array): void {
    out.fill(0);
    // Plain loops here and in the hot paths of demoModel.ts: tsx compiles with keepNames, which
    // makes every closure created per call noticeably expensive.
    for (let k = 0; k < this.samplers.length; k++) this.samplers[k].addRow(latDeg, this.weights[k], out);
  }
}

/** Cloud texture: 10° lattice plus finer octaves, new shapes every ~9 h. */
export const CLOUD_NOISE: NoiseDefinition = { salt: 101, cellDeg: 10, keyframeHours: 9 };
/** Shower cells under thick cloud: 3° lattice, short-lived. */
export const RAIN_NOISE: NoiseDefinition = { salt: 202, cellDeg: 3, keyframeHours: 3 };
