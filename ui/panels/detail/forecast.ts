/**
 * The detail window's data (SPEC §7 calls): the point forecast and the meteogram of a place, the
 * place's name, and the shaping the displays share — the steps shown (SPEC §9: 3 h by default,
 * 1 h for Premium; hourly only where the model's steps are under 2 h), wind from its components,
 * the weather symbol of a step, and the EPA air quality index.
 *
 * Values stay in the catalogue's base units (K, Pa, m/s, mm/h, %, m, µg/m³) until a display
 * formats them in the user's unit, so a table cell shows what the map's picker shows at that point.
 */

import { KELVIN_OFFSET } from '../../../common/catalogue/metrics.ts';
import { PRODUCTS } from '../../../common/catalogue/products.ts';
import { LEVEL_ANSWER, meteogramPath, POINT_ANSWER, pointPath, type LevelForecast, type PointForecast } from '../../../common/api/forecast.ts';
import { REVERSE_ANSWER, reversePath, type ReverseResult } from '../../../common/api/search.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';

/** The product the detail window asks, and the SPEC §8 notice when the route's model is not served. */
export interface DetailProduct {
  /** Null while it cannot be known yet (the map's product, or the served list, is still loading). */
  product: string | null;
  /** "Selected model ({{model}}) is unavailable in current location. Reverting to previous model ({{prevModel}})." */
  reverted?: { model: string; prevModel: string };
}

/**
 * Which product the detail window shows (SPEC §2 route /{lat}/{lon}/{model}, §4 product selection,
 * §8 message): the route's model where the server serves it; one it does not serve (a catalogue
 * model this server has no runs of) falls back to the map's product, else the first served one,
 * with the SPEC §8 message instead of asking for it and showing the 404. Without a model in the
 * route: the map's product. `served` is null until the product list has answered (or failed: then
 * the route's model is asked as it is).
 */
export function detailProduct({ model, mapProduct, served, local }: {
  model: string | undefined;
  mapProduct: string | null;
  served: readonly string[] | null;
  /** A file opened in the browser: its product is served by no server. */
  local?: string | null;
}): DetailProduct {
  if (!model) return { product: mapProduct };
  if (model === local) return { product: model };
  if (served === null) return { product: null };
  if (served.length === 0 || served.includes(model)) return { product: model };
  const fallback = mapProduct && served.includes(mapProduct) ? mapProduct : served[0];
  const name = (ident: string) => PRODUCTS[ident]?.modelName ?? ident;
  return { product: fallback, reverted: { model: name(model), prevModel: name(fallback) } };
}

export function fetchPointForecast(product: string, lat: number, lon: number, signal?: AbortSignal, token?: string | null): Promise<PointForecast> {
  return fetchAnswer(POINT_ANSWER, pointPath(product, lat, lon), { signal, token });
}

export function fetchMeteogram(product: string, lat: number, lon: number, signal?: AbortSignal, token?: string | null): Promise<LevelForecast> {
  return fetchAnswer(LEVEL_ANSWER, meteogramPath(product, lat, lon), { signal, token });
}

/**
 * The reverse geocoding answer (SPEC §7, common/api/search.ts), and the name, nameValid and region of
 * SPEC §3's reverse-geocode result where a server sends them.
 */
export type ReverseAnswer = ReverseResult & { name?: string; nameValid?: boolean; region?: string };

/** The most local name the answer has, with its country: "Paris, France". Null when it names nothing. */
export function placeName(answer: ReverseAnswer | null): string | null {
  if (!answer || typeof answer !== 'object') return null;
  const local = [answer.nameValid === false ? undefined : answer.name, answer.locality, answer.city, answer.suburb, answer.district, answer.county, answer.island, answer.state, answer.region]
    .find((s): s is string => typeof s === 'string' && s.trim() !== '');
  if (!local) return typeof answer.country === 'string' && answer.country ? answer.country : null;
  return typeof answer.country === 'string' && answer.country && answer.country !== local ? `${local}, ${answer.country}` : local;
}

/** The place's name from /reverse/v3/{lat}/{lon}/{zoom}?lang; null when the route is missing or names nothing. */
export async function fetchPlaceName(lat: number, lon: number, zoom: number, lang: string, signal?: AbortSignal): Promise<string | null> {
  try {
    return placeName(await fetchAnswer(REVERSE_ANSWER, reversePath(lat, lon, zoom, lang), { signal }));
  } catch {
    return null;
  }
}

// ---- steps ------------------------------------------------------------------------------------

/** SPEC §9: "Hourly data when timestamp steps are under 2 hours". */
const HOURLY_BELOW_H = 2;
export type DetailStep = 1 | 3;

/** The model's own step in hours: the smallest gap between its timestamps. */
export function nativeStepHours(ts: readonly number[]): number {
  let min = Infinity;
  for (let i = 1; i < ts.length; i++) min = Math.min(min, ts[i] - ts[i - 1]);
  return Number.isFinite(min) ? min / HOUR_MS : 1;
}

/**
 * Whether the model has hourly data (SPEC §9): the answer's modelStep, which a free answer of an
 * hourly model needs (its values are 3-hourly); from the steps sent where a server leaves it out.
 */
export function hasHourly(forecast: Pick<PointForecast, 'ts'> & { header: { modelStep?: number } }): boolean {
  return (forecast.header.modelStep ?? nativeStepHours(forecast.ts)) < HOURLY_BELOW_H;
}

/**
 * SPEC §9 "Default step 3 h, 1 h for Premium" (and SPEC §4: the 1-hour detail mode is a
 * subscriber's): the step the table shows.
 */
export function detailStep(premium: boolean, wants1h: boolean): DetailStep {
  return premium && wants1h ? 1 : 3;
}

