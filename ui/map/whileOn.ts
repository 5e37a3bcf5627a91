/**
 * A layer that reads its data now and every so often while it is on (lightning, fires, METAR
 * stations, the hurricanes overlay's storms): one effect over the signals `on` reads.
 */

import { effect } from '@preact/signals-core';

/**
 * Runs `load` now and every `everyMs` while `on` says so, `whenOff` whenever it says not; a load
 * still running when it goes off is aborted through its signal. Returns the effect's disposer.
 */
export function whileOn(on: () => boolean, load: (signal: AbortSignal) => Promise<void>, everyMs: number, whenOff?: () => void): () => void {
  return effect(() => {
    if (!on()) {
      whenOff?.();
      return;
    }
    const abort = new AbortController();
    void load(abort.signal);
    const timer = setInterval(() => void load(abort.signal), everyMs);
    return () => {
      abort.abort();
      clearInterval(timer);
    };
  });
}
