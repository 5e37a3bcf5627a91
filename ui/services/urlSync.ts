/**
 * Keeps the address bar in step with the map (SPEC §2 "Shared URL search part"): the search part is
 * rewritten, debounced 200 ms (SPEC §9), on map, overlay, product and picker changes; the wind overlay
 * is omitted as the default; utm_ parameters are dropped; the title follows the overlay.
 *
 * The picker writes d:picker and its place as m:{location code}; the isolines chosen write i:{type}.
 * The poi (p:) item and launchedBy are carried over from the address the page opened with: there
 * are no POIs to change them yet, and a shared link must not lose them.
 */

import { effect } from '@preact/signals-core';
import { encodeLocationCode, formatSearch, type UrlState } from '../../common/url.ts';
import { TIDE_POIS } from '../../common/tides.ts';
import type { AppState } from '../state/appState.ts';
import { trailing } from './trailing.ts';

// SPEC §9: URL update debounce 200 ms.
const URL_DEBOUNCE_MS = 200;

/** The POI sets this app draws (SPEC §3 pois): their toggles write the setting, so the setting says whether one shows. */
const DRAWN_POIS: ReadonlySet<string> = new Set(['firespots', TIDE_POIS, 'metars', 'cams']);

/** The URL's p: item: the drawn set that is on, else the address's own set when the app draws no such set. */
export function poisOfUrl(setting: string, initial: string | undefined): string | undefined {
  if (DRAWN_POIS.has(setting)) return setting;
  return initial !== undefined && !DRAWN_POIS.has(initial) ? initial : undefined;
}

/** What the address bar's search part says now. */
export function urlStateOf(app: AppState): UrlState {
  const product = app.layer.product.peek();
  // The product goes into the URL when it was asked for (in the URL or the picker), never a file opened locally.
  const named = !app.data.local.peek() && (app.initialUrl.product || product !== app.data.startProduct.peek());
  const picker = app.picker.position.peek();
  return {
    overlay: app.layer.overlay.peek(),
    level: app.layer.level.peek(),
    product: named ? product : undefined,
    date: app.initialUrl.date,
    lat: app.map.lat.peek(),
    lon: app.map.lon.peek(),
    zoom: app.map.zoom.peek(),
    pickerCode: picker ? encodeLocationCode(picker.lat, picker.lon) : undefined,
    // The choice, also where this product draws none: the link keeps it for the next one.
    isolines: app.isolines.on.peek() ? app.isolines.type.peek() : undefined,
    // SPEC §2: the POI set shown (a set the map draws, toggled on), else the one the address came with.
    pois: poisOfUrl(app.settings.signal('pois').peek(), app.initialUrl.pois),
    pickerOpen: picker ? true : undefined,
    launchedBy: app.initialUrl.launchedBy,
  };
}

export function startUrlSync(app: AppState, title: (overlay: string) => string): () => void {
  const write = () => {
    const search = formatSearch(urlStateOf(app), app.urlParams);
    const url = `${location.pathname}${search}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
  };
  const debounced = trailing(write, URL_DEBOUNCE_MS);
  const stop = effect(() => {
    void app.map.lat.value;
    void app.map.lon.value;
    void app.map.zoom.value;
    void app.layer.overlay.value;
    void app.layer.level.value;
    void app.layer.product.value;
    void app.picker.position.value;
    void app.isolines.on.value;
    void app.isolines.type.value;
    void app.settings.signal('pois').value;
    debounced.poke();
  });
  const stopTitle = effect(() => {
    document.title = title(app.layer.overlay.value);
  });
  return () => {
    stop();
    stopTitle();
    debounced.cancel();
  };
}
