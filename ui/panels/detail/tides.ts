/**
 * The detail window's tide row (SPEC §1 tide forecast, Premium; §7 GET /tides/v1.0/tides/{lat}/{lon};
 * contract common/api/tides.ts): what to ask (the place's local days from today's midnight), what the
 * answer means for the window (the forecast, the Premium prompt, or nothing where no station is near),
 * and the curve's drawing.
 */

import { TIDE_ANSWER, tidePointPath, type TideAnswer, type TideExtreme } from '../../../common/api/tides.ts';
import { DAY_MS } from '../../../common/time.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { HttpError } from '../../http/httpError.ts';

/** Days of tides the window shows, from the place's midnight today. */
export const TIDE_DAYS = 3;

/** The tide row's state: the forecast; 'premium' (a station is near, the tier has no tides); 'none' (no station near). */
export type TideState = { kind: 'ready'; answer: TideAnswer } | { kind: 'premium' } | { kind: 'none' } | { kind: 'error'; error: Error };

/** Midnight of the local day holding `ms` in `timeZone` (ms). */
export function localMidnight(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const since = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + (ms % 1000);
  return ms - since;
}

/** The tides of a place over its next TIDE_DAYS local days; a 403 is the Premium prompt, a 404 no station. */
export async function fetchTides(lat: number, lon: number, timeZone: string, now: number, signal: AbortSignal, token: string | null): Promise<TideState> {
  const from = localMidnight(now, timeZone);
  try {
    const answer = await fetchAnswer(TIDE_ANSWER, tidePointPath(lat, lon, { from, to: from + TIDE_DAYS * DAY_MS }), { signal, token });
    return { kind: 'ready', answer };
  } catch (error) {
    if (error instanceof HttpError && error.status === 403) return { kind: 'premium' };
    if (error instanceof HttpError && error.status === 404) return { kind: 'none' };
    throw error;
  }
}

/**
 * The curve as an SVG path over a width × height box: time left to right over [from, to], height
 * bottom to top over [low, high] of the curve (with a margin so the extremes' marks fit).
 */
export function tideCurvePath(answer: Pick<TideAnswer, 'from' | 'to' | 'curve'>, width: number, height: number, margin = 6): { path: string; x(ms: number): number; y(h: number): number } {
  const { heights, start, step } = answer.curve;
  const min = Math.min(...heights);
  const max = Math.max(...heights);
  const span = max - min || 1;
  const x = (ms: number) => ((ms - answer.from) / (answer.to - answer.from)) * width;
  const y = (h: number) => margin + (1 - (h - min) / span) * (height - 2 * margin);
  const path = heights.map((h, i) => `${i === 0 ? 'M' : 'L'}${x(start + i * step).toFixed(1)},${y(h).toFixed(1)}`).join('');
  return { path, x, y };
}

/** High and low waters grouped by the place's local day (key: the day's midnight, ms). */
export function extremesByDay(extremes: readonly TideExtreme[], timeZone: string): { day: number; extremes: TideExtreme[] }[] {
  const days: { day: number; extremes: TideExtreme[] }[] = [];
  for (const e of extremes) {
    const day = localMidnight(e.time, timeZone);
    if (days.at(-1)?.day !== day) days.push({ day, extremes: [] });
    days.at(-1)!.extremes.push(e);
  }
  return days;
}
