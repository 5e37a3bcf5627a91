/**
 * Accumulation overlays (SPEC §3 Overlay definition: accumulation flag; Settings: acRange) and the
 * range arithmetic of SPEC §4 "Accumulation" with the constants of SPEC §9.
 *
 * An accumulation shows what happens over the range [timestamp, timestamp + acRange]: the range
 * starts at the shown time and looks forward ("the next 24 hours"). SPEC §4 says so by adjusting the
 * timestamp or acRange "so the range fits the end" of the calendar: only a range that runs forward
 * from the timestamp can overrun the calendar's end.
 *
 *   tile file   source tile file   method
 *   rainAccu    rainAccu           total(t + range) - total(t): totals since the run's start (mm)
 *   snowAccu    snowWe             gain(t + range) - (t): the rise of the snow's water equivalent on
 *                                  the ground (mm), as new snow depth in cm at the 10:1 ratio of
 *                                  snow to liquid (1 mm of water = 1 cm of snow); melt within the
 *                                  range lowers it (the net rise, not the snowfall)
 *   gustAccu    gust               max of the steps in (t, t + range] (m/s)
 *
 * Snow: NCEP WEASD is the snow on the ground (a state, not a total since the start), so both ends
 * must be steps. ECMWF's snowfall (sf, m of water equivalent since the start) would be a `total`,
 * and ECMWF sd / DWD W_SNOW (WMO 0-1-60) a `gain` like WEASD; neither is stored for it yet, so only
 * GFS offers snowAccu.
 */

import { HOUR_MS } from '../time.ts';

/** SPEC §9: accumulation minimum range 12 h. */
export const AC_RANGE_MIN_HOURS = 12;
/** SPEC §9: accumulation end offset 12 h (with fewer hours left, the range is the calendar's last 12 h). */
export const AC_END_OFFSET_HOURS = 12;
/**
 * The ranges offered (SPEC §3 Settings acRange, a number of hours; default 12): the next 12 h,
 * 24 h, 3 days, 5 days and 10 days.
 */
export const AC_RANGES: readonly number[] = [12, 24, 72, 120, 240];
/** The longest range the tile route accepts: the longest forecast of the catalogue (GFS-Wave, 384 h). */
export const AC_RANGE_MAX_HOURS = 384;

export type AccumulationMethod = 'total' | 'gain' | 'max';

export interface AccumulationSource {
  /** Tile file whose steps the accumulation is made from. */
  source: string;
  /**
   * total: difference of two totals since the run's start (0 at the start); gain: difference of a
   * state at both ends, never below 0; max: the largest value of the range's steps.
   */
  method: AccumulationMethod;
  /**
   * For `total` where the product stores no totals (the demo product): the rate file (per hour)
   * whose steps are summed over the range instead.
   */
  rate?: string;
}

/** The accumulation tile files and how the server makes them (see the table above). */
export const ACCUMULATION_SOURCES: Readonly<Record<string, AccumulationSource>> = {
  rainAccu: { source: 'rainAccu', method: 'total', rate: 'rain' },
  snowAccu: { source: 'snowWe', method: 'gain' },
  gustAccu: { source: 'gust', method: 'max' },
};

export function isAccumulationFile(file: string): boolean {
  return Object.prototype.hasOwnProperty.call(ACCUMULATION_SOURCES, file);
}

/** Whether a tile route's acRange is one the server answers: whole hours from the minimum to the maximum. */
export function isValidAcRange(hours: number): boolean {
  return Number.isInteger(hours) && hours >= AC_RANGE_MIN_HOURS && hours <= AC_RANGE_MAX_HOURS;
}

export interface AccumulationWindow {
  /** The shown time, ms: the range's start. */
  timestamp: number;
  /** The range, hours. */
  acRange: number;
}

/**
 * SPEC §4 "Accumulation": the range [timestamp, timestamp + acRange] is fitted to the calendar's
 * end. A range that overruns the end is shortened to end there (in whole hours) while at least
 * AC_RANGE_MIN_HOURS remain; with fewer than AC_END_OFFSET_HOURS remaining, the timestamp becomes
 * end minus AC_END_OFFSET_HOURS and acRange AC_RANGE_MIN_HOURS. A range below the minimum is raised
 * to it first. A calendar shorter than 12 h keeps its start and the range is what it has.
 */
export function fitAccumulation(asked: AccumulationWindow, calendar: { start: number; end: number }): AccumulationWindow {
  const acRange = Math.max(AC_RANGE_MIN_HOURS, Math.round(asked.acRange));
  const { start, end } = calendar;
  if (asked.timestamp + acRange * HOUR_MS <= end) return { timestamp: asked.timestamp, acRange };
  const remaining = Math.floor((end - asked.timestamp) / HOUR_MS);
  if (remaining >= AC_END_OFFSET_HOURS) return { timestamp: asked.timestamp, acRange: remaining };
  const timestamp = Math.max(start, end - AC_END_OFFSET_HOURS * HOUR_MS);
  return { timestamp, acRange: Math.max(1, Math.min(AC_RANGE_MIN_HOURS, Math.floor((end - timestamp) / HOUR_MS))) };
}
