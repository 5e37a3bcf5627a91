/**
 * Moist thermodynamics of a sounding (SPEC §2 /sounding and /radiosonde): the formulas of
 * Bolton (1980), "The computation of equivalent potential temperature", Mon. Wea. Rev. 108,
 * 1046-1053, which the University of Wyoming's tables and GEMPAK's (BUFKIT's) indices are computed
 * with; the pseudo-adiabats keep Bolton's equivalent potential temperature.
 *
 * Units: pressure hPa, temperature and dew point °C in and out (kelvin where a name says so),
 * mixing ratio kg/kg, vapour pressure hPa.
 */

export const KELVIN = 273.15;
/** Gas constant of dry air, J kg⁻¹ K⁻¹ (Bolton 1980 §2). */
export const RD = 287.04;
/** Specific heat of dry air at constant pressure, J kg⁻¹ K⁻¹ (Bolton 1980 §2). */
export const CPD = 1005.7;
/** Rd / cp as Bolton (1980) uses it, eq. (7). */
export const KAPPA = 0.2854;
/** Ratio of the molar masses of water and dry air. */
export const EPSILON = 0.622;
/** Latent heat of vaporisation at 0 °C, J/kg. */
export const LV = 2.501e6;
/** Standard gravity, m s⁻² (WMO). */
export const G0 = 9.80665;

/**
 * Saturation vapour pressure over water, hPa: Bolton (1980) eq. (10),
 * e_s = 6.112 exp(17.67 T / (T + 243.5)), T in °C; within 0.1 % of Wexler's values from -30 to 35 °C.
 */
export function saturationVapourPressure(tempC: number): number {
  return 6.112 * Math.exp((17.67 * tempC) / (tempC + 243.5));
}

/** The temperature (°C) at which the vapour pressure e (hPa) saturates: Bolton (1980) eq. (11), the inverse of eq. (10). */
export function dewpointFromVapourPressure(e: number): number {
  const x = Math.log(e / 6.112);
  return (243.5 * x) / (17.67 - x);
}

/** Mixing ratio, kg/kg, of vapour pressure e in air at pressure p (hPa): w = ε e / (p - e). */
export function mixingRatio(e: number, pressure: number): number {
  return (EPSILON * e) / (pressure - e);
}

/** Saturation mixing ratio (kg/kg) at a temperature (°C) and pressure (hPa). */
export function saturationMixingRatio(tempC: number, pressure: number): number {
  return mixingRatio(saturationVapourPressure(tempC), pressure);
}

/** Dew point (°C) of air with mixing ratio w (kg/kg) at pressure p: e = w p / (ε + w), then eq. (11). */
export function dewpointFromMixingRatio(w: number, pressure: number): number {
  return dewpointFromVapourPressure((w * pressure) / (EPSILON + w));
}

/** Relative humidity over water, %, from temperature and dew point (°C), by eq. (10). */
export function relativeHumidity(tempC: number, dewpointC: number): number {
  return (100 * saturationVapourPressure(dewpointC)) / saturationVapourPressure(tempC);
}

/** Relative humidity below this (%) has no finite dew point; it is read as this. */
const MIN_RH = 0.1;

/** Dew point (°C) from temperature (°C) and relative humidity over water (%), by eqs. (10) and (11). */
export function dewpointFromRelativeHumidity(tempC: number, rh: number): number {
  const fraction = Math.min(100, Math.max(MIN_RH, rh)) / 100;
  return dewpointFromVapourPressure(fraction * saturationVapourPressure(tempC));
}

/** Potential temperature, K: θ = T (1000 / p)^κ (Poisson; Bolton 1980 eq. (7) with r = 0). */
export function potentialTemperature(tempC: number, pressure: number): number {
  return (tempC + KELVIN) * (1000 / pressure) ** KAPPA;
}

/** Temperature (°C) at pressure p on the dry adiabat of potential temperature θ (K). */
export function temperatureFromPotential(thetaK: number, pressure: number): number {
  return thetaK * (pressure / 1000) ** KAPPA - KELVIN;
}

/**
 * Virtual temperature (°C): Tv = T (1 + w / ε) / (1 + w), w the mixing ratio of the dew point (dry
 * air where the dew point is missing). Doswell & Rasmussen (1994), "The effect of neglecting the
 * virtual temperature correction on CAPE calculations", Wea. Forecasting 9, 625-629.
 */
export function virtualTemperature(tempC: number, pressure: number, dewpointC: number | null): number {
  if (dewpointC === null) return tempC;
  const w = mixingRatio(saturationVapourPressure(dewpointC), pressure);
  return (tempC + KELVIN) * (1 + w / EPSILON) / (1 + w) - KELVIN;
}

/**
 * Temperature of the lifted condensation level (°C) of air at T with dew point Td: Bolton (1980)
 * eq. (15), T_L = 1 / (1 / (Td - 56) + ln(T / Td) / 800) + 56 in kelvin; within 0.3 K.
 */
