/**
 * Why a window of observations (a radiosonde, a weather station, the storms) has nothing to show:
 * the server's observation status (GET /obs/v1.0/status.json, server/obs/core/routes.ts) says
 * whether it follows a source of that family at all, and whether that source has delivered. A
 * server with no internet follows the keyless sources and never hears from them: "not found" or
 * "no storms" would be wrong.
 */

import { OBS_STATUS_ANSWER, OBS_STATUS_PATH } from '../../common/api/obs.ts';
import type { ObsKind } from '../../common/obsKinds.ts';
import { fetchAnswer } from './fetchAnswer.ts';

export interface ObsSource {
  /** Its label; where none of the family has delivered, the labels of all its sources. */
  label: string;
  /** Minutes between its polls. */
  minutes: number;
}

export type ObsSourceState =
  /** No source of the family is followed. */
  | { state: 'none' }
  /**
   * Followed: a source has delivered ('serving': what is missing is missing upstream), or none has
   * yet and its polls worked ('pending', as on a fresh start) or its last one failed ('unreachable').
   */
  | { state: 'serving' | 'pending' | 'unreachable'; source: ObsSource };

/**
 * The family's state, or null where the status could not be read (the caller says what it would
 * without it). `only` keeps the sources that bring what the window shows (the metars family also
 * follows a runway table).
 */
export async function fetchObsSourceState(kind: ObsKind, signal?: AbortSignal, only: (id: string) => boolean = () => true): Promise<ObsSourceState | null> {
  const status = await unlessAborted(fetchAnswer(OBS_STATUS_ANSWER, OBS_STATUS_PATH, { signal }));
  if (!status) return null;
  const sources = status.sources.filter((s) => s.kind === kind && only(s.id));
  if (sources.length === 0) return { state: 'none' };
  const delivered = sources.find((s) => s.lastSuccess !== null);
  if (delivered) return { state: 'serving', source: { label: delivered.label, minutes: delivered.intervalMinutes } };
  // None has delivered: all of them are waited on, asked again on the shortest interval.
  const source = { label: sources.map((s) => s.label).join(', '), minutes: Math.min(...sources.map((s) => s.intervalMinutes)) };
  return { state: sources.some((s) => s.ok) ? 'pending' : 'unreachable', source };
}

/** A read whose failure only means "not known": null, but an abort stays an abort. */
export function unlessAborted<T>(promise: Promise<T>): Promise<T | null> {
  return promise.catch((e: Error) => {
    if (e.name === 'AbortError') throw e;
    return null;
  });
}

/** What a window says for a family with nothing to show: an i18n key and its values. */
export interface NothingShown<K extends string> {
  key: K | 'unavailable' | 'pending' | 'unreachable';
  source?: ObsSource;
}

/**
 * The message for a family with nothing published: 'unavailable' without a source, 'pending' or
 * 'unreachable' while the source has not delivered, and `served` where it has (or the status could
 * not be read): what the window says when the source is fine (not found, none right now).
 */
export function nothingShown<K extends string>(followed: ObsSourceState | null, served: K): NothingShown<K> {
  if (followed === null || followed.state === 'serving') return { key: served, source: followed?.source };
  if (followed.state === 'none') return { key: 'unavailable' };
  return { key: followed.state, source: followed.source };
}
