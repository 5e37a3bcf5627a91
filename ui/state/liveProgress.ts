/**
 * Runs on their way from the server's live sources (GET LIVE_PROGRESS_PATH, common/api/liveProgress.ts),
 * for the model picker's "GFS 12Z: 24 of 129 steps" and the desktop progress bar (SPEC §2). Asked
 * once at start, then every LIVE_PROGRESS_POLL_MS while a run arrives or the server is still
 * looking upstream, and not again until the next calendar refresh otherwise. When more of a run is
 * served (or a run is done), the served products are read again: the demo product shown for want
 * of anything real gives way to the best real product for the place (SPEC §4 product selection).
 */

import { signal, type ReadonlySignal } from '@preact/signals-core';
import { LIVE_PROGRESS_ANSWER, LIVE_PROGRESS_PATH, LIVE_PROGRESS_POLL_MS, type LiveRunProgress } from '../../common/api/liveProgress.ts';
import { visibleProducts } from '../../common/catalogue/layerRules.ts';
import { PREFERRED_PRODUCTS, PRODUCTS } from '../../common/catalogue/products.ts';
import { MINUTE_MS } from '../../common/time.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import type { AppState } from './appState.ts';
import type { ServedProduct } from './dataModel.ts';

/** With nothing arriving, how long until the server is asked again (a new run starts every few hours). */
const IDLE_POLL_MS = 10 * MINUTE_MS;

const runs = signal<readonly LiveRunProgress[]>([]);

/** The runs arriving now, as the server last said. */
export const liveRuns: ReadonlySignal<readonly LiveRunProgress[]> = runs;

/** SPEC §4 product selection at start-up, among served real products: the user's preferred, then the preferred list, then any, where it covers the place. */
export function bestRealProduct(served: readonly ServedProduct[], preferred: string, lat: number, lon: number): string | null {
  const visible = visibleProducts(served.map((p) => p.ident), lat, lon);
  const order = [preferred, ...PREFERRED_PRODUCTS, ...visible];
  return order.find((ident) => visible.includes(ident) && PRODUCTS[ident] && !PRODUCTS[ident].demo && !PRODUCTS[ident].sample) ?? null;
}

/** What changed between two answers that calls for the served products to be read again. */
export function servedChanged(before: readonly LiveRunProgress[], after: readonly LiveRunProgress[]): boolean {
  const key = (r: LiveRunProgress) => `${r.ident}@${r.ref}`;
  const now = new Map(after.map((r) => [key(r), r.served]));
  // A run gone from the list is done (published whole), or was given up.
  if (before.some((r) => !now.has(key(r)))) return true;
  return after.some((r) => r.served > (before.find((b) => key(b) === key(r))?.served ?? 0));
}

/** Starts asking; returns the stop. */
export function startLiveProgress(app: AppState): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const poll = async () => {
    timer = null;
    let pending = false;
    try {
      const answer = await fetchAnswer(LIVE_PROGRESS_ANSWER, LIVE_PROGRESS_PATH);
      if (stopped) return;
      const before = runs.peek();
      runs.value = answer.runs;
      pending = answer.pending === true;
      if (servedChanged(before, answer.runs)) {
        await app.data.refreshServed((served) => bestRealProduct(served, app.settings.get('preferredProduct') as string, app.map.lat.peek(), app.map.lon.peek()));
      }
    } catch {
      // An older server without the route, or a network hiccup: asked again later.
    }
    if (!stopped) timer = setTimeout(() => void poll(), runs.peek().length > 0 || pending ? LIVE_PROGRESS_POLL_MS : IDLE_POLL_MS);
  };
  void poll();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
