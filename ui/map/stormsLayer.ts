/**
 * The hurricanes overlay's storms (SPEC §3 overlay hurricanes): while it is chosen, the active
 * storms of the storm publication (server/obs/tropical) are drawn over the map as the tracker draws
 * them (ui/panels/hurricanes/stormShapes.ts: tracks by class, forecast points, NHC's cone), and
 * read again every STORMS_REFRESH_MS. While the tracker window is open it draws its own storms
 * (the chosen one, or the season's), so this layer steps aside.
 */

import { signal } from '@preact/signals-core';
import { STORM_DETAIL, STORM_LIST, STORM_LIST_PATH, stormDetailPath, type StormDetail, type StormList } from '../../common/api/storms.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import { stormShapes } from '../panels/hurricanes/stormShapes.ts';
import type { AppState } from '../state/appState.ts';
import type { RenderApi } from '../../workers/api.ts';
import { whileOn } from './whileOn.ts';

/** Advisories come every 6 hours (3 with a storm near land); the list is read again this often. */
export const STORMS_REFRESH_MS = 10 * 60_000;
/** The most storms drawn at once (each is one file to fetch). */
export const MAX_OVERLAY_STORMS = 12;
/** The vector shapes' name of this layer in the worker (the tracker's are 'storms'). */
const SHAPES = 'stormsOverlay';

/** The active storms the overlay draws: null while loading or off, [] when there are none. */
export const overlayStorms = signal<readonly StormDetail[] | null>(null);

/** The storms the overlay draws from a list: the active ones, most recent first, at most MAX_OVERLAY_STORMS. */
export function overlayStormIds(list: StormList): { source: string; id: string }[] {
  return list.storms.filter((s) => s.active).sort((a, b) => b.last.time - a.last.time).slice(0, MAX_OVERLAY_STORMS);
}

async function loadActiveStorms(signal: AbortSignal): Promise<StormDetail[]> {
  let list: StormList;
  try {
    list = await fetchAnswer(STORM_LIST, STORM_LIST_PATH, { signal });
  } catch (e) {
    // Nothing published yet (no storm source): no storms, as when none is active.
    if ((e as { status?: number }).status === 404) return [];
    throw e;
  }
  const details = await Promise.allSettled(overlayStormIds(list).map((s) => fetchAnswer(STORM_DETAIL, stormDetailPath(s.source, s.id), { signal })));
  return details.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []));
}

export function startStormsLayer(app: AppState, api: Pick<RenderApi, 'setShapes'>): () => void {
  return whileOn(
    () => app.layer.overlay.value === 'hurricanes' && !app.panels.windows.value.some((w) => w.ident === 'hurricanes'),
    (signal) => loadActiveStorms(signal).then((storms) => {
      overlayStorms.value = storms;
      void api.setShapes({ name: SHAPES, shapes: storms.length ? stormShapes(storms) : null });
    }, (e: Error) => {
      if (e.name !== 'AbortError') console.warn('Storms could not be read', e.message);
    }),
    STORMS_REFRESH_MS,
    () => {
      // The tracker's window draws the storms meanwhile; the legend keeps the count it had.
      if (app.layer.overlay.peek() !== 'hurricanes') overlayStorms.value = null;
      void api.setShapes({ name: SHAPES, shapes: null });
    },
  );
}
