/**
 * SPEC §2: "The map-selector opens automatically above zoom 11 (unless the globe library is in
 * use) and closes at zoom 11 or below unless the overlay is topoMap", checked every 200 ms
 * (SPEC §9 map-selector zoom check).
 */

import { DETAIL_MAP_ZOOM } from '../../common/basemapStyles.ts';
import type { AppState } from '../state/appState.ts';

/** The tile base maps are drawn above the same zoom (workers/layers/basemap/tileBasemap.ts). */
const MAP_SELECTOR_ZOOM = DETAIL_MAP_ZOOM;
const MAP_SELECTOR_CHECK_MS = 200;

export function mapSelectorWanted(zoom: number, overlay: string, mapLibrary: string, open: boolean): boolean {
  if (zoom > MAP_SELECTOR_ZOOM) return mapLibrary !== 'globe' || open;
  return open && overlay === 'topoMap';
}

export function startMapSelectorRule(app: AppState): () => void {
  const timer = setInterval(() => {
    const open = app.panels.isOpen('map-selector');
    const wanted = mapSelectorWanted(app.map.zoom.peek(), app.layer.overlay.peek(), app.settings.signal('mapLibrary').peek() as string, open);
    if (wanted && !open) void app.router.openPanel('map-selector');
    else if (!wanted && open) app.router.closePanel('map-selector');
  }, MAP_SELECTOR_CHECK_MS);
  return () => clearInterval(timer);
}
