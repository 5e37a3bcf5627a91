/**
 * Aircraft icing potential on pressure levels after the temperature and relative-humidity
 * algorithm of Schultz, P. and Politovich, M.K. (1992), "Toward the improvement of aircraft-icing
 * forecasts for the continental United States", Weather and Forecasting 7, 491-500: icing is
 * forecast where the temperature is between 0 °C and −16 °C and the relative humidity is at least
 * 63 %. The value is 1 where the algorithm forecasts icing and 0 elsewhere (shown in %, 0 or 100).
 */

const KELVIN = 273.15;
const WARMEST_C = 0;
const COLDEST_C = -16;
const MIN_RH = 63;

export function icingPotential(tempC: number, rh: number): number {
  if (!Number.isFinite(tempC) || !Number.isFinite(rh)) return NaN;
  return tempC <= WARMEST_C && tempC >= COLDEST_C && rh >= MIN_RH ? 1 : 0;
}

/** Icing potential (%) from temperature (K) and relative humidity (%) of a pressure level. */
export function icingFrom(temp: Float32Array, rh: Float32Array): Float32Array {
  const out = new Float32Array(temp.length);
  for (let k = 0; k < temp.length; k++) out[k] = 100 * icingPotential(temp[k] - KELVIN, rh[k]);
  return out;
}
