/**
 * Colour scales (SPEC §3 "Colour scale"): stops [value in the metric's base unit, rgba], turned
 * into a ramp of `steps` colours (default 256, 4..12000) sampled evenly between the first and the
 * last stop. The render worker uploads the ramp as a texture; the legend reads the same stops.
 */

import { EAQI_TIERS } from './classes.ts';
import { CAP_SEVERITIES, CAP_SEVERITY_COLOURS, CAP_SEVERITY_LEVEL } from '../capAlerts.ts';

export type Rgba = readonly [number, number, number, number];
export type ColorStop = readonly [number, Rgba];

export interface ColorScale {
  ident: string;
  stops: readonly ColorStop[];
  steps: number;
  /** No stop is transparent: the layer hides what is under it. */
  opaque?: boolean;
  /** Classes, not a continuum: colours are not interpolated between stops. */
  qualitative?: boolean;
}

// SPEC §3: steps default 256, range 4 to 12000.
const DEFAULT_STEPS = 256;
const MIN_STEPS = 4;
const MAX_STEPS = 12000;

export class ColorScaleError extends Error {
  override name = 'ColorScaleError';
}

/** SPEC §5: a custom gradient is valid only as a list of [number, four-number colour]. */
export function validateStops(stops: unknown): ColorStop[] {
  if (!Array.isArray(stops) || stops.length < 2) throw new ColorScaleError('A colour scale needs at least two stops');
  let last = -Infinity;
  return stops.map((stop, i) => {
    if (!Array.isArray(stop) || stop.length !== 2) throw new ColorScaleError(`Stop ${i} is not [value, colour]`);
    const [value, rgba] = stop as [unknown, unknown];
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new ColorScaleError(`Stop ${i} value is not a number`);
    if (value < last) throw new ColorScaleError(`Stop ${i} value ${value} is below the previous stop`);
    last = value;
    if (!Array.isArray(rgba) || rgba.length !== 4 || !rgba.every((c) => typeof c === 'number' && Number.isFinite(c))) {
      throw new ColorScaleError(`Stop ${i} colour is not four numbers`);
    }
    return [value, rgba as unknown as Rgba] as const;
  });
}

/** SPEC §5: colour text must be rgb(...) or rgba(...), else error. Alpha 0..1 becomes 0..255. */
export function parseColor(text: string): Rgba {
  const m = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(text.trim());
  if (!m) throw new ColorScaleError(`Colour "${text}" is not rgb(...) or rgba(...)`);
  const [r, g, b] = [m[1], m[2], m[3]].map(Number);
  const a = m[4] === undefined ? 255 : Math.round(Number(m[4]) * 255);
  if (![r, g, b].every((c) => c <= 255) || a > 255) throw new ColorScaleError(`Colour "${text}" is out of range`);
  return [r, g, b, a];
}

export function colorText([r, g, b, a]: Rgba): string {
  return `rgba(${r}, ${g}, ${b}, ${+(a / 255).toFixed(3)})`;
}

/** The scale's value domain: [first stop, last stop]. */
export function scaleDomain(scale: ColorScale): [number, number] {
  return [scale.stops[0][0], scale.stops[scale.stops.length - 1][0]];
}

/** Colour of one value (clamped to the domain), interpolated between stops unless qualitative. */
export function colorAt(scale: ColorScale, value: number): Rgba {
  const { stops } = scale;
  if (!(value > stops[0][0])) return stops[0][1];
  for (let i = 1; i < stops.length; i++) {
    const [v1, c1] = stops[i];
    if (value <= v1) {
      const [v0, c0] = stops[i - 1];
      if (scale.qualitative) return value < v1 ? c0 : c1;
      const t = v1 > v0 ? (value - v0) / (v1 - v0) : 1;
      return [0, 1, 2, 3].map((k) => c0[k] + (c1[k] - c0[k]) * t) as unknown as Rgba;
    }
  }
  return stops[stops.length - 1][1];
}

