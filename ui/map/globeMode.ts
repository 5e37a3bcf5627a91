/**
 * The globe on desktop (SPEC §2 window "globe"; SPEC §5 mapLibrary): the setting mapLibrary is
 * the one truth. 'globe' shows the globe; 'leaflet' and 'maplibre' (the flat map's libraries)
 * show the flat map. The globe button and the globe window's "flat map" set it; the map follows
 * it, at start-up too. Phones keep the flat map (the globe is a desktop window).
 */

import { effect } from '@preact/signals-core';
import type { Overlay } from '../../common/catalogue/overlays.ts';
import type { AppState } from '../state/appState.ts';

type FlatLibrary = 'leaflet' | 'maplibre';
let lastFlat: FlatLibrary = 'leaflet';

/** Shows the globe or goes back to the flat library used before. */
export function showGlobe(app: AppState, on: boolean): void {
  app.settings.set('mapLibrary', on ? 'globe' : lastFlat);
}

/** The map follows the setting mapLibrary from now on; returns the stop. */
export function startGlobeMode(app: AppState): () => void {
  return effect(() => {
    const library = app.settings.signal('mapLibrary').value as string;
    if (library === 'leaflet' || library === 'maplibre') lastFlat = library;
    app.map.setGlobe(library === 'globe' && !app.mobile());
  });
}

/** SPEC §3 overlay definition, unsupported-on-globe flag: such overlays are left out of the menu on the globe. */
export function shownOnGlobe(overlay: Pick<Overlay, 'globeNotSupported'> | undefined, globe: boolean): boolean {
  return !globe || !overlay?.globeNotSupported;
}
