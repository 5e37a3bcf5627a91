/**
 * A model sounding from the meteogram answer (GET /forecast/meteogram/{product}/v1.2/{lat}/{lon},
 * common/api/forecast.ts LevelForecast): one forecast step's pressure levels as a `Sounding`
 * (common/sounding/types.ts) for the skew-T of /sounding/{lat}/{lon}.
 *
 *   temperature   temp-{level} (K) -> °C
 *   wind          wind_u-{level}, wind_v-{level} (m/s) -> direction (from, degrees) and speed
 *   height        gh-{level}: geopotential height, gpm, taken as m above mean sea level
 *   dew point     from rh-{level} (%) and the temperature where the answer has relative humidity
 *                 (Bolton 1980: e = RH e_s(T), T_d = e_s⁻¹(e)); null where it has none: no
 *                 dew point is ever made up
 *
 * Levels below the model's ground (their geopotential height under header.modelElevation: the
 * model extrapolates them) are left out, as are levels with no value at all at that step.
 */

import type { LevelForecast } from '../../../common/api/forecast.ts';
import { LEVELS } from '../../../common/catalogue/levels.ts';
import { KELVIN_OFFSET } from '../../../common/catalogue/metrics.ts';
import type { Sounding, SoundingLevel } from '../../../common/sounding/types.ts';
import { windOf } from '../detail/forecast.ts';
import { saturationTemperature, saturationVapourPressure } from './diagram.ts';

/** Dew point (°C) of air at `celsius` with relative humidity `rh` (%), over water (Bolton 1980, eq. 10). */
export function dewPointFromRh(celsius: number, rh: number): number | null {
  if (!(rh > 0)) return null;
  return saturationTemperature(Math.min(rh, 100) / 100 * saturationVapourPressure(celsius));
}

const finite = (v: number | null | undefined): number | null => (v === null || v === undefined || !Number.isFinite(v) ? null : v);

/** Whether the answer has pressure levels with temperatures: a product a sounding can be drawn from. */
export function hasSoundingLevels(answer: LevelForecast): boolean {
  return answer.header.levels.some((l) => answer.data[`temp-${l}`]);
}

/** The sounding of step `k` (an index of answer.ts). */
export function modelSounding(answer: LevelForecast, k: number): Sounding {
  const { header, data } = answer;
  const series = (name: string) => finite(data[name]?.[k]);
  const ground = finite(header.modelElevation);
  const levels: SoundingLevel[] = [];
  for (const ident of header.levels) {
    const pressure = LEVELS.find((l) => l.ident === ident)?.hPa;
    if (pressure === undefined) continue;
    const kelvin = series(`temp-${ident}`);
    const height = series(`gh-${ident}`);
    const u = series(`wind_u-${ident}`);
    const v = series(`wind_v-${ident}`);
    const rh = series(`rh-${ident}`);
    if (kelvin === null && height === null && (u === null || v === null)) continue;
    if (ground !== null && height !== null && height < ground) continue;
    const temp = kelvin === null ? null : kelvin - KELVIN_OFFSET;
    const wind = u !== null && v !== null ? windOf(u, v) : null;
    levels.push({
      pressure,
      height,
      temp,
      dewpoint: temp !== null && rh !== null ? dewPointFromRh(temp, rh) : null,
      windDir: wind ? wind.from : null,
      windSpeed: wind ? wind.speed : null,
    });
  }
  levels.sort((a, b) => b.pressure - a.pressure);
  return {
    source: 'model',
    id: header.product,
    lat: header.lat,
    lon: header.lon,
    elevation: ground,
    time: answer.ts[k],
    refTime: header.refTime,
    levels,
  };
}
