/**
 * What the station window and the detail window's nearest stations compute from the answers
 * (common/api/stations.ts, common/api/forecast.ts), kept apart from the components so it is tested
 * without a browser:
 *
 *   forecastAt      a point forecast's value at an observation's time (linear between two steps)
 *   compareSeries   observed against each model, hour by hour, with the mean error and the mean
 *                   absolute error of each model over the hours both have
 *   sortStations    the nearest stations by SPEC §3 stationsSort: distance, or profi (the official
 *                   networks' stations first, then by distance)
 */

import type { PointForecast } from '../../../common/api/forecast.ts';
import type { StationObservation, StationSummary } from '../../../common/api/stations.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { windOf } from '../detail/forecast.ts';

export const STATION_VIEWS = ['basic', 'wind', 'compare'] as const;
export type StationView = (typeof STATION_VIEWS)[number];

/**
 * Sources of professional stations (national weather services, airport METARs), listed first by
 * stationsSort "profi"; any other source (personal weather station networks) after them.
 */
export const PROFESSIONAL_SOURCES: ReadonlySet<string> = new Set(['nwsStations', 'metar', 'synop']);

export function sortStations(stations: readonly StationSummary[], sort: 'profi' | 'distance'): StationSummary[] {
  const distance = (s: StationSummary) => s.distanceKm ?? Infinity;
  const rank = (s: StationSummary) => (sort === 'profi' && !PROFESSIONAL_SOURCES.has(s.source) ? 1 : 0);
  return [...stations].sort((a, b) => rank(a) - rank(b) || distance(a) - distance(b));
}

/**
 * The series' value at `time`, linear between the two steps around it; null outside the forecast,
 * or where either step has no value. A forecast's steps are 1 or 3 hours apart: between them the
 * straight line is the reading a meteogram draws.
 */
export function forecastAt(ts: readonly number[], series: readonly (number | null)[] | undefined, time: number): number | null {
  if (!series || ts.length === 0 || time < ts[0] || time > ts[ts.length - 1]) return null;
  let hi = 0;
  while (ts[hi] < time) hi++;
  if (ts[hi] === time) return series[hi] ?? null;
  const a = series[hi - 1];
  const b = series[hi];
  if (a === null || a === undefined || b === null || b === undefined) return null;
  const f = (time - ts[hi - 1]) / (ts[hi] - ts[hi - 1]);
  return a + (b - a) * f;
}

/** A model's wind speed at `time` from its u and v components, each interpolated first. */
export function forecastWindAt(forecast: PointForecast, time: number): number | null {
  const u = forecastAt(forecast.ts, forecast.data.wind_u, time);
  const v = forecastAt(forecast.ts, forecast.data.wind_v, time);
  return u === null || v === null ? null : windOf(u, v).speed;
}

export type CompareQuantity = 'temp' | 'wind';

export interface ModelComparison {
  product: string;
  /** The model's value at each observation's time (null where the forecast has none). */
  values: (number | null)[];
  /** Mean of forecast minus observed over the hours both have (bias); null when none. */
  meanError: number | null;
  /** Mean of |forecast minus observed|; null when none. */
  meanAbsError: number | null;
  /** Hours both have. */
  count: number;
}

/**
 * Each model's value at the observations' times, and how far it was from what was observed.
 * Observations are taken at most one an hour (the last of each hour: METAR specials crowd some).
 */
export function compareSeries(observations: readonly StationObservation[], forecasts: ReadonlyMap<string, PointForecast>, quantity: CompareQuantity): {
  times: number[];
  observed: (number | null)[];
  models: ModelComparison[];
} {
  const byHour = new Map<number, StationObservation>();
  for (const o of observations) byHour.set(Math.floor(o.time / HOUR_MS), o);
  const hourly = [...byHour.values()].sort((a, b) => a.time - b.time);
  const times = hourly.map((o) => o.time);
  const observed = hourly.map((o) => (quantity === 'temp' ? o.temp : o.wind));
  const models = [...forecasts].map(([product, forecast]): ModelComparison => {
    const values = times.map((t) => (quantity === 'temp' ? forecastAt(forecast.ts, forecast.data.temp, t) : forecastWindAt(forecast, t)));
    let sum = 0;
    let abs = 0;
    let count = 0;
    values.forEach((v, i) => {
      const o = observed[i];
      if (v === null || o === null) return;
      sum += v - o;
      abs += Math.abs(v - o);
      count++;
    });
    return { product, values, meanError: count ? sum / count : null, meanAbsError: count ? abs / count : null, count };
  });
  return { times, observed, models };
}
