/**
 * Parcel analysis and indices of a sounding (SPEC §2 /sounding and /radiosonde): the parcel curves
 * of the surface, mixed-layer and most-unstable parcels, their CAPE, CIN, LCL, LFC, EL and lifted
 * index, the precipitable water and the freezing level. The thermodynamics are in thermo.ts.
 *
 * Methods, as the Storm Prediction Center's (SHARPpy, Blumberg et al. 2017, BAMS 98, 1625-1636):
 * - surface parcel: the lowest level with a temperature and a dew point;
 * - mixed-layer parcel: the pressure-weighted mean potential temperature and mixing ratio of the
 *   lowest 100 hPa, starting at the surface pressure;
 * - most-unstable parcel: the level of highest equivalent potential temperature (Bolton 1980
 *   eq. 43) in the lowest 300 hPa.
 * A parcel rises on its dry adiabat (mixing ratio kept) to its LCL (Bolton 1980 eqs. 15, 22), then
 * on the pseudo-adiabat. Buoyancy compares virtual temperatures, the parcel's with its own mixing
 * ratio (saturated above the LCL), the environment's with its dew point (Doswell & Rasmussen 1994);
 * CAPE = Rd ∫ (Tv,parcel - Tv,env) d ln p over the positive area from the LFC to the EL, CIN the
 * negative area from the start to the LFC (0 when there is no LFC, as the published tables do).
 * The LFC is the lowest level at or above the LCL where the parcel turns buoyant, the EL the top of
 * the highest buoyant layer. The lifted index compares temperatures at 500 hPa (Galway 1956).
 */

import type { ParcelAnalysis, ParcelKind, ParcelLevel, Sounding, SoundingIndices } from './types.ts';
import {
  dewpointFromMixingRatio, equivalentPotentialTemperature, G0, KELVIN, liftedCondensationLevel, mixingRatio, moistAdiabat,
  potentialTemperature, RD, saturationMixingRatio, saturationVapourPressure, temperatureFromPotential,
} from './thermo.ts';

/** Depth of the mixed layer, hPa (SPC: the lowest 100 hPa). */
export const MIXED_LAYER_DEPTH_HPA = 100;
/** Depth searched for the most unstable parcel, hPa (SPC: the lowest 300 hPa). */
export const MOST_UNSTABLE_DEPTH_HPA = 300;
/** The lifted index's level, hPa. */
export const LIFTED_INDEX_HPA = 500;
/** Largest gap between the points of a parcel curve, hPa: finer than model levels, so CAPE converges. */
const CURVE_STEP_HPA = 5;

/** A level of the environment: pressure and temperature known, the rest may be missing. */
interface EnvLevel {
  pressure: number;
  temp: number;
  dewpoint: number | null;
  height: number | null;
}

export interface ParcelStart {
  pressure: number;
  temp: number;
  dewpoint: number;
}

/** The levels with a pressure and a temperature, from the ground up, one per pressure. */
function environment(s: Sounding): EnvLevel[] {
  const levels = s.levels
    .filter((l) => Number.isFinite(l.pressure) && l.pressure > 0 && l.temp !== null && Number.isFinite(l.temp))
    .map((l) => ({ pressure: l.pressure, temp: l.temp as number, dewpoint: l.dewpoint !== null && Number.isFinite(l.dewpoint) ? Math.min(l.dewpoint, l.temp as number) : null, height: l.height }))
    .sort((a, b) => b.pressure - a.pressure);
  return levels.filter((l, i) => i === 0 || l.pressure < levels[i - 1].pressure);
}

/** One quantity of the environment where it has a value: pressures (decreasing) and values. */
interface Profile {
  pressures: number[];
  values: number[];
}

function profileOf(env: readonly EnvLevel[], get: (l: EnvLevel) => number | null): Profile {
  const pressures: number[] = [];
  const values: number[] = [];
  for (const level of env) {
    const v = get(level);
    if (v === null) continue;
    pressures.push(level.pressure);
    values.push(v);
  }
  return { pressures, values };
}

/** The profile's value at p, linear in ln p between the two levels around it; null outside them. */
function valueAt(profile: Profile, pressure: number): number | null {
  const { pressures, values } = profile;
  const n = pressures.length;
  if (n === 0 || pressure > pressures[0] || pressure < pressures[n - 1]) return null;
  // Binary search for the first level at or above p (pressure at or below it).
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pressures[mid] > pressure) lo = mid + 1;
    else hi = mid;
  }
  if (pressures[lo] === pressure || lo === 0) return values[lo];
  const f = Math.log(pressures[lo - 1] / pressure) / Math.log(pressures[lo - 1] / pressures[lo]);
  return values[lo - 1] + f * (values[lo] - values[lo - 1]);
}

