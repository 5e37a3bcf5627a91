/**
 * The geometry of the skew-T log-p diagram and the hodograph (SPEC §2 /sounding, /radiosonde):
 * where a pressure and a temperature fall on the chart, its axis ticks, the background lines
 * (isotherms, dry adiabats, moist adiabats, saturation mixing-ratio lines), wind barb glyphs and the
 * hodograph's rings and height bands. Plain functions of numbers, drawn by SkewT.tsx and
 * Hodograph.tsx; the thermodynamic indices of a sounding are not here (ui/panels/sounding/analysis.ts).
 *
 *   chart         x right, y down (SVG), in CSS px of the plot area (0..width, 0..height)
 *   vertical      y = height * ln(pBottom / p) / ln(pBottom / pTop), measured up from the bottom
 *   skew          isotherms lean right going up: x = width * (T - tLeft) / (tRight - tLeft) + skew * up,
 *                 with `up` the px above the bottom and `skew` 1 (45° isotherms)
 *
 * The background lines are the textbook ones (WMO/US Air Force AWS/TR-79/006 "The Use of the Skew
 * T, Log P Diagram"): dry adiabats by Poisson's equation, moist (pseudo-)adiabats at constant
 * equivalent potential temperature, mixing-ratio lines by inverting Bolton's saturation vapour
 * pressure, all from common/sounding/thermo.ts.
 */

import { dewpointFromMixingRatio, KELVIN, moistAdiabat, temperatureFromPotential } from '../../../common/sounding/thermo.ts';

// ---- chart frame ----------------------------------------------------------------------------

export interface SkewTFrame {
  /** Plot area, CSS px. */
  width: number;
  height: number;
  /** hPa at the bottom and top edges (SPEC §2 sounding: 1050..100). */
  pBottom: number;
  pTop: number;
  /** °C at the left and right edges along the bottom. */
  tLeft: number;
  tRight: number;
  /** px to the right per px up (1: isotherms at 45°). */
  skew: number;
}

/** The frame the windows draw: 1050 to 100 hPa, -40 to +50 °C along the bottom, 45° isotherms. */
export function skewTFrame(width: number, height: number): SkewTFrame {
  return { width, height, pBottom: 1050, pTop: 100, tLeft: -40, tRight: 50, skew: 1 };
}

/** px above the bottom of a pressure (hPa): linear in ln p. */
export function upOf(frame: SkewTFrame, p: number): number {
  return frame.height * Math.log(frame.pBottom / p) / Math.log(frame.pBottom / frame.pTop);
}

/** SVG y of a pressure (hPa). */
export function yOf(frame: SkewTFrame, p: number): number {
  return frame.height - upOf(frame, p);
}

/** The pressure (hPa) at an SVG y. */
export function pressureAt(frame: SkewTFrame, y: number): number {
  return frame.pBottom * Math.exp(-((frame.height - y) / frame.height) * Math.log(frame.pBottom / frame.pTop));
}

/** SVG x of a temperature (°C) at a pressure (hPa). */
export function xOf(frame: SkewTFrame, t: number, p: number): number {
  return frame.width * (t - frame.tLeft) / (frame.tRight - frame.tLeft) + frame.skew * upOf(frame, p);
}

/** The temperature (°C) at an SVG point: the inverse of xOf at that point's pressure. */
export function temperatureAt(frame: SkewTFrame, x: number, y: number): number {
  const up = frame.height - y;
  return frame.tLeft + (x - frame.skew * up) * (frame.tRight - frame.tLeft) / frame.width;
}

// ---- axis ticks -----------------------------------------------------------------------------

/** Pressure levels labelled on the axis, hPa (the mandatory levels of a radiosonde report, WMO FM 35). */
export const PRESSURE_TICKS: readonly number[] = [1000, 925, 850, 700, 500, 400, 300, 250, 200, 150, 100];

/** The labelled pressures inside the frame. */
export function pressureTicks(frame: SkewTFrame): number[] {
  return PRESSURE_TICKS.filter((p) => p <= frame.pBottom && p >= frame.pTop);
}

