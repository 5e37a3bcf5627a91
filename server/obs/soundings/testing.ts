/**
 * Test helper: the observed-sounding fixtures of ../shared/data/text/soundings (never copied into
 * the repository), read as text.
 */

import { readFile } from 'node:fs/promises';
import { FIXTURES_DIR } from '../../live/testing.ts';

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