const heights = (env: readonly EnvLevel[]): Profile => profileOf(env, (l) => l.height);
const temps = (env: readonly EnvLevel[]): Profile => profileOf(env, (l) => l.temp);
const dewpoints = (env: readonly EnvLevel[]): Profile => profileOf(env, (l) => l.dewpoint);

/** The surface parcel: the lowest level with a temperature and a dew point. */
export function surfaceParcel(s: Sounding): ParcelStart | null {
  const level = environment(s).find((l) => l.dewpoint !== null);
  return level ? { pressure: level.pressure, temp: level.temp, dewpoint: level.dewpoint as number } : null;
}

/**
 * The mixed-layer parcel: pressure-weighted means (trapezoids in p) of potential temperature and
 * mixing ratio from the surface to `depth` hPa above it, brought to the surface pressure.
 */
export function mixedLayerParcel(s: Sounding, depth = MIXED_LAYER_DEPTH_HPA): ParcelStart | null {
  const env = environment(s).filter((l) => l.dewpoint !== null);
  if (env.length === 0) return null;
  const p0 = env[0].pressure;
  const top = Math.max(p0 - depth, env[env.length - 1].pressure);
  const points = env.filter((l) => l.pressure > top).map((l) => ({ p: l.pressure, t: l.temp, td: l.dewpoint as number }));
  const tTop = valueAt(temps(env), top);
  const tdTop = valueAt(dewpoints(env), top);
  if (tTop === null || tdTop === null) return null;
  points.push({ p: top, t: tTop, td: tdTop });
  if (points.length < 2) return { pressure: p0, temp: env[0].temp, dewpoint: env[0].dewpoint as number };
  let theta = 0;
  let w = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const dp = a.p - b.p;
    theta += (dp * (potentialTemperature(a.t, a.p) + potentialTemperature(b.t, b.p))) / 2;
    w += (dp * (mixingRatio(saturationVapourPressure(a.td), a.p) + mixingRatio(saturationVapourPressure(b.td), b.p))) / 2;
  }
  const span = p0 - top;
  const temp = temperatureFromPotential(theta / span, p0);
  return { pressure: p0, temp, dewpoint: Math.min(temp, dewpointFromMixingRatio(w / span, p0)) };
}

/** The most-unstable parcel: the level of highest θe (Bolton 1980 eq. 43) within `depth` hPa of the surface. */
export function mostUnstableParcel(s: Sounding, depth = MOST_UNSTABLE_DEPTH_HPA): ParcelStart | null {
  const env = environment(s).filter((l) => l.dewpoint !== null);
  if (env.length === 0) return null;
  const floor = env[0].pressure - depth;
  let best: EnvLevel | null = null;
  let bestThetaE = -Infinity;
  for (const level of env) {
    if (level.pressure < floor) break;
    const thetaE = equivalentPotentialTemperature(level.pressure, level.temp, level.dewpoint as number);
    if (thetaE > bestThetaE) {
      bestThetaE = thetaE;
      best = level;
    }
  }
  return best ? { pressure: best.pressure, temp: best.temp, dewpoint: best.dewpoint as number } : null;
}

/** Virtual temperature (K) from a temperature (°C) and a mixing ratio (kg/kg). */
function virtualK(tempC: number, w: number): number {
  return ((tempC + KELVIN) * (1 + w / 0.622)) / (1 + w);
}

interface CurvePoint {
  pressure: number;
  /** Parcel temperature, °C. */
  temp: number;
  /** Parcel minus environment virtual temperature, K; null where the environment has no temperature. */
  buoyancy: number | null;
}

/** The pressures a parcel's curve is evaluated at: the environment's from the start up, its LCL, and fill-ins every CURVE_STEP_HPA. */
function curvePressures(env: readonly EnvLevel[], start: number, lcl: number): number[] {
  const anchors = [...new Set([start, lcl, ...env.map((l) => l.pressure)])].filter((p) => p <= start && p >= env[env.length - 1].pressure).sort((a, b) => b - a);
  const out: number[] = [];
  for (let i = 0; i < anchors.length; i++) {
    if (i > 0) {
      const gap = anchors[i - 1] - anchors[i];
      const n = Math.ceil(gap / CURVE_STEP_HPA);
      for (let k = 1; k < n; k++) out.push(anchors[i - 1] - (gap * k) / n);
    }
    out.push(anchors[i]);
  }
  return out;
}

