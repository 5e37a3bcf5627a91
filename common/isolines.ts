/**
 * Isolines (SPEC §3 settings isolinesType / isolinesOn, model definition `isolines`): which tile
 * file and level each type contours, the levels to draw over a value range in the user's unit,
 * which are drawn heavier, and their label text. Units and their conversions are the metrics'
 * (catalogue/metrics.ts, SPEC §9): lines fall on round values of the unit the user reads.
 */

import type { Metric } from './catalogue/metrics.ts';
import { RENDER_LAYERS } from './catalogue/overlays.ts';
import type { Product } from './catalogue/products.ts';

/** SPEC §3 isolinesType. */
export const ISOLINE_TYPES = ['pressure', 'gh', 'temp', 'deg0'] as const;
export type IsolineType = (typeof ISOLINE_TYPES)[number];

export function isIsolineType(value: unknown): value is IsolineType {
  return typeof value === 'string' && (ISOLINE_TYPES as readonly string[]).includes(value);
}

/** The isoline types a product offers (its model definition's `isolines`, SPEC §3), in its order. */
export function productIsolines(product: Pick<Product, 'isolines'>): IsolineType[] {
  return product.isolines.filter(isIsolineType);
}

/** Where a type's values come from: the render layer, its tile file `{file}-{level}` and level. */
export interface IsolineSource {
  layer: string;
  file: string;
  level: string;
  metric: Metric;
}

/** The pressure level gh is drawn at when the map shows the surface: the classic 500 hPa chart. */
export const DEFAULT_GH_LEVEL = '500h';

/**
 * The field a type contours at the map's level: pressure (mean sea level) and deg0 (height of
 * the 0 °C isotherm) are single fields; gh takes the map's pressure level (500 hPa on the
 * surface); temp takes the map's level where the temperature layer has it, else the surface.
 */
export function isolineSource(type: IsolineType, mapLevel: string): IsolineSource {
  const ident = type;
  const layer = RENDER_LAYERS[ident];
  if (!layer) throw new Error(`No render layer ${ident} for isolines ${type}`);
  let level = layer.levels[0];
  if (type === 'gh') level = layer.levels.includes(mapLevel) ? mapLevel : DEFAULT_GH_LEVEL;
  else if (type === 'temp' && layer.levels.includes(mapLevel)) level = mapLevel;
  return { layer: layer.ident, file: layer.file, level, metric: layer.metric };
}

/**
 * Spacing of the lines of a type in each unit of its metric, in that unit: `heavy` lines every
 * `heavyEvery` (a multiple of `step`), or at the single value `heavyAt`. Chosen so that lines fall
 * on round values of the unit: 4 hPa with 20 hPa heavier as on surface analyses; 0.1 inHg and
 * 3 mmHg (about 3.4 and 4 hPa); 40 m (4 dam) heights, 200 m heavier, or 100 ft / 500 ft; 2 °C
 * with 0 °C heavier, 4 °F with 32 °F heavier (32 is a multiple of 4: the freezing line is drawn);
 * the freezing level every 250 m / 1000 ft.
 */
interface Spacing {
  step: number;
  heavyEvery?: number;
  heavyAt?: number;
  /** Decimals of a label. */
  decimals: number;
}

export const ISOLINE_SPACING: Readonly<Record<IsolineType, Readonly<Record<string, Spacing>>>> = {
  pressure: {
    hPa: { step: 4, heavyEvery: 20, decimals: 0 },
    inHg: { step: 0.1, heavyEvery: 0.5, decimals: 1 },
    mmHg: { step: 3, heavyEvery: 15, decimals: 0 },
  },
  gh: {
    m: { step: 40, heavyEvery: 200, decimals: 0 },
    ft: { step: 100, heavyEvery: 500, decimals: 0 },
  },
  temp: {
    '°C': { step: 2, heavyAt: 0, decimals: 0 },
    '°F': { step: 4, heavyAt: 32, decimals: 0 },
  },
  deg0: {
    m: { step: 250, heavyEvery: 1000, decimals: 0 },
    ft: { step: 1000, heavyEvery: 5000, decimals: 0 },
  },
};

/** Most lines one call gives: more means a range no map needs (or a bad one). */
export const MAX_ISOLINE_LEVELS = 1000;

export interface IsolineLevel {
  /** In the field's base unit (what the tiles hold and the engine contours). */
  value: number;
  /** In the user's unit: a whole number of steps. */
  display: number;
  heavy: boolean;
}

export class IsolineError extends Error {
  override name = 'IsolineError';
}

function spacingOf(type: IsolineType, unit: string): Spacing {
  const table = ISOLINE_SPACING[type];
  if (!table) throw new IsolineError(`Unknown isolines type "${String(type)}": one of ${ISOLINE_TYPES.join(', ')}`);
  const spacing = table[unit];
  if (!spacing) throw new IsolineError(`Isolines ${type} have no unit "${unit}": one of ${Object.keys(table).join(', ')}`);
  return spacing;
}

/** The metric of a type's values (its layer's). */
export function isolineMetric(type: IsolineType): Metric {
  const metric = RENDER_LAYERS[type]?.metric;
  if (!metric) throw new IsolineError(`Unknown isolines type "${String(type)}": one of ${ISOLINE_TYPES.join(', ')}`);
  return metric;
}

/**
 * The lines to draw for values from `min` to `max` (base unit, as the field holds them; the
 * order does not matter), ascending: every whole step of the user's `unit` within the range.
 */
export function isolineLevels(type: IsolineType, unit: string, min: number, max: number): IsolineLevel[] {
  const spacing = spacingOf(type, unit);
  if (!Number.isFinite(min) || !Number.isFinite(max)) throw new IsolineError(`Isoline range ${min}..${max} must be finite`);
  const conv = isolineMetric(type).conv[unit];
  const a = conv.to(min);
  const b = conv.to(max);
  const { step } = spacing;
  const first = Math.ceil(Math.min(a, b) / step - 1e-9);
  const last = Math.floor(Math.max(a, b) / step + 1e-9);
  if (last - first + 1 > MAX_ISOLINE_LEVELS) {
    throw new IsolineError(`${last - first + 1} isolines of ${step} ${unit} from ${Math.min(a, b)} to ${Math.max(a, b)}: at most ${MAX_ISOLINE_LEVELS}`);
  }
  const levels: IsolineLevel[] = [];
  for (let k = first; k <= last; k++) {
    // k * step rounded to the label's decimals: 0.1 * 299 is 29.900000000000002 otherwise.
    const display = Number((k * step).toFixed(spacing.decimals + 2));
    levels.push({ value: conv.from(display), display, heavy: isHeavy(spacing, k) });
  }
  return levels;
}

function isHeavy(spacing: Spacing, k: number): boolean {
  if (spacing.heavyAt !== undefined) return Math.round(spacing.heavyAt / spacing.step) === k;
  const every = Math.round((spacing.heavyEvery ?? spacing.step) / spacing.step);
  return k % every === 0;
}

/**
 * A line's label in the user's unit: the number alone as weather charts print it ("1012",
 * "29.9", "5520"), temperatures with the unit and its degree sign ("-2°C", "32°F", SPEC §9).
 */
export function isolineLabel(type: IsolineType, unit: string, level: Pick<IsolineLevel, 'display'>): string {
  const spacing = spacingOf(type, unit);
  const text = level.display.toFixed(spacing.decimals).replace(/^-(0\.?0*)$/, '$1');
  return type === 'temp' ? `${text}${unit}` : text;
}
