/**
 * Why the server has no station of that id (its 404): where stations are published, the id is
 * unknown; where none are yet, the observation status says whether the server follows no station
 * source or waits on one (a fresh start, or no internet), which "not found" would hide.
 */

import { STATIONS_LIST_ANSWER, stationsListPath } from '../../../common/api/stations.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { fetchObsSourceState, nothingShown, unlessAborted, type NothingShown } from '../../http/obsSource.ts';

export type StationMissing = NothingShown<'notFound'>;

export async function whyStationMissing(signal?: AbortSignal): Promise<StationMissing> {
  const list = await unlessAborted(fetchAnswer(STATIONS_LIST_ANSWER, stationsListPath({ lat: 0, lon: 0, limit: 1 }), { signal }));
  if (list === null || list.updated !== null) return { key: 'notFound' };
  return nothingShown(await fetchObsSourceState('stations', signal), 'notFound');
}
