/**
 * Thunderstorm potential as the lightning proxy of Romps, D.M., Seeley, J.T., Vollaro, D. and
 * Molinari, J. (2014), "Projected increase in lightning strikes in the United States due to global
 * warming", Science 346, 851-854: the flash rate is proportional to CAPE x P, the product of the
 * convective available potential energy (J/kg) and the precipitation rate (kg m⁻² s⁻¹), a power
 * per area (W/m²); over the United States it explained 77 % of the variance of observed flash
 * rates. The model's convective precipitation stands for P (NCEP CPRAT, ECMWF cp), so that
 * large-scale rain without convection gives none.
 */

const HOUR_S = 3600;

/** CAPE x P (W/m²) from CAPE (J/kg) and a precipitation rate (mm/h = kg m⁻² per hour). */
export function rompsProxy(cape: number, precipitationMmH: number): number {
  return Math.max(0, cape) * Math.max(0, precipitationMmH) / HOUR_S;
}

export function thunderFrom(cape: Float32Array, convectiveRain: Float32Array): Float32Array {
  const out = new Float32Array(cape.length);
  for (let k = 0; k < cape.length; k++) out[k] = rompsProxy(cape[k], convectiveRain[k]);
  return out;
}