/** steps x RGBA bytes, evenly spaced over the domain. */
export function buildColorRamp(scale: ColorScale, steps = scale.steps): Uint8Array {
  if (!Number.isInteger(steps) || steps < MIN_STEPS || steps > MAX_STEPS) {
    throw new ColorScaleError(`Colour scale steps ${steps} outside ${MIN_STEPS}..${MAX_STEPS}`);
  }
  const [min, max] = scaleDomain(scale);
  const ramp = new Uint8Array(steps * 4);
  for (let i = 0; i < steps; i++) {
    const c = colorAt(scale, min + ((max - min) * i) / (steps - 1));
    for (let k = 0; k < 4; k++) ramp[i * 4 + k] = Math.round(Math.min(255, Math.max(0, c[k])));
  }
  return ramp;
}

const A = 255;
const scale = (ident: string, stops: ColorStop[], extra: Partial<ColorScale> = {}): ColorScale => ({
  ident, stops: validateStops(stops), steps: DEFAULT_STEPS, ...extra,
});

/**
 * SPEC §9: air quality tiers Good to Hazardous, the six categories of the US EPA Air Quality Index
 * (AQI 0-50, 51-100, 101-150, 151-200, 201-300, 301+) in the EPA's colours.
 */
export const AIR_QUALITY_TIERS = ['good', 'moderate', 'unhealthySensitive', 'unhealthy', 'veryUnhealthy', 'hazardous'] as const;
export type AirQualityTier = (typeof AIR_QUALITY_TIERS)[number];
export const AIR_QUALITY_COLORS: Readonly<Record<AirQualityTier, Rgba>> = {
  good: [0, 228, 0, A], moderate: [255, 255, 0, A], unhealthySensitive: [255, 126, 0, A],
  unhealthy: [255, 0, 0, A], veryUnhealthy: [143, 63, 151, A], hazardous: [126, 0, 35, A],
};

/**
 * Lowest concentration (µg/m³) of each tier above Good: the EPA AQI breakpoints (PM2.5 as revised
 * in 2024; PM10 unchanged). The EPA truncates PM2.5 to 0.1 and PM10 to 1 µg/m³ before classing, so
 * 9.09 is still Good and 9.1 Moderate.
 */
export const PM2P5_BREAKPOINTS: readonly number[] = [9.1, 35.5, 55.5, 125.5, 225.5];
export const PM10_BREAKPOINTS: readonly number[] = [55, 155, 255, 355, 425];

/** The tier of a concentration against a pollutant's breakpoints. */
export function airQualityTier(breakpoints: readonly number[], value: number): AirQualityTier {
  let tier = 0;
  for (const b of breakpoints) if (value >= b) tier++;
  return AIR_QUALITY_TIERS[tier];
}

/**
 * A tier scale: qualitative (nearest-colour ramp), `top` the last value it resolves. `top` and
 * `steps` are chosen so the ramp's entries fall on the breakpoints' precision (0.1 or 1 µg/m³).
 */
const tierScale = (ident: string, breakpoints: readonly number[], top: number, steps: number): ColorScale => scale(ident, [
  [0, AIR_QUALITY_COLORS.good],
  ...breakpoints.map((b, k): ColorStop => [b, AIR_QUALITY_COLORS[AIR_QUALITY_TIERS[k + 1]]]),
  [top, AIR_QUALITY_COLORS.hazardous],
], { steps, qualitative: true, opaque: true });

/**
 * Base units: wind, gust m/s; temperature, dew point K; pressure Pa; rain mm/h; accumulated
 * precipitation mm; clouds, humidity %; CAPE J/kg; waves and geopotential height m; PM2.5 and
 * PM10 µg/m³; aerosol optical depth dimensionless.
 */