/** Pressure where the buoyancy crosses zero between two curve points (linear in ln p). */
function crossing(a: CurvePoint, b: CurvePoint): number {
  const ba = a.buoyancy as number;
  const bb = b.buoyancy as number;
  const f = ba / (ba - bb);
  return Math.exp(Math.log(a.pressure) + f * (Math.log(b.pressure) - Math.log(a.pressure)));
}

/** Buoyancy at pressure p between two curve points (linear in ln p). */
function buoyancyAt(a: CurvePoint, b: CurvePoint, p: number): number {
  const f = Math.log(a.pressure / p) / Math.log(a.pressure / b.pressure);
  return (a.buoyancy as number) + f * ((b.buoyancy as number) - (a.buoyancy as number));
}

/**
 * Rd ∫ b d ln p over the part of the segment [a, b] between pressures `top` and `bottom`, keeping
 * only the part of the sign asked (trapezoids, split at the zero crossing).
 */
function area(a: CurvePoint, b: CurvePoint, top: number, bottom: number, sign: 1 | -1): number {
  if (a.buoyancy === null || b.buoyancy === null) return 0;
  const pa = Math.min(a.pressure, bottom);
  const pb = Math.max(b.pressure, top);
  if (pa <= pb) return 0;
  const ba = sign * buoyancyAt(a, b, pa);
  const bb = sign * buoyancyAt(a, b, pb);
  const dlnp = Math.log(pa / pb);
  if (ba >= 0 && bb >= 0) return (sign * RD * dlnp * (ba + bb)) / 2;
  if (ba <= 0 && bb <= 0) return 0;
  const f = ba / (ba - bb);
  return (sign * RD * dlnp * (ba > 0 ? f * ba : (1 - f) * bb)) / 2;
}

/**
 * Lifts a parcel from `start` through the sounding (method in this file's header) and measures its
 * areas; `kind` only labels the answer.
 */
export function liftParcel(s: Sounding, start: ParcelStart, kind: ParcelKind): ParcelAnalysis {
  const env = environment(s);
  const envTemps = temps(env);
  const envDewpoints = dewpoints(env);
  const envHeights = heights(env);
  const lcl = liftedCondensationLevel(start.pressure, start.temp, start.dewpoint);
  const w0 = mixingRatio(saturationVapourPressure(Math.min(start.dewpoint, start.temp)), start.pressure);
  const theta = potentialTemperature(start.temp, start.pressure);
  const points: CurvePoint[] = [];
  let moistFrom = { pressure: lcl.pressure, temp: lcl.temp };
  for (const p of curvePressures(env, start.pressure, lcl.pressure)) {
    let temp: number;
    let w: number;
    if (p >= lcl.pressure) {
      temp = temperatureFromPotential(theta, p);
      w = w0;
    } else {
      temp = moistAdiabat(moistFrom.pressure, moistFrom.temp, p);
      moistFrom = { pressure: p, temp };
      w = saturationMixingRatio(temp, p);
    }
    const envT = valueAt(envTemps, p);
    const envTd = valueAt(envDewpoints, p);
    const envW = envTd === null ? 0 : mixingRatio(saturationVapourPressure(envTd), p);
    points.push({ pressure: p, temp, buoyancy: envT === null ? null : virtualK(temp, w) - virtualK(envT, envW) });
  }
  const level = (p: number): { pressure: number; height: number | null } => ({ pressure: p, height: valueAt(envHeights, p) });

  // LFC: the lowest point at or above the LCL where the buoyancy turns positive.
  let lfcIndex = -1;
  let lfcPressure = NaN;
  for (let i = 0; i < points.length; i++) {
    const pt = points[i];
    if (pt.pressure > lcl.pressure || pt.buoyancy === null || pt.buoyancy <= 0) continue;
    const prev = points[i - 1] as CurvePoint | undefined;
    const fromBelow = prev !== undefined && prev.pressure <= lcl.pressure && prev.buoyancy !== null;
    lfcPressure = fromBelow ? crossing(prev, pt) : pt.pressure;
    lfcIndex = i;
    break;
  }
  // EL: where the highest buoyant layer ends.
  let elPressure = NaN;
  if (lfcIndex >= 0) {
    for (let i = points.length - 1; i > lfcIndex; i--) {
      const a = points[i - 1];
      const b = points[i];
      if (a.buoyancy !== null && b.buoyancy !== null && a.buoyancy > 0 && b.buoyancy <= 0) {
        elPressure = crossing(a, b);
        break;
      }
    }
  }
  let cape = 0;
  let cin = 0;
  if (lfcIndex >= 0) {
    const top = Number.isNaN(elPressure) ? 0 : elPressure;
    for (let i = 1; i < points.length; i++) {
      cin += area(points[i - 1], points[i], lfcPressure, Infinity, -1);
      cape += area(points[i - 1], points[i], top, lfcPressure, 1);
    }
  }
  const env500 = valueAt(envTemps, LIFTED_INDEX_HPA);
  const parcel500 = parcelTempAt(points, LIFTED_INDEX_HPA);
  const curve: ParcelLevel[] = points.map((p) => ({ pressure: p.pressure, temp: p.temp }));
  return {
    kind,
    start: { pressure: start.pressure, temp: start.temp, dewpoint: start.dewpoint },
    curve,
    cape,
    cin: cin === 0 ? 0 : cin,
    lcl: level(lcl.pressure),
    lfc: lfcIndex >= 0 ? level(lfcPressure) : null,
    el: lfcIndex >= 0 && !Number.isNaN(elPressure) ? level(elPressure) : null,
    liftedIndex: env500 !== null && parcel500 !== null ? env500 - parcel500 : null,
  };
}

