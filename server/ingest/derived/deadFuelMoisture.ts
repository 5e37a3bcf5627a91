/**
 * 10-hour dead fuel moisture of the 1978 U.S. National Fire-Danger Rating System, the method used
 * where no fuel sticks are weighed: Cohen, J.D. and Deeming, J.E. (1985), "The National
 * Fire-Danger Rating System: basic equations", USDA Forest Service Gen. Tech. Rep. PSW-82, p. 3-4:
 * the equilibrium moisture content of Simard (1968) from temperature (°F) and relative humidity (%),
 *
 *   RH < 10:        EMC = 0.03229 + 0.281073 H − 0.000578 H T
 *   10 <= RH < 50:  EMC = 2.22749 + 0.160107 H − 0.014784 T
 *   RH >= 50:       EMC = 21.0606 + 0.005565 H² − 0.00035 H T − 0.483199 H
 *
 * and MC10 = 1.28 EMC (Fosberg and Deeming 1971), in % of dry weight. The model's 2 m values stand
 * for the fuel-level ones (NFDRS uses the observation at the fuel-stick height under shelter).
 */

const KELVIN = 273.15;
const TEN_HOUR_FACTOR = 1.28;

/** Simard (1968) equilibrium moisture content (%), temperature in °F, relative humidity in %. */
export function simardEmc(tempF: number, rh: number): number {
  if (rh < 10) return 0.03229 + 0.281073 * rh - 0.000578 * rh * tempF;
  if (rh < 50) return 2.22749 + 0.160107 * rh - 0.014784 * tempF;
  return 21.0606 + 0.005565 * rh * rh - 0.00035 * rh * tempF - 0.483199 * rh;
}

/** NFDRS 1978 10-hour dead fuel moisture (%) from temperature (°F) and relative humidity (%). */
export function tenHourFuelMoisture(tempF: number, rh: number): number {
  return TEN_HOUR_FACTOR * simardEmc(tempF, Math.min(100, Math.max(0, rh)));
}

/** 10-hour dead fuel moisture (%) from 2 m temperature (K) and relative humidity (%), element by element. */
export function deadFuelMoistureFrom(temp: Float32Array, rh: Float32Array): Float32Array {
  const out = new Float32Array(temp.length);
  for (let k = 0; k < temp.length; k++) out[k] = tenHourFuelMoisture((temp[k] - KELVIN) * 9 / 5 + 32, rh[k]);
  return out;
}