export const COLOR_SCALES: Readonly<Record<string, ColorScale>> = {
  wind: scale('wind', [
    [0, [98, 113, 183, A]], [1, [57, 97, 159, A]], [3, [74, 148, 169, A]], [5, [77, 141, 123, A]],
    [7, [83, 165, 83, A]], [9, [53, 159, 53, A]], [11, [167, 157, 81, A]], [13, [159, 127, 58, A]],
    [15, [161, 108, 92, A]], [17, [129, 58, 78, A]], [19, [175, 80, 136, A]], [21, [117, 74, 147, A]],
    [24, [109, 97, 163, A]], [27, [68, 105, 141, A]], [29, [92, 144, 152, A]], [36, [125, 68, 165, A]],
    [46, [231, 215, 215, A]], [51, [219, 212, 135, A]], [77, [205, 202, 112, A]], [104, [128, 128, 128, A]],
  ], { opaque: true }),
  temp: scale('temp', [
    [203, [115, 70, 105, A]], [218, [202, 172, 195, A]], [233, [162, 70, 145, A]], [248, [143, 89, 169, A]],
    [258, [157, 219, 217, A]], [265, [106, 191, 181, A]], [269, [100, 166, 189, A]], [273.15, [93, 133, 198, A]],
    [274, [68, 125, 99, A]], [283, [128, 147, 24, A]], [294, [243, 183, 4, A]], [303, [232, 83, 25, A]],
    [320, [71, 14, 0, A]],
  ], { opaque: true }),
  pressure: scale('pressure', [
    [95000, [8, 16, 48, A]], [97600, [0, 52, 146, A]], [98600, [0, 90, 148, A]], [99500, [0, 117, 146, A]],
    [100200, [26, 140, 147, A]], [100700, [103, 162, 155, A]], [101000, [155, 183, 172, A]],
    [101300, [182, 182, 182, A]], [101600, [176, 174, 152, A]], [102000, [167, 147, 107, A]],
    [102900, [163, 101, 58, A]], [104600, [159, 68, 46, A]], [105000, [160, 42, 38, A]],
  ], { opaque: true }),
  rain: scale('rain', [
    [0, [111, 111, 111, 0]], [0.1, [60, 116, 160, 150]], [1, [59, 161, 161, 220]], [2, [59, 161, 61, A]],
    [4, [130, 161, 59, A]], [6, [161, 161, 59, A]], [10, [161, 59, 59, A]], [20, [161, 59, 161, A]],
    [40, [168, 168, 168, A]],
  ]),
  dewpoint: scale('dewpoint', [
    [233, [162, 70, 145, A]], [248, [143, 89, 169, A]], [258, [157, 219, 217, A]], [265, [106, 191, 181, A]],
    [273.15, [93, 133, 198, A]], [278, [68, 125, 99, A]], [283, [128, 147, 24, A]], [289, [205, 170, 30, A]],
    [294, [243, 183, 4, A]], [298, [232, 83, 25, A]], [303, [160, 30, 40, A]],
  ], { opaque: true }),
  rh: scale('rh', [
    [0, [173, 85, 56, A]], [30, [173, 110, 56, A]], [40, [173, 146, 56, A]], [50, [105, 173, 56, A]],
    [60, [56, 173, 121, A]], [70, [56, 174, 173, A]], [75, [56, 160, 173, A]], [80, [56, 157, 173, A]],
    [83, [56, 148, 173, A]], [87, [56, 135, 173, A]], [90, [56, 132, 173, A]], [93, [56, 123, 173, A]],
    [97, [56, 98, 157, A]], [100, [56, 70, 114, A]],
  ], { opaque: true }),
  /**
   * Satellite imagery: the composite brightness 0 (dark: warm ground by night, dark ground by day)
   * to 1 (bright: cold cloud tops, bright clouds) in grey, as the imagery is shown.
   */
  satellite: scale('satellite', [
    [0, [8, 10, 14, A]], [0.25, [64, 66, 70, A]], [0.5, [128, 130, 133, A]], [0.75, [192, 193, 195, A]], [1, [255, 255, 255, A]],
  ], { opaque: true }),
  /**
   * Radar reflectivity (dBZ): the US National Weather Service's standard reflectivity colours
   * (light to dark blue, greens, yellow to orange, reds, magenta, purple, white at 75 dBZ), in
   * 5 dBZ bands; below 5 dBZ transparent (clear air, clutter), so the map shows through.
   */
  radar: scale('radar', [
    [0, [4, 233, 231, 0]], [4.9, [4, 233, 231, 0]], [5, [4, 233, 231, 150]], [10, [1, 159, 244, 180]], [15, [3, 0, 244, 200]],
    [20, [2, 253, 2, A]], [25, [1, 197, 1, A]], [30, [0, 142, 0, A]], [35, [253, 248, 2, A]], [40, [229, 188, 0, A]],
    [45, [253, 149, 0, A]], [50, [253, 0, 0, A]], [55, [212, 0, 0, A]], [60, [188, 0, 0, A]], [65, [248, 0, 253, A]],
    [70, [152, 84, 198, A]], [75, [253, 253, 253, A]],
  ], { steps: 750, qualitative: true }),
  /**
   * Weather warnings by CAP severity level (1 Minor .. 4 Extreme, common/capAlerts.ts): the colours
   * the warning areas are drawn in (CAP_SEVERITY_COLOURS), one class each.
   */
  capAlerts: scale('capAlerts', CAP_SEVERITIES.map((s) => [CAP_SEVERITY_LEVEL[s], [...CAP_SEVERITY_COLOURS[s], A]] as ColorStop).reverse(),
    { qualitative: true, steps: 5 }),
  rainAccu: scale('rainAccu', [
    [0, [111, 111, 111, 0]], [1, [60, 116, 160, 150]], [5, [59, 161, 161, 220]], [10, [59, 161, 61, A]],
    [20, [130, 161, 59, A]], [40, [161, 161, 59, A]], [70, [161, 59, 59, A]], [120, [161, 59, 161, A]],
    [250, [168, 168, 168, A]],
  ]),
  /** New snow, cm. */
  snowAccu: scale('snowAccu', [
    [0, [111, 111, 111, 0]], [0.5, [120, 140, 190, 140]], [2, [110, 150, 220, 210]], [5, [90, 110, 220, A]],
    [10, [130, 80, 210, A]], [20, [190, 80, 200, A]], [50, [230, 120, 200, A]], [100, [240, 200, 235, A]],
    [200, [250, 250, 250, A]],
  ]),
  cape: scale('cape', [
    [0, [110, 110, 110, 0]], [100, [90, 110, 160, 120]], [300, [60, 140, 180, 200]], [600, [70, 170, 90, A]],
    [1000, [190, 190, 60, A]], [1500, [230, 150, 40, A]], [2000, [220, 80, 40, A]], [3000, [180, 40, 120, A]],
    [4500, [140, 60, 200, A]], [6000, [230, 230, 230, A]],
  ]),
  waves: scale('waves', [
    [0, [154, 174, 214, A]], [0.5, [95, 137, 194, A]], [1, [56, 114, 180, A]], [1.5, [50, 140, 160, A]],
    [2, [57, 161, 116, A]], [3, [140, 170, 60, A]], [4, [190, 160, 50, A]], [5, [200, 110, 50, A]],
    [7, [180, 60, 70, A]], [9, [150, 50, 140, A]], [12, [110, 60, 170, A]], [16, [230, 230, 230, A]],
  ], { opaque: true }),
  /** Wind waves and swell partitions: the waves scale with the map showing through where the sea is calm. */
  swell: scale('swell', [
    [0, [154, 174, 214, 0]], [0.25, [120, 150, 200, 120]], [0.5, [95, 137, 194, 200]], [1, [56, 114, 180, A]],
    [1.5, [50, 140, 160, A]], [2, [57, 161, 116, A]], [3, [140, 170, 60, A]], [4, [190, 160, 50, A]],
    [5, [200, 110, 50, A]], [7, [180, 60, 70, A]], [9, [150, 50, 140, A]], [12, [110, 60, 170, A]],
  ]),
  /** Freezing level (m above sea level): 0 m at the poles to 5 km and more in the tropics. */
  deg0: scale('deg0', [
    [0, [150, 60, 170, A]], [500, [100, 90, 200, A]], [1000, [60, 120, 210, A]], [1500, [60, 170, 200, A]],
    [2000, [70, 180, 140, A]], [2500, [110, 190, 80, A]], [3000, [180, 190, 60, A]], [3500, [220, 170, 50, A]],
    [4000, [230, 130, 50, A]], [4500, [210, 80, 60, A]], [5000, [170, 50, 70, A]], [6000, [120, 30, 60, A]],
  ], { opaque: true }),
  /** Total column ozone (DU): the ozone hole purple, normal mid-latitude columns green, spring maxima red. */
  gtco3: scale('gtco3', [
    [100, [90, 20, 110, A]], [150, [120, 60, 170, A]], [200, [60, 90, 190, A]], [250, [60, 150, 200, A]],
    [300, [80, 180, 120, A]], [350, [170, 190, 70, A]], [400, [220, 160, 50, A]], [450, [220, 100, 50, A]],
    [500, [180, 40, 50, A]], [600, [240, 240, 240, A]],
  ], { opaque: true }),
  /** Snow depth (cm): bare ground lets the map through. */
  snowcover: scale('snowcover', [
    [0, [200, 220, 240, 0]], [1, [190, 210, 235, 120]], [5, [170, 195, 230, 190]], [10, [140, 170, 225, 230]],
    [20, [110, 140, 215, A]], [50, [90, 100, 200, A]], [100, [110, 70, 180, A]], [200, [150, 60, 160, A]],
    [500, [230, 230, 240, A]],
  ]),
  /**
   * SPEC §9 precipitation type codes 0-11 in 11 colour classes (thunder, codes 2 and 10, shares
   * one): rain blues, thunder reds, freezing and mixed ice pinks, snow whites and lilacs.
   */
  ptype: scale('ptype', [
    [0, [40, 100, 200, A]], [1, [90, 170, 230, A]], [2, [220, 60, 60, A]], [3, [230, 90, 200, A]],
    [4, [170, 80, 200, A]], [5, [240, 240, 250, A]], [6, [170, 200, 240, A]], [7, [120, 200, 200, A]],
    [8, [250, 170, 60, A]], [9, [240, 130, 110, A]], [10, [220, 60, 60, A]], [11, [150, 20, 40, A]],
  ], { qualitative: true, steps: 12 }),
  /** Cloud top and base (m above sea level): low clouds warm colours, high ones cold. */
  cloudHeight: scale('cloudHeight', [
    [0, [200, 90, 60, A]], [500, [220, 140, 60, A]], [1000, [220, 190, 80, A]], [2000, [150, 190, 90, A]],
    [3000, [80, 170, 130, A]], [5000, [60, 140, 190, A]], [8000, [70, 90, 190, A]], [11000, [110, 60, 170, A]],
    [16000, [220, 220, 240, A]],
  ], { opaque: true }),
  /** Visibility (m): fog dark, haze pale, clear air lets the map through. */
  visibility: scale('visibility', [
    [0, [120, 60, 140, A]], [200, [160, 80, 150, A]], [1000, [200, 120, 130, 240]], [2000, [220, 170, 120, 220]],
    [5000, [220, 210, 150, 170]], [10000, [180, 200, 190, 90]], [20000, [150, 180, 200, 0]], [30000, [150, 180, 200, 0]],
  ]),
  /** Sea surface temperature (K): the temperature colours over the range the sea spans. */
  sst: scale('sst', [
    [271, [150, 130, 200, A]], [273.15, [93, 133, 198, A]], [278, [60, 150, 190, A]], [283, [70, 170, 150, A]],
    [288, [128, 170, 60, A]], [293, [210, 190, 40, A]], [298, [243, 150, 20, A]], [301, [232, 83, 25, A]],
    [304, [170, 30, 40, A]], [308, [110, 10, 30, A]],
  ], { opaque: true }),
  /** Ocean current speed (m/s). */
  currents: scale('currents', [
    [0, [30, 60, 110, A]], [0.1, [40, 90, 150, A]], [0.25, [50, 130, 170, A]], [0.5, [60, 170, 150, A]],
    [0.75, [140, 190, 80, A]], [1, [210, 190, 60, A]], [1.5, [220, 120, 50, A]], [2, [190, 50, 70, A]],
    [3, [230, 230, 230, A]],
  ], { opaque: true }),
  /** Geopotential height (m): 500 hPa and 850 hPa ranges side by side; isolines mostly, raster for the legend. */
  gh: scale('gh', [
    [0, [60, 50, 120, A]], [1200, [70, 120, 180, A]], [1600, [120, 190, 190, A]], [4900, [60, 70, 160, A]],
    [5300, [90, 160, 200, A]], [5600, [160, 200, 120, A]], [5900, [230, 170, 60, A]], [12000, [200, 80, 60, A]],
    [32000, [240, 240, 240, A]],
  ], { opaque: true }),
  clouds: scale('clouds', [
    [0, [40, 50, 70, 0]], [10, [90, 100, 120, 40]], [30, [140, 148, 160, 120]], [60, [190, 195, 200, 190]],
    [90, [225, 228, 232, 235]], [100, [245, 246, 248, A]],
  ]),
  /** PM2.5 in the air quality tiers: 0 .. 300 µg/m³ in 0.1 steps. */
  pm2p5: tierScale('pm2p5', PM2P5_BREAKPOINTS, 300, 3001),
  /** PM10 in the air quality tiers: 0 .. 600 µg/m³ in 1 µg/m³ steps. */
  pm10: tierScale('pm10', PM10_BREAKPOINTS, 600, 601),
  /** Aerosol optical depth at 550 nm: clear air lets the map through, haze to heavy dust or smoke above 1. */
  aod550: scale('aod550', [
    [0, [60, 90, 150, 0]], [0.05, [70, 130, 180, 110]], [0.1, [80, 170, 170, 190]], [0.2, [110, 190, 90, A]],
    [0.4, [230, 210, 60, A]], [0.6, [240, 150, 40, A]], [0.8, [220, 80, 40, A]], [1, [170, 40, 60, A]],
    [1.5, [120, 40, 120, A]], [2, [80, 30, 90, A]], [3, [230, 230, 230, A]],
  ]),
  // ---- Derived fields (server/ingest/derived). ----
  wetbulbtemp: scale('wetbulbtemp', [
    [233, [162, 70, 145, A]], [253, [143, 89, 169, A]], [263, [106, 191, 181, A]], [273.15, [93, 133, 198, A]],
    [278, [68, 125, 99, A]], [283, [128, 147, 24, A]], [288, [205, 170, 30, A]], [293, [243, 183, 4, A]],
    [298, [232, 83, 25, A]], [301, [190, 30, 40, A]], [304, [120, 10, 60, A]], [308, [240, 240, 240, A]],
  ], { opaque: true }),
  /** SPEC §9 fog classes: none (clear), fog (grey), rime fog (icy blue). */
  fog: scale('fog', [
    [0, [120, 120, 120, 0]], [0.7, [120, 120, 120, 0]], [0.71, [190, 190, 190, 200]], [1, [230, 230, 230, A]],
    [1.7, [150, 200, 240, 200]], [2, [200, 230, 255, A]],
  ]),
  thunder: scale('thunder', [
    [0, [110, 110, 110, 0]], [0.05, [90, 110, 160, 100]], [0.2, [70, 150, 180, 200]], [0.5, [190, 190, 60, A]],
    [1, [230, 150, 40, A]], [3, [220, 60, 40, A]], [10, [180, 40, 160, A]],
  ]),
  solarpower: scale('solarpower', [
    [0, [30, 30, 60, A]], [10, [70, 60, 110, A]], [30, [150, 90, 90, A]], [50, [220, 140, 50, A]],
    [70, [245, 200, 60, A]], [90, [255, 245, 160, A]],
  ], { opaque: true }),
  ccl: scale('ccl', [
    [0, [200, 60, 60, A]], [500, [230, 150, 40, A]], [1000, [190, 190, 60, A]], [1500, [90, 170, 90, A]],
    [2500, [60, 140, 180, A]], [4000, [70, 80, 170, A]], [6000, [230, 230, 230, A]],
  ], { opaque: true }),
  /** Volumetric soil moisture, %: dry sand about 5, field capacity of loam about 30, saturation 40-50. */
  soilMoisture: scale('soilMoisture', [
    [0, [150, 90, 40, A]], [8, [200, 150, 70, A]], [15, [225, 205, 120, A]], [22, [150, 200, 120, A]],
    [30, [70, 160, 150, A]], [38, [50, 110, 180, A]], [50, [40, 50, 140, A]],
  ], { opaque: true }),
  dfm10h: scale('dfm10h', [
    [0, [150, 30, 30, A]], [4, [220, 70, 40, A]], [8, [240, 160, 40, A]], [12, [200, 200, 80, A]],
    [16, [100, 170, 90, A]], [22, [60, 130, 170, A]], [30, [50, 80, 150, A]],
  ], { opaque: true }),
  /** Fire danger levels 0-6 of SPEC §9 over the FWI's usual class limits (5, 10, 20, 30, 50). */
  fwi: scale('fwi', [
    [0, [60, 140, 60, 120]], [5, [120, 180, 60, A]], [10, [230, 210, 60, A]], [20, [240, 150, 40, A]],
    [30, [220, 60, 40, A]], [50, [140, 30, 60, A]], [80, [60, 10, 40, A]],
  ]),
  /** EEA index levels 1-6 in the colours of the SPEC §9 tier each is shown as (classes.ts EAQI_TIERS). */
  aqi: scale('aqi', EAQI_TIERS.map((tier, k): ColorStop => [k + 1, AIR_QUALITY_COLORS[tier]]), { qualitative: true }),
  gas: scale('gas', [
    [0, [60, 90, 150, 0]], [10, [70, 130, 180, 120]], [40, [110, 190, 90, A]], [90, [230, 210, 60, A]],
    [150, [240, 150, 40, A]], [250, [220, 60, 40, A]], [400, [140, 30, 100, A]], [1000, [230, 230, 230, A]],
  ]),
  /** Carbon monoxide near the ground, µg/m³ (background about 100-200). */
  cosc: scale('cosc', [
    [0, [60, 90, 150, 0]], [100, [70, 130, 180, 120]], [200, [110, 190, 90, A]], [400, [230, 210, 60, A]],
    [1000, [240, 150, 40, A]], [3000, [220, 60, 40, A]], [10000, [140, 30, 100, A]],
  ]),
  dustsm: scale('dustsm', [
    [0, [200, 170, 120, 0]], [10, [210, 180, 120, 100]], [50, [220, 170, 90, 190]], [150, [210, 130, 60, A]],
    [400, [170, 80, 40, A]], [1000, [110, 50, 30, A]], [3000, [60, 30, 20, A]],
  ]),
  tcso2: scale('tcso2', [
    [0, [60, 90, 150, 0]], [0.3, [70, 130, 180, 120]], [1, [110, 190, 90, A]], [3, [230, 210, 60, A]],
    [10, [220, 60, 40, A]], [30, [140, 30, 100, A]],
  ]),
  turbulence: scale('turbulence', [
    [0, [110, 110, 110, 0]], [2, [90, 150, 200, 120]], [4, [190, 190, 60, A]], [8, [230, 130, 40, A]],
    [12, [210, 50, 50, A]], [20, [150, 40, 150, A]],
  ]),
  icing: scale('icing', [[0, [110, 110, 110, 0]], [50, [110, 110, 110, 0]], [51, [120, 190, 240, 200]], [100, [120, 190, 240, 200]]]),
};
