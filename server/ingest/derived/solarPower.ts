/**
 * Photovoltaic output of a horizontal crystalline-silicon panel, in % of its rated (STC) power:
 * the PVWatts module model, Dobos, A.P. (2014), "PVWatts Version 5 Manual", NREL/TP-6A20-62641,
 * eq. 10 (P_dc = G/1000 P_dc0 (1 + γ (T_cell − 25 °C)), γ = −0.47 %/°C for a standard module,
 * table 2), with the cell temperature of the NOCT model (Ross, R.G. (1976), "Interface design
 * considerations for terrestrial solar cell modules", 12th IEEE Photovoltaic Specialists Conf.,
 * 801-806: T_cell = T_air + (NOCT − 20 °C) G / 800 W/m², NOCT 45 °C).
 *
 * G is the global horizontal irradiance at the surface (NCEP DSWRF, ECMWF ssrd): a horizontal
 * panel, no inverter or wiring losses.
 */

const KELVIN = 273.15;
/** STC irradiance, W/m². */
const STC_IRRADIANCE = 1000;
const STC_TEMP_C = 25;
/** PVWatts v5 table 2, standard module: −0.47 %/°C. */
const GAMMA = -0.0047;
/** NOCT conditions: 800 W/m², 20 °C air; NOCT 45 °C. */
const NOCT_IRRADIANCE = 800;
const NOCT_AIR_C = 20;
const NOCT_C = 45;

export function cellTemperatureC(airC: number, irradiance: number): number {
  return airC + (NOCT_C - NOCT_AIR_C) * irradiance / NOCT_IRRADIANCE;
}

/** Output in % of rated power for an irradiance (W/m²) and air temperature (°C). */
export function pvOutputPercent(irradiance: number, airC: number): number {
  const g = Math.max(0, irradiance);
  return 100 * (g / STC_IRRADIANCE) * (1 + GAMMA * (cellTemperatureC(airC, g) - STC_TEMP_C));
}

export function solarPowerFrom(irradiance: Float32Array, temp: Float32Array): Float32Array {
  const out = new Float32Array(irradiance.length);
  for (let k = 0; k < irradiance.length; k++) out[k] = pvOutputPercent(irradiance[k], temp[k] - KELVIN);
  return out;
}
