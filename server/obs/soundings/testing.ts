/**
 * Test helpers: the observed-sounding fixtures of ../shared/data/text/soundings (never copied into
 * the repository), read as text; a sounding written in UWyo's TEXT:CSV layout.
 */

import { readFile } from 'node:fs/promises';
import type { Sounding } from '../../../common/sounding/types.ts';
import { FIXTURES_DIR } from '../../live/testing.ts';
import { UWYO_CSV_HEADER } from './uwyoCsv.ts';

export const SOUNDING_FIXTURE = {
  /** SPC tabular, Omaha/Valley (OAX) 2014-06-16 19 UTC special sounding. */
  spc: 'text/soundings/spc-tabular_OAX_2014061619.txt',
  /** University of Wyoming TEXT:LIST, Norman (72357 OUN) 2018-12-22 12 UTC, with its station block. */
  uwyo: 'text/soundings/uwyo-html_OUN.html',
  /** BUFKIT, RAP forecast for Norman (OUN) from 2018-12-19 04 UTC, 22 hourly soundings with STNPRM indices. */
  bufkit: 'text/soundings/bufkit_rap_OUN.buf',
} as const;

/** Omaha/Valley, NE (WMO 72558, OAX): the SPC file names no position. NWS station list. */
export const OAX_PLACE = { lat: 41.32, lon: -96.37, name: 'Omaha/Valley' } as const;

export function readSoundingFixture(name: keyof typeof SOUNDING_FIXTURE): Promise<string> {
  return readFile(`${FIXTURES_DIR}${SOUNDING_FIXTURE[name]}`, 'utf8');
}

/**
 * A sounding written as weather.uwyo.edu's TEXT:CSV answer (uwyoCsv.ts): the service's header, a row
 * per level from the launch up, a second apart, at the launch position (the real answer follows the
 * balloon's drift); the columns the `Sounding` has no values for (ice point, humidities, mixing
 * ratio) blank, as the service leaves a missing value.
 */
export function uwyoCsvText(sounding: Sounding): string {
  const cell = (v: number | null) => (v === null ? '' : String(v));
  const rows = sounding.levels.map((l, i) => {
    const stamp = new Date(sounding.time + i * 1000).toISOString();
    return [
      `${stamp.slice(0, 10)} ${stamp.slice(11, 19)}`, String(sounding.lon), String(sounding.lat), String(l.pressure), cell(l.height),
      cell(l.temp), cell(l.dewpoint), '', '', '', '', cell(l.windDir), cell(l.windSpeed),
    ].join(',');
  });
  return `${[UWYO_CSV_HEADER.join(','), ...rows].join('\n')}\n`;
}
