/**
 * Whether the default sources' upstreams answer (ISOBAR_SOURCES unset, config.ts): one HEAD of a
 * small file per source (LiveSource.probeUrl, the index of the newest run's first step), all at
 * once, each given up after PROBE_TIMEOUT_MS. Any HTTP answer counts, a 404 too: the upstream is
 * there. Run after the server listens, so it never slows start-up.
 */

import { SECOND_MS } from '../../common/time.ts';
import type { LiveSource } from './source.ts';

export const PROBE_TIMEOUT_MS = 5 * SECOND_MS;

/** The sources whose upstream answered. */
export async function reachableSources(
  sources: readonly LiveSource[], options: { now?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<LiveSource[]> {
  const now = options.now ?? Date.now();
  const timeout = AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const answered = await Promise.all(sources.map(async (source) => {
    const url = source.probeUrl?.(now);
    if (!url) return false;
    try {
      await fetch(url, { method: 'HEAD', signal, redirect: 'follow' });
      return true;
    } catch {
      return false;
    }
  }));
  return sources.filter((_, k) => answered[k]);
}
