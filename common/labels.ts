/**
 * City labels on the map with their forecast values (SPEC §3 "City label", §7, §9): the label tiles,
 * the city tiles of forecast values, and the arithmetic the server and the UI share.
 *
 *   GET /labels/{version}/{lang}/{z}/{x}/{y}.json            { labels: CityLabel[] }   no cache (ETag)
 *   GET /citytile/v1.0/{product}/{z}/{x}/{y}?refTime&step&hours&labelsVersion
 *                                                            CityTile: the forecast of every label
 *                                                            of that tile over a window of hours
 *
 * The paths and answers are common/api/labels.ts.
 *
 * Tiles are Web Mercator tiles of 256 px (z 3..11, x from 180° W, y from the north). A label tile
 * holds the biggest places of its square that fit without their boxes touching (chosen for the
 * whole world at once, so neighbouring tiles never crowd at their edges).
 */

import { VARIABLES } from './catalogue/variables.ts';
import { OVERLAY_MAX_ZOOM, mercX, mercY, worldSize, type View } from './map.ts';
import { HOUR_MS } from './time.ts';
import type { CityTile, LabelClass } from './api/labels.ts';

/** SPEC §9: overlay and label layers max zoom 11, labels min 3. */
export const LABELS_MIN_ZOOM = 3;
export const LABELS_MAX_ZOOM = OVERLAY_MAX_ZOOM;
/** Label tiles are 256 CSS px squares (SPEC §9 tile edge). */
export const LABEL_TILE_PX = 256;

const LABEL_CLASS_MIN_POPULATION: Readonly<Record<LabelClass, number>> = { capital: 1_000_000, city: 100_000, town: 0 };

export function labelClass(population: number): LabelClass {
  if (population >= LABEL_CLASS_MIN_POPULATION.capital) return 'capital';
  return population >= LABEL_CLASS_MIN_POPULATION.city ? 'city' : 'town';
}

/** A label is drawn as two lines: the name and the value. */
export const LABEL_HEIGHT_PX = 32;
/** Room for the value line ("-12°C", "25 kt"): a label is never narrower. */
const LABEL_MIN_WIDTH_PX = 44;
const LABEL_CHAR_PX = 6.6;
const LABEL_PADDING_PX = 8;
/** Names longer than this are cut with an ellipsis on the map. */
export const LABEL_MAX_WIDTH_PX = 150;

/** Width of a label of this name at the map's label font (12 px, semibold), CSS px. */
export function estimateLabelWidth(name: string): number {
  return Math.min(LABEL_MAX_WIDTH_PX, Math.max(LABEL_MIN_WIDTH_PX, Math.round([...name].length * LABEL_CHAR_PX + LABEL_PADDING_PX)));
}

/** How many hours a city tile answers at most, and the window the map asks for. */
export const CITYTILE_MAX_HOURS = 48;
export const CITYTILE_WINDOW_HOURS = 24;

/**
 * The window of forecast hours holding `time` that the map asks for: whole days from the run's
 * reference time, plus the first hour of the next day so that times up to its end interpolate.
 */
export function hoursWindow(refTime: number, time: number): [number, number] {
  const day = Math.max(0, Math.floor((time - refTime) / HOUR_MS / CITYTILE_WINDOW_HOURS));
  return [day * CITYTILE_WINDOW_HOURS, (day + 1) * CITYTILE_WINDOW_HOURS];
}

/** What a label shows for an overlay: the city tile series and its metric, or null (no value). */
export function labelVariable(overlay: string, level: string): { variable: string; metric: string } | null {
  // The city tiles hold surface values only.
  if (level !== 'surface') return null;
  if (overlay === 'wind') return { variable: 'wind', metric: 'wind' };
  const v = VARIABLES[overlay];
  return v?.point ? { variable: v.ident, metric: v.metric } : null;
}

/**
 * A series' value at a time, linear between the hours around it; exactly the stored value at an
 * hour; null outside the hours or next to a missing value.
 */
export function valueAt(tile: CityTile, series: readonly (number | null)[] | undefined, time: number): number | null {
  if (!series) return null;
  const h = (time - tile.reftime) / HOUR_MS;
  const { hours } = tile;
  if (!(h >= hours[0] && h <= hours[hours.length - 1])) return null;
  let i = 0;
  while (i + 1 < hours.length && hours[i + 1] <= h) i++;
  const a = series[i];
  if (hours[i] === h || i + 1 >= hours.length) return hours[i] === h ? a : null;
  const b = series[i + 1];
  if (a === null || b === null) return null;
  const w = (h - hours[i]) / (hours[i + 1] - hours[i]);
  return a + (b - a) * w;
}

/** Wind direction (degrees it comes from) between two times: the nearer hour's, never averaged across north. */
export function directionAt(tile: CityTile, series: readonly (number | null)[] | undefined, time: number): number | null {
  if (!series) return null;
  const h = (time - tile.reftime) / HOUR_MS;
  const { hours } = tile;
  if (!(h >= hours[0] && h <= hours[hours.length - 1])) return null;
  let best = 0;
  for (let i = 1; i < hours.length; i++) if (Math.abs(hours[i] - h) < Math.abs(hours[best] - h)) best = i;
  return series[best];
}

export interface TileXY {
  x: number;
  y: number;
}

/**
 * The label tiles of zoom `z` that cover a view (with `marginPx` around it), nearest to the centre
 * first; x wraps around the world, y stays inside it.
 */
export function labelTilesInView(view: View, z: number, marginPx = 0): TileXY[] {
  const n = 2 ** z;
  const tilePx = worldSize(view.zoom) / n;
  const cx = mercX(view.lon) * n;
  const cy = mercY(view.lat) * n;
  const halfW = (view.width / 2 + marginPx) / tilePx;
  const halfH = (view.height / 2 + marginPx) / tilePx;
  const x0 = Math.floor(cx - halfW);
  const x1 = Math.floor(cx + halfW);
  const y0 = Math.max(0, Math.floor(cy - halfH));
  const y1 = Math.min(n - 1, Math.floor(cy + halfH));
  const seen = new Set<number>();
  const out: (TileXY & { d: number })[] = [];
  for (let ty = y0; ty <= y1; ty++) {
    for (let tx = x0; tx <= Math.min(x1, x0 + n - 1); tx++) {
      const x = ((tx % n) + n) % n;
      if (seen.has(x * n + ty)) continue;
      seen.add(x * n + ty);
      out.push({ x, y: ty, d: (tx + 0.5 - cx) ** 2 + (ty + 0.5 - cy) ** 2 });
    }
  }
  return out.sort((a, b) => a.d - b.d).map(({ x, y }) => ({ x, y }));
}

/** The label tile zoom for a map zoom, or null where no labels are shown (SPEC §9: 3..11). */
export function labelZoom(mapZoom: number): number | null {
  const z = Math.floor(mapZoom + 1e-9);
  return z >= LABELS_MIN_ZOOM && z <= LABELS_MAX_ZOOM ? z : null;
}
