/**
 * Fog from the 2 m temperature and dew point: the visibility of the Forecast Systems Laboratory
 * (FSL) relative-humidity method, Doran, J.A. et al. (1999), "The MM5 at the AF Weather Agency -
 * New products to support military operations", 8th Conf. on Aviation, Range, and Aerospace
 * Meteorology, Dallas, AMS, 115-119:
 *
 *   VIS (statute miles) = 6000 (T − Td) / RH^1.75
 *
 * Fog is visibility below 1 km (WMO International Cloud Atlas, "Fog"). The fog value maps it onto
 * the classes of SPEC §9 ("up to 0.7 none, up to 1 fog, else rime fog": common/catalogue
 * classes.ts fogClass): 0.7 x 1 km / VIS, at most 1, so it passes 0.7 where the visibility falls
 * below 1 km; fog at a temperature below 0 °C deposits rime and adds 1 (values above 1.7).
 */

import { MILE_M } from '../../../common/catalogue/metrics.ts';

const KELVIN = 273.15;
const FSL_COEFFICIENT = 6000;
const FSL_EXPONENT = 1.75;
/** WMO: fog is a visibility below 1 km. */
const FOG_VISIBILITY_M = 1000;
/** SPEC §9 fog classes: up to 0.7 none. */
const FOG_THRESHOLD = 0.7;

/** FSL visibility (m) from temperature and dew point (°C, or K: only the spread counts) and RH (%). */
export function fslVisibility(temp: number, dewPoint: number, rh: number): number {
  const spread = Math.max(0, temp - dewPoint);
  return (FSL_COEFFICIENT * spread / Math.max(1, rh) ** FSL_EXPONENT) * MILE_M;
}

/** The fog value of SPEC §9's classes from the visibility (m) and temperature (°C). */
export function fogValue(visibility: number, tempC: number): number {
  const fog = visibility <= 0 ? 1 : Math.min(1, FOG_THRESHOLD * FOG_VISIBILITY_M / visibility);
  return fog > FOG_THRESHOLD && tempC < 0 ? fog + 1 : fog;
}

/** Fog value from 2 m temperature, dew point (K) and relative humidity (%), element by element. */
export function fogFrom(temp: Float32Array, dewPoint: Float32Array, rh: Float32Array): Float32Array {
  const out = new Float32Array(temp.length);
  for (let k = 0; k < temp.length; k++) out[k] = fogValue(fslVisibility(temp[k], dewPoint[k], rh[k]), temp[k] - KELVIN);
  return out;
}
