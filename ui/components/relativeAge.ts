/** "3 minutes ago" in the user's language (Intl.RelativeTimeFormat), from a time and now (ms). */

import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from '../../common/time.ts';

const UNITS: [Intl.RelativeTimeFormatUnit, number, number][] = [
  ['second', SECOND_MS, MINUTE_MS],
  ['minute', MINUTE_MS, HOUR_MS],
  ['hour', HOUR_MS, 2 * DAY_MS],
  ['day', DAY_MS, 60 * DAY_MS],
  ['month', 30.44 * DAY_MS, 730 * DAY_MS],
  ['year', 365.25 * DAY_MS, Infinity],
];

export function relativeAge(time: number, now: number, lang: string): string {
  const age = Math.max(0, now - time);
  const [unit, size] = UNITS.find(([, , below]) => age < below)!;
  return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(-Math.floor(age / size), unit);
}
