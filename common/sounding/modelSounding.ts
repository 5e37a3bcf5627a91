/**
 * A model sounding (SPEC §2 /sounding/{lat}/{lon}): one step of the meteogram's pressure-level
 * answer (LevelForecast: temp, rh, gh, wind_u, wind_v per level) and, when given, the point
 * forecast's surface values at the same time (2 m temperature and dew point, 10 m wind, mean-sea-
 * level pressure, the model's terrain height) turned into a `Sounding`.
 *
 * - Dew point from temperature and relative humidity by Bolton (1980) eqs. (10) and (11) (thermo.ts).
 * - Wind direction is where the wind comes from: atan2(-u, -v), degrees clockwise from north.
 * - The surface level: its pressure is the model terrain height's on the profile of ln p against
 *   geopotential height, linear between mean-sea-level pressure at 0 m and the pressure levels (the
 *   hypsometric equation with a constant temperature in each layer); pressure levels at or below
 *   the ground (the model's extrapolation under its terrain) are left out, with or without it.
 */

import type { LevelForecast, PointForecast } from '../api/forecast.ts';
import { LEVELS } from '../catalogue/levels.ts';
import { dewpointFromRelativeHumidity, KELVIN } from './thermo.ts';
import type { Sounding, SoundingLevel } from './types.ts';

/** A pressure level must lie this far (hPa) above the surface to be kept beside it. */
const MIN_SURFACE_GAP_HPA = 1;

const HPA_OF: ReadonlyMap<string, number> = new Map(LEVELS.filter((l) => l.hPa !== undefined).map((l) => [l.ident, l.hPa as number]));

/** Wind direction (degrees the wind comes from, 0..360) and speed of u and v (m/s); nulls when either is missing. */
export function windFromComponents(u: number | null, v: number | null): { dir: number | null; speed: number | null } {
  if (u === null || v === null || !Number.isFinite(u) || !Number.isFinite(v)) return { dir: null, speed: null };
  const speed = Math.hypot(u, v);
  const dir = speed === 0 ? 0 : ((Math.atan2(-u, -v) * 180) / Math.PI + 360) % 360;
  return { dir, speed };
}

const at = (series: readonly (number | null)[] | undefined, i: number): number | null => {
  const v = series?.[i];
  return v === undefined || v === null || !Number.isFinite(v) ? null : v;
};

/**
 * Pressure (hPa) at height z (m) on the profile of ln p against height through the given
 * (height, pressure) points, sorted from the ground up; outside them, the nearest layer extended.
 */
function pressureAtHeight(points: readonly { height: number; pressure: number }[], z: number): number | null {
  if (points.length < 2) return null;
  let i = 1;
  while (i < points.length - 1 && points[i].height < z) i++;
  const a = points[i - 1];
  const b = points[i];
  if (b.height === a.height) return null;
  const f = (z - a.height) / (b.height - a.height);
  return Math.exp(Math.log(a.pressure) + f * (Math.log(b.pressure) - Math.log(a.pressure)));
}

/**
 * The sounding of step `step` (an index into `levels.ts`) of a meteogram answer, with the surface
 * from `point` (a point forecast of the same product and run) when given and it has that time.
 * Throws a RangeError for a step the answer does not have.
 */
export function soundingFromForecast(levels: LevelForecast, step: number, point?: PointForecast | null): Sounding {
  const time = levels.ts[step];
  if (time === undefined) throw new RangeError(`step ${step} is not in the forecast (it has ${levels.ts.length})`);
  const { header, data } = levels;
  const profile: SoundingLevel[] = [];
  for (const ident of header.levels) {
    const pressure = HPA_OF.get(ident);
    if (pressure === undefined) continue;
    const tempK = at(data[`temp-${ident}`], step);
    const rh = at(data[`rh-${ident}`], step);
    const temp = tempK === null ? null : tempK - KELVIN;
    const wind = windFromComponents(at(data[`wind_u-${ident}`], step), at(data[`wind_v-${ident}`], step));
    profile.push({
      pressure, height: at(data[`gh-${ident}`], step), temp,
      dewpoint: temp !== null && rh !== null ? dewpointFromRelativeHumidity(temp, rh) : null,
      windDir: wind.dir, windSpeed: wind.speed,
    });
  }
  profile.sort((a, b) => b.pressure - a.pressure);

  const sounding: Sounding = {
    source: 'model', id: header.product, lat: header.lat, lon: header.lon, elevation: header.modelElevation ?? null, time, refTime: header.refTime,
    levels: profile,
  };
  const surface = point ? surfaceLevel(point, time, profile) : null;
  if (!surface) {
    // No surface values: still, the levels under the model's ground are its extrapolation, not air.
    const ground = header.modelElevation;
    return ground === undefined ? sounding : { ...sounding, levels: profile.filter((l) => l.height === null || l.height >= ground) };
  }
  return {
    ...sounding,
    elevation: surface.height,
    levels: [surface, ...profile.filter((l) => l.pressure < surface.pressure - MIN_SURFACE_GAP_HPA && (l.height === null || l.height > (surface.height as number)))],
  };
}

/** The point forecast's surface values at `time` as a level, or null without a temperature, terrain height or pressure. */
function surfaceLevel(point: PointForecast, time: number, profile: readonly SoundingLevel[]): SoundingLevel | null {
  const i = point.ts.indexOf(time);
  const elevation = point.header.modelElevation;
  if (i < 0 || elevation === undefined) return null;
  const tempK = at(point.data.temp, i);
  const mslPa = at(point.data.pressure, i);
  if (tempK === null || mslPa === null) return null;
  const anchors = [{ height: 0, pressure: mslPa / 100 }, ...profile.filter((l) => l.height !== null).map((l) => ({ height: l.height as number, pressure: l.pressure }))]
    .sort((a, b) => a.height - b.height);
  const pressure = pressureAtHeight(anchors, elevation);
  if (pressure === null) return null;
  const temp = tempK - KELVIN;
  const dewK = at(point.data.dewpoint, i);
  const rh = at(point.data.rh, i);
  const dewpoint = dewK !== null ? Math.min(temp, dewK - KELVIN) : rh !== null ? dewpointFromRelativeHumidity(temp, rh) : null;
  const wind = windFromComponents(at(point.data.wind_u, i), at(point.data.wind_v, i));
  return { pressure, height: elevation, temp, dewpoint, windDir: wind.dir, windSpeed: wind.speed };
}
