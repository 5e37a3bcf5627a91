/**
 * Polls the observation sources: each on its own interval (SPEC §9: radar and satellite every 3
 * minutes, fires every 60), one poll of a source at a time, sources independent of each other. A
 * failed poll is logged (a warning the first time, then quieter until the source recovers) and the
 * last publication keeps serving; the next poll comes at the usual interval.
 */

import { MINUTE_MS } from '../../../common/time.ts';
import { realSleep, SourceHttp, type Sleep } from '../../live/http.ts';
import type { SourceLogger } from '../../live/source.ts';
import type { ObsKind, ObsSource } from './source.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { ObsStore } from './store.ts';

export interface ObsSourceStatus {
  id: string;
  kind: ObsKind;
  label: string;
  attribution: string;
  intervalMinutes: number;
  /** ms since the epoch, or null before the first. */
  lastPollAt: number | null;
  lastSuccessAt: number | null;
  /** The last poll's error message, null after a success. */
  lastError: string | null;
}

export type ObsPollOutcome = { ok: true } | { ok: false; error: unknown };

export interface ObsPoller {
  readonly store: ObsStore;
  status(): ObsSourceStatus[];
  /** Polls a source now (after its poll in progress, if any). */
  pollNow(id: string): Promise<ObsPollOutcome>;
  stop(): Promise<void>;
}

export interface ObsPollerOptions {
  sources: readonly ObsSource[];
  dataDir: string;
  logger: SourceLogger;
  http?: SourceHttp;
  now?: () => number;
  sleep?: Sleep;
  signal?: AbortSignal;
  /** Poll every source on start (default true); false waits for pollNow or the first interval. */
  pollOnStart?: boolean;
  /** Where products are published (server/storage): default the data directory. */
  storage?: ObjectStore;
}

export function startObsPoller(options: ObsPollerOptions): ObsPoller {
  const { logger: log } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;
  const http = options.http ?? new SourceHttp({ log, now, sleep, userAgent: 'Isobar weather map (self-hosted; observation sources)' });
  const store = new ObsStore(options.dataDir, options.storage);
  const states = new Map<string, { source: ObsSource; status: ObsSourceStatus; queue: Promise<unknown>; failing: boolean }>();
  const loops: Promise<void>[] = [];

  for (const source of options.sources) {
    if (source.unsupportedReason) {
      log.warn({ source: source.id, reason: source.unsupportedReason }, 'observation source not started');
      continue;
    }
    states.set(source.id, {
      source, failing: false, queue: Promise.resolve(),
      status: {
        id: source.id, kind: source.kind, label: source.label, attribution: source.attribution,
        intervalMinutes: source.intervalMinutes, lastPollAt: null, lastSuccessAt: null, lastError: null,
      },
    });
  }

  function poll(id: string): Promise<ObsPollOutcome> {
    const state = states.get(id);
    if (!state) return Promise.reject(new Error(`No observation source ${id} is running`));
    const run = async (): Promise<ObsPollOutcome> => {
      const started = now();
      state.status.lastPollAt = started;
      try {
        await state.source.poll({ http, log, store, now, signal });
        state.status.lastSuccessAt = now();
        state.status.lastError = null;
        if (state.failing) log.info({ source: id }, 'observation source recovered');
        state.failing = false;
        log.debug({ source: id, ms: now() - started }, 'observation poll done');
        return { ok: true };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        state.status.lastError = message;
        if (!signal.aborted) {
          const entry = { source: id, err: message };
          if (state.failing) log.debug(entry, 'observation poll failed again; the last publication keeps serving');
          else log.warn(entry, 'observation poll failed; the last publication keeps serving');
        }
        state.failing = true;
        return { ok: false, error };
      }
    };
    const result = state.queue.then(run, run);
    state.queue = result.catch(() => undefined);
    return result;
  }

  async function loop(id: string, intervalMs: number): Promise<void> {
    if (options.pollOnStart === false) await sleep(intervalMs, signal).catch(() => undefined);
    while (!signal.aborted) {
      await poll(id);
      await sleep(intervalMs, signal).catch(() => undefined);
    }
  }

  for (const [id, state] of states) loops.push(loop(id, state.source.intervalMinutes * MINUTE_MS));

  return {
    store,
    status: () => [...states.values()].map((s) => ({ ...s.status })),
    pollNow: poll,
    async stop() {
      stopper.abort();
      await Promise.allSettled([...loops, ...[...states.values()].map((s) => s.queue)]);
    },
  };
}
