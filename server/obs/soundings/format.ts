/**
 * What the readers of observed soundings share (SPC tabular, University of Wyoming TEXT:LIST and
 * TEXT:CSV, BUFKIT): their named error, the knot, and the answer of a reader: the `Sounding` and the indices
 * its publisher printed with it (by the publisher's own names, e.g. UWyo's "Lifted index", BUFKIT's
 * LIFT), which the window may show beside ours and the tests compare ours with.
 */

import type { Sounding, SoundingLevel } from '../../../common/sounding/types.ts';

/** A sounding file that cannot be read: truncated, not the format, or with values that are not numbers. */
export class SoundingFormatError extends Error {
  override readonly name = 'SoundingFormatError';
  constructor(readonly format: 'SPC tabular' | 'UWyo TEXT:LIST' | 'UWyo TEXT:CSV' | 'BUFKIT', detail: string) {
    super(`${format}: ${detail}`);
  }
}

export interface ReadSounding {
  sounding: Sounding;
  /** The indices printed with the sounding, by the publisher's names; NaN-free (missing ones left out). */
  published: Record<string, number>;
}

/** m/s per international knot (1852 m / 3600 s). */
export const KNOT_MS = 1852 / 3600;

/** YYMMDD/HHMM (the SPC, UWyo and BUFKIT time stamp, UTC; years 1950-2049) -> ms, NaN when it is not one. */
export function stampTime(stamp: string): number {
  const m = /^(\d{2})(\d{2})(\d{2})\/(\d{2})(\d{2})$/.exec(stamp.trim());
  if (!m) return NaN;
  const [yy, mo, dd, hh, mi] = m.slice(1).map(Number);
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59) return NaN;
  return Date.UTC(yy < 50 ? 2000 + yy : 1900 + yy, mo - 1, dd, hh, mi);
}

/** A level is kept when it has something besides its pressure and height (levels below the ground have not). */
export function hasData(level: SoundingLevel): boolean {
  return level.temp !== null || level.dewpoint !== null || level.windSpeed !== null;
}
