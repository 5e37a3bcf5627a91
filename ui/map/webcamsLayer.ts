/**
 * The webcams POI layer (SPEC §3 setting pois 'cams', URL item p:cams): while it is on, the webcams
 * near the map's centre (common/api/webcams.ts, the directory's and the user's own) are asked again
 * when the map has stopped moving, and drawn by the render worker as marks (workers/layers/webcams).
 */

import { effect } from '@preact/signals-core';
import { transfer } from 'comlink';
import { WEBCAM_LIST, webcamsListPath } from '../../common/api/webcams.ts';
import { WEBCAMS_LIST_MAX, WEBCAMS_NEARBY_MAX_KM } from '../../common/webcams.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import type { AppState } from '../state/appState.ts';
import type { RenderApi } from '../../workers/api.ts';

/** The map must rest this long before the webcams near its new centre are asked. */
const SETTLE_MS = 600;

export function startWebcamsLayer(app: AppState, api: { setWebcams(params: Parameters<RenderApi['setWebcams']>[0]): unknown }): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let abort: AbortController | null = null;
  let shown = false;
  const stop = effect(() => {
    const on = app.settings.signal('pois').value === 'cams';
    const { lat, lon } = app.map.view.value;
    const token = app.settings.signal('userToken').value as string | null;
    clearTimeout(timer);
    abort?.abort();
    if (!on) {
      if (shown) void api.setWebcams(null);
      shown = false;
      return;
    }
    timer = setTimeout(() => {
      const request = new AbortController();
      abort = request;
      const lonW = ((((lon + 180) % 360) + 360) % 360) - 180;
      fetchAnswer(WEBCAM_LIST, webcamsListPath(lat, lonW, { radiusKm: WEBCAMS_NEARBY_MAX_KM, limit: WEBCAMS_LIST_MAX }), { signal: request.signal, token }).then((list) => {
        if (request.signal.aborted) return;
        const lons = Float32Array.from(list.webcams, (w) => w.lon);
        const lats = Float32Array.from(list.webcams, (w) => w.lat);
        const own = Uint8Array.from(list.webcams, (w) => (w.source === 'user' ? 1 : 0));
        shown = true;
        void api.setWebcams(transfer({ lon: lons, lat: lats, own }, [lons.buffer, lats.buffer, own.buffer]));
      }, (error: unknown) => {
        if (!request.signal.aborted) console.warn('Webcams for the map failed to load', error);
      });
    }, SETTLE_MS);
  });
  return () => {
    stop();
    clearTimeout(timer);
    abort?.abort();
  };
}
