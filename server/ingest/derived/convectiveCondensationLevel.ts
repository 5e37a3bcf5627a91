/**
 * Convective condensation level (CCL): "the level in the atmosphere to which an air parcel, if
 * heated sufficiently from below, will rise adiabatically until it is just saturated" (AMS
 * Glossary of Meteorology, "convective condensation level"). The classic skew-T construction
 * (U.S. Air Force Air Weather Service (1990), "The use of the skew T, log p diagram in analysis
 * and forecasting", AWS/TR-79/006 (revised), section 4.3): from the surface dew point follow the
 * saturation mixing-ratio line up to where it meets the temperature sounding.
 *
 * Here: the mixing ratio of the surface air, w = 0.622 e(Td) / (p_s − e(Td)), against the
 * saturation mixing ratio of the sounding, w_s(T, p), on the pressure levels above the surface
 * (and the 2 m temperature at the surface); the first crossing, interpolated in ln p, is the CCL.
 * Its height above the ground comes from the hypsometric equation, layer by layer, with the
 * layers' mean temperature (virtual temperature not applied). Vapour pressures are the Magnus
 * formula of Alduchov and Eskridge (1996) over water, as in ../derive.ts.
 */

const KELVIN = 273.15;
const EPSILON = 0.622;
/** Dry air gas constant (J kg⁻¹ K⁻¹) and standard gravity (m s⁻²). */
const R_D = 287.05;
const G0 = 9.80665;

/** Saturation vapour pressure over water (Pa), Alduchov & Eskridge (1996), T in K. */
export function saturationVapourPressure(temp: number): number {
  const t = temp - KELVIN;
  return 610.94 * Math.exp((17.625 * t) / (t + 243.04));
}

/** (Saturation) mixing ratio (kg/kg) at a temperature (K) or dew point and pressure (Pa). */
export function mixingRatio(temp: number, pressure: number): number {
  const e = saturationVapourPressure(temp);
  return (EPSILON * e) / Math.max(1, pressure - e);
}

export interface Sounding {
  /** Pressure levels (Pa), descending (from the ground up). */
  pressures: readonly number[];
  /** Temperature at each level (K). */
  temps: readonly number[];
}

/**
 * CCL of one column: height above ground (m), NaN when the mixing-ratio line meets no level of
 * the sounding (or the surface air is already saturated: the CCL is the ground, 0).
 */
export function cclHeight(surfaceTemp: number, surfaceDewPoint: number, surfacePressure: number, sounding: Sounding): number {
  const w = mixingRatio(surfaceDewPoint, surfacePressure);
  let p0 = surfacePressure;
  let t0 = surfaceTemp;
  let d0 = mixingRatio(t0, p0) - w;
  if (!(d0 > 0)) return d0 <= 0 ? 0 : NaN;
  let height = 0;
  for (let k = 0; k < sounding.pressures.length; k++) {
    const p1 = sounding.pressures[k];
    const t1 = sounding.temps[k];
    if (!(p1 < p0) || !Number.isFinite(t1)) continue;
    const d1 = mixingRatio(t1, p1) - w;
    if (d1 <= 0) {
      const f = d0 / (d0 - d1);
      const lnP = Math.log(p0) + f * (Math.log(p1) - Math.log(p0));
      const tC = t0 + f * (t1 - t0);
      return height + (R_D * (t0 + tC)) / 2 / G0 * (Math.log(p0) - lnP);
    }
    height += (R_D * (t0 + t1)) / 2 / G0 * Math.log(p0 / p1);
    p0 = p1;
    t0 = t1;
    d0 = d1;
  }
  return NaN;
}

/**
 * CCL height above ground (m) for every grid point: surface temperature and dew point (K),
 * surface pressure (Pa), and the temperature (K) of each pressure level (Pa, descending).
 */
export function cclFrom(temp: Float32Array, dewPoint: Float32Array, surfacePressure: Float32Array, levels: readonly { pressure: number; temp: Float32Array }[]): Float32Array {
  const out = new Float32Array(temp.length);
  const sorted = [...levels].sort((a, b) => b.pressure - a.pressure);
  const pressures = sorted.map((l) => l.pressure);
  const temps = new Array<number>(sorted.length);
  for (let k = 0; k < temp.length; k++) {
    for (let l = 0; l < sorted.length; l++) temps[l] = sorted[l].temp[k];
    out[k] = cclHeight(temp[k], dewPoint[k], surfacePressure[k], { pressures, temps });
  }
  return out;
}