/**
 * Isotherms every `step` of the user's unit, converted to °C: the lines from the coldest one that
 * reaches the chart (its top left corner) to the warmest (its bottom right), each with the value
 * in the user's unit that labels it.
 */
export function isotherms(frame: SkewTFrame, step: number, toUnit: (c: number) => number, fromUnit: (u: number) => number): { value: number; celsius: number }[] {
  const coldest = temperatureAt(frame, 0, 0);
  const warmest = frame.tRight;
  const lo = Math.ceil(toUnit(coldest) / step) * step;
  const hi = Math.floor(toUnit(warmest) / step) * step;
  const out: { value: number; celsius: number }[] = [];
  for (let v = lo; v <= hi + 1e-9; v += step) out.push({ value: Math.round(v * 1e6) / 1e6, celsius: fromUnit(v) });
  return out;
}

/** An isotherm as a segment from the bottom to the top of the frame, SVG coordinates. */
export function isothermLine(frame: SkewTFrame, celsius: number): [number, number, number, number] {
  return [xOf(frame, celsius, frame.pBottom), frame.height, xOf(frame, celsius, frame.pTop), 0];
}

// ---- thermodynamic background lines ----------------------------------------------------------
// The thermodynamics are the soundings' own (common/sounding/thermo.ts: Bolton 1980), so the
// background lines and the parcel curves agree.

/** Poisson's equation: the temperature (°C) at p (hPa) on the dry adiabat of potential temperature θ (°C at 1000 hPa). */
export function dryAdiabatTemperature(thetaCelsius: number, p: number): number {
  return temperatureFromPotential(thetaCelsius + KELVIN, p);
}

/** The temperature (°C) at which air at p (hPa) is saturated with mixing ratio r (kg/kg): a mixing-ratio line. */
export function mixingRatioTemperature(r: number, p: number): number {
  return dewpointFromMixingRatio(r, p);
}

/** The moist (pseudo-)adiabat through `startCelsius` at `startP`, at each pressure of `pressures` (hPa). */
export function moistAdiabatAt(startCelsius: number, startP: number, pressures: readonly number[]): number[] {
  return pressures.map((p) => moistAdiabat(startP, startCelsius, p));
}

/** Pressures a background curve is sampled at, hPa, from the bottom to `top` every `step`. */
export function curvePressures(frame: SkewTFrame, top = frame.pTop, step = 10): number[] {
  const out: number[] = [];
  for (let p = frame.pBottom; p > top; p -= step) out.push(p);
  out.push(top);
  return out;
}

/** An SVG path through (T °C, p hPa) points, two decimals. */
export function curvePath(frame: SkewTFrame, points: readonly { t: number; p: number }[]): string {
  let d = '';
  for (const { t, p } of points) {
    if (!Number.isFinite(t) || !Number.isFinite(p)) continue;
    d += `${d ? 'L' : 'M'}${xOf(frame, t, p).toFixed(2)} ${yOf(frame, p).toFixed(2)}`;
  }
  return d;
}

/** Potential temperatures of the dry adiabats drawn, °C at 1000 hPa. */
export const DRY_ADIABATS: readonly number[] = Array.from({ length: 24 }, (_, i) => -30 + 10 * i);
/** Wet-bulb potential temperatures of the moist adiabats drawn, °C at 1000 hPa. */
export const MOIST_ADIABATS: readonly number[] = [-20, -15, -10, -5, 0, 5, 10, 15, 20, 25, 30, 35];
/** Mixing ratios of the mixing-ratio lines, g/kg, and the pressure they stop at (hPa). */
export const MIXING_RATIOS: readonly number[] = [0.4, 1, 2, 4, 7, 10, 16, 24];
export const MIXING_RATIO_TOP = 600;
/** Moist adiabats stop here: above it they run parallel to the dry ones and only clutter. */
export const MOIST_ADIABAT_TOP = 200;

// ---- profile read-out ------------------------------------------------------------------------

/**
 * A value of a profile at pressure p, linear in ln p between the two levels around it; null
 * outside the profile or where either level lacks the value. `levels` run from the ground up.
 */
