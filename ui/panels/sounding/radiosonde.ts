/**
 * An observed sounding of a radiosonde station (SPEC §2 /radiosonde/{id}), as the observation
 * routes publish it: GET /obs/v1.0/soundings/{id}.json answers a `Sounding`
 * (common/sounding/types.ts), GET /obs/v1.0/soundings/stations.json lists the stations. The answer
 * is checked against the shape here before it is drawn, so a malformed one is an error, never a
 * half-drawn diagram.
 */

import { obsFilePath } from '../../../common/api/obs.ts';
import type { Sounding } from '../../../common/sounding/types.ts';
import { fetchAnswer } from '../../http/fetchAnswer.ts';
import { HttpError } from '../../http/httpError.ts';
import { fetchObsSourceState, nothingShown, unlessAborted, type ObsSource } from '../../http/obsSource.ts';

/** Station ids: WMO numbers or ICAO-like letters and digits. */
export const RADIOSONDE_ID = /^[A-Za-z0-9_-]{3,16}$/;

export const radiosondePath = (id: string): string => obsFilePath('soundings', `${encodeURIComponent(id)}.json`);
export const RADIOSONDE_STATIONS_PATH = obsFilePath('soundings', 'stations.json');

const NUMBER_OR_NULL = { type: ['number', 'null'] } as const;

export const SOUNDING_ANSWER = {
  type: 'object',
  required: ['source', 'id', 'lat', 'lon', 'elevation', 'time', 'levels'],
  properties: {
    source: { type: 'string', enum: ['radiosonde', 'model'] },
    id: { type: 'string' },
    name: { type: 'string' },
    lat: { type: 'number' },
    lon: { type: 'number' },
    elevation: NUMBER_OR_NULL,
    time: { type: 'number' },
    refTime: { type: 'number' },
    levels: {
      type: 'array',
      items: {
        type: 'object',
        required: ['pressure', 'height', 'temp', 'dewpoint', 'windDir', 'windSpeed'],
        properties: { pressure: { type: 'number' }, height: NUMBER_OR_NULL, temp: NUMBER_OR_NULL, dewpoint: NUMBER_OR_NULL, windDir: NUMBER_OR_NULL, windSpeed: NUMBER_OR_NULL },
      },
    },
  },
} as const;

/**
 * Why there is no sounding to draw. With no station list yet, the observation status tells a server
 * that follows no radiosonde source ('unavailable') from one that follows it and has published
 * nothing yet: its polls worked ('pending', as on a fresh start) or its last one failed ('unreachable').
 */
export type RadiosondeProblem = 'badId' | 'unknownStation' | 'unavailable' | 'pending' | 'unreachable' | 'failed';

export class RadiosondeError extends Error {
  override name = 'RadiosondeError';
  /** The source's label and poll interval (minutes) for 'pending' and 'unreachable'. */
  constructor(readonly problem: RadiosondeProblem, message: string, readonly source?: ObsSource) {
    super(message);
  }
}

/**
 * The station's latest sounding. A 404 is told apart by the station list: with a list the station
 * is unknown; without one, by the radiosonde source this server follows, if any.
 */
export async function fetchRadiosonde(id: string, signal?: AbortSignal): Promise<Sounding> {
  if (!RADIOSONDE_ID.test(id)) throw new RadiosondeError('badId', `"${id}" is not a station id`);
  try {
    return await fetchAnswer(SOUNDING_ANSWER, radiosondePath(id), { signal }) as Sounding;
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 404) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new RadiosondeError('failed', (error as Error).message);
    }
  }
  const list = await unlessAborted(fetch(RADIOSONDE_STATIONS_PATH, { signal, headers: { Accept: 'application/json' } }));
  if (list?.ok) throw new RadiosondeError('unknownStation', `No sounding of station ${id}`);
  // No list: nothing published. A source that has polled without a sounding to show is still pending.
  const { key, source } = nothingShown(await fetchObsSourceState('soundings', signal) ?? { state: 'none' }, 'pending');
  throw new RadiosondeError(key, source ? `No sounding has come from ${source.label} (${key})` : 'This server publishes no radiosonde soundings', source);
}
