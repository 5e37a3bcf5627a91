/**
 * Test helper shared by server/live/sharedRounds.test.ts and the ingest process it starts
 * (testRoundWorker.ts): the GFS source on the fixture server, as both follow it, and the clock
 * both read.
 */

import { createGfsSource, noaaField } from './gfs.ts';
import type { LiveSource } from './source.ts';

/** 23Z on 16 October 2018: the newest complete run of the fixture series is 18Z. */
export const FIXTURE_NOW = Date.UTC(2018, 9, 16, 23);
export const FIXTURE_RUN = Date.UTC(2018, 9, 16, 18);
export const FIXTURE_STEPS = [0, 3];

export function fixtureGfsSource(baseUrl: string): LiveSource {
  return createGfsSource({
    baseUrl, grid: '1p00', steps: FIXTURE_STEPS, schedule: { runHours: [0, 6, 12, 18], publishDelayMinutes: 60, lookbackHours: 24 },
    fields: [noaaField('UGRD', '10 m above ground'), noaaField('VGRD', '10 m above ground')],
  });
}