export function valueAtPressure<L extends { pressure: number }>(levels: readonly L[], p: number, value: (l: L) => number | null): number | null {
  for (let k = 0; k + 1 < levels.length; k++) {
    const a = levels[k];
    const b = levels[k + 1];
    const hi = Math.max(a.pressure, b.pressure);
    const lo = Math.min(a.pressure, b.pressure);
    if (p > hi || p < lo) continue;
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) return null;
    if (a.pressure === b.pressure) return va;
    const f = Math.log(a.pressure / p) / Math.log(a.pressure / b.pressure);
    return va + f * (vb - va);
  }
  if (levels.length === 1 && levels[0].pressure === p) return value(levels[0]);
  return null;
}

// ---- wind barbs -----------------------------------------------------------------------------

/** Knots per m/s (SPEC §9 units, common/catalogue/metrics.ts). */
const KT_PER_MS = 1.943844;

export interface BarbGlyph {
  /** 50 kt flags, 10 kt full barbs, 5 kt half barbs (WMO Manual on Codes; NWS plotting convention). */
  flags: number;
  full: number;
  half: number;
  /** Under 2.5 kt: drawn as a circle. */
  calm: boolean;
}

/** The glyph of a speed in m/s, rounded to the nearest 5 kt. */
export function barbGlyph(speedMs: number): BarbGlyph {
  const kt = Math.round(speedMs * KT_PER_MS / 5) * 5;
  if (kt < 5) return { flags: 0, full: 0, half: 0, calm: true };
  const flags = Math.floor(kt / 50);
  const full = Math.floor((kt - flags * 50) / 10);
  const half = (kt - flags * 50 - full * 10) >= 5 ? 1 : 0;
  return { flags, full, half, calm: false };
}

/**
 * The SVG path of a wind barb centred on (0, 0): the staff points to where the wind comes from
 * (`fromDeg`, meteorological degrees; up is north), barbs on its clockwise side as on a
 * Northern-Hemisphere chart, flags first from the tip. `length` px; a calm wind is an empty path
 * (draw a circle).
 */
export function barbPath(fromDeg: number, speedMs: number, length = 26): string {
  const glyph = barbGlyph(speedMs);
  if (glyph.calm) return '';
  const a = fromDeg * Math.PI / 180;
  // Unit vector along the staff towards the tip (upwind) and the barb direction (90° clockwise of it, tilted back).
  const sx = Math.sin(a);
  const sy = -Math.cos(a);
  const px = Math.sin(a + Math.PI / 2);
  const py = -Math.cos(a + Math.PI / 2);
  const barb = length * 0.42;
  const gap = length * 0.14;
  const tilt = gap * 0.9;
  const at = (along: number, side: number) => `${(sx * along + px * side).toFixed(2)} ${(sy * along + py * side).toFixed(2)}`;
  let d = `M0 0L${at(length, 0)}`;
  let pos = length;
  if (glyph.full === 0 && glyph.flags === 0) pos -= gap; // a lone half barb sits off the tip, so it reads as 5
  for (let i = 0; i < glyph.flags; i++) {
    d += `M${at(pos, 0)}L${at(pos - gap * 0.5 + tilt, barb)}L${at(pos - gap * 1.2, 0)}Z`;
    pos -= gap * 1.5;
  }
  for (let i = 0; i < glyph.full; i++) {
    d += `M${at(pos, 0)}L${at(pos + tilt, barb)}`;
    pos -= gap;
  }
  if (glyph.half) d += `M${at(pos, 0)}L${at(pos + tilt / 2, barb / 2)}`;
  return d;
}

/**
 * The items drawn where levels crowd (a radiosonde reports every few hPa): from the first (the
 * ground) up, an item is kept when its y is at least `minGap` px from the last one kept.
 */
export function spacedOut<T>(items: readonly T[], y: (item: T) => number, minGap: number): T[] {
  const out: T[] = [];
  let last = Infinity;
  for (const item of items) {
    const at = y(item);
    if (out.length && Math.abs(last - at) < minGap) continue;
    out.push(item);
    last = at;
  }
  return out;
}

