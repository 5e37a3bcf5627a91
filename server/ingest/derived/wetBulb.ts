/**
 * Wet-bulb temperature from air temperature and relative humidity: Stull, R. (2011),
 * "Wet-Bulb Temperature from Relative Humidity and Air Temperature", J. Appl. Meteor. Climatol.
 * 50, 2267-2269, eq. 1 (an empirical fit at standard sea-level pressure, 101.325 kPa):
 *
 *   Tw = T atan[0.151977 (RH + 8.313659)^½] + atan(T + RH) − atan(RH − 1.676331)
 *        + 0.00391838 RH^{3/2} atan(0.023101 RH) − 4.686035
 *
 * T in °C, RH in %, Tw in °C. Stated validity: RH 5 % to 99 % and T −20 °C to 50 °C (errors within
 * −1 °C to +0.65 °C); outside it the fit is not used and the result is NaN.
 */

const KELVIN = 273.15;
/** Stull (2011) validity range. */
const MIN_RH = 5;
const MAX_RH = 99;
const MIN_T_C = -20;
const MAX_T_C = 50;

/** Wet-bulb temperature (°C) of Stull (2011) eq. 1; NaN outside the fit's range. */
export function stullWetBulbC(tempC: number, rh: number): number {
  // Saturated air (RH above the fit's 99 %) is at its own wet-bulb temperature.
  if (rh > MAX_RH && rh <= 100 && tempC >= MIN_T_C && tempC <= MAX_T_C) return tempC;
  if (!(rh >= MIN_RH && rh <= MAX_RH && tempC >= MIN_T_C && tempC <= MAX_T_C)) return NaN;
  return tempC * Math.atan(0.151977 * Math.sqrt(rh + 8.313659)) + Math.atan(tempC + rh) - Math.atan(rh - 1.676331)
    + 0.00391838 * rh ** 1.5 * Math.atan(0.023101 * rh) - 4.686035;
}

/** Wet-bulb temperature (K) from 2 m temperature (K) and relative humidity (%), element by element. */
export function wetBulbFrom(temp: Float32Array, rh: Float32Array): Float32Array {
  const out = new Float32Array(temp.length);
  for (let k = 0; k < temp.length; k++) out[k] = stullWetBulbC(temp[k] - KELVIN, rh[k]) + KELVIN;
  return out;
}
