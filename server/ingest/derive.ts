/**
 * Quantities the ingest derives when a model does not send them: precipitation rates from
 * accumulated amounts, dew point from temperature and relative humidity and back.
 */

/**
 * Magnus formula over water with the constants of Alduchov & Eskridge (1996), "Improved Magnus
 * form approximation of saturation vapor pressure", J. Appl. Meteor. 35, 601-609:
 * e_s(T) = 6.1094 exp(17.625 T / (T + 243.04)), T in °C; within 0.4 % from -40 to 50 °C.
 */
const MAGNUS_B = 17.625;
const MAGNUS_C = 243.04;
const KELVIN = 273.15;
/** Relative humidity floor for the dew point: ln(0) has no dew point. */
const MIN_RH = 0.1;

/** Dew point (K) from temperature (K) and relative humidity (%), element by element; NaN in, NaN out. */
export function dewPointFrom(temp: Float32Array, rh: Float32Array): Float32Array {
  const out = new Float32Array(temp.length);
  for (let k = 0; k < temp.length; k++) {
    const t = temp[k] - KELVIN;
    const gamma = Math.log(Math.min(100, Math.max(MIN_RH, rh[k])) / 100) + (MAGNUS_B * t) / (MAGNUS_C + t);
    out[k] = (MAGNUS_C * gamma) / (MAGNUS_B - gamma) + KELVIN;
  }
  return out;
}

/** Relative humidity (%) from temperature and dew point (K), capped at 100. */
export function relativeHumidityFrom(temp: Float32Array, dewPoint: Float32Array): Float32Array {
  const out = new Float32Array(temp.length);
  for (let k = 0; k < temp.length; k++) {
    const t = temp[k] - KELVIN;
    const d = dewPoint[k] - KELVIN;
    out[k] = Math.min(100, 100 * Math.exp((MAGNUS_B * d) / (MAGNUS_C + d) - (MAGNUS_B * t) / (MAGNUS_C + t)));
  }
  return out;
}

/** An accumulated amount (mm) over [start, end] hours after the reference time. */
export interface Accumulation {
  start: number;
  end: number;
}

/**
 * How the amount at `current` turns into what fell since the previous step, given the
 * accumulations already known (any order). NCEP resets its buckets every 6 h (f001..f006 from 0,
 * f007..f012 from 6, ...), ECMWF and DWD accumulate from the start: either way the increment is
 * the difference to the latest earlier amount of the same start, or the whole amount when the
 * bucket begins after every earlier one (it started at or after the previous step).
 */
export function incrementOf(current: Accumulation, known: readonly Accumulation[]): { from: number; minus: Accumulation | null } {
  let minus: Accumulation | null = null;
  for (const a of known) {
    if (a.start === current.start && a.end < current.end && (!minus || a.end > minus.end)) minus = a;
  }
  return minus ? { from: minus.end, minus } : { from: current.start, minus: null };
}

/** (amount - previous) / hours, never below 0 (packing noise can make a difference slightly negative). */
export function rateFrom(amount: Float32Array, previous: Float32Array | null, hours: number): Float32Array {
  const out = new Float32Array(amount.length);
  for (let k = 0; k < amount.length; k++) {
    const increment = previous ? amount[k] - previous[k] : amount[k];
    out[k] = Math.max(0, increment) / hours;
  }
  return out;
}

/** total + (amount - previous), never decreasing. */
export function addIncrement(total: Float32Array | null, amount: Float32Array, previous: Float32Array | null): Float32Array {
  const out = new Float32Array(amount.length);
  for (let k = 0; k < amount.length; k++) {
    const increment = previous ? amount[k] - previous[k] : amount[k];
    out[k] = (total ? total[k] : 0) + Math.max(0, increment);
  }
  return out;
}
