/**
 * Smooth deterministic "noise" for the demo product: a normalised sum of travelling waves
 *
 *   N(φ, λ, t) = Σ w_k(t) cos(φ)^p_k sin(m_k λ + n_k φ + ψ_k - m_k Ω(φ) a_k(t))
 *
 * with integer zonal wavenumbers m_k (so N wraps around the globe), a cos(φ)^p taper that makes it
 * single-valued at the poles, and a drift Ω(φ) that carries the pattern east in mid-latitudes and
 * west in the trades. Each wave lives a few days (like the pressure systems, in slots keyed by
 * (set, slot, life)), fading in and out as sin² of its age; two copies per slot half a life apart
 * keep the variance constant. The weights are renormalised every hour so N has unit variance.
 *
 * Why waves: sin(mλ + B(φ)) = sin(mλ) cos B + cos(mλ) sin B separates into a per-column and a
 * per-row factor, so a whole tile costs two multiplies and an add per wave and node.
 */

import { DAY_MS } from './season.ts';
import { EARTH_RADIUS_M, hash01 } from './systems.ts';

export interface WaveSetDefinition {
  /** Salt that keeps different sets independent. */
  salt: number;
  slots: number;
  zonalWavenumber: { min: number; max: number };
  /** Meridional wavenumber, per radian of latitude, either sign. */
  meridionalWavenumber: number;
  lifeDays: { min: number; max: number };
}

/** A set of waves at one time; arrays of the same length, one entry per wave. */
export interface WaveField {
  count: number;
  m: Float64Array;
  n: Float64Array;
  phase: Float64Array;
  /** Amplitude now, normalised (includes the life envelope). */
  weight: Float64Array;
  /** Seconds since birth, for the drift. */
  ageSeconds: Float64Array;
  /** Exponent of the polar taper cos(φ)^p. */
  taperPower: Float64Array;
}

// Steering flow of the patterns, m/s: westerlies peaking near 45°, easterly trades at the equator.
const WESTERLY_MS = 12;
const TRADE_MS = 6;
const TRADE_WIDTH_DEG = 12;

/**
 * Angular drift speed of the patterns at a latitude, rad/s: U(φ) / (R cos φ) with
 * U = 12 sin²(2φ) - 6 exp(-(φ/12°)²) m/s; written so the cos φ cancels (no pole singularity).
 */
export function patternDrift(latRad: number): number {
  const s = Math.sin(latRad);
  const c = Math.cos(latRad);
  const latDeg = (latRad * 180) / Math.PI;
  const westerly = WESTERLY_MS * 4 * s * s * c; // 12 sin²(2φ) / cos φ
  const trade = (TRADE_MS * Math.exp(-((latDeg / TRADE_WIDTH_DEG) ** 2))) / Math.max(c, 0.5);
  return (westerly - trade) / EARTH_RADIUS_M;
}

export function wavesAt(set: WaveSetDefinition, timeMs: number): WaveField {
  const count = set.slots * 2;
  const field: WaveField = {
    count,
    m: new Float64Array(count), n: new Float64Array(count), phase: new Float64Array(count),
    weight: new Float64Array(count), ageSeconds: new Float64Array(count), taperPower: new Float64Array(count),
  };
  const days = timeMs / DAY_MS;
  let variance = 0;
  for (let slot = 0; slot < set.slots; slot++) {
    const life = set.lifeDays.min + (set.lifeDays.max - set.lifeDays.min) * hash01(set.salt, slot, 1);
    const slotPhase = hash01(set.salt, slot, 2);
    for (let copy = 0; copy < 2; copy++) {
      const position = days / life + slotPhase + copy * 0.5;
      const k = Math.floor(position);
      const s = position - k;
      const random = (salt: number) => hash01(set.salt, slot * 2 + copy, k, salt);
      const w = slot * 2 + copy;
      const m = set.zonalWavenumber.min + Math.floor((set.zonalWavenumber.max - set.zonalWavenumber.min + 1) * random(3));
      field.m[w] = m;
      field.n[w] = set.meridionalWavenumber * (2 * random(4) - 1);
      field.phase[w] = 2 * Math.PI * random(5);
      field.weight[w] = (0.6 + 0.4 * random(6)) * Math.sin(Math.PI * s) ** 2;
      field.ageSeconds[w] = s * life * (DAY_MS / 1000);
      field.taperPower[w] = Math.max(1, m / 8);
      variance += 0.5 * field.weight[w] ** 2;
    }
  }
  const norm = 1 / Math.sqrt(variance);
  for (let w = 0; w < count; w++) field.weight[w] *= norm;
  return field;
}

/** Cloud texture: synoptic to sub-synoptic scales (wavelengths ~1000–6000 km at 45°). */
export const CLOUD_WAVES: WaveSetDefinition = {
  salt: 101, slots: 7, zonalWavenumber: { min: 4, max: 26 }, meridionalWavenumber: 24, lifeDays: { min: 2, max: 4 },
};

/** Showers: finer, shorter-lived cells that modulate the rain under thick cloud. */
export const RAIN_WAVES: WaveSetDefinition = {
  salt: 202, slots: 6, zonalWavenumber: { min: 14, max: 40 }, meridionalWavenumber: 40, lifeDays: { min: 1, max: 2 },
};
