/**
 * Harmonic tide prediction of a station (@neaps/tide-predictor): the height is the sum of the
 * station's constituents (amplitude, phase, speed), each with its nodal corrections f and u for the
 * year, above the station's chart datum; a subordinate station takes its reference station's
 * prediction with its time and height offsets at the high and low waters.
 *
 * Nodal corrections after Schureman (1958), "Manual of Harmonic Analysis and Prediction of Tides",
 * US Coast and Geodetic Survey Special Publication 98, the method NOAA CO-OPS publishes its own
 * predictions with. Against NOAA's official high and low waters of Friday Harbor (9449880) for
 * 15-17 July 2026 (server/tides/predict.test.ts) it is within 6 minutes and 3 cm; the library's
 * default (IHO) within 8 minutes and 3.5 cm.
 */

import { createTidePredictor, useStation, type HarmonicConstituent } from '@neaps/tide-predictor';
import type { Station } from '@neaps/tide-database';
import type { TideExtreme } from '../../common/api/tides.ts';
import { TIDE_CURVE_STEP_MS } from '../../common/tides.ts';
import { MINUTE_MS } from '../../common/time.ts';

export const NODE_CORRECTIONS = 'schureman';

export interface TidePrediction {
  /** The datum heights are above; null when the station has none (then mean sea level). */
  datum: string | null;
  extremes: TideExtreme[];
  curve: { start: number; step: number; heights: number[] };
}

/** Heights to the millimetre: the constituents are given to it. */
const mm = (metres: number) => Math.round(metres * 1000) / 1000;

/**
 * Times of high and low waters to the minute, as NOAA publishes them: the root finder's seconds are
 * not meaningful, and they shift by a fraction of a second with the range asked.
 */
const toMinute = (ms: number) => Math.round(ms / MINUTE_MS) * MINUTE_MS;

/** The first curve time at or after `from`: whole multiples of the step, so curves of one station line up. */
const curveStart = (from: number) => Math.ceil(from / TIDE_CURVE_STEP_MS) * TIDE_CURVE_STEP_MS;

/** High and low waters and the curve of a database station over [from, to] (ms). */
export function predictStation(station: Station, from: number, to: number): TidePrediction {
  // The database's Station type is the predictor's with more fields; the predictor reads its own.
  const predictor = useStation(station as unknown as Parameters<typeof useStation>[0]);
  const options = { nodeCorrections: NODE_CORRECTIONS } as const;
  const found = predictor.getExtremesPrediction({ start: new Date(from), end: new Date(to), ...options });
  const start = curveStart(from);
  // The predictor's timeline runs a step past its end when the end is not on a step: cut at `to`.
  const timeline = start > to ? { timeline: [], datum: found.datum } : predictor.getTimelinePrediction({
    start: new Date(start), end: new Date(to), timeFidelity: TIDE_CURVE_STEP_MS / 1000, ...options,
  });
  return {
    datum: found.datum ?? null,
    extremes: found.extremes.map((e) => ({ time: toMinute(e.time.getTime()), height: mm(e.level), high: e.high })),
    curve: { start, step: TIDE_CURVE_STEP_MS, heights: timeline.timeline.filter((p) => p.time.getTime() <= to).map((p) => mm(p.level)) },
  };
}

/**
 * High and low waters from bare constituents (amplitudes in metres, phases in degrees, as NOAA CO-OPS
 * publishes them), `offset` metres added (the datum's height below mean sea level).
 */
export function predictConstituents(constituents: HarmonicConstituent[], offset: number, from: number, to: number): TideExtreme[] {
  return createTidePredictor(constituents, { offset, nodeCorrections: NODE_CORRECTIONS })
    .getExtremesPrediction({ start: new Date(from), end: new Date(to) })
    .map((e) => ({ time: e.time.getTime(), height: e.level, high: e.high }));
}
