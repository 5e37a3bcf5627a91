/**
 * A whole GFS run for the fixture server (fixtureServer.ts) from one real GFS file: the messages
 * of the fields the GFS source asks for (GFS_FIELDS), republished as every step of a run
 * (republishGrib). Serves the end-to-end test of live data (tests/liveData.spec.ts) and its bench
 * (bench/liveFirstStep.ts), which start a server with ISOBAR_SOURCES=gfs pointed at the fixture
 * server. The data are real; each step holds the same analysis.
 */

import { republishGrib } from './fixtureIndex.ts';
import { noaaIndexText } from './fixtureIndex.ts';
import type { FixtureServer } from './fixtureServer.ts';
import { GFS_FIELDS, GFS_SCHEDULE, gfsDataUrl } from './gfs.ts';
import { fieldsForStep, selectFields } from './indexedSource.ts';
import { parseNoaaIndex, planRanges } from './indexFiles.ts';
import { candidateRuns, stepRange } from './source.ts';
import { PRODUCTS } from '../../common/catalogue/products.ts';

/** The GFS steps the default source takes: 3-hourly to the product's forecast length. */
export const GFS_STEPS: readonly number[] = stepRange(0, PRODUCTS.gfs.forecastSize, 3);

/** The run a GFS source looking at `now` takes first: the newest its schedule deems complete. */
export function newestGfsRun(now: number): number {
  return candidateRuns(now, GFS_SCHEDULE)[0];
}

/** Only the messages of the fields the GFS source asks for, in file order. */
export function gfsWantedMessages(file: Uint8Array): Uint8Array {
  const entries = selectFields(parseNoaaIndex(noaaIndexText(file)), fieldsForStep(GFS_FIELDS, 0, [0]), 'fixture');
  const parts = planRanges(entries).map((r) => file.subarray(r.start, r.end === null ? file.length : r.end + 1));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Publishes `steps` of run `refTime` in the NOAA layout (with `.idx`); answers the bytes of one step. */
export function putGfsRun(server: FixtureServer, analysis: Uint8Array, refTime: number, steps: readonly number[] = GFS_STEPS): number {
  const wanted = gfsWantedMessages(analysis);
  for (const step of steps) server.putNoaa(gfsDataUrl('', refTime, step), republishGrib(wanted, refTime, step));
  return wanted.length;
}