export function lclTemperature(tempC: number, dewpointC: number): number {
  const t = tempC + KELVIN;
  const td = Math.min(dewpointC, tempC) + KELVIN;
  return 1 / (1 / (td - 56) + Math.log(t / td) / 800) + 56 - KELVIN;
}

/**
 * The lifted condensation level of air at (p, T, Td): its temperature by Bolton (1980) eq. (15) and
 * its pressure on the dry adiabat through (p, T) with Bolton's moist κ, eq. (22):
 * p_L = p (T_L / T)^(1 / (κ (1 - 0.28e-3 r))), r in g/kg.
 */
export function liftedCondensationLevel(pressure: number, tempC: number, dewpointC: number): { pressure: number; temp: number } {
  const tl = lclTemperature(tempC, dewpointC);
  const r = 1000 * mixingRatio(saturationVapourPressure(Math.min(dewpointC, tempC)), pressure);
  const kappa = KAPPA * (1 - 0.28e-3 * r);
  return { pressure: pressure * ((tl + KELVIN) / (tempC + KELVIN)) ** (1 / kappa), temp: tl };
}

/**
 * Equivalent potential temperature, K: Bolton (1980) eq. (43),
 * θe = T (1000 / p)^(0.2854 (1 - 0.28e-3 r)) exp[(3.376 / T_L - 0.00254) r (1 + 0.81e-3 r)],
 * r in g/kg, T_L from eq. (15); within 0.02 K of the pseudo-adiabat's value over the atmosphere's range.
 */
export function equivalentPotentialTemperature(pressure: number, tempC: number, dewpointC: number): number {
  const r = 1000 * mixingRatio(saturationVapourPressure(Math.min(dewpointC, tempC)), pressure);
  const tl = lclTemperature(tempC, dewpointC) + KELVIN;
  const t = tempC + KELVIN;
  return t * (1000 / pressure) ** (KAPPA * (1 - 0.28e-3 * r)) * Math.exp((3.376 / tl - 0.00254) * r * (1 + 0.81e-3 * r));
}

/** Newton's iteration on the pseudo-adiabat stops below this change, K. */
const ADIABAT_TOLERANCE_K = 1e-4;
const ADIABAT_MAX_ITERATIONS = 50;

/**
 * Temperature (°C) at `pressure` on the pseudo-adiabat of equivalent potential temperature θe (K):
 * the saturated temperature whose Bolton (1980) eq. (43) θe is the one given (Newton's method; as
 * GEMPAK's PR_TMST). Bolton's θe is within 0.02 K of the exactly integrated pseudo-adiabats, which
 * makes this the pseudo-adiabat to that accuracy.
 */
export function pseudoAdiabatTemperature(thetaE: number, pressure: number, guessC = 0): number {
  let t = guessC;
  for (let i = 0; i < ADIABAT_MAX_ITERATIONS; i++) {
    const f = equivalentPotentialTemperature(pressure, t, t) - thetaE;
    const slope = (equivalentPotentialTemperature(pressure, t + 0.01, t + 0.01) - equivalentPotentialTemperature(pressure, t - 0.01, t - 0.01)) / 0.02;
    const step = f / slope;
    t -= Math.max(-20, Math.min(20, step));
    if (Math.abs(step) < ADIABAT_TOLERANCE_K) break;
  }
  return t;
}

/**
 * Temperature (°C) at `pressure` of saturated air lifted (or lowered) pseudo-adiabatically from
 * (`fromPressure`, `fromTempC`): it keeps its θe (pseudoAdiabatTemperature).
 */
export function moistAdiabat(fromPressure: number, fromTempC: number, pressure: number): number {
  return pseudoAdiabatTemperature(equivalentPotentialTemperature(fromPressure, fromTempC, fromTempC), pressure, fromTempC);
}

/** Dry-adiabatic lapse rate in pressure, dT/dp = κ T / p, K/hPa, at (p, T °C). */
export function dryLapseRate(pressure: number, tempC: number): number {
  return (KAPPA * (tempC + KELVIN)) / pressure;
}

/** Pressure step of the moist lapse rate's centred difference, hPa. */
const LAPSE_DP = 0.5;

/** Pseudo-adiabatic lapse rate in pressure, dT/dp (K/hPa), at saturated (p, T °C): the slope of moistAdiabat there. */
export function moistLapseRate(pressure: number, tempC: number): number {
  return (moistAdiabat(pressure, tempC, pressure + LAPSE_DP) - moistAdiabat(pressure, tempC, pressure - LAPSE_DP)) / (2 * LAPSE_DP);
}

/**
 * Isobaric-adiabatic (pseudo) wet-bulb temperature, °C, by Normand's rule: lift the air dry to its
 * lifted condensation level, then bring it back down the pseudo-adiabat to its own pressure.
 */
export function wetBulbTemperature(pressure: number, tempC: number, dewpointC: number): number {
  const lcl = liftedCondensationLevel(pressure, tempC, dewpointC);
  return moistAdiabat(lcl.pressure, lcl.temp, pressure);
}