/**
 * Indices of the columns shown with a step: forecast hours that are multiples of it, as the
 * server's `step` query keeps them (server/data/servedProducts.ts), so a column is a step of the run.
 */
export function stepIndices(ts: readonly number[], refTime: number, step: number): number[] {
  const out: number[] = [];
  ts.forEach((t, i) => {
    const hours = Math.round((t - refTime) / HOUR_MS);
    if (hours % step === 0) out.push(i);
  });
  return out;
}

/** The index of the step at or before `timestamp` (the first when it is earlier than all). */
export function stepAt(ts: readonly number[], timestamp: number): number {
  let k = 0;
  while (k + 1 < ts.length && ts[k + 1] <= timestamp) k++;
  return k;
}

/** Whether a series has any value (rows without data are left out). */
export function hasValues(series: readonly (number | null)[] | undefined): series is (number | null)[] {
  return !!series && series.some((v) => v !== null && Number.isFinite(v));
}

// ---- wind -------------------------------------------------------------------------------------

export interface Wind {
  /** m/s. */
  speed: number;
  /** Degrees the wind blows from, clockwise from north (meteorological convention): 0 north wind, 90 east wind. */
  from: number;
}

/** Speed and direction from the u (eastward) and v (northward) components. */
export function windOf(u: number, v: number): Wind {
  const speed = Math.hypot(u, v);
  const from = speed === 0 ? 0 : (Math.atan2(-u, -v) * 180 / Math.PI + 360) % 360;
  return { speed, from };
}

/** Wind per step of a point forecast (null where a component is missing). */
export function windSeries(uSeries: readonly (number | null)[] | undefined, vSeries: readonly (number | null)[] | undefined): (Wind | null)[] {
  if (!uSeries || !vSeries) return [];
  return uSeries.map((u, i) => {
    const v = vSeries[i];
    return u === null || v === null || v === undefined ? null : windOf(u, v);
  });
}

// ---- weather symbol ---------------------------------------------------------------------------

export type WeatherSymbol = 'clear' | 'fewClouds' | 'partlyCloudy' | 'cloudy' | 'overcast' | 'lightRain' | 'rain' | 'heavyRain' | 'snow';

/** Rain rates (mm/h) of the symbol classes: light from 0.1, moderate from 1, heavy from 4 (WMO intensity bands, rounded). */
const RAIN_SYMBOL_MM_H = { light: 0.1, moderate: 1, heavy: 4 } as const;
/** Cloud cover (%) of the classes: okta bands 0-1, 2-3, 4-5, 6-7, 8. */
const CLOUD_SYMBOL_PCT = { few: 12.5, partly: 37.5, cloudy: 62.5, overcast: 87.5 } as const;

/** The symbol of a step from its cloud cover (%), rain rate (mm/h) and temperature (K). */
export function weatherSymbol(clouds: number | null, rain: number | null, temp: number | null): WeatherSymbol | null {
  if (rain !== null && rain >= RAIN_SYMBOL_MM_H.light) {
    if (temp !== null && temp < KELVIN_OFFSET + 0.5) return 'snow';
    return rain >= RAIN_SYMBOL_MM_H.heavy ? 'heavyRain' : rain >= RAIN_SYMBOL_MM_H.moderate ? 'rain' : 'lightRain';
  }
  if (clouds === null) return rain === null ? null : 'clear';
  if (clouds >= CLOUD_SYMBOL_PCT.overcast) return 'overcast';
  if (clouds >= CLOUD_SYMBOL_PCT.cloudy) return 'cloudy';
  if (clouds >= CLOUD_SYMBOL_PCT.partly) return 'partlyCloudy';
  if (clouds >= CLOUD_SYMBOL_PCT.few) return 'fewClouds';
  return 'clear';
}

// ---- air quality ------------------------------------------------------------------------------

/**
 * US EPA AQI breakpoints (40 CFR Part 58 Appendix G, PM2.5 as revised in 2024): concentration
 * ranges (µg/m³, truncated to 0.1 for PM2.5 and to 1 for PM10) and the index range of each tier.
 * Their lower ends are common/catalogue/colors.ts PM2P5_BREAKPOINTS and PM10_BREAKPOINTS.
 */
const AQI_INDEX: readonly [number, number][] = [[0, 50], [51, 100], [101, 150], [151, 200], [201, 300], [301, 500]];
const AQI_CONCENTRATION: Readonly<Record<'pm2p5' | 'pm10', readonly [number, number][]>> = {
  pm2p5: [[0, 9], [9.1, 35.4], [35.5, 55.4], [55.5, 125.4], [125.5, 225.4], [225.5, 325.4]],
  pm10: [[0, 54], [55, 154], [155, 254], [255, 354], [355, 424], [425, 604]],
};

/** The AQI of a PM2.5 or PM10 concentration (EPA's linear interpolation inside its tier); 500 above the scale. */
export function aqiOf(pollutant: 'pm2p5' | 'pm10', concentration: number): number {
  if (!Number.isFinite(concentration)) return NaN;
  const c = pollutant === 'pm2p5' ? Math.floor(Math.max(0, concentration) * 10 + 1e-9) / 10 : Math.floor(Math.max(0, concentration) + 1e-9);
  const ranges = AQI_CONCENTRATION[pollutant];
  for (let k = 0; k < ranges.length; k++) {
    const [cLo, cHi] = ranges[k];
    const next = ranges[k + 1]?.[0] ?? Infinity;
    if (c < next) {
      const [iLo, iHi] = AQI_INDEX[k];
      return Math.round(((iHi - iLo) / (cHi - cLo)) * (Math.min(c, cHi) - cLo) + iLo);
    }
  }
  return 500;
}
