/**
 * Sun and season for the demo product, as continuous functions of time (no calendar-year
 * boundaries, so nothing jumps on 1 January).
 */

import { DAY_MS, HOUR_MS } from '../../common/time.ts';

/** Mean tropical year, days. */
const TROPICAL_YEAR_DAYS = 365.2422;
/** Obliquity of the ecliptic, degrees. */
export const OBLIQUITY_DEG = 23.44;
/** June solstice 2000, 01:48 UTC: the phase origin of the seasonal cycle. */
const JUNE_SOLSTICE_2000_MS = Date.UTC(2000, 5, 21, 1, 48);

/**
 * The seasonal phase lagged by some days: +1 at the (lagged) June solstice, -1 six months later.
 * Temperatures follow the sun with a lag of about a month over land and longer over the sea.
 */
export function seasonCycle(timeMs: number, lagDays = 0): number {
  const days = (timeMs - JUNE_SOLSTICE_2000_MS) / DAY_MS - lagDays;
  return Math.cos((2 * Math.PI * days) / TROPICAL_YEAR_DAYS);
}

/**
 * Subsolar latitude (solar declination) in degrees, the first-harmonic approximation
 * δ ≈ 23.44° cos(2π (t - t_June solstice) / year) (cf. Cooper 1969, error under ~1°).
 */
export function subsolarLatitude(timeMs: number): number {
  return OBLIQUITY_DEG * seasonCycle(timeMs);
}

/** UTC hour of day, fractional, 0 <= h < 24. */
export function utcHours(timeMs: number): number {
  return (((timeMs % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
}
