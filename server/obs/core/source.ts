/**
 * What an observation source offers the poller (DESIGN.md "Where new capabilities go": one module per
 * upstream in the live-sources folders; observation products publish like model runs do, a
 * manifest then tiles or GeoJSON). An observation source follows one upstream (a radar composite, a
 * satellite, a lightning mapper, storm tracks, alert feeds, fire detections): each poll fetches what
 * is new there and publishes it through the store; a poll that fails leaves the last publication
 * serving.
 */

import type { SourceHttp } from '../../live/http.ts';
import type { SourceLogger } from '../../live/source.ts';
import type { ObsKind } from '../../../common/obsKinds.ts';
import type { ObsStore } from './store.ts';

export { isObsKind, OBS_KINDS, type ObsKind } from '../../../common/obsKinds.ts';

export interface ObsContext {
  http: SourceHttp;
  log: SourceLogger;
  store: ObsStore;
  now: () => number;
  signal: AbortSignal;
}

export interface ObsSource {
  /** Configuration name (ISOBAR_OBS), e.g. `mrms`, `radolan`, `glm`, `nhc`, `nwsAlerts`. */
  readonly id: string;
  readonly kind: ObsKind;
  /** Shown to users with the data: who made it. */
  readonly label: string;
  /** The credit line the upstream's licence asks for. */
  readonly attribution: string;
  /** Minutes between polls (SPEC §9 update intervals: radar and satellite 3, fires 60). */
  readonly intervalMinutes: number;
  /** Set when the source cannot run as configured (a key it needs is missing): logged once, never polled. */
  readonly unsupportedReason?: string;
  /**
   * Fetches what is new upstream and publishes it through `ctx.store`. Throws on failure: bad
   * upstream bytes as an ObsDataError naming what is wrong; the poller logs it and keeps the last
   * publication.
   */
  poll(ctx: ObsContext): Promise<void>;
}

/**
 * An upstream file that cannot be used: malformed, truncated or partial. `source` is the source id
 * and `what` the file or item; the poller logs the message and retries at the next poll.
 */
export class ObsDataError extends Error {
  override readonly name = 'ObsDataError';
  constructor(readonly source: string, readonly what: string, detail: string) {
    super(`${source}: ${what}: ${detail}`);
  }
}
