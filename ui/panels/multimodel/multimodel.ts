/**
 * The multi-model window's data (SPEC §2 /multimodel/{lat}/{lon}): which served products cover the
 * place and forecast the weather the window compares, and the columns they share.
 *
 * Products of today (the live models and the demo product, labelled as such) share one time axis:
 * the 3-hour steps (SPEC §9 default step) from the step before now on. A sample
 * (../shared/data/samples: real output of a fixed past date) never joins that axis: each one is
 * shown apart, on its own dates, so no sample is read as a forecast of today.
 */

import { PRODUCTS } from '../../../common/catalogue/products.ts';
import { productCovers } from '../../../common/catalogue/layerRules.ts';
import type { PointForecast } from '../../../common/api/forecast.ts';
import { stepIndices } from '../detail/forecast.ts';

/** The overlays whose values the window compares (temperature, wind and its direction, gusts, precipitation, clouds). */
export const COMPARED_OVERLAYS = ['temp', 'wind', 'gust', 'rain', 'clouds'] as const;
/** SPEC §9: "Default step 3 h". */
export const MULTIMODEL_STEP_H = 3;
/** Columns shown at most: seven days of 3-hour steps. */
export const MULTIMODEL_MAX_COLUMNS = 56;

export interface ComparedProduct {
  ident: string;
  sample: boolean;
  demo: boolean;
}

/**
 * The served products (in the server's order) that cover the place and have at least one compared
 * value: today's first, then the samples.
 */
export function comparedProducts(served: readonly { ident: string; sample?: boolean; demo?: boolean }[], lat: number, lon: number): ComparedProduct[] {
  const out = served.filter((s) => {
    const def = PRODUCTS[s.ident];
    return !!def && productCovers(def, lat, lon) && def.overlays.some((o) => (COMPARED_OVERLAYS as readonly string[]).includes(o));
  }).map((s) => ({ ident: s.ident, sample: !!(s.sample ?? PRODUCTS[s.ident].sample), demo: !!(s.demo ?? PRODUCTS[s.ident].demo) }));
  return [...out.filter((p) => !p.sample), ...out.filter((p) => p.sample)];
}

/**
 * The shared columns of today's forecasts: every 3-hour step any of them has, from the last one
 * at or before `now` on, at most MULTIMODEL_MAX_COLUMNS.
 */
export function sharedColumns(forecasts: readonly PointForecast[], now: number): number[] {
  const all = new Set<number>();
  for (const f of forecasts) for (const k of stepIndices(f.ts, f.header.refTime, MULTIMODEL_STEP_H)) all.add(f.ts[k]);
  const sorted = [...all].sort((a, b) => a - b);
  let first = 0;
  while (first + 1 < sorted.length && sorted[first + 1] <= now) first++;
  return sorted.slice(first, first + MULTIMODEL_MAX_COLUMNS);
}

/** A sample's own columns: its 3-hour steps from its first, at most MULTIMODEL_MAX_COLUMNS. */
export function sampleColumns(forecast: PointForecast): number[] {
  return stepIndices(forecast.ts, forecast.header.refTime, MULTIMODEL_STEP_H).slice(0, MULTIMODEL_MAX_COLUMNS).map((k) => forecast.ts[k]);
}

/** The index of each column's time in a forecast (-1 where it has no value then). */
export function indicesAt(forecast: PointForecast, columns: readonly number[]): number[] {
  const at = new Map<number, number>();
  forecast.ts.forEach((t, i) => at.set(t, i));
  return columns.map((t) => at.get(t) ?? -1);
}

/** The grid spacing as the window writes it: degrees, and about how many km (1° of latitude ≈ 111.2 km). */
export function resolutionOf(ident: string): { deg: string; km: number } | null {
  const def = PRODUCTS[ident];
  if (!def) return null;
  const deg = Number(def.resolution.toPrecision(3));
  return { deg: String(deg), km: Math.round(def.resolution * 111.2) };
}

