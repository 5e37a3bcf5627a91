/**
 * Why an airport has no current METAR: where the METAR feed has published (the airport answer's
 * metarsUpdated), the station sent none lately ("No current METAR"); where it never has, the
 * observation status says whether the server follows no METAR feed or waits on one (a fresh start,
 * or no internet), which "no current METAR" would hide. The runway table of the same family does
 * not count as a feed.
 */

import { RUNWAYS_SOURCE_ID } from '../../../common/api/airports.ts';
import { fetchObsSourceState, nothingShown, type NothingShown } from '../../http/obsSource.ts';

export type MetarMissing = NothingShown<'noMetar'>;

/** The metars family's METAR feeds: all its sources but the runway table. */
export const isMetarFeed = (id: string): boolean => id !== RUNWAYS_SOURCE_ID;

export async function whyNoMetar(metarsUpdated: number | null, signal?: AbortSignal): Promise<MetarMissing> {
  if (metarsUpdated !== null) return { key: 'noMetar' };
  return nothingShown(await fetchObsSourceState('metars', signal, isMetarFeed), 'noMetar');
}
