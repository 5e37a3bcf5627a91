/**
 * The warnings layer's state (SPEC §3 overlay capAlerts): whether the published warnings are drawn
 * over the map, how many areas the worker drew, and the areas under the picker. The worker fetches
 * and draws them (workers/layers/capAlerts); this keeps it following the signal.
 */

import { effect, signal } from '@preact/signals-core';
import { CAP_ALERTS_GEOJSON_PATH } from '../../common/api/capAlerts.ts';
import type { CapAlertAreaInfo } from '../../workers/api.ts';
import type { AppState } from '../state/appState.ts';
import { renderClient } from './renderClient.ts';

/** The warnings toggle: the areas drawn over whatever overlay shows. */
export const capAlertsShown = signal(false);
/** Areas drawn (null while loading or off). */
export const capAlertsDrawn = signal<number | null>(null);
/** false when the server has published no warnings at all (no source has delivered: offline, or ISOBAR_OBS leaves them out). */
export const capAlertsPublished = signal(true);
/** The setting that chooses the warning sources (server/obs/capAlerts/sources.ts; README "Observations"). */
export const CAP_ALERTS_SETTING = 'ISOBAR_OBS=nwsAlerts,ecccAlerts,meteoalarm';
/** The warning areas under the picker, most severe first. */
export const capAlertsPicked = signal<CapAlertAreaInfo[]>([]);

/** The areas are drawn: toggled on, or the capAlerts overlay (the warnings alone) is chosen. */
export function capAlertsOn(app: Pick<AppState, 'layer'>): boolean {
  return capAlertsShown.value || app.layer.overlay.value === 'capAlerts';
}

export function startCapAlertsSync(app: AppState): () => void {
  const api = renderClient.api();
  let request = 0;
  const disposers = [
    effect(() => {
      const shown = capAlertsOn(app);
      const mine = ++request;
      capAlertsDrawn.value = null;
      void api.setCapAlerts(shown ? { url: CAP_ALERTS_GEOJSON_PATH } : null).then(({ areas, published }) => {
        if (mine !== request) return;
        capAlertsDrawn.value = shown ? areas : null;
        capAlertsPublished.value = published;
      });
    }),
    effect(() => {
      const p = app.picker.position.value;
      void capAlertsDrawn.value;
      if (!p || !capAlertsOn(app)) {
        capAlertsPicked.value = [];
        return;
      }
      void api.capAlertsAt({ lon: p.lon, lat: p.lat }).then((areas) => {
        capAlertsPicked.value = areas;
      });
    }),
  ];
  return () => disposers.forEach((d) => d());
}