// ---- hodograph ------------------------------------------------------------------------------

/** u (east) and v (north) in m/s of a wind from `fromDeg` at `speed` m/s. */
export function windComponents(fromDeg: number, speed: number): { u: number; v: number } {
  const a = fromDeg * Math.PI / 180;
  return { u: -speed * Math.sin(a), v: -speed * Math.cos(a) };
}

/** Height bands of the hodograph, m above ground, and their colours (SPC's hodograph: 0-1, 1-3, 3-6, 6-9, 9-12 km). */
export const HODOGRAPH_BANDS: readonly { from: number; to: number; colour: string }[] = [
  { from: 0, to: 1000, colour: '#e8465a' },
  { from: 1000, to: 3000, colour: '#3fc46a' },
  { from: 3000, to: 6000, colour: '#f2c230' },
  { from: 6000, to: 9000, colour: '#4aa8ff' },
  { from: 9000, to: 12000, colour: '#c77dff' },
];

export interface HodographPoint {
  /** m above ground. */
  agl: number;
  u: number;
  v: number;
}

/**
 * The hodograph's points: levels with a height and a wind, heights above the ground (the sounding's
 * elevation, else its lowest height), up to the top of the last band.
 */
export function hodographPoints(levels: readonly { height: number | null; windDir: number | null; windSpeed: number | null }[], elevation: number | null): HodographPoint[] {
  const withWind = levels.filter((l) => l.height !== null && l.windDir !== null && l.windSpeed !== null);
  if (!withWind.length) return [];
  const ground = elevation ?? Math.min(...withWind.map((l) => l.height!));
  const top = HODOGRAPH_BANDS[HODOGRAPH_BANDS.length - 1].to;
  const out: HodographPoint[] = [];
  for (const l of withWind) {
    const agl = l.height! - ground;
    if (agl < 0 || agl > top) continue;
    out.push({ agl, ...windComponents(l.windDir!, l.windSpeed!) });
  }
  return out.sort((a, b) => a.agl - b.agl);
}

/**
 * The hodograph's line cut at the band boundaries (linear in height between two points), one
 * polyline per band that has points: [band index, points].
 */
export function hodographSegments(points: readonly HodographPoint[]): { band: number; points: HodographPoint[] }[] {
  const bandOf = (agl: number) => HODOGRAPH_BANDS.findIndex((b) => agl >= b.from && agl < b.to);
  const out: { band: number; points: HodographPoint[] }[] = [];
  for (let k = 0; k + 1 < points.length; k++) {
    const a = points[k];
    const b = points[k + 1];
    const cuts = HODOGRAPH_BANDS.map((band) => band.from).filter((h) => h > a.agl && h < b.agl);
    const stops = [a, ...cuts.map((h) => {
      const f = (h - a.agl) / (b.agl - a.agl);
      return { agl: h, u: a.u + f * (b.u - a.u), v: a.v + f * (b.v - a.v) };
    }), b];
    for (let i = 0; i + 1 < stops.length; i++) {
      const band = bandOf((stops[i].agl + stops[i + 1].agl) / 2);
      if (band < 0) continue;
      const last = out[out.length - 1];
      if (last && last.band === band && last.points[last.points.length - 1] === stops[i]) last.points.push(stops[i + 1]);
      else out.push({ band, points: [stops[i], stops[i + 1]] });
    }
  }
  return out;
}

/**
 * Ring spacing and count for a hodograph whose strongest wind is `maxSpeed` (in the unit drawn):
 * a 1-2-5 step giving at most `maxRings` rings, enough rings to hold the strongest wind.
 */
export function hodographRings(maxSpeed: number, maxRings = 5): { step: number; count: number } {
  const need = Math.max(maxSpeed, 1);
  for (const step of [5, 10, 20, 25, 50, 100]) {
    const count = Math.ceil(need / step);
    if (count <= maxRings) return { step, count: Math.max(count, 2) };
  }
  return { step: 100, count: Math.ceil(need / 100) };
}