function parcelTempAt(points: readonly CurvePoint[], pressure: number): number | null {
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (a.pressure >= pressure && b.pressure <= pressure) {
      const f = Math.log(a.pressure / pressure) / Math.log(a.pressure / b.pressure);
      return a.temp + f * (b.temp - a.temp);
    }
  }
  return null;
}

/**
 * Precipitable water, mm: (1 / g) ∫ w dp (trapezoids in p, kg m⁻² = mm) over the levels with a dew
 * point from the ground up, stopping where the humidity ends.
 */
export function precipitableWater(s: Sounding): number | null {
  const env = environment(s);
  const start = env.findIndex((l) => l.dewpoint !== null);
  if (start < 0) return null;
  let total = 0;
  for (let i = start + 1; i < env.length && env[i].dewpoint !== null; i++) {
    const a = env[i - 1];
    const b = env[i];
    const wa = mixingRatio(saturationVapourPressure(a.dewpoint as number), a.pressure);
    const wb = mixingRatio(saturationVapourPressure(b.dewpoint as number), b.pressure);
    total += (((wa + wb) / 2) * (a.pressure - b.pressure) * 100) / G0;
  }
  return total;
}

/** The lowest crossing of 0 °C from above to below, going up (linear in ln p), or null. */
export function freezingLevel(s: Sounding): { pressure: number; height: number | null } | null {
  const env = environment(s);
  for (let i = 1; i < env.length; i++) {
    const a = env[i - 1];
    const b = env[i];
    if (a.temp > 0 && b.temp <= 0) {
      const f = a.temp / (a.temp - b.temp);
      const pressure = Math.exp(Math.log(a.pressure) + f * (Math.log(b.pressure) - Math.log(a.pressure)));
      return { pressure, height: valueAt(heights(env), pressure) };
    }
  }
  return null;
}

const NO_PARCEL = (kind: ParcelKind): ParcelAnalysis => ({
  kind, start: { pressure: NaN, temp: NaN, dewpoint: NaN }, curve: [], cape: 0, cin: 0, lcl: null, lfc: null, el: null, liftedIndex: null,
});

/**
 * The indices of a sounding: the three parcels (a sounding without humidity gets empty parcels
 * whose start is NaN), the precipitable water and the freezing level.
 */
export function analyseSounding(s: Sounding): SoundingIndices {
  const lift = (kind: ParcelKind, start: ParcelStart | null): ParcelAnalysis => (start ? liftParcel(s, start, kind) : NO_PARCEL(kind));
  return {
    parcels: {
      surface: lift('surface', surfaceParcel(s)),
      mixedLayer: lift('mixedLayer', mixedLayerParcel(s)),
      mostUnstable: lift('mostUnstable', mostUnstableParcel(s)),
    },
    precipitableWater: precipitableWater(s),
    freezingLevel: freezingLevel(s),
  };
}
